//! Tic Tac Toe's games and scoreboard in PostgreSQL: the store several servers share.
//! The same port as the SQLite store ([`GameStore`], [`GameHistory`], [`ReviewStore`]),
//! held to the same contract suite, plus what sharing needs ([`NewsFeed`],
//! [`Pacing`]).
//!
//! ```no_run
//! use tictactoe_core::ports::GameStore;
//! use tictactoe_postgres_store::{Options, PostgresStore};
//!
//! let store = PostgresStore::connect("postgres://tictactoe@localhost/tictactoe", Options::default())?;
//! assert!(store.scoreboard(Some(20))?.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Why the synchronous [`postgres`] client and an [`r2d2`] pool: the core's ports are
//! synchronous (a console game calls its store directly, with no async runtime), and
//! a store is shared by a server's threads, each needing a connection for the length
//! of one call. `postgres` wraps `tokio-postgres` with a small runtime of its own, so it
//! must never be called from a tokio worker thread (it would block the worker, or
//! panic): servers call stores from blocking threads (`spawn_blocking`), as they do the
//! SQLite store. r2d2 keeps a few connections open ([`Options::pool_size`]) and hands
//! each call one; PostgreSQL runs their transactions side by side.
//!
//! Several servers write at once: each write call is one transaction that locks the
//! rows of the games it touches, in id order, and adds to the hot scoreboard rows once
//! per call, in key order, so writers queue rather than deadlock (see `writes`); a
//! transaction PostgreSQL still picks to give way (a serialization failure, a
//! deadlock, a unique index another writer filled first) is run again, whole.
//!
//! A database it cannot read is never written: another program's (tables, but no
//! `schema_version`) is [`StoreError::Unreadable`], one from a newer version of the
//! program is [`StoreError::Newer`], both found by reading alone.
//!
//! It shares with the SQLite store all that is not SQL: the exactly-once rules are the
//! core's (`rules::exactly_once`), and the rows, the words their columns hold, the
//! checks of what is read back and the history and reviews put together from rows are
//! `tictactoe-store-rows`'s. Its own parts:
//!
//! * `migrations/*.sql`: the schema, in versions, each with comments on its tables;
//!   the `migrations` module runs them on connect, one server at a time.
//! * `pool`: the pooled connections and the statements each has prepared.
//! * `codec`: a row of `games` read from PostgreSQL, and the database's clock as SQL.
//! * `writes`: one write call as one transaction, in a few round trips: what the
//!   database holds of the batch's games read for the core's rules, and what they
//!   decide kept.
//! * `news`: what each write call kept, told to the other servers (LISTEN/NOTIFY).
//! * `history`: the ended games newest first, a player's opponents, the reviews.
//! * `ratings`: ratings per board, each game's change kept with its end under its
//!   people's advisory locks; the `RatingStore` port, and the rebuild.
//! * `training`: the answers to training puzzles (the `TrainingStore` port).
//! * `accounts`: accounts, their sessions and personal tokens (the `AccountStore`
//!   port).
//! * `seeks`: people looking for an opponent, the lobby's and the pool's (the
//!   `SeekStore` port): taking a seek locks its row, so two servers never both take it.
//! * `errors`: PostgreSQL's errors in the port's words.
//!
//! [`GameHistory`]: tictactoe_core::ports::GameHistory
//! [`ReviewStore`]: tictactoe_core::ports::ReviewStore

mod accounts;
mod check;
mod codec;
mod errors;
mod history;
mod migrations;
mod news;
mod pool;
mod ratings;
mod scoreboard;
mod seeks;
mod training;
mod writes;

use std::time::{Duration, SystemTime};

use postgres::NoTls;
use postgres::error::SqlState;
use r2d2_postgres::PostgresConnectionManager;
use tictactoe_core::domain::{PlayerName, Record, Scoreboard, Standing};
use tictactoe_core::ports::{
    Cleared, Following, GameId, GameStore, Hear, Imported, NewsFeed, Pacing, RatingChange,
    Restored, Rows, StoreError, StoredGame, Write,
};
use tictactoe_core::rules::Repeat;

pub use check::Checked;
use errors::{Database, Failure, PostgresErrors};
use pool::{Manager, Tx};
pub use ratings::person_lock;
use tictactoe_store_rows::{FromColumns, assemble, clocks, rows};
use writes::{ADD_TALLIES, CURRENT_EPOCH, SCOREBOARD_LOCK};

