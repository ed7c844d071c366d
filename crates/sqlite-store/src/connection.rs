//! Connections to the file, each set up the same way, and the small pool of readers.
//!
//! The settings, and what each protects against:
//!
//! * `journal_mode = WAL` (kept in the file): a write appends to a separate log instead
//!   of rewriting the file in place, so readers (in any process) go on reading while one
//!   writer writes, and a crash part-way through a write leaves the last committed
//!   state.
//! * `synchronous = FULL`: each commit waits until the log is on the disk (`fsync`).
//!   Every setting of WAL mode already survives the process being killed (`kill -9`):
//!   a commit has handed its pages to the operating system before it returns. FULL also
//!   survives the machine losing power or the system crashing, where NORMAL could lose
//!   the last commits. It costs one `fsync` per write: measured with a million games
//!   (the workspace's `examples/figures.rs`), a game's end and its players' rows took 0.45 ms (median)
//!   with FULL against 0.10 ms with NORMAL, and up to 4 ms when other programs kept the
//!   disk busy; well inside what a game needs.
//! * `wal_autocheckpoint = 0`: the log is copied into the file by a thread of the
//!   store's own, never inside a write (see [`Checkpointer`]).
//! * `busy_timeout`: when another process holds the write lock, wait for it (up to the
//!   timeout) instead of failing at once.
//! * `foreign_keys = ON`: a step for a game that is not there is refused by SQLite too,
//!   not only by the store's checks.
//! * `journal_size_limit` ([`LOG_LIMIT`]) and an early restart of the log (see
//!   [`Checkpointer`]): the log is started again from its beginning once it is 512 KiB
//!   long and (nearly) all copied, and cut back to 512 KiB when it is, so that it never
//!   takes much more of the disk than that (it used to grow to 16 MiB, which filled any volume with
//!   less room than that within a second under load).
//! * No checkpoint when a connection closes (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`): the
//!   last connection to close would otherwise copy the log into the file and delete
//!   the log, by its path. That is right for a file the store has checked and still
//!   holds, and only then: a file refused (not a database, damaged, newer) must be left
//!   exactly as it was, log included, and a file removed or replaced while open must
//!   not have the log at its old path deleted, which may by then be another file's.
//!   The store turns it back on for its writer, the last to close, when it closes in
//!   good order (`SqliteStore`'s `Drop`).
//!
//! Writes begin with `BEGIN IMMEDIATE` (see `SqliteStore::write`), which takes the write
//! lock first, waiting under the busy timeout. A plain `BEGIN` takes it only at the
//! first write, and if another process wrote in between, SQLite must fail at once
//! (SQLITE_BUSY) rather than wait, since what this one read is out of date.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, OpenFlags};
// What the mutexes here guard stays consistent through a panic: a connection's open
// transaction rolls back when its guard is dropped during the unwinding.
pub(crate) use tictactoe_core::sync::lock;

use crate::Options;

/// A connection set up as above, making the file if `create` says so.
pub(crate) fn open(path: &Path, options: &Options, create: bool) -> rusqlite::Result<Connection> {
    no_bulk_page_caches();
    let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    if create {
        flags |= OpenFlags::SQLITE_OPEN_CREATE;
    }
    let connection = Connection::open_with_flags(path, flags)?;
    connection.busy_timeout(options.busy_timeout)?;
    connection.pragma_update(None, "synchronous", "FULL")?;
    connection.pragma_update(None, "foreign_keys", true)?;
    // Checkpoints run on a thread of their own: see `Checkpointer`.
    connection.pragma_update(None, "wal_autocheckpoint", 0)?;
    // A log started again is cut back to this size (bytes) rather than left as long
    // as it once grew.
    connection.pragma_update(None, "journal_size_limit", LOG_LIMIT)?;
    keep_the_log_on_close(&connection, true)?;
    // The same plan for a statement whatever is bound to it: SQLite otherwise marks a
    // statement whose plan a bound value might change (an `id = ?1` beside the partial
    // indexes on `games`) to be compiled again at each new value, which made parsing
    // SQL about a tenth of a move's processor time (`docs/performance.md`).
    connection.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG,
        true,
    )?;
    Ok(connection)
}

