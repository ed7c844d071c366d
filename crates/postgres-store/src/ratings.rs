//! Ratings per board, kept with the games (`migrations/0004_ratings.sql`): the games
//! a write call ends rated in its transaction ([`rate_ends`]), the [`RatingStore`]
//! port read from `ratings` and `rating_changes`, and every rating rebuilt from the
//! games in the order they were rated. Which games rate whom, and the arithmetic, are
//! the core's ([`rate`], [`RatingBook`]); the rows are `tictactoe_store_rows::ratings`'s.
//!
//! Rating ends lock the people they rate, not the ratings: before a rating end reads a
//! rating it takes a transaction-wide advisory lock for each person it rates on the
//! game's board ([`person_lock`]: the board and the person's key hashed), all of a
//! write call's at once and in the order of their keys, so two calls never wait for
//! each other in a circle; it holds them until it commits. Only then does it take
//! each game's number (`rated_number`, from the sequence `rated_numbers`). So two
//! servers ending games of one person take turns, and the later game's number is the
//! greater: each person's games are numbered in the order they were rated, each game
//! rated against its people's ratings after every game of theirs numbered before it,
//! and a rebuild rating the games in their numbers' order gives the same figures.
//! Games with no person in common do not wait for each other (their numbers may be
//! committed out of order, which changes nothing: neither game's figures depend on
//! the other's). The computers' anchors never move, so they are never locked. A
//! server frozen inside a rating end holds only its people's locks, and
//! PostgreSQL ends its session after `idle_in_transaction_session_timeout`; until then
//! another server's end of a game of the same person fails after `lock_timeout`
//! (see `hold_nothing_long`), and every other end goes on.
//!
//! A rebuild renumbers every game, so it takes [`RATINGS_LOCK`] exclusively, and every
//! rating end takes it shared before its people's: ends never wait for each other on
//! it, only for a rebuild (and a rebuild for the ends under way). Ends that rate
//! nobody (a game between computers, one left) take no lock.

use std::collections::HashMap;

use tictactoe_core::domain::{Certainty, Geometry, PlayerName, Rating};
use tictactoe_core::ports::{
    Ending, GameId, NewGame, PlayerRating, RatingChange, RatingHistoryQuery, RatingListQuery,
    RatingPoint, RatingStore, Rebuilt, StoreError,
};
use tictactoe_core::rules::exactly_once::Movers;
use tictactoe_core::rules::{RatingBook, rate, rated};
use tictactoe_store_rows::ratings::{
    CHANGE_COLUMNS, ChangeRow, RATING_COLUMNS, RatingColumns, point, rating,
};
use tictactoe_store_rows::{GAME_COLUMNS, GameRow, columns, rows};

use crate::PostgresStore;
use crate::codec::{self, Columns};
use crate::errors::{Database, Failure, PostgresErrors};
use crate::pool::Tx;

/// The advisory lock between the rebuild (exclusive) and the rating ends (shared): see
/// the module documentation. "TTT" and 3.
pub(crate) const RATINGS_LOCK: i64 = 0x5454_5400_0000_0003;

/// The first key of every person's lock ([`person_lock`]): "TTT4". PostgreSQL keeps
/// advisory locks of two 32-bit keys apart from those of one 64-bit key, so a person's
/// lock is never one of the program's other locks.
const PERSON_LOCKS: i32 = 0x5454_5434;

/// The advisory lock a rating end takes for `player` on `board`, as the two keys of
/// `pg_advisory_xact_lock(int, int)`: "TTT4" (0x54545434), and a hash (32-bit FNV-1a) of
/// the board and the person's key (the name as the scoreboard compares names). The
/// same on every server and in every version of the program that rates; two people
/// whose hashes meet only take turns. In `pg_locks` it is the row with `locktype`
/// `advisory`, `classid` the first key, `objid` the second and `objsubid` 2.
pub fn person_lock(board: Geometry, player: &PlayerName) -> (i32, i32) {
    let named = format!("{}x{}:{}", board.size(), board.win_length(), player.key());
    let mut hash: u32 = 0x811c_9dc5;
    for byte in named.bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    (PERSON_LOCKS, hash as i32)
}

