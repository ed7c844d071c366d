use std::time::Duration;

use rand::Rng;
use rand::seq::IndexedRandom;

use super::{Action, Advisor, Level, Player, PlayerSpec};
use crate::domain::{Analysis, Board, GameState, Mark, PlayerName, Verdict};
use crate::engine::{Clock, Deadline, Estimator, Lookahead, Solver, SystemClock};

/// The computer at Easy, Medium or Impossible: a minimax search, shallow or complete.
///
/// * Easy looks one move ahead (it takes a win it can see, nothing more);
/// * Medium looks two moves ahead (it also blocks a single threat);
/// * Impossible searches to the end and plays perfectly. On a board too large to solve
///   within its thinking time it plays the best move it can find in that time.
///
/// Among equally good moves it picks one at random with the injected RNG, so games vary
/// but a seeded RNG replays them exactly.
pub struct MinimaxAI<R> {
    level: Level,
    search: Search,
    rng: R,
    /// The last position advised on and the advice, so `choose` after `advise` agrees.
    last: Option<((u64, u64, Mark), Analysis)>,
}

enum Search {
    Lookahead {
        depth: u32,
        engine: Option<Lookahead>,
    },
    /// The solver keeps its table for the rest of the game and beyond; both engines are
    /// built on first use, for the board they are asked about.
    Exact {
        solver: Option<Box<Solver>>,
        estimator: Option<Box<Estimator>>,
        budget: Duration,
        clock: Box<dyn Clock>,
    },
}

impl<R: Rng> MinimaxAI<R> {
    /// How long Impossible may think per move unless told otherwise.
    pub const DEFAULT_BUDGET: Duration = Duration::from_millis(1000);

    pub fn easy(rng: R) -> Self {
        Self::with_search(
            Level::Easy,
            Search::Lookahead {
                depth: 1,
                engine: None,
            },
            rng,
        )
    }

    pub fn medium(rng: R) -> Self {
        Self::with_search(
            Level::Medium,
            Search::Lookahead {
                depth: 2,
                engine: None,
            },
            rng,
        )
    }

    pub fn impossible(rng: R) -> Self {
        let search = Search::Exact {
            solver: None,
            estimator: None,
            budget: Self::DEFAULT_BUDGET,
            clock: Box::new(SystemClock::new()),
        };
        Self::with_search(Level::Impossible, search, rng)
    }

    /// Sets how long Impossible may think per move (other levels do not need time).
    pub fn thinking_for(mut self, limit: Duration) -> Self {
        if let Search::Exact { budget, .. } = &mut self.search {
            *budget = limit;
        }
        self
    }

    /// Sets the clock Impossible keeps time by.
    pub fn timed_by(mut self, new_clock: Box<dyn Clock>) -> Self {
        if let Search::Exact { clock, .. } = &mut self.search {
            *clock = new_clock;
        }
        self
    }

    fn with_search(level: Level, search: Search, rng: R) -> Self {
        MinimaxAI {
            level,
            search,
            rng,
            last: None,
        }
    }

    /// Every move this level rates best, ascending; it plays one of them.
    pub fn best_moves(&mut self, board: &dyn Board, to_move: Mark) -> Vec<crate::domain::Position> {
        self.advice(board, to_move)
            .map(|a| a.best_moves.clone())
            .unwrap_or_default()
    }

    /// The analysis of this position, thought out once and then remembered, so that
    /// `choose` after `advise` agrees and neither thinks twice.
    fn advice(&mut self, board: &dyn Board, to_move: Mark) -> Option<&Analysis> {
        let key = (board.bits(Mark::X), board.bits(Mark::O), to_move);
        if !matches!(&self.last, Some((last_key, _)) if *last_key == key) {
            let analysis = self.think(board, to_move)?;
            self.last = Some((key, analysis));
        }
        self.last.as_ref().map(|(_, analysis)| analysis)
    }

    fn think(&mut self, board: &dyn Board, to_move: Mark) -> Option<Analysis> {
        let geometry = board.geometry();
        match &mut self.search {
            Search::Lookahead { depth, engine } => {
                let engine = match engine {
                    Some(engine) if engine.geometry() == geometry => engine,
                    _ => engine.insert(Lookahead::new(geometry, *depth)),
                };
                let best_moves = engine.best_moves(board, to_move);
                (!best_moves.is_empty()).then(|| Analysis {
                    verdict: Verdict::Draw,
                    plies: board.empty_cells().len(),
                    best_moves,
                    exact: false,
                })
            }
            Search::Exact {
                solver,
                estimator,
                budget,
                clock,
            } => {
                let deadline = Deadline::after(clock.as_ref(), *budget);
                let solver = match solver {
                    Some(solver) if solver.geometry() == geometry => solver,
                    _ => solver.insert(Box::new(Solver::new(geometry))),
                };
                // Most of the time goes to proving; what is left, to the best guess.
                if let Some(analysis) = solver.analyze_by(board, to_move, deadline.part(0.8)) {
                    return Some(analysis);
                }
                let estimator = match estimator {
                    Some(estimator) if estimator.geometry() == geometry => estimator,
                    _ => estimator.insert(Box::new(Estimator::new(geometry))),
                };
                estimator.estimate(board, to_move, deadline)
            }
        }
    }
}

