//! What the command line asks for, built into the values the program runs with.
//!
//! `cli.rs` says which flags exist and parses each one alone; this module checks them
//! together (a run longer than the board, two people with one name, a person in a
//! simulation) and resolves defaults (the scoreboard's folder, the seed, the thinking
//! time). `main.rs` then only wires adapters to the result. No adapter is named here.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use tictactoe_core::domain::{Geometry, Mark, PlayerName, TimeControl};
use tictactoe_core::play::{GameRef, Settings, SettingsError};
use tictactoe_core::players::{Level, PlayerSpec, seated};
use tictactoe_core::ports::{IdPrefix, PageSize, StoreError};
use tictactoe_players::MinimaxAI;

use crate::cli::{
    AccountsCommand, AnalyzeArgs, Cli, Command, LogFormat, PlayArgs, ScoresArgs, ServeArgs,
    SimulateArgs,
};

/// Everything a run needs, checked.
#[derive(Debug)]
pub struct Config {
    pub database: Database,
    /// Seeds every random choice of the run.
    pub seed: u64,
    /// The games rate nobody: `--seed` fixed their computers' choices, which a person
    /// could learn and play again.
    pub casual: bool,
    /// How long Impossible thinks per move.
    pub think: Duration,
    /// `--plain`: the line-by-line console even on a terminal.
    pub plain: bool,
    pub task: Task,
}

/// Where games and scores are kept, and how it was chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Database {
    pub location: Location,
    /// The scoreboard file of an earlier version, in the data folder, to import once:
    /// only for the default database (one named with `--db` imports with
    /// `scores --import`).
    pub earlier_scoreboard: Option<PathBuf>,
}

impl Database {
    /// Whether it was named (`--db`, `TICTACTOE_DB`) rather than the default one: only
    /// the default one takes in an earlier version's scoreboard by itself.
    pub fn chosen(&self) -> bool {
        self.earlier_scoreboard.is_none()
    }
}

/// A database, as named on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// An SQLite file (`PATH` or `sqlite:PATH`).
    Sqlite(PathBuf),
    /// A PostgreSQL database (`postgres://...` or `postgresql://...`), with the number
    /// of connections to keep open to it.
    Postgres { url: String, pool: u32 },
}

/// Connections kept open to a PostgreSQL database unless `--db-pool` says otherwise:
/// enough for a server's writer and its readers on a small machine (its news of the
/// other servers comes on a connection of its own, outside the pool).
pub const DEFAULT_POOL: u32 = 8;

impl Location {
    /// Reads `--db`: a path, `sqlite:PATH`, or a PostgreSQL URL; `pool` is `--db-pool`,
    /// which only a PostgreSQL database takes.
    fn parse(text: &str, pool: Option<u32>) -> Result<Location, String> {
        let lower = text.to_ascii_lowercase();
        if lower.starts_with("postgres://") || lower.starts_with("postgresql://") {
            let rest = &text[text.find("://").map_or(0, |at| at + 3)..];
            let host = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
            if host.is_empty() || host.starts_with('/') {
                // The address is not repeated: it may hold a password.
                return Err(
                    "--db names no PostgreSQL server: a PostgreSQL database is named \
                     postgres://USER@HOST[:PORT]/NAME"
                        .to_string(),
                );
            }
            return Ok(Location::Postgres {
                url: text.to_string(),
                pool: pool.unwrap_or(DEFAULT_POOL),
            });
        }
        if pool.is_some() {
            return Err(
                "--db-pool (or TICTACTOE_DB_POOL) is for a PostgreSQL database (--db \
                 postgres://...); an SQLite file needs no pool"
                    .to_string(),
            );
        }
        let path = text
            .strip_prefix("sqlite://")
            .or_else(|| text.strip_prefix("sqlite:"))
            .unwrap_or(text);
        if path.is_empty() {
            return Err(format!("--db {text:?} names no file"));
        }
        Ok(Location::Sqlite(PathBuf::from(path)))
    }
}

/// What `scores` does before it shows the scoreboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScoresAction {
    Show,
    Reset(Confirm),
    Restore,
    Import(PathBuf),
}

/// What `accounts` does, on the database's accounts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccountsAction {
    /// Sign the name up as the operator, with a password read then.
    Add(PlayerName),
    List {
        json: bool,
    },
    /// A new password, read then.
    ResetPassword(PlayerName),
    Remove(PlayerName),
}

