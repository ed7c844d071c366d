//! One [`Write`] applied inside the write transaction, with the port's exactly-once
//! rules: a write already kept is a no-op, a write that contradicts what is kept is a
//! `Conflict`. The checks are the same, in the same order, as the core's `MemoryStore`
//! (the reference), and the contract suite holds both to them.

use rusqlite::{Connection, OptionalExtension, params};
use tictactoe_core::domain::Mark;
use tictactoe_core::ports::{Ending, GameId, NewGame, Step, StoreError, Write, names_of};

use crate::codec::{self, GAME_COLUMNS, GameRow};
use crate::errors::Database;
use crate::{Sql, tallies};

/// What a write the store already has is: a no-op (`GameStore::write`), or another
/// writer's, so a conflict (`GameStore::write_new`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kept {
    NoOp,
    Conflict,
}

impl Kept {
    fn again(self, game: &GameId) -> Result<(), StoreError> {
        match self {
            Kept::NoOp => Ok(()),
            Kept::Conflict => Err(conflict(game, "another writer kept this first")),
        }
    }
}

pub(crate) fn apply(
    connection: &Connection,
    write: &Write,
    already: Kept,
    database: &Database,
) -> Result<(), StoreError> {
    match write {
        Write::Begin(new) => keep_begin(connection, new, already, database),
        Write::Step { game, step } => keep_step(connection, game, *step, already, database),
        Write::End { game, ending } => keep_end(connection, game, *ending, already, database),
    }
}

fn conflict(game: &GameId, detail: impl Into<String>) -> StoreError {
    StoreError::Conflict {
        game: game.clone(),
        detail: detail.into(),
    }
}

