//! SQLite's rows read into the row types both stores share, and this store's clock.
//! What each column holds, and the checks of what is read back, are
//! `tictactoe_store_rows`'s.

use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::types::FromSql;
use rusqlite::{Connection, Params, Row};
use tictactoe_core::ports::StoreError;
use tictactoe_store_rows::{Column, FromColumns};

use crate::Sql;
use crate::errors::Database;

#[cfg(doc)]
use tictactoe_store_rows::GAME_COLUMNS;

/// A row as SQLite's driver reads it, one column at a time.
struct Columns<'a, 'stmt>(&'a Row<'stmt>);

impl<T: FromSql> Column<T> for Columns<'_, '_> {
    type Error = rusqlite::Error;

    fn column(&self, at: usize) -> rusqlite::Result<T> {
        self.0.get(at)
    }
}

/// A row selected with `R`'s columns first ([`GAME_COLUMNS`] for a
/// [`GameRow`](tictactoe_store_rows::GameRow), …), read.
pub(crate) fn read<R: FromColumns>(row: &Row<'_>) -> rusqlite::Result<R> {
    R::read(&Columns(row), 0)
}

/// Rows read into the row types.
pub(crate) trait Select {
    /// Every row `sql` selects with `params`, each read as an `R` (`sql` selects `R`'s
    /// columns first): one statement from the connection's cache.
    fn select<R: FromColumns>(
        &self,
        database: &Database,
        sql: &str,
        params: impl Params,
    ) -> Result<Vec<R>, StoreError>;
}

impl Select for Connection {
    fn select<R: FromColumns>(
        &self,
        database: &Database,
        sql: &str,
        params: impl Params,
    ) -> Result<Vec<R>, StoreError> {
        self.prepare_cached(sql)
            .db(database)?
            .query_map(params, read)
            .db(database)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .db(database)
    }
}

/// Milliseconds since 1970 by this machine's clock: what `started_at` and `ended_at`
/// hold. (A clock set before 1970 reads as 1970.)
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| {
            i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
        })
}
