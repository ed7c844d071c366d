use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Where the engine reads the time, so that tests can set it.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait Clock: Send + Sync {
    /// Time since some fixed moment; only differences matter.
    fn now(&self) -> Duration;
}

#[cfg(any(test, feature = "mocks"))]
impl MockClock {
    /// A stub, not a mock: a clock that always reads `time`, however often it is read
    /// or not (nothing is expected of it). For tests that only need time to stand still,
    /// so that no deadline set on it passes, or one already past stays past.
    pub fn stuck_at(time: Duration) -> Self {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(time);
        clock
    }
}

/// The real, monotonic clock.
pub struct SystemClock {
    start: Instant,
}

impl SystemClock {
    pub fn new() -> Self {
        SystemClock {
            start: Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        SystemClock::new()
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.start.elapsed()
    }
}

/// A clock that never moves: the clock of a deadline that never passes by itself.
struct Standing;

impl Clock for Standing {
    fn now(&self) -> Duration {
        Duration::ZERO
    }
}

/// A moment by which a search must stop, on a given clock; and, if it has one, a flag
/// another thread may raise to stop it sooner ([`or_when`](Self::or_when)).
#[derive(Clone, Copy)]
pub struct Deadline<'a> {
    clock: &'a dyn Clock,
    at: Duration,
    stop: Option<&'a AtomicBool>,
}

impl<'a> Deadline<'a> {
    /// `budget` from now; `Duration::MAX` never passes.
    pub fn after(clock: &'a dyn Clock, budget: Duration) -> Self {
        Deadline {
            clock,
            at: clock.now().saturating_add(budget),
            stop: None,
        }
    }

    /// A deadline that never passes by itself (no clock is read): for a search with
    /// no time limit that a flag may still stop ([`or_when`](Self::or_when)).
    pub fn unlimited() -> Deadline<'static> {
        Deadline {
            clock: &Standing,
            at: Duration::MAX,
            stop: None,
        }
    }

    /// The same deadline, passed as well once `stop` is raised: a search whose answer
    /// another thread has made needless stops (and, like one stopped at its deadline,
    /// stores nothing). Replaces any flag it had.
    pub fn or_when(self, stop: &'a AtomicBool) -> Self {
        Deadline {
            stop: Some(stop),
            ..self
        }
    }

    /// A deadline at a fraction of the way from now to `self`.
    pub fn part(self, fraction: f64) -> Self {
        let now = self.clock.now();
        let left = self.at.saturating_sub(now);
        Deadline {
            // Saturating: an unlimited budget (`Duration::MAX`) must not overflow.
            at: now.saturating_add(left.mul_f64(fraction.clamp(0.0, 1.0))),
            ..self
        }
    }

    /// Whether the time is up, or the search was told to stop.
    pub fn passed(&self) -> bool {
        self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) || self.clock.now() >= self.at
    }
}

/// Counts the positions a search visits and looks at the clock at the first of them and
/// then every 1024: often enough to stop within a fraction of a millisecond, rarely
/// enough to cost nothing, and at once when a search starts after its deadline.
/// Once time is up it stays up, so every frame of the search unwinds at once.
#[derive(Debug, Default)]
pub struct TimeCheck {
    positions: u64,
    expired: bool,
    /// Positions counted since the check was made, over every search.
    total: u64,
    /// The search stops after this many positions as it does at its deadline (0: no
    /// limit).
    limit: u64,
}

impl TimeCheck {
    /// Starts a new search: time is not up.
    pub fn restart(&mut self) {
        self.restart_within(0);
    }

    /// Starts a new search that stops, as at a deadline, after `positions` positions
    /// (0: no limit): a quick try, abandoned (and so never stored) if it is not enough.
    pub fn restart_within(&mut self, positions: u64) {
        self.expired = false;
        self.positions = 0;
        self.limit = positions;
    }

    /// Counts one position; true if the search must stop now.
    pub fn expired(&mut self, deadline: Option<&Deadline>) -> bool {
        if !self.expired {
            self.positions += 1;
            self.total += 1;
            if self.positions == self.limit {
                self.expired = true;
                return true;
            }
            self.expired = self.positions % 1024 == 1 && deadline.is_some_and(Deadline::passed);
        }
        self.expired
    }

    /// Lets the search go on for at most `positions` more positions (within any limit
    /// it had already) before it stops as at its deadline; returns the limit it had, for
    /// [`end_budget`](Self::end_budget).
    pub fn budget(&mut self, positions: u64) -> u64 {
        let outer = self.limit;
        let local = self.positions + positions;
        if outer == 0 || local < outer {
            self.limit = local;
        }
        outer
    }

    /// Ends a [`budget`](Self::budget), putting back the `outer` limit; true if the
    /// search stopped because that budget ran out, and may go on: its deadline has not
    /// passed and the outer limit is not reached.
    pub fn end_budget(&mut self, outer: u64, deadline: Option<&Deadline>) -> bool {
        let local = self.limit;
        self.limit = outer;
        if !self.expired || local == outer || self.positions != local {
            return false;
        }
        self.expired =
            (outer != 0 && self.positions >= outer) || deadline.is_some_and(Deadline::passed);
        !self.expired
    }

    /// Whether the last search was stopped by its deadline.
    pub fn ran_out(&self) -> bool {
        self.expired
    }

