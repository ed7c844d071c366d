//! Ratings per board, kept with the games (schema version 5): each game's end rated in
//! its own transaction ([`rate_end`]), the [`RatingStore`] port read from `ratings` and
//! `rating_changes`, and every rating rebuilt from the games in the order they were
//! rated. Which games rate whom, and the arithmetic, are the core's ([`rate`]); the
//! rows are `tictactoe_store_rows::ratings`'s.

use rusqlite::{Connection, OptionalExtension, params};
use tictactoe_core::domain::{Certainty, Geometry, PlayerName, Rating};
use tictactoe_core::ports::{
    Ending, GameId, NewGame, PlayerRating, RatingChange, RatingHistoryQuery, RatingListQuery,
    RatingPoint, RatingStore, Rebuilt, StoreError,
};
use tictactoe_core::rules::exactly_once::Movers;
use tictactoe_core::rules::{RatingBook, rate};
use tictactoe_store_rows::ratings::{
    CHANGE_COLUMNS, ChangeRow, RATING_COLUMNS, RatingColumns, point, rating, rating_columns,
};
use tictactoe_store_rows::{GAME_COLUMNS, GameRow, rows};

use crate::codec::{self, Select};
use crate::errors::Database;
use crate::{Sql, SqliteStore, writes};

/// Rates game `game`, which has just ended `ending`, in the transaction that keeps its
/// end: each person's rating as it stands read, the change kept, the rating moved, and
/// the game given the next number in the order of rated games.
pub(crate) fn rate_end(
    connection: &Connection,
    game: &NewGame,
    ending: Ending,
    database: &Database,
) -> Result<(), StoreError> {
    let board = game.settings.geometry();
    let changes = rate(
        game,
        ending,
        || movers(connection, game, database),
        |player| current(connection, board, player, database),
    )?;
    keep(connection, &game.id, &changes, database)
}

/// Who has moved in `game`, from its kept steps.
fn movers(
    connection: &Connection,
    game: &NewGame,
    database: &Database,
) -> Result<Movers, StoreError> {
    let steps = writes::steps_of(connection, &game.id, database)?;
    rows::movers(game.settings.geometry(), game.settings.first(), steps)
        .map_err(|detail| database.unreadable_game(&game.id, detail))
}

/// `player`'s rating on `board` as it stands, if they have one.
fn current(
    connection: &Connection,
    board: Geometry,
    player: &PlayerName,
    database: &Database,
) -> Result<Option<Rating>, StoreError> {
    let found: Option<[f64; 3]> = connection
        .prepare_cached(
            "SELECT rating, deviation, volatility FROM ratings \
             WHERE size = ?1 AND win = ?2 AND key = ?3",
        )
        .db(database)?
        .query_row(
            params![board.size() as i64, board.win_length() as i64, player.key()],
            |row| Ok([row.get(0)?, row.get(1)?, row.get(2)?]),
        )
        .optional()
        .db(database)?;
    found
        .map(rating)
        .transpose()
        .map_err(|detail| database.unreadable(format!("{player}'s rating: {detail}")))
}

/// Gives game `?1` the next number in the order of rated games. `WHERE rated_number
/// IS NOT NULL` lets SQLite read the largest number from the end of the partial index
/// `games_by_rated_number`; without it SQLite reads every game (138 ms an end with a
/// million games kept, where the end itself takes half a millisecond).
const NUMBER_RATED_GAME: &str = "UPDATE games SET rated_number = \
     (SELECT coalesce(max(rated_number), 0) + 1 FROM games WHERE rated_number IS NOT NULL) \
     WHERE id = ?1";

/// Keeps game `game`'s `changes` (none: nothing to keep).
fn keep(
    connection: &Connection,
    game: &GameId,
    changes: &[RatingChange],
    database: &Database,
) -> Result<(), StoreError> {
    if changes.is_empty() {
        return Ok(());
    }
    connection
        .prepare_cached(NUMBER_RATED_GAME)
        .db(database)?
        .execute([game.as_str()])
        .db(database)?;
    for change in changes {
        insert_change(connection, change, database)?;
        let row = ChangeRow::of(change);
        let [after, deviation, volatility] = rating_columns(change.after);
        connection
            .prepare_cached(
                "INSERT INTO ratings (size, win, key, name, rating, deviation, volatility, \
                 games) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1) \
                 ON CONFLICT (size, win, key) DO UPDATE SET rating = excluded.rating, \
                 deviation = excluded.deviation, volatility = excluded.volatility, \
                 games = games + 1",
            )
            .db(database)?
            .execute(params![
                row.size,
                row.win,
                ChangeRow::key(change),
                row.name,
                after,
                deviation,
                volatility
            ])
            .db(database)?;
    }
    Ok(())
}

