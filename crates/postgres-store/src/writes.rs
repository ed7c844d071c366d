//! One write call ([`GameStore::write`] or [`GameStore::write_new`]) as one
//! transaction. What to keep is the core's to decide ([`exactly_once`]: a write already
//! kept is a no-op, or for `write_new` a conflict; a write that contradicts what is
//! kept is a `Conflict`); this module reads what the database holds for it, and keeps
//! what it decides.
//!
//! Several servers write to one database at once, and a server batches many requests
//! into one call, so a call is done in a few round trips, whatever its size:
//!
//! 1. **Lock** every game the batch touches (its games, and the games its rematches
//!    follow) with `SELECT ... FOR UPDATE`, in id order. Two servers writing the same
//!    game then take turns; two batches touching the same games lock them in the same
//!    order, so neither can hold one game while waiting for another the other holds
//!    (a deadlock).
//! 2. **Read** those games as they stand: their rows, how many steps each has, whether
//!    each has a rematch (and the kept steps that writes name again, and the steps of
//!    a game whose seat the batch renames: who has moved). Read *after* the
//!    locks, in a statement of its own: in READ COMMITTED each statement sees what was
//!    committed before it began, so this one sees whatever the server we waited for
//!    kept.
//! 3. **Decide** every write in memory, by the rules, against that state as the batch
//!    changes it; the first write refused refuses the whole call (nothing is kept).
//! 4. **Keep** what was decided: the new games, then all new steps in one statement
//!    (`unnest` of arrays), then the renamed games' names, then each game's clock as
//!    the batch last keeps it in one statement, then all endings in one
//!    statement; then the scoreboard's
//!    and the rivalries' additions, summed by player over the batch, as rows of their
//!    own ([`crate::scoreboard`]), and the ratings of the people in the games ended
//!    ([`crate::ratings`], under a lock of their own): the scoreboard's rows are hot (the computer's changes
//!    at every game's end, from every server), and a transaction that updated them
//!    would hold every other server's endings up for as long as it lasts.
//! 5. **Tell** the other servers ([`crate::news`]), with `pg_notify` in the same
//!    transaction: PostgreSQL delivers a notification only when its transaction
//!    commits, in commit order, so no server hears of a change that was not kept, and
//!    each hears the changes in the order they were kept.

use std::collections::{BTreeMap, HashMap};

use tictactoe_core::domain::{GameClock, Geometry, Mark, Record};
use tictactoe_core::play::Settings;
use tictactoe_core::ports::{Ending, GameId, NewGame, SeatHolder, StoreError, Write};
use tictactoe_core::rules::exactly_once::{self, Decision, Movers, Repeat, Seats, Steps};
use tictactoe_core::rules::{counts_of, names_of};

use tictactoe_store_rows::clocks::{self, BegunClock, CLOCK_COLUMNS, ClockColumns};
use tictactoe_store_rows::{GAME_COLUMN_COUNT, GAME_COLUMNS, GameRow, rows, words};

use crate::codec::{self, NOW_MS};
use crate::errors::{Database, Failure, PostgresErrors};
use crate::news;
use crate::pool::Tx;
use crate::ratings;
use crate::scoreboard;

/// The advisory lock between the scoreboard's epochs and the games' ends: a write
/// that counts endings takes it shared, a reset (or restore, or import) exclusively.
/// So a reset waits for the ends being counted, and an end counted after a reset is
/// counted in the new epoch, never in the one the reset just closed.
pub(crate) const SCOREBOARD_LOCK: i64 = 0x5454_5400_0000_0002;

/// One game touched by the batch, as it stands in the transaction.
struct Game {
    /// Its row as read, `None` if it was begun by this batch.
    row: Option<GameRow>,
    /// The game as begun: read from the row when first needed, or the batch's Begin.
    begun: Option<NewGame>,
    /// Its board: an error for a row whose board is no board, said when a step needs it.
    geometry: Result<Geometry, String>,
    /// Steps kept: numbered from 1 without gaps, so the highest number.
    taken: u32,
    ending: Option<Ending>,
    has_rematch: bool,
    /// The kept steps the batch names again, and the batch's own, by number.
    steps: HashMap<u32, (Option<i64>, Option<i64>)>,
    /// Who has moved, for a game whose seat the batch renames (read with its steps),
    /// taking the batch's own steps: `None` for the other games.
    movers: Option<Movers>,
    /// As of which step its clock was last kept: `None` for a game begun without one.
    clock_after: Option<u32>,
}

