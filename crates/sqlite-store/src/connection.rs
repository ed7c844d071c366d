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
use std::sync::{Mutex, MutexGuard};

use rusqlite::{Connection, OpenFlags};

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

/// Locks a mutex even if a thread panicked while holding it. What the mutexes here
/// guard stays consistent through a panic: a connection's open transaction rolls back
/// when its guard is dropped during the unwinding.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