/// The indexes a rebuild drops and makes again once every row is in: one sort at the
/// end instead of a million inserts at random places.
const REBUILT_INDEXES: [&str; 2] = ["ratings_best_first", "rating_changes_by_player"];

/// The page cache a rebuild works with, in KiB (SQLite's negative `cache_size`): the
/// tables it rewrites stay in memory (a million games: 65 s with the connection's
/// usual cache, see docs/performance.md).
const REBUILD_CACHE_KIB: i64 = 256 * 1024;

/// Where a rebuild reads the games: the table, as this program keeps it.
pub(crate) const GAMES: &str = "games";

/// The games as schema 5 kept them, for that migration's step (which runs before the
/// later migrations add their columns): no game was casual yet, nor said whose its
/// seats were, nor had a clock.
pub(crate) const GAMES_AT_SCHEMA_5: &str = "(SELECT *, 0 AS casual, NULL AS x_holder, NULL AS o_holder, NULL AS clock_end, \
     NULL AS clock_control, NULL AS clock_initial_ns, NULL AS clock_increment_ns, \
     NULL AS clock_first_move_ns, NULL AS clock_x_left_ns, NULL AS clock_o_left_ns, \
     NULL AS clock_turn, NULL AS clock_since_ns, NULL AS clock_moves FROM games)";

/// Forgets every rating and rates every ended game again, in the order they were rated
/// (the games not rated yet, as after migrating a file kept before ratings, first, in
/// the order they ended), by the same rule: see [`RatingStore::rebuild_ratings`]. The
/// games are read from `games` ([`GAMES`], or a schema's view of them).
pub(crate) fn rebuild(
    connection: &Connection,
    database: &Database,
    games: &str,
) -> Result<Rebuilt, StoreError> {
    let cache: i64 = connection
        .pragma_query_value(None, "cache_size", |row| row.get(0))
        .db(database)?;
    connection
        .pragma_update(None, "cache_size", -REBUILD_CACHE_KIB)
        .db(database)?;
    let rebuilt = without_indexes(connection, database, |connection, database| {
        rate_again(connection, database, games)
    });
    connection
        .pragma_update(None, "cache_size", cache)
        .db(database)?;
    rebuilt
}

/// Runs `work` with [`REBUILT_INDEXES`] dropped, and makes them again as they were (in
/// the caller's transaction: a rebuild that fails leaves them as they were too).
fn without_indexes<T>(
    connection: &Connection,
    database: &Database,
    work: impl FnOnce(&Connection, &Database) -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let made: Vec<String> = REBUILT_INDEXES
        .iter()
        .map(|name| {
            connection
                .query_row(
                    "SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?1",
                    [name],
                    |row| row.get(0),
                )
                .optional()
                .db(database)?
                .ok_or_else(|| database.unreadable(format!("the index {name} is missing")))
        })
        .collect::<Result<_, _>>()?;
    for name in REBUILT_INDEXES {
        connection
            .execute_batch(&format!("DROP INDEX {name}"))
            .db(database)?;
    }
    let done = work(connection, database)?;
    for sql in made {
        connection.execute_batch(&sql).db(database)?;
    }
    Ok(done)
}

