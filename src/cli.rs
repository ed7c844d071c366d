//! The command line, as clap reads it. Values are parsed into domain types here, at the
//! edge, so a bad `--x` is a usage error (exit 2) before anything runs.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use tictactoe_core::domain::{Geometry, GeometryError, Mark, PlayerName, TimeControl, excerpt};
use tictactoe_core::play::GameRef;
use tictactoe_core::players::PlayerSpec;
use tictactoe_core::ports::{IdPrefix, PageSize};

#[derive(Debug, Parser)]
#[command(
    name = "tictactoe",
    version,
    about = "Tic Tac Toe in the terminal, against a friend or the computer."
)]
#[command(after_help = "With no command, opens the interactive menu.")]
pub struct Cli {
    /// The database that keeps games and scores: a file path, sqlite:PATH, or a
    /// PostgreSQL database as postgres://USER@HOST/NAME (with :PASSWORD and :PORT as
    /// usual), which several servers can share [default: tictactoe.db in this
    /// platform's data folder]
    #[arg(long, global = true, env = "TICTACTOE_DB", value_name = "DB")]
    pub db: Option<String>,

    /// Connections kept open to a PostgreSQL database [default: 8]
    #[arg(
        long = "db-pool",
        global = true,
        env = "TICTACTOE_DB_POOL",
        value_name = "N",
        value_parser = clap::value_parser!(u32).range(1..=1000)
    )]
    pub db_pool: Option<u32>,

    /// Replaced by --db: refused with a message saying so, never ignored
    #[arg(
        long,
        global = true,
        env = "TICTACTOE_SCOREBOARD",
        value_name = "PATH",
        hide = true
    )]
    pub scoreboard: Option<PathBuf>,

    /// Seed for every random choice, so games can be replayed exactly; a game played
    /// with it (play, the menu) is casual: it rates nobody. For serve it only seeds the
    /// server's computers: its games are rated as usual
    #[arg(long, global = true, value_name = "S")]
    pub seed: Option<u64>,

    /// The longest the Impossible player thinks per move, in milliseconds [default: 1000;
    /// for analyze, no limit]
    #[arg(long = "think-ms", global = true, value_name = "MS")]
    pub think_ms: Option<u64>,

    /// Play line by line, as for a pipe or a screen reader, even on a terminal (the
    /// menu, play, replay and train; after those commands too)
    #[arg(long)]
    pub plain: bool,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play one game, no menus
    Play(PlayArgs),
    /// Show the scoreboard
    Scores(ScoresArgs),
    /// Ask the engine what perfect play makes of positions
    Analyze(AnalyzeArgs),
    /// Play many computer-vs-computer games and count the results (not recorded)
    Simulate(SimulateArgs),
    /// Serve the game as a web page (and a JSON API) until Ctrl-C
    Serve(ServeArgs),
    /// List the games played, newest first
    History(HistoryArgs),
    /// Play a kept game back, move by move (with --review: what perfect play says of each)
    Replay(ReplayArgs),
    /// List the players by rating on one board (Glicko-2, the computer levels as anchors)
    Ratings(RatingsArgs),
    /// Train on your own slips: positions from your reviewed games where your move threw
    /// a value away, put to you again
    Train(TrainArgs),
    /// Check the database for damage without changing it: exit 0 if none is found, 1 if
    /// some is (or it cannot be read)
    #[command(
        after_help = "An SQLite file is read whole (SQLite's quick_check: every page, every \
                      index entry); a PostgreSQL database is checked for what is cheap: that \
                      it answers, that it is tictactoe's and of a version this one knows, \
                      and that no index is left invalid. `serve` runs the same check before \
                      it serves."
    )]
    Check,
    /// Copy the database to a new file while a server may be using it, then check the
    /// copy as `check` does (SQLite files; PostgreSQL has pg_dump)
    #[command(
        after_help = "The copy is one moment of the database (SQLite's online backup): every \
                      game answered before it began, none half-written, while the server goes \
                      on serving. It is written beside FILE and named FILE only when whole. A \
                      PostgreSQL database is backed up with `pg_dump --format=custom --file \
                      FILE URL` (docs/deploy.md)."
    )]
    Backup(BackupArgs),
    /// Accounts, for whoever runs the server: add one (a name with kept games too), list
    /// them, give one a new password, remove one
    Accounts(AccountsArgs),
}