/// How a store connects. `Options::default()` is right for a server.
#[derive(Debug, Clone)]
pub struct Options {
    /// The most connections the store keeps open at once: as many calls run side by
    /// side; more wait for one to be free.
    pub pool_size: u32,
    /// How long making a connection may take before the call fails with
    /// [`StoreError::Unavailable`] (a call waits for a free one of the pool at most
    /// [`POOL_WAIT`], or this if shorter).
    pub connect_timeout: Duration,
    /// How long [`PostgresStore::connect`] (and [`PostgresStore::check_at`]) may take
    /// in all, from the first connection through the schema's check and migrations:
    /// past it the database is [`StoreError::Unavailable`]. `connect_timeout` covers
    /// only reaching the server; a server that accepts the connection and then answers
    /// nothing is given up on here.
    pub start_deadline: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            pool_size: 8,
            connect_timeout: Duration::from_secs(5),
            start_deadline: START_DEADLINE,
        }
    }
}

/// See [`Options::start_deadline`].
pub const START_DEADLINE: Duration = Duration::from_secs(10);

/// Runs `start` on a thread of its own and waits for it at most `deadline`: past it,
/// the database is unavailable, and the thread is left to finish (or not) alone.
fn within<T: Send + 'static>(
    deadline: Duration,
    database: &Database,
    start: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    let (done, answer) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("tictactoe-connect".into())
        .spawn(move || {
            let _ = done.send(start());
        })
        .map_err(|error| StoreError::Unavailable {
            database: database.0.clone(),
            detail: error.to_string(),
        })?;
    answer.recv_timeout(deadline).unwrap_or_else(|_| {
        Err(StoreError::Unavailable {
            database: database.0.clone(),
            detail: format!(
                "it did not answer within {:.0} s (connecting, then checking its \
                     schema); given up",
                deadline.as_secs_f64()
            ),
        })
    })
}

/// A [`GameStore`] (and the rest of the ports) in a PostgreSQL database. See the crate
/// documentation.
pub struct PostgresStore {
    database: Database,
    pool: r2d2::Pool<Manager>,
    /// This store's name among the servers sharing the database (random): whose news
    /// a notification is, and who holds a paced game.
    instance: String,
    listen: news::Listen,
    folder: scoreboard::Folder,
}

/// How many times a write call is run again after losing a race (see
/// [`Failure::retry`]) before its error is returned.
const TRIES: u32 = 5;

impl PostgresStore {
    /// The newest schema version this program knows.
    pub const SCHEMA_VERSION: i64 = migrations::KNOWN;

    /// Connects to the database at `url` (`postgres://user:password@host:port/name`, or
    /// PostgreSQL's `key=value` form) and brings its schema up to date.
    ///
    /// An address that cannot be read, a server that cannot be reached within
    /// [`Options::connect_timeout`], or one that has not answered everything within
    /// [`Options::start_deadline`], is [`StoreError::Unavailable`]; another program's
    /// database is [`StoreError::Unreadable`]; one from a newer version of the program
    /// is [`StoreError::Newer`]. Neither of the last two is changed.
    pub fn connect(url: &str, options: Options) -> Result<PostgresStore, StoreError> {
        let database = Database(without_password(url));
        let url = url.to_owned();
        within(options.start_deadline, &database, move || {
            PostgresStore::connect_now(&url, options)
        })
    }

    /// Checks the database at `url` as [`PostgresStore::check`] does, on one connection
    /// of its own, without migrating anything: for `tictactoe check`. Bounded as
    /// [`PostgresStore::connect`] is.
    pub fn check_at(url: &str, options: Options) -> Result<Checked, StoreError> {
        let database = Database(without_password(url));
        let config = PostgresStore::config(url, &options, &database)?;
        let checking = database.clone();
        within(options.start_deadline, &database, move || {
            let mut client = config
                .connect(NoTls)
                .map_err(|error| StoreError::Unavailable {
                    database: checking.0.clone(),
                    detail: connection_error(&error),
                })?;
            check::check(&mut client, &checking)
        })
    }

    /// What can be checked of the database cheaply (see the `check` module): its
    /// version, and indexes left invalid. Only reads.
    pub fn check(&self) -> Result<Checked, StoreError> {
        let mut conn = self.conn()?;
        check::check(&mut conn.client, &self.database)
    }