/// What the batch decided to keep.
#[derive(Default)]
struct Decided {
    begins: Vec<NewGame>,
    steps: Vec<(GameId, rows::StepColumns)>,
    ends: Vec<(GameId, Ending)>,
    /// The games renamed, with their players as they stand after the batch.
    names: BTreeMap<GameId, Settings>,
    /// The games made casual.
    casuals: Vec<GameId>,
    /// The seats taken, in order.
    seats: Vec<(GameId, Mark, SeatHolder)>,
    /// Each game's clock as the batch last keeps it (a game begun with one: as it
    /// began), and the step it follows: one row of `clocks` each.
    clocks: BTreeMap<GameId, (u32, GameClock)>,
    /// The scoreboard's additions by name key: the first spelling, and the sum.
    tallies: BTreeMap<String, (String, Record)>,
    /// The rivalries' additions by (player's key, rival's key): the rival's latest
    /// spelling, and the sum.
    rivalries: BTreeMap<(String, String), (String, Record)>,
    news: Vec<news::Item>,
    /// The games ended, as begun, with their endings, in order: rated after their ends
    /// are kept ([`ratings::rate_ends`]).
    rated: Vec<(NewGame, Ending)>,
}

/// Keeps `writes` in the transaction `tx` (see the module documentation), and tells
/// the other servers, as `instance`.
pub(crate) fn keep(
    tx: &mut Tx<'_>,
    writes: &[Write],
    repeat: Repeat,
    instance: &str,
    database: &Database,
) -> Result<(), Failure> {
    let mut ids: Vec<&str> = writes
        .iter()
        .flat_map(|write| {
            let follows = match write {
                Write::Begin(new) => new.follows.as_ref(),
                _ => None,
            };
            std::iter::once(write.game()).chain(follows)
        })
        .map(GameId::as_str)
        .collect();
    ids.sort_unstable();
    ids.dedup();
    // 1. Lock, in id order (COLLATE "C": byte order, the same as Rust's).
    tx.execute(
        "SELECT id FROM games WHERE id = ANY($1) ORDER BY id FOR UPDATE",
        &[&ids],
    )?;
    // 2. Read.
    let mut games = read_games(tx, &ids, database)?;
    read_named_steps(tx, writes, &mut games, database)?;
    read_movers(tx, writes, &mut games, database)?;
    // 3. Decide.
    let mut decided = Decided::default();
    for write in writes {
        decide(write, repeat, &mut games, &mut decided, database)?;
    }
    // 4. Keep, 5. tell.
    store(tx, &decided, database)?;
    let payloads = news::payloads(instance, &decided.news);
    if !payloads.is_empty() {
        tx.execute(
            "SELECT pg_notify('tictactoe_news', payload) \
             FROM unnest($1::text[]) WITH ORDINALITY AS u(payload, part) ORDER BY part",
            &[&payloads],
        )?;
    }
    Ok(())
}

/// The rows of the games `ids`, with their step counts and whether each has a rematch.
fn read_games(
    tx: &mut Tx<'_>,
    ids: &[&str],
    database: &Database,
) -> Result<HashMap<GameId, Game>, Failure> {
    let rows = tx.query(
        &format!(
            "SELECT {GAME_COLUMNS}, \
             (SELECT coalesce(max(s.number), 0) FROM steps s WHERE s.game = g.id), \
             EXISTS (SELECT 1 FROM games r WHERE r.follows = g.id), \
             (SELECT c.after FROM clocks c WHERE c.game = g.id) \
             FROM games g WHERE g.id = ANY($1)"
        ),
        &[&ids],
    )?;
    let mut games = HashMap::new();
    for row in rows {
        let game = codec::read::<GameRow>(&row, 0, database)?;
        let taken: i64 = row
            .try_get(GAME_COLUMN_COUNT)
            .map_err(|e| database.column(e))?;
        let has_rematch: bool = row
            .try_get(GAME_COLUMN_COUNT + 1)
            .map_err(|e| database.column(e))?;
        let clock_after: Option<i64> = row
            .try_get(GAME_COLUMN_COUNT + 2)
            .map_err(|e| database.column(e))?;
        let id = GameId::parse(&game.id)
            .map_err(|e| database.unreadable_game(format_args!("{:?}", game.id), e))?;
        let unreadable = |detail: String| database.unreadable_game(&id, detail);
        let taken = u32::try_from(taken)
            .map_err(|_| unreadable(format!("its last step is numbered {taken}")))?;
        let clock_after = clock_after
            .map(|after| {
                u32::try_from(after)
                    .map_err(|_| unreadable(format!("its clock follows step {after}")))
            })
            .transpose()?;
        games.insert(
            id.clone(),
            Game {
                ending: game.ending().map_err(unreadable)?,
                geometry: game.geometry(),
                row: Some(game),
                begun: None,
                taken,
                has_rematch,
                steps: HashMap::new(),
                movers: None,
                clock_after,
            },
        );
    }
    Ok(games)
}