#[derive(Debug, Args)]
#[command(
    after_help = "A password is read from standard input when it is not a terminal: its first \
                  line, without the newline that ends it and with nothing else taken away \
                  (spaces count), as in `printf '%s\\n' \"$PASSWORD\" | tictactoe accounts add \
                  Ada`. At a terminal it is typed twice, not shown. It is never printed nor \
                  logged, and kept only as its Argon2id hash. --db names the server's \
                  database: its file, or its postgres:// address."
)]
pub struct AccountsArgs {
    #[command(subcommand)]
    pub action: AccountsCommand,
}

#[derive(Debug, Subcommand)]
pub enum AccountsCommand {
    /// Add an account, with a password
    ///
    /// Adds the account NAME as the operator: unlike a person signing up, the operator
    /// may give a name that has kept games (played before accounts, or by a guest) to
    /// the person who played them, and the games and ratings under it are then that
    /// account's. A name an account has, or one that looks like it, is refused. The
    /// password is read from standard input, or typed twice at a terminal (see
    /// `tictactoe accounts --help`).
    Add {
        /// The name, as its person will sign in with it
        #[arg(value_name = "NAME", value_parser = new_name)]
        name: PlayerName,
    },
    /// List the accounts: name, when made (UTC), sessions open, personal tokens
    List {
        /// One JSON object per line per account: name, created, sessions, tokens
        #[arg(long)]
        json: bool,
    },
    /// Give an account a new password, ending its sessions and revoking its tokens
    ///
    /// The new password is read as `add` reads it. Every session of the account ends
    /// and every personal token of it is revoked, at once: whoever held them signs in
    /// again with the new password.
    ResetPassword {
        /// The account's name (in any case)
        #[arg(value_name = "NAME", value_parser = player_name)]
        name: PlayerName,
    },
    /// Remove an account with its sessions and tokens; its games stay
    ///
    /// Removes the account NAME, with its sessions and personal tokens, without asking
    /// (scripts use it). Its games stay as they are, and the name is free again: a
    /// person cannot sign up with it while it has kept games, the operator can give it
    /// with `add`.
    Remove {
        /// The account's name (in any case)
        #[arg(value_name = "NAME", value_parser = player_name)]
        name: PlayerName,
    },
}

/// How many rows `ratings` lists when not told.
pub const RATINGS_TOP: u32 = 20;

#[derive(Debug, Args)]
#[command(
    after_help = "A person has one rating per board (size and run), made by Glicko-2 from every \
                  game they played to its end (finished or resigned), as lichess rates its \
                  players: 1500 at first, provisional (marked ?) while its deviation is above \
                  110. The computer levels are anchors: each has a fixed rating per board, \
                  found by calibration, that no game moves. Games between computers rate \
                  nobody. --rebuild forgets the ratings and makes them again from the kept \
                  games, in the order they were rated: the same figures to the last digit."
)]
pub struct RatingsArgs {
    /// One player's ratings, a row per board they were rated on, instead of a board's
    /// players (names compared as on the scoreboard)
    #[arg(long, value_name = "NAME", value_parser = player_name,
          conflicts_with_all = ["size", "win", "top", "rebuild"])]
    pub player: Option<PlayerName>,

    /// Board size, from 3 to 7
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = board_size)]
    pub size: usize,

    /// Marks in a row to win, from 3 to the size [default: the size]
    #[arg(long, value_name = "K", value_parser = run_length)]
    pub win: Option<usize>,

    /// How many rows to list, the levels' anchors among them (1 or more)
    #[arg(long, value_name = "N", default_value_t = RATINGS_TOP, value_parser = rows)]
    pub top: u32,

    /// One JSON object per line per row: name, rating, deviation, provisional, games, anchor
    #[arg(long)]
    pub json: bool,

    /// Make every rating again from the kept games first
    #[arg(long)]
    pub rebuild: bool,

    /// With --rebuild: rebuild without asking (needed when not run from a terminal)
    #[arg(long, requires = "rebuild")]
    pub yes: bool,
}

