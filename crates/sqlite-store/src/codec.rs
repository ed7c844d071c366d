//! The core's values as columns, and columns back as values. Writing cannot fail: every
//! value the core hands over has a column form. Reading checks everything, because a
//! file is data (another version of the program, or a person with a SQL prompt, may
//! have written it): what does not make a valid value is an error naming the game,
//! never a panic.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::Row;
use tictactoe_core::domain::{Geometry, Mark, Outcome, PlayerName};
use tictactoe_core::play::{Seating, Settings};
use tictactoe_core::players::{Level, PlayerSpec};
use tictactoe_core::ports::{Change, Ending, GameId, NewGame, SeatLock, Step};

/// The columns of `games` that [`GameRow::read`] reads, in its order.
pub(crate) const GAME_COLUMNS: &str = "id, x_kind, x_name, x_level, o_kind, o_name, o_level, \
     size, win, first, seating, x_lock, o_lock, follows, started_at, ended_at, ending";

/// One side's columns: kind, name, level.
pub(crate) type SideColumns = (String, Option<String>, Option<String>);

/// A row of `games` as stored, before it is checked.
pub(crate) struct GameRow {
    pub(crate) id: String,
    sides: [SideColumns; 2],
    size: i64,
    win: i64,
    first: String,
    seating: String,
    locks: [Option<String>; 2],
    follows: Option<String>,
    pub(crate) started_at: i64,
    pub(crate) ended_at: Option<i64>,
    ending: Option<String>,
}

impl GameRow {
    /// Reads a row selected with [`GAME_COLUMNS`].
    pub(crate) fn read(row: &Row<'_>) -> rusqlite::Result<GameRow> {
        Ok(GameRow {
            id: row.get(0)?,
            sides: [
                (row.get(1)?, row.get(2)?, row.get(3)?),
                (row.get(4)?, row.get(5)?, row.get(6)?),
            ],
            size: row.get(7)?,
            win: row.get(8)?,
            first: row.get(9)?,
            seating: row.get(10)?,
            locks: [row.get(11)?, row.get(12)?],
            follows: row.get(13)?,
            started_at: row.get(14)?,
            ended_at: row.get(15)?,
            ending: row.get(16)?,
        })
    }

    /// The game as it was begun.
    pub(crate) fn new_game(&self) -> Result<NewGame, String> {
        let id = GameId::parse(&self.id).map_err(|e| format!("its id: {e}"))?;
        let [x, o] = &self.sides;
        let geometry = geometry(self.size, self.win)?;
        let settings = Settings::new(
            spec(Mark::X, x)?,
            spec(Mark::O, o)?,
            mark(&self.first)?,
            geometry,
        )
        .map_err(|e| e.to_string())?;
        let lock = |text: &Option<String>| {
            text.as_deref()
                .map(SeatLock::parse)
                .transpose()
                .map_err(|e| e.to_string())
        };
        Ok(NewGame {
            id,
            settings,
            seating: seating(&self.seating)?,
            locks: [lock(&self.locks[0])?, lock(&self.locks[1])?],
            follows: self
                .follows
                .as_deref()
                .map(GameId::parse)
                .transpose()
                .map_err(|e| format!("the game it follows: {e}"))?,
        })
    }

    pub(crate) fn ending(&self) -> Result<Option<Ending>, String> {
        self.ending.as_deref().map(ending).transpose()
    }

    pub(crate) fn geometry(&self) -> Result<Geometry, String> {
        geometry(self.size, self.win)
    }
}

/// One side's columns: `('human', name or NULL, NULL)` or `('computer', NULL, level)`.
pub(crate) fn side_columns(
    spec: &PlayerSpec,
) -> (&'static str, Option<&str>, Option<&'static str>) {
    match spec {
        PlayerSpec::Human(name) => ("human", name.as_ref().map(PlayerName::as_str), None),
        PlayerSpec::Computer(level) => ("computer", None, Some(level.id())),
    }
}

