//! The history of the ended games, a player's opponents, and the reviews: the
//! [`GameHistory`] and [`ReviewStore`] ports, read from the tables and indexes of
//! schema version 4.

use rusqlite::{Connection, OptionalExtension, params};
use tictactoe_core::domain::{Known, PlayerName, Record, Verdict};
use tictactoe_core::play::{MoveReview, Review};
use tictactoe_core::ports::{
    GameHistory, GameId, GameStore, GameSummary, HistoryPage, HistoryQuery, IdPrefix, Opponents,
    ReviewStore, Rivalry, StoreError, check_review,
};

use crate::codec::{self, GAME_COLUMNS, GameRow};
use crate::errors::Database;
use crate::{Sql, SqliteStore, writes};

/// The moves that stand at the end of game `games.id`: each move adds one, each undo
/// takes its moves back.
const MOVES: &str = "(SELECT coalesce(sum(CASE WHEN cell IS NOT NULL THEN 1 ELSE -undo END), 0) \
     FROM steps WHERE steps.game = games.id)";

/// Past every game in a history's order: `(started_at, id)` below it is every game.
const NEWEST: (i64, &str) = (i64::MAX, "~");

impl GameHistory for SqliteStore {
    fn history(&self, query: &HistoryQuery) -> Result<HistoryPage, StoreError> {
        let database = &self.database;
        self.in_read(|transaction| {
            let (started, id) = match &query.before {
                None => (NEWEST.0, NEWEST.1.to_string()),
                Some(before) => {
                    let started: Option<i64> = transaction
                        .prepare_cached("SELECT started_at FROM games WHERE id = ?1")
                        .db(database)?
                        .query_row([before.as_str()], |row| row.get(0))
                        .optional()
                        .db(database)?;
                    let started = started.ok_or_else(|| StoreError::NoSuchGame(before.clone()))?;
                    (started, before.as_str().to_string())
                }
            };
            // One more than asked for: whether there is a next page.
            let limit = i64::from(query.limit.get()) + 1;
            let older = "ending IS NOT NULL AND (started_at, id) < (?1, ?2)";
            let order = "ORDER BY started_at DESC, id DESC";
            let columns = format!("{GAME_COLUMNS}, {MOVES}");
            let rows = match &query.player {
                None => read_summaries(
                    transaction,
                    &format!("SELECT {columns} FROM games WHERE {older} {order} LIMIT ?3"),
                    params![started, id, limit],
                    database,
                )?,
                // Each side's index read newest first, the two merged: a game is read
                // once even if both its players have the name (two computers).
                Some(player) => read_summaries(
                    transaction,
                    &format!(
                        "SELECT * FROM (SELECT {columns} FROM games INDEXED BY \
                         games_ended_by_x WHERE x_key = ?4 AND {older} {order} LIMIT ?3) \
                         UNION SELECT * FROM (SELECT {columns} FROM games INDEXED BY \
                         games_ended_by_o WHERE o_key = ?4 AND {older} {order} LIMIT ?3) \
                         {order} LIMIT ?3"
                    ),
                    params![started, id, limit, player.key()],
                    database,
                )?,
            };
            let mut games = rows;
            let more = games.len() as i64 == limit;
            games.truncate(query.limit.get() as usize);
            let next = if more {
                games.last().map(|last| last.id.clone())
            } else {
                None
            };
            Ok(HistoryPage { games, next })
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
                        .map_err(|e| database.unreadable(format!("game {id:?}: {e}")))?,
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
                most_played.push(Rivalry {
                    opponent: PlayerName::stored(&rival)
                        .map_err(|e| unreadable(format!("the name {rival:?}: {e}")))?,
                    record: record(row, 1).db(database)?.map_err(&unreadable)?,
                });
            }
            // The whole record and how many opponents, over the player's range of the
            // primary key. `total` rather than `sum`, which fails past the largest
            // integer: counts saturate, as everywhere.
            let (opponents, total) = transaction
                .prepare_cached(
                    "SELECT count(*), \
                     CAST(min(total(wins), 9223372036854775807.0) AS INTEGER), \
                     CAST(min(total(losses), 9223372036854775807.0) AS INTEGER), \
                     CAST(min(total(ties), 9223372036854775807.0) AS INTEGER) \
                     FROM rivalries WHERE key = ?1",
                )
                .db(database)?
                .query_row([&key], |row| Ok((row.get::<_, i64>(0)?, record(row, 1)?)))
                .db(database)?;
            Ok(Opponents {
                others: codec::count(opponents)
                    .map_err(&unreadable)?
                    .saturating_sub(most_played.len() as u64),
                total: total.map_err(&unreadable)?,
                most_played,
            })
        })
    }
}

