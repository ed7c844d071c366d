//! Time controls and a game's clock. Pure, like the rest of the domain: every instant is
//! given by whoever calls (a front end that reads its own clock), none is read here.
//!
//! A clock does not run until both sides have moved once: until then each side has
//! [`GameClock::first_move_within`] to make its first move, or the game is aborted (it
//! rates nobody). From then on the side to move spends its own time; a side whose time
//! runs out loses, unless the other side could no longer complete any line
//! ([`could_still_win`]), which is a draw.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, SystemTime};

use thiserror::Error;

use super::{Board, Mark};

/// The shortest time a control gives: a move, or a whole game's time.
pub const SHORTEST: Duration = Duration::from_secs(5);
/// The longest time for a whole game, each.
pub const LONGEST_GAME: Duration = Duration::from_secs(3 * 60 * 60);
/// The longest increment, or time for one move.
pub const LONGEST_MOVE: Duration = Duration::from_secs(24 * 60 * 60);
/// How long a side may take over its first move, unless the server says otherwise.
pub const FIRST_MOVE_WITHIN: Duration = Duration::from_secs(30);

/// How much time each side has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// `initial` for the whole game, and `increment` more after each of one's moves
    /// (Fischer's clock; `3+2` is three minutes and two seconds a move).
    Increment {
        initial: Duration,
        increment: Duration,
    },
    /// Each move within this time; time not used is not kept.
    PerMove(Duration),
}

/// Why a time control was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TimeControlError {
    #[error("a clock gives at least {} seconds", SHORTEST.as_secs())]
    TooShort,
    #[error("a game's time is at most {} hours", LONGEST_GAME.as_secs() / 3600)]
    GameTooLong,
    #[error("a move's time or increment is at most {} hours", LONGEST_MOVE.as_secs() / 3600)]
    MoveTooLong,
    #[error("a clock is written minutes+seconds (3+2) or seconds a move (30s)")]
    Unreadable,
}

impl TimeControl {
    /// `initial` for the game and `increment` a move: `initial` from 5 s to 3 hours,
    /// `increment` at most a day.
    pub fn increment(initial: Duration, increment: Duration) -> Result<Self, TimeControlError> {
        if initial < SHORTEST {
            return Err(TimeControlError::TooShort);
        }
        if initial > LONGEST_GAME {
            return Err(TimeControlError::GameTooLong);
        }
        if increment > LONGEST_MOVE {
            return Err(TimeControlError::MoveTooLong);
        }
        Ok(TimeControl::Increment { initial, increment })
    }

    /// `limit` for each move: from 5 s to a day.
    pub fn per_move(limit: Duration) -> Result<Self, TimeControlError> {
        if limit < SHORTEST {
            return Err(TimeControlError::TooShort);
        }
        if limit > LONGEST_MOVE {
            return Err(TimeControlError::MoveTooLong);
        }
        Ok(TimeControl::PerMove(limit))
    }

    /// Each side's time as the game begins.
    pub fn initial(self) -> Duration {
        match self {
            TimeControl::Increment { initial, .. } => initial,
            TimeControl::PerMove(limit) => limit,
        }
    }
}

/// As a person writes it: `3+2` (minutes, then seconds a move) or `30s` (seconds a move).
impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        if let Some(seconds) = text.strip_suffix('s') {
            let seconds: u64 = seconds.parse().map_err(|_| TimeControlError::Unreadable)?;
            return TimeControl::per_move(Duration::from_secs(seconds));
        }
        let (minutes, seconds) = text.split_once('+').ok_or(TimeControlError::Unreadable)?;
        let minutes: f64 = minutes
            .trim()
            .parse()
            .ok()
            .filter(|m: &f64| m.is_finite() && *m >= 0.0 && *m <= 24.0 * 60.0)
            .ok_or(TimeControlError::Unreadable)?;
        let seconds: u64 = seconds
            .trim()
            .parse()
            .map_err(|_| TimeControlError::Unreadable)?;
        TimeControl::increment(
            Duration::from_millis((minutes * 60_000.0).round() as u64),
            Duration::from_secs(seconds),
        )
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Increment { initial, increment } => {
                let seconds = initial.as_secs();
                if seconds % 60 == 0 {
                    write!(f, "{}+{}", seconds / 60, increment.as_secs())
                } else {
                    write!(
                        f,
                        "{}+{}",
                        initial.as_secs_f64() / 60.0,
                        increment.as_secs()
                    )
                }
            }
            TimeControl::PerMove(limit) => write!(f, "{}s", limit.as_secs()),
        }
    }
}

