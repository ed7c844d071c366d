//! Tic Tac Toe's games and scoreboard in one SQLite file: the embedded default
//! [`GameStore`], which needs no server and nothing installed.
//!
//! Why [`rusqlite`]: it is synchronous, as the core's port is, so a console game
//! calls the store directly and needs no async runtime; with its `bundled` feature it
//! compiles SQLite into the program, so no machine needs SQLite installed.
//!
//! The PostgreSQL store (`tictactoe-postgres-store`) is another crate behind the same
//! port. What the two have in common is written once elsewhere: the exactly-once rules
//! in the core (`rules::exactly_once`), the rows, the words their columns hold and the
//! checks of what is read back in `tictactoe-store-rows`, and the contract suite
//! (`crates/store-contract`) that holds both to the same answers. This crate is what
//! is SQLite's own: its SQL and migrations, its transactions and connections, and its
//! errors in the port's words.
//!
//! ```
//! use tictactoe_core::ports::GameStore;
//! use tictactoe_sqlite_store::SqliteStore;
//!
//! let folder = tempfile::tempdir()?;
//! let store = SqliteStore::open(&folder.path().join("games.sqlite3"))?;
//! assert!(store.scoreboard(Some(20))?.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A file it cannot read is never written: one that is not a database, a damaged one,
//! another program's (this program's files carry its `application_id`) or one from a
//! newer version is refused before anything is written, and left as it was, its log
//! included: it is read through a connection that can change nothing before any other
//! is opened (see `file`). [`SqliteStore::check`] reads every page of a file the same
//! way (SQLite's `quick_check`), for a server about to serve it.
//!
//! A file removed, renamed or replaced while the store has it open is noticed before
//! the next write and at each [`GameStore::checkup`]: from then on every call fails
//! ([`StoreError::Unavailable`], naming the path and what became of the games), and a
//! copy of everything the store held is written beside the path (and put back at the
//! path if nothing is there), so that nothing it kept is lost with the old file.
//!
//! What it is made of:
//!
//! * `migrations/*.sql`: the schema, in versions, each with comments on its tables;
//!   the `migrations` module runs them on open.
//! * `codec`: a row of `games` read from SQLite, and the store's clock.
//! * `writes`: each [`Write`] inside one transaction per call: what the file holds of
//!   its game read for the core's rules, and what they decide kept.
//! * `errors`: SQLite's errors in the port's words.
//! * `tallies`: the scoreboard, kept as each game ends; resets and imports.
//! * `history`: the ended games newest first, a player's opponents, and the reviews
//!   (the core's `GameHistory` and `ReviewStore` ports).
//! * `ratings`: ratings per board, each game's change kept with its end; the
//!   `RatingStore` port, and the rebuild.
//! * `training`: the answers to training puzzles (the `TrainingStore` port).
//! * `accounts`: accounts, their sessions and personal tokens (the `AccountStore`
//!   port).
//! * `seeks`: people looking for an opponent, the lobby's and the pool's (the
//!   `SeekStore` port).
//! * `connection`: how each connection is set up (WAL, `synchronous`, the busy
//!   timeout, the log's length) and what each setting protects against.
//! * `backup`: a copy of the file while other programs write it (SQLite's online
//!   backup), given its name only once it is whole.
//! * `file`: the file as the operating system sees it: read alone before it is opened,
//!   which file is held, and what is done when it is no longer at its path.

mod accounts;
mod backup;
pub use backup::{BackupError, Copied};
mod codec;
mod connection;
mod errors;
mod file;
pub use file::beside;
mod history;
mod migrations;
mod ratings;
mod seeks;
mod tallies;
mod training;
mod writes;

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use rusqlite::{Connection, OptionalExtension, Params, Transaction, TransactionBehavior, params};
use tictactoe_core::domain::{PlayerName, Scoreboard, Standing};
use tictactoe_core::ports::{
    Cleared, GameId, GameStore, Imported, RatingChange, Restored, Rows, StoreError, StoredGame,
    Write,
};
use tictactoe_core::rules::Repeat;