#[derive(Debug, Args)]
#[command(
    after_help = "A puzzle is a position from one of the player's ended games where the game's \
                  review (kept once made) proves that their move threw a value away: a win to \
                  a draw or a loss, a draw to a loss. Training first reviews the player's \
                  games not reviewed yet, so playing is enough. A move the review did not \
                  prove in time (a hard 7x7 position) makes no puzzle. An answer is right \
                  when it keeps the value; a wrong one may be tried again, or the answer \
                  shown (what the review said, the best moves lit), and the puzzle stays. \
                  Every answer is kept; a puzzle solved twice running, on different days \
                  (UTC) or with another puzzle tried in between, retires, and a right answer \
                  says whether it did. On a terminal the puzzles are full screen; with \
                  --plain, or from a pipe, line by line (a cell's number or coordinate; q \
                  stops)."
)]
pub struct TrainArgs {
    /// Whose slips: a person's name, as on the scoreboard
    #[arg(long, value_name = "NAME", value_parser = player_name)]
    pub player: PlayerName,

    /// Only puzzles from games on this board size, from 3 to 7 [default: every board]
    #[arg(long, value_name = "N", value_parser = board_size)]
    pub size: Option<usize>,

    /// With --size: marks in a row to win, from 3 to the size [default: the size]
    #[arg(long, value_name = "K", value_parser = run_length, requires = "size")]
    pub win: Option<usize>,

    /// List the open puzzles instead of training on them
    #[arg(long)]
    pub list: bool,

    /// With --list: one JSON object per line per puzzle: game, ply, board, to_move,
    /// value, best_moves
    #[arg(long, requires = "list")]
    pub json: bool,

    /// Train line by line, as for a pipe or a screen reader, even on a terminal (where
    /// training is otherwise full screen)
    #[arg(long, conflicts_with = "list")]
    pub plain: bool,
}

/// How many games `history` lists when not told.
pub const HISTORY_PAGE: u64 = 20;

#[derive(Debug, Args)]
#[command(
    after_help = "Lists the games that ended (finished, resigned or left), newest first, a page \
                  at a time: the last line names the command for the next page. GAME ids are \
                  shown as their shortest start that names one game; `tictactoe replay ID` \
                  plays one back."
)]
pub struct HistoryArgs {
    /// Only this player's games (names compared as on the scoreboard)
    #[arg(long, value_name = "NAME", value_parser = player_name)]
    pub player: Option<PlayerName>,

    /// How many games to list, from 1 to 1000
    #[arg(long, value_name = "N", default_value_t = HISTORY_PAGE, value_parser = page_size)]
    pub limit: u64,

    /// List the games older than this one (an id, or the start of one): the next page
    #[arg(long, value_name = "GAME", value_parser = id_prefix)]
    pub before: Option<IdPrefix>,

    /// One JSON object per line per game, with the whole id
    #[arg(long)]
    pub json: bool,

    /// The web address of the server these games are on (https://HOST, as its
    /// --public-url): each game is shown by its address there, which opens it
    #[arg(long, value_name = "URL")]
    pub server: Option<String>,
}

#[derive(Debug, Args)]
#[command(
    after_help = "GAME is `last` (the game that ended last), a game's id, or the start of one \
                  (as `tictactoe history` shows it). On a terminal the replay is full screen: \
                  Left and Right step through the moves, Home and End go to either end, q \
                  leaves. With --plain, or not on a terminal, the positions are printed in \
                  order. A review is computed once per game and kept; --think-ms is each \
                  position's thinking time (default 1000)."
)]
pub struct ReplayArgs {
    /// The game: `last`, an id, or the start of one
    #[arg(value_name = "GAME", value_parser = game_ref)]
    pub game: GameRef,

    /// Say, for every move, what perfect play makes of it: the value for its player before
    /// and after, and the moves that would have kept what a move threw away
    #[arg(long)]
    pub review: bool,

    /// One JSON object per line per move
    #[arg(long)]
    pub json: bool,

    /// Print the moves line by line, even on a terminal
    #[arg(long)]
    pub plain: bool,

    /// The web address of the server this game is on (https://HOST, as its
    /// --public-url): the game's address there is printed with it
    #[arg(long, value_name = "URL")]
    pub server: Option<String>,
}

#[derive(Debug, Args)]
pub struct BackupArgs {
    /// The new file to copy the database to
    #[arg(long, value_name = "FILE")]
    pub to: std::path::PathBuf,

