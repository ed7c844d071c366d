//! SQLite's errors in the port's words. The port names what happened ([`StoreError`]);
//! the front ends word the advice. Everything here maps on SQLite's primary result
//! code, the part of an error that says what kind of failure it was.

use std::io;

use rusqlite::ErrorCode;
use tictactoe_core::ports::StoreError;
/// The database as people know it (here, the file's path as displayed), which every
/// error names.
pub(crate) use tictactoe_store_rows::Database;

/// SQLite's and the file system's failures, in the port's words, for the database they
/// are about.
pub(crate) trait SqliteErrors {
    fn error(&self, error: rusqlite::Error) -> StoreError;
    fn io_error(&self, error: io::Error) -> StoreError;
}

impl SqliteErrors for Database {
    /// What a failure of SQLite means for the store:
    ///
    /// * `SQLITE_NOTADB`, `SQLITE_CORRUPT`: not a database, or a damaged one (a
    ///   truncated file says its header counts more pages than it has) → `Unreadable`.
    /// * `SQLITE_BUSY`, `SQLITE_LOCKED`: another connection kept the lock for longer than
    ///   the busy timeout → `Locked`.
    /// * `SQLITE_READONLY`: the file, its folder or the file system cannot be written
    ///   → `ReadOnly`.
    /// * `SQLITE_FULL`: the disk, a quota or the database's page limit is full → `Full`;
    ///   so is `SQLITE_IOERR_SHMSIZE`, the log's index that could not be given its
    ///   pages (a program opening the file on a full disk).
    /// * A value of the wrong type read back (a file edited by hand) → `Unreadable`.
    /// * Anything else → `Unavailable`, with SQLite's own words.
    fn error(&self, error: rusqlite::Error) -> StoreError {
        let database = self.0.clone();
        let detail = error.to_string();
        match &error {
            rusqlite::Error::SqliteFailure(failure, _) => match failure.code {
                ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt => {
                    StoreError::Unreadable { database, detail }
                }
                ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked => {
                    StoreError::Locked { database }
                }
                ErrorCode::ReadOnly => StoreError::ReadOnly { database },
                ErrorCode::DiskFull => StoreError::Full { database },
                ErrorCode::SystemIoFailure
                    if failure.extended_code == rusqlite::ffi::SQLITE_IOERR_SHMSIZE =>
                {
                    StoreError::Full { database }
                }
                _ => StoreError::Unavailable { database, detail },
            },
            rusqlite::Error::FromSqlConversionFailure(..)
            | rusqlite::Error::InvalidColumnType(..)
            | rusqlite::Error::IntegralValueOutOfRange(..) => {
                StoreError::Unreadable { database, detail }
            }
            _ => StoreError::Unavailable { database, detail },
        }
    }

    /// A failure of the file system around the database (making its folder).
    fn io_error(&self, error: io::Error) -> StoreError {
        let database = self.0.clone();
        match error.kind() {
            io::ErrorKind::ReadOnlyFilesystem => StoreError::ReadOnly { database },
            io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => {
                StoreError::Full { database }
            }
            _ => StoreError::Unavailable {
                database,
                detail: error.to_string(),
            },
        }
    }
}
