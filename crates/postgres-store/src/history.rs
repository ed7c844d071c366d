//! A game read back whole, the history of the ended games, a player's opponents, and
//! the reviews: the [`GameHistory`] and [`ReviewStore`] ports, read from the tables
//! and indexes of `migrations/0001_games_scoreboard_history.sql`.

use tictactoe_core::domain::PlayerName;
use tictactoe_core::play::Review;
use tictactoe_core::ports::{
    GameHistory, GameId, GameStore, GameSummary, HistoryPage, HistoryQuery, IdPrefix, Opponents,
    ReviewStore, StoreError, StoredGame,
};
use tictactoe_core::rules::{check_review, keeps_review};
use tictactoe_store_rows::assemble::{self, NEWEST_FIRST, REVIEW_COLUMNS, ReviewRow};
use tictactoe_store_rows::clocks::{CLOCK_COLUMNS, ClockColumns};
use tictactoe_store_rows::{GAME_COLUMN_COUNT, GAME_COLUMNS, GameRow, rows};

use crate::PostgresStore;
use crate::codec;
use crate::errors::{Database, Failure, PostgresErrors};
use crate::pool::Tx;
use crate::scoreboard;

/// The moves that stand at the end of game `games.id`: each move adds one, each undo
/// takes its moves back.
const MOVES: &str = "(SELECT coalesce(sum(CASE WHEN cell IS NOT NULL THEN 1 ELSE -undo END), 0)::bigint \
     FROM steps WHERE steps.game = games.id)";

