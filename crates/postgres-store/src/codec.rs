//! PostgreSQL's rows read into the row types both stores share, and this store's clock.
//! What each column holds, and the checks of what is read back, are
//! `tictactoe_store_rows`'s.
//!
//! Columns are read with `Row::try_get`, never `Row::get`, which panics on a column of
//! an unexpected type.

use postgres::Row;
use tictactoe_store_rows::GameRow;

/// A row selected with [`GAME_COLUMNS`](tictactoe_store_rows::GAME_COLUMNS), from
/// column `first` on.
pub(crate) fn game_row(row: &Row, first: usize) -> Result<GameRow, postgres::Error> {
    let at = |column: usize| first + column;
    Ok(GameRow {
        id: row.try_get(at(0))?,
        sides: [
            (
                row.try_get(at(1))?,
                row.try_get(at(2))?,
                row.try_get(at(3))?,
            ),
            (
                row.try_get(at(4))?,
                row.try_get(at(5))?,
                row.try_get(at(6))?,
            ),
        ],
        size: row.try_get(at(7))?,
        win: row.try_get(at(8))?,
        first: row.try_get(at(9))?,
        seating: row.try_get(at(10))?,
        locks: [row.try_get(at(11))?, row.try_get(at(12))?],
        follows: row.try_get(at(13))?,
        started_at: row.try_get(at(14))?,
        ended_at: row.try_get(at(15))?,
        ending: row.try_get(at(16))?,
        casual: row.try_get(at(17))?,
    })
}

/// Milliseconds since 1970 by the database server's clock, as SQL: one clock for every
/// server that shares the database. (`now()` is the transaction's start: every row a
/// write call keeps has the same time.)
pub(crate) const NOW_MS: &str = "(extract(epoch FROM now()) * 1000)::bigint";
