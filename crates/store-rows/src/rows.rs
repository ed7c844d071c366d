//! The rows of the stores' tables as stored, before and after they are checked: a
//! game's row, its steps' columns, times and counts. The tables themselves (their SQL
//! types, keys and indexes) are each store's own, in its migrations; the columns, and
//! what each may hold, are the same in both.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tictactoe_core::domain::{Geometry, Mark, Record};
use tictactoe_core::play::Settings;
use tictactoe_core::players::PlayerSpec;
use tictactoe_core::ports::{Change, Ending, GameId, NewGame, Step};
use tictactoe_core::rules::exactly_once::Movers;
use tictactoe_core::rules::names_of;

use crate::clocks::BegunClock;
use crate::words;

/// The columns of `games` a [`GameRow`] holds, in its order: a store selects these and
/// reads them into one.
pub const GAME_COLUMNS: &str = "id, x_kind, x_name, x_level, o_kind, o_name, o_level, \
     size, win, first, seating, x_lock, o_lock, follows, started_at, ended_at, ending, casual, \
     x_holder, o_holder, clock_end, clock_control, clock_initial_ns, clock_increment_ns, \
     clock_first_move_ns, clock_x_left_ns, clock_o_left_ns, clock_turn, clock_since_ns, \
     clock_moves";

/// How many columns [`GAME_COLUMNS`] names: where the columns a query selects after
/// them begin.
pub const GAME_COLUMN_COUNT: usize = 30;

/// One side's columns: kind, name, level.
pub type SideColumns = (String, Option<String>, Option<String>);

/// A row of `games` as stored ([`GAME_COLUMNS`]), before it is checked.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameRow {
    pub id: String,
    /// X's columns, then O's.
    pub sides: [SideColumns; 2],
    pub size: i64,
    pub win: i64,
    pub first: String,
    pub seating: String,
    /// X's seat lock, then O's: a guest's, or an invite's.
    pub locks: [Option<String>; 2],
    pub follows: Option<String>,
    /// Milliseconds since 1970, by the store's clock.
    pub started_at: i64,
    pub ended_at: Option<i64>,
    pub ending: Option<String>,
    /// Whether the game rates nobody ([`NewGame::casual`]); rows of news sent before
    /// the column was kept say nothing, and were not casual.
    #[cfg_attr(feature = "serde", serde(default))]
    pub casual: bool,
    /// Whose X's seat is, then O's ([`words::holder_columns`]); rows kept (and news
    /// sent) before holders were say nothing ([`words::holder`]).
    #[cfg_attr(feature = "serde", serde(default))]
    pub holders: [Option<String>; 2],
    /// How the clock ended the game, beside the result it counts as in `ending`
    /// ([`words::ending_columns`]); NULL for every other ending.
    #[cfg_attr(feature = "serde", serde(default))]
    pub clock_end: Option<String>,
    /// The clock the game began with (rows kept, and news sent, before there were
    /// clocks say nothing: no clock).
    #[cfg_attr(feature = "serde", serde(default))]
    pub clock: BegunClock,
}

impl GameRow {
    /// The row `new` is kept as, begun at `started_at`: not ended.
    pub fn begun(new: &NewGame, started_at: i64) -> GameRow {
        let settings = &new.settings;
        let geometry = settings.geometry();
        let side = |mark: Mark| {
            let (kind, name, level) = words::side_columns(settings.player(mark));
            (
                kind.to_owned(),
                name.map(str::to_owned),
                level.map(str::to_owned),
            )
        };
        GameRow {
            id: new.id.to_string(),
            sides: [side(Mark::X), side(Mark::O)],
            size: geometry.size() as i64,
            win: geometry.win_length() as i64,
            first: words::mark_word(settings.first()).to_owned(),
            seating: words::seating_word(new.seating).to_owned(),
            locks: new
                .seats
                .each_ref()
                .map(|holder| words::holder_columns(holder).1.map(str::to_owned)),
            follows: new.follows.as_ref().map(GameId::to_string),
            started_at,
            ended_at: None,
            ending: None,
            casual: new.casual,
            holders: new
                .seats
                .each_ref()
                .map(|holder| Some(words::holder_columns(holder).0.to_owned())),
            clock_end: None,
            clock: BegunClock::of(new.clock.as_ref()),
        }
    }

