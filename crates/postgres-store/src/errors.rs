//! PostgreSQL's errors in the port's words. The port names what happened
//! ([`StoreError`]); the front ends word the advice. Most of it maps on the SQLSTATE
//! code, the part of a server's error that says what kind of failure it was.

use postgres::error::SqlState;
use tictactoe_core::ports::{Conflict, GameId, StoreError};

/// The database as people know it (here, its address without the password), which
/// every error names.
pub(crate) use tictactoe_store_rows::Database;

/// Why a transaction stopped: the port's error already decided (a conflict, a row
/// that is no game), or the server's, to be mapped, or tried again when it is a race
/// another transaction won ([`Failure::retry`]).
#[derive(Debug)]
pub(crate) enum Failure {
    Store(StoreError),
    Sql(postgres::Error),
}

impl From<StoreError> for Failure {
    fn from(error: StoreError) -> Self {
        Failure::Store(error)
    }
}

impl From<postgres::Error> for Failure {
    fn from(error: postgres::Error) -> Self {
        Failure::Sql(error)
    }
}

impl Failure {
    /// Whether the whole transaction may be run again and will likely succeed: it lost
    /// a race. A serialization failure or a deadlock (the server chose this transaction
    /// to give way), or a unique index that another transaction filled first (two
    /// servers beginning one game): run again, it sees the other's row and applies the
    /// port's rules to it. A transaction that failed kept nothing, so running it again
    /// is safe.
    pub(crate) fn retry(&self) -> bool {
        let Failure::Sql(error) = self else {
            return false;
        };
        matches!(
            error.code(),
            Some(&SqlState::T_R_SERIALIZATION_FAILURE)
                | Some(&SqlState::T_R_DEADLOCK_DETECTED)
                | Some(&SqlState::UNIQUE_VIOLATION)
        )
    }
}

/// PostgreSQL's failures, in the port's words, for the database they are about.
pub(crate) trait PostgresErrors {
    /// What a failure means for the store:
    ///
    /// * `53100` disk full → `Full`; `25006` read-only transaction (a standby, or
    ///   `default_transaction_read_only`) → `ReadOnly`.
    /// * a unique index another writer filled first, still after trying again →
    ///   `Conflict` (`game` names the batch's first game).
    /// * a connection that cannot be made or was lost, and anything else →
    ///   `Unavailable`, with the server's own words.
    fn fail(&self, failure: Failure, game: Option<&GameId>) -> StoreError;

    /// A connection the pool could not hand out (the server cannot be reached).
    fn pool(&self, error: r2d2::Error) -> StoreError;

    /// A column that could not be read as the type the program reads it as (a table
    /// altered by hand): `Unreadable`.
    fn column(&self, error: postgres::Error) -> Failure;

    /// Column `at` of `row`, as the type the program reads it as; another type (a table
    /// altered by hand) is [`PostgresErrors::column`]'s error.
    fn get<'a, T: postgres::types::FromSql<'a>>(
        &self,
        row: &'a postgres::Row,
        at: usize,
    ) -> Result<T, Failure> {
        row.try_get(at).map_err(|e| self.column(e))
    }
}

impl PostgresErrors for Database {
    fn fail(&self, failure: Failure, game: Option<&GameId>) -> StoreError {
        let error = match failure {
            Failure::Store(error) => return error,
            Failure::Sql(error) => error,
        };
        let database = self.0.clone();
        match (error.code(), game) {
            (Some(&SqlState::DISK_FULL), _) => StoreError::Full { database },
            (Some(&SqlState::READ_ONLY_SQL_TRANSACTION), _) => StoreError::ReadOnly { database },
            (Some(&SqlState::UNIQUE_VIOLATION), Some(game)) => {
                Conflict::KeptAtOnce(detail(&error)).about(game)
            }
            _ => StoreError::Unavailable {
                database,
                detail: detail(&error),
            },
        }
    }

    fn pool(&self, error: r2d2::Error) -> StoreError {
        StoreError::Unavailable {
            database: self.0.clone(),
            detail: error.to_string(),
        }
    }

    fn column(&self, error: postgres::Error) -> Failure {
        Failure::Store(self.unreadable(detail(&error)))
    }
}

/// The error and, for a server's error, its own message and detail (the `Display` of
/// `postgres::Error` says only "db error").
fn detail(error: &postgres::Error) -> String {
    match error.as_db_error() {
        Some(db) => match db.detail() {
            Some(more) => format!("{} ({}): {more}", db.message(), db.code().code()),
            None => format!("{} ({})", db.message(), db.code().code()),
        },
        None => match std::error::Error::source(error) {
            Some(source) => format!("{error}: {source}"),
            None => error.to_string(),
        },
    }
}

/// Whether `error` says the connection itself is gone (closed, or ended by the server:
/// shut down, restarted, its session terminated), not that the statement failed: then
/// nothing was done on it, and the call is run again on another connection. A pooled
/// connection finds this out at its first statement after a database's restart.
pub(crate) fn connection_gone(error: &postgres::Error) -> bool {
    if error.is_closed() {
        return true;
    }
    match error.code() {
        Some(code) => {
            code.code().starts_with("08")
                || [
                    SqlState::ADMIN_SHUTDOWN,
                    SqlState::CRASH_SHUTDOWN,
                    SqlState::CANNOT_CONNECT_NOW,
                ]
                .contains(code)
        }
        // An error of the socket (reset, broken pipe) rather than of the database.
        None => std::error::Error::source(error)
            .is_some_and(|cause| cause.downcast_ref::<std::io::Error>().is_some()),
    }
}