/// The statement that reads a whole game: its row, its rematch's id, its steps in
/// order as three arrays, and its clock as last kept (whether it has one, then its
/// columns). One statement, so one round trip, and a view of one moment without a
/// transaction: a server reads a game back each time another server began it.
pub(crate) fn game_statement() -> String {
    let clock = CLOCK_COLUMNS
        .split(", ")
        .map(|column| format!("c.{column}"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "SELECT {GAME_COLUMNS}, (SELECT r.id FROM games r WHERE r.follows = games.id), \
         s.numbers, s.cells, s.undos, c.game IS NOT NULL, {clock} \
         FROM games LEFT JOIN LATERAL ( \
             SELECT array_agg(number ORDER BY number) AS numbers, \
                    array_agg(cell ORDER BY number) AS cells, \
                    array_agg(undo ORDER BY number) AS undos \
             FROM steps WHERE steps.game = games.id) s ON true \
         LEFT JOIN clocks c ON c.game = games.id \
         WHERE games.id = $1"
    )
}

/// Game `id` from the row [`game_statement`] selected.
pub(crate) fn game(
    row: Option<postgres::Row>,
    id: &GameId,
    database: &Database,
) -> Result<Option<StoredGame>, Failure> {
    let unreadable = |detail: String| Failure::Store(database.unreadable_game(id, detail));
    let Some(row) = row else {
        return Ok(None);
    };
    let kept = codec::read::<GameRow>(&row, 0, database)?;
    let rematch: Option<String> = database.get(&row, GAME_COLUMN_COUNT)?;
    let numbers: Option<Vec<i64>> = database.get(&row, GAME_COLUMN_COUNT + 1)?;
    let cells: Option<Vec<Option<i64>>> = database.get(&row, GAME_COLUMN_COUNT + 2)?;
    let undos: Option<Vec<Option<i64>>> = database.get(&row, GAME_COLUMN_COUNT + 3)?;
    let has_clock: bool = database.get(&row, GAME_COLUMN_COUNT + 4)?;
    let clock = if has_clock {
        Some(codec::read::<ClockColumns>(
            &row,
            GAME_COLUMN_COUNT + 5,
            database,
        )?)
    } else {
        None
    };
    // No steps: NULL arrays (`array_agg` over no rows).
    let (numbers, cells, undos) = (
        numbers.unwrap_or_default(),
        cells.unwrap_or_default(),
        undos.unwrap_or_default(),
    );
    if cells.len() != numbers.len() || undos.len() != numbers.len() {
        return Err(unreadable("its steps' columns differ in length".into()));
    }
    let steps = numbers.into_iter().zip(cells).zip(undos);
    let steps = steps.map(|((number, cell), undo)| (number, cell, undo));
    assemble::stored_game(&kept, rematch.as_deref(), steps, clock.as_ref())
        .map(Some)
        .map_err(unreadable)
}

impl GameHistory for PostgresStore {
    fn history(&self, query: &HistoryQuery) -> Result<HistoryPage, StoreError> {
        let database = &self.database;
        self.read(|tx| {
            let (started, id) = assemble::cursor(query, |before| {
                tx.query_opt(
                    "SELECT started_at FROM games WHERE id = $1",
                    &[&before.as_str()],
                )?
                .map(|row| database.get(&row, 0))
                .transpose()
            })?;
            let limit = assemble::rows_for_a_page(query);
            let older = "ending IS NOT NULL AND (started_at, id) < ($1, $2)";
            let columns = format!("{GAME_COLUMNS}, {MOVES}");
            let rows = match &query.player {
                None => tx.query(
                    &format!("SELECT {columns} FROM games WHERE {older} {NEWEST_FIRST} LIMIT $3"),
                    &[&started, &id, &limit],
                )?,
                // Each side's index read newest first, the two merged: a game is read
                // once even if both its players have the name (two computers).
                Some(player) => tx.query(
                    &format!(
                        "SELECT * FROM (SELECT {columns} FROM games WHERE x_key = $4 \
                         AND {older} {NEWEST_FIRST} LIMIT $3) AS by_x \
                         UNION SELECT * FROM (SELECT {columns} FROM games WHERE o_key = $4 \
                         AND {older} {NEWEST_FIRST} LIMIT $3) AS by_o \
                         {NEWEST_FIRST} LIMIT $3"
                    ),
                    &[&started, &id, &limit, &player.key()],
                )?,
            };
            let games = rows
                .iter()
                .map(|row| summary(row, database))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(assemble::page(games, query))
        })
    }

    fn games_starting(&self, prefix: &IdPrefix, limit: u32) -> Result<Vec<GameId>, StoreError> {
        let database = &self.database;
        self.read(|tx| {
            // The ids that start with the prefix are a range of the primary key (byte
            // order, COLLATE "C"): from the prefix up to the prefix followed by 'g',
            // past every hex digit. Only that range is read.
            let rows = tx.query(
                "SELECT id FROM games WHERE id >= $1 AND id < $1 || 'g' ORDER BY id LIMIT $2",
                &[&prefix.as_str(), &i64::from(limit)],
            )?;
            rows.iter()
                .map(|row| {
                    let id: String = row.try_get(0).map_err(|e| database.column(e))?;
                    GameId::parse(&id)
                        .map_err(|e| database.unreadable_game(format_args!("{id:?}"), e).into())
                })
                .collect()
        })
    }

    fn opponents(&self, player: &PlayerName, limit: u32) -> Result<Opponents, StoreError> {
        let database = &self.database;
        let key = player.key();
        let unreadable = |detail: String| {
            Failure::Store(database.unreadable(format!("{player}'s opponents: {detail}")))
        };
        self.read(|tx| {
            let mut most_played = Vec::new();
            for row in tx.query(scoreboard::RIVALS, &[&key, &i64::from(limit)])? {
                let rival: String = database.get(&row, 0)?;
                let counts = [
                    database.get(&row, 1)?,
                    database.get(&row, 2)?,
                    database.get(&row, 3)?,
                ];
                most_played.push(assemble::rivalry(&rival, counts).map_err(unreadable)?);
            }
            // The whole record and how many opponents.
            let row = tx.query_one(scoreboard::RIVALS_TOTAL, &[&key])?;
            let total = [
                database.get(&row, 1)?,
                database.get(&row, 2)?,
                database.get(&row, 3)?,
            ];
            assemble::opponents(most_played, database.get(&row, 0)?, total).map_err(unreadable)
        })
    }
}

/// An ended game's summary, from a row of `GAME_COLUMNS` and `MOVES`.
fn summary(row: &postgres::Row, database: &Database) -> Result<GameSummary, Failure> {
    let game = codec::read::<GameRow>(row, 0, database)?;
    let moves: i64 = row
        .try_get(GAME_COLUMN_COUNT)
        .map_err(|e| database.column(e))?;
    assemble::summary(&game, moves)
        .map_err(|detail| Failure::Store(database.unreadable_game(&game.id, detail)))
}

impl ReviewStore for PostgresStore {
    fn review(&self, game: &GameId) -> Result<Option<Review>, StoreError> {
        let database = &self.database;
        self.read(|tx| kept_review(tx, game, database, false))
    }

    fn keep_review(&self, game: &GameId, review: &Review) -> Result<(), StoreError> {
        check_review(game, GameStore::game(self, game)?.as_ref(), review)?;
        let rows: Vec<ReviewRow> = review.moves.iter().map(ReviewRow::of).collect();
        let plies: Vec<i64> = rows.iter().map(|row| row.ply).collect();
        let marks: Vec<&str> = rows.iter().map(|row| row.mark.as_str()).collect();
        let cells: Vec<i64> = rows.iter().map(|row| row.cell).collect();
        let befores: Vec<&str> = rows.iter().map(|row| row.before.as_str()).collect();
        let afters: Vec<&str> = rows.iter().map(|row| row.after.as_str()).collect();
        let bests: Vec<&str> = rows.iter().map(|row| row.best_moves.as_str()).collect();
        let database = &self.database;
        self.transact(false, Some(game), |tx| {
            // The game's row locked first: two servers keeping a review of one game
            // take turns, and the second compares with what the first kept.
            let kept = kept_review(tx, game, database, true)?;
            if !keeps_review(kept.as_ref(), review) {
                return Ok(());
            }
            tx.execute("DELETE FROM reviews WHERE game = $1", &[&game.as_str()])?;
            tx.execute(
                "INSERT INTO reviews (game, ply, mark, cell, before, after, best_moves) \
                 SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::bigint[], $5::text[], \
                 $6::text[], $7::text[])",
                &[
                    &game.as_str(),
                    &plies,
                    &marks,
                    &cells,
                    &befores,
                    &afters,
                    &bests,
                ],
            )?;
            Ok(())
        })
    }
}

/// The review kept of `game`, if any; with `lock`, the game's row is locked until the
/// transaction ends.
fn kept_review(
    tx: &mut Tx<'_>,
    game: &GameId,
    database: &Database,
    lock: bool,
) -> Result<Option<Review>, Failure> {
    let unreadable = |detail: String| Failure::Store(database.unreadable_game(game, detail));
    let sql = if lock {
        "SELECT size, win FROM games WHERE id = $1 FOR UPDATE"
    } else {
        "SELECT size, win FROM games WHERE id = $1"
    };
    let Some(row) = tx.query_opt(sql, &[&game.as_str()])? else {
        return Ok(None);
    };
    let geometry =
        rows::geometry(database.get(&row, 0)?, database.get(&row, 1)?).map_err(unreadable)?;
    let rows = tx.query(
        &format!("SELECT {REVIEW_COLUMNS} FROM reviews WHERE game = $1 ORDER BY ply"),
        &[&game.as_str()],
    )?;
    let reviewed = codec::read_all(&rows, database)?;
    assemble::review(geometry, reviewed).map_err(unreadable)
}