/// Who has moved in each game whose seat the batch renames: one query for all their
/// steps, and none in the usual batch, which renames nobody.
fn read_movers(
    tx: &mut Tx<'_>,
    writes: &[Write],
    games: &mut HashMap<GameId, Game>,
    database: &Database,
) -> Result<(), Failure> {
    let mut ids: Vec<&str> = writes
        .iter()
        .filter_map(|write| match write {
            Write::Name { game, .. } if games.contains_key(game) => Some(game.as_str()),
            _ => None,
        })
        .collect();
    if ids.is_empty() {
        return Ok(());
    }
    ids.sort_unstable();
    ids.dedup();
    let rows = tx.query(
        "SELECT game, number, cell, undo FROM steps WHERE game = ANY($1) ORDER BY game, number",
        &[&ids],
    )?;
    let mut steps: HashMap<String, Vec<rows::StepColumns>> = HashMap::new();
    for row in rows {
        let id: String = row.try_get(0).map_err(|e| database.column(e))?;
        let number: i64 = row.try_get(1).map_err(|e| database.column(e))?;
        let cell: Option<i64> = row.try_get(2).map_err(|e| database.column(e))?;
        let undo: Option<i64> = row.try_get(3).map_err(|e| database.column(e))?;
        steps.entry(id).or_default().push((number, cell, undo));
    }
    for id in ids {
        let Some((game_id, game)) = GameId::parse(id)
            .ok()
            .and_then(|game_id| games.get_mut(&game_id).map(|game| (game_id, game)))
        else {
            continue;
        };
        let settings = &game.begun(database)?.settings;
        let movers = rows::movers(
            settings.geometry(),
            settings.first(),
            steps.remove(id).unwrap_or_default(),
        )
        .map_err(|detail| database.unreadable_game(&game_id, detail))?;
        game.movers = Some(movers);
    }
    Ok(())
}

/// The kept steps that the batch's step writes name again (a retry, or another
/// server's step under the same number): what each was, to tell a retry from a
/// conflict. One query, and none at all in the usual batch of new steps.
fn read_named_steps(
    tx: &mut Tx<'_>,
    writes: &[Write],
    games: &mut HashMap<GameId, Game>,
    database: &Database,
) -> Result<(), Failure> {
    let (mut ids, mut numbers): (Vec<&str>, Vec<i64>) = (Vec::new(), Vec::new());
    for write in writes {
        if let Write::Step { game, step } = write
            && games
                .get(game)
                .is_some_and(|kept| (1..=kept.taken).contains(&step.number))
        {
            ids.push(game.as_str());
            numbers.push(i64::from(step.number));
        }
    }
    if ids.is_empty() {
        return Ok(());
    }
    let rows = tx.query(
        "SELECT s.game, s.number, s.cell, s.undo FROM steps s \
         JOIN unnest($1::text[], $2::bigint[]) AS u(game, number) \
         ON s.game = u.game AND s.number = u.number",
        &[&ids, &numbers],
    )?;
    for row in rows {
        let id: String = row.try_get(0).map_err(|e| database.column(e))?;
        let number: i64 = row.try_get(1).map_err(|e| database.column(e))?;
        let cell: Option<i64> = row.try_get(2).map_err(|e| database.column(e))?;
        let undo: Option<i64> = row.try_get(3).map_err(|e| database.column(e))?;
        if let (Some(game), Ok(number)) = (
            GameId::parse(&id).ok().and_then(|id| games.get_mut(&id)),
            u32::try_from(number),
        ) {
            game.steps.insert(number, (cell, undo));
        }
    }
    Ok(())
}

impl Game {
    /// The game as begun, read from its row the first time it is needed.
    fn begun(&mut self, database: &Database) -> Result<&NewGame, StoreError> {
        if self.begun.is_none() {
            let Some(row) = &self.row else {
                return Err(database.unreadable("a game with neither a row nor a beginning"));
            };
            let new = row
                .new_game()
                .map_err(|detail| database.unreadable_game(&row.id, detail))?;
            self.begun = Some(new);
        }
        self.begun
            .as_ref()
            .ok_or_else(|| database.unreadable("a game with neither a row nor a beginning"))
    }
}