    /// How many positions every search so far has visited.
    pub fn total(&self) -> u64 {
        self.total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stub: a clock whose readings are `readings`, in order, one per look. Nothing is
    /// expected of how often it is read, but a look past the last reading fails the test.
    fn clock_reading<const N: usize>(readings: [Duration; N]) -> MockClock {
        let mut readings = readings.into_iter();
        let mut clock = MockClock::new();
        clock
            .expect_now()
            .returning(move || readings.next().expect("read more often than scripted"));
        clock
    }

    #[test]
    fn an_unlimited_budget_never_passes_even_in_part() {
        let clock = MockClock::stuck_at(Duration::from_secs(5));

        let deadline = Deadline::after(&clock, Duration::MAX).part(0.8);

        assert!(!deadline.passed());
    }

    #[test]
    fn a_part_of_a_deadline_comes_that_fraction_of_the_way() {
        // Arrange: a 100 ms deadline set at 0 and cut to 0.8 of it at 0 (one reading
        // each), then looked at at 79 ms and at 80 ms.
        let ms = Duration::from_millis;
        let clock = clock_reading([ms(0), ms(0), ms(79), ms(80)]);
        let deadline = Deadline::after(&clock, ms(100)).part(0.8);

        // Act
        let (at_79, at_80) = (deadline.passed(), deadline.passed());

        // Assert: it passes at 80 ms, not before.
        assert!(!at_79);
        assert!(at_80);
    }

    #[test]
    fn a_deadline_with_a_stop_flag_passes_when_the_flag_is_raised_though_time_is_left() {
        // Arrange: a clock that stands still, so only the flag can end the search.
        let clock = MockClock::stuck_at(Duration::ZERO);
        let stop = AtomicBool::new(false);
        let deadline = Deadline::after(&clock, Duration::from_secs(1)).or_when(&stop);
        let before = deadline.passed();

        // Act
        stop.store(true, Ordering::Relaxed);

        // Assert: its parts stop with it.
        assert!(!before);
        assert!(deadline.passed());
        assert!(deadline.part(0.5).passed());
    }

    /// A search of at most `limit` positions, 3 of them counted, and a budget of 4
    /// positions begun within it (with what `budget` returned, to end it).
    fn a_budget_of_4_after_3_positions_of(limit: u64) -> (TimeCheck, u64) {
        let mut check = TimeCheck::default();
        check.restart_within(limit);
        for _ in 0..3 {
            assert!(!check.expired(None));
        }
        let outer = check.budget(4);
        (check, outer)
    }

    /// The budget `outer` gave run until it stops (within 5 positions), then ended:
    /// the position it stopped at, and whether the outer search may go on.
    fn run_out_and_ended(check: &mut TimeCheck, outer: u64) -> (Option<u32>, bool) {
        let stopped_at = (1..=5).find(|_| check.expired(None));
        (stopped_at, check.end_budget(outer, None))
    }

    #[test]
    fn a_budget_stops_a_search_and_then_lets_the_outer_one_go_on() {
        // Arrange: a search of at most 10 positions, 3 of them counted, and a budget of
        // 4 within it.
        let (mut check, outer) = a_budget_of_4_after_3_positions_of(10);

        // Act: the budget runs out at the 4th position after it, and is ended.
        let (stopped_at, went_on) = run_out_and_ended(&mut check, outer);

        // Assert: the outer search may go on, to its own limit of 10 positions.
        assert_eq!(stopped_at, Some(4));
        assert!(went_on);
        assert!(!check.ran_out());
        let more = (1..=10).find(|_| check.expired(None));
        assert_eq!(more, Some(3));
    }

    #[test]
    fn a_budget_cut_short_by_the_outer_limit_does_not_let_the_search_go_on() {
        // Arrange: a search of at most 5 positions, 3 counted, and a budget of 4 within
        // it: the outer limit comes first.
        let (mut check, outer) = a_budget_of_4_after_3_positions_of(5);

        // Act
        let (stopped_at, went_on) = run_out_and_ended(&mut check, outer);

        // Assert: stopped at the outer limit, and stays stopped.
        assert_eq!(stopped_at, Some(2));
        assert!(!went_on);
        assert!(check.ran_out());
    }

    #[test]
    fn a_budget_not_used_up_changes_nothing() {
        let mut check = TimeCheck::default();
        check.restart();
        let outer = check.budget(100);
        assert!(!check.expired(None));

        let went_on = check.end_budget(outer, None);

        assert!(!went_on);
        assert!(!check.ran_out());
    }

    #[test]
    fn a_time_check_reads_the_clock_at_the_first_position_and_then_every_1024th() {
        // Arrange: a mock, since how often the clock is read is what is tested. It
        // stands at 0 and must be read exactly four times: once to set the deadline,
        // then at positions 1, 1025 and 2049 of a search of 2049 positions.
        let mut clock = MockClock::new();
        clock.expect_now().times(4).return_const(Duration::ZERO);
        let deadline = Deadline::after(&clock, Duration::from_secs(1));
        let mut check = TimeCheck::default();

        // Act
        let stopped = (0..2049).any(|_| check.expired(Some(&deadline)));

        // Assert: time never ran out (and the mock checks its four reads when dropped).
        assert!(!stopped);
    }
}