    /// How the store connects to `url`: its address, with the bounds every session of
    /// the store has (see [`hold_nothing_long`]).
    fn config(
        url: &str,
        options: &Options,
        database: &Database,
    ) -> Result<postgres::Config, StoreError> {
        let mut config: postgres::Config = url.parse().map_err(|e| StoreError::Unavailable {
            database: database.0.clone(),
            detail: format!("not a PostgreSQL address: {e}"),
        })?;
        config.connect_timeout(options.connect_timeout);
        if config.get_application_name().is_none() {
            config.application_name("tictactoe");
        }
        hold_nothing_long(&mut config);
        Ok(config)
    }

    /// [`PostgresStore::connect`], however long it takes.
    fn connect_now(url: &str, options: Options) -> Result<PostgresStore, StoreError> {
        let database = Database(without_password(url));
        let config = PostgresStore::config(url, &options, &database)?;
        // One connection first, on its own: the pool would only say that it timed out,
        // where this says why (refused, no such database, a wrong password).
        config
            .connect(NoTls)
            .map_err(|error| StoreError::Unavailable {
                database: database.0.clone(),
                detail: connection_error(&error),
            })?;
        let manager = Manager(PostgresConnectionManager::new(config.clone(), NoTls));
        // Connections are made as calls need them (`min_idle` 0), and not tested each
        // time one is handed out (a round trip per call): a connection found broken
        // when returned is dropped, and a call that finds its connection closed before
        // it began is run on another (see `transact`).
        let pool = r2d2::Pool::builder()
            .max_size(options.pool_size.max(1))
            .min_idle(Some(0))
            .test_on_check_out(false)
            .connection_timeout(POOL_WAIT.min(options.connect_timeout))
            // r2d2 would log each failed attempt at a connection (53 lines in an 8 s
            // outage); the call that needed it fails with the last one's cause, and the
            // server says once that the store is down (its health, in the web crate).
            .error_handler(Box::new(r2d2::NopErrorHandler))
            .build(manager)
            .map_err(|e| database.pool(e))?;
        let instance = format!("{:032x}", rand::random::<u128>());
        let store = PostgresStore {
            listen: news::Listen {
                config,
                instance: instance.clone(),
                database: database.0.clone(),
            },
            database,
            folder: scoreboard::Folder::start(pool.clone()),
            pool,
            instance,
        };
        let mut conn = store.conn()?;
        migrations::migrate(&mut conn, &store.database)?;
        Ok(store)
    }

    /// Moves every addition the endings made into the scoreboard's and the rivalries'
    /// rows now, waiting for a fold under way (a thread of the store does it every
    /// second anyway; reads are the same before and after).
    pub fn fold_additions(&self) -> Result<(), StoreError> {
        self.transact(false, None, |tx| {
            scoreboard::fold_all(tx)?;
            Ok(())
        })
    }

    /// Whether games can be written here: a `ReadOnly` error for a database that takes
    /// no writes (a standby, or one set `default_transaction_read_only`), so that a
    /// command that writes can say so before a game is played that could not be kept.
    pub fn check_writable(&self) -> Result<(), StoreError> {
        let database = &self.database;
        let read_only = self.transact(false, None, |tx| {
            let row = tx.query_one("SELECT current_setting('transaction_read_only')", &[])?;
            let setting: String = row.try_get(0).map_err(|e| database.column(e))?;
            Ok(setting == "on")
        })?;
        if read_only {
            return Err(StoreError::ReadOnly {
                database: database.0.clone(),
            });
        }
        Ok(())
    }

    /// The database at `url` as people know it: its address without the password.
    pub fn name_of(url: &str) -> String {
        without_password(url)
    }

    /// The database as people know it: its address without the password. Every error
    /// of this store names it so.
    pub fn database(&self) -> &str {
        &self.database.0
    }

    /// Whether a call whose `tries`th connection turned out to be gone may take another:
    /// after a database's restart every pooled connection is, so as many as the pool
    /// holds, and one new.
    fn another_connection(&self, tries: u32) -> bool {
        tries <= self.pool.max_size()
    }

    fn conn(&self) -> Result<r2d2::PooledConnection<Manager>, StoreError> {
        self.pool.get().map_err(|e| self.database.pool(e))
    }