/// Three counts from `row`, from column `first` on: wins, losses, ties (none, 0).
fn record(row: &rusqlite::Row<'_>, first: usize) -> rusqlite::Result<Result<Record, String>> {
    let mut counts = [0u64; 3];
    for (offset, count) in counts.iter_mut().enumerate() {
        match codec::count(row.get::<_, Option<i64>>(first + offset)?.unwrap_or(0)) {
            Ok(value) => *count = value,
            Err(detail) => return Ok(Err(detail)),
        }
    }
    let [wins, losses, ties] = counts;
    Ok(Ok(Record { wins, losses, ties }))
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
        let game = GameRow::read(row).db(database)?;
        let moves: i64 = row.get(17).db(database)?;
        let unreadable =
            |detail: String| database.unreadable(format!("game {}: {detail}", game.id));
        let new = writes::new_game(&game, database)?;
        let (Some(ending), Some(ended)) = (game.ending().map_err(unreadable)?, game.ended_at)
        else {
            return Err(unreadable("an ended game without its end".to_string()));
        };
        games.push(GameSummary {
            id: new.id,
            settings: new.settings,
            started: codec::time(game.started_at).map_err(unreadable)?,
            ended: codec::time(ended).map_err(unreadable)?,
            ending,
            moves: u32::try_from(moves).map_err(|_| unreadable(format!("{moves} moves stand")))?,
        });
    }
    Ok(games)
}

impl ReviewStore for SqliteStore {
    fn review(&self, game: &GameId) -> Result<Option<Review>, StoreError> {
        let database = &self.database;
        let unreadable = self.unreadable_game(game);
        self.in_read(|transaction| {
            let Some(row) = writes::game_row(transaction, game, database)? else {
                return Ok(None);
            };
            let geometry = row.geometry().map_err(&unreadable)?;
            let mut query = transaction
                .prepare_cached(
                    "SELECT ply, mark, cell, before, after, best_moves FROM reviews \
                     WHERE game = ?1 ORDER BY ply",
                )
                .db(database)?;
            let mut rows = query.query([game.as_str()]).db(database)?;
            let mut moves = Vec::new();
            while let Some(row) = rows.next().db(database)? {
                let ply: i64 = row.get(0).db(database)?;
                let mark: String = row.get(1).db(database)?;
                let cell: i64 = row.get(2).db(database)?;
                let before: String = row.get(3).db(database)?;
                let after: String = row.get(4).db(database)?;
                let best: String = row.get(5).db(database)?;
                let position = |index: &str| {
                    index
                        .parse::<usize>()
                        .ok()
                        .and_then(|index| geometry.position(index))
                        .ok_or_else(|| unreadable(format!("review of move {ply}: cell {index:?}")))
                };
                moves.push(MoveReview {
                    ply: u32::try_from(ply)
                        .ok()
                        .filter(|&ply| ply as usize == moves.len() + 1)
                        .ok_or_else(|| unreadable(format!("review of move {ply} out of order")))?,
                    mark: codec::mark(&mark).map_err(&unreadable)?,
                    cell: position(&cell.to_string())?,
                    before: known(&before).map_err(&unreadable)?,
                    after: known(&after).map_err(&unreadable)?,
                    best_moves: best
                        .split(',')
                        .filter(|index| !index.is_empty())
                        .map(position)
                        .collect::<Result<_, _>>()?,
                });
            }
            Ok((!moves.is_empty()).then_some(Review { moves }))
        })
    }

    fn keep_review(&self, game: &GameId, review: &Review) -> Result<(), StoreError> {
        let Some(kept) = GameStore::game(self, game)? else {
            return Err(StoreError::NoSuchGame(game.clone()));
        };
        check_review(&kept, review)?;
        let database = &self.database;
        self.in_write(|transaction| {
            // INSERT OR IGNORE: a review kept meanwhile (by another process) stays.
            let mut insert = transaction
                .prepare_cached(
                    "INSERT OR IGNORE INTO reviews (game, ply, mark, cell, before, after, \
                     best_moves) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                )
                .db(database)?;
            for reviewed in &review.moves {
                let best: Vec<String> = reviewed
                    .best_moves
                    .iter()
                    .map(|cell| cell.index().to_string())
                    .collect();
                insert
                    .execute(params![
                        game.as_str(),
                        i64::from(reviewed.ply),
                        codec::mark_column(reviewed.mark),
                        reviewed.cell.index() as i64,
                        known_column(reviewed.before),
                        known_column(reviewed.after),
                        best.join(","),
                    ])
                    .db(database)?;
            }
            Ok(())
        })
    }
}

/// The words of `before` and `after`: those of `analyze --json`.
fn known_column(known: Known) -> &'static str {
    match known {
        Known::Exactly(Verdict::Win) => "win",
        Known::Exactly(Verdict::Draw) => "draw",
        Known::Exactly(Verdict::Loss) => "loss",
        Known::AtLeastDraw => "at_least_draw",
        Known::AtMostDraw => "at_most_draw",
        Known::Nothing => "unknown",
    }
}

fn known(text: &str) -> Result<Known, String> {
    [
        Known::Exactly(Verdict::Win),
        Known::Exactly(Verdict::Draw),
        Known::Exactly(Verdict::Loss),
        Known::AtLeastDraw,
        Known::AtMostDraw,
        Known::Nothing,
    ]
    .into_iter()
    .find(|known| known_column(*known) == text)
    .ok_or_else(|| format!("{text:?} is not a value"))
}
