//! The composition root: reads the command line, builds the concrete parts, plugs them
//! into the application, and turns the outcome into an exit status. No game logic here,
//! and no checking of flags (that is `config.rs`): this is the one file that names the
//! adapters.

mod accounts;
mod cli;
mod config;
mod logs;
mod ratings;
mod train;

/// jemalloc rather than the system's malloc, so that memory freed is given back to the
/// system: after a server has held thousands of connections at once, glibc's malloc
/// kept the 70 MB they took (docs/web.md, "Hostile clients"). jemalloc does, with a
/// background thread that hands back pages unused for a second.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's settings, read once when it starts (its documented `malloc_conf`, under
/// the `_rjem_` prefix tikv-jemallocator gives its symbols): freed pages go back to
/// the system after a second, by a thread of jemalloc's own, even while the program
/// is idle. `_RJEM_MALLOC_CONF` in the environment still overrides them.
#[unsafe(export_name = "_rjem_malloc_conf")]
static JEMALLOC_SETTINGS: &[u8; 60] =
    b"background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0\0";

use std::io::{self, IsTerminal, Write};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use indicatif::{ProgressBar, ProgressDrawTarget};
use rand::SeedableRng;
use rand::rngs::StdRng;
use tictactoe_console::{
    ConsoleInput, ConsoleRenderer, GameEnd, HistoryTable, Input, InputHandler, ScoreTable, Session,
    Stop, discard_terminal_input, words,
};
use tictactoe_core::domain::{Geometry, Mark};
use tictactoe_core::play::{
    Analyzer, FindError, GameRef, Replay, Report, Review, Tally, analyze_all, find_game, review,
    short_id,
};
use tictactoe_core::players::{Advisor, ComputerFactory, Level};
use tictactoe_core::ports::{
    AccountStore, Archive, GameId, HistoryQuery, IdPrefix, Imported, PageSize, Restored, StoreError,
};
use tictactoe_core::sync::lock;
use tictactoe_json::{
    ScoresJsonWriter, move_review_json, rated_summary_json, replay_json, report_json, tally_json,
};
use tictactoe_json_store::read_scoreboard;
use tictactoe_passwords::Argon2Passwords;
use tictactoe_players::{
    Memory, MinimaxAI, Progress, Proven, SharedSolvers, Stage, StandardComputers,
};
use tictactoe_postgres_store::{Options as PostgresOptions, PostgresStore};
use tictactoe_sqlite_store::{BackupError, SqliteStore};
use tictactoe_terminal::{Ending, Start, run_full_screen, run_replay};

use crate::cli::Cli;
use crate::config::{
    AccountsAction, Config, ConfigError, Confirm, Database, Location, ScoresAction, ServeBounds,
    Task, UsageError,
};

/// Exit status for a failure, including a `play` game whose input ended before it did.
const FAILURE: u8 = 1;
/// Exit status for bad usage: clap uses it for bad flags, `analyze` for bad boards.
const USAGE: u8 = 2;

fn main() -> ExitCode {
    // One decision for every painter: ours and the `colored` crate's.
    colored::control::set_override(colour());
    let default_folder =
        directories::ProjectDirs::from("", "", "tictactoe").map(|dirs| dirs.data_dir().to_owned());
    let config = match Config::build(Cli::parse(), default_folder) {
        Ok(config) => config,
        Err(ConfigError::Usage(error)) => usage_exit(error),
        Err(ConfigError::Store(error)) => return fail_store(&error),
    };
    match run(config) {
        Ok(code) => code,
        Err(Failure::Store(error)) => fail_store(&error),
        Err(Failure::Other(error)) => fail(&*error),
    }
}

/// Prints a usage error with the usage of the command it concerns, and exits 2.
fn usage_exit(error: UsageError) -> ! {
    let mut command = Cli::command();
    command.build();
    let subcommand = command
        .find_subcommand_mut(error.subcommand)
        .cloned()
        .unwrap_or(command);
    subcommand
        .clone()
        .error(ErrorKind::ValueValidation, error.message)
        .exit()
}

enum Failure {
    Store(StoreError),
    Other(Box<dyn std::error::Error>),
}

impl<E: std::error::Error + 'static> From<E> for Failure {
    fn from(error: E) -> Self {
        Failure::Other(Box::new(error))
    }
}

/// Reports a failure on standard error and gives the failure status.
fn fail(error: &dyn std::error::Error) -> ExitCode {
    eprintln!("tictactoe: {error}");
    ExitCode::from(FAILURE)
}

/// Reports a database that cannot be used, with what to do about it, and gives the
/// failure status. The database itself is left as it is, whatever happened.
fn fail_store(error: &StoreError) -> ExitCode {
    eprintln!("tictactoe: {error}");
    if let Some(advice) = store_advice(error) {
        eprintln!("{advice}");
    }
    ExitCode::from(FAILURE)
}

/// What a person can do about a database that cannot be used.
fn store_advice(error: &StoreError) -> Option<String> {
    let elsewhere = "or choose another database with --db PATH (or TICTACTOE_DB)";
    // A PostgreSQL database is named by its URL (without its password): its advice is
    // about a server, not a file.
    let server = |database: &str| {
        let lower = database.to_ascii_lowercase();
        lower.starts_with("postgres://") || lower.starts_with("postgresql://")
    };
    Some(match error {
        StoreError::NoLocation => "Choose a database with --db PATH (or TICTACTOE_DB).".to_string(),
        StoreError::Folder { database } => format!(
            "Name a file, such as {}.",
            std::path::Path::new(database)
                .join("tictactoe.db")
                .display()
        ),
        StoreError::Unreadable { database, .. } if server(database) => format!(
            "The database holds tables this program did not make, or rows it cannot read: \
             nothing was changed; {elsewhere}."
        ),
        StoreError::Unreadable { .. } => format!(
            "Keep the file if its games matter (a copy of it may be repaired); to start \
             afresh, move it away, {elsewhere}."
        ),
        StoreError::Newer { .. } => format!("Use the newer tictactoe, {elsewhere}."),
        StoreError::Locked { .. } => format!(
            "Another program holds it: try again when it is done (a stuck tictactoe can be \
             stopped), {elsewhere}."
        ),
        StoreError::ReadOnly { database } if server(database) => format!(
            "The server takes no writes (a replica, or a read-only database): name the \
             primary, {elsewhere}."
        ),
        StoreError::ReadOnly { .. } => format!("Make it (and its folder) writable, {elsewhere}."),
        StoreError::Full { database } if server(database) => {
            format!("Free some space on the database server's disk, {elsewhere}.")
        }
        StoreError::Full { .. } => format!("Free some space on that disk, {elsewhere}."),
        StoreError::Unavailable { database, .. } if server(database) => format!(
            "Check that the PostgreSQL server is running and reachable, and the user, \
             password and database name in the URL, {elsewhere}."
        ),
        StoreError::Unavailable { .. } => format!("Check the file and its folder, {elsewhere}."),
        StoreError::NoSuchGame(_) | StoreError::Conflict { .. } => return None,
    })
}

