//! A game read back whole, the history of the ended games, a player's opponents, and
//! the reviews: the [`GameHistory`] and [`ReviewStore`] ports, read from the tables
//! and indexes of `migrations/0001_games_scoreboard_history.sql`.

use tictactoe_core::domain::{Known, PlayerName, Record, Verdict};
use tictactoe_core::play::{MoveReview, Review};
use tictactoe_core::ports::{
    GameHistory, GameId, GameStore, GameSummary, HistoryPage, HistoryQuery, IdPrefix, Opponents,
    ReviewStore, Rivalry, StoreError, StoredGame, check_review,
};

use crate::PostgresStore;
use crate::codec::{self, GAME_COLUMNS, GameRow};
use crate::errors::{Database, Failure};

/// The moves that stand at the end of game `games.id`: each move adds one, each undo
/// takes its moves back.
const MOVES: &str = "(SELECT coalesce(sum(CASE WHEN cell IS NOT NULL THEN 1 ELSE -undo END), 0)::bigint \
     FROM steps WHERE steps.game = games.id)";

/// Past every game in a history's order: `(started_at, id)` below it is every game.
const NEWEST: (i64, &str) = (i64::MAX, "~");

/// Game `id` as kept, read in the transaction `tx`.
/// The statement that reads a whole game: its row, its rematch's id, and its steps in
/// order as three arrays. One statement, so one round trip, and a view of one moment
/// without a transaction: a server reads a game back each time another server began it.
pub(crate) fn game_statement() -> String {
    format!(
        "SELECT {GAME_COLUMNS}, (SELECT r.id FROM games r WHERE r.follows = games.id), \
         s.numbers, s.cells, s.undos \
         FROM games LEFT JOIN LATERAL ( \
             SELECT array_agg(number ORDER BY number) AS numbers, \
                    array_agg(cell ORDER BY number) AS cells, \
                    array_agg(undo ORDER BY number) AS undos \
             FROM steps WHERE steps.game = games.id) s ON true \
         WHERE games.id = $1"
    )
}

/// Game `id` from the row [`game_statement`] selected.
pub(crate) fn game(
    row: Option<postgres::Row>,
    id: &GameId,
    database: &Database,
) -> Result<Option<StoredGame>, Failure> {
    let unreadable =
        |detail: String| Failure::Store(database.unreadable(format!("game {id}: {detail}")));
    let Some(row) = row else {
        return Ok(None);
    };
    let kept = GameRow::read(&row, 0).map_err(|e| database.column(e))?;
    let rematch: Option<String> = row.try_get(17).map_err(|e| database.column(e))?;
    let numbers: Option<Vec<i64>> = row.try_get(18).map_err(|e| database.column(e))?;
    let cells: Option<Vec<Option<i64>>> = row.try_get(19).map_err(|e| database.column(e))?;
    let undos: Option<Vec<Option<i64>>> = row.try_get(20).map_err(|e| database.column(e))?;
    let geometry = kept.geometry().map_err(unreadable)?;
    let (numbers, cells, undos) = (
        numbers.unwrap_or_default(),
        cells.unwrap_or_default(),
        undos.unwrap_or_default(),
    );
    if cells.len() != numbers.len() || undos.len() != numbers.len() {
        return Err(unreadable("its steps' columns differ in length".into()));
    }
    let mut steps = Vec::with_capacity(numbers.len());
    for ((number, cell), undo) in numbers.into_iter().zip(cells).zip(undos) {
        let step = codec::step(geometry, number, cell, undo).map_err(unreadable)?;
        if step.number as usize != steps.len() + 1 {
            return Err(unreadable(format!(
                "step {} follows step {}",
                step.number,
                steps.len()
            )));
        }
        steps.push(step);
    }
    Ok(Some(StoredGame {
        game: kept.new_game().map_err(unreadable)?,
        ending: kept.ending().map_err(unreadable)?,
        started: codec::time(kept.started_at).map_err(unreadable)?,
        ended: kept
            .ended_at
            .map(codec::time)
            .transpose()
            .map_err(unreadable)?,
        rematch: rematch
            .map(|rematch| GameId::parse(&rematch))
            .transpose()
            .map_err(|e| unreadable(format!("its rematch: {e}")))?,
        steps,
    }))
}

