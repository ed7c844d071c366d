//! The scoreboard as tallies: one row per player and epoch, added to as games end and
//! scoreboards are imported (see `migrations/0002_scoreboard.sql`).

use rusqlite::{Connection, OptionalExtension, Row, params};
use tictactoe_core::domain::{PlayerName, Record, Standing};

use tictactoe_store_rows::assemble;
use tictactoe_store_rows::rows::{count_column, record_columns};

/// `tallies.column + excluded.column`, saturating.
macro_rules! saturating_sum {
    ($column:literal) => {
        concat!(
            $column,
            " = CASE WHEN ",
            $column,
            " > 9223372036854775807 - excluded.",
            $column,
            " THEN 9223372036854775807 ELSE ",
            $column,
            " + excluded.",
            $column,
            " END"
        )
    };
}

/// The three counts of a row already there, each added to (saturating): what an
/// `ON CONFLICT ... DO UPDATE SET` does.
macro_rules! add_counts {
    () => {
        concat!(
            saturating_sum!("wins"),
            ", ",
            saturating_sum!("losses"),
            ", ",
            saturating_sum!("ties")
        )
    };
}

/// What happens when a row being added is already there: its counts are added.
macro_rules! on_conflict_add {
    () => {
        concat!(" ON CONFLICT (epoch, key) DO UPDATE SET ", add_counts!())
    };
}

macro_rules! insert_or_add {
    () => {
        concat!(
            "INSERT INTO tallies (epoch, key, name, wins, losses, ties) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            on_conflict_add!()
        )
    };
}

/// Adds `record` to `name`'s row of `epoch`'s scoreboard, making the row if there is
/// none (with this spelling of the name; a row keeps the first spelling it was given).
/// Counts saturate at the largest integer SQLite holds, as the core's counts saturate.
pub(crate) fn add(
    connection: &Connection,
    epoch: i64,
    name: &PlayerName,
    record: Record,
) -> rusqlite::Result<()> {
    let counts = record_columns(record);
    connection
        .prepare_cached(insert_or_add!())?
        .execute(params![
            epoch,
            name.key(),
            name.as_str(),
            counts[0],
            counts[1],
            counts[2],
        ])?;
    Ok(())
}

/// Adds `record` to `player`'s results against `rival`, making the row if there is
/// none; the rival's name takes this spelling (the latest game's). Saturating, as the
/// tallies are.
pub(crate) fn add_rivalry(
    connection: &Connection,
    player: &PlayerName,
    rival: &PlayerName,
    record: Record,
) -> rusqlite::Result<()> {
    let counts = record_columns(record);
    connection
        .prepare_cached(concat!(
            "INSERT INTO rivalries (key, rival_key, rival, wins, losses, ties) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) \
             ON CONFLICT (key, rival_key) DO UPDATE SET rival = excluded.rival, ",
            add_counts!()
        ))?
        .execute(params![
            player.key(),
            rival.key(),
            rival.as_str(),
            counts[0],
            counts[1],
            counts[2],
        ])?;
    Ok(())
}

/// The epoch of the scoreboard shown now: the last reset's, or 0.
pub(crate) const CURRENT_EPOCH: &str = "SELECT coalesce(max(epoch), 0) FROM resets";

pub(crate) fn current_epoch(connection: &Connection) -> rusqlite::Result<i64> {
    connection
        .prepare_cached(CURRENT_EPOCH)?
        .query_row([], |row| row.get(0))
}

/// The rows of the current scoreboard in rank order, the first `limit` (all for -1).
/// Read straight from the rank index: no sort, and nothing held but the current row.
pub(crate) const RANKED: &str = "SELECT name, wins, losses, ties FROM tallies \
     WHERE epoch = (SELECT coalesce(max(epoch), 0) FROM resets) \
     ORDER BY wins DESC, losses, key LIMIT ?1";

/// One player's row of `epoch`.
pub(crate) const ONE_ROW: &str =
    "SELECT name, wins, losses, ties FROM tallies WHERE epoch = ?1 AND key = ?2";

/// A row selected as `name, wins, losses, ties`, checked.
pub(crate) fn standing(row: &Row<'_>) -> rusqlite::Result<Result<Standing, String>> {
    let name: String = row.get(0)?;
    let counts = [row.get(1)?, row.get(2)?, row.get(3)?];
    Ok(assemble::standing(&name, counts))
}

/// How many rows `epoch`'s scoreboard has.
pub(crate) fn players(connection: &Connection, epoch: i64) -> rusqlite::Result<u64> {
    let rows: i64 = connection.query_row(
        "SELECT count(*) FROM tallies WHERE epoch = ?1",
        [epoch],
        |row| row.get(0),
    )?;
    Ok(rows.unsigned_abs())
}

/// Starts epoch `current + 1`, recording the reset; returns the rows the board had.
pub(crate) fn reset(connection: &Connection, at: i64) -> rusqlite::Result<u64> {
    let current = current_epoch(connection)?;
    let players = players(connection, current)?;
    connection.execute(
        "INSERT INTO resets (epoch, at, players) VALUES (?1, ?2, ?3)",
        params![current + 1, at, count_column(players)],
    )?;
    Ok(players)
}

/// Adds the current epoch's rows into the one before and ends the current one, or
/// `None` if there was no reset. Returns the rows the restored board has.
pub(crate) fn restore(connection: &Connection) -> rusqlite::Result<Option<u64>> {
    let Some(current) = connection
        .query_row("SELECT max(epoch) FROM resets", [], |row| {
            row.get::<_, Option<i64>>(0)
        })
        .optional()?
        .flatten()
    else {
        return Ok(None);
    };
    let previous = current - 1;
    connection.execute(
        concat!(
            "INSERT INTO tallies (epoch, key, name, wins, losses, ties) \
             SELECT ?1, key, name, wins, losses, ties FROM tallies WHERE epoch = ?2",
            on_conflict_add!()
        ),
        [previous, current],
    )?;
    connection.execute("DELETE FROM tallies WHERE epoch = ?1", [current])?;
    connection.execute("DELETE FROM resets WHERE epoch = ?1", [current])?;
    players(connection, previous).map(Some)
}

/// Records that `source` was imported, or `false` if it was before.
pub(crate) fn mark_imported(
    connection: &Connection,
    source: &str,
    at: i64,
    players: u64,
) -> rusqlite::Result<bool> {
    let added = connection.execute(
        "INSERT INTO imports (source, at, players) VALUES (?1, ?2, ?3) \
         ON CONFLICT (source) DO NOTHING",
        params![source, at, count_column(players)],
    )?;
    Ok(added == 1)
}

/// Keeps one imported row as it came, under its source (rows naming one player are
/// summed, as the scoreboard sums them).
pub(crate) fn keep_imported(
    connection: &Connection,
    source: &str,
    row: &Standing,
) -> rusqlite::Result<()> {
    let counts = record_columns(row.record);
    connection
        .prepare_cached(concat!(
            "INSERT INTO imported_rows (source, key, name, wins, losses, ties) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) \
             ON CONFLICT (source, key) DO UPDATE SET ",
            add_counts!()
        ))?
        .execute(params![
            source,
            row.name.key(),
            row.name.as_str(),
            counts[0],
            counts[1],
            counts[2],
        ])?;
    Ok(())
}