/// One write, by the rules ([`exactly_once`]), against the batch's state so far.
fn decide(
    write: &Write,
    repeat: Repeat,
    games: &mut HashMap<GameId, Game>,
    decided: &mut Decided,
    database: &Database,
) -> Result<(), StoreError> {
    match write {
        Write::Begin(new) => {
            let kept = match games.get_mut(&new.id) {
                Some(kept) => Some(kept.begun(database)?),
                None => None,
            };
            if exactly_once::begin(new, kept, repeat)? == Decision::Skip {
                return Ok(());
            }
            if let Some(first) = &new.follows {
                let earlier = games.get_mut(first);
                exactly_once::rematch(first, earlier.as_ref().map(|game| game.has_rematch))?;
                if let Some(earlier) = earlier {
                    earlier.has_rematch = true;
                }
            }
            decided.news.push(news::Item::begin(new));
            games.insert(
                new.id.clone(),
                Game {
                    row: None,
                    begun: Some(new.clone()),
                    geometry: Ok(new.settings.geometry()),
                    taken: 0,
                    ending: None,
                    has_rematch: false,
                    steps: HashMap::new(),
                    movers: Some(Movers::new(new.settings.first())),
                    clock_after: new.clock.map(|_| 0),
                },
            );
            if let Some(clock) = new.clock {
                decided.clocks.insert(new.id.clone(), (0, clock));
            }
            decided.begins.push(new.clone());
            Ok(())
        }
        Write::Step { game, step } => {
            let unreadable = |detail: String| database.unreadable_game(game, detail);
            let kept = games.get_mut(game);
            let held = match &kept {
                Some(kept) => Some(Steps {
                    geometry: kept.geometry.clone().map_err(unreadable)?,
                    taken: kept.taken,
                    ended: kept.ending.is_some(),
                }),
                None => None,
            };
            let kept_step = |number: u32| {
                let held = held.ok_or_else(|| StoreError::NoSuchGame(game.clone()))?;
                let Some((cell, undo)) = kept.as_ref().and_then(|kept| kept.steps.get(&number))
                else {
                    return Err(unreadable(format!(
                        "step {number} is missing below step {}",
                        held.taken
                    )));
                };
                rows::step(held.geometry, i64::from(number), *cell, *undo)
                    .map(|kept| kept.change)
                    .map_err(unreadable)
            };
            if exactly_once::step(game, *step, held, repeat, kept_step)? == Decision::Skip {
                return Ok(());
            }
            let (Some(kept), Some(held)) = (kept, held) else {
                return Err(StoreError::NoSuchGame(game.clone()));
            };
            let columns = rows::change_columns(step.change);
            kept.taken = step.number;
            kept.steps.insert(step.number, columns);
            if let Some(movers) = &mut kept.movers {
                movers.take(step.change);
            }
            decided
                .steps
                .push((game.clone(), (i64::from(step.number), columns.0, columns.1)));
            decided
                .news
                .push(news::Item::step(game, held.geometry, *step));
            Ok(())
        }
        Write::End { game, ending } => {
            let kept = games.get_mut(game);
            let ended = kept.as_ref().map(|kept| kept.ending);
            if exactly_once::end(game, *ending, ended, repeat)? == Decision::Skip {
                return Ok(());
            }
            let Some(kept) = kept else {
                return Err(StoreError::NoSuchGame(game.clone()));
            };
            kept.ending = Some(*ending);
            for counted in counts_of(&kept.begun(database)?.settings, *ending) {
                let (player, rival) = (&counted.player, &counted.rival);
                decided
                    .tallies
                    .entry(player.key())
                    .or_insert_with(|| (player.as_str().to_owned(), Record::default()))
                    .1
                    .add(counted.record);
                let row = decided
                    .rivalries
                    .entry((player.key(), rival.key()))
                    .or_insert_with(|| (String::new(), Record::default()));
                row.0 = rival.as_str().to_owned();
                row.1.add(counted.record);
            }
            decided.rated.push((kept.begun(database)?.clone(), *ending));
            decided.ends.push((game.clone(), *ending));
            decided.news.push(news::Item::end(game, *ending));
            Ok(())
        }
        Write::Name { game, mark, name } => {
            let Some(kept) = games.get_mut(game) else {
                return exactly_once::name(game, *mark, name, None, repeat).map(drop);
            };
            let movers = kept
                .movers
                .ok_or_else(|| database.unreadable_game(game, "its steps were not read"))?;
            let ended = kept.ending.is_some();
            let begun = kept.begun(database)?;
            let (settings, holders) = (begun.settings.clone(), begun.seats.clone());
            let seats = Seats {
                settings: &settings,
                holders: &holders,
                movers,
                ended,
            };
            let Some(renamed) = exactly_once::name(game, *mark, name, Some(seats), repeat)? else {
                return Ok(());
            };
            // What the batch does next to the game (an ending counted) sees the name.
            if let Some(begun) = &mut kept.begun {
                begun.settings = renamed.clone();
            }
            decided.names.insert(game.clone(), renamed);
            decided.news.push(news::Item::name(game, *mark, name));
            Ok(())
        }
        Write::Casual { game } => {
            let Some(kept) = games.get_mut(game) else {
                return exactly_once::casual(game, None, repeat).map(drop);
            };
            let held = (kept.begun(database)?.casual, kept.ending.is_some());
            if exactly_once::casual(game, Some(held), repeat)? == Decision::Skip {
                return Ok(());
            }
            // What the batch does next to the game (its end rated) sees it casual.
            if let Some(begun) = &mut kept.begun {
                begun.casual = true;
            }
            decided.casuals.push(game.clone());
            decided.news.push(news::Item::casual(game));
            Ok(())
        }
        Write::Seat { game, mark, holder } => {
            let Some(kept) = games.get_mut(game) else {
                return exactly_once::seat(game, *mark, holder, None, repeat).map(drop);
            };
            let ended = kept.ending.is_some();
            let holders = kept.begun(database)?.seats.clone();
            if exactly_once::seat(game, *mark, holder, Some((&holders, ended)), repeat)?
                == Decision::Skip
            {
                return Ok(());
            }
            // What the batch does next to the game (its end rated) sees the seat taken.
            if let Some(begun) = &mut kept.begun {
                begun.seats[mark.index()] = holder.clone();
            }
            decided.seats.push((game.clone(), *mark, holder.clone()));
            decided.news.push(news::Item::seat(game, *mark, holder));
            Ok(())
        }
        Write::Clock { game, after, clock } => {
            let unreadable = |detail: String| database.unreadable_game(game, detail);
            let kept = games.get_mut(game);
            let held = match &kept {
                Some(kept) => Some((
                    Steps {
                        geometry: kept.geometry.clone().map_err(unreadable)?,
                        taken: kept.taken,
                        ended: kept.ending.is_some(),
                    },
                    kept.clock_after,
                )),
                None => None,
            };
            if exactly_once::clock(game, *after, held)? == Decision::Skip {
                return Ok(());
            }
            let Some(kept) = kept else {
                return Err(StoreError::NoSuchGame(game.clone()));
            };
            kept.clock_after = Some(*after);
            decided.clocks.insert(game.clone(), (*after, *clock));
            decided.news.push(news::Item::clock(game, *after, clock));
            Ok(())
        }
    }
}