#[derive(Debug)]
pub enum Task {
    Menu,
    /// One game, on a clock of this control if one was asked for (`--clock`).
    Play(Settings, Option<TimeControl>),
    Scores {
        json: bool,
        top: Option<u64>,
        action: ScoresAction,
    },
    Analyze {
        geometry: Geometry,
        first: Mark,
        json: bool,
        /// False with `--no-book`: every answer proven by search.
        book: bool,
        /// Empty: read boards from standard input.
        boards: Vec<String>,
    },
    Simulate {
        levels: [Level; 2],
        geometry: Geometry,
        first: Mark,
        games: u64,
        json: bool,
    },
    /// The ended games, newest first.
    History {
        player: Option<PlayerName>,
        limit: PageSize,
        /// Older than this game (named by the start of its id).
        before: Option<IdPrefix>,
        json: bool,
        /// The server the games are on: each is shown by its web address there.
        server: Option<PublicUrl>,
    },
    /// A board's ratings listed (after rebuilding them, if asked).
    Ratings {
        /// One person's ratings on every board, rather than `board`'s players.
        player: Option<PlayerName>,
        board: Geometry,
        top: u32,
        json: bool,
        rebuild: Option<Confirm>,
    },
    /// Training on a person's slips: the open puzzles listed, or put to them.
    Train {
        player: PlayerName,
        /// Only the puzzles of games on this board.
        board: Option<Geometry>,
        list: bool,
        json: bool,
    },
    /// A kept game played back.
    Replay {
        game: GameRef,
        review: bool,
        json: bool,
        /// The server the game is on: its web address there is printed.
        server: Option<PublicUrl>,
    },
    /// A web server on `bind`:`port` (port 0: any free one).
    Serve {
        port: u16,
        bind: IpAddr,
        bounds: ServeBounds,
        /// Where Prometheus metrics are served, if anywhere.
        metrics: Option<SocketAddr>,
        logs: LogFormat,
        /// Serve a database found damaged at start (`--allow-damaged`).
        allow_damaged: bool,
    },
    /// What the database's own checks find.
    Check,
    /// A copy of the database at `to`, checked (`overwrite`: replacing what is there).
    Backup {
        to: PathBuf,
        overwrite: bool,
    },
    /// The operator's work on accounts.
    Accounts(AccountsAction),
}

/// What the command line changes of how the server holds against its clients; each
/// `None` keeps the server's default (tictactoe_web's `Limits`, docs/web.md).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServeBounds {
    pub head_deadline: Option<Duration>,
    pub body_deadline: Option<Duration>,
    pub grace: Option<Duration>,
    pub connections_per_client: Option<usize>,
    pub streams_per_client: Option<usize>,
    /// `--engine-memory`, in bytes.
    pub engine_memory: Option<u64>,
    pub trusted_proxies: Vec<IpAddr>,
    /// `--public-url`: the only address the server answers for (but its health checks).
    pub public_url: Option<PublicUrl>,
}

impl ServeBounds {
    fn from_args(args: &ServeArgs) -> Result<ServeBounds, ConfigError> {
        let seconds = |value: Option<u64>| value.map(Duration::from_secs);
        // Both counts are at most a million (the parser's range), so they fit.
        let count = |value: Option<u64>| value.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
        let public_url = args
            .public_url
            .as_deref()
            .map(|url| PublicUrl::parse("--public-url", url))
            .transpose()
            .map_err(|message| usage("serve", message))?;
        Ok(ServeBounds {
            head_deadline: seconds(args.head_timeout),
            body_deadline: seconds(args.body_timeout),
            grace: seconds(args.grace),
            connections_per_client: count(args.connections_per_client),
            streams_per_client: count(args.streams_per_client),
            // At most 64 GiB (the parser's range): the bytes fit.
            engine_memory: args.engine_memory.map(|mib| mib << 20),
            trusted_proxies: args.trust_proxy.clone(),
            public_url,
        })
    }
}

/// `--public-url`, checked: the address people use to reach the server, `http://` or
/// `https://`, a host, a port when it is not the scheme's own, and nothing after it (but
/// a lone `/`): an origin, as a browser names a site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicUrl {
    pub https: bool,
    /// Lower case: a name (letters, digits, `-`, dots between), an IPv4 address, or an
    /// IPv6 address in brackets.
    pub host: String,
    pub port: u16,
}

impl PublicUrl {
    /// The address `flag` was given (`--public-url`, `--server`).
    fn parse(flag: &str, text: &str) -> Result<PublicUrl, String> {
        let wrong = |why: &str| {
            format!(
                "{flag} {text:?} {why}: give the address people use, http://HOST or \
                 https://HOST, with :PORT when it is not the scheme's own \
                 (https://play.example, http://192.0.2.7:8080), and nothing after it"
            )
        };
        let lower = text.to_ascii_lowercase();
        let (https, rest) = match (
            lower.strip_prefix("https://"),
            lower.strip_prefix("http://"),
        ) {
            (Some(rest), _) => (true, rest),
            (None, Some(rest)) => (false, rest),
            (None, None) => return Err(wrong("is not an http:// or https:// address")),
        };
        let authority = rest.strip_suffix('/').unwrap_or(rest);
        if authority.contains(['/', '?', '#']) {
            return Err(wrong("has a path, a query or a fragment"));
        }
        if authority.contains('@') {
            return Err(wrong("has a user name"));
        }
        let (host, port) = match authority.strip_prefix('[') {
            Some(v6) => {
                let (address, after) = v6.split_once(']').ok_or_else(|| wrong("names no host"))?;
                if address.parse::<std::net::Ipv6Addr>().is_err() {
                    return Err(wrong("names no host"));
                }
                let port = match after {
                    "" => None,
                    after => Some(
                        after
                            .strip_prefix(':')
                            .ok_or_else(|| wrong("names no host"))?,
                    ),
                };
                (format!("[{address}]"), port)
            }
            None => {
                let (host, port) = match authority.split_once(':') {
                    Some((host, port)) => (host, Some(port)),
                    None => (authority, None),
                };
                let label = |label: &str| {
                    !label.is_empty()
                        && label
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                };
                if !host.split('.').all(label) {
                    return Err(wrong("names no host"));
                }
                (host.to_string(), port)
            }
        };
        let port = match port {
            None if https => 443,
            None => 80,
            Some(port) => port
                .parse::<u16>()
                .ok()
                .filter(|port| *port != 0)
                .ok_or_else(|| wrong("has no port (1 to 65535) after its colon"))?,
        };
        Ok(PublicUrl { https, host, port })
    }
}