/// SQLite's page caches take their pages one at a time, as they need them, instead of
/// about 90 KB at once when each is made. A cache is made for every temporary table a
/// statement builds, such as the one the `games` table's `CHECK (ending IN (...))`
/// builds at each row written: that allocation, from the C library's malloc, was given
/// back to the system at each free and faulted in again at the next, about 30 page
/// faults a game begun, ten times as many as a whole move's otherwise
/// (`docs/performance.md`, "The cost of a move").
pub(crate) fn no_bulk_page_caches() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: `sqlite3_config` may only be called while SQLite is not initialised,
        // and not beside another thread's use of SQLite; this runs once, before this
        // crate opens its first connection of any kind (which initialises SQLite:
        // `open`, `file::immutable`, `file::read_only` and the backup's copy each call
        // this first), and other openings wait for it. Should something else in the process have initialised
        // SQLite first, SQLite refuses the call (SQLITE_MISUSE) and keeps its default,
        // which is only slower. The arguments are those SQLITE_CONFIG_PAGECACHE takes:
        // no buffer of our own, and no pages in a first bulk allocation.
        let _refused = unsafe {
            rusqlite::ffi::sqlite3_config(
                rusqlite::ffi::SQLITE_CONFIG_PAGECACHE,
                std::ptr::null_mut::<std::ffi::c_void>(),
                0 as std::ffi::c_int,
                0 as std::ffi::c_int,
            )
        };
    });
}

/// How long (in bytes) the log is kept when it is started again: a restart cuts it back
/// to this, so that it holds no more of the disk than it needs, and reuses this much
/// without asking the disk for more.
pub(crate) const LOG_LIMIT: i64 = 512 * 1024;

/// Whether closing `connection` leaves the log as it is (`true`: no checkpoint, nothing
/// deleted) or, as the file's last connection, copies it into the file and deletes it.
pub(crate) fn keep_the_log_on_close(connection: &Connection, keep: bool) -> rusqlite::Result<()> {
    connection
        .set_db_config(
            rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
            keep,
        )
        .map(|_| ())
}

/// A connection that only reads: `query_only` makes SQLite refuse any write through it.
/// It never makes the file: a file deleted under a running store is an error, not a new
/// empty database.
pub(crate) fn open_reader(path: &Path, options: &Options) -> rusqlite::Result<Connection> {
    let connection = open(path, options, false)?;
    connection.pragma_update(None, "query_only", true)?;
    Ok(connection)
}

/// Reader connections not in use, kept for the next read. A read takes one (or opens
/// one when none is free) and gives it back when done, so reads in several threads go
/// on at once, and beside the writer: in WAL mode, readers never wait for the writer.
pub(crate) struct Readers {
    idle: Mutex<Vec<Connection>>,
}

/// Readers kept when idle; more may be open at once while many threads read.
const KEPT: usize = 4;

impl Readers {
    pub(crate) fn new() -> Self {
        Readers {
            idle: Mutex::new(Vec::new()),
        }
    }

    /// Closes the idle readers now.
    pub(crate) fn close_all(&self) {
        lock(&self.idle).clear();
    }

    pub(crate) fn take(&self, path: &Path, options: &Options) -> rusqlite::Result<Reader<'_>> {
        let idle = lock(&self.idle).pop();
        let connection = match idle {
            Some(connection) => connection,
            None => open_reader(path, options)?,
        };
        Ok(Reader {
            readers: self,
            connection: Some(connection),
        })
    }
}

/// A reader connection on loan: back to the pool when dropped.
pub(crate) struct Reader<'a> {
    readers: &'a Readers,
    connection: Option<Connection>,
}

impl std::ops::Deref for Reader<'_> {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        self.connection.as_ref().expect("taken only in drop")
    }
}

