//! One [`Write`] applied inside the write transaction. What to keep is the core's to
//! decide ([`exactly_once`]: a write already kept is a no-op, or for `write_new` a
//! conflict; a write that contradicts what is kept is a `Conflict`); this module reads
//! what the file holds of the game for it, and keeps what it decides.

use rusqlite::{Connection, OptionalExtension, params};
use tictactoe_core::domain::{GameClock, Mark, PlayerName};
use tictactoe_core::ports::{Ending, GameId, NewGame, SeatHolder, Step, StoreError, Write};
use tictactoe_core::rules::counts_of;
use tictactoe_core::rules::exactly_once::{self, Decision, Repeat, Seats, Steps};
use tictactoe_store_rows::clocks::{self, CLOCK_COLUMNS, ClockColumns};
use tictactoe_store_rows::{GAME_COLUMNS, GameRow, rows, words};

use crate::codec;
use crate::errors::Database;
use crate::{Sql, ratings, tallies};

pub(crate) fn apply(
    connection: &Connection,
    write: &Write,
    repeat: Repeat,
    database: &Database,
) -> Result<(), StoreError> {
    match write {
        Write::Begin(new) => keep_begin(connection, new, repeat, database),
        Write::Step { game, step } => keep_step(connection, game, *step, repeat, database),
        Write::End { game, ending } => keep_end(connection, game, *ending, repeat, database),
        Write::Name { game, mark, name } => {
            keep_name(connection, game, *mark, name, repeat, database)
        }
        Write::Casual { game } => keep_casual(connection, game, repeat, database),
        Write::Seat { game, mark, holder } => {
            keep_seat(connection, game, *mark, holder, repeat, database)
        }
        Write::Clock { game, after, clock } => {
            keep_clock(connection, game, *after, clock, database)
        }
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
        .query_row([id.as_str()], codec::read)
        .optional()
        .db(database)
}

/// The steps kept of game `id`, in order: each one's number, cell and the step it
/// undid, as stored.
pub(crate) fn steps_of(
    connection: &Connection,
    id: &GameId,
    database: &Database,
) -> Result<Vec<rows::StepColumns>, StoreError> {
    connection
        .prepare_cached("SELECT number, cell, undo FROM steps WHERE game = ?1 ORDER BY number")
        .db(database)?
        .query_map([id.as_str()], |step| {
            Ok((step.get(0)?, step.get(1)?, step.get(2)?))
        })
        .db(database)?
        .collect::<rusqlite::Result<_>>()
        .db(database)
}

/// Game `id`'s clock as last kept, if it has one.
pub(crate) fn clock_of(
    connection: &Connection,
    id: &GameId,
    database: &Database,
) -> Result<Option<ClockColumns>, StoreError> {
    connection
        .prepare_cached(&format!(
            "SELECT {CLOCK_COLUMNS} FROM clocks WHERE game = ?1"
        ))
        .db(database)?
        .query_row([id.as_str()], codec::read)
        .optional()
        .db(database)
}

/// The game as begun, from its row: an error naming the game if the row is not one.
pub(crate) fn new_game(row: &GameRow, database: &Database) -> Result<NewGame, StoreError> {
    row.new_game()
        .map_err(|detail| database.unreadable_game(&row.id, detail))
}

fn keep_begin(
    connection: &Connection,
    new: &NewGame,
    repeat: Repeat,
    database: &Database,
) -> Result<(), StoreError> {
    let kept = game_row(connection, &new.id, database)?
        .map(|row| new_game(&row, database))
        .transpose()?;
    if exactly_once::begin(new, kept.as_ref(), repeat)? == Decision::Skip {
        return Ok(());
    }
    if let Some(first) = &new.follows {
        let has_rematch: Option<bool> = connection
            .prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM games WHERE follows = ?1) FROM games WHERE id = ?1",
            )
            .db(database)?
            .query_row([first.as_str()], |row| row.get(0))
            .optional()
            .db(database)?;
        exactly_once::rematch(first, has_rematch)?;
    }
    let row = GameRow::begun(new, codec::now_ms());
    let [x, o] = &row.sides;
    let keys = rows::keys(&new.settings);
    let clock = &row.clock;
    connection
        .prepare_cached(
            "INSERT INTO games (id, x_kind, x_name, x_level, o_kind, o_name, o_level, \
             size, win, first, seating, x_lock, o_lock, follows, started_at, x_key, o_key, \
             casual, x_holder, o_holder, clock_control, clock_initial_ns, clock_increment_ns, \
             clock_first_move_ns, clock_x_left_ns, clock_o_left_ns, clock_turn, \
             clock_since_ns, clock_moves) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, \
             ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, \
             ?27, ?28, ?29)",
        )
        .db(database)?
        .execute(params![
            row.id,
            x.0,
            x.1,
            x.2,
            o.0,
            o.1,
            o.2,
            row.size,
            row.win,
            row.first,
            row.seating,
            row.locks[0],
            row.locks[1],
            row.follows,
            row.started_at,
            keys[0],
            keys[1],
            row.casual,
            row.holders[0],
            row.holders[1],
            clock.control,
            clock.initial_ns,
            clock.increment_ns,
            clock.first_move_ns,
            clock.left_ns[0],
            clock.left_ns[1],
            clock.turn,
            clock.since_ns,
            clock.moves,
        ])
        .db(database)?;
    if let Some(clock) = &new.clock {
        set_clock(connection, &new.id, 0, clock, database)?;
    }
    Ok(())
}