impl<R: Rng> Advisor for MinimaxAI<R> {
    fn advise(&mut self, board: &dyn Board, to_move: Mark) -> Option<Analysis> {
        self.advice(board, to_move).cloned()
    }
}

impl<R: Rng> Player for MinimaxAI<R> {
    fn name(&self) -> PlayerName {
        PlayerSpec::Computer(self.level).name(Mark::X)
    }

    fn is_human(&self) -> bool {
        false
    }

    fn choose(&mut self, game: &dyn GameState) -> Action {
        self.advice(game.board(), game.to_move());
        // Borrow the remembered best moves and the RNG side by side: no copy per move.
        let MinimaxAI { last, rng, .. } = self;
        let best = last
            .as_ref()
            .map_or(&[][..], |(_, analysis)| &analysis.best_moves);
        match best.choose(rng) {
            Some(&cell) => Action::Place(cell),
            // Only reachable if asked to move in a finished game: leave rather than panic.
            None => Action::Quit,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::rc::Rc;

    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;
    use crate::domain::{BitBoard, Geometry, Position, fill_from_layout};
    use crate::engine::MockClock;

    /// A clock that reads 0 once (when the deadline is set) and then `later` forever:
    /// as if the whole budget were gone before the first position was searched.
    fn time_runs_out_at_once(later: Duration) -> MockClock {
        let mut clock = MockClock::new();
        let reads = Rc::new(Cell::new(0u32));
        let counter = Rc::clone(&reads);
        clock.expect_now().returning_st(move || {
            counter.set(counter.get() + 1);
            if counter.get() == 1 {
                Duration::ZERO
            } else {
                later
            }
        });
        clock
    }

    fn hurried(clock: MockClock) -> MinimaxAI<StdRng> {
        MinimaxAI::impossible(StdRng::seed_from_u64(0))
            .thinking_for(Duration::from_millis(100))
            .timed_by(Box::new(clock))
    }

    fn board(size: usize, win: usize, layout: &str) -> BitBoard {
        fill_from_layout(BitBoard::new(Geometry::new(size, win).unwrap()), layout).unwrap()
    }

    fn numbers(cells: &[Position]) -> Vec<usize> {
        cells.iter().map(|p| p.number()).collect()
    }

    #[test]
    fn out_of_time_on_a_large_board_it_still_takes_an_immediate_win() {
        // 7 x 7, four in a row: X has 1-2-3 on the top row and wins with cell 4.
        let mut layout = String::from("xxx....");
        layout.push_str("ooo....");
        layout.push_str(&".".repeat(35));
        let mut ai = hurried(time_runs_out_at_once(Duration::from_secs(60)));

        let advice = ai.advise(&board(7, 4, &layout), Mark::X).unwrap();

        assert_eq!(numbers(&advice.best_moves), [4]);
        assert_eq!((advice.verdict, advice.plies), (Verdict::Win, 1));
    }

    #[test]
    fn out_of_time_on_a_large_board_it_still_blocks_a_single_threat() {
        // 7 x 7, four in a row: O threatens cell 11 (8-9-10 on the second row).
        let mut layout = String::from("x...x..");
        layout.push_str("ooo....");
        layout.push_str("x......");
        layout.push_str(&".".repeat(28));
        let mut ai = hurried(time_runs_out_at_once(Duration::from_secs(60)));

        let advice = ai.advise(&board(7, 4, &layout), Mark::X).unwrap();

        assert_eq!(numbers(&advice.best_moves), [11]);
        assert!(!advice.exact, "an estimate, not a proof");
    }

    #[test]
    fn with_time_to_spare_a_small_board_is_proven() {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(Duration::ZERO);

        let advice = hurried(clock)
            .advise(&board(4, 4, "................"), Mark::X)
            .unwrap();

        assert!(advice.exact);
        assert_eq!((advice.verdict, advice.plies), (Verdict::Draw, 16));
    }

    #[test]
    fn a_long_search_looks_at_the_clock_while_it_thinks() {
        // The empty 7 x 7 board with five in a row cannot be proven in a few thousand
        // positions, so the clock must be read during the search, not only before and
        // after.
        let reads = Rc::new(Cell::new(0u32));
        let counter = Rc::clone(&reads);
        let mut clock = MockClock::new();
        clock.expect_now().returning_st(move || {
            counter.set(counter.get() + 1);
            // Every read moves time on by 1 ms; the budget is 100 ms.
            Duration::from_millis(u64::from(counter.get()))
        });

        let advice = hurried(clock).advise(&board(7, 5, &".".repeat(49)), Mark::X);

        assert!(advice.is_some_and(|a| !a.exact && !a.best_moves.is_empty()));
        // Each read is 1 ms, so the reads count the milliseconds spent: the search must
        // use its time, and stop within 10% of the 100 ms budget.
        assert!(reads.get() > 50, "read {} times", reads.get());
        assert!(
            reads.get() <= 110,
            "kept searching after the deadline: {} ms",
            reads.get()
        );
    }

    #[test]
    fn asking_twice_about_one_position_thinks_once() {
        let mut clock = MockClock::new();
        clock.expect_now().times(1..=4).return_const(Duration::ZERO);
        let mut ai = hurried(clock);
        let position = board(3, 3, "x../.o./...");

        let first = ai.advise(&position, Mark::X);
        let second = ai.advise(&position, Mark::X);

        assert_eq!(first, second);
    }
}
