//! The history of the ended games, a player's opponents, and the reviews: the
//! [`GameHistory`] and [`ReviewStore`] ports, read from the tables and indexes of
//! schema version 4.

use rusqlite::{Connection, OptionalExtension, params};
use tictactoe_core::domain::PlayerName;
use tictactoe_core::play::Review;
use tictactoe_core::ports::{
    GameHistory, GameId, GameStore, GameSummary, HistoryPage, HistoryQuery, IdPrefix, Opponents,
    ReviewStore, StoreError,
};
use tictactoe_core::rules::{check_review, keeps_review};
use tictactoe_store_rows::assemble::{self, NEWEST_FIRST, REVIEW_COLUMNS, ReviewRow};
use tictactoe_store_rows::{GAME_COLUMN_COUNT, GAME_COLUMNS};

use crate::codec::{self, Select};
use crate::errors::Database;
use crate::{Sql, SqliteStore, writes};

/// The moves that stand at the end of game `games.id`: each move adds one, each undo
/// takes its moves back.
const MOVES: &str = "(SELECT coalesce(sum(CASE WHEN cell IS NOT NULL THEN 1 ELSE -undo END), 0) \
     FROM steps WHERE steps.game = games.id)";

impl GameHistory for SqliteStore {
    fn history(&self, query: &HistoryQuery) -> Result<HistoryPage, StoreError> {
        let database = &self.database;
        self.in_read(|transaction| {
            let (started, id) = assemble::cursor(query, |before| {
                transaction
                    .prepare_cached("SELECT started_at FROM games WHERE id = ?1")
                    .db(database)?
                    .query_row([before.as_str()], |row| row.get(0))
                    .optional()
                    .db(database)
            })?;
            let limit = assemble::rows_for_a_page(query);
            let older = "ending IS NOT NULL AND (started_at, id) < (?1, ?2)";
            let columns = format!("{GAME_COLUMNS}, {MOVES}");
            let rows = match &query.player {
                None => read_summaries(
                    transaction,
                    &format!("SELECT {columns} FROM games WHERE {older} {NEWEST_FIRST} LIMIT ?3"),
                    params![started, id, limit],
                    database,
                )?,
                // Each side's index read newest first, the two merged: a game is read
                // once even if both its players have the name (two computers).
                Some(player) => read_summaries(
                    transaction,
                    &format!(
                        "SELECT * FROM (SELECT {columns} FROM games INDEXED BY \
                         games_ended_by_x WHERE x_key = ?4 AND {older} {NEWEST_FIRST} LIMIT ?3) \
                         UNION SELECT * FROM (SELECT {columns} FROM games INDEXED BY \
                         games_ended_by_o WHERE o_key = ?4 AND {older} {NEWEST_FIRST} LIMIT ?3) \
                         {NEWEST_FIRST} LIMIT ?3"
                    ),
                    params![started, id, limit, player.key()],
                    database,
                )?,
            };
            Ok(assemble::page(rows, query))
        })
    }

    fn games_starting(&self, prefix: &IdPrefix, limit: u32) -> Result<Vec<GameId>, StoreError> {
        let database = &self.database;
        self.in_read(|transaction| {
            // The ids from the prefix up to the next prefix: a range of the primary key.
            let mut query = transaction
                .prepare_cached("SELECT id FROM games WHERE id >= ?1 ORDER BY id LIMIT ?2")
                .db(database)?;
            let mut rows = query
                .query(params![prefix.as_str(), i64::from(limit)])
                .db(database)?;
            let mut ids = Vec::new();
            while let Some(row) = rows.next().db(database)? {
                let id: String = row.get(0).db(database)?;
                if !id.starts_with(prefix.as_str()) {
                    break;
                }
                ids.push(
                    GameId::parse(&id)
                        .map_err(|e| database.unreadable_game(format_args!("{id:?}"), e))?,
                );
            }
            Ok(ids)
        })
    }