/// `table.column + excluded.column`, saturating at BIGINT's largest (counts saturate,
/// as the core's do; PostgreSQL would fail on overflow).
macro_rules! saturating_sum {
    ($table:literal, $column:literal) => {
        concat!(
            $column,
            " = CASE WHEN ",
            $table,
            ".",
            $column,
            " > 9223372036854775807 - excluded.",
            $column,
            " THEN 9223372036854775807 ELSE ",
            $table,
            ".",
            $column,
            " + excluded.",
            $column,
            " END"
        )
    };
}
pub(crate) use saturating_sum;

/// `wins = ..., losses = ..., ties = ...`: each count of `table` plus `excluded`'s,
/// saturating (the `SET` of an upsert of counted rows).
macro_rules! saturating_counts {
    ($table:literal) => {
        concat!(
            $crate::writes::saturating_sum!($table, "wins"),
            ", ",
            $crate::writes::saturating_sum!($table, "losses"),
            ", ",
            $crate::writes::saturating_sum!($table, "ties")
        )
    };
}
pub(crate) use saturating_counts;

/// Adds to `tallies` the rows of arrays $2 (key), $3 (name), $4..$6 (wins, losses,
/// ties) in epoch $1, in key order; a row already there keeps its spelling.
pub(crate) const ADD_TALLIES: &str = concat!(
    "INSERT INTO tallies (epoch, key, name, wins, losses, ties) \
     SELECT $1, u.key, u.name, u.wins, u.losses, u.ties \
     FROM unnest($2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[]) \
     AS u(key, name, wins, losses, ties) ORDER BY u.key COLLATE \"C\" \
     ON CONFLICT (epoch, key) DO UPDATE SET ",
    saturating_counts!("tallies")
);

/// The current epoch: the last reset's, or 0.
pub(crate) const CURRENT_EPOCH: &str = "SELECT coalesce(max(epoch), 0)::bigint FROM resets";