    /// The game as it was begun.
    pub fn new_game(&self) -> Result<NewGame, String> {
        let id = GameId::parse(&self.id).map_err(|e| format!("its id: {e}"))?;
        let settings = Settings::new(
            side(Mark::X, &self.sides[0])?,
            side(Mark::O, &self.sides[1])?,
            words::mark(&self.first)?,
            self.geometry()?,
        )
        .map_err(|e| e.to_string())?;
        let holder = |mark: Mark| {
            let at = mark.index();
            words::holder(mark, self.holders[at].as_deref(), self.locks[at].as_deref())
        };
        Ok(NewGame {
            id,
            settings,
            seating: words::seating(&self.seating)?,
            seats: [holder(Mark::X)?, holder(Mark::O)?],
            follows: self
                .follows
                .as_deref()
                .map(GameId::parse)
                .transpose()
                .map_err(|e| format!("the game it follows: {e}"))?,
            casual: self.casual,
            clock: self.clock.clock()?,
        })
    }

    /// How the game ended, or `None` while it is played: its result, and how the clock
    /// ended it (see [`words::ending_columns`]).
    pub fn ending(&self) -> Result<Option<Ending>, String> {
        match (self.ending.as_deref(), self.clock_end.as_deref()) {
            (None, None) => Ok(None),
            (Some(word), clock_end) => words::ending(word, clock_end).map(Some),
            (None, Some(clock_end)) => {
                Err(format!("ended by the clock ({clock_end:?}) but not ended"))
            }
        }
    }

    /// The board it is played on.
    pub fn geometry(&self) -> Result<Geometry, String> {
        geometry(self.size, self.win)
    }
}

/// Who played side `mark`, from its columns. (Also what the SQLite store's migrations
/// read the games kept before there were tallies with.)
pub fn side(mark: Mark, (kind, name, level): &SideColumns) -> Result<PlayerSpec, String> {
    words::spec(mark, kind, name.as_deref(), level.as_deref())
}

/// The name keys (`x_key`, `o_key`) a game of `settings` is filed under: its players as
/// the scoreboard compares them.
pub fn keys(settings: &Settings) -> [String; 2] {
    names_of(settings).map(|name| name.key())
}

/// A board from its `size` and `win` columns.
pub fn geometry(size: i64, win: i64) -> Result<Geometry, String> {
    let (Ok(size), Ok(win)) = (usize::try_from(size), usize::try_from(win)) else {
        return Err(format!(
            "a {size} x {size} board, {win} to win, is no board"
        ));
    };
    Geometry::new(size, win).map_err(|e| e.to_string())
}

/// A step's columns `cell` and `undo`: `(cell, NULL)` for a move, `(NULL, moves)` for
/// an undo.
pub fn change_columns(change: Change) -> (Option<i64>, Option<i64>) {
    match change {
        Change::Move(position) => (Some(position.index() as i64), None),
        Change::Undo { moves } => (None, Some(i64::from(moves))),
    }
}

/// A step from its columns, on a board of `geometry`.
pub fn step(
    geometry: Geometry,
    number: i64,
    cell: Option<i64>,
    undo: Option<i64>,
) -> Result<Step, String> {
    let number = u32::try_from(number).map_err(|_| format!("step number {number}"))?;
    let change = match (cell, undo) {
        (Some(cell), None) => usize::try_from(cell)
            .ok()
            .and_then(|index| geometry.position(index))
            .map(Change::Move)
            .ok_or_else(|| {
                format!(
                    "step {number} plays cell {cell}, off the {0} x {0} board",
                    geometry.size()
                )
            })?,
        (None, Some(moves)) => u8::try_from(moves)
            .map(|moves| Change::Undo { moves })
            .map_err(|_| format!("step {number} takes back {moves} moves"))?,
        _ => return Err(format!("step {number} is neither a move nor an undo")),
    };
    Ok(Step { number, change })
}

