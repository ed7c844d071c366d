//! The composition root: reads the command line (`cli.rs`, checked by `config.rs`),
//! builds the concrete parts (the store, the console and full-screen front ends, the
//! computers, the password hasher, the web server) and hands them to the command asked
//! for, whose body lives in a module of its own beside this file; then turns the outcome
//! into an exit status (`failure.rs`). No game logic here, and no checking of flags:
//! this is the file that builds the adapters.

mod accounts;
mod analyze;
mod check;
mod cli;
mod config;
mod failure;
mod history;
mod logs;
mod ratings;
mod scores;
mod serve;
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

use std::io::{self, IsTerminal};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use rand::SeedableRng;
use rand::rngs::StdRng;
use tictactoe_console::{ConsoleInput, ConsoleRenderer, GameEnd, Session, discard_terminal_input};
use tictactoe_core::players::ComputerFactory;
use tictactoe_core::ports::{AccountStore, Archive, HistoryQuery, Imported, StoreError};
use tictactoe_json_store::read_scoreboard;
use tictactoe_passwords::Argon2Passwords;
use tictactoe_players::{Memory, MinimaxAI, SharedSolvers, StandardComputers};
use tictactoe_postgres_store::{Options as PostgresOptions, PostgresStore};
use tictactoe_sqlite_store::SqliteStore;
use tictactoe_terminal::{Ending, Start, run_full_screen};

use crate::cli::Cli;
use crate::config::{AccountsAction, Config, ConfigError, Database, Location, ScoresAction, Task};
use crate::failure::{FAILURE, Failure, fail, fail_store, usage_exit};
use crate::history::Shown;
use crate::serve::{busy_port, limits, say_listening, stop_signal, web_address};

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

/// The database a command keeps its games in: an SQLite file (the default), or a
/// PostgreSQL database that several servers can share. The commands see an [`Archive`]
/// (and the accounts an [`AccountStore`]); only `serve` asks which it is, and `check`
/// and `backup` use each store's own checks on a database not opened.
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
        Task::Play(settings, clock) if full_screen && settings.has_human() => {
            full_screen_game(store()?.archive(), thinking, Start::Game(settings, clock))
        }
        Task::Scores { json, top, action } => scores::scores(store()?.archive(), json, top, action),
        Task::Play(settings, clock) => {
            let store = store()?;
            let (screen, keyboard) = (renderer(), keyboard());
            let computers = StandardComputers::new(config.seed, config.think);
            let mut session = Session::new(&screen, &keyboard, store.archive(), computers)
                .casual(config.casual)
                .on_clock(clock);
            Ok(match session.play_one(&settings)? {
                GameEnd::Finished(_)
                | GameEnd::Abandoned
                | GameEnd::TimedOut { .. }
                | GameEnd::Aborted { .. } => ExitCode::SUCCESS,
                GameEnd::InputClosed => ExitCode::from(FAILURE),
            })
        }
        Task::Analyze {
            geometry,
            first,
            json,
            book,
            boards,
        } => {
            let (seed, think) = (config.seed, config.think);
            let impossible = |progress| {
                let player = MinimaxAI::impossible(StdRng::seed_from_u64(seed)).thinking_for(think);
                let player = if book {
                    player
                } else {
                    player.sharing(&SharedSolvers::without_book())
                };
                match progress {
                    Some(progress) => player.reporting_to(progress),
                    None => player,
                }
            };
            analyze::analyze(impossible, (geometry, first), json, boards)
        }
        Task::Simulate {
            levels,
            geometry,
            first,
            games,
            json,
        } => {
            let mut computers = StandardComputers::new(config.seed, config.think);
            let players = levels.map(|level| computers.computer(level));
            analyze::simulate(players, (geometry, first), games, json)
        }
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
        } => history::history(
            store()?.archive(),
            HistoryQuery {
                player,
                before: None,
                limit,
            },
            before,
            json,
            server
                .as_ref()
                .map(|url| web_address(url).origin())
                .as_deref(),
        ),
        Task::Ratings {
            player,
            board,
            top,
            json,
            rebuild,
        } => ratings::run(store()?.archive(), (player, board, top), json, rebuild),
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
            let front = match full_screen {
                true => train::Front::FullScreen(renderer(), colour()),
                false => train::Front::Lines(renderer(), keyboard()),
            };
            train::train(store.archive(), &trainee, advisor.as_mut(), front)
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
            let server = server.as_ref().map(|url| web_address(url).origin());
            history::replay(
                (store.archive(), store.name()),
                || StandardComputers::new(config.seed, config.think).advisor(),
                (&game, server.as_deref()),
                review,
                shown_as,
            )
        }
        Task::Check => check::check(&config.database),
        Task::Backup { to, overwrite } => check::backup(&config.database, &to, overwrite),
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
            if let Some(refused) = check::check_before_serving(&config.database, allow_damaged)? {
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