/// Takes the locks of the people the games `rating` rate (see the module
/// documentation): [`RATINGS_LOCK`] shared, then each person's once, in the order of
/// their keys.
fn lock_people(tx: &mut Tx<'_>, rating: &[RatedEnd<'_>]) -> Result<(), Failure> {
    let mut locks: Vec<(i32, i32)> = rating
        .iter()
        .flat_map(|rated| {
            let board = rated.game.settings.geometry();
            rated
                .people
                .iter()
                .map(move |(_, player)| person_lock(board, player))
        })
        .collect();
    locks.sort_unstable();
    locks.dedup();
    tx.execute("SELECT pg_advisory_xact_lock_shared($1)", &[&RATINGS_LOCK])?;
    for (class, person) in locks {
        tx.execute("SELECT pg_advisory_xact_lock($1, $2)", &[&class, &person])?;
    }
    Ok(())
}

/// A game a write call ended that rates somebody: who, and who had moved in it (read
/// for a resignation or a time-out only, the endings [`rated`] asks it of).
struct RatedEnd<'a> {
    game: &'a NewGame,
    ending: Ending,
    people: Vec<(tictactoe_core::domain::Mark, PlayerName)>,
    movers: Option<Movers>,
}

/// Rates the games `ended` (each as begun, and its ending), in their order, in the
/// transaction that keeps their ends (after their steps).
pub(crate) fn rate_ends(
    tx: &mut Tx<'_>,
    ended: &[(NewGame, Ending)],
    database: &Database,
) -> Result<(), Failure> {
    let mut rating = Vec::new();
    for (game, ending) in ended {
        let movers = match ending {
            Ending::Resigned(_) | Ending::TimedOut { .. } => Some(movers(tx, game, database)?),
            _ => None,
        };
        let people = rated(game, *ending, || asked(movers, game, database))?;
        if !people.is_empty() {
            rating.push(RatedEnd {
                game,
                ending: *ending,
                people,
                movers,
            });
        }
    }
    if rating.is_empty() {
        return Ok(());
    }
    lock_people(tx, &rating)?;
    // Ratings as they stand, read after the locks, and as this call changes them.
    let mut held: HashMap<(Geometry, String), Rating> = HashMap::new();
    for RatedEnd {
        game,
        ending,
        movers,
        ..
    } in rating
    {
        let board = game.settings.geometry();
        let changes = rate(
            game,
            ending,
            || asked(movers, game, database),
            |player| {
                if let Some(rating) = held.get(&(board, player.key())) {
                    return Ok(Some(*rating));
                }
                current(tx, board, player, database).map_err(|failure| database.fail(failure, None))
            },
        )?;
        keep(tx, &game.id, &changes)?;
        for change in changes {
            held.insert((change.board, change.player.key()), change.after);
        }
    }
    Ok(())
}

/// Who had moved in `game`, as read for [`rated`]: it asks only of a resignation, for
/// which it was read.
fn asked(
    movers: Option<Movers>,
    game: &NewGame,
    database: &Database,
) -> Result<Movers, StoreError> {
    movers.ok_or_else(|| database.unreadable_game(&game.id, "who moved in it was not read"))
}

/// Who has moved in `game`, from its kept steps (this transaction's among them).
fn movers(tx: &mut Tx<'_>, game: &NewGame, database: &Database) -> Result<Movers, Failure> {
    let rows = tx.query(
        "SELECT number, cell, undo FROM steps WHERE game = $1 ORDER BY number",
        &[&game.id.as_str()],
    )?;
    let mut steps = Vec::with_capacity(rows.len());
    for row in rows {
        let number: i64 = database.get(&row, 0)?;
        let cell: Option<i64> = database.get(&row, 1)?;
        let undo: Option<i64> = database.get(&row, 2)?;
        steps.push((number, cell, undo));
    }
    rows::movers(game.settings.geometry(), game.settings.first(), steps)
        .map_err(|detail| database.unreadable_game(&game.id, detail).into())
}