/// What a clock says at some instant: nothing to do yet, or the game is over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overdue {
    /// `side` did not make its first move in time: the game is aborted, rating nobody.
    Abort(Mark),
    /// `side`'s time ran out.
    Flag(Mark),
}

/// A game's clock: each side's time left, whose clock runs and since when. The server
/// keeps it beside the game, in memory and in the store, and is the only judge of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameClock {
    control: TimeControl,
    first_move_within: Duration,
    /// X's and O's time, as of `since`.
    left: [Duration; 2],
    /// The side whose time runs (or, before the clocks start, who owes a first move).
    turn: Mark,
    /// When `turn`'s time (or wait for a first move) began.
    since: SystemTime,
    /// Moves made, counting none taken back: the clocks run from the second.
    moves: u32,
}

/// A clock as a store keeps it: every field, unchecked until [`GameClock::restore`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockParts {
    pub control: TimeControl,
    pub first_move_within: Duration,
    pub left: [Duration; 2],
    pub turn: Mark,
    pub since: SystemTime,
    pub moves: u32,
}

/// A kept clock that no game could have had.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("a clock kept with more time than its control, or any first move, is given")]
pub struct ClockError;

impl GameClock {
    /// A game's clock as it begins at `at`, `first` to move first.
    pub fn start(
        control: TimeControl,
        first_move_within: Duration,
        first: Mark,
        at: SystemTime,
    ) -> Self {
        GameClock {
            control,
            first_move_within,
            left: [control.initial(); 2],
            turn: first,
            since: at,
            moves: 0,
        }
    }

    /// A clock as a store gave it back, checked: no side has more time than the control
    /// could have given (the initial time, and every increment since).
    pub fn restore(parts: ClockParts) -> Result<Self, ClockError> {
        let most = match parts.control {
            TimeControl::Increment { initial, increment } => {
                initial.saturating_add(increment.saturating_mul(parts.moves.div_ceil(2) + 1))
            }
            TimeControl::PerMove(limit) => limit,
        };
        if parts.left.iter().any(|left| *left > most) || parts.first_move_within > LONGEST_MOVE {
            return Err(ClockError);
        }
        Ok(GameClock {
            control: parts.control,
            first_move_within: parts.first_move_within,
            left: parts.left,
            turn: parts.turn,
            since: parts.since,
            moves: parts.moves,
        })
    }

    /// Everything a store keeps.
    pub fn parts(&self) -> ClockParts {
        ClockParts {
            control: self.control,
            first_move_within: self.first_move_within,
            left: self.left,
            turn: self.turn,
            since: self.since,
            moves: self.moves,
        }
    }

    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Whether the clocks run: both sides have made their first move.
    pub fn running(&self) -> bool {
        self.moves >= 2
    }

    /// The side whose time runs (or who owes a first move).
    pub fn turn(&self) -> Mark {
        self.turn
    }

    /// When the game is over unless `turn` moves: their time runs out, or their wait
    /// for a first move. (A deadline past what the platform counts cannot be reached:
    /// a clock's times are bounded, and a store keeps `since` as 64-bit nanoseconds;
    /// were it reached, the game would be due at once rather than the server panic.)
    pub fn deadline(&self) -> SystemTime {
        let wait = if self.running() {
            self.left[self.turn.index()]
        } else {
            self.first_move_within
        };
        self.since.checked_add(wait).unwrap_or(self.since)
    }

    /// What is over at `now`, if anything.
    pub fn overdue(&self, now: SystemTime) -> Option<Overdue> {
        if now < self.deadline() {
            return None;
        }
        Some(if self.running() {
            Overdue::Flag(self.turn)
        } else {
            Overdue::Abort(self.turn)
        })
    }

