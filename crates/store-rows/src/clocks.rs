//! A game's clock as the stores keep it, twice: as the game began (in `games`, its
//! columns prefixed `clock_`, each NULL for a game without one: [`BegunClock`]), and as
//! last kept (a row of `clocks`: [`ClockColumns`], with the step it follows and its
//! deadline, by which games overdue are found).
//!
//! Times and durations are kept in nanoseconds, not the milliseconds of `started_at`:
//! a clock reads back exactly as the core handed it over (a retried `Begin` is told
//! from another game by comparing the clock too, and a clock is started at the
//! nanosecond the front end read). Nanoseconds since 1970 reach 2262; a later time, or
//! a duration past 292 years, is kept as the largest (no clock lasts that long). What is
//! read back is checked by [`GameClock::restore`]: a clock no game could have had is an
//! error, never a clock guessed.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tictactoe_core::domain::{ClockParts, GameClock, TimeControl};

use crate::words;

/// The columns of `clocks` a [`ClockColumns`] holds, in its order; a store selects
/// them, and in `games` the same with the prefix `clock_` ([`BegunClock`]).
pub const CLOCK_COLUMNS: &str =
    "control, initial_ns, increment_ns, first_move_ns, x_left_ns, o_left_ns, turn, since_ns, moves";

/// A clock's columns: its time control (its word, the initial time or a move's, the
/// increment, NULL for a move at a time), how long a side may take over its first
/// move, each side's time left, whose turn since when, and the moves made.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ClockColumns {
    pub control: String,
    pub initial_ns: i64,
    pub increment_ns: Option<i64>,
    pub first_move_ns: i64,
    /// X's time left, then O's.
    pub left_ns: [i64; 2],
    pub turn: String,
    /// Nanoseconds since 1970.
    pub since_ns: i64,
    pub moves: i64,
}

impl ClockColumns {
    /// The columns `clock` is kept in.
    pub fn of(clock: &GameClock) -> ClockColumns {
        let parts = clock.parts();
        let (initial, increment) = match parts.control {
            TimeControl::Increment { initial, increment } => (initial, Some(increment)),
            TimeControl::PerMove(limit) => (limit, None),
        };
        ClockColumns {
            control: words::control_word(parts.control).to_owned(),
            initial_ns: duration_column(initial),
            increment_ns: increment.map(duration_column),
            first_move_ns: duration_column(parts.first_move_within),
            left_ns: parts.left.map(duration_column),
            turn: words::mark_word(parts.turn).to_owned(),
            since_ns: time_column(parts.since),
            moves: i64::from(parts.moves),
        }
    }

    /// The clock these columns keep, checked ([`GameClock::restore`]).
    pub fn clock(&self) -> Result<GameClock, String> {
        let initial = duration(self.initial_ns)?;
        let control = match (
            words::CONTROLS
                .iter()
                .position(|word| *word == self.control),
            self.increment_ns,
        ) {
            (Some(0), Some(increment)) => TimeControl::Increment {
                initial,
                increment: duration(increment)?,
            },
            (Some(1), None) => TimeControl::PerMove(initial),
            _ => {
                return Err(format!(
                    "a clock of control {:?} with increment {:?} is no time control",
                    self.control, self.increment_ns
                ));
            }
        };
        let parts = ClockParts {
            control,
            first_move_within: duration(self.first_move_ns)?,
            left: [duration(self.left_ns[0])?, duration(self.left_ns[1])?],
            turn: words::mark(&self.turn).map_err(|e| format!("its clock's turn: {e}"))?,
            since: time(self.since_ns)?,
            moves: u32::try_from(self.moves)
                .map_err(|_| format!("a clock of {} moves", self.moves))?,
        };
        GameClock::restore(parts).map_err(|e| e.to_string())
    }
}

/// The clock a game began with, as `games` holds it (its [`CLOCK_COLUMNS`] prefixed
/// `clock_`): every column NULL for a game played without one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BegunClock {
    pub control: Option<String>,
    pub initial_ns: Option<i64>,
    pub increment_ns: Option<i64>,
    pub first_move_ns: Option<i64>,
    pub left_ns: [Option<i64>; 2],
    pub turn: Option<String>,
    pub since_ns: Option<i64>,
    pub moves: Option<i64>,
}

impl BegunClock {
    /// The columns a game beginning with `clock` keeps it in.
    pub fn of(clock: Option<&GameClock>) -> BegunClock {
        let Some(clock) = clock else {
            return BegunClock::default();
        };
        let columns = ClockColumns::of(clock);
        BegunClock {
            control: Some(columns.control),
            initial_ns: Some(columns.initial_ns),
            increment_ns: columns.increment_ns,
            first_move_ns: Some(columns.first_move_ns),
            left_ns: columns.left_ns.map(Some),
            turn: Some(columns.turn),
            since_ns: Some(columns.since_ns),
            moves: Some(columns.moves),
        }
    }

