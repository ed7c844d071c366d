//! SQLite's rows read into the row types both stores share, and this store's clock.
//! What each column holds, and the checks of what is read back, are
//! `tictactoe_store_rows`'s.

use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::Row;
use tictactoe_store_rows::GameRow;

/// A row selected with [`GAME_COLUMNS`](tictactoe_store_rows::GAME_COLUMNS), first.
pub(crate) fn game_row(row: &Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: row.get(0)?,
        sides: [
            (row.get(1)?, row.get(2)?, row.get(3)?),
            (row.get(4)?, row.get(5)?, row.get(6)?),
        ],
        size: row.get(7)?,
        win: row.get(8)?,
        first: row.get(9)?,
        seating: row.get(10)?,
        locks: [row.get(11)?, row.get(12)?],
        follows: row.get(13)?,
        started_at: row.get(14)?,
        ended_at: row.get(15)?,
        ending: row.get(16)?,
        casual: row.get(17)?,
    })
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