/// What was decided, kept in a few statements (see the module documentation).
fn store(tx: &mut Tx<'_>, decided: &Decided, database: &Database) -> Result<(), Failure> {
    if !decided.begins.is_empty() {
        insert_games(tx, &decided.begins)?;
    }
    if !decided.steps.is_empty() {
        let games: Vec<&str> = decided
            .steps
            .iter()
            .map(|(game, _)| game.as_str())
            .collect();
        let numbers: Vec<i64> = decided.steps.iter().map(|(_, step)| step.0).collect();
        let cells: Vec<Option<i64>> = decided.steps.iter().map(|(_, step)| step.1).collect();
        let undos: Vec<Option<i64>> = decided.steps.iter().map(|(_, step)| step.2).collect();
        tx.execute(
            "INSERT INTO steps (game, number, cell, undo) \
             SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[])",
            &[&games, &numbers, &cells, &undos],
        )?;
    }
    if !decided.names.is_empty() {
        rename_games(tx, &decided.names)?;
    }
    for (game, mark, holder) in &decided.seats {
        let (word, lock) = words::holder_columns(holder);
        let (holder_column, lock_column) = rows::holder_columns(*mark);
        tx.execute(
            &format!("UPDATE games SET {holder_column} = $2, {lock_column} = $3 WHERE id = $1"),
            &[&game.as_str(), &word, &lock],
        )?;
    }
    if !decided.casuals.is_empty() {
        let games: Vec<&str> = decided.casuals.iter().map(GameId::as_str).collect();
        tx.execute(
            "UPDATE games SET casual = true WHERE id = ANY($1)",
            &[&games],
        )?;
    }
    if !decided.clocks.is_empty() {
        set_clocks(tx, &decided.clocks)?;
    }
    if decided.ends.is_empty() {
        return Ok(());
    }
    let games: Vec<&str> = decided.ends.iter().map(|(game, _)| game.as_str()).collect();
    let (endings, clock_ends): (Vec<&str>, Vec<Option<&str>>) = decided
        .ends
        .iter()
        .map(|(_, ending)| words::ending_columns(*ending))
        .unzip();
    tx.execute(
        &format!(
            "UPDATE games SET ending = u.ending, clock_end = u.clock_end, ended_at = {NOW_MS} \
             FROM unnest($1::text[], $2::text[], $3::text[]) AS u(id, ending, clock_end) \
             WHERE games.id = u.id"
        ),
        &[&games, &endings, &clock_ends],
    )?;
    // An ended game is never overdue (after the clocks kept above, which the rule
    // keeps only while a game is played).
    tx.execute(
        "UPDATE clocks SET deadline_ns = NULL WHERE game = ANY($1)",
        &[&games],
    )?;
    ratings::rate_ends(tx, &decided.rated, database)?;
    if !decided.tallies.is_empty() {
        tx.execute(
            "SELECT pg_advisory_xact_lock_shared($1)",
            &[&SCOREBOARD_LOCK],
        )?;
        // After the lock, in a statement of its own: the epoch as of now.
        let epoch: i64 = tx.query_one(CURRENT_EPOCH, &[])?.try_get(0)?;
        let (keys, names, counts) = columns(
            decided
                .tallies
                .iter()
                .map(|(key, (name, record))| (key.as_str(), name.as_str(), *record)),
        );
        let players: Vec<&str> = decided
            .rivalries
            .keys()
            .map(|(key, _)| key.as_str())
            .collect();
        let (rival_keys, rival_names, rival_counts) = columns(decided.rivalries.iter().map(
            |((_, rival_key), (rival, record))| (rival_key.as_str(), rival.as_str(), *record),
        ));
        scoreboard::add(
            tx,
            epoch,
            (&keys, &names, &counts),
            (&players, (&rival_keys, &rival_names, &rival_counts)),
        )?;
    }
    Ok(())
}

