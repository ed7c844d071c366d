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
//!   (`examples/figures.rs`), a game's end and its players' rows took 0.45 ms (median)
//!   with FULL against 0.10 ms with NORMAL, and up to 4 ms when other programs kept the
//!   disk busy; well inside what a game needs.
//! * `wal_autocheckpoint = 0`: the log is copied into the file by a thread of the
//!   store's own, never inside a write (see [`Checkpointer`]).
//! * `busy_timeout`: when another process holds the write lock, wait for it (up to the
//!   timeout) instead of failing at once.
//! * `foreign_keys = ON`: a step for a game that is not there is refused by SQLite too,
//!   not only by the store's checks.
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
    connection.pragma_update(None, "journal_size_limit", 16 * 1024 * 1024)?;
    Ok(connection)
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
/// blocks a writer or a reader, every [`Checkpointer::EVERY`]. A checkpoint only copies
/// what is already committed, so stopping one part-way (the process killed) loses
/// nothing: the log still holds those pages. When the last connection to the file
/// closes, SQLite checkpoints what is left and removes the log.
pub(crate) struct Checkpointer {
    stop: std::sync::Arc<(Mutex<bool>, std::sync::Condvar)>,
    /// Set when the log is long and all copied: the writer then starts it again.
    restart: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Checkpointer {
    pub(crate) const EVERY: std::time::Duration = std::time::Duration::from_millis(200);
    /// How long the log may grow (in 4 KiB pages: 16 MiB) before it is started again.
    const RESTART_AFTER_FRAMES: i64 = 4096;

    pub(crate) fn start(
        path: &Path,
        options: &Options,
        database: &crate::errors::Database,
    ) -> Result<Self, tictactoe_core::ports::StoreError> {
        use crate::Sql;
        use crate::errors::SqliteErrors;
        let connection = open(path, options, false).db(database)?;
        let stop = std::sync::Arc::new((Mutex::new(false), std::sync::Condvar::new()));
        let stopping = std::sync::Arc::clone(&stop);
        let restart = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let wanted = std::sync::Arc::clone(&restart);
        let thread = std::thread::Builder::new()
            .name("tictactoe-checkpoint".into())
            .spawn(move || {
                let (stopped, wake) = &*stopping;
                let mut done = lock(stopped);
                while !*done {
                    done = wake
                        .wait_timeout(done, Self::EVERY)
                        .map(|(guard, _)| guard)
                        .unwrap_or_else(|poisoned| poisoned.into_inner().0);
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
                        && done == frames
                    {
                        wanted.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                }
            })
            .map_err(|error| database.io_error(error))?;
        Ok(Checkpointer {
            stop,
            restart,
            thread: Some(thread),
        })
    }

    /// Starts the log again from its beginning if this thread found it long and all
    /// copied. Called by the writer, between its transactions, on its own connection: a
    /// RESTART checkpoint run from this thread instead held the writer off, and the
    /// writer's wait (SQLite's busy handler sleeps 10, 15, 20 ms ... between looks) was
    /// the whole tail of the web's latency (p99 70 ms against 9 ms without it, 250
    /// clients). Run by the writer, it waits for nobody: with no busy timeout, a
    /// RESTART that finds a reader still on an older snapshot (a long `scores --json`
    /// in another process, say) copies what it can and gives up at once, and the log is
    /// started again at a later call. (`journal_size_limit` then cuts the file back.)
    pub(crate) fn restart_if_wanted(&self, writer: &Connection, busy_timeout: std::time::Duration) {
        if self
            .restart
            .swap(false, std::sync::atomic::Ordering::Relaxed)
            && writer.busy_timeout(std::time::Duration::ZERO).is_ok()
        {
            // Busy (a reader on an older snapshot): asked again once the checkpoint
            // thread finds the log all copied.
            let _ = writer.query_row("PRAGMA wal_checkpoint(RESTART)", [], |_| Ok(()));
            let _ = writer.busy_timeout(busy_timeout);
        }
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        let (stopped, wake) = &*self.stop;
        *lock(stopped) = true;
        wake.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