/// The database a command keeps its games in: an SQLite file (the default), or a
/// PostgreSQL database that several servers can share. The only place that names the
/// store adapters; everything else sees an [`Archive`].
enum Store {
    Sqlite(Box<SqliteStore>),
    Postgres(Arc<PostgresStore>),
}

impl Store {
    fn archive(&self) -> &dyn Archive {
        match self {
            Store::Sqlite(store) => store.as_ref(),
            Store::Postgres(store) => store.as_ref(),
        }
    }

    fn accounts(&self) -> &dyn AccountStore {
        match self {
            Store::Sqlite(store) => store.as_ref(),
            Store::Postgres(store) => store.as_ref(),
        }
    }

    /// The database's name for people: a path, or a URL without its password.
    fn name(&self) -> String {
        match self {
            Store::Sqlite(store) => store.path().display().to_string(),
            Store::Postgres(store) => store.database().to_string(),
        }
    }

    /// Stops a command that writes before it starts a game it could not keep: a
    /// read-only or locked file, a PostgreSQL database that takes no writes.
    fn check_writable(&self) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(store) => store.check_writable(),
            Store::Postgres(store) => store.check_writable(),
        }
    }
}

/// Opens the database, creating it (and running its migrations) as needed. The default
/// database takes in the scoreboard file of an earlier version once, and says so; that
/// file is kept as it was.
fn open_store(database: &Database) -> Result<Store, StoreError> {
    let store = match &database.location {
        Location::Sqlite(path) => Store::Sqlite(Box::new(SqliteStore::open(path)?)),
        Location::Postgres { url, pool } => {
            let options = PostgresOptions {
                pool_size: *pool,
                ..PostgresOptions::default()
            };
            Store::Postgres(Arc::new(PostgresStore::connect(url, options)?))
        }
    };
    if let Some(file) = &database.earlier_scoreboard {
        match import_file(store.archive(), file) {
            Ok(Some((Imported::Added { players }, source))) => eprintln!(
                "tictactoe: the scoreboard of an earlier version ({players} players) was \
                 imported from {source}; the file is kept as it was"
            ),
            Ok(_) => {}
            Err(error) => eprintln!(
                "tictactoe: warning: the scoreboard of an earlier version could not be \
                 imported: {error}"
            ),
        }
    }
    Ok(store)
}

/// Imports the scoreboard file at `file`, once: `None` if there is no such file. The
/// source is the file's full path, so the same file is never counted twice.
fn import_file(
    store: &dyn Archive,
    file: &std::path::Path,
) -> Result<Option<(Imported, String)>, StoreError> {
    let Some(scoreboard) = read_scoreboard(file)? else {
        return Ok(None);
    };
    let source = std::fs::canonicalize(file)
        .unwrap_or_else(|_| file.to_owned())
        .display()
        .to_string();
    Ok(Some((store.import(&source, &scoreboard)?, source)))
}