/// The games' clocks as the batch last keeps them, in one statement: a game begun by
/// the batch gets its row of `clocks`, a game kept before has its row replaced.
fn set_clocks(tx: &mut Tx<'_>, kept: &BTreeMap<GameId, (u32, GameClock)>) -> Result<(), Failure> {
    let ids: Vec<&str> = kept.keys().map(GameId::as_str).collect();
    let afters: Vec<i64> = kept.values().map(|(after, _)| i64::from(*after)).collect();
    let columns: Vec<ClockColumns> = kept
        .values()
        .map(|(_, clock)| ClockColumns::of(clock))
        .collect();
    let deadlines: Vec<i64> = kept
        .values()
        .map(|(_, clock)| clocks::deadline_column(clock))
        .collect();
    let controls: Vec<&str> = columns.iter().map(|c| c.control.as_str()).collect();
    let initials: Vec<i64> = columns.iter().map(|c| c.initial_ns).collect();
    let increments: Vec<Option<i64>> = columns.iter().map(|c| c.increment_ns).collect();
    let first_moves: Vec<i64> = columns.iter().map(|c| c.first_move_ns).collect();
    let x_lefts: Vec<i64> = columns.iter().map(|c| c.left_ns[0]).collect();
    let o_lefts: Vec<i64> = columns.iter().map(|c| c.left_ns[1]).collect();
    let turns: Vec<&str> = columns.iter().map(|c| c.turn.as_str()).collect();
    let sinces: Vec<i64> = columns.iter().map(|c| c.since_ns).collect();
    let moves: Vec<i64> = columns.iter().map(|c| c.moves).collect();
    tx.execute(
        &format!(
            "INSERT INTO clocks (game, after, {CLOCK_COLUMNS}, deadline_ns) \
             SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[], \
             $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::text[], \
             $10::bigint[], $11::bigint[], $12::bigint[]) \
             ON CONFLICT (game) DO UPDATE SET after = excluded.after, \
             control = excluded.control, initial_ns = excluded.initial_ns, \
             increment_ns = excluded.increment_ns, first_move_ns = excluded.first_move_ns, \
             x_left_ns = excluded.x_left_ns, o_left_ns = excluded.o_left_ns, \
             turn = excluded.turn, since_ns = excluded.since_ns, moves = excluded.moves, \
             deadline_ns = excluded.deadline_ns"
        ),
        &[
            &ids,
            &afters,
            &controls,
            &initials,
            &increments,
            &first_moves,
            &x_lefts,
            &o_lefts,
            &turns,
            &sinces,
            &moves,
            &deadlines,
        ],
    )?;
    Ok(())
}

/// The renamed games' names and keys as they stand after the batch, in one statement
/// (a seat not renamed is written as it was).
fn rename_games(tx: &mut Tx<'_>, renamed: &BTreeMap<GameId, Settings>) -> Result<(), Failure> {
    let ids: Vec<&str> = renamed.keys().map(GameId::as_str).collect();
    let mut names: [Vec<Option<&str>>; 2] = [vec![], vec![]];
    let mut keys: [Vec<String>; 2] = [vec![], vec![]];
    for settings in renamed.values() {
        for (mark, key) in Mark::ALL.into_iter().zip(rows::keys(settings)) {
            names[mark.index()].push(words::side_columns(settings.player(mark)).1);
            keys[mark.index()].push(key);
        }
    }
    tx.execute(
        "UPDATE games SET x_name = u.x_name, x_key = u.x_key, o_name = u.o_name, \
         o_key = u.o_key \
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) \
         AS u(id, x_name, x_key, o_name, o_key) WHERE games.id = u.id",
        &[&ids, &names[0], &keys[0], &names[1], &keys[1]],
    )?;
    Ok(())
}