    /// X's and O's time left at `now` (the side whose time runs has spent what it has
    /// since its turn began; none is below zero).
    pub fn left_at(&self, now: SystemTime) -> [Duration; 2] {
        let mut left = self.left;
        if self.running() {
            let spent = now.duration_since(self.since).unwrap_or_default();
            let running = &mut left[self.turn.index()];
            *running = running.saturating_sub(spent);
        }
        left
    }

    /// `turn` moved at `at`: its time is charged, its increment added (or, a move at a
    /// time, its time set again), and the other side's turn begins. Call it only for a
    /// move made in time ([`GameClock::overdue`] said nothing).
    pub fn moved(&mut self, at: SystemTime) {
        let mover = self.turn;
        if self.running() {
            self.left = self.left_at(at);
            let after = &mut self.left[mover.index()];
            *after = match self.control {
                TimeControl::Increment { increment, .. } => after.saturating_add(increment),
                TimeControl::PerMove(limit) => limit,
            };
        }
        self.moves = self.moves.saturating_add(1);
        self.turn = mover.opponent();
        self.since = at;
    }

    /// Moves were taken back at `at`, and `to_move` is to move: the time since the turn
    /// began is charged to whoever's it was, with no increment, and `to_move`'s begins.
    pub fn taken_back(&mut self, to_move: Mark, at: SystemTime) {
        self.left = self.left_at(at);
        self.turn = to_move;
        self.since = at;
    }
}