fn run(config: Config) -> Result<ExitCode, Failure> {
    // Only the commands that keep games open the database; those that write to it
    // first make sure they can (a read-only or locked file stops them before a game
    // is played that could not be kept).
    let writes = match &config.task {
        Task::Scores { action, .. } => *action != ScoresAction::Show,
        // Only read (a review that cannot be kept is still shown).
        Task::History { .. } | Task::Replay { .. } | Task::Check | Task::Backup { .. } => false,
        Task::Ratings { rebuild, .. } => rebuild.is_some(),
        // Listing only reads; training keeps each answer.
        Task::Train { list, .. } => !list,
        Task::Accounts(AccountsAction::List { .. }) => false,
        _ => true,
    };
    let store = || {
        let store = open_store(&config.database).map_err(Failure::Store)?;
        if writes {
            store.check_writable().map_err(Failure::Store)?;
        }
        Ok(store)
    };
    // A command that only reads makes no database: one named that is not there was
    // mistyped (the default one is made on first use, whatever the command).
    let store = || match &config.database.location {
        Location::Sqlite(path) if !writes && config.database.chosen() && !path.exists() => {
            Err(Failure::Other(
                format!(
                    "there is no database at {}: nothing was made there (check the path \
                     given with --db or TICTACTOE_DB)",
                    path.display()
                )
                .into(),
            ))
        }
        _ => store(),
    };
    let renderer = console_renderer;
    let thinking = (config.seed, config.think, config.casual);
    let full_screen = !config.plain
        && io::stdin().is_terminal()
        && io::stdout().is_terminal()
        && std::env::var("TERM").is_ok_and(|term| term != "dumb");
    match config.task {
        Task::Menu if full_screen => full_screen_game(store()?.archive(), thinking, Start::Menu),
        Task::Play(settings) if full_screen && settings.has_human() => {
            full_screen_game(store()?.archive(), thinking, Start::Game(settings))
        }
        Task::Scores { json, top, action } => scores(store()?.archive(), json, top, action),
        Task::Play(settings) => {
            let store = store()?;
            let (screen, keyboard) = (renderer(), keyboard());
            let computers = StandardComputers::new(config.seed, config.think);
            let mut session =
                Session::new(&screen, &keyboard, store.archive(), computers).casual(config.casual);
            Ok(match session.play_one(&settings)? {
                GameEnd::Finished(_) | GameEnd::Abandoned => ExitCode::SUCCESS,
                GameEnd::InputClosed => ExitCode::from(FAILURE),
            })
        }
        Task::Analyze {
            geometry,
            first,
            json,
            book,
            boards,
        } => analyze(
            config.seed,
            config.think,
            geometry,
            first,
            (json, book),
            boards,
        ),
        Task::Simulate {
            levels,
            geometry,
            first,
            games,
            json,
        } => simulate(
            config.seed,
            config.think,
            levels,
            (geometry, first),
            games,
            json,
        ),
        Task::Menu => {
            let store = store()?;
            let (screen, keyboard) = (renderer(), keyboard());
            let computers = StandardComputers::new(config.seed, config.think);
            Session::new(&screen, &keyboard, store.archive(), computers)
                .casual(config.casual)
                .run()?;
            Ok(ExitCode::SUCCESS)
        }
        Task::History {
            player,
            limit,
            before,
            json,
            server,
        } => history(
            store()?.archive(),
            HistoryQuery {
                player,
                before: None,
                limit,
            },
            before,
            json,
            server.as_ref().map(web_address).as_ref(),
        ),
        Task::Ratings {
            player: Some(player),
            json,
            ..
        } => match ratings::player_ratings(store()?.archive(), &player, json) {
            Ok(()) => Ok(ExitCode::SUCCESS),
            Err(ratings::RatingsError::Store(error)) => Err(Failure::Store(error)),
            Err(error) => Err(error.into()),
        },
        Task::Ratings {
            player: None,
            board,
            top,
            json,
            rebuild,
        } => match ratings::ratings(store()?.archive(), board, top, json, rebuild) {
            Ok(_) => Ok(ExitCode::SUCCESS),
            Err(ratings::RatingsError::Store(error)) => Err(Failure::Store(error)),
            Err(ratings::RatingsError::Io(error)) => Err(error.into()),
            Err(ratings::RatingsError::NotAsked) => usage_exit(UsageError {
                subcommand: "ratings",
                message: "--rebuild makes every rating again from the kept games: add --yes \
                          to do it without being asked"
                    .to_string(),
            }),
        },
        Task::Train {
            player,
            board,
            list,
            json,
        } => {
            let store = store()?;
            let trainee = train::Trainee { player, board };
            if list {
                train::list(store.archive(), &trainee, json)?;
                return Ok(ExitCode::SUCCESS);
            }
            // What an answer that is not one of the review's best moves leaves: perfect
            // play, in the usual thinking time.
            let mut advisor = StandardComputers::new(config.seed, config.think).advisor();
            // Playing is enough: the games not reviewed yet are reviewed first.
            train::review_unreviewed(store.archive(), &trainee, advisor.as_mut(), !full_screen)?;
            if full_screen {
                return match train::train_full_screen(
                    store.archive(),
                    &trainee,
                    advisor.as_mut(),
                    (&renderer(), colour()),
                )? {
                    // The status a shell gives a program stopped by Ctrl-C.
                    Stop::Interrupted => Ok(ExitCode::from(130)),
                    _ => Ok(ExitCode::SUCCESS),
                };
            }
            train::train_in_lines_on(
                store.archive(),
                &trainee,
                advisor.as_mut(),
                &renderer(),
                &keyboard(),
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Task::Replay {
            game,
            review,
            json,
            server,
        } => {
            let store = store()?;
            let shown_as = match (json, full_screen) {
                (true, _) => Shown::Json,
                (false, true) => Shown::FullScreen,
                (false, false) => Shown::Lines,
            };
            let server = server.as_ref().map(web_address);
            replay(
                &store,
                (config.seed, config.think),
                (&game, server.as_ref()),
                review,
                shown_as,
            )
        }
        Task::Check => check(&config.database),
        Task::Backup { to, overwrite } => backup(&config.database, &to, overwrite),
        // Argon2id at its defaults (OWASP's), made only by the actions that hash.
        Task::Accounts(action) => accounts::run(store()?.accounts(), Argon2Passwords::new, action),
        Task::Serve {
            port,
            bind,
            bounds,
            metrics,
            logs,
            allow_damaged,
        } => {
            // Held until the server stops: dropping it writes the lines still queued.
            let _logging = logs::start(logs);
            if let Some(refused) = check_before_serving(&config.database, allow_damaged)? {
                return Ok(refused);
            }
            let store = store()?;
            let memory = bounds
                .engine_memory
                .map_or_else(Memory::default, Memory::at_most);
            let computers = StandardComputers::new(config.seed, config.think).within(memory);
            let (game_limits, limits) = limits(bounds);
            serve(
                Listening {
                    address: SocketAddr::new(bind, port),
                    metrics,
                },
                store,
                computers,
                (game_limits, limits),
            )
        }
    }
}

/// What a database's own check found: what is wrong, what was read, and how long it
/// took.
struct Found {
    problems: Vec<String>,
    read: String,
    seconds: f64,
}

/// Checks the database without changing it (see [`SqliteStore::check`] and
/// [`PostgresStore::check_at`]). A file that is not there is an error: nothing is made.
fn check_database(database: &Database) -> Result<Found, StoreError> {
    let started = Instant::now();
    let (problems, read) = match &database.location {
        Location::Sqlite(path) => {
            let checked = SqliteStore::check(path)?;
            (
                checked.problems,
                format!("{} pages read (SQLite's quick_check)", checked.pages),
            )
        }
        Location::Postgres { url, pool } => {
            let options = PostgresOptions {
                pool_size: *pool,
                ..PostgresOptions::default()
            };
            let checked = PostgresStore::check_at(url, options)?;
            (
                checked.problems,
                format!(
                    "its version and {} indexes checked (PostgreSQL: what is cheap)",
                    checked.indexes
                ),
            )
        }
    };
    Ok(Found {
        problems,
        read,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The database as people know it: a path, or an address without its password.
fn location_name(location: &Location) -> String {
    match location {
        Location::Sqlite(path) => path.display().to_string(),
        Location::Postgres { url, .. } => PostgresStore::name_of(url),
    }
}

/// `tictactoe check`: what the database's own check finds, on standard output; exit 0
/// if nothing is damaged, 1 if something is (or it cannot be read at all).
fn check(database: &Database) -> Result<ExitCode, Failure> {
    let found = check_database(database).map_err(Failure::Store)?;
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{}",
        report(&location_name(&database.location), &found)
    )?;
    if found.problems.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "{}", DAMAGE_ADVICE)?;
    Ok(ExitCode::from(FAILURE))
}

/// What a check found, in one line if nothing (see [`damaged`] otherwise).
fn report(name: &str, found: &Found) -> String {
    if found.problems.is_empty() {
        format!(
            "{name}: no damage found ({}, {:.1} s)",
            found.read, found.seconds
        )
    } else {
        damaged(name, found)
    }
}

/// `tictactoe backup --to FILE`: a copy of an SQLite database (SQLite's online backup,
/// while a server may be writing it), then the copy checked as `check` checks a
/// database; both said on standard output. Exit 1 if the copy is found damaged (it is
/// kept, for whoever wants to look). A PostgreSQL database is pg_dump's to copy.
fn backup(database: &Database, to: &std::path::Path, overwrite: bool) -> Result<ExitCode, Failure> {
    let path = match &database.location {
        Location::Sqlite(path) => path,
        Location::Postgres { url, .. } => {
            return Err(Failure::Other(
                format!(
                    "{} is a PostgreSQL database: back it up with PostgreSQL's own tool, \
                     `pg_dump --format=custom --file {} URL` (restore with `pg_restore \
                     --dbname URL FILE`; docs/deploy.md); tictactoe backup copies SQLite files",
                    PostgresStore::name_of(url),
                    to.display()
                )
                .into(),
            ));
        }
    };
    let started = Instant::now();
    let copied = match SqliteStore::backup(path, to, overwrite) {
        Ok(copied) => copied,
        Err(BackupError::Store(error)) => return Err(Failure::Store(error)),
        Err(BackupError::Exists(_)) => {
            return Err(Failure::Other(
                format!(
                    "{} is already there: nothing was written (choose a new file, or add \
                     --overwrite to replace it)",
                    to.display()
                )
                .into(),
            ));
        }
    };
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{} copied to {} ({} pages, {:.1} s)",
        path.display(),
        to.display(),
        copied.pages,
        started.elapsed().as_secs_f64()
    )?;
    let found = check_database(&Database {
        location: Location::Sqlite(to.to_owned()),
        earlier_scoreboard: None,
    })
    .map_err(Failure::Store)?;
    writeln!(out, "{}", report(&to.display().to_string(), &found))?;
    Ok(match found.problems.is_empty() {
        true => ExitCode::SUCCESS,
        false => ExitCode::from(FAILURE),
    })
}

/// What to do about a damaged database.
const DAMAGE_ADVICE: &str = "Nothing was changed. Keep a copy of the file (with its -wal \
    beside it, if any) before anything else; restore a backup, or save what can be read \
    into a new file with the sqlite3 shell's `.recover`. `tictactoe serve --allow-damaged` \
    serves it as it is: the games on damaged pages are refused.";

/// A damaged database's report: its name, how many problems, and the first of them.
fn damaged(name: &str, found: &Found) -> String {
    let mut report = format!(
        "{name} is damaged: {} {} found ({}, {:.1} s):",
        found.problems.len(),
        if found.problems.len() == 1 {
            "problem"
        } else {
            "problems"
        },
        found.read,
        found.seconds
    );
    for problem in found.problems.iter().take(10) {
        report.push_str("\n  ");
        report.push_str(problem);
    }
    if found.problems.len() > 10 {
        report.push_str(&format!("\n  and {} more", found.problems.len() - 10));
    }
    report
}

/// Before `serve` opens its database: the same check as `tictactoe check`. A damaged
/// database stops it (exit 1, nothing changed) unless `allow_damaged`; then it is
/// served, said once, loudly. `Some` with the exit status when it must not serve.
fn check_before_serving(
    database: &Database,
    allow_damaged: bool,
) -> Result<Option<ExitCode>, Failure> {
    if let Location::Sqlite(path) = &database.location
        && !path.exists()
    {
        return Ok(None); // a new database: nothing to check
    }
    let found = check_database(database).map_err(Failure::Store)?;
    let name = location_name(&database.location);
    if found.problems.is_empty() {
        tracing::info!(
            "{name}: no damage found ({}, {:.1} s)",
            found.read,
            found.seconds
        );
        return Ok(None);
    }
    if allow_damaged {
        tracing::error!(
            "{}; serving it as it is (--allow-damaged): the games on damaged pages are refused",
            damaged(&name, &found)
        );
        return Ok(None);
    }
    eprintln!("tictactoe: {}", damaged(&name, &found));
    eprintln!("{DAMAGE_ADVICE}");
    Ok(Some(ExitCode::from(FAILURE)))
}

/// The full-screen game (`tictactoe` and `play` with a person, on a terminal).
fn full_screen_game(
    store: &dyn Archive,
    (seed, think, casual): (u64, Duration, bool),
    start: Start,
) -> Result<ExitCode, Failure> {
    let mut computers = StandardComputers::new(seed, think);
    match run_full_screen(&mut computers, store, colour(), start, casual)? {
        Ok(Ending::Quit) => Ok(ExitCode::SUCCESS),
        // The status a shell gives a program stopped by Ctrl-C.
        Ok(Ending::Interrupted) => Ok(ExitCode::from(130)),
        Err(error) => Err(error.into()),
    }
}

type Screen = ConsoleRenderer<io::Stdout>;
type Keyboard = ConsoleInput<io::StdinLock<'static>>;

/// Where `serve` listens: its public address, and the metrics' own, if any.
struct Listening {
    address: SocketAddr,
    metrics: Option<SocketAddr>,
}

/// Serves the web page until Ctrl-C; the address goes to stdout once it is listening.
fn serve(
    listening: Listening,
    store: Store,
    computers: StandardComputers,
    (game_limits, limits): (tictactoe_web::GameLimits, tictactoe_web::Limits),
) -> Result<ExitCode, Failure> {
    let address = listening.address;
    if !address.ip().is_loopback() {
        tracing::warn!(
            "listening on {}, so other machines can reach this server",
            address.ip()
        );
    }
    let metrics = listening
        .metrics
        .map(|_| tictactoe_web::Metrics::install())
        .transpose()?;
    let computers = Box::new(computers);
    // On PostgreSQL, other servers may share the database: this one hears their changes
    // and shares the pacing of computer-against-computer games with them. (Made before
    // the runtime starts: the PostgreSQL client blocks on a runtime of its own.)
    let games = match store {
        Store::Sqlite(store) => tictactoe_web::Games::new(Arc::new(*store), computers, game_limits),
        Store::Postgres(store) => {
            tictactoe_web::Games::shared(Arc::clone(&store) as _, store, computers, game_limits)
                .map_err(Failure::Store)?
        }
    };
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let stop = stop_signal();
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|error| {
                busy_port(
                    error,
                    address,
                    "port with --port (--port 0 picks a free one)",
                )
            })?;
        if let (Some(metrics), Some(at)) = (metrics, listening.metrics) {
            let listener = tokio::net::TcpListener::bind(at)
                .await
                .map_err(|error| busy_port(error, at, "address with --metrics"))?;
            tracing::info!("metrics on http://{}/metrics", listener.local_addr()?);
            tokio::spawn(tictactoe_web::serve_metrics(
                listener,
                metrics,
                limits.clone(),
                std::future::pending(),
            ));
        }
        if let Some(public) = &limits.public_url {
            tracing::info!("answering requests sent to {public} only (and health checks)");
        }
        // Accounts in the same store as the games; passwords hashed with Argon2id.
        let accounts = tictactoe_web::Accounts::new(
            &games,
            Arc::new(Argon2Passwords::new()),
            tictactoe_web::Tries::default(),
        );
        say_listening(listener.local_addr()?);
        let served = tictactoe_web::serve(listener, games.clone(), accounts, limits, stop).await;
        let counts = games.commits();
        tracing::info!(
            kept = counts.requests,
            commits = counts.batches,
            refused = counts.refused,
            "stopped: {} requests' changes kept in {} writes to the store, {} refused",
            counts.requests,
            counts.batches,
            counts.refused
        );
        served
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Says where the server listens, on standard output (a script may read the port from
/// its first line). On every address (`--bind 0.0.0.0` or `::`), the first line names
/// this machine's loopback address, which works here, and the next the address other
/// machines reach it by (the one this machine's traffic leaves from, if it has a
/// route out). If nobody reads it any more (a closed pipe), the server serves all
/// the same.
fn say_listening(address: SocketAddr) {
    let mut out = io::stdout().lock();
    if !address.ip().is_unspecified() {
        let _ = writeln!(out, "Serving Tic Tac Toe on http://{address}");
        return;
    }
    let here = match address {
        SocketAddr::V4(_) => SocketAddr::new(std::net::Ipv4Addr::LOCALHOST.into(), address.port()),
        SocketAddr::V6(_) => SocketAddr::new(std::net::Ipv6Addr::LOCALHOST.into(), address.port()),
    };
    let _ = writeln!(out, "Serving Tic Tac Toe on http://{here}");
    match outward_address(address) {
        Some(ip) => {
            let there = SocketAddr::new(ip, address.port());
            let _ = writeln!(
                out,
                "  and to other machines on http://{there} (or this machine's other addresses)"
            );
        }
        None => {
            let _ = writeln!(
                out,
                "  and to other machines on this machine's addresses, port {}",
                address.port()
            );
        }
    }
}

/// The address this machine's traffic leaves from: a UDP socket "connected" to a
/// public address (nothing is sent) is given it by the system's routes. `None`
/// without a route out.
fn outward_address(listening: SocketAddr) -> Option<std::net::IpAddr> {
    let (unbound, public) = match listening {
        SocketAddr::V4(_) => ("0.0.0.0:0", "192.0.2.1:9"),
        SocketAddr::V6(_) => ("[::]:0", "[2001:db8::1]:9"),
    };
    let socket = std::net::UdpSocket::bind(unbound).ok()?;
    socket.connect(public).ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_unspecified() && !ip.is_loopback()).then_some(ip)
}

/// An address that cannot be listened on, said with the address and what to do.
fn busy_port(error: io::Error, address: SocketAddr, choose: &str) -> io::Error {
    match error.kind() {
        io::ErrorKind::AddrInUse => io::Error::new(
            error.kind(),
            format!("{address} is in use by another program: choose another {choose}"),
        ),
        _ => io::Error::new(error.kind(), format!("cannot listen on {address}: {error}")),
    }
}

/// The server's limits: the defaults, with what the command line set.
/// The address people reach a server by, as the web adapter holds it.
fn web_address(url: &config::PublicUrl) -> tictactoe_web::PublicUrl {
    tictactoe_web::PublicUrl::new(url.https, &url.host, url.port)
}

/// How a game is named to a person: the start of its id that names it alone, or, when
/// the server the games are on is known, its web address there (which that start
/// opens).
fn game_named(
    store: &dyn Archive,
    id: &GameId,
    server: Option<&tictactoe_web::PublicUrl>,
) -> Result<String, Failure> {
    let short = short_id(store, id, 8).map_err(Failure::Store)?;
    Ok(match server {
        Some(server) => format!("{}/games/{short}", server.origin()),
        None => short,
    })
}

fn limits(bounds: ServeBounds) -> (tictactoe_web::GameLimits, tictactoe_web::Limits) {
    let default = tictactoe_web::Limits::default();
    let limits = tictactoe_web::Limits {
        head_deadline: bounds.head_deadline.unwrap_or(default.head_deadline),
        body_deadline: bounds.body_deadline.unwrap_or(default.body_deadline),
        grace: bounds.grace.unwrap_or(default.grace),
        connections_per_client: bounds
            .connections_per_client
            .unwrap_or(default.connections_per_client),
        streams_per_client: bounds
            .streams_per_client
            .unwrap_or(default.streams_per_client),
        trusted_proxies: bounds.trusted_proxies,
        public_url: bounds.public_url.as_ref().map(web_address),
        ..default
    };
    (tictactoe_web::GameLimits::default(), limits)
}

/// Ctrl-C, or (on Unix) the SIGTERM a service manager sends: watched from the call
/// on, so a signal that comes right after the address is printed is not missed. A
/// signal that cannot be watched never arrives (the server runs until it is killed).
fn stop_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let interrupt = signal(SignalKind::interrupt());
        let terminate = signal(SignalKind::terminate());
        async move {
            let (mut interrupt, mut terminate) = match (interrupt, terminate) {
                (Ok(interrupt), Ok(terminate)) => (interrupt, terminate),
                _ => return std::future::pending().await,
            };
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
        }
    }
    #[cfg(not(unix))]
    async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

fn colour() -> bool {
    config::colour_wanted(|name| std::env::var(name).ok(), io::stdout().is_terminal())
}

fn console_renderer() -> Screen {
    let pause = if io::stdout().is_terminal() {
        Duration::from_millis(450)
    } else {
        Duration::ZERO
    };
    ConsoleRenderer::new(io::stdout(), colour()).with_computer_pause(pause)
}

/// What a person types at the line console: keys typed while the computer thought are
/// discarded, where standard input is a terminal.
fn keyboard() -> Keyboard {
    let input = ConsoleInput::new(io::stdin().lock());
    if io::stdin().is_terminal() {
        input.discarding_with(discard_terminal_input)
    } else {
        input
    }
}

fn scores(
    store: &dyn Archive,
    json: bool,
    top: Option<u64>,
    action: ScoresAction,
) -> Result<ExitCode, Failure> {
    match action {
        ScoresAction::Show => {}
        ScoresAction::Reset(confirm) => {
            if confirm == Confirm::Ask && !reset_confirmed() {
                return Ok(ExitCode::SUCCESS);
            }
            let cleared = store.reset().map_err(Failure::Store)?;
            eprintln!(
                "Scoreboard cleared ({} players). Every game is kept: `tictactoe scores \
                 --restore` counts them again.",
                cleared.players
            );
        }
        ScoresAction::Restore => match store.restore().map_err(Failure::Store)? {
            Restored::Restored { players } => {
                eprintln!(
                    "Scoreboard restored as it was before the last reset, with every game since ({players} players)."
                )
            }
            Restored::NothingToRestore => eprintln!("There is no reset to take back."),
        },
        ScoresAction::Import(file) => match import_file(store, &file).map_err(Failure::Store)? {
            None => {
                eprintln!("tictactoe: there is no file {}", file.display());
                return Ok(ExitCode::from(FAILURE));
            }
            Some((Imported::Added { players }, source)) => {
                eprintln!("Imported {players} players from {source}; the file is kept as it was.")
            }
            Some((Imported::AlreadyImported, source)) => {
                eprintln!("{source} was imported before: nothing was added.")
            }
        },
    }
    let stdout = io::stdout().lock();
    if json {
        let mut writer = ScoresJsonWriter::new(stdout)?;
        let mut failed = None;
        store
            .standings(top, &mut |row| {
                if failed.is_none() {
                    failed = writer.row(&row).err();
                }
            })
            .map_err(Failure::Store)?;
        if let Some(error) = failed {
            return Err(error.into());
        }
        drop(writer.finish()?);
    } else {
        let mut table = ScoreTable::new(stdout, colour());
        store
            .standings(top, &mut |row| table.row(&row))
            .map_err(Failure::Store)?;
        let empty = if table.is_empty() {
            why_no_scores(store)?
        } else {
            String::new()
        };
        drop(table.finish_or(&empty));
    }
    Ok(ExitCode::SUCCESS)
}

/// What an empty scoreboard means: nothing played yet, games played but none finished
/// (a game left is kept, not counted), or games counted before a reset (kept too).
/// Read from the newest page of ended games.
fn why_no_scores(store: &dyn Archive) -> Result<String, Failure> {
    let newest = HistoryQuery {
        player: None,
        before: None,
        limit: PageSize::new(u64::from(PageSize::MAX)).expect("the largest page is a page"),
    };
    let games = store.history(&newest).map_err(Failure::Store)?.games;
    let counted = |game: &&tictactoe_core::ports::GameSummary| {
        !matches!(game.ending, tictactoe_core::ports::Ending::Abandoned(_))
    };
    Ok(if games.is_empty() {
        "No games recorded yet.".to_string()
    } else if games.iter().any(|game| counted(&game)) {
        "No game counts on the scoreboard since it was cleared. Every game is kept: \
         `tictactoe scores --restore` counts them again."
            .to_string()
    } else {
        "No game has been finished yet: a game left before its end is kept, not counted."
            .to_string()
    })
}

/// `tictactoe history`: a page of the ended games `asked` for, newest first, older
/// than the game `before` names; each named by its web address on `server`, if given.
fn history(
    store: &dyn Archive,
    asked: HistoryQuery,
    before: Option<IdPrefix>,
    json: bool,
    server: Option<&tictactoe_web::PublicUrl>,
) -> Result<ExitCode, Failure> {
    let before = match before {
        None => None,
        Some(prefix) => match find_game(store, &GameRef::Prefix(prefix)) {
            Ok(id) => Some(id),
            Err(error) => return found_nothing(error),
        },
    };
    let query = HistoryQuery { before, ..asked };
    let HistoryQuery { player, limit, .. } = query.clone();
    let page = store.history(&query).map_err(Failure::Store)?;
    let mut out = io::stdout().lock();
    let ids: Vec<GameId> = page.games.iter().map(|game| game.id.clone()).collect();
    let changes = store.rating_changes(&ids).map_err(Failure::Store)?;
    let rated_in = |game: &tictactoe_core::ports::GameSummary| -> Vec<_> {
        changes
            .iter()
            .filter(|change| change.game == game.id)
            .cloned()
            .collect()
    };
    if json {
        for game in &page.games {
            let rated = rated_in(game);
            let casual = store
                .game(&game.id)
                .map_err(Failure::Store)?
                .is_some_and(|kept| kept.game.casual);
            writeln!(out, "{}", rated_summary_json(game, casual, &rated))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut table = HistoryTable::new(out, colour());
    for game in &page.games {
        let rated = rated_in(game);
        table.rated_row(&game_named(store, &game.id, server)?, game, &rated);
    }
    let more = match &page.next {
        Some(next) => Some(format!(
            "tictactoe history{}{} --before {}",
            player.as_ref().map_or(String::new(), |name| format!(
                " --player {}",
                shell_quoted(name.as_str())
            )),
            if u64::from(limit.get()) == cli::HISTORY_PAGE {
                String::new()
            } else {
                format!(" --limit {}", limit.get())
            },
            short_id(store, next, 8).map_err(Failure::Store)?
        )),
        None => None,
    };
    let empty = match &player {
        Some(name) => format!("No ended games of {name} yet."),
        None => "No games have ended yet.".to_string(),
    };
    drop(table.finish(&empty, more.as_deref()));
    Ok(ExitCode::SUCCESS)
}

/// `text` as a shell reads it back: as it is when it is plain, in single quotes
/// otherwise.
fn shell_quoted(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// A game that could not be found: said on standard error, with the failure status.
fn found_nothing(error: FindError) -> Result<ExitCode, Failure> {
    match error {
        FindError::Store(error) => Err(Failure::Store(error)),
        FindError::NoGames => {
            eprintln!("tictactoe: no game has ended yet: play one first");
            Ok(ExitCode::from(FAILURE))
        }
        FindError::NotFound(prefix) => {
            eprintln!(
                "tictactoe: no game's id starts with {prefix} (`tictactoe history` lists them)"
            );
            Ok(ExitCode::from(FAILURE))
        }
        FindError::Ambiguous { prefix, ids, more } => {
            eprintln!("tictactoe: more than one game's id starts with {prefix}:");
            for id in ids {
                eprintln!("  {id}");
            }
            match more {
                Some(0) => {}
                Some(1) => eprintln!("  and 1 more"),
                Some(more) => eprintln!("  and {more} more"),
                None => eprintln!("  and more"),
            }
            eprintln!("Give more of the id.");
            Ok(ExitCode::from(FAILURE))
        }
    }
}

/// How `replay` shows its game.
enum Shown {
    Json,
    FullScreen,
    Lines,
}

/// `tictactoe replay GAME [--review]`: a kept game played back.
fn replay(
    kept_in: &Store,
    (seed, think): (u64, Duration),
    (which, server): (&GameRef, Option<&tictactoe_web::PublicUrl>),
    review: bool,
    shown_as: Shown,
) -> Result<ExitCode, Failure> {
    let store = kept_in.archive();
    let id = match find_game(store, which) {
        Ok(id) => id,
        Err(error) => return found_nothing(error),
    };
    let Some(kept) = store.game(&id).map_err(Failure::Store)? else {
        return found_nothing(FindError::NotFound(
            IdPrefix::parse(id.as_str()).expect("an id is a prefix of itself"),
        ));
    };
    let replay = Replay::of(&kept).map_err(|error| {
        Failure::Store(StoreError::Unreadable {
            database: kept_in.name(),
            detail: format!("game {id} cannot be played back: {error}"),
        })
    })?;
    let review = if review {
        Some(reviewed(
            store,
            &id,
            &replay,
            StandardComputers::new(seed, think).advisor(),
        )?)
    } else {
        None
    };
    let geometry = replay.settings().geometry();
    let title = || -> Result<String, Failure> {
        Ok(format!(
            "Game {}, {} (UTC), {}",
            game_named(store, &id, server)?,
            words::when(kept.started),
            words::shape(geometry.size(), geometry.win_length())
        ))
    };
    match shown_as {
        Shown::Json => {
            let mut out = io::stdout().lock();
            match &review {
                Some(review) => {
                    for reviewed in &review.moves {
                        writeln!(out, "{}", move_review_json(reviewed))?;
                    }
                }
                None => {
                    for line in replay_json(&replay) {
                        writeln!(out, "{line}")?;
                    }
                }
            }
        }
        Shown::Lines => console_renderer().show_replay(&title()?, &replay, review.as_ref()),
        Shown::FullScreen => {
            let [x, o] = tictactoe_core::ports::names_of(replay.settings());
            let title = format!(
                "{} · {} vs {}",
                title()?,
                words::seat(x.as_str(), Mark::X),
                words::seat(o.as_str(), Mark::O)
            );
            if run_replay(title, &replay, review.as_ref(), colour())? == Ending::Interrupted {
                return Ok(ExitCode::from(130));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The review of `replay`: the one kept, or one computed now with `advisor` (a bar on
/// standard error shows how far it has got, on a terminal, once it takes a while) and
/// kept if the game has ended. A review that cannot be kept is still shown.
fn reviewed(
    store: &dyn Archive,
    id: &GameId,
    replay: &Replay,
    mut advisor: Box<dyn Advisor>,
) -> Result<Review, Failure> {
    if let Some(kept) = store.review(id).map_err(Failure::Store)? {
        return Ok(kept);
    }
    let bar = ProgressBar::hidden();
    bar.set_length(replay.moves().len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "Reviewing {bar:30} move {pos} of {len} ({elapsed})",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let showing = io::stderr().is_terminal();
    let started = Instant::now();
    let review = review(replay, &mut *advisor, &mut |done, _| {
        if showing && bar.is_hidden() && started.elapsed() > Duration::from_millis(300) {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    if replay.ending().is_some()
        && let Err(error) = store.keep_review(id, &review)
    {
        eprintln!("tictactoe: warning: the review could not be kept: {error}");
    }
    Ok(review)
}

/// Asks the person at the terminal before a reset; without one, `--yes` must say so.
fn reset_confirmed() -> bool {
    if !io::stdin().is_terminal() {
        usage_exit(UsageError {
            subcommand: "scores",
            message: "--reset clears the scoreboard: add --yes to do it without being asked"
                .to_string(),
        });
    }
    eprint!("Clear the scoreboard? Every game is kept, and --restore brings it back. [y/N]: ");
    let answer = ConsoleInput::new(io::stdin().lock()).read_line();
    let yes = matches!(&answer, Input::Line(text) if matches!(text.trim().to_lowercase().as_str(), "y" | "yes"));
    if !yes {
        eprintln!("Nothing was changed.");
    }
    yes
}

fn analyze(
    seed: u64,
    think: Duration,
    geometry: Geometry,
    first: Mark,
    (json, book): (bool, bool),
    boards: Vec<String>,
) -> Result<ExitCode, Failure> {
    // On a terminal, a long proof shows what it has settled so far, on standard error,
    // until its answer is printed (or Ctrl-C takes it away); on a pipe, nothing.
    let showing = io::stderr().is_terminal();
    let shown: Arc<std::sync::Mutex<Option<ProgressBar>>> = Arc::default();
    if showing {
        clear_on_interrupt(Arc::clone(&shown));
    }
    let mut analyzer = Analyzer::new(geometry, first, || {
        let player = MinimaxAI::impossible(StdRng::seed_from_u64(seed)).thinking_for(think);
        let player = if book {
            player
        } else {
            player.sharing(&SharedSolvers::without_book())
        };
        if !showing {
            return player;
        }
        let bar = ProgressBar::hidden();
        *lock(&shown) = Some(bar.clone());
        player.reporting_to(Box::new(ProofShown { bar }))
    });
    let renderer = ConsoleRenderer::new(io::stdout(), colour());
    // An answer that cannot be written (nobody reads standard output any more, as
    // after `| head`) stops the analysis: the boards after it are not analysed.
    let failed: std::cell::RefCell<Option<io::Error>> = std::cell::RefCell::new(None);
    let emit = |report: &Report| {
        if let Some(bar) = lock(&shown).take() {
            bar.finish_and_clear();
        }
        if json {
            if let Err(error) = writeln!(io::stdout(), "{}", report_json(report)) {
                *failed.borrow_mut() = Some(error);
            }
        } else {
            renderer.show_report(report);
        }
    };
    let going = |_: &String| failed.borrow().is_none();
    let invalid = if boards.is_empty() {
        if io::stdin().is_terminal() {
            eprintln!(
                "Reading boards from standard input, one per line (such as xx./oo./...); \
                 Ctrl-D ends."
            );
        }
        let input = ConsoleInput::new(io::stdin().lock());
        let lines = std::iter::from_fn(|| match input.read_line() {
            Input::Line(line) => Some(line),
            Input::End => None,
        })
        .filter(|line| !line.trim().is_empty())
        .take_while(going);
        analyze_all(&mut analyzer, lines, emit)
    } else {
        analyze_all(&mut analyzer, boards.into_iter().take_while(going), emit)
    };
    if let Some(error) = failed.into_inner() {
        return Err(error.into());
    }
    Ok(if invalid > 0 {
        ExitCode::from(USAGE)
    } else {
        ExitCode::SUCCESS
    })
}

/// On Ctrl-C (SIGINT), the progress shown on standard error is taken away before the
/// program ends, with the status a shell gives a program Ctrl-C stopped (130), so that
/// no half-finished line is left on the terminal.
fn clear_on_interrupt(shown: Arc<std::sync::Mutex<Option<ProgressBar>>>) {
    let Ok(mut signals) = signal_hook::iterator::Signals::new([signal_hook::consts::SIGINT]) else {
        // Not watched: Ctrl-C ends the program as it always does.
        return;
    };
    let _ = std::thread::Builder::new()
        .name("interrupt".into())
        .spawn(move || {
            if signals.forever().next().is_some() {
                if let Some(bar) = lock(&shown).take() {
                    bar.finish_and_clear();
                }
                std::process::exit(130);
            }
        });
}

/// A long proof on standard error: how long it has run, and what it has settled.
struct ProofShown {
    bar: ProgressBar,
}

impl Progress for ProofShown {
    fn proven(&mut self, so_far: Proven) {
        if self.bar.is_hidden() {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.bar.set_style(
                indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            self.bar.enable_steady_tick(Duration::from_millis(100));
        }
        let stage = match so_far.stage {
            Stage::ShortWin => "looking for a short win",
            Stage::Holding => "proving a move that does not lose",
            Stage::LongWin => "looking for a long win",
            Stage::Rest => "settling the other moves",
        };
        self.bar.set_message(format!(
            "{} of {} moves settled ({} keep at least a draw, {} lose); {stage}…",
            so_far.holding + so_far.losing,
            so_far.moves,
            so_far.holding,
            so_far.losing,
        ));
    }
}

fn simulate(
    seed: u64,
    think: Duration,
    levels: [Level; 2],
    (geometry, first): (Geometry, Mark),
    games: u64,
    json: bool,
) -> Result<ExitCode, Failure> {
    let mut computers = StandardComputers::new(seed, think);
    let players = levels.map(|level| computers.computer(level));
    let names = [players[0].name(), players[1].name()];
    // The bar stays hidden unless the run lasts long enough to wonder about.
    let bar = ProgressBar::hidden();
    bar.set_length(games);
    let bar_allowed = io::stderr().is_terminal();
    let started = Instant::now();
    let tally: Tally = tictactoe_core::play::simulate(players, geometry, first, games, |done| {
        if done.is_multiple_of(256) {
            if bar_allowed && bar.is_hidden() && started.elapsed() > Duration::from_millis(500) {
                bar.set_draw_target(ProgressDrawTarget::stderr());
            }
            bar.set_position(done);
        }
    })?;
    let seconds = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let mut out = io::stdout().lock();
    if json {
        writeln!(out, "{}", tally_json(&tally, seconds))?;
    } else {
        let [x, o] = names;
        let games = match tally.games {
            1 => "1 game".to_string(),
            n => format!("{n} games"),
        };
        let draws = match tally.draws {
            1 => "1 draw".to_string(),
            n => format!("{n} draws"),
        };
        // Under a millisecond, in milliseconds: never "0.000 s" for a run that took time.
        let took = if seconds < 0.001 {
            format!("{:.3} ms", seconds * 1000.0)
        } else {
            format!("{seconds:.3} s")
        };
        writeln!(
            out,
            "{games}, {} vs {}: X won {}, O won {}, {draws}, in {took}.",
            words::seat(x.as_str(), Mark::X),
            words::seat(o.as_str(), Mark::O),
            tally.x_wins,
            tally.o_wins
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