/// The new games, in one statement: a column of each kind, `unnest`ed.
fn insert_games(tx: &mut Tx<'_>, begins: &[NewGame]) -> Result<(), Failure> {
    let mut ids = Vec::new();
    let mut kinds: [Vec<&str>; 2] = [vec![], vec![]];
    let mut names: [Vec<Option<&str>>; 2] = [vec![], vec![]];
    let mut levels: [Vec<Option<&str>>; 2] = [vec![], vec![]];
    let (mut sizes, mut wins, mut firsts, mut seatings) = (vec![], vec![], vec![], vec![]);
    let mut locks: [Vec<Option<&str>>; 2] = [vec![], vec![]];
    let mut holders: [Vec<&str>; 2] = [vec![], vec![]];
    let mut follows = Vec::new();
    let mut casuals = Vec::new();
    let mut keys: [Vec<String>; 2] = [vec![], vec![]];
    let clocks: Vec<BegunClock> = begins
        .iter()
        .map(|new| BegunClock::of(new.clock.as_ref()))
        .collect();
    let controls: Vec<Option<&str>> = clocks.iter().map(|c| c.control.as_deref()).collect();
    let initials: Vec<Option<i64>> = clocks.iter().map(|c| c.initial_ns).collect();
    let increments: Vec<Option<i64>> = clocks.iter().map(|c| c.increment_ns).collect();
    let first_moves: Vec<Option<i64>> = clocks.iter().map(|c| c.first_move_ns).collect();
    let x_lefts: Vec<Option<i64>> = clocks.iter().map(|c| c.left_ns[0]).collect();
    let o_lefts: Vec<Option<i64>> = clocks.iter().map(|c| c.left_ns[1]).collect();
    let turns: Vec<Option<&str>> = clocks.iter().map(|c| c.turn.as_deref()).collect();
    let sinces: Vec<Option<i64>> = clocks.iter().map(|c| c.since_ns).collect();
    let moves: Vec<Option<i64>> = clocks.iter().map(|c| c.moves).collect();
    for new in begins {
        let settings = &new.settings;
        let geometry = settings.geometry();
        ids.push(new.id.as_str());
        for (mark, key) in Mark::ALL
            .into_iter()
            .zip(names_of(settings).map(|name| name.key()))
        {
            let (kind, name, level) = words::side_columns(settings.player(mark));
            let side = mark.index();
            kinds[side].push(kind);
            names[side].push(name);
            levels[side].push(level);
            let (holder, lock) = words::holder_columns(&new.seats[side]);
            locks[side].push(lock);
            holders[side].push(holder);
            keys[side].push(key);
        }
        sizes.push(geometry.size() as i64);
        wins.push(geometry.win_length() as i64);
        firsts.push(words::mark_word(settings.first()));
        seatings.push(words::seating_word(new.seating));
        follows.push(new.follows.as_ref().map(GameId::as_str));
        casuals.push(new.casual);
    }
    tx.execute(
        &format!(
            "INSERT INTO games (id, x_kind, x_name, x_level, o_kind, o_name, o_level, \
             size, win, first, seating, x_lock, o_lock, follows, started_at, x_key, o_key, \
             casual, x_holder, o_holder, clock_control, clock_initial_ns, clock_increment_ns, \
             clock_first_move_ns, clock_x_left_ns, clock_o_left_ns, clock_turn, \
             clock_since_ns, clock_moves) \
             SELECT u.id, u.x_kind, u.x_name, u.x_level, u.o_kind, u.o_name, u.o_level, \
             u.size, u.win, u.first, u.seating, u.x_lock, u.o_lock, u.follows, {NOW_MS}, \
             u.x_key, u.o_key, u.casual, u.x_holder, u.o_holder, u.clock_control, \
             u.clock_initial_ns, u.clock_increment_ns, u.clock_first_move_ns, \
             u.clock_x_left_ns, u.clock_o_left_ns, u.clock_turn, u.clock_since_ns, \
             u.clock_moves \
             FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], \
             $6::text[], $7::text[], $8::bigint[], $9::bigint[], $10::text[], $11::text[], \
             $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], \
             $17::boolean[], $18::text[], $19::text[], $20::text[], $21::bigint[], \
             $22::bigint[], $23::bigint[], $24::bigint[], $25::bigint[], $26::text[], \
             $27::bigint[], $28::bigint[]) \
             AS u(id, x_kind, x_name, x_level, o_kind, o_name, o_level, size, win, first, \
             seating, x_lock, o_lock, follows, x_key, o_key, casual, x_holder, o_holder, \
             clock_control, clock_initial_ns, clock_increment_ns, clock_first_move_ns, \
             clock_x_left_ns, clock_o_left_ns, clock_turn, clock_since_ns, clock_moves)"
        ),
        &[
            &ids,
            &kinds[0],
            &names[0],
            &levels[0],
            &kinds[1],
            &names[1],
            &levels[1],
            &sizes,
            &wins,
            &firsts,
            &seatings,
            &locks[0],
            &locks[1],
            &follows,
            &keys[0],
            &keys[1],
            &casuals,
            &holders[0],
            &holders[1],
            &controls,
            &initials,
            &increments,
            &first_moves,
            &x_lefts,
            &o_lefts,
            &turns,
            &sinces,
            &moves,
        ],
    )?;
    Ok(())
}

/// Rows of (key, name, record) as the arrays `unnest` takes: keys, names, and wins,
/// losses and ties.
pub(crate) fn columns<'a>(
    rows: impl Iterator<Item = (&'a str, &'a str, Record)>,
) -> (Vec<&'a str>, Vec<&'a str>, [Vec<i64>; 3]) {
    let (mut keys, mut names, mut counts) = (Vec::new(), Vec::new(), [vec![], vec![], vec![]]);
    for (key, name, record) in rows {
        keys.push(key);
        names.push(name);
        for (column, count) in counts.iter_mut().zip(rows::record_columns(record)) {
            column.push(count);
        }
    }
    (keys, names, counts)
}