impl std::ops::DerefMut for Reader<'_> {
    fn deref_mut(&mut self) -> &mut Connection {
        self.connection.as_mut().expect("taken only in drop")
    }
}

impl Drop for Reader<'_> {
    fn drop(&mut self) {
        let Some(connection) = self.connection.take() else {
            return;
        };
        // A connection left inside a transaction (a panic mid-read) is not reused.
        if !connection.is_autocommit() {
            return;
        }
        let mut idle = lock(&self.readers.idle);
        if idle.len() < KEPT {
            idle.push(connection);
        }
    }
}

/// Moves the log's pages into the database file in the background, so that no write
/// waits for it.
///
/// By default SQLite does this inside a commit once the log passes 1,000 pages: that
/// one commit then copies them all and flushes the file, and every write queued behind
/// it waits (measured under the web load: 4,100 moves/s with a p50 of 41 ms with it,
/// 5,600 moves/s with a p50 of 15 ms without). So the store's connections turn it off
/// (`wal_autocheckpoint = 0`) and this thread runs a `PASSIVE` checkpoint, which never
/// blocks a writer or a reader, every [`Checkpointer::EVERY`], and at once when the
/// writer finds the log [`Checkpointer::RESTART_AFTER_FRAMES`] long (see
/// [`Checkpointer::nudge`]). A checkpoint only copies what is already committed, so
/// stopping one part-way (the process killed) loses nothing: the log still holds those
/// pages.
///
/// Once the log is that long and (nearly) all copied, the writer starts it again from
/// its beginning (see [`Checkpointer::restart_if_wanted`]): under a steady load the log
/// stays about 512 KiB long instead of growing until a quiet moment.
pub(crate) struct Checkpointer {
    shared: std::sync::Arc<Shared>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// What the checkpoint thread and the store share.
struct Shared {
    /// Whether the thread should stop, and whether it was asked to run now.
    state: Mutex<Wake>,
    wake: std::sync::Condvar,
    /// Set when the log is long and all copied: the writer then starts it again.
    restart: std::sync::atomic::AtomicBool,
    /// The log's length in pages after the writer's last commit.
    frames: std::sync::atomic::AtomicI64,
}

#[derive(Default)]
struct Wake {
    stop: bool,
    now: bool,
}

impl Checkpointer {
    pub(crate) const EVERY: std::time::Duration = std::time::Duration::from_millis(200);
    /// How long the log may grow (in 4 KiB pages: 512 KiB) before it is copied at once
    /// and started again.
    pub(crate) const RESTART_AFTER_FRAMES: i64 = 128;
    /// How much of a long log may be left to copy when the writer is asked to start it
    /// again: the writer's RESTART copies the rest itself. (While writes keep coming, a
    /// checkpoint rarely finds the log all copied: the writer adds to it meanwhile.)
    const LEFT_TO_THE_WRITER: i64 = 32;
    /// The longest the log may grow (in 4 KiB pages: 1 MiB) whatever the thread does:
    /// past it, the writer copies it and starts it again itself, after its commit. The
    /// thread, when it keeps up, never lets it come to that; on a machine too busy to
    /// run it in time, this keeps the log's length bounded all the same.
    pub(crate) const CAP_FRAMES: i64 = 2 * Self::RESTART_AFTER_FRAMES;