/// `player`'s rating on `board` as it stands, if they have one.
fn current(
    tx: &mut Tx<'_>,
    board: Geometry,
    player: &PlayerName,
    database: &Database,
) -> Result<Option<Rating>, Failure> {
    let found = tx.query_opt(
        "SELECT rating, deviation, volatility FROM ratings \
         WHERE size = $1 AND win = $2 AND key = $3",
        &[
            &(board.size() as i64),
            &(board.win_length() as i64),
            &player.key(),
        ],
    )?;
    let Some(row) = found else {
        return Ok(None);
    };
    Ok(Some(rating(glicko(&row, database, 0)?).map_err(
        |detail| database.unreadable(format!("{player}'s rating: {detail}")),
    )?))
}

/// Keeps game `game`'s `changes`, and gives it the next number of the rated games
/// (none: nothing to keep), taken after its people's locks.
fn keep(tx: &mut Tx<'_>, game: &GameId, changes: &[RatingChange]) -> Result<(), Failure> {
    if changes.is_empty() {
        return Ok(());
    }
    tx.execute(
        "UPDATE games SET rated_number = nextval('rated_numbers') WHERE id = $1",
        &[&game.as_str()],
    )?;
    let mut kept = ChangeColumns::default();
    changes.iter().for_each(|change| kept.push(change));
    kept.insert(tx)?;
    for change in changes {
        let row = ChangeRow::of(change);
        tx.execute(
            "INSERT INTO ratings (size, win, key, name, rating, deviation, volatility, games) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, 1) \
             ON CONFLICT (size, win, key) DO UPDATE SET rating = excluded.rating, \
             deviation = excluded.deviation, volatility = excluded.volatility, \
             games = ratings.games + 1",
            &[
                &row.size,
                &row.win,
                &ChangeRow::key(change),
                &row.name,
                &row.after[0],
                &row.after[1],
                &row.after[2],
            ],
        )?;
    }
    Ok(())
}

/// Rows of `rating_changes` gathered column by column, as `unnest` takes them: one
/// statement for a game's changes or for ten thousand games' in a rebuild.
#[derive(Default)]
struct ChangeColumns {
    game: Vec<String>,
    mark: Vec<String>,
    name: Vec<String>,
    size: Vec<i64>,
    win: Vec<i64>,
    before: [Vec<f64>; 3],
    after: [Vec<f64>; 3],
    key: Vec<String>,
}

impl ChangeColumns {
    fn push(&mut self, change: &RatingChange) {
        let row = ChangeRow::of(change);
        self.game.push(row.game);
        self.mark.push(row.mark);
        self.name.push(row.name);
        self.size.push(row.size);
        self.win.push(row.win);
        for (column, figure) in self.before.iter_mut().zip(row.before) {
            column.push(figure);
        }
        for (column, figure) in self.after.iter_mut().zip(row.after) {
            column.push(figure);
        }
        self.key.push(ChangeRow::key(change));
    }

    /// Inserts the rows gathered, and forgets them.
    fn insert(&mut self, tx: &mut Tx<'_>) -> Result<(), Failure> {
        if self.game.is_empty() {
            return Ok(());
        }
        tx.execute(
            &format!(
                "INSERT INTO rating_changes ({CHANGE_COLUMNS}, key) \
                 SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], \
                 $5::bigint[], $6::float8[], $7::float8[], $8::float8[], $9::float8[], \
                 $10::float8[], $11::float8[], $12::text[])"
            ),
            &[
                &self.game,
                &self.mark,
                &self.name,
                &self.size,
                &self.win,
                &self.before[0],
                &self.before[1],
                &self.before[2],
                &self.after[0],
                &self.after[1],
                &self.after[2],
                &self.key,
            ],
        )?;
        *self = ChangeColumns::default();
        Ok(())
    }
}

/// Rated games given their numbers, gathered for one `UPDATE` in a rebuild.
#[derive(Default)]
struct RatedNumbers {
    id: Vec<String>,
    number: Vec<i64>,
}

impl RatedNumbers {
    /// Sets the numbers gathered, and forgets them.
    fn update(&mut self, tx: &mut Tx<'_>) -> Result<(), Failure> {
        if self.id.is_empty() {
            return Ok(());
        }
        tx.execute(
            "UPDATE games SET rated_number = u.number \
             FROM unnest($1::text[], $2::bigint[]) AS u(id, number) WHERE games.id = u.id",
            &[&self.id, &self.number],
        )?;
        *self = RatedNumbers::default();
        Ok(())
    }
}