/// Who played one side, from its columns. Also used by the migration that counts the
/// games finished before there were tallies.
pub(crate) fn spec(mark: Mark, (kind, name, level): &SideColumns) -> Result<PlayerSpec, String> {
    match (kind.as_str(), name.as_deref(), level.as_deref()) {
        ("human", None, None) => Ok(PlayerSpec::Human(None)),
        // `stored`, not `new`: what was kept is read back even if the rules for new
        // names have changed since.
        ("human", Some(name), None) => PlayerName::stored(name)
            .map(|name| PlayerSpec::Human(Some(name)))
            .map_err(|e| format!("{mark}'s name: {e}")),
        ("computer", None, Some(level)) => Level::from_id(level)
            .map(PlayerSpec::Computer)
            .ok_or_else(|| format!("{mark}'s level {level:?} is not a level")),
        _ => Err(format!(
            "{mark}'s player ({kind:?}, {name:?}, {level:?}) is neither a person nor a computer"
        )),
    }
}

pub(crate) fn geometry(size: i64, win: i64) -> Result<Geometry, String> {
    let (Ok(size), Ok(win)) = (usize::try_from(size), usize::try_from(win)) else {
        return Err(format!(
            "a {size} x {size} board, {win} to win, is no board"
        ));
    };
    Geometry::new(size, win).map_err(|e| e.to_string())
}

pub(crate) fn mark_column(mark: Mark) -> &'static str {
    match mark {
        Mark::X => "X",
        Mark::O => "O",
    }
}

pub(crate) fn mark(text: &str) -> Result<Mark, String> {
    match text {
        "X" => Ok(Mark::X),
        "O" => Ok(Mark::O),
        _ => Err(format!("{text:?} is not a mark")),
    }
}

pub(crate) fn seating_column(seating: Seating) -> &'static str {
    match seating {
        Seating::Together => "together",
        Seating::Apart => "apart",
    }
}

fn seating(text: &str) -> Result<Seating, String> {
    match text {
        "together" => Ok(Seating::Together),
        "apart" => Ok(Seating::Apart),
        _ => Err(format!("{text:?} is not a seating")),
    }
}

/// The `ending` column's values. Each is a whole sentence such as `X won`, so that a
/// person reading the table with a SQL prompt needs no key.
pub(crate) fn ending_column(ending: Ending) -> &'static str {
    match ending {
        Ending::Finished(Outcome::Draw) => "draw",
        Ending::Finished(Outcome::Won(Mark::X)) => "X won",
        Ending::Finished(Outcome::Won(Mark::O)) => "O won",
        Ending::Resigned(Mark::X) => "X resigned",
        Ending::Resigned(Mark::O) => "O resigned",
        Ending::Abandoned(Mark::X) => "X abandoned",
        Ending::Abandoned(Mark::O) => "O abandoned",
    }
}

pub(crate) fn ending(text: &str) -> Result<Ending, String> {
    [
        Ending::Finished(Outcome::Draw),
        Ending::Finished(Outcome::Won(Mark::X)),
        Ending::Finished(Outcome::Won(Mark::O)),
        Ending::Resigned(Mark::X),
        Ending::Resigned(Mark::O),
        Ending::Abandoned(Mark::X),
        Ending::Abandoned(Mark::O),
    ]
    .into_iter()
    .find(|ending| ending_column(*ending) == text)
    .ok_or_else(|| format!("{text:?} is not an ending"))
}

/// A step's columns: `(cell, NULL)` for a move, `(NULL, moves)` for an undo.
pub(crate) fn change_columns(change: Change) -> (Option<i64>, Option<i64>) {
    match change {
        Change::Move(position) => (Some(position.index() as i64), None),
        Change::Undo { moves } => (None, Some(i64::from(moves))),
    }
}

/// A step from its columns, on a board of `geometry`.
pub(crate) fn step(
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

/// Milliseconds since 1970 by the store's clock: what `started_at` and `ended_at` hold.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| {
            i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
        })
}

pub(crate) fn time(ms: i64) -> Result<SystemTime, String> {
    u64::try_from(ms)
        .ok()
        .and_then(|ms| UNIX_EPOCH.checked_add(Duration::from_millis(ms)))
        .ok_or_else(|| format!("{ms} is not a time"))
}

/// A count as stored: SQLite's integers are signed 64-bit, so a count beyond them
/// (possible only in an imported file) is kept as the largest, as counts saturate.
pub(crate) fn count_column(count: u64) -> i64 {
    i64::try_from(count).unwrap_or(i64::MAX)
}

pub(crate) fn count(value: i64) -> Result<u64, String> {
    u64::try_from(value).map_err(|_| format!("a count of {value}"))
}