    /// The clock the game began with, `None` for a game without one; one kept in part
    /// (some columns NULL, others not) is an error.
    pub fn clock(&self) -> Result<Option<GameClock>, String> {
        let BegunClock {
            control,
            initial_ns,
            increment_ns,
            first_move_ns,
            left_ns: [x_left_ns, o_left_ns],
            turn,
            since_ns,
            moves,
        } = self;
        match (
            control,
            initial_ns,
            first_move_ns,
            x_left_ns,
            o_left_ns,
            turn,
            since_ns,
            moves,
        ) {
            (None, None, None, None, None, None, None, None) if increment_ns.is_none() => Ok(None),
            (
                Some(control),
                Some(initial_ns),
                Some(first_move_ns),
                Some(x_left_ns),
                Some(o_left_ns),
                Some(turn),
                Some(since_ns),
                Some(moves),
            ) => ClockColumns {
                control: control.clone(),
                initial_ns: *initial_ns,
                increment_ns: *increment_ns,
                first_move_ns: *first_move_ns,
                left_ns: [*x_left_ns, *o_left_ns],
                turn: turn.clone(),
                since_ns: *since_ns,
                moves: *moves,
            }
            .clock()
            .map(Some),
            _ => Err("the clock it began with is kept in part".to_string()),
        }
    }
}

/// When `clock` is overdue ([`GameClock::deadline`]), as the column `deadline_ns` of
/// `clocks` keeps it: what the stores find games overdue by.
pub fn deadline_column(clock: &GameClock) -> i64 {
    time_column(clock.deadline())
}

/// A time as a clock's columns keep it: nanoseconds since 1970 (a time before is 0,
/// one past the largest the column holds the largest).
pub fn time_column(time: SystemTime) -> i64 {
    time.duration_since(UNIX_EPOCH).map_or(0, duration_column)
}

/// A duration as a clock's columns keep it: nanoseconds (one past the largest the
/// column holds is the largest).
pub fn duration_column(duration: Duration) -> i64 {
    i64::try_from(duration.as_nanos()).unwrap_or(i64::MAX)
}

/// A time from its column (see [`time_column`]).
pub fn time(ns: i64) -> Result<SystemTime, String> {
    u64::try_from(ns)
        .ok()
        .and_then(|ns| UNIX_EPOCH.checked_add(Duration::from_nanos(ns)))
        .ok_or_else(|| format!("a clock's time of {ns} ns since 1970"))
}

/// A duration from its column (see [`duration_column`]).
fn duration(ns: i64) -> Result<Duration, String> {
    u64::try_from(ns)
        .map(Duration::from_nanos)
        .map_err(|_| format!("a clock's time of {ns} ns"))
}

#[cfg(test)]
mod tests {
    use tictactoe_core::domain::{FIRST_MOVE_WITHIN, Mark};

    use super::*;

    /// A clock of 3+2 begun at a time with nanoseconds, X first, X then O moved.
    fn clock() -> GameClock {
        let at = UNIX_EPOCH + Duration::new(1_800_000_000, 123_456_789);
        let control = TimeControl::increment(Duration::from_secs(180), Duration::from_secs(2))
            .expect("a control");
        let mut clock = GameClock::start(control, FIRST_MOVE_WITHIN, Mark::X, at);
        clock.moved(at + Duration::from_nanos(7));
        clock.moved(at + Duration::from_millis(1500));
        clock
    }

    #[test]
    fn a_clock_reads_back_from_its_columns_to_the_nanosecond() {
        assert_eq!(ClockColumns::of(&clock()).clock(), Ok(clock()));
        assert_eq!(BegunClock::of(Some(&clock())).clock(), Ok(Some(clock())));
        assert_eq!(BegunClock::of(None).clock(), Ok(None));
    }

    #[rstest::rstest]
    #[case::a_control_that_is_none(|c: &mut ClockColumns| c.control = "fischer".into())]
    #[case::a_move_at_a_time_with_an_increment(|c: &mut ClockColumns| c.control = "per move".into())]
    #[case::a_negative_time(|c: &mut ClockColumns| c.left_ns[1] = -1)]
    #[case::more_time_than_the_control_gives(|c: &mut ClockColumns| c.left_ns[0] = i64::MAX)]
    #[case::no_turn(|c: &mut ClockColumns| c.turn = "Z".into())]
    #[case::a_negative_count_of_moves(|c: &mut ClockColumns| c.moves = -2)]
    fn columns_that_are_no_clock_are_an_error(#[case] spoil: fn(&mut ClockColumns)) {
        let mut columns = ClockColumns::of(&clock());
        spoil(&mut columns);

        assert!(columns.clock().is_err(), "{columns:?}");
    }

    #[test]
    fn a_begun_clock_kept_in_part_is_an_error() {
        let mut begun = BegunClock::of(Some(&clock()));
        begun.since_ns = None;

        assert_eq!(
            begun.clock(),
            Err("the clock it began with is kept in part".to_string())
        );
    }
}