/// `--server URL` of `command`, checked as `serve --public-url` is.
fn server_url(command: &'static str, url: Option<&str>) -> Result<Option<PublicUrl>, ConfigError> {
    url.map(|url| PublicUrl::parse("--server", url))
        .transpose()
        .map_err(|message| usage(command, message))
}

/// Whether `scores --reset` asks first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirm {
    /// `--yes`: clear without asking.
    Given,
    /// Ask the person at the terminal.
    Ask,
}

/// A command line whose flags parse one by one but not together. `subcommand` names the
/// command whose usage should be shown with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError {
    pub subcommand: &'static str,
    pub message: String,
}

/// Why a run cannot start.
#[derive(Debug)]
pub enum ConfigError {
    Usage(UsageError),
    Store(StoreError),
}

impl Config {
    /// Builds the configuration; `default_folder` is the platform's data folder, if any.
    pub fn build(cli: Cli, default_folder: Option<PathBuf>) -> Result<Config, ConfigError> {
        // Only the commands that keep games care where: `analyze` and `simulate` keep
        // nothing, so they run whatever the old setting says.
        let keeps_games = !matches!(
            cli.command,
            Some(Command::Analyze(_) | Command::Simulate(_))
        );
        if let Some(path) = cli.scoreboard.as_ref().filter(|_| keeps_games) {
            return Err(usage(
                "",
                format!(
                    "--scoreboard (or TICTACTOE_SCOREBOARD) is no longer used: games and scores \
                     are kept in a database now. Choose it with --db PATH (or TICTACTOE_DB), and \
                     bring an old scoreboard in with `tictactoe scores --import '{}'`",
                    path.display()
                ),
            ));
        }
        let database = match cli.db.filter(|db| !db.is_empty()) {
            Some(db) => Database {
                location: Location::parse(&db, cli.db_pool)
                    .map_err(|message| usage("", message))?,
                earlier_scoreboard: None,
            },
            None if cli.db_pool.is_some() => {
                return Err(usage(
                    "",
                    "--db-pool (or TICTACTOE_DB_POOL) is for a PostgreSQL database: name it \
                     with --db postgres://USER@HOST/NAME"
                        .to_string(),
                ));
            }
            None => {
                let folder = default_folder.ok_or(ConfigError::Store(StoreError::NoLocation))?;
                Database {
                    location: Location::Sqlite(folder.join("tictactoe.db")),
                    earlier_scoreboard: Some(folder.join("scores.json")),
                }
            }
        };
        // `--plain` where it means something: before the command, or after a command
        // that draws (`play`, `replay`, `train`).
        let plain_here = match &cli.command {
            Some(Command::Play(args)) => args.plain,
            Some(Command::Replay(args)) => args.plain,
            Some(Command::Train(args)) => args.plain,
            _ => false,
        };
        let task = match cli.command {
            None => Task::Menu,
            Some(Command::Play(args)) => play(args)?,
            Some(Command::Scores(args)) => scores(args),
            Some(Command::Analyze(args)) => analyze(args)?,
            Some(Command::Simulate(args)) => simulate(args)?,
            Some(Command::Serve(args)) => Task::Serve {
                port: args.port,
                bind: args.bind,
                bounds: ServeBounds::from_args(&args)?,
                metrics: args.metrics,
                logs: args.log_format,
                allow_damaged: args.allow_damaged,
            },
            Some(Command::Check) => Task::Check,
            Some(Command::Backup(args)) => Task::Backup {
                to: args.to,
                overwrite: args.overwrite,
            },
            Some(Command::Accounts(args)) => Task::Accounts(match args.action {
                AccountsCommand::Add { name } => AccountsAction::Add(name),
                AccountsCommand::List { json } => AccountsAction::List { json },
                AccountsCommand::ResetPassword { name } => AccountsAction::ResetPassword(name),
                AccountsCommand::Remove { name } => AccountsAction::Remove(name),
            }),
            Some(Command::History(args)) => Task::History {
                player: args.player,
                limit: PageSize::new(args.limit).map_err(|e| usage("history", e.to_string()))?,
                before: args.before,
                json: args.json,
                server: server_url("history", args.server.as_deref())?,
            },
            Some(Command::Ratings(args)) => Task::Ratings {
                player: args.player,
                board: Geometry::new(args.size, args.win.unwrap_or(args.size))
                    .map_err(|e| usage("ratings", e.to_string()))?,
                top: args.top,
                json: args.json,
                rebuild: args.rebuild.then_some(if args.yes {
                    Confirm::Given
                } else {
                    Confirm::Ask
                }),
            },
            Some(Command::Train(args)) => Task::Train {
                player: args.player,
                board: args
                    .size
                    .map(|size| Geometry::new(size, args.win.unwrap_or(size)))
                    .transpose()
                    .map_err(|e| usage("train", e.to_string()))?,
                list: args.list,
                json: args.json,
            },
            Some(Command::Replay(args)) => Task::Replay {
                game: args.game,
                review: args.review,
                json: args.json,
                server: server_url("replay", args.server.as_deref())?,
            },
        };
        // `analyze` answers the same every time unless told otherwise: seed 0.
        let seed = match (&task, cli.seed) {
            (_, Some(seed)) => seed,
            (Task::Analyze { .. }, None) => 0,
            (_, None) => rand::random(),
        };
        // `analyze` answers exactly unless told how long it may take; every other
        // command gives Impossible a second a move unless told otherwise.
        let think = match (&task, cli.think_ms) {
            (_, Some(ms)) => Duration::from_millis(ms),
            (Task::Analyze { .. }, None) => Duration::MAX,
            (_, None) => MinimaxAI::<rand::rngs::StdRng>::DEFAULT_BUDGET,
        };
        Ok(Config {
            database,
            casual: cli.seed.is_some(),
            seed,
            think,
            plain: cli.plain || plain_here,
            task,
        })
    }
}