fn keep_step(
    connection: &Connection,
    game: &GameId,
    step: Step,
    repeat: Repeat,
    database: &Database,
) -> Result<(), StoreError> {
    let unreadable = |detail: String| database.unreadable_game(game, detail);
    let kept = steps_held(connection, game, database)?.map(|(steps, _)| steps);
    let geometry = kept.map(|kept| kept.geometry);
    let kept_step = |number: u32| {
        let (cell, undo): (Option<i64>, Option<i64>) = connection
            .prepare_cached("SELECT cell, undo FROM steps WHERE game = ?1 AND number = ?2")
            .db(database)?
            .query_row(params![game.as_str(), number], |row| {
                Ok((row.get(0)?, row.get(1)?))
            })
            .db(database)?;
        let geometry = geometry.ok_or_else(|| StoreError::NoSuchGame(game.clone()))?;
        rows::step(geometry, i64::from(number), cell, undo)
            .map(|kept| kept.change)
            .map_err(unreadable)
    };
    if exactly_once::step(game, step, kept, repeat, kept_step)? == Decision::Skip {
        return Ok(());
    }
    let (cell, undo) = rows::change_columns(step.change);
    connection
        .prepare_cached("INSERT INTO steps (game, number, cell, undo) VALUES (?1, ?2, ?3, ?4)")
        .db(database)?
        .execute(params![game.as_str(), step.number, cell, undo])
        .db(database)?;
    Ok(())
}

/// What the file holds of game `game` that a step or a clock is decided against: its
/// board, how many steps it has and whether it ended, and as of which step its clock
/// was last kept (`None` for a game begun without one); `None` for no such game.
fn steps_held(
    connection: &Connection,
    game: &GameId,
    database: &Database,
) -> Result<Option<(Steps, Option<u32>)>, StoreError> {
    let unreadable = |detail: String| database.unreadable_game(game, detail);
    // Steps are numbered from 1 without gaps, so the highest number is the count (read
    // from the primary key, not by counting rows).
    let found: Option<(i64, i64, bool, i64, Option<i64>)> = connection
        .prepare_cached(
            "SELECT size, win, ending IS NOT NULL, \
             (SELECT coalesce(max(number), 0) FROM steps WHERE game = ?1), \
             (SELECT after FROM clocks WHERE game = ?1) \
             FROM games WHERE id = ?1",
        )
        .db(database)?
        .query_row([game.as_str()], |row| {
            Ok((
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
            ))
        })
        .optional()
        .db(database)?;
    let Some((size, win, ended, taken, clock_after)) = found else {
        return Ok(None);
    };
    let steps = Steps {
        geometry: rows::geometry(size, win).map_err(unreadable)?,
        taken: u32::try_from(taken)
            .map_err(|_| unreadable(format!("its last step is numbered {taken}")))?,
        ended,
    };
    let clock_after = clock_after
        .map(|after| {
            u32::try_from(after).map_err(|_| unreadable(format!("its clock follows step {after}")))
        })
        .transpose()?;
    Ok(Some((steps, clock_after)))
}

/// Keeps game `game`'s clock as it stands after its first `after` steps
/// ([`Write::Clock`]), if the rule says to: a retry, or a clock overtaken, is kept as
/// nothing. (A clock has no retry to tell from a race: `write_new` keeps one as
/// `write` does.)
fn keep_clock(
    connection: &Connection,
    game: &GameId,
    after: u32,
    clock: &GameClock,
    database: &Database,
) -> Result<(), StoreError> {
    let kept = steps_held(connection, game, database)?;
    if exactly_once::clock(game, after, kept)? == Decision::Skip {
        return Ok(());
    }
    set_clock(connection, game, after, clock, database)
}

/// Game `game`'s clock, as it stands after its first `after` steps, kept in its row of
/// `clocks` (made by the first), with its deadline.
fn set_clock(
    connection: &Connection,
    game: &GameId,
    after: u32,
    clock: &GameClock,
    database: &Database,
) -> Result<(), StoreError> {
    let columns = ClockColumns::of(clock);
    connection
        .prepare_cached(&format!(
            "INSERT OR REPLACE INTO clocks (game, after, {CLOCK_COLUMNS}, deadline_ns) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"
        ))
        .db(database)?
        .execute(params![
            game.as_str(),
            after,
            columns.control,
            columns.initial_ns,
            columns.increment_ns,
            columns.first_move_ns,
            columns.left_ns[0],
            columns.left_ns[1],
            columns.turn,
            columns.since_ns,
            columns.moves,
            clocks::deadline_column(clock),
        ])
        .db(database)?;
    Ok(())
}