/// Whether `mark` could still complete a line on `board` if the other side, to move,
/// gave it every chance: some line holds none of the other side's marks, and the cells
/// it lacks leave as many empty cells elsewhere for the other side's moves in between.
/// A side that runs out of time loses only to a side that could still win.
pub fn could_still_win(board: &dyn Board, mark: Mark) -> bool {
    let geometry = board.geometry();
    let empty = board.empty_cells().len();
    geometry.lines().iter().any(|line| {
        let cells = line.cells();
        if cells
            .iter()
            .any(|&cell| board.mark_at(cell) == Some(mark.opponent()))
        {
            return false;
        }
        let lacking = cells
            .iter()
            .filter(|&&cell| board.mark_at(cell).is_none())
            .count();
        empty >= 2 * lacking
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Geometry, GridBoard, fill_from_layout};

    fn at(seconds: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(seconds)
    }

    fn three_plus_two() -> TimeControl {
        TimeControl::increment(Duration::from_secs(180), Duration::from_secs(2)).unwrap()
    }

    fn started(control: TimeControl) -> GameClock {
        GameClock::start(control, Duration::from_secs(30), Mark::X, at(0))
    }

    fn board(layout: &str) -> GridBoard {
        let size = layout.split('/').count();
        let geometry = Geometry::new(size, size.min(3)).unwrap();
        fill_from_layout(GridBoard::new(geometry), layout).unwrap()
    }

    #[rstest::rstest]
    #[case::minutes_and_seconds("3+2", three_plus_two())]
    #[case::half_a_minute("0.5+0", TimeControl::Increment { initial: Duration::from_secs(30), increment: Duration::ZERO })]
    #[case::a_move_at_a_time("30s", TimeControl::PerMove(Duration::from_secs(30)))]
    fn a_time_control_is_read_as_people_write_it(#[case] text: &str, #[case] control: TimeControl) {
        assert_eq!(text.parse::<TimeControl>(), Ok(control));
    }

    #[rstest::rstest]
    #[case::four_seconds_a_move("4s", TimeControlError::TooShort)]
    #[case::no_time_at_all("0+3", TimeControlError::TooShort)]
    #[case::a_day_a_game("1440+0", TimeControlError::GameTooLong)]
    #[case::words("blitz", TimeControlError::Unreadable)]
    #[case::negative("-1+2", TimeControlError::Unreadable)]
    fn a_time_control_out_of_bounds_or_unreadable_is_refused(
        #[case] text: &str,
        #[case] error: TimeControlError,
    ) {
        assert_eq!(text.parse::<TimeControl>(), Err(error));
    }

    #[rstest::rstest]
    #[case("3+2")]
    #[case("0.5+1")]
    #[case("45s")]
    fn a_time_control_is_written_as_it_is_read(#[case] text: &str) {
        assert_eq!(text.parse::<TimeControl>().unwrap().to_string(), text);
    }

    #[test]
    fn before_both_sides_move_no_time_is_spent_and_the_first_move_is_awaited() {
        let mut clock = started(three_plus_two());

        clock.moved(at(20));

        assert_eq!(clock.left_at(at(40)), [Duration::from_secs(180); 2]);
        assert_eq!(clock.deadline(), at(50));
    }

    #[test]
    fn a_side_that_makes_no_first_move_in_time_aborts_the_game() {
        let mut clock = started(three_plus_two());
        clock.moved(at(10));

        assert_eq!(clock.overdue(at(39)), None);
        assert_eq!(clock.overdue(at(40)), Some(Overdue::Abort(Mark::O)));
    }

    #[test]
    fn once_both_have_moved_the_side_to_move_spends_its_time_and_gains_its_increment() {
        let mut clock = started(three_plus_two());
        clock.moved(at(1));
        clock.moved(at(2));

        clock.moved(at(12));

        assert_eq!(
            clock.left_at(at(12)),
            [Duration::from_secs(172), Duration::from_secs(180)]
        );
        assert_eq!(clock.turn(), Mark::O);
    }

    #[test]
    fn a_side_whose_time_runs_out_is_flagged_at_its_deadline() {
        let mut clock = started(three_plus_two());
        clock.moved(at(1));
        clock.moved(at(2));

        assert_eq!(clock.deadline(), at(182));
        assert_eq!(clock.overdue(at(181)), None);
        assert_eq!(clock.overdue(at(182)), Some(Overdue::Flag(Mark::X)));
    }

    #[test]
    fn a_move_at_a_time_sets_the_movers_time_again() {
        let mut clock = started(TimeControl::per_move(Duration::from_secs(10)).unwrap());
        clock.moved(at(1));
        clock.moved(at(2));

        clock.moved(at(9));

        assert_eq!(clock.left_at(at(9)), [Duration::from_secs(10); 2]);
        assert_eq!(clock.deadline(), at(19));
    }

    #[test]
    fn moves_taken_back_charge_the_time_since_the_turn_began_without_an_increment() {
        let mut clock = started(three_plus_two());
        clock.moved(at(1));
        clock.moved(at(2));

        clock.taken_back(Mark::O, at(12));

        assert_eq!(clock.left_at(at(12))[0], Duration::from_secs(170));
        assert_eq!(clock.turn(), Mark::O);
    }

    #[test]
    fn a_clock_is_restored_from_its_parts() {
        let mut clock = started(three_plus_two());
        clock.moved(at(1));

        assert_eq!(GameClock::restore(clock.parts()), Ok(clock));
    }

    #[test]
    fn a_kept_clock_with_a_first_move_window_past_a_day_is_refused() {
        let mut parts = started(three_plus_two()).parts();
        parts.first_move_within = LONGEST_MOVE + Duration::from_secs(1);

        assert_eq!(GameClock::restore(parts), Err(ClockError));
    }

    #[test]
    fn a_kept_clock_with_more_time_than_its_control_gives_is_refused() {
        let mut parts = started(three_plus_two()).parts();
        parts.left[1] = Duration::from_secs(500);

        assert_eq!(GameClock::restore(parts), Err(ClockError));
    }

    #[rstest::rstest]
    #[case::an_open_line("x../.o./...", Mark::X, true)]
    #[case::every_line_blocked("xox/xoo/ox.", Mark::X, false)]
    #[case::a_line_but_no_time_to_fill_it("o../xxo/xox", Mark::O, false)]
    fn a_side_could_still_win_while_a_line_is_open_to_it(
        #[case] layout: &str,
        #[case] mark: Mark,
        #[case] could: bool,
    ) {
        assert_eq!(could_still_win(&board(layout), mark), could);
    }
}