/// The row of game `id`, if there is one.
pub(crate) fn game_row(
    connection: &Connection,
    id: &GameId,
    database: &Database,
) -> Result<Option<GameRow>, StoreError> {
    connection
        .prepare_cached(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"))
        .db(database)?
        .query_row([id.as_str()], GameRow::read)
        .optional()
        .db(database)
}

/// The game as begun, from its row: an error naming the game if the row is not one.
pub(crate) fn new_game(row: &GameRow, database: &Database) -> Result<NewGame, StoreError> {
    row.new_game()
        .map_err(|detail| database.unreadable(format!("game {}: {detail}", row.id)))
}

fn keep_begin(
    connection: &Connection,
    new: &NewGame,
    already: Kept,
    database: &Database,
) -> Result<(), StoreError> {
    if let Some(kept) = game_row(connection, &new.id, database)? {
        return if new_game(&kept, database)? == *new {
            already.again(&new.id)
        } else {
            Err(conflict(&new.id, "another game has this id"))
        };
    }
    if let Some(first) = &new.follows {
        let known: Option<i64> = connection
            .prepare_cached("SELECT 1 FROM games WHERE id = ?1")
            .db(database)?
            .query_row([first.as_str()], |row| row.get(0))
            .optional()
            .db(database)?;
        if known.is_none() {
            return Err(StoreError::NoSuchGame(first.clone()));
        }
        let rematch: Option<String> = connection
            .prepare_cached("SELECT id FROM games WHERE follows = ?1")
            .db(database)?
            .query_row([first.as_str()], |row| row.get(0))
            .optional()
            .db(database)?;
        if rematch.is_some() {
            return Err(conflict(first, "this game already has a rematch"));
        }
    }
    let settings = &new.settings;
    let [x, o] = Mark::ALL.map(|mark| codec::side_columns(settings.player(mark)));
    let keys = names_of(settings).map(|name| name.key());
    let geometry = settings.geometry();
    connection
        .prepare_cached(
            "INSERT INTO games (id, x_kind, x_name, x_level, o_kind, o_name, o_level, \
             size, win, first, seating, x_lock, o_lock, follows, started_at, x_key, o_key) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, \
             ?17)",
        )
        .db(database)?
        .execute(params![
            new.id.as_str(),
            x.0,
            x.1,
            x.2,
            o.0,
            o.1,
            o.2,
            geometry.size() as i64,
            geometry.win_length() as i64,
            codec::mark_column(settings.first()),
            codec::seating_column(new.seating),
            new.locks[0].as_ref().map(|lock| lock.as_str()),
            new.locks[1].as_ref().map(|lock| lock.as_str()),
            new.follows.as_ref().map(GameId::as_str),
            codec::now_ms(),
            keys[0],
            keys[1],
        ])
        .db(database)?;
    Ok(())
}

fn keep_step(
    connection: &Connection,
    game: &GameId,
    step: Step,
    already: Kept,
    database: &Database,
) -> Result<(), StoreError> {
    // The game's ending and how many steps it has: numbered from 1 without gaps, so the
    // highest number is the count (read from the primary key, not by counting rows).
    let found: Option<(Option<String>, i64)> = connection
        .prepare_cached(
            "SELECT ending, (SELECT coalesce(max(number), 0) FROM steps WHERE game = ?1) \
             FROM games WHERE id = ?1",
        )
        .db(database)?
        .query_row([game.as_str()], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()
        .db(database)?;
    let Some((ending, taken)) = found else {
        return Err(StoreError::NoSuchGame(game.clone()));
    };
    let number = i64::from(step.number);
    let (cell, undo) = codec::change_columns(step.change);
    match number {
        0 => Err(conflict(game, "steps are numbered from 1")),
        n if n <= taken => {
            let kept: (Option<i64>, Option<i64>) = connection
                .prepare_cached("SELECT cell, undo FROM steps WHERE game = ?1 AND number = ?2")
                .db(database)?
                .query_row(params![game.as_str(), n], |row| {
                    Ok((row.get(0)?, row.get(1)?))
                })
                .db(database)?;
            if kept == (cell, undo) {
                already.again(game)
            } else {
                Err(conflict(game, format!("step {n} was another change")))
            }
        }
        n if n > taken + 1 => Err(conflict(
            game,
            format!("step {n} cannot follow step {taken}"),
        )),
        _ if ending.is_some() => Err(conflict(game, "the game is over")),
        n => {
            connection
                .prepare_cached(
                    "INSERT INTO steps (game, number, cell, undo) VALUES (?1, ?2, ?3, ?4)",
                )
                .db(database)?
                .execute(params![game.as_str(), n, cell, undo])
                .db(database)?;
            Ok(())
        }
    }
}

/// Records the ending and, in the same transaction, counts it on the scoreboard: the
/// tallies are never out of step with the games.
fn keep_end(
    connection: &Connection,
    game: &GameId,
    ending: Ending,
    already: Kept,
    database: &Database,
) -> Result<(), StoreError> {
    let Some(row) = game_row(connection, game, database)? else {
        return Err(StoreError::NoSuchGame(game.clone()));
    };
    match row
        .ending()
        .map_err(|detail| database.unreadable(format!("game {game}: {detail}")))?
    {
        Some(kept) if kept == ending => return already.again(game),
        Some(_) => return Err(conflict(game, "the game ended otherwise")),
        None => {}
    }
    let names = names_of(&new_game(&row, database)?.settings);
    connection
        .prepare_cached("UPDATE games SET ending = ?2, ended_at = ?3 WHERE id = ?1")
        .db(database)?
        .execute(params![
            game.as_str(),
            codec::ending_column(ending),
            codec::now_ms()
        ])
        .db(database)?;
    let epoch = tallies::current_epoch(connection).db(database)?;
    for mark in Mark::ALL {
        if let Some(record) = ending.counted(mark) {
            let (player, rival) = (&names[mark.index()], &names[mark.opponent().index()]);
            tallies::add(connection, epoch, player, record).db(database)?;
            tallies::add_rivalry(connection, player, rival, record).db(database)?;
        }
    }
    Ok(())
}