/// Records the ending and, in the same transaction, counts it on the scoreboard: the
/// tallies are never out of step with the games.
fn keep_end(
    connection: &Connection,
    game: &GameId,
    ending: Ending,
    repeat: Repeat,
    database: &Database,
) -> Result<(), StoreError> {
    let row = game_row(connection, game, database)?;
    let kept = row
        .as_ref()
        .map(GameRow::ending)
        .transpose()
        .map_err(|detail| database.unreadable_game(game, detail))?;
    if exactly_once::end(game, ending, kept, repeat)? == Decision::Skip {
        return Ok(());
    }
    let Some(row) = row else {
        return Err(StoreError::NoSuchGame(game.clone()));
    };
    let begun = new_game(&row, database)?;
    let counts = counts_of(&begun.settings, ending);
    let (word, clock_end) = words::ending_columns(ending);
    connection
        .prepare_cached("UPDATE games SET ending = ?2, clock_end = ?3, ended_at = ?4 WHERE id = ?1")
        .db(database)?
        .execute(params![game.as_str(), word, clock_end, codec::now_ms()])
        .db(database)?;
    // An ended game is never overdue.
    connection
        .prepare_cached("UPDATE clocks SET deadline_ns = NULL WHERE game = ?1")
        .db(database)?
        .execute([game.as_str()])
        .db(database)?;
    let epoch = tallies::current_epoch(connection).db(database)?;
    for counted in counts {
        tallies::add(connection, epoch, &counted.player, counted.record).db(database)?;
        tallies::add_rivalry(connection, &counted.player, &counted.rival, counted.record)
            .db(database)?;
    }
    ratings::rate_end(connection, &begun, ending, database)
}

/// Renames the person at `mark`: the name and its key, in the game's row. The scoreboard
/// counts a game's names only when it ends, so nothing else changes.
fn keep_name(
    connection: &Connection,
    game: &GameId,
    mark: Mark,
    name: &PlayerName,
    repeat: Repeat,
    database: &Database,
) -> Result<(), StoreError> {
    let unreadable = |detail: String| database.unreadable_game(game, detail);
    let kept = match game_row(connection, game, database)? {
        None => None,
        Some(row) => {
            let begun = new_game(&row, database)?;
            let settings = &begun.settings;
            let steps = steps_of(connection, game, database)?;
            let movers =
                rows::movers(settings.geometry(), settings.first(), steps).map_err(unreadable)?;
            let ended = row.ending().map_err(unreadable)?.is_some();
            Some((begun, movers, ended))
        }
    };
    let seats = kept.as_ref().map(|(game, movers, ended)| Seats {
        settings: &game.settings,
        holders: &game.seats,
        movers: *movers,
        ended: *ended,
    });
    let Some(settings) = exactly_once::name(game, mark, name, seats, repeat)? else {
        return Ok(());
    };
    let (name_column, key_column) = rows::name_columns(mark);
    connection
        .prepare_cached(&format!(
            "UPDATE games SET {name_column} = ?2, {key_column} = ?3 WHERE id = ?1"
        ))
        .db(database)?
        .execute(params![
            game.as_str(),
            words::side_columns(settings.player(mark)).1,
            rows::keys(&settings)[mark.index()],
        ])
        .db(database)?;
    Ok(())
}

/// Marks game `game` casual: it rates nobody from now on ([`Write::Casual`]).
fn keep_casual(
    connection: &Connection,
    game: &GameId,
    repeat: Repeat,
    database: &Database,
) -> Result<(), StoreError> {
    let kept: Option<(bool, bool)> = connection
        .prepare_cached("SELECT casual <> 0, ending IS NOT NULL FROM games WHERE id = ?1")
        .db(database)?
        .query_row([game.as_str()], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()
        .db(database)?;
    if exactly_once::casual(game, kept, repeat)? == Decision::Skip {
        return Ok(());
    }
    connection
        .prepare_cached("UPDATE games SET casual = 1 WHERE id = ?1")
        .db(database)?
        .execute([game.as_str()])
        .db(database)?;
    Ok(())
}

/// The seat at `mark` of game `game`, held open for an invite, taken by `holder`
/// ([`Write::Seat`]): its word and lock, in the game's row.
fn keep_seat(
    connection: &Connection,
    game: &GameId,
    mark: Mark,
    holder: &SeatHolder,
    repeat: Repeat,
    database: &Database,
) -> Result<(), StoreError> {
    let kept = match game_row(connection, game, database)? {
        None => None,
        Some(row) => {
            let ended = row
                .ending()
                .map_err(|detail| database.unreadable_game(game, detail))?
                .is_some();
            Some((new_game(&row, database)?.seats, ended))
        }
    };
    let kept = kept.as_ref().map(|(seats, ended)| (seats, *ended));
    if exactly_once::seat(game, mark, holder, kept, repeat)? == Decision::Skip {
        return Ok(());
    }
    let (word, lock) = words::holder_columns(holder);
    let (holder_column, lock_column) = rows::holder_columns(mark);
    connection
        .prepare_cached(&format!(
            "UPDATE games SET {holder_column} = ?2, {lock_column} = ?3 WHERE id = ?1"
        ))
        .db(database)?
        .execute(params![game.as_str(), word, lock])
        .db(database)?;
    Ok(())
}