    /// Replace FILE if it is already there (without this, nothing is overwritten)
    #[arg(long)]
    pub overwrite: bool,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port)
    #[arg(long, default_value_t = 8080, value_name = "N")]
    pub port: u16,

    /// The address to listen on; 0.0.0.0 lets other machines in
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub bind: std::net::IpAddr,

    /// Seconds a client has to send a request's head (its first line and headers),
    /// counted from when the connection is ready for it [default: 10]
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub head_timeout: Option<u64>,

    /// Seconds a client has to send a request's body once its head is in [default: 10]
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub body_timeout: Option<u64>,

    /// Seconds requests in flight get to finish after Ctrl-C or SIGTERM, before every
    /// connection is closed [default: 5]
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(0..=600))]
    pub grace: Option<u64>,

    /// Connections one client (an IPv4 address, an IPv6 /64) may hold open [default: 256]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub connections_per_client: Option<u64>,

    /// Games one client may follow live at once (event streams) [default: 64]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub streams_per_client: Option<u64>,

    /// MiB the computer's tables of positions may hold, across every board shape; past
    /// it, the table that grows starts again (its answers take longer, nothing is
    /// wrong), and tables nobody has used for 20 s are let go [default: 256]
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(16..=65536))]
    pub engine_memory: Option<u64>,

    /// A proxy in front of the server whose X-Forwarded-For is believed (repeat for
    /// several); its clients are counted by the address it forwards
    #[arg(long, value_name = "ADDR")]
    pub trust_proxy: Vec<std::net::IpAddr>,

    /// The address people use to reach the server, http://HOST or https://HOST, with
    /// :PORT if not the scheme's own (the proxy's, behind one): a request sent to any
    /// other (its Host) is then refused, but for the health checks
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,

    /// Serve Prometheus metrics at http://ADDR/metrics (an address and port of their
    /// own, such as 127.0.0.1:9090; the public port never serves them)
    #[arg(long, value_name = "ADDR")]
    pub metrics: Option<std::net::SocketAddr>,

    /// How the server's log is written to standard error: text for people, json (one
    /// object per line) for log collectors; RUST_LOG chooses what is logged
    #[arg(long, value_enum, default_value_t = LogFormat::Text, value_name = "FORMAT")]
    pub log_format: LogFormat,

    /// Serve a database that the check at start finds damaged (see `tictactoe check`):
    /// the games on damaged pages are refused (503), the rest are served. Without it,
    /// serve says what is damaged and exits 1, changing nothing
    #[arg(long)]
    pub allow_damaged: bool,
}

/// How `serve` writes its log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Args)]
#[command(
    after_help = "BOARD is the cells row by row from the top-left: X, O, and . - or _ for empty; \
                        / and spaces are ignored (xx./xoo/... is fine). Without BOARD arguments, \
                        boards are read from standard input, one per line. --seed defaults to 0 here."
)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub board: BoardArgs,

    /// One JSON object per line per board
    #[arg(long)]
    pub json: bool,

    /// Prove every answer by search, without the opening book of 7x7 five in a row
    #[arg(long = "no-book")]
    pub no_book: bool,

    /// Boards to analyse
    #[arg(value_name = "BOARD")]
    pub boards: Vec<String>,
}

#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// Who plays X: random, easy, medium or impossible [default: impossible]
    #[arg(long = "x", value_name = "SPEC")]
    pub x: Option<PlayerSpec>,

    /// Who plays O: random, easy, medium or impossible [default: impossible]
    #[arg(long = "o", value_name = "SPEC")]
    pub o: Option<PlayerSpec>,

    /// How many games
    #[arg(long, default_value_t = 1000, value_name = "N")]
    pub games: u64,

    #[command(flatten)]
    pub board: BoardArgs,

    /// One JSON line instead of text
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Who plays X: human, human:NAME, random, easy, medium or impossible
    #[arg(long = "x", value_name = "SPEC")]
    pub x: PlayerSpec,

    /// Who plays O: human, human:NAME, random, easy, medium or impossible
    #[arg(long = "o", value_name = "SPEC")]
    pub o: PlayerSpec,

    #[command(flatten)]
    pub board: BoardArgs,

    /// Play on a clock: minutes each and seconds added a move (3+2), or seconds a move
    /// (30s). A side out of time loses (a draw if the other could no longer complete a
    /// line); a first move not made within 30 seconds aborts the game
    #[arg(long, value_name = "CONTROL", value_parser = time_control)]
    pub clock: Option<TimeControl>,

    /// Play line by line, as for a pipe or a screen reader, even on a terminal
    #[arg(long)]
    pub plain: bool,
}