    /// Runs `work` in one transaction (read-only, or a write), committing if it
    /// succeeds. A transaction that lost a race ([`Failure::retry`]) is run again, up
    /// to [`TRIES`] times; so is one whose pooled connection turned out to be closed
    /// before it began (the server restarted since). `game` names the conflict if a
    /// unique index still refuses the work at the end.
    fn transact<T>(
        &self,
        read_only: bool,
        game: Option<&GameId>,
        mut work: impl FnMut(&mut Tx<'_>) -> Result<T, Failure>,
    ) -> Result<T, StoreError> {
        let mut tries = 0;
        loop {
            tries += 1;
            let mut conn = self.conn()?;
            let tx = match conn.begin(read_only) {
                Ok(tx) => tx,
                Err(error) if errors::connection_gone(&error) && self.another_connection(tries) => {
                    continue;
                }
                Err(error) => return Err(self.database.fail(error.into(), game)),
            };
            match run(tx, &mut work) {
                Ok(done) => return Ok(done),
                Err(failure) if failure.retry() && tries < TRIES => {
                    std::thread::sleep(Duration::from_millis(u64::from(tries) * 5));
                }
                Err(failure) => return Err(self.database.fail(failure, game)),
            }
        }
    }

    fn keep(&self, writes: &[Write], repeat: Repeat) -> Result<(), StoreError> {
        if writes.is_empty() {
            return Ok(());
        }
        self.transact(false, writes.first().map(Write::game), |tx| {
            writes::keep(tx, writes, repeat, &self.instance, &self.database)
        })?;
        if writes
            .iter()
            .any(|write| matches!(write, Write::End { .. }))
        {
            self.folder.added();
        }
        Ok(())
    }

    /// Reads in a read-only transaction, which sees the database at one moment.
    fn read<T>(
        &self,
        work: impl FnMut(&mut Tx<'_>) -> Result<T, Failure>,
    ) -> Result<T, StoreError> {
        self.transact(true, None, work)
    }

    /// Every row `sql` selects with `params` (`R`'s columns first), each made a value by
    /// `value`, which checks it ([`Database::values_of`]): one read.
    fn read_values<R: FromColumns, T>(
        &self,
        sql: &str,
        params: pool::Params<'_>,
        value: impl Fn(&R) -> Result<T, String>,
    ) -> Result<Vec<T>, StoreError> {
        let database = &self.database;
        self.read(|tx| {
            let rows = tx.query(sql, params)?;
            let rows: Vec<R> = codec::read_all(&rows, database)?;
            Ok(database.values_of(&rows, &value)?)
        })
    }

    /// Runs the one statement `sql` with `params` in a write transaction of its own
    /// ([`Self::transact`]): how many rows it changed.
    fn execute_one(&self, sql: &str, params: pool::Params<'_>) -> Result<u64, StoreError> {
        self.transact(false, None, |tx| Ok(tx.execute(sql, params)?))
    }
}

/// `work` in `tx`, then commit (or, if it fails, roll back as `tx` is dropped).
fn run<T>(
    mut tx: Tx<'_>,
    work: &mut impl FnMut(&mut Tx<'_>) -> Result<T, Failure>,
) -> Result<T, Failure> {
    let done = work(&mut tx)?;
    tx.commit()?;
    Ok(done)
}

/// How long, at most, a session of this program may keep others waiting, or wait
/// itself, set on every connection it makes (PostgreSQL's own settings, so that the
/// database enforces them even on a program that stopped):
///
/// * `idle_in_transaction_session_timeout`: a session idle inside a transaction (its
///   program paused or frozen between two statements) is ended, and its locks let go,
///   after [`IDLE_IN_TRANSACTION`];
/// * `lock_timeout`: a statement waits at most [`LOCK_WAIT`] for a row another holds;
/// * `statement_timeout`: a statement runs at most [`STATEMENT`];
/// * TCP keep-alive (probes after 5 s of silence, every second, 3 unanswered end it)
///   and `tcp_user_timeout` (5 s for what was sent to be acknowledged): a connection to
///   a database that went away without a word (a partition, a machine switched off) is
///   found dead in seconds, not the operating system's two hours.
///
/// Settings given in the address (`?options=-c lock_timeout=...`) come after, and win.
fn hold_nothing_long(config: &mut postgres::Config) {
    let ours = format!(
        "-c idle_in_transaction_session_timeout={} -c lock_timeout={} -c statement_timeout={}",
        IDLE_IN_TRANSACTION.as_millis(),
        LOCK_WAIT.as_millis(),
        STATEMENT.as_millis()
    );
    let options = match config.get_options() {
        Some(given) => format!("{ours} {given}"),
        None => ours,
    };
    config
        .options(&options)
        .keepalives(true)
        .keepalives_idle(Duration::from_secs(5))
        .keepalives_interval(Duration::from_secs(1))
        .keepalives_retries(3)
        .tcp_user_timeout(Duration::from_secs(5));
}

/// How long a call waits for a free connection of the pool (or for one to be made)
/// before it fails. r2d2 also tries again to connect to a database that went away
/// at most every half of this: a database that comes back is in use again within
/// 0.75 s.
pub const POOL_WAIT: Duration = Duration::from_millis(1500);

/// How long a check of the store waits for a connection: less than the 500 ms a
/// server gives a check, so that the check fails with the pool's own cause.
pub const CHECK_WAIT: Duration = Duration::from_millis(300);

/// How long a session of this program may sit idle inside a transaction before
/// PostgreSQL ends it and lets its locks go (`idle_in_transaction_session_timeout`).
pub const IDLE_IN_TRANSACTION: Duration = Duration::from_secs(2);
/// How long a statement waits for a row another session holds (`lock_timeout`).
pub const LOCK_WAIT: Duration = Duration::from_secs(1);
/// How long a statement may run (`statement_timeout`).
pub const STATEMENT: Duration = Duration::from_secs(10);

/// Why a connection could not be made, in PostgreSQL's words or the system's: the
/// server's message for a refusal it sent (no such database, a wrong password), else
/// the error and its cause ("error connecting to server: Connection refused").
fn connection_error(error: &postgres::Error) -> String {
    if let Some(server) = error.as_db_error() {
        return server.message().to_string();
    }
    match std::error::Error::source(error) {
        Some(cause) => format!("{error}: {cause}"),
        None => error.to_string(),
    }
}

/// `url` without its password, to name the database in messages: the URL form's
/// `user:password@` loses `:password`, the `key=value` form its `password=...`.
fn without_password(url: &str) -> String {
    if let Some((scheme, rest)) = url.split_once("://") {
        let end = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, path) = rest.split_at(end);
        let authority = match authority.rsplit_once('@') {
            Some((user, host)) => {
                let user = user.split_once(':').map_or(user, |(user, _)| user);
                format!("{user}@{host}")
            }
            None => authority.to_owned(),
        };
        // A password in the query (`?password=...`) goes too.
        let path = match path.split_once('?') {
            Some((path, query)) => {
                let kept: Vec<&str> = query
                    .split('&')
                    .filter(|pair| !pair.starts_with("password="))
                    .collect();
                if kept.is_empty() {
                    path.to_owned()
                } else {
                    format!("{path}?{}", kept.join("&"))
                }
            }
            None => path.to_owned(),
        };
        format!("{scheme}://{authority}{path}")
    } else {
        url.split_whitespace()
            .filter(|pair| !pair.starts_with("password="))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A row selected as `name, wins, losses, ties`, checked.
fn standing(row: &postgres::Row, database: &Database) -> Result<Standing, Failure> {
    let name: String = database.get(row, 0)?;
    let counts = [
        database.get(row, 1)?,
        database.get(row, 2)?,
        database.get(row, 3)?,
    ];
    Ok(assemble::standing(&name, counts).map_err(|detail| database.unreadable(detail))?)
}

impl GameStore for PostgresStore {
    fn write(&self, writes: &[Write]) -> Result<(), StoreError> {
        self.keep(writes, Repeat::Retry)
    }

    /// One round trip on a pooled connection (a new one if the pooled one was closed).
    /// It waits for a connection at most [`CHECK_WAIT`], inside the server's deadline
    /// for a check, so that a database that refuses connections is reported as such
    /// (the pool's last error: "Connection refused"), not as a check that timed out.
    fn checkup(&self) -> Result<(), StoreError> {
        let mut tries = 0;
        loop {
            tries += 1;
            let mut conn = self
                .pool
                .get_timeout(CHECK_WAIT)
                .map_err(|e| self.database.pool(e))?;
            match conn.query_opt_alone("SELECT 1", &[]) {
                Ok(_) => return Ok(()),
                Err(error) if errors::connection_gone(&error) && self.another_connection(tries) => {
                }
                Err(error) => return Err(self.database.fail(error.into(), None)),
            }
        }
    }

    fn write_new(&self, writes: &[Write]) -> Result<(), StoreError> {
        self.keep(writes, Repeat::Race)
    }

    fn rating_changes(&self, games: &[GameId]) -> Result<Vec<RatingChange>, StoreError> {
        self.changes_of(games)
    }

    /// Read from the partial index of the deadlines of the games still played.
    fn overdue(&self, now: SystemTime, limit: usize) -> Result<Vec<GameId>, StoreError> {
        let database = &self.database;
        self.read(|tx| {
            let rows = tx.query(
                "SELECT game FROM clocks WHERE deadline_ns IS NOT NULL AND deadline_ns <= $1 \
                 ORDER BY deadline_ns, game LIMIT $2",
                &[
                    &clocks::time_column(now),
                    &i64::try_from(limit).unwrap_or(i64::MAX),
                ],
            )?;
            game_ids(database, &rows, "the clock of game")
        })
    }

    fn game(&self, id: &GameId) -> Result<Option<StoredGame>, StoreError> {
        let database = &self.database;
        let statement = history::game_statement();
        let mut tries = 0;
        loop {
            tries += 1;
            let mut conn = self.conn()?;
            match conn.query_opt_alone(&statement, &[&id.as_str()]) {
                Ok(row) => {
                    return history::game(row, id, database)
                        .map_err(|failure| database.fail(failure, Some(id)));
                }
                // A pooled connection closed since (the server restarted): another.
                Err(error) if errors::connection_gone(&error) && self.another_connection(tries) => {
                }
                Err(error) => return Err(database.fail(error.into(), Some(id))),
            }
        }
    }

    /// Streams the rows into `each` as the server sends them (a portal read 500 rows at
    /// a time): however long the table, a few hundred rows are held at once.
    fn standings(&self, top: Option<u64>, each: &mut dyn Rows) -> Result<(), StoreError> {
        let database = &self.database;
        let limit = top.map(|top| i64::try_from(top).unwrap_or(i64::MAX));
        self.read(|tx| {
            let statement = tx.prepared(scoreboard::RANKED)?;
            let portal = tx.sql.bind(&statement, &[&limit])?;
            loop {
                let rows = tx.sql.query_portal(&portal, 500)?;
                for row in &rows {
                    each.row(standing(row, database)?);
                }
                if rows.len() < 500 {
                    return Ok(());
                }
            }
        })
    }

    fn standings_of(&self, names: &[PlayerName]) -> Result<Scoreboard, StoreError> {
        let database = &self.database;
        let mut keys: Vec<String> = names.iter().map(PlayerName::key).collect();
        keys.sort();
        keys.dedup();
        self.read(|tx| {
            let rows = tx.query(scoreboard::OF_KEYS, &[&keys])?;
            let rows = rows
                .iter()
                .map(|row| standing(row, database))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Scoreboard::from_standings(rows))
        })
    }

    fn reset(&self) -> Result<Cleared, StoreError> {
        self.transact(false, None, |tx| {
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SCOREBOARD_LOCK])?;
            scoreboard::fold_all(tx)?;
            let row = tx.query_one(
                &format!(
                    "INSERT INTO resets (epoch, at, players) \
                     SELECT e.epoch + 1, {}, (SELECT count(*) FROM tallies WHERE epoch = e.epoch) \
                     FROM ({CURRENT_EPOCH}) AS e(epoch) RETURNING players",
                    codec::NOW_MS
                ),
                &[],
            )?;
            let players: i64 = row.try_get(0).map_err(|e| self.database.column(e))?;
            Ok(Cleared {
                players: players.unsigned_abs(),
            })
        })
    }

    fn restore(&self) -> Result<Restored, StoreError> {
        self.transact(false, None, |tx| {
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SCOREBOARD_LOCK])?;
            scoreboard::fold_all(tx)?;
            let current: Option<i64> = tx
                .query_one("SELECT max(epoch) FROM resets", &[])?
                .try_get(0)
                .map_err(|e| self.database.column(e))?;
            let Some(current) = current else {
                return Ok(Restored::NothingToRestore);
            };
            let previous = current - 1;
            tx.execute(
                concat!(
                    "INSERT INTO tallies (epoch, key, name, wins, losses, ties) \
                     SELECT $1, key, name, wins, losses, ties FROM tallies WHERE epoch = $2 \
                     ORDER BY key \
                     ON CONFLICT (epoch, key) DO UPDATE SET ",
                    writes::saturating_counts!("tallies")
                ),
                &[&previous, &current],
            )?;
            tx.execute("DELETE FROM tallies WHERE epoch = $1", &[&current])?;
            tx.execute("DELETE FROM resets WHERE epoch = $1", &[&current])?;
            let players: i64 = tx
                .query_one(
                    "SELECT count(*) FROM tallies WHERE epoch = $1",
                    &[&previous],
                )?
                .try_get(0)
                .map_err(|e| self.database.column(e))?;
            Ok(Restored::Restored {
                players: players.unsigned_abs(),
            })
        })
    }

    fn import(&self, source: &str, scoreboard: &Scoreboard) -> Result<Imported, StoreError> {
        let rows = scoreboard.standings();
        let players = rows.len() as u64;
        // Summed by key (rows naming one player are one row), in key order; the first
        // spelling is kept, as the scoreboard keeps it.
        let mut by_key: std::collections::BTreeMap<String, (&str, Record)> = Default::default();
        for row in rows {
            by_key
                .entry(row.name.key())
                .or_insert((row.name.as_str(), Record::default()))
                .1
                .add(row.record);
        }
        self.transact(false, None, |tx| {
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SCOREBOARD_LOCK])?;
            scoreboard::fold_all(tx)?;
            let added = tx.execute(
                &format!(
                    "INSERT INTO imports (source, at, players) VALUES ($1, {}, $2) \
                     ON CONFLICT (source) DO NOTHING",
                    codec::NOW_MS
                ),
                &[&source, &rows::count_column(players)],
            )?;
            if added == 0 {
                return Ok(Imported::AlreadyImported);
            }
            let (keys, names, counts) = writes::columns(
                by_key
                    .iter()
                    .map(|(key, (name, record))| (key.as_str(), *name, *record)),
            );
            scoreboard::insert_counted(
                tx,
                "INSERT INTO imported_rows (source, key, name, wins, losses, ties)",
                &source,
                (&keys, &names, &counts),
            )?;
            let epoch: i64 = tx
                .query_one(CURRENT_EPOCH, &[])?
                .try_get(0)
                .map_err(|e| self.database.column(e))?;
            tx.execute(
                ADD_TALLIES,
                &[&epoch, &keys, &names, &counts[0], &counts[1], &counts[2]],
            )?;
            Ok(Imported::Added { players })
        })
    }
}