fn usage(subcommand: &'static str, message: impl Into<String>) -> ConfigError {
    ConfigError::Usage(UsageError {
        subcommand,
        message: message.into(),
    })
}

fn geometry(
    subcommand: &'static str,
    board: &crate::cli::BoardArgs,
) -> Result<Geometry, ConfigError> {
    board
        .geometry()
        .map_err(|error| usage(subcommand, error.to_string()))
}

fn play(args: PlayArgs) -> Result<Task, ConfigError> {
    let geometry = geometry("play", &args.board)?;
    // `human` without a name: "Player 1" on X, "Player 2" on O.
    let (x, o) = (seated(args.x, Mark::X), seated(args.o, Mark::O));
    match Settings::new(x, o, args.board.first.into(), geometry) {
        Ok(settings) => Ok(Task::Play(settings, args.clock)),
        Err(SettingsError::SameName(name)) => Err(usage(
            "play",
            format!("both players are called {name}: give them different names"),
        )),
        Err(SettingsError::LookAlike(x, o)) => Err(usage(
            "play",
            format!("{x} and {o} look alike: give them names that read differently"),
        )),
    }
}

fn scores(args: ScoresArgs) -> Task {
    let action = match args {
        ScoresArgs { reset: true, .. } => ScoresAction::Reset(if args.yes {
            Confirm::Given
        } else {
            Confirm::Ask
        }),
        ScoresArgs { restore: true, .. } => ScoresAction::Restore,
        ScoresArgs {
            import: Some(ref file),
            ..
        } => ScoresAction::Import(file.clone()),
        _ => ScoresAction::Show,
    };
    Task::Scores {
        json: args.json,
        top: args.top,
        action,
    }
}

fn analyze(args: AnalyzeArgs) -> Result<Task, ConfigError> {
    Ok(Task::Analyze {
        geometry: geometry("analyze", &args.board)?,
        first: args.board.first.into(),
        json: args.json,
        book: !args.no_book,
        boards: args.boards,
    })
}

fn simulate(args: SimulateArgs) -> Result<Task, ConfigError> {
    // Without a pairing: the perfect player against itself.
    let impossible = PlayerSpec::Computer(Level::Impossible);
    let (x, o) = (
        args.x.unwrap_or(impossible.clone()),
        args.o.unwrap_or(impossible),
    );
    let levels = match (&x, &o) {
        (PlayerSpec::Computer(x), PlayerSpec::Computer(o)) => [*x, *o],
        _ => {
            return Err(usage(
                "simulate",
                "simulate plays computers only: use random, easy, medium or impossible",
            ));
        }
    };
    Ok(Task::Simulate {
        levels,
        geometry: geometry("simulate", &args.board)?,
        first: args.board.first.into(),
        games: args.games,
        json: args.json,
    })
}