    fn opponents(&self, player: &PlayerName, limit: u32) -> Result<Opponents, StoreError> {
        let database = &self.database;
        let key = player.key();
        let unreadable =
            |detail: String| database.unreadable(format!("{}'s opponents: {detail}", player));
        self.in_read(|transaction| {
            // The first entries of the player's range of `rivalries_by_games`.
            let mut query = transaction
                .prepare_cached(
                    "SELECT rival, wins, losses, ties FROM rivalries WHERE key = ?1 \
                     ORDER BY wins + losses + ties DESC, rival_key LIMIT ?2",
                )
                .db(database)?;
            let mut rows = query.query(params![key, i64::from(limit)]).db(database)?;
            let mut most_played = Vec::new();
            while let Some(row) = rows.next().db(database)? {
                let rival: String = row.get(0).db(database)?;
                let counts = [
                    row.get(1).db(database)?,
                    row.get(2).db(database)?,
                    row.get(3).db(database)?,
                ];
                most_played.push(assemble::rivalry(&rival, counts).map_err(&unreadable)?);
            }
            // The whole record and how many opponents, over the player's range of the
            // primary key. `total` rather than `sum`, which fails past the largest
            // integer: counts saturate, as everywhere.
            let (rivals, total) = transaction
                .prepare_cached(
                    "SELECT count(*), \
                     CAST(min(total(wins), 9223372036854775807.0) AS INTEGER), \
                     CAST(min(total(losses), 9223372036854775807.0) AS INTEGER), \
                     CAST(min(total(ties), 9223372036854775807.0) AS INTEGER) \
                     FROM rivalries WHERE key = ?1",
                )
                .db(database)?
                .query_row([&key], |row| {
                    Ok((row.get(0)?, [row.get(1)?, row.get(2)?, row.get(3)?]))
                })
                .db(database)?;
            assemble::opponents(most_played, rivals, total).map_err(unreadable)
        })
    }
}

fn read_summaries(
    connection: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    database: &Database,
) -> Result<Vec<GameSummary>, StoreError> {
    let mut query = connection.prepare_cached(sql).db(database)?;
    let mut rows = query.query(params).db(database)?;
    let mut games = Vec::new();
    while let Some(row) = rows.next().db(database)? {
        let game = codec::read(row).db(database)?;
        let moves: i64 = row.get(GAME_COLUMN_COUNT).db(database)?;
        games.push(
            assemble::summary(&game, moves)
                .map_err(|detail| database.unreadable_game(&game.id, detail))?,
        );
    }
    Ok(games)
}

impl ReviewStore for SqliteStore {
    fn review(&self, game: &GameId) -> Result<Option<Review>, StoreError> {
        let database = &self.database;
        let unreadable = self.unreadable_game(game);
        self.in_read(|transaction| kept_review(transaction, game, database, &unreadable))
    }

    fn keep_review(&self, game: &GameId, review: &Review) -> Result<(), StoreError> {
        check_review(game, GameStore::game(self, game)?.as_ref(), review)?;
        let database = &self.database;
        let unreadable = self.unreadable_game(game);
        self.in_write(|transaction| {
            // Read in the writing transaction: a review kept meanwhile (by another
            // process) is the one compared with.
            let kept = kept_review(transaction, game, database, &unreadable)?;
            if !keeps_review(kept.as_ref(), review) {
                return Ok(());
            }
            transaction
                .execute("DELETE FROM reviews WHERE game = ?1", [game.as_str()])
                .db(database)?;
            let mut insert = transaction
                .prepare_cached(
                    "INSERT INTO reviews (game, ply, mark, cell, before, after, best_moves) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                )
                .db(database)?;
            for reviewed in review.moves.iter().map(ReviewRow::of) {
                insert
                    .execute(params![
                        game.as_str(),
                        reviewed.ply,
                        reviewed.mark,
                        reviewed.cell,
                        reviewed.before,
                        reviewed.after,
                        reviewed.best_moves,
                    ])
                    .db(database)?;
            }
            Ok(())
        })
    }
}

/// The review kept of `game`, if any, read in `transaction`.
fn kept_review(
    transaction: &Connection,
    game: &GameId,
    database: &Database,
    unreadable: &impl Fn(String) -> StoreError,
) -> Result<Option<Review>, StoreError> {
    let Some(row) = writes::game_row(transaction, game, database)? else {
        return Ok(None);
    };
    let geometry = row.geometry().map_err(unreadable)?;
    let rows = transaction.select(
        database,
        &format!("SELECT {REVIEW_COLUMNS} FROM reviews WHERE game = ?1 ORDER BY ply"),
        [game.as_str()],
    )?;
    assemble::review(geometry, rows).map_err(unreadable)
}