/// Every ended game rated again, in order, into emptied tables.
fn rate_again(
    connection: &Connection,
    database: &Database,
    source: &str,
) -> Result<Rebuilt, StoreError> {
    let games = {
        let mut select = connection
            .prepare(&format!(
                "SELECT {GAME_COLUMNS} FROM {source} WHERE ending IS NOT NULL \
                 ORDER BY rated_number IS NOT NULL, rated_number, ended_at, id"
            ))
            .db(database)?;
        select
            .query_map([], codec::read::<GameRow>)
            .db(database)?
            .collect::<rusqlite::Result<Vec<_>>>()
            .db(database)?
    };
    connection
        .execute_batch(
            "DELETE FROM rating_changes; DELETE FROM ratings; \
             UPDATE games SET rated_number = NULL WHERE rated_number IS NOT NULL;",
        )
        .db(database)?;
    let mut book = RatingBook::new();
    let (mut rated, mut unreadable) = (0, 0);
    for row in games {
        // A game an early version kept under rules since tightened rates nobody (as
        // version 4's step gives it no keys), rather than stopping every rebuild and
        // the migration that rates the games kept before ratings.
        let (Ok(game), Ok(Some(ending))) = (row.new_game(), row.ending()) else {
            unreadable += 1;
            continue;
        };
        let changes = book.rate(&game, ending, || movers(connection, &game, database))?;
        if !changes.is_empty() {
            rated += 1;
            connection
                .prepare_cached("UPDATE games SET rated_number = ?2 WHERE id = ?1")
                .db(database)?
                .execute(params![game.id.as_str(), rated])
                .db(database)?;
            for change in &changes {
                insert_change(connection, change, database)?;
            }
        }
    }
    for held in book.ratings() {
        let row = RatingColumns::of(held);
        connection
            .prepare_cached(&format!(
                "INSERT INTO ratings ({RATING_COLUMNS}, key) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
            ))
            .db(database)?
            .execute(params![
                row.name,
                row.size,
                row.win,
                row.rating[0],
                row.rating[1],
                row.rating[2],
                row.games,
                held.name.key()
            ])
            .db(database)?;
    }
    Ok(Rebuilt {
        games: rated as u64,
        ratings: book.len() as u64,
        unreadable,
    })
}

fn insert_change(
    connection: &Connection,
    change: &RatingChange,
    database: &Database,
) -> Result<(), StoreError> {
    let row = ChangeRow::of(change);
    connection
        .prepare_cached(&format!(
            "INSERT INTO rating_changes ({CHANGE_COLUMNS}, key) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"
        ))
        .db(database)?
        .execute(params![
            row.game,
            row.mark,
            row.name,
            row.size,
            row.win,
            row.before[0],
            row.before[1],
            row.before[2],
            row.after[0],
            row.after[1],
            row.after[2],
            ChangeRow::key(change),
        ])
        .db(database)?;
    Ok(())
}

impl SqliteStore {
    /// What the ends of `games` did to ratings (see `GameStore::rating_changes`).
    pub(crate) fn changes_of(&self, games: &[GameId]) -> Result<Vec<RatingChange>, StoreError> {
        let database = &self.database;
        self.in_read(|transaction| {
            let mut changes = Vec::new();
            for game in games {
                let rows: Vec<ChangeRow> = transaction.select(
                    database,
                    &format!(
                        "SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE game = ?1 \
                         ORDER BY mark = 'O'"
                    ),
                    [game.as_str()],
                )?;
                for row in rows {
                    changes.push(
                        row.change()
                            .map_err(|detail| database.unreadable_game(game, detail))?,
                    );
                }
            }
            Ok(changes)
        })
    }
}