use codec::Select;
use connection::{Checkpointer, Readers, lock};
use errors::{Database, SqliteErrors};
use tictactoe_store_rows::{FromColumns, assemble, clocks};

/// How a store uses its file. `Options::default()` is right for the program; tests
/// change the rest.
#[derive(Debug, Clone)]
pub struct Options {
    /// How long a write waits for another connection (in this process or another) to
    /// let go of the write lock before giving up with [`StoreError::Locked`].
    pub busy_timeout: Duration,
    /// How long a write keeps trying, in all, while other connections hold the write
    /// lock: each try waits up to `busy_timeout`. SQLite's waiting is not first come,
    /// first served, so with many writers at once (32 processes in a test) one can miss
    /// its turn for longer than one timeout; trying again is safe, because a write the
    /// store already has is a no-op. Opening the database, and
    /// [`SqliteStore::check_writable`], try once: a stuck process is reported after
    /// `busy_timeout`, before a game starts.
    pub write_patience: Duration,
    /// A cap on the file's size, in pages (SQLite's `max_page_count`, 4 KiB pages):
    /// writes past it fail as on a full disk. `None` for no cap but the disk's. It
    /// exists so that tests can see a full disk without filling one.
    pub max_page_count: Option<u32>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            busy_timeout: Duration::from_secs(10),
            write_patience: Duration::from_secs(30),
            max_page_count: None,
        }
    }
}

/// A [`GameStore`] in an SQLite file. See the crate documentation.
///
/// Shared between threads (it is `Send + Sync`) with one connection to write and a few
/// to read. A rusqlite [`Connection`] may move between threads but not be used by two
/// at once, and SQLite lets one connection write at a time anyway (in any process); so
/// the writer sits behind a [`Mutex`], and every read takes a reader connection of its
/// own from a small pool. In WAL mode readers never wait for the writer, so a server's
/// reads go on while a game is written, and a long read (the whole scoreboard, handed
/// row by row to a caller) holds no lock that a write would need.
///
/// Measured against one connection behind one mutex for everything (the `figures`
/// example's mixed load, 100,000 players, two reading threads beside one writing, on
/// two busy cores; the figures vary from run to run): the pool read 86,000 to 131,000
/// players' rows a second against 30,000 to 92,000, and a whole game's writes took a
/// median of 3 to 7 ms against 3 to 52 ms.
pub struct SqliteStore {
    database: Database,
    path: PathBuf,
    options: Options,
    /// The file (and its log) this store opened, to tell whether its path still names it.
    place: file::Place,
    /// Set once the file at `path` is found to be another (or none): every call then
    /// fails with what became of it.
    lost: Mutex<Option<file::Lost>>,
    writer: Mutex<Connection>,
    readers: Readers,
    /// Declared last, so dropped last: its connection is the file's last to close,
    /// and SQLite then checkpoints what is left and removes the log.
    checkpointer: Checkpointer,
}

/// A rusqlite result in the port's words, for the database it is about.
pub(crate) trait Sql<T> {
    fn db(self, database: &Database) -> Result<T, StoreError>;
}

impl<T> Sql<T> for rusqlite::Result<T> {
    fn db(self, database: &Database) -> Result<T, StoreError> {
        self.map_err(|error| database.error(error))
    }
}

impl SqliteStore {
    /// The newest schema version this program knows (the file's `user_version`).
    pub const SCHEMA_VERSION: i64 = migrations::KNOWN;