impl NewsFeed for PostgresStore {
    /// Listens on a connection of its own, on a thread of its own (see `news`).
    fn follow(&self, hear: Box<dyn Hear>) -> Result<Following, StoreError> {
        self.listen
            .follow(hear)
            .map_err(|detail| StoreError::Unavailable {
                database: self.database.0.clone(),
                detail,
            })
    }
}

impl Pacing for PostgresStore {
    /// One statement: the row is made, or taken over when its hold ran out or is this
    /// store's already; a row another instance holds is left, and nothing is returned.
    fn pace(&self, game: &GameId, hold: Duration) -> Result<bool, StoreError> {
        let hold_ms = i64::try_from(hold.as_millis()).unwrap_or(i64::MAX / 2);
        let now = codec::NOW_MS;
        self.transact(false, None, |tx| {
            let row = tx.query_opt(
                &format!(
                    "INSERT INTO pacing (game, holder, until_ms) VALUES ($1, $2, {now} + $3) \
                     ON CONFLICT (game) DO UPDATE \
                     SET holder = excluded.holder, until_ms = excluded.until_ms \
                     WHERE pacing.holder = excluded.holder OR pacing.until_ms <= {now} \
                     RETURNING 1"
                ),
                &[&game.as_str(), &self.instance, &hold_ms],
            );
            match row {
                Ok(row) => Ok(row.is_some()),
                // The pacing row names its game: a game never begun cannot be paced.
                Err(error) if error.code() == Some(&SqlState::FOREIGN_KEY_VIOLATION) => {
                    Err(StoreError::NoSuchGame(game.clone()).into())
                }
                Err(error) => Err(error.into()),
            }
        })
    }