/// Whether to colour the output: `CLICOLOR_FORCE` (set, not empty, not `0`) forces it;
/// otherwise `NO_COLOR` (set and not empty) or `TERM=dumb` turn it off; otherwise only a
/// terminal gets colour. `var` reads the environment.
pub fn colour_wanted(var: impl Fn(&str) -> Option<String>, stdout_is_terminal: bool) -> bool {
    let set = |name: &str| var(name).is_some_and(|value| !value.is_empty());
    if set("CLICOLOR_FORCE") && var("CLICOLOR_FORCE").as_deref() != Some("0") {
        return true;
    }
    if set("NO_COLOR") || var("TERM").as_deref() == Some("dumb") {
        return false;
    }
    stdout_is_terminal
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, FromArgMatches};

    use super::*;

    /// The command line as typed, and nothing else: flags that may also come from the
    /// environment (`TICTACTOE_DB`, `TICTACTOE_DB_POOL`, `TICTACTOE_SCOREBOARD`) read none here, so these tests pass whatever
    /// the person running them has set.
    fn parse(args: &[&str]) -> Cli {
        let command = Cli::command().mut_args(|arg| arg.env(None));
        let matches = command
            .try_get_matches_from(std::iter::once("tictactoe").chain(args.iter().copied()))
            .expect("flags that parse");
        Cli::from_arg_matches(&matches).expect("flags that parse")
    }

    fn build(args: &[&str]) -> Result<Config, ConfigError> {
        Config::build(parse(args), Some(PathBuf::from("/data")))
    }

    fn usage_error(args: &[&str]) -> UsageError {
        match build(args) {
            Err(ConfigError::Usage(error)) => error,
            other => panic!("expected a usage error, got {other:?}"),
        }
    }

    #[test]
    fn the_default_database_is_in_the_data_folder_beside_the_old_scoreboard() {
        let config = build(&["scores"]).unwrap();

        assert_eq!(
            config.database,
            Database {
                location: Location::Sqlite(PathBuf::from("/data/tictactoe.db")),
                earlier_scoreboard: Some(PathBuf::from("/data/scores.json")),
            }
        );
    }

    #[rstest::rstest]
    #[case::a_path("/tmp/games.db", "/tmp/games.db")]
    #[case::an_sqlite_name("sqlite:/tmp/games.db", "/tmp/games.db")]
    #[case::an_sqlite_url("sqlite:///tmp/games.db", "/tmp/games.db")]
    #[case::a_relative_path("sqlite:games.db", "games.db")]
    fn a_chosen_database_is_that_file_and_imports_nothing_by_itself(
        #[case] db: &str,
        #[case] path: &str,
    ) {
        let config = build(&["--db", db, "scores"]).unwrap();

        assert_eq!(
            config.database,
            Database {
                location: Location::Sqlite(PathBuf::from(path)),
                earlier_scoreboard: None,
            }
        );
    }

    #[rstest::rstest]
    #[case::postgres_without_a_host("postgres:///games", "postgres://USER@HOST")]
    #[case::no_file("sqlite:", "names no file")]
    fn a_database_that_cannot_be_used_is_a_usage_error(#[case] db: &str, #[case] says: &str) {
        let error = usage_error(&["--db", db, "scores"]);

        assert!(error.message.contains(says), "{}", error.message);
    }

    #[rstest::rstest]
    #[case::postgres("postgres://ada@db.example/games")]
    #[case::postgresql("postgresql://ada:secret@10.0.0.5:5433/games")]
    fn a_postgres_url_names_a_postgres_database_with_the_default_pool(#[case] url: &str) {
        let config = build(&["--db", url, "scores"]).unwrap();

        assert_eq!(
            config.database.location,
            Location::Postgres {
                url: url.to_string(),
                pool: DEFAULT_POOL
            }
        );
    }

    #[test]
    fn db_pool_sets_the_connections_kept_open_to_postgres() {
        let config = build(&[
            "--db",
            "postgres://ada@db/games",
            "--db-pool",
            "20",
            "serve",
        ])
        .unwrap();

        assert!(matches!(
            config.database.location,
            Location::Postgres { pool: 20, .. }
        ));
    }

    #[rstest::rstest]
    #[case::with_a_file(&["--db", "games.db", "--db-pool", "4", "scores"])]
    #[case::with_the_default_file(&["--db-pool", "4", "scores"])]
    fn db_pool_without_postgres_is_a_usage_error(#[case] args: &[&str]) {
        let error = usage_error(args);

        assert!(error.message.contains("PostgreSQL"), "{}", error.message);
    }

    #[test]
    fn a_postgres_url_without_a_host_is_refused_without_repeating_its_password() {
        let error = usage_error(&["--db", "postgres://ada:secret@/games", "scores"]);

        assert!(
            error.message.contains("postgres://USER@HOST"),
            "{}",
            error.message
        );
        assert!(!error.message.contains("secret"), "{}", error.message);
    }

    #[test]
    fn the_old_scoreboard_flag_is_refused_with_what_to_use_instead() {
        let error = usage_error(&["--scoreboard", "/tmp/s.json", "scores"]);

        assert!(error.message.contains("--db PATH"), "{}", error.message);
        assert!(
            error
                .message
                .contains("tictactoe scores --import '/tmp/s.json'"),
            "{}",
            error.message
        );
    }

    #[rstest::rstest]
    #[case::analyze(&["--scoreboard", "/tmp/s.json", "analyze", "x........"])]
    #[case::simulate(&["--scoreboard", "/tmp/s.json", "simulate", "--games", "1"])]
    fn the_commands_that_keep_nothing_run_whatever_the_old_scoreboard_flag_says(
        #[case] args: &[&str],
    ) {
        assert!(build(args).is_ok());
    }

    #[rstest::rstest]
    #[case::show(&["scores"], ScoresAction::Show)]
    #[case::reset_asking(&["scores", "--reset"], ScoresAction::Reset(Confirm::Ask))]
    #[case::reset_told(&["scores", "--reset", "--yes"], ScoresAction::Reset(Confirm::Given))]
    #[case::restore(&["scores", "--restore"], ScoresAction::Restore)]
    #[case::import(&["scores", "--import", "old.json"], ScoresAction::Import(PathBuf::from("old.json")))]
    fn scores_does_one_thing_before_showing_the_table(
        #[case] args: &[&str],
        #[case] expected: ScoresAction,
    ) {
        let config = build(args).unwrap();

        assert!(matches!(config.task, Task::Scores { action, .. } if action == expected));
    }

    #[test]
    fn without_a_data_folder_or_a_choice_there_is_no_database() {
        let cli = parse(&["scores"]);

        let result = Config::build(cli, None);

        assert!(matches!(
            result,
            Err(ConfigError::Store(StoreError::NoLocation))
        ));
    }

    #[test]
    fn a_run_longer_than_the_board_is_a_usage_error_of_that_command() {
        let error = usage_error(&["analyze", "--size", "4", "--win", "5"]);

        assert_eq!(error.subcommand, "analyze");
        assert!(
            error
                .message
                .contains("from 3 to the board size (4), not 5")
        );
    }

    #[rstest::rstest]
    #[case::two_people_with_one_name_whatever_its_case(
        &["play", "--x", "human:Ada", "--o", "human:ADA"],
        "play"
    )]
    #[case::people_in_a_simulation(&["simulate", "--x", "human", "--o", "easy"], "simulate")]
    fn players_who_cannot_play_together_are_a_usage_error_of_the_command(
        #[case] args: &[&str],
        #[case] command: &str,
    ) {
        let error = usage_error(args);

        assert_eq!(error.subcommand, command);
    }

    #[rstest::rstest]
    #[case::without_players(&["simulate"], [Level::Impossible, Level::Impossible])]
    #[case::given_one_side(&["simulate", "--o", "random"], [Level::Impossible, Level::Random])]
    fn a_simulation_plays_the_perfect_player_on_a_side_not_given(
        #[case] args: &[&str],
        #[case] expected: [Level; 2],
    ) {
        let config = build(args).unwrap();

        assert!(matches!(config.task, Task::Simulate { levels, .. } if levels == expected));
    }

    #[test]
    fn a_person_without_a_name_plays_under_the_number_of_their_mark() {
        let config = build(&["play", "--x", "easy", "--o", "human"]).unwrap();

        let Task::Play(settings, _) = config.task else {
            panic!("not a game: {:?}", config.task);
        };
        assert_eq!(
            settings.player(Mark::O),
            &PlayerSpec::Human(Some(PlayerName::new("Player 2").unwrap()))
        );
    }

    #[test]
    fn play_on_a_clock_plays_on_the_time_control_given() {
        let config = build(&["play", "--x", "human", "--o", "easy", "--clock", "3+2"]).unwrap();

        assert!(matches!(
            config.task,
            Task::Play(_, Some(control)) if control.to_string() == "3+2"
        ));
    }

    #[test]
    fn play_without_a_clock_plays_without_one() {
        let config = build(&["play", "--x", "human", "--o", "easy"]).unwrap();

        assert!(matches!(config.task, Task::Play(_, None)));
    }

    #[rstest::rstest]
    #[case::words(
        "blitz",
        "a clock is written minutes+seconds (3+2) or seconds a move (30s)"
    )]
    #[case::too_short("4s", "a clock gives at least 5 seconds")]
    fn a_clock_that_cannot_be_played_on_is_a_usage_error_that_says_why(
        #[case] given: &str,
        #[case] says: &str,
    ) {
        let command = Cli::command().mut_args(|arg| arg.env(None));

        let error = command
            .try_get_matches_from([
                "tictactoe",
                "play",
                "--x",
                "human",
                "--o",
                "easy",
                "--clock",
                given,
            ])
            .unwrap_err();

        assert_eq!(error.exit_code(), 2);
        assert!(error.to_string().contains(says), "{error}");
    }

    #[rstest::rstest]
    #[case::before_the_command(&["--plain", "play", "--x", "human", "--o", "easy"])]
    #[case::after_play(&["play", "--plain", "--x", "human", "--o", "easy"])]
    #[case::after_replay(&["replay", "last", "--plain"])]
    #[case::after_train(&["train", "--player", "Ada", "--plain"])]
    fn plain_is_taken_before_the_command_or_after_the_commands_that_show_a_game(
        #[case] args: &[&str],
    ) {
        assert!(build(args).unwrap().plain);
    }

    /// Each command that offers `--plain`, written with its required arguments.
    const DRAWING_COMMANDS: [&[&str]; 3] = [
        &["play", "--x", "human", "--o", "easy"],
        &["replay", "last"],
        &["train", "--player", "Ada"],
    ];

    #[test]
    fn every_command_that_offers_plain_obeys_it_after_its_name() {
        // Arrange: the commands whose help offers --plain, as clap knows them.
        let mut command = Cli::command();
        command.build();
        let offering: Vec<String> = command
            .get_subcommands()
            .filter(|sub| sub.get_arguments().any(|arg| arg.get_id() == "plain"))
            .map(|sub| sub.get_name().to_string())
            .collect();
        let written: Vec<String> = DRAWING_COMMANDS
            .iter()
            .map(|args| args[0].to_string())
            .collect();
        assert_eq!(
            offering, written,
            "a command offers --plain that this test does not try"
        );

        for args in DRAWING_COMMANDS {
            // Act
            let config = build(&[args, &["--plain"]].concat()).unwrap();

            // Assert
            assert!(config.plain, "{args:?} --plain is not plain");
        }
    }

    #[rstest::rstest]
    #[case::add(&["accounts", "add", "Ada"], AccountsAction::Add(PlayerName::new("Ada").unwrap()))]
    #[case::list(&["accounts", "list"], AccountsAction::List { json: false })]
    #[case::list_as_json(&["accounts", "list", "--json"], AccountsAction::List { json: true })]
    #[case::reset_password(
        &["accounts", "reset-password", "ada"],
        AccountsAction::ResetPassword(PlayerName::new("ada").unwrap())
    )]
    #[case::remove(&["accounts", "remove", "Ada"], AccountsAction::Remove(PlayerName::new("Ada").unwrap()))]
    fn accounts_does_what_its_subcommand_says(
        #[case] args: &[&str],
        #[case] expected: AccountsAction,
    ) {
        let config = build(args).unwrap();

        assert!(matches!(config.task, Task::Accounts(action) if action == expected));
    }

    #[test]
    fn accounts_add_refuses_a_name_nobody_may_take_in_the_names_words() {
        let refused = Cli::command()
            .try_get_matches_from(["tictactoe", "accounts", "add", "Computer (Impossible)"])
            .unwrap_err();

        assert!(
            refused
                .to_string()
                .contains("kept for the computer players"),
            "{refused}"
        );
    }

    #[test]
    fn the_servers_help_does_not_offer_plain() {
        let mut command = Cli::command();
        command.build();

        let serve = command.find_subcommand_mut("serve").unwrap();

        assert!(serve.get_arguments().all(|arg| arg.get_id() != "plain"));
    }

    #[test]
    fn a_named_database_is_chosen_and_the_default_one_is_not() {
        assert!(
            build(&["--db", "games.db", "scores"])
                .unwrap()
                .database
                .chosen()
        );
        assert!(!build(&["scores"]).unwrap().database.chosen());
    }

    #[test]
    fn a_server_listens_on_loopback_port_8080_unless_told_otherwise() {
        let config = build(&["serve"]).unwrap();

        assert!(matches!(
            config.task,
            Task::Serve { port: 8080, bind, ref bounds, metrics: None, logs: LogFormat::Text, allow_damaged: false }
                if bind.is_loopback() && *bounds == ServeBounds::default()
        ));
        assert!(matches!(
            build(&["serve", "--bind", "0.0.0.0", "--port", "0"]).unwrap().task,
            Task::Serve { port: 0, bind, .. } if bind.is_unspecified()
        ));
    }

    #[test]
    fn a_servers_deadlines_shares_and_trusted_proxies_are_set_from_the_command_line() {
        let config = build(&[
            "serve",
            "--head-timeout",
            "3",
            "--body-timeout",
            "4",
            "--grace",
            "0",
            "--connections-per-client",
            "1000",
            "--streams-per-client",
            "5",
            "--engine-memory",
            "64",
            "--trust-proxy",
            "10.0.0.1",
            "--trust-proxy",
            "::1",
        ])
        .unwrap();

        let Task::Serve { bounds, .. } = config.task else {
            panic!("not a server: {:?}", config.task);
        };
        assert_eq!(
            bounds,
            ServeBounds {
                head_deadline: Some(Duration::from_secs(3)),
                body_deadline: Some(Duration::from_secs(4)),
                grace: Some(Duration::ZERO),
                connections_per_client: Some(1000),
                streams_per_client: Some(5),
                engine_memory: Some(64 << 20),
                trusted_proxies: vec!["10.0.0.1".parse().unwrap(), "::1".parse().unwrap()],
                public_url: None,
            }
        );
    }

    /// The public URL `serve --public-url URL` is given.
    fn public_url(url: &str) -> Result<Option<PublicUrl>, ConfigError> {
        build(&["serve", "--public-url", url]).map(|config| match config.task {
            Task::Serve { bounds, .. } => bounds.public_url,
            other => panic!("not a server: {other:?}"),
        })
    }

    #[rstest::rstest]
    #[case::https_on_its_own_port("https://Play.Example", true, "play.example", 443)]
    #[case::with_a_slash_after("https://play.example/", true, "play.example", 443)]
    #[case::http_on_another_port("HTTP://192.0.2.7:8080", false, "192.0.2.7", 8080)]
    #[case::an_ipv6_address("http://[2001:DB8::1]:8081", false, "[2001:db8::1]", 8081)]
    fn a_public_url_is_a_scheme_a_host_and_a_port(
        #[case] url: &str,
        #[case] https: bool,
        #[case] host: &str,
        #[case] port: u16,
    ) {
        let public = public_url(url).unwrap();

        assert_eq!(
            public,
            Some(PublicUrl {
                https,
                host: host.to_string(),
                port
            })
        );
    }

    #[rstest::rstest]
    #[case::no_scheme("play.example", "is not an http:// or https:// address")]
    #[case::another_scheme("ftp://play.example", "is not an http:// or https:// address")]
    #[case::a_path("https://play.example/games", "has a path, a query or a fragment")]
    #[case::a_query("https://play.example?x=1", "has a path, a query or a fragment")]
    #[case::a_user("https://ada@play.example", "has a user name")]
    #[case::no_host("https://", "names no host")]
    #[case::an_empty_label("https://play..example", "names no host")]
    #[case::an_ipv6_address_without_brackets("http://::1:8080", "names no host")]
    #[case::no_port_number("https://play.example:", "has no port (1 to 65535)")]
    #[case::port_zero("https://play.example:0", "has no port (1 to 65535)")]
    #[case::a_port_too_large("https://play.example:65536", "has no port (1 to 65535)")]
    fn a_public_url_that_is_not_an_origin_is_a_usage_error_of_serve(
        #[case] url: &str,
        #[case] why: &str,
    ) {
        let Err(ConfigError::Usage(error)) = public_url(url) else {
            panic!("{url} was taken");
        };

        assert_eq!(error.subcommand, "serve");
        assert!(error.message.contains(why), "{}", error.message);
        assert!(
            error
                .message
                .contains("https://play.example, http://192.0.2.7:8080"),
            "{}",
            error.message
        );
    }

    #[rstest::rstest]
    #[case::no_head_time(&["serve", "--head-timeout", "0"])]
    #[case::no_body_time(&["serve", "--body-timeout", "0"])]
    #[case::no_connections(&["serve", "--connections-per-client", "0"])]
    #[case::not_an_address(&["serve", "--trust-proxy", "proxy.example"])]
    fn a_server_bound_that_makes_no_sense_is_refused(#[case] args: &[&str]) {
        let parsed = Cli::command()
            .try_get_matches_from(std::iter::once("tictactoe").chain(args.iter().copied()));

        assert!(parsed.is_err(), "{args:?} was taken");
    }

    #[test]
    fn a_game_draws_fresh_random_choices_unless_given_a_seed() {
        // The computers a person is rated against play from a new seed each run, as
        // they were calibrated (two draws of 64 bits are equal once in 2^64).
        let play = ["play", "--x", "human:Ada", "--o", "random"];

        let (first, second) = (build(&play).unwrap(), build(&play).unwrap());

        assert_ne!(first.seed, second.seed);
    }

    #[rstest::rstest]
    #[case::fresh_choices(&["play", "--x", "human:Ada", "--o", "random"], false)]
    #[case::choices_fixed_by_a_seed(&["--seed", "7", "play", "--x", "human:Ada", "--o", "random"], true)]
    fn games_are_casual_exactly_when_a_seed_fixes_the_computers_choices(
        #[case] args: &[&str],
        #[case] casual: bool,
    ) {
        let config = build(args).unwrap();

        assert_eq!(config.casual, casual);
    }

    #[test]
    fn analyze_is_reproducible_unless_given_a_seed() {
        assert_eq!(build(&["analyze", "x........"]).unwrap().seed, 0);
        assert_eq!(build(&["--seed", "9", "analyze"]).unwrap().seed, 9);
    }

    #[rstest::rstest]
    #[case::a_terminal(&[], true, true)]
    #[case::a_pipe(&[], false, false)]
    #[case::no_color(&[("NO_COLOR", "1")], true, false)]
    #[case::no_color_set_but_empty(&[("NO_COLOR", "")], true, true)]
    #[case::a_dumb_terminal(&[("TERM", "dumb")], true, false)]
    #[case::forced_into_a_pipe(&[("CLICOLOR_FORCE", "1")], false, true)]
    #[case::forced_beats_no_color(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")], false, true)]
    #[case::force_zero_forces_nothing(&[("CLICOLOR_FORCE", "0")], false, false)]
    fn colour_follows_the_usual_conventions(
        #[case] environment: &[(&str, &str)],
        #[case] terminal: bool,
        #[case] expected: bool,
    ) {
        let var = |name: &str| {
            environment
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| value.to_string())
        };

        assert_eq!(colour_wanted(var, terminal), expected);
    }

    #[test]
    fn analyze_reads_the_opening_book_unless_told_not_to() {
        let book = |args: &[&str]| match build(args).unwrap().task {
            Task::Analyze { book, .. } => book,
            _ => panic!("{args:?} is not analyze"),
        };

        assert!(book(&["analyze", "x........"]));
        assert!(!book(&["analyze", "--no-book", "x........"]));
    }

    #[test]
    fn analyze_has_no_time_limit_unless_given_one() {
        assert_eq!(
            build(&["analyze", "x........"]).unwrap().think,
            Duration::MAX
        );
        assert_eq!(
            build(&["--think-ms", "50", "analyze", "x........"])
                .unwrap()
                .think,
            Duration::from_millis(50)
        );
    }

    #[test]
    fn thinking_time_defaults_to_a_second() {
        assert_eq!(
            build(&["scores"]).unwrap().think,
            Duration::from_millis(1000)
        );
        assert_eq!(
            build(&["--think-ms", "50", "scores"]).unwrap().think,
            Duration::from_millis(50)
        );
    }
}
