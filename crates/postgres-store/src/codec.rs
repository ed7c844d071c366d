//! PostgreSQL's rows read into the row types both stores share, and this store's clock.
//! What each column holds, and the checks of what is read back, are
//! `tictactoe_store_rows`'s.
//!
//! Columns are read with `Row::try_get`, never `Row::get`, which panics on a column of
//! an unexpected type.

use postgres::Row;
use postgres::types::FromSql;
use tictactoe_store_rows::{Column, FromColumns};

use crate::errors::{Database, Failure, PostgresErrors};

#[cfg(doc)]
use tictactoe_store_rows::GAME_COLUMNS;

/// A row as PostgreSQL's driver reads it, one column at a time (`Row::try_get`), its
/// errors named for `database`.
pub(crate) struct Columns<'a> {
    pub(crate) row: &'a Row,
    pub(crate) database: &'a Database,
}

impl<T: for<'b> FromSql<'b>> Column<T> for Columns<'_> {
    type Error = Failure;

    fn column(&self, at: usize) -> Result<T, Failure> {
        self.database.get(self.row, at)
    }
}

/// A row that selected `R`'s columns from column `first` on ([`GAME_COLUMNS`] for a
/// [`GameRow`](tictactoe_store_rows::GameRow), …), read.
pub(crate) fn read<R: FromColumns>(
    row: &Row,
    first: usize,
    database: &Database,
) -> Result<R, Failure> {
    R::read(&Columns { row, database }, first)
}

/// `rows`, which selected `R`'s columns first, each read.
pub(crate) fn read_all<R: FromColumns>(
    rows: &[Row],
    database: &Database,
) -> Result<Vec<R>, Failure> {
    rows.iter().map(|row| read(row, 0, database)).collect()
}

/// Milliseconds since 1970 by the database server's clock, as SQL: one clock for every
/// server that shares the database. (`now()` is the transaction's start: every row a
/// write call keeps has the same time.)
pub(crate) const NOW_MS: &str = "(extract(epoch FROM now()) * 1000)::bigint";