impl RatingStore for SqliteStore {
    fn ratings(&self, query: &RatingListQuery) -> Result<Vec<PlayerRating>, StoreError> {
        self.read_values(
            &format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE size = ?1 AND win = ?2 \
                 AND (deviation > ?4) = ?5 ORDER BY rating DESC, key LIMIT ?3"
            ),
            params![
                query.board.size() as i64,
                query.board.win_length() as i64,
                query.top,
                Rating::PROVISIONAL_ABOVE,
                query.certainty == Certainty::Provisional
            ],
            RatingColumns::player_rating,
        )
    }

    fn ratings_of(&self, player: &PlayerName) -> Result<Vec<PlayerRating>, StoreError> {
        self.read_values(
            &format!("SELECT {RATING_COLUMNS} FROM ratings WHERE key = ?1 ORDER BY size, win"),
            [player.key()],
            RatingColumns::player_rating,
        )
    }

    fn rating_history(&self, query: &RatingHistoryQuery) -> Result<Vec<RatingPoint>, StoreError> {
        let database = &self.database;
        self.in_read(|transaction| {
            let rows: Vec<(String, i64, [f64; 3])> = transaction
                .prepare_cached(
                    "SELECT c.game, g.ended_at, c.after_rating, c.after_deviation, \
                     c.after_volatility FROM rating_changes c JOIN games g ON g.id = c.game \
                     WHERE c.key = ?1 AND c.size = ?2 AND c.win = ?3 \
                     ORDER BY g.rated_number DESC LIMIT ?4",
                )
                .db(database)?
                .query_map(
                    params![
                        query.player.key(),
                        query.board.size() as i64,
                        query.board.win_length() as i64,
                        query.last
                    ],
                    |row| {
                        Ok((
                            row.get(0)?,
                            row.get::<_, Option<i64>>(1)?.unwrap_or(0),
                            [row.get(2)?, row.get(3)?, row.get(4)?],
                        ))
                    },
                )
                .db(database)?
                .collect::<rusqlite::Result<Vec<_>>>()
                .db(database)?;
            let mut points = rows
                .iter()
                .map(|(game, ended, after)| {
                    point(game, *ended, *after)
                        .map_err(|detail| database.unreadable_game(game, detail))
                })
                .collect::<Result<Vec<_>, _>>()?;
            points.reverse();
            Ok(points)
        })
    }

    fn rebuild_ratings(&self) -> Result<Rebuilt, StoreError> {
        self.in_write(|transaction| rebuild(transaction, &self.database, GAMES))
    }
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    use super::{GAMES, NUMBER_RATED_GAME, REBUILT_INDEXES, rebuild};
    use crate::errors::Database;
    use crate::migrations::MIGRATIONS;

    /// An empty database of the newest schema, in memory.
    fn newest() -> Connection {
        let connection = Connection::open_in_memory().expect("an in-memory database");
        for migration in &MIGRATIONS {
            connection
                .execute_batch(migration.sql)
                .expect("a migration");
        }
        connection
    }

    #[test]
    fn a_rebuild_makes_again_the_indexes_it_drops_and_keeps_the_connections_cache() {
        // Arrange
        let connection = newest();
        let schema = |connection: &Connection| -> Vec<(String, String)> {
            connection
                .prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' ORDER BY name")
                .expect("the schema")
                .query_map([], |row| {
                    Ok((
                        row.get(0)?,
                        row.get::<_, Option<String>>(1)?.unwrap_or_default(),
                    ))
                })
                .expect("the schema's rows")
                .collect::<Result<_, _>>()
                .expect("the schema's rows")
        };
        let before = schema(&connection);
        let cache = |connection: &Connection| -> i64 {
            connection
                .pragma_query_value(None, "cache_size", |row| row.get(0))
                .expect("a pragma")
        };
        let cache_before = cache(&connection);

        // Act
        rebuild(&connection, &Database("memory".to_string()), GAMES).expect("a rebuild");

        // Assert
        assert_eq!(schema(&connection), before);
        assert!(
            REBUILT_INDEXES
                .iter()
                .all(|name| before.iter().any(|(index, _)| index == name))
        );
        assert_eq!(cache(&connection), cache_before);
    }

    #[test]
    fn numbering_a_rated_game_reads_the_last_number_from_the_index_not_every_game() {
        // Arrange: the newest schema.
        let connection = Connection::open_in_memory().expect("an in-memory database");
        for migration in &MIGRATIONS {
            connection
                .execute_batch(migration.sql)
                .expect("a migration");
        }

        // Act
        let plan: Vec<String> = connection
            .prepare(&format!("EXPLAIN QUERY PLAN {NUMBER_RATED_GAME}"))
            .expect("a plan")
            .query_map(["some game"], |row| row.get(3))
            .expect("the plan's rows")
            .collect::<Result<_, _>>()
            .expect("the plan's rows");

        // Assert
        assert!(
            plan.iter()
                .any(|step| step.contains("USING COVERING INDEX games_by_rated_number")),
            "{plan:#?}"
        );
        assert!(!plan.iter().any(|step| step == "SCAN games"), "{plan:#?}");
    }
}