impl GameHistory for PostgresStore {
    fn history(&self, query: &HistoryQuery) -> Result<HistoryPage, StoreError> {
        let database = &self.database;
        self.read(|tx| {
            let (started, id) = match &query.before {
                None => (NEWEST.0, NEWEST.1.to_string()),
                Some(before) => {
                    let row = tx.query_opt(
                        "SELECT started_at FROM games WHERE id = $1",
                        &[&before.as_str()],
                    )?;
                    let row = row.ok_or_else(|| StoreError::NoSuchGame(before.clone()))?;
                    let started: i64 = row.try_get(0).map_err(|e| database.column(e))?;
                    (started, before.as_str().to_string())
                }
            };
            // One more than asked for: whether there is a next page.
            let limit = i64::from(query.limit.get()) + 1;
            let older = "ending IS NOT NULL AND (started_at, id) < ($1, $2)";
            let order = "ORDER BY started_at DESC, id DESC";
            let columns = format!("{GAME_COLUMNS}, {MOVES}");
            let rows = match &query.player {
                None => tx.query(
                    &format!("SELECT {columns} FROM games WHERE {older} {order} LIMIT $3"),
                    &[&started, &id, &limit],
                )?,
                // Each side's index read newest first, the two merged: a game is read
                // once even if both its players have the name (two computers).
                Some(player) => tx.query(
                    &format!(
                        "SELECT * FROM (SELECT {columns} FROM games WHERE x_key = $4 \
                         AND {older} {order} LIMIT $3) AS by_x \
                         UNION SELECT * FROM (SELECT {columns} FROM games WHERE o_key = $4 \
                         AND {older} {order} LIMIT $3) AS by_o \
                         {order} LIMIT $3"
                    ),
                    &[&started, &id, &limit, &player.key()],
                )?,
            };
            let mut games = rows
                .iter()
                .map(|row| summary(row, database))
                .collect::<Result<Vec<_>, _>>()?;
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
                        .map_err(|e| database.unreadable(format!("game {id:?}: {e}")).into())
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
            for row in tx.query(
                "SELECT rival, wins, losses, ties FROM rivalries WHERE key = $1 \
                 ORDER BY wins + losses + ties DESC, rival_key LIMIT $2",
                &[&key, &i64::from(limit)],
            )? {
                let rival: String = row.try_get(0).map_err(|e| database.column(e))?;
                most_played.push(Rivalry {
                    opponent: PlayerName::stored(&rival)
                        .map_err(|e| unreadable(format!("the name {rival:?}: {e}")))?,
                    record: record(&row, 1, database)?.map_err(unreadable)?,
                });
            }
            // The whole record and how many opponents. Summed as NUMERIC (no overflow)
            // and capped at BIGINT's largest: counts saturate, as everywhere.
            let row = tx.query_one(
                "SELECT count(*), \
                 least(coalesce(sum(wins), 0), 9223372036854775807)::bigint, \
                 least(coalesce(sum(losses), 0), 9223372036854775807)::bigint, \
                 least(coalesce(sum(ties), 0), 9223372036854775807)::bigint \
                 FROM rivalries WHERE key = $1",
                &[&key],
            )?;
            let opponents: i64 = row.try_get(0).map_err(|e| database.column(e))?;
            Ok(Opponents {
                others: codec::count(opponents)
                    .map_err(unreadable)?
                    .saturating_sub(most_played.len() as u64),
                total: record(&row, 1, database)?.map_err(unreadable)?,
                most_played,
            })
        })
    }
}

/// Three counts from `row`, from column `first` on: wins, losses, ties (none, 0).
fn record(
    row: &postgres::Row,
    first: usize,
    database: &Database,
) -> Result<Result<Record, String>, Failure> {
    let mut counts = [0u64; 3];
    for (offset, count) in counts.iter_mut().enumerate() {
        let value: Option<i64> = row
            .try_get(first + offset)
            .map_err(|e| database.column(e))?;
        match codec::count(value.unwrap_or(0)) {
            Ok(value) => *count = value,
            Err(detail) => return Ok(Err(detail)),
        }
    }
    let [wins, losses, ties] = counts;
    Ok(Ok(Record { wins, losses, ties }))
}