/// Inserts `people`'s ratings into the emptied `ratings`, one statement.
fn insert_ratings(tx: &mut Tx<'_>, people: &[&PlayerRating]) -> Result<(), Failure> {
    let rows: Vec<RatingColumns> = people.iter().map(|held| RatingColumns::of(held)).collect();
    let column = |figure: usize| {
        rows.iter()
            .map(|row| row.rating[figure])
            .collect::<Vec<_>>()
    };
    tx.execute(
        &format!(
            "INSERT INTO ratings ({RATING_COLUMNS}, key) \
             SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::float8[], \
             $5::float8[], $6::float8[], $7::bigint[], $8::text[])"
        ),
        &[
            &rows.iter().map(|row| row.name.as_str()).collect::<Vec<_>>(),
            &rows.iter().map(|row| row.size).collect::<Vec<_>>(),
            &rows.iter().map(|row| row.win).collect::<Vec<_>>(),
            &column(0),
            &column(1),
            &column(2),
            &rows.iter().map(|row| row.games).collect::<Vec<_>>(),
            &people
                .iter()
                .map(|held| held.name.key())
                .collect::<Vec<_>>(),
        ],
    )?;
    Ok(())
}

/// How long one statement of a rebuild may run (`statement_timeout` within it).
const REBUILD_STATEMENT: std::time::Duration = std::time::Duration::from_secs(600);

/// How many games a rebuild gathers before it writes them.
const REBUILD_BATCH: usize = 10_000;

/// A rating, its deviation and its volatility: three columns from `first`.
fn glicko(row: &postgres::Row, database: &Database, first: usize) -> Result<[f64; 3], Failure> {
    columns::glicko(&Columns { row, database }, first)
}

impl PostgresStore {
    /// What the ends of `games` did to ratings (see `GameStore::rating_changes`).
    pub(crate) fn changes_of(&self, games: &[GameId]) -> Result<Vec<RatingChange>, StoreError> {
        let database = &self.database;
        let ids: Vec<&str> = games.iter().map(GameId::as_str).collect();
        self.read(|tx| {
            let rows = tx.query(
                &format!(
                    "SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE game = ANY($1) \
                     ORDER BY game, mark = 'O'"
                ),
                &[&ids],
            )?;
            let mut by_game: HashMap<String, Vec<RatingChange>> = HashMap::new();
            for row in &rows {
                let row: ChangeRow = codec::read(row, 0, database)?;
                let change = row
                    .change()
                    .map_err(|detail| database.unreadable_game(&row.game, detail))?;
                by_game.entry(row.game).or_default().push(change);
            }
            Ok(ids
                .iter()
                .filter_map(|id| by_game.remove(*id))
                .flatten()
                .collect())
        })
    }
}

