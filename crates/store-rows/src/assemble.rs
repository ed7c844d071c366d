//! The port's values put together from rows: a game read back whole, an ended game's
//! summary and a history's page, a review, a scoreboard's row, a player's opponents.
//! Each store selects the rows with its own SQL and hands them here; what is checked,
//! and how, is the same for both.

use tictactoe_core::domain::{Geometry, PlayerName, Standing};
use tictactoe_core::play::{MoveReview, Review};
use tictactoe_core::ports::{
    GameId, GameSummary, HistoryPage, HistoryQuery, Opponents, Rivalry, StoreError, StoredGame,
};

use crate::clocks::ClockColumns;
use crate::rows::{self, GameRow};
use crate::words;

/// A game read back whole: its `row`, the id of its rematch (the game that follows it,
/// if any), its steps' columns (number, cell, undo) in number order, which must be
/// numbered from 1 without gaps, and its clock as last kept (its row of `clocks`),
/// which a game has if and only if it began with one.
pub fn stored_game(
    row: &GameRow,
    rematch: Option<&str>,
    steps: impl IntoIterator<Item = (i64, Option<i64>, Option<i64>)>,
    clock: Option<&ClockColumns>,
) -> Result<StoredGame, String> {
    let geometry = row.geometry()?;
    let mut kept = Vec::new();
    for (number, cell, undo) in steps {
        let step = rows::step(geometry, number, cell, undo)?;
        if step.number as usize != kept.len() + 1 {
            return Err(format!("step {} follows step {}", step.number, kept.len()));
        }
        kept.push(step);
    }
    let game = row.new_game()?;
    let clock = match (clock, &game.clock) {
        (Some(kept), Some(_)) => Some(kept.clock()?),
        (None, None) => None,
        (Some(_), None) => return Err("a clock kept for a game begun without one".to_string()),
        (None, Some(_)) => return Err("its clock is missing".to_string()),
    };
    Ok(StoredGame {
        game,
        steps: kept,
        ending: row.ending()?,
        started: rows::time(row.started_at)?,
        ended: row.ended_at.map(rows::time).transpose()?,
        rematch: rematch
            .map(GameId::parse)
            .transpose()
            .map_err(|e| format!("its rematch: {e}"))?,
        clock,
    })
}

/// Past every game in a history's order (newest first: by `started_at`, then by id):
/// the first page's cursor, below which `(started_at, id)` is every game.
pub const NEWEST: (i64, &str) = (i64::MAX, "~");

/// A history's order as SQL: newest first, by `started_at`, then by id (the order
/// [`NEWEST`] and the cursor count down in, and the stores' history indexes hold).
pub const NEWEST_FIRST: &str = "ORDER BY started_at DESC, id DESC";

/// Where the page of `query` starts, as `(started_at, id)`: its games are those below it
/// in a history's order. That is [`NEWEST`] for the first page, else the place of the
/// game the cursor names (`before`), whose `started_at` the store reads with
/// `started_at_of`: a game it does not hold is [`StoreError::NoSuchGame`].
pub fn cursor<E: From<StoreError>>(
    query: &HistoryQuery,
    started_at_of: impl FnOnce(&GameId) -> Result<Option<i64>, E>,
) -> Result<(i64, String), E> {
    let Some(before) = &query.before else {
        return Ok((NEWEST.0, NEWEST.1.to_string()));
    };
    let started = started_at_of(before)?.ok_or_else(|| StoreError::NoSuchGame(before.clone()))?;
    Ok((started, before.as_str().to_string()))
}

/// How many summaries a store selects for one page of `query`: one more than asked
/// for, which says whether there is a next page.
pub fn rows_for_a_page(query: &HistoryQuery) -> i64 {
    i64::from(query.limit.get()) + 1
}

/// An ended game's summary, from its row and the moves that stand at its end.
pub fn summary(row: &GameRow, moves: i64) -> Result<GameSummary, String> {
    let new = row.new_game()?;
    let (Some(ending), Some(ended)) = (row.ending()?, row.ended_at) else {
        return Err("an ended game without its end".to_string());
    };
    Ok(GameSummary {
        id: new.id,
        settings: new.settings,
        started: rows::time(row.started_at)?,
        ended: rows::time(ended)?,
        ending,
        moves: u32::try_from(moves).map_err(|_| format!("{moves} moves stand"))?,
    })
}