/// A step's columns as stored: its number, the cell played (none for an undo), and the
/// step it undid (none for a move).
pub type StepColumns = (i64, Option<i64>, Option<i64>);

/// Who has moved in a game on `geometry` that `first` moves first in, from its steps'
/// columns (number, cell, undo) in number order: what a `Name` write is decided against.
pub fn movers(
    geometry: Geometry,
    first: Mark,
    steps: impl IntoIterator<Item = StepColumns>,
) -> Result<Movers, String> {
    let mut movers = Movers::new(first);
    for (number, cell, undo) in steps {
        movers.take(step(geometry, number, cell, undo)?.change);
    }
    Ok(movers)
}

/// The columns of `games` that hold the name of the person at `mark`, and its key (see
/// [`keys`]).
pub fn name_columns(mark: Mark) -> (&'static str, &'static str) {
    match mark {
        Mark::X => ("x_name", "x_key"),
        Mark::O => ("o_name", "o_key"),
    }
}

/// The columns of `games` that say whose the seat at `mark` is, and the lock of its
/// secret (see [`words::holder_columns`]).
pub fn holder_columns(mark: Mark) -> (&'static str, &'static str) {
    match mark {
        Mark::X => ("x_holder", "x_lock"),
        Mark::O => ("o_holder", "o_lock"),
    }
}

/// The last millisecond a time column may hold: 9999-12-31T23:59:59.999Z, the last
/// one RFC 3339 (the JSON's times) can write.
pub const LAST_TIME_MS: u64 = 253_402_300_799_999;

/// A time column (`started_at`, `ended_at`): milliseconds since 1970, up to
/// [`LAST_TIME_MS`].
pub fn time(ms: i64) -> Result<SystemTime, String> {
    u64::try_from(ms)
        .ok()
        .filter(|&ms| ms <= LAST_TIME_MS)
        .and_then(|ms| UNIX_EPOCH.checked_add(Duration::from_millis(ms)))
        .ok_or_else(|| format!("{ms} is not a time"))
}

/// A time as a time column keeps it: milliseconds since 1970, cut to the whole
/// millisecond (a time before 1970 is 0; one past the largest the column holds is the
/// largest).
pub fn time_column(time: SystemTime) -> i64 {
    let ms = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_millis());
    i64::try_from(ms).unwrap_or(i64::MAX)
}

/// A count as stored: the databases' integers are signed 64-bit, so a count beyond them
/// (possible only in an imported file) is kept as the largest, as counts saturate.
pub fn count_column(count: u64) -> i64 {
    i64::try_from(count).unwrap_or(i64::MAX)
}

/// A count read back.
pub fn count(value: i64) -> Result<u64, String> {
    u64::try_from(value).map_err(|_| format!("a count of {value}"))
}

/// A record's counts as stored: wins, losses, ties.
pub fn record_columns(record: Record) -> [i64; 3] {
    [record.wins, record.losses, record.ties].map(count_column)
}

/// A record from its counts: wins, losses, ties (a NULL, from a sum over no rows, is 0).
pub fn record([wins, losses, ties]: [Option<i64>; 3]) -> Result<Record, String> {
    let count = |value: Option<i64>| count(value.unwrap_or(0));
    Ok(Record {
        wins: count(wins)?,
        losses: count(losses)?,
        ties: count(ties)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[rstest::rstest]
    #[case::the_start(0, true)]
    #[case::the_last_time_rfc_3339_writes(LAST_TIME_MS as i64, true)]
    #[case::a_millisecond_later(LAST_TIME_MS as i64 + 1, false)]
    #[case::before_1970(-1, false)]
    #[case::the_largest(i64::MAX, false)]
    fn a_time_column_is_read_only_where_every_front_end_can_write_it(
        #[case] ms: i64,
        #[case] read: bool,
    ) {
        assert_eq!(time(ms).is_ok(), read);
    }
}