impl RatingStore for PostgresStore {
    fn ratings(&self, query: &RatingListQuery) -> Result<Vec<PlayerRating>, StoreError> {
        self.read_values(
            &format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE size = $1 AND win = $2 \
                 AND (deviation > $4) = $5 ORDER BY rating DESC, key LIMIT $3"
            ),
            &[
                &(query.board.size() as i64),
                &(query.board.win_length() as i64),
                &i64::from(query.top),
                &Rating::PROVISIONAL_ABOVE,
                &(query.certainty == Certainty::Provisional),
            ],
            RatingColumns::player_rating,
        )
    }

    fn ratings_of(&self, player: &PlayerName) -> Result<Vec<PlayerRating>, StoreError> {
        self.read_values(
            &format!("SELECT {RATING_COLUMNS} FROM ratings WHERE key = $1 ORDER BY size, win"),
            &[&player.key()],
            RatingColumns::player_rating,
        )
    }

    fn rating_history(&self, query: &RatingHistoryQuery) -> Result<Vec<RatingPoint>, StoreError> {
        let database = &self.database;
        self.read(|tx| {
            let rows = tx.query(
                "SELECT c.game, coalesce(g.ended_at, 0), c.after_rating, c.after_deviation, \
                 c.after_volatility FROM rating_changes c JOIN games g ON g.id = c.game \
                 WHERE c.key = $1 AND c.size = $2 AND c.win = $3 \
                 ORDER BY g.rated_number DESC LIMIT $4",
                &[
                    &query.player.key(),
                    &(query.board.size() as i64),
                    &(query.board.win_length() as i64),
                    &i64::from(query.last),
                ],
            )?;
            let mut points = Vec::new();
            for row in &rows {
                let game: String = database.get(row, 0)?;
                let ended: i64 = database.get(row, 1)?;
                let after = glicko(row, database, 2)?;
                points.push(
                    point(&game, ended, after)
                        .map_err(|detail| database.unreadable_game(&game, detail))?,
                );
            }
            points.reverse();
            Ok(points)
        })
    }

    fn rebuild_ratings(&self) -> Result<Rebuilt, StoreError> {
        let database = &self.database;
        self.transact(false, None, |tx| {
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&RATINGS_LOCK])?;
            // A rebuild's statements go over every game: not bound by the seconds a
            // request's statement may take (`STATEMENT`), only by this.
            tx.execute(
                &format!(
                    "SET LOCAL statement_timeout = {}",
                    REBUILD_STATEMENT.as_millis()
                ),
                &[],
            )?;
            let rows = tx.query(
                &format!(
                    "SELECT rated_number, {GAME_COLUMNS} FROM games WHERE ending IS NOT NULL \
                     ORDER BY rated_number NULLS FIRST, ended_at, id"
                ),
                &[],
            )?;
            tx.execute("DELETE FROM rating_changes", &[])?;
            tx.execute("DELETE FROM ratings", &[])?;
            // The games are rated in the order of their numbers, those without one
            // (kept before ratings) first. If none of those rates anybody, the numbers
            // kept already say that order and stay. Otherwise every rated game is
            // numbered again, one block from the sequence for the whole rebuild (no
            // end takes a number while the ratings' lock is held exclusively), above
            // every number kept.
            let first: i64 =
                database.get(&tx.query_one("SELECT nextval('rated_numbers')", &[])?, 0)?;
            let mut renumber = false;
            let mut no_longer_rated: Vec<String> = Vec::new();
            let mut book = RatingBook::new();
            let (mut rated, mut unreadable) = (0u64, 0u64);
            let (mut numbers, mut changes) = (RatedNumbers::default(), ChangeColumns::default());
            for row in &rows {
                let number: Option<i64> = database.get(row, 0)?;
                let kept = codec::read::<GameRow>(row, 1, database)?;
                // A game kept under rules since tightened rates nobody (see SQLite's
                // rebuild), and loses any number it had.
                let (Ok(game), Ok(Some(ending))) = (kept.new_game(), kept.ending()) else {
                    unreadable += 1;
                    if number.is_some() {
                        no_longer_rated.push(kept.id);
                    }
                    continue;
                };
                let movers = match ending {
                    Ending::Resigned(_) | Ending::TimedOut { .. } => {
                        Some(movers(tx, &game, database)?)
                    }
                    _ => None,
                };
                let rated_now = book.rate(&game, ending, || asked(movers, &game, database))?;
                if rated_now.is_empty() {
                    if number.is_some() {
                        no_longer_rated.push(kept.id);
                    }
                    continue;
                }
                renumber |= number.is_none();
                if renumber {
                    numbers.id.push(kept.id);
                    numbers.number.push(first + rated as i64);
                }
                rated += 1;
                rated_now.iter().for_each(|change| changes.push(change));
                if changes.game.len() >= 2 * REBUILD_BATCH {
                    numbers.update(tx)?;
                    changes.insert(tx)?;
                }
            }
            numbers.update(tx)?;
            changes.insert(tx)?;
            if renumber {
                tx.execute(
                    "UPDATE games SET rated_number = NULL WHERE rated_number < $1",
                    &[&first],
                )?;
                tx.execute(
                    "SELECT setval('rated_numbers', $1)",
                    &[&(first + rated as i64 - 1).max(first)],
                )?;
            } else {
                tx.execute(
                    "UPDATE games SET rated_number = NULL WHERE id = ANY($1)",
                    &[&no_longer_rated],
                )?;
            }
            let mut people = book.ratings().peekable();
            while people.peek().is_some() {
                let batch: Vec<&PlayerRating> = people.by_ref().take(REBUILD_BATCH).collect();
                insert_ratings(tx, &batch)?;
            }
            Ok(Rebuilt {
                games: rated,
                ratings: book.len() as u64,
                unreadable,
            })
        })
    }
}