    /// Opens the database at `path` with the default [`Options`]. See
    /// [`SqliteStore::open_with`].
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with(path, Options::default())
    }

    /// Opens the database at `path`, making its folders and the file if they are
    /// missing, and brings its schema up to date.
    ///
    /// A file it cannot read is never changed, nor its log: a folder is
    /// [`StoreError::Folder`]; a file that is not a database, a damaged one, or another
    /// program's database is [`StoreError::Unreadable`]; one from a newer version of the
    /// program is [`StoreError::Newer`]. Each is found by reading alone, through a
    /// connection that can change nothing, before any other is opened. So is a log
    /// lying beside no database (`PATH-wal` where `PATH` is missing or empty), which is
    /// refused as [`StoreError::Unreadable`] rather than replaced by a new database.
    pub fn open_with(path: &Path, options: Options) -> Result<SqliteStore, StoreError> {
        let database = Database(path.display().to_string());
        if path.is_dir() {
            return Err(StoreError::Folder {
                database: database.0,
            });
        }
        file::read_alone(path, &database)?;
        if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            fs::create_dir_all(folder).map_err(|e| database.io_error(e))?;
        }
        // Several programs opening one new file at once: while one sets it up (WAL,
        // migrations), SQLite can answer another "busy" at once, without waiting its
        // busy timeout. Setting up is tried again, until that timeout has passed.
        let started = std::time::Instant::now();
        let set_up = loop {
            match set_up(path, &options, &database) {
                Err(StoreError::Locked { .. }) if started.elapsed() < options.busy_timeout => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                set_up => break set_up,
            }
        };
        let mut writer = set_up?;
        let checkpointer = Checkpointer::start(path, &options, &database)?;
        let nudge = checkpointer.nudge();
        writer
            .wal_hook(Some(move |_: &mut rusqlite::hooks::Wal, frames| {
                nudge(i64::from(frames));
                Ok(())
            }))
            .db(&database)?;
        Ok(SqliteStore {
            place: file::Place::of(path),
            lost: Mutex::new(None),
            database,
            path: path.to_owned(),
            options,
            writer: Mutex::new(writer),
            readers: Readers::new(),
            checkpointer,
        })
    }

    /// Reads every page of the database at `path` (SQLite's `quick_check`) and says what
    /// is damaged, without changing the file or its log: for a server to know before it
    /// serves a file, and for `tictactoe check`. A file that cannot be opened at all
    /// (not a database, cut short, newer) is the same error [`SqliteStore::open`] gives;
    /// a file that is not there is [`StoreError::Unavailable`] (nothing is made).
    ///
    /// It reads the whole file: on a database of 1,000,000 games (686 MB) it took 1.3 to
    /// 1.9 s and 10 MB, the file in the page cache (see docs/reliability.md).
    pub fn check(path: &Path) -> Result<Checked, StoreError> {
        let database = Database(path.display().to_string());
        if path.is_dir() {
            return Err(StoreError::Folder {
                database: database.0,
            });
        }
        if !path.exists() {
            return Err(StoreError::Unavailable {
                database: database.0,
                detail: "there is no such file".into(),
            });
        }
        file::read_alone(path, &database)?;
        let reading = file::reading(path).db(&database)?;
        let pages: i64 = reading
            .pragma_query_value(None, "page_count", |row| row.get(0))
            .db(&database)?;
        let found = reading
            .prepare("PRAGMA quick_check(100)")
            .and_then(|mut check| {
                check
                    .query_map([], |row| row.get::<_, String>(0))?
                    .collect::<rusqlite::Result<Vec<String>>>()
            });
        let problems = match found {
            Ok(lines) if lines.len() == 1 && lines[0] == "ok" => Vec::new(),
            Ok(lines) => lines,
            // Damage bad enough to stop the check itself.
            Err(error) => match database.error(error) {
                StoreError::Unreadable { detail, .. } => vec![detail],
                other => return Err(other),
            },
        };
        Ok(Checked {
            problems,
            pages: pages.unsigned_abs(),
        })
    }

    /// Copies the database at `path` to a new file `to`, while other programs (a
    /// server) go on writing it: one moment of it, all of it (SQLite's online backup;
    /// see `backup`). Something already at `to` is refused unless `replace`. The
    /// database is read as [`SqliteStore::check`] reads it, and nothing of it changes.
    pub fn backup(path: &Path, to: &Path, replace: bool) -> Result<Copied, BackupError> {
        backup::backup(path, to, replace)
    }

    /// The file this store keeps.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether this program may write to the database now: the file can be written, the
    /// disk has room for a page of the log, and no other program holds its write lock
    /// longer than the busy timeout. Commits one write that changes nothing (the
    /// schema's version, written as it is). A game is begun only after this, so that a
    /// read-only, locked or full database stops the command before a game is played
    /// that could not be kept.
    pub fn check_writable(&self) -> Result<(), StoreError> {
        {
            let writer = lock(&self.writer);
            if writer.is_readonly(rusqlite::MAIN_DB).db(&self.database)? {
                return Err(StoreError::ReadOnly {
                    database: self.database.0.clone(),
                });
            }
        }
        let database = &self.database;
        self.in_write(|transaction| {
            let version: i64 = transaction
                .pragma_query_value(None, "user_version", |row| row.get(0))
                .db(database)?;
            transaction
                .pragma_update(None, "user_version", version)
                .db(database)
        })
    }

    /// Runs `work` in a write transaction: `BEGIN IMMEDIATE` (see `connection`), then
    /// commit if `work` succeeds, roll back if it fails. All or none. First makes sure
    /// the file at the store's path is still the one it writes.
    fn in_write<T>(
        &self,
        work: impl FnOnce(&Transaction<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut writer = lock(&self.writer);
        self.still_here(&writer)?;
        let transaction = writer
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .db(&self.database)?;
        let done = work(&transaction)?; // an error drops the transaction: rolled back
        transaction.commit().db(&self.database)?;
        self.checkpointer
            .restart_if_wanted(&writer, self.options.busy_timeout);
        Ok(done)
    }

    /// `Ok` while the file at the store's path is the one it opened. Once it is not, the
    /// store is lost for good: every call fails with what became of the file, and a copy
    /// of everything `writer` holds is saved (tried again at each call until it is).
    fn still_here(&self, writer: &Connection) -> Result<(), StoreError> {
        let mut lost = lock(&self.lost);
        if lost.is_none() {
            match self.place.check(&self.path) {
                Ok(()) => return Ok(()),
                Err(gone) => *lost = Some(file::Lost::new(gone)),
            }
        }
        let lost = lost.as_mut().expect("set above");
        if lost.unsaved() {
            file::rescue(lost, &self.place, &self.path, writer);
        }
        Err(lost.error(&self.database))
    }

    /// The error every call returns once the store's file is lost, if it is.
    fn lost(&self) -> Result<(), StoreError> {
        match lock(&self.lost).as_ref() {
            Some(lost) => Err(lost.error(&self.database)),
            None => Ok(()),
        }
    }

    /// Runs `work` in a read transaction on a reader connection: every query in it sees
    /// the database as of one moment.
    fn in_read<T>(
        &self,
        work: impl FnOnce(&Transaction<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.lost()?;
        let mut reader = self
            .readers
            .take(&self.path, &self.options)
            .db(&self.database)?;
        let transaction = reader.transaction().db(&self.database)?;
        let done = work(&transaction)?;
        transaction.commit().db(&self.database)?;
        Ok(done)
    }

    /// Every row `sql` selects with `params` (`R`'s columns first), each made a value by
    /// `value`, which checks it ([`Database::values_of`]): one read.
    fn read_values<R: FromColumns, T>(
        &self,
        sql: &str,
        params: impl Params,
        value: impl Fn(&R) -> Result<T, String>,
    ) -> Result<Vec<T>, StoreError> {
        let database = &self.database;
        self.in_read(|transaction| {
            let rows: Vec<R> = transaction.select(database, sql, params)?;
            database.values_of(&rows, value)
        })
    }

    fn unreadable_game(&self, id: &GameId) -> impl Fn(String) -> StoreError {
        let database = self.database.clone();
        let id = id.clone();
        move |detail| database.unreadable_game(&id, detail)
    }

    /// Keeps `writes` in one transaction, trying again while another process holds the
    /// write lock (for up to `write_patience`): a failed transaction kept nothing, so
    /// trying again is safe either way.
    fn keep(&self, writes: &[Write], repeat: Repeat) -> Result<(), StoreError> {
        if writes.is_empty() {
            return Ok(());
        }
        let started = std::time::Instant::now();
        loop {
            let kept = self.in_write(|transaction| {
                writes
                    .iter()
                    .try_for_each(|write| writes::apply(transaction, write, repeat, &self.database))
            });
            match kept {
                Err(StoreError::Locked { .. })
                    if started.elapsed() < self.options.write_patience => {}
                kept => return kept,
            }
        }
    }
}

impl GameStore for SqliteStore {
    fn write(&self, writes: &[Write]) -> Result<(), StoreError> {
        self.keep(writes, Repeat::Retry)
    }

    /// The file at the store's path is still the one it writes (see
    /// [`SqliteStore::open_with`]), and a read of the schema's version: the file opens,
    /// and its first page is read.
    fn checkup(&self) -> Result<(), StoreError> {
        // The writer is waited for only when the file went (to save a copy of it).
        if self.lost().is_err() || self.place.check(&self.path).is_err() {
            self.still_here(&lock(&self.writer))?;
        }
        let database = &self.database;
        self.in_read(|transaction| {
            transaction
                .query_row("PRAGMA schema_version", [], |_| Ok(()))
                .db(database)
        })
    }

    fn write_new(&self, writes: &[Write]) -> Result<(), StoreError> {
        self.keep(writes, Repeat::Race)
    }

    fn rating_changes(&self, games: &[GameId]) -> Result<Vec<RatingChange>, StoreError> {
        self.changes_of(games)
    }

    fn game(&self, id: &GameId) -> Result<Option<StoredGame>, StoreError> {
        let database = &self.database;
        self.in_read(|transaction| {
            let Some(row) = writes::game_row(transaction, id, database)? else {
                return Ok(None);
            };
            let steps = writes::steps_of(transaction, id, database)?;
            let rematch: Option<String> = transaction
                .prepare_cached("SELECT id FROM games WHERE follows = ?1")
                .db(database)?
                .query_row([id.as_str()], |row| row.get(0))
                .optional()
                .db(database)?;
            let clock = writes::clock_of(transaction, id, database)?;
            assemble::stored_game(&row, rematch.as_deref(), steps, clock.as_ref())
                .map(Some)
                .map_err(self.unreadable_game(id))
        })
    }

    /// Read from the partial index of the deadlines of the games still played.
    fn overdue(&self, now: SystemTime, limit: usize) -> Result<Vec<GameId>, StoreError> {
        let database = &self.database;
        self.in_read(|transaction| {
            let ids: Vec<String> = transaction
                .prepare_cached(
                    "SELECT game FROM clocks WHERE deadline_ns IS NOT NULL \
                     AND deadline_ns <= ?1 ORDER BY deadline_ns, game LIMIT ?2",
                )
                .db(database)?
                .query_map(
                    params![
                        clocks::time_column(now),
                        i64::try_from(limit).unwrap_or(i64::MAX)
                    ],
                    |row| row.get(0),
                )
                .db(database)?
                .collect::<rusqlite::Result<_>>()
                .db(database)?;
            ids.iter()
                .map(|id| {
                    GameId::parse(id)
                        .map_err(|e| database.unreadable(format!("the clock of game {id:?}: {e}")))
                })
                .collect()
        })
    }

    /// Streams rows straight from the query into `each`: however long the table,
    /// one row is held at a time.
    fn standings(&self, top: Option<u64>, each: &mut dyn Rows) -> Result<(), StoreError> {
        let database = &self.database;
        self.lost()?;
        let reader = self.readers.take(&self.path, &self.options).db(database)?;
        let mut query = reader.prepare_cached(tallies::RANKED).db(database)?;
        // SQLite reads LIMIT -1 as no limit.
        let limit = top.map_or(-1, |top| i64::try_from(top).unwrap_or(i64::MAX));
        let mut rows = query.query([limit]).db(database)?;
        while let Some(row) = rows.next().db(database)? {
            let standing = tallies::standing(row)
                .db(database)?
                .map_err(|detail| database.unreadable(detail))?;
            each.row(standing);
        }
        Ok(())
    }

    fn standings_of(&self, names: &[PlayerName]) -> Result<Scoreboard, StoreError> {
        let database = &self.database;
        self.in_read(|transaction| {
            let epoch = tallies::current_epoch(transaction).db(database)?;
            let mut query = transaction.prepare_cached(tallies::ONE_ROW).db(database)?;
            let mut keys: Vec<String> = names.iter().map(PlayerName::key).collect();
            keys.sort();
            keys.dedup();
            let mut rows = Vec::new();
            for key in keys {
                let mut found = query.query(rusqlite::params![epoch, key]).db(database)?;
                if let Some(row) = found.next().db(database)? {
                    rows.push(
                        tallies::standing(row)
                            .db(database)?
                            .map_err(|detail| database.unreadable(detail))?,
                    );
                }
            }
            Ok(Scoreboard::from_standings(rows))
        })
    }

    fn reset(&self) -> Result<Cleared, StoreError> {
        self.in_write(|transaction| {
            tallies::reset(transaction, codec::now_ms())
                .map(|players| Cleared { players })
                .db(&self.database)
        })
    }

    fn restore(&self) -> Result<Restored, StoreError> {
        self.in_write(|transaction| {
            Ok(match tallies::restore(transaction).db(&self.database)? {
                Some(players) => Restored::Restored { players },
                None => Restored::NothingToRestore,
            })
        })
    }

    fn import(&self, source: &str, scoreboard: &Scoreboard) -> Result<Imported, StoreError> {
        let database = &self.database;
        let rows = scoreboard.standings();
        self.in_write(|transaction| {
            let players = rows.len() as u64;
            if !tallies::mark_imported(transaction, source, codec::now_ms(), players)
                .db(database)?
            {
                return Ok(Imported::AlreadyImported);
            }
            let epoch = tallies::current_epoch(transaction).db(database)?;
            // In key order, the order of both tables' primary keys: each row goes next
            // to the one before, in pages already in memory, instead of anywhere.
            let mut by_key: Vec<(String, &Standing)> =
                rows.iter().map(|row| (row.name.key(), row)).collect();
            by_key.sort_unstable_by(|a, b| a.0.cmp(&b.0));
            for (_, row) in by_key {
                tallies::keep_imported(transaction, source, row).db(database)?;
                tallies::add(transaction, epoch, &row.name, row.record).db(database)?;
            }
            Ok(Imported::Added { players })
        })
    }
}

/// What [`SqliteStore::check`] found in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// What SQLite's `quick_check` found damaged, in its words (at most 100 lines);
    /// empty for a whole file.
    pub problems: Vec<String>,
    /// The database's length in pages.
    pub pages: u64,
}