    fn unpaced(&self, limit: u32) -> Result<Vec<GameId>, StoreError> {
        let database = &self.database;
        self.read(|tx| {
            let rows = tx.query(
                // The holds run out first (a few rows, newest first: a server that
                // died let go of its games a moment ago), then each game by its key:
                // left to itself, the planner may read every game to find the few
                // paced ones (measured: up to 66 ms a look, twice a second a server).
                &format!(
                    "WITH expired AS MATERIALIZED ( \
                         SELECT game, until_ms FROM pacing WHERE until_ms <= {} \
                         ORDER BY until_ms DESC LIMIT 1000) \
                     SELECT e.game FROM expired e JOIN games g ON g.id = e.game \
                     WHERE g.ending IS NULL ORDER BY e.until_ms, e.game LIMIT $1",
                    codec::NOW_MS
                ),
                &[&i64::from(limit)],
            )?;
            game_ids(database, &rows, "paced game")
        })
    }
}

/// The game ids in the first column of `rows`, each read as one (`what` names them in
/// an error).
fn game_ids(
    database: &Database,
    rows: &[postgres::Row],
    what: &str,
) -> Result<Vec<GameId>, Failure> {
    rows.iter()
        .map(|row| {
            let id: String = row.try_get(0).map_err(|e| database.column(e))?;
            GameId::parse(&id)
                .map_err(|e| database.unreadable(format!("{what} {id:?}: {e}")).into())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_store_asks_the_database_to_let_nothing_wait_long() {
        // Arrange
        let mut config: postgres::Config = "postgres://ada@db/games?options=-c%20work_mem%3D8MB"
            .parse()
            .unwrap();

        // Act
        hold_nothing_long(&mut config);

        // Assert: its settings first, what the address set after (so it wins).
        assert_eq!(
            config.get_options(),
            Some(
                "-c idle_in_transaction_session_timeout=2000 -c lock_timeout=1000 \
                 -c statement_timeout=10000 -c work_mem=8MB"
            )
        );
        assert!(config.get_keepalives());
        assert_eq!(config.get_keepalives_idle(), Duration::from_secs(5));
        assert_eq!(config.get_tcp_user_timeout(), Some(&Duration::from_secs(5)));
    }

    #[test]
    fn a_session_of_the_store_left_idle_inside_a_transaction_is_ended_and_lets_its_locks_go() {
        let url = tictactoe_test_postgres::database_or_return!();
        // Arrange: one of the store's own sessions holds a row in a transaction, then
        // stops (as a frozen server does).
        let store = PostgresStore::connect(&url, Options::default()).unwrap();
        let mut other = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        other
            .execute(
                "INSERT INTO resets (epoch, at, players) VALUES (7, 0, 0)",
                &[],
            )
            .unwrap();
        let mut held = store.conn().unwrap();
        let mut tx = held.begin(false).unwrap();
        tx.execute("SELECT * FROM resets WHERE epoch = 7 FOR UPDATE", &[])
            .unwrap();

        // Act: another session (with no timeout of its own) waits for the same row.
        let started = std::time::Instant::now();
        let waited = other.execute("UPDATE resets SET players = 1 WHERE epoch = 7", &[]);

        // Assert: it got it once the idle session was ended, 2 s in, not later.
        assert!(waited.is_ok(), "{waited:?}");
        let took = started.elapsed();
        assert!(
            took >= Duration::from_millis(1500) && took < Duration::from_secs(5),
            "{took:?}"
        );
        assert!(tx.commit().is_err(), "the idle session was ended");
    }

    #[test]
    fn connecting_to_a_server_that_never_answers_is_given_up_at_the_deadline() {
        silent_server_given_up(false);
    }

    #[test]
    fn checking_a_server_that_never_answers_is_given_up_at_the_deadline() {
        silent_server_given_up(true);
    }

    fn silent_server_given_up(checking: bool) {
        // Arrange: a port whose connections the system takes in, and nobody answers.
        let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!(
            "postgres://ada@127.0.0.1:{}/games",
            silent.local_addr().unwrap().port()
        );
        let options = Options {
            start_deadline: Duration::from_millis(300),
            ..Options::default()
        };
        let started = std::time::Instant::now();

        // Act
        let result = if checking {
            PostgresStore::check_at(&url, options).map(|_| ())
        } else {
            PostgresStore::connect(&url, options).map(|_| ())
        };
        let waited = started.elapsed();

        // Assert
        assert!(
            matches!(&result, Err(StoreError::Unavailable { detail, .. }) if detail.contains("did not answer within")),
            "{result:?}"
        );
        assert!(waited < Duration::from_secs(3), "gave up after {waited:?}");
    }

    #[test]
    fn a_urls_password_is_not_shown() {
        assert_eq!(
            without_password("postgres://ada:secret@db.example:5432/games?sslmode=disable"),
            "postgres://ada@db.example:5432/games?sslmode=disable"
        );
    }

    #[test]
    fn a_password_in_the_query_is_not_shown() {
        assert_eq!(
            without_password("postgresql://ada@db/games?password=secret"),
            "postgresql://ada@db/games"
        );
    }

    #[test]
    fn a_key_value_password_is_not_shown() {
        assert_eq!(
            without_password("host=db user=ada password=secret dbname=games"),
            "host=db user=ada dbname=games"
        );
    }

    #[test]
    fn an_address_without_a_password_is_shown_as_it_is() {
        assert_eq!(
            without_password("postgres://127.0.0.1:5432/games"),
            "postgres://127.0.0.1:5432/games"
        );
    }
}