/// An ended game's summary, from a row of `GAME_COLUMNS` and `MOVES`.
fn summary(row: &postgres::Row, database: &Database) -> Result<GameSummary, Failure> {
    let game = GameRow::read(row, 0).map_err(|e| database.column(e))?;
    let moves: i64 = row.try_get(17).map_err(|e| database.column(e))?;
    let unreadable =
        |detail: String| Failure::Store(database.unreadable(format!("game {}: {detail}", game.id)));
    let new = game.new_game().map_err(unreadable)?;
    let (Some(ending), Some(ended)) = (game.ending().map_err(unreadable)?, game.ended_at) else {
        return Err(unreadable("an ended game without its end".to_string()));
    };
    Ok(GameSummary {
        id: new.id,
        settings: new.settings,
        started: codec::time(game.started_at).map_err(unreadable)?,
        ended: codec::time(ended).map_err(unreadable)?,
        ending,
        moves: u32::try_from(moves).map_err(|_| unreadable(format!("{moves} moves stand")))?,
    })
}

impl ReviewStore for PostgresStore {
    fn review(&self, game: &GameId) -> Result<Option<Review>, StoreError> {
        let database = &self.database;
        let unreadable =
            |detail: String| Failure::Store(database.unreadable(format!("game {game}: {detail}")));
        self.read(|tx| {
            let Some(row) = tx.query_opt(
                "SELECT size, win FROM games WHERE id = $1",
                &[&game.as_str()],
            )?
            else {
                return Ok(None);
            };
            let geometry = codec::geometry(
                row.try_get(0).map_err(|e| database.column(e))?,
                row.try_get(1).map_err(|e| database.column(e))?,
            )
            .map_err(unreadable)?;
            let mut moves = Vec::new();
            for row in tx.query(
                "SELECT ply, mark, cell, before, after, best_moves FROM reviews \
                 WHERE game = $1 ORDER BY ply",
                &[&game.as_str()],
            )? {
                let ply: i64 = row.try_get(0).map_err(|e| database.column(e))?;
                let mark: String = row.try_get(1).map_err(|e| database.column(e))?;
                let cell: i64 = row.try_get(2).map_err(|e| database.column(e))?;
                let before: String = row.try_get(3).map_err(|e| database.column(e))?;
                let after: String = row.try_get(4).map_err(|e| database.column(e))?;
                let best: String = row.try_get(5).map_err(|e| database.column(e))?;
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
                    mark: codec::mark(&mark).map_err(unreadable)?,
                    cell: position(&cell.to_string())?,
                    before: known(&before).map_err(unreadable)?,
                    after: known(&after).map_err(unreadable)?,
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
        let plies: Vec<i64> = review.moves.iter().map(|m| i64::from(m.ply)).collect();
        let marks: Vec<&str> = review
            .moves
            .iter()
            .map(|m| codec::mark_column(m.mark))
            .collect();
        let cells: Vec<i64> = review.moves.iter().map(|m| m.cell.index() as i64).collect();
        let befores: Vec<&str> = review
            .moves
            .iter()
            .map(|m| known_column(m.before))
            .collect();
        let afters: Vec<&str> = review.moves.iter().map(|m| known_column(m.after)).collect();
        let bests: Vec<String> = review
            .moves
            .iter()
            .map(|m| {
                m.best_moves
                    .iter()
                    .map(|cell| cell.index().to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect();
        self.transact(false, Some(game), |tx| {
            // A review kept meanwhile (by another server) stays: the first is kept.
            tx.execute(
                "INSERT INTO reviews (game, ply, mark, cell, before, after, best_moves) \
                 SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::bigint[], $5::text[], \
                 $6::text[], $7::text[]) ON CONFLICT (game, ply) DO NOTHING",
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