/// Closes the file in good order: the checkpoint thread and the readers first, then the
/// writer, which, if it is the file's last connection, copies the log into the file and
/// deletes the log. Only while the file at the path is still the store's: otherwise the
/// log at that path may be another file's (see `connection`).
impl Drop for SqliteStore {
    fn drop(&mut self) {
        self.checkpointer.stop();
        self.readers.close_all();
        let held = lock(&self.lost).is_none() && self.place.check(&self.path).is_ok();
        if held {
            let _ = connection::keep_the_log_on_close(&lock(&self.writer), false);
        }
    }
}

/// The writer's connection to the file at `path`, the file made a database of this
/// program's newest schema if it is not yet (see [`SqliteStore::open_with`]).
fn set_up(path: &Path, options: &Options, database: &Database) -> Result<Connection, StoreError> {
    let mut writer = connection::open(path, options, true).db(database)?;
    let version = migrations::version(&writer, database)?;
    // WAL is kept in the file: set once, when the file is new (or was made by hand).
    let mode: String = writer
        .pragma_query_value(None, "journal_mode", |row| row.get(0))
        .db(database)?;
    if !mode.eq_ignore_ascii_case("wal") {
        let mode: String = writer
            .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))
            .db(database)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Unavailable {
                database: database.0.clone(),
                detail: format!("SQLite kept the journal mode {mode} instead of WAL"),
            });
        }
    }
    if version < migrations::KNOWN {
        migrations::migrate(&mut writer, version, database)?;
    }
    if let Some(pages) = options.max_page_count {
        writer
            .pragma_update(None, "max_page_count", pages)
            .db(database)?;
    }
    Ok(writer)
}