/// The board's shape and who moves first, shared by the commands that play or analyse.
#[derive(Debug, Args)]
pub struct BoardArgs {
    /// Board size, from 3 to 7
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = board_size)]
    pub size: usize,

    /// Marks in a row to win, from 3 to the size [default: the size]
    #[arg(long, value_name = "K", value_parser = run_length)]
    pub win: Option<usize>,

    /// Which mark moves first (on a board to analyse, it decides the side to move when
    /// the counts are equal)
    #[arg(long, value_enum, default_value_t = First::X)]
    pub first: First,
}

impl BoardArgs {
    /// The shape asked for; a run longer than the board is refused here, once both are known.
    pub fn geometry(&self) -> Result<Geometry, GeometryError> {
        Geometry::new(self.size, self.win.unwrap_or(self.size))
    }
}

/// A board size, with the range in the domain's words when it is out of range.
fn board_size(text: &str) -> Result<usize, String> {
    let size = whole_number(text)?;
    Geometry::new(size, 3)
        .map(|_| size)
        .map_err(|e| e.to_string())
}

/// A run length: at least 3 (the upper bound depends on the size, checked later).
fn run_length(text: &str) -> Result<usize, String> {
    match whole_number(text)? {
        win @ 3.. => Ok(win),
        win => Err(format!("the run to win must be 3 or more, not {win}")),
    }
}

/// A player's name as the scoreboard keeps it (a computer's, `Computer (Impossible)`,
/// too).
fn player_name(text: &str) -> Result<PlayerName, String> {
    PlayerName::stored(text).map_err(|e| format!("\"{}\" is not a name: {e}", excerpt(text)))
}

/// A name a person may take: cleaned, and refused when it cannot be anybody's (a
/// computer's, one with nothing visible).
fn new_name(text: &str) -> Result<PlayerName, String> {
    PlayerName::new(text).map_err(|e| format!("\"{}\" is not a name: {e}", excerpt(text)))
}

/// A time control as people write it (`3+2`, `30s`), with what is wrong with it.
fn time_control(text: &str) -> Result<TimeControl, String> {
    text.parse()
        .map_err(|e| format!("\"{}\" is not a clock: {e}", excerpt(text)))
}

/// How many rows to list: 1 or more.
fn rows(text: &str) -> Result<u32, String> {
    match u32::try_from(whole_number(text)?) {
        Ok(0) => Err("0 rows would list nobody: give 1 or more".to_string()),
        Ok(rows) => Ok(rows),
        Err(_) => Err(format!(
            "\"{}\" is more rows than can be listed",
            excerpt(text)
        )),
    }
}

/// A page's size: 1 to 1000 games.
fn page_size(text: &str) -> Result<u64, String> {
    let games = whole_number(text)? as u64;
    PageSize::new(games)
        .map(|_| games)
        .map_err(|e| e.to_string())
}

fn id_prefix(text: &str) -> Result<IdPrefix, String> {
    IdPrefix::parse(text.trim()).map_err(|e| format!("\"{}\": {e}", excerpt(text)))
}

fn game_ref(text: &str) -> Result<GameRef, String> {
    GameRef::parse(text.trim()).map_err(|e| format!("\"{}\" is not `last`: {e}", excerpt(text)))
}

fn whole_number(text: &str) -> Result<usize, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("\"{}\" is not a whole number", excerpt(text)))
}

#[derive(Debug, Args)]
#[command(
    after_help = "The scoreboard counts the finished games in the database (and any scoreboard \
                  imported). --reset keeps every game: --restore counts them again."
)]
pub struct ScoresArgs {
    /// Print JSON instead of a table
    #[arg(long)]
    pub json: bool,

    /// Show only the first N rows (1 or more)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub top: Option<u64>,

    /// Clear the scoreboard first (every game is kept: --restore brings it back)
    #[arg(long, conflicts_with_all = ["restore", "import"])]
    pub reset: bool,

    /// With --reset: clear without asking (needed when not run from a terminal)
    #[arg(long, requires = "reset")]
    pub yes: bool,

    /// Take back the last --reset: its scores count again, with every game since
    #[arg(long, conflicts_with = "import")]
    pub restore: bool,

    /// Add the scores of a scoreboard file of an earlier version (scores.json), once
    #[arg(long, value_name = "FILE")]
    pub import: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum First {
    X,
    O,
}

impl From<First> for Mark {
    fn from(first: First) -> Mark {
        match first {
            First::X => Mark::X,
            First::O => Mark::O,
        }
    }
}