/// The page of `query` from the summaries selected for it, newest first (at most
/// [`rows_for_a_page`]): the next page starts after its last game when there were more.
pub fn page(mut games: Vec<GameSummary>, query: &HistoryQuery) -> HistoryPage {
    let limit = query.limit.get() as usize;
    let more = games.len() > limit;
    games.truncate(limit);
    let next = if more {
        games.last().map(|last| last.id.clone())
    } else {
        None
    };
    HistoryPage { games, next }
}

/// The columns of `reviews` a [`ReviewRow`] holds, in its order.
pub const REVIEW_COLUMNS: &str = "ply, mark, cell, before, after, best_moves";

/// One row of `reviews` ([`REVIEW_COLUMNS`]): one reviewed move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewRow {
    /// The move's number in the game, from 1.
    pub ply: i64,
    pub mark: String,
    pub cell: i64,
    pub before: String,
    pub after: String,
    /// The best cells, by index, separated by commas (none: empty).
    pub best_moves: String,
}

impl ReviewRow {
    /// The row `reviewed` is kept as.
    pub fn of(reviewed: &MoveReview) -> ReviewRow {
        ReviewRow {
            ply: i64::from(reviewed.ply),
            mark: words::mark_word(reviewed.mark).to_owned(),
            cell: reviewed.cell.index() as i64,
            before: words::known_word(reviewed.before).to_owned(),
            after: words::known_word(reviewed.after).to_owned(),
            best_moves: reviewed
                .best_moves
                .iter()
                .map(|cell| cell.index().to_string())
                .collect::<Vec<_>>()
                .join(","),
        }
    }
}

/// A game's review from its `reviews` rows in `ply` order, on the game's board: `None`
/// for a game with no review kept.
pub fn review(geometry: Geometry, rows: Vec<ReviewRow>) -> Result<Option<Review>, String> {
    let mut moves: Vec<MoveReview> = Vec::with_capacity(rows.len());
    for reviewed in rows {
        let ply = reviewed.ply;
        let position = |index: &str| {
            index
                .parse::<usize>()
                .ok()
                .and_then(|index| geometry.position(index))
                .ok_or_else(|| format!("review of move {ply}: cell {index:?}"))
        };
        moves.push(MoveReview {
            ply: u32::try_from(ply)
                .ok()
                .filter(|&ply| ply as usize == moves.len() + 1)
                .ok_or_else(|| format!("review of move {ply} out of order"))?,
            mark: words::mark(&reviewed.mark)?,
            cell: position(&reviewed.cell.to_string())?,
            before: words::known(&reviewed.before)?,
            after: words::known(&reviewed.after)?,
            best_moves: reviewed
                .best_moves
                .split(',')
                .filter(|index| !index.is_empty())
                .map(position)
                .collect::<Result<_, _>>()?,
        });
    }
    Ok((!moves.is_empty()).then_some(Review { moves }))
}

/// A scoreboard's row (`tallies`): the name as first spelled, and the counts.
pub fn standing(name: &str, counts: [i64; 3]) -> Result<Standing, String> {
    let row = |detail: String| format!("the scoreboard's row {name:?}: {detail}");
    Ok(Standing {
        name: PlayerName::stored(name).map_err(|e| row(e.to_string()))?,
        record: rows::record(counts.map(Some)).map_err(row)?,
    })
}

/// A player's results against one rival (a row of `rivalries`).
pub fn rivalry(rival: &str, counts: [i64; 3]) -> Result<Rivalry, String> {
    Ok(Rivalry {
        opponent: PlayerName::stored(rival).map_err(|e| format!("the name {rival:?}: {e}"))?,
        record: rows::record(counts.map(Some))?,
    })
}

/// A player's opponents: the `most_played` rivalries read, how many rivals there are in
/// all, and the sums of their counts (NULL, over no rows, is 0).
pub fn opponents(
    most_played: Vec<Rivalry>,
    rivals: i64,
    total: [Option<i64>; 3],
) -> Result<Opponents, String> {
    Ok(Opponents {
        others: rows::count(rivals)?.saturating_sub(most_played.len() as u64),
        total: rows::record(total)?,
        most_played,
    })
}