    pub(crate) fn start(
        path: &Path,
        options: &Options,
        database: &crate::errors::Database,
    ) -> Result<Self, tictactoe_core::ports::StoreError> {
        use crate::Sql;
        use crate::errors::SqliteErrors;
        let connection = open(path, options, false).db(database)?;
        let shared = std::sync::Arc::new(Shared {
            state: Mutex::new(Wake::default()),
            wake: std::sync::Condvar::new(),
            restart: std::sync::atomic::AtomicBool::new(false),
            frames: std::sync::atomic::AtomicI64::new(0),
        });
        let ours = std::sync::Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("tictactoe-checkpoint".into())
            .spawn(move || {
                let mut state = lock(&ours.state);
                while !state.stop {
                    if !state.now {
                        state = ours
                            .wake
                            .wait_timeout(state, Self::EVERY)
                            .map(|(guard, _)| guard)
                            .unwrap_or_else(|poisoned| poisoned.into_inner().0);
                    }
                    if state.stop {
                        break;
                    }
                    state.now = false;
                    drop(state);
                    // A busy or failed checkpoint is tried again next time; the log
                    // keeps every page until one succeeds.
                    let copied =
                        connection.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
                            Ok((row.get::<_, i64>(1)?, row.get::<_, i64>(2)?))
                        });
                    // A passive checkpoint copies, but the log only starts again from its
                    // beginning once a writer finds it all copied, which never happens
                    // while writes keep coming. So once the log is long and all of it
                    // copied, the writer is asked to start it again (see `restart`).
                    if let Ok((frames, done)) = copied
                        && frames >= Self::RESTART_AFTER_FRAMES
                        && frames - done <= Self::LEFT_TO_THE_WRITER
                    {
                        ours.restart
                            .store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                    state = lock(&ours.state);
                }
            })
            .map_err(|error| database.io_error(error))?;
        Ok(Checkpointer {
            shared,
            thread: Some(thread),
        })
    }

    /// What the writer calls after each commit with the log's length in pages (its WAL
    /// hook): a log past [`Checkpointer::RESTART_AFTER_FRAMES`] is copied now rather than
    /// at the next tick, so that a busy writer does not outrun the copying.
    pub(crate) fn nudge(&self) -> impl Fn(i64) + Send + 'static {
        let shared = std::sync::Arc::clone(&self.shared);
        move |frames| {
            shared
                .frames
                .store(frames, std::sync::atomic::Ordering::Relaxed);
            if frames >= Self::RESTART_AFTER_FRAMES {
                let mut state = lock(&shared.state);
                if !state.now {
                    state.now = true;
                    shared.wake.notify_all();
                }
            }
        }
    }

    /// Starts the log again from its beginning if this thread found it long and all
    /// copied, or if it is past [`Checkpointer::CAP_FRAMES`]. Called by the writer,
    /// between its transactions, on its own connection: a RESTART checkpoint run from
    /// this thread instead held the writer off, and the writer's wait (SQLite's busy
    /// handler sleeps 10, 15, 20 ms ... between looks) was the whole tail of the web's
    /// latency (p99 70 ms against 9 ms without it, 250 clients). Run by the writer, it
    /// waits for nobody: with no busy timeout, a RESTART that finds a reader still on an
    /// older snapshot (a long `scores --json` in another process, say) copies what it
    /// can and gives up at once, and the log is started again at a later call.
    /// (`journal_size_limit` then cuts the file back.)
    pub(crate) fn restart_if_wanted(&self, writer: &Connection, busy_timeout: std::time::Duration) {
        let asked = self
            .shared
            .restart
            .swap(false, std::sync::atomic::Ordering::Relaxed);
        let capped = self
            .shared
            .frames
            .load(std::sync::atomic::Ordering::Relaxed)
            >= Self::CAP_FRAMES;
        if (asked || capped) && writer.busy_timeout(std::time::Duration::ZERO).is_ok() {
            // Busy (a reader on an older snapshot): asked again once the checkpoint
            // thread finds the log all copied, or at the next commit past the cap.
            if writer
                .query_row("PRAGMA wal_checkpoint(RESTART)", [], |row| {
                    row.get::<_, i64>(0)
                })
                .is_ok_and(|busy| busy == 0)
            {
                self.shared
                    .frames
                    .store(0, std::sync::atomic::Ordering::Relaxed);
            }
            let _ = writer.busy_timeout(busy_timeout);
        }
    }

    /// Stops the thread and closes its connection; waits until it has.
    pub(crate) fn stop(&mut self) {
        lock(&self.shared.state).stop = true;
        self.shared.wake.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.stop();
    }
}
