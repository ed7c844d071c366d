use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use rand::Rng;
use rand::seq::IndexedRandom;

use super::solvers::{SharedSolvers, SolverHandle};
use tictactoe_core::domain::{Analysis, Board, GameState, Geometry, Mark, PlayerName, Position};
use tictactoe_core::players::{Advisor, Level, MoveChooser, Player, PlayerSpec};
use tictactoe_engine::{Clock, Deadline, Estimator, Lookahead, Progress, Solver, SystemClock};

/// The computer at Easy, Medium or Impossible: a minimax search, shallow or complete.
///
/// * Easy looks one move ahead (it takes a win it can see, nothing more);
/// * Medium looks two moves ahead (it also blocks a single threat);
/// * Impossible searches to the end and plays perfectly. On a board too large to solve
///   within its thinking time it plays the best move it can find in that time.
///
/// Among equally good moves it picks one at random with the injected RNG, so games vary
/// but a seeded RNG replays them exactly. Everything it holds is `Send`, so a server can
/// keep it between requests.
///
/// As an [`Advisor`] only Impossible answers: it knows what perfect play makes of a
/// position (or says how far it got), and it is the one the hints come from
/// (`StandardComputers::advisor`). Easy and Medium see a few moves ahead and no
/// further: they have moves they prefer but no value to give, so they advise nothing
/// (`None`) rather than invent one.
pub struct MinimaxAI<R> {
    level: Level,
    thinking: Thinking,
    rng: R,
    /// The last position thought about and what came of it, so `choose_move` after
    /// `advise` agrees and neither thinks twice.
    last: Option<(PositionKey, Thought)>,
}

/// What thinking about a position gave: the moves this level rates best and, from a
/// level that knows it, what perfect play makes of the position.
struct Thought {
    best_moves: Vec<Position>,
    analysis: Option<Analysis>,
}

/// Everything an answer depends on: the board's shape, where each side's marks stand and
/// who is to move. The shape belongs in it: the empty 3 x 3 board and the empty 4 x 4
/// board have the same (no) marks and different answers.
type PositionKey = (Geometry, u64, u64, Mark);

/// How a level thinks. The two ways share nothing but the form of their answer.
enum Thinking {
    /// Easy and Medium: a few moves ahead and blind beyond.
    Lookahead(Shallow),
    /// Impossible: proofs, and the best estimate when time runs out first.
    Perfect(Perfect),
}

/// A lookahead `depth` moves deep. Its engine is made on first use, for the board it is
/// asked about.
struct Shallow {
    depth: u32,
    engine: Option<Lookahead>,
}

/// Perfect play within a budget of time on a clock. The exact solver comes from
/// `solvers`, shared with every other Impossible player handed the same pool; the
/// estimator is this player's own. Both are fetched on first use, for the board they
/// are asked about.
struct Perfect {
    solvers: SharedSolvers,
    solver: Option<SolverHandle>,
    estimator: Option<Box<Estimator>>,
    budget: Duration,
    clock: Arc<dyn Clock>,
    /// Told what the proof search settles, while it thinks.
    progress: Option<Box<dyn Progress>>,
    /// Raised by another thread to end the thinking at once.
    stop: Option<Arc<AtomicBool>>,
}

impl<R: Rng> MinimaxAI<R> {
    /// How long Impossible may think per move unless told otherwise.
    pub const DEFAULT_BUDGET: Duration = Duration::from_millis(1000);

    pub fn easy(rng: R) -> Self {
        Self::looking_ahead(Level::Easy, 1, rng)
    }

    pub fn medium(rng: R) -> Self {
        Self::looking_ahead(Level::Medium, 2, rng)
    }

    /// Impossible, with a solver of its own (see [`sharing`](Self::sharing)).
    pub fn impossible(rng: R) -> Self {
        let perfect = Perfect {
            solvers: SharedSolvers::new(),
            solver: None,
            estimator: None,
            budget: Self::DEFAULT_BUDGET,
            clock: Arc::new(SystemClock::new()),
            progress: None,
            stop: None,
        };
        Self::thinking(Level::Impossible, Thinking::Perfect(perfect), rng)
    }

    /// Impossible takes its solver from `pool`, sharing the table with every other player
    /// that does (other levels have no solver).
    pub fn sharing(mut self, pool: &SharedSolvers) -> Self {
        if let Thinking::Perfect(perfect) = &mut self.thinking {
            perfect.solvers = pool.clone();
            perfect.solver = None;
        }
        self
    }

    /// Sets how long Impossible may think per move (other levels do not need time).
    pub fn thinking_for(mut self, limit: Duration) -> Self {
        if let Thinking::Perfect(perfect) = &mut self.thinking {
            perfect.budget = limit;
        }
        self
    }

    /// Tells `progress` what Impossible's proofs settle while it thinks (on boards
    /// larger than 4 x 4): for a front end that shows a long analysis going on.
    pub fn reporting_to(mut self, progress: Box<dyn Progress>) -> Self {
        if let Thinking::Perfect(perfect) = &mut self.thinking {
            perfect.progress = Some(progress);
        }
        self
    }

    /// Impossible stops thinking as soon as `stop` is raised, as if its time were up:
    /// it answers with what it has proven (for a long analysis a server may end).
    pub fn stopping_when(mut self, stop: Arc<AtomicBool>) -> Self {
        if let Thinking::Perfect(perfect) = &mut self.thinking {
            perfect.stop = Some(stop);
        }
        self
    }

    /// Sets the clock Impossible keeps time by.
    pub fn timed_by(mut self, clock: Arc<dyn Clock>) -> Self {
        if let Thinking::Perfect(perfect) = &mut self.thinking {
            perfect.clock = clock;
        }
        self
    }

    fn looking_ahead(level: Level, depth: u32, rng: R) -> Self {
        let shallow = Shallow {
            depth,
            engine: None,
        };
        Self::thinking(level, Thinking::Lookahead(shallow), rng)
    }

    fn thinking(level: Level, thinking: Thinking, rng: R) -> Self {
        MinimaxAI {
            level,
            thinking,
            rng,
            last: None,
        }
    }

    /// Every move this level rates best, ascending; it plays one of them.
    pub fn best_moves(&mut self, board: &dyn Board, to_move: Mark) -> Vec<Position> {
        self.thought(board, to_move)
            .map(|thought| thought.best_moves.clone())
            .unwrap_or_default()
    }

    /// What this level makes of the position, thought out once and then remembered, so
    /// that `choose_move` after `advise` agrees and neither thinks twice.
    fn thought(&mut self, board: &dyn Board, to_move: Mark) -> Option<&Thought> {
        let key = (
            board.geometry(),
            board.bits(Mark::X),
            board.bits(Mark::O),
            to_move,
        );
        if !matches!(&self.last, Some((last_key, _)) if *last_key == key) {
            let thought = match &mut self.thinking {
                Thinking::Lookahead(shallow) => Thought {
                    best_moves: shallow.best_moves(board, to_move)?,
                    analysis: None,
                },
                Thinking::Perfect(perfect) => {
                    let analysis = perfect.analyze(board, to_move)?;
                    Thought {
                        best_moves: analysis.best_moves.clone(),
                        analysis: Some(analysis),
                    }
                }
            };
            self.last = Some((key, thought));
        }
        self.last.as_ref().map(|(_, thought)| thought)
    }
}

impl Shallow {
    /// The moves the lookahead rates best (`None` when there is none: the game is
    /// over). It claims nothing of the position's value: it does not see that far.
    fn best_moves(&mut self, board: &dyn Board, to_move: Mark) -> Option<Vec<Position>> {
        let geometry = board.geometry();
        let engine = match &mut self.engine {
            Some(engine) if engine.geometry() == geometry => engine,
            engine => engine.insert(Lookahead::new(geometry, self.depth)),
        };
        let best_moves = engine.best_moves(board, to_move);
        (!best_moves.is_empty()).then_some(best_moves)
    }
}

impl Perfect {
    /// Proven if the solver finishes within most of the budget; else the estimator's
    /// best in what is left.
    fn analyze(&mut self, board: &dyn Board, to_move: Mark) -> Option<Analysis> {
        let geometry = board.geometry();
        let deadline = Deadline::after(self.clock.as_ref(), self.budget);
        let deadline = match &self.stop {
            Some(stop) => deadline.or_when(stop),
            None => deadline,
        };
        let solver = match &mut self.solver {
            Some(solver) if solver.geometry() == geometry => solver,
            solver => solver.insert(self.solvers.for_shape(geometry)),
        };
        // Most of the time goes to proving; what is left, to the best guess.
        let proven = {
            let mut solver = solver.lock();
            let before = solver.report_to(self.progress.take());
            let proven = solver.analyze_by(board, to_move, deadline.part(0.8));
            self.progress = solver.report_to(before);
            proven
        };
        if proven.is_some() {
            return proven;
        }
        let estimator = match &mut self.estimator {
            Some(estimator) if estimator.geometry() == geometry => estimator,
            estimator => estimator.insert(Box::new(Estimator::new(geometry))),
        };
        estimator.estimate(board, to_move, deadline)
    }
}

impl<R: Rng + Send> Advisor for MinimaxAI<R> {
    /// Impossible's is the perfect-play analysis hints are made of; Easy and Medium,
    /// which cannot say what a position is worth, advise nothing (see [`MinimaxAI`]).
    fn advise(&mut self, board: &dyn Board, to_move: Mark) -> Option<Analysis> {
        self.thought(board, to_move)
            .and_then(|thought| thought.analysis.clone())
    }

    /// Impossible prefers, among the best moves, those its opening book answers next
    /// (on (7,7,5): the centre first), as [`MinimaxAI::choose_move`] does.
    fn preferred(&mut self, board: &dyn Board, to_move: Mark, best: &[Position]) -> Vec<Position> {
        match &self.thinking {
            Thinking::Perfect(_) => Solver::book_follows(board, to_move)
                .into_iter()
                .filter(|cell| best.contains(cell))
                .collect(),
            Thinking::Lookahead(_) => Vec::new(),
        }
    }
}

impl<R> Player for MinimaxAI<R> {
    fn name(&self) -> PlayerName {
        PlayerSpec::Computer(self.level).name(Mark::X)
    }
}

impl<R: Rng + Send> MoveChooser for MinimaxAI<R> {
    /// One of the best moves at random; Impossible prefers, among them, those after
    /// which its opening book answers every reply (on (7,7,5): it opens in the centre).
    fn choose_move(&mut self, game: &dyn GameState) -> Option<Position> {
        self.thought(game.board(), game.to_move());
        let followed = match &self.thinking {
            Thinking::Perfect(_) => Solver::book_follows(game.board(), game.to_move()),
            Thinking::Lookahead(_) => Vec::new(),
        };
        // Borrow the remembered best moves and the RNG side by side: no copy per move.
        let MinimaxAI { last, rng, .. } = self;
        let best = last
            .as_ref()
            .map_or(&[][..], |(_, thought)| &thought.best_moves);
        if !followed.is_empty() {
            let preferred: Vec<Position> = best
                .iter()
                .copied()
                .filter(|p| followed.contains(p))
                .collect();
            if let Some(&choice) = preferred.choose(rng) {
                return Some(choice);
            }
        }
        best.choose(rng).copied()
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;
    use crate::test_support::{board, numbers};
    use tictactoe_core::domain::{BitBoard, Game, Verdict};
    use tictactoe_engine::MockClock;

    /// A stub, not a mock: a clock that reads 0 once (when the deadline is set) and an
    /// hour later ever after, however often it is read: as if the whole budget were
    /// gone before the first position was searched.
    fn time_runs_out_at_once() -> MockClock {
        let mut first = true;
        let mut clock = MockClock::new();
        clock.expect_now().returning(move || {
            if std::mem::take(&mut first) {
                Duration::ZERO
            } else {
                Duration::from_secs(3600)
            }
        });
        clock
    }

    /// A stub, not a mock: a clock an hour further on at every read, however often it
    /// is read, so every deadline set on it has passed when it is first looked at.
    fn an_hour_on_at_every_read() -> MockClock {
        let mut now = Duration::ZERO;
        let mut clock = MockClock::new();
        clock.expect_now().returning(move || {
            now += Duration::from_secs(3600);
            now
        });
        clock
    }

    /// A mock: it must be read at least once before it is dropped (Impossible reads the
    /// clock to set a deadline whenever it thinks), and it stands at 0.
    fn clock_that_must_be_read() -> MockClock {
        let mut clock = MockClock::new();
        clock.expect_now().times(1..).return_const(Duration::ZERO);
        clock
    }

    /// A mock: it must not be read at all, so a player that thinks fails the test.
    fn clock_that_must_not_be_read() -> MockClock {
        let mut clock = MockClock::new();
        clock.expect_now().never();
        clock
    }

    fn hurried(clock: MockClock) -> MinimaxAI<StdRng> {
        MinimaxAI::impossible(StdRng::seed_from_u64(0))
            .thinking_for(Duration::from_millis(100))
            .timed_by(Arc::new(clock))
    }

    /// Impossible on a stub clock that never moves, so it always thinks to the end.
    fn impossible_never_hurried() -> MinimaxAI<StdRng> {
        hurried(MockClock::stuck_at(Duration::ZERO))
    }

    #[test]
    fn out_of_time_on_a_large_board_it_still_takes_an_immediate_win() {
        // 7 x 7, four in a row: X has 1-2-3 on the top row and wins with cell 4.
        let mut layout = String::from("xxx....");
        layout.push_str("ooo....");
        layout.push_str(&".".repeat(35));
        let mut ai = hurried(time_runs_out_at_once());

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
        let mut ai = hurried(time_runs_out_at_once());

        let advice = ai.advise(&board(7, 4, &layout), Mark::X).unwrap();

        assert_eq!(numbers(&advice.best_moves), [11]);
        assert!(
            !advice.exact && !advice.moves_proven,
            "an estimate, not a proof"
        );
    }

    #[test]
    fn out_of_time_on_one_large_board_and_then_another_it_still_answers_the_second() {
        // Arrange: a stub clock an hour on at every read, so every deadline has passed
        // when it is first looked at, and a position the solver cannot settle at once
        // is left to the estimator. It has estimated a 7 x 7 position (four in a row, O
        // threatens cell 11); on 6 x 6, four in a row, O holds 7-8-9 and X must block
        // at cell 10.
        let mut ai = hurried(an_hour_on_at_every_read());
        let first = format!("x...x..ooo....x......{}", ".".repeat(28));
        ai.advise(&board(7, 4, &first), Mark::X);
        let second = format!("x...x.ooo...x.....{}", ".".repeat(18));

        // Act
        let advice = ai.advise(&board(6, 4, &second), Mark::X);

        // Assert: a 7 x 7 estimator would know no 6 x 6 board and answer nothing.
        assert_eq!(advice.map(|a| numbers(&a.best_moves)), Some(vec![10]));
    }

    #[rstest::rstest]
    fn on_7x7_with_five_in_a_row_x_opens_in_the_centre_where_its_book_answers_every_reply(
        #[values(0, 1, 2, 3)] seed: u64,
    ) {
        let game = Game::<BitBoard>::start(Geometry::new(7, 5).unwrap(), Mark::X);
        let mut ai = MinimaxAI::impossible(StdRng::seed_from_u64(seed));

        let first = ai.choose_move(&game).map(|p| p.number());
        let advised = ai.advise(game.board(), Mark::X).unwrap().best_moves.len();

        assert_eq!(first, Some(25));
        assert_eq!(
            advised, 49,
            "the hint still lists every move that keeps the draw"
        );
    }

    #[test]
    fn among_every_move_that_keeps_the_draw_on_the_empty_7x7_board_impossible_prefers_the_centre() {
        let game = Game::<BitBoard>::start(Geometry::new(7, 5).unwrap(), Mark::X);
        let mut ai = MinimaxAI::impossible(StdRng::seed_from_u64(1));
        let best = ai.advise(game.board(), Mark::X).unwrap().best_moves;

        let preferred = ai.preferred(game.board(), Mark::X, &best);

        assert_eq!(numbers(&preferred), [25]);
    }

    #[test]
    fn a_level_that_looks_a_few_moves_ahead_prefers_nothing() {
        let game = Game::<BitBoard>::start(Geometry::new(7, 5).unwrap(), Mark::X);
        let mut ai = MinimaxAI::medium(StdRng::seed_from_u64(1));
        let every: Vec<Position> = game.board().empty_cells();

        assert_eq!(ai.preferred(game.board(), Mark::X, &every), []);
    }

    #[test]
    fn out_of_time_on_7x7_with_five_in_a_row_x_plays_the_book_s_second_move_after_the_centre() {
        // X in the centre, O on 1: the book's answer is exact (every move keeps the
        // draw), and its line's second move (crates/engine/src/book/7x7x5.txt) is 18.
        let layout = format!("o{}x{}", ".".repeat(23), ".".repeat(24));
        let game = Game::from_board(board(7, 5, &layout), Mark::X).unwrap();
        let mut ai = hurried(time_runs_out_at_once());

        let advice = ai.advise(game.board(), Mark::X).unwrap();
        let played = ai.choose_move(&game).map(|p| p.number());

        assert!(advice.exact, "the book's full answer, not a guess");
        assert_eq!(advice.best_moves.len(), 47);
        assert_eq!(played, Some(18));
    }

    #[test]
    fn out_of_time_on_7x7_with_five_in_a_row_o_answers_a_first_move_from_the_book() {
        // X in the centre: the book's answer is exact (every reply keeps the draw), and
        // the reply of its line (crates/engine/src/book/7x7x5.txt) is 18.
        let mut layout = ".".repeat(49);
        layout.replace_range(24..25, "x");
        let game = Game::from_board(board(7, 5, &layout), Mark::X).unwrap();
        let mut ai = hurried(time_runs_out_at_once());

        let advice = ai.advise(game.board(), Mark::O).unwrap();
        let played = ai.choose_move(&game).map(|p| p.number());

        assert!(advice.exact, "the book's full answer, not a guess");
        assert_eq!(
            (advice.verdict, advice.best_moves.len()),
            (Verdict::Draw, 48)
        );
        assert_eq!(played, Some(18));
    }

    #[test]
    fn with_time_to_spare_a_small_board_is_proven() {
        let mut ai = impossible_never_hurried();

        let advice = ai
            .advise(&board(4, 4, "................"), Mark::X)
            .unwrap();

        assert!(advice.exact);
        assert_eq!((advice.verdict, advice.plies), (Verdict::Draw, 16));
    }

    #[test]
    fn a_long_search_looks_at_the_clock_while_it_thinks_and_stops_in_time() {
        // Arrange: 7 x 7 with five in a row, X in two corners and O in the other two (a
        // position the opening book does not hold): it cannot be proven in a few
        // thousand positions. The clock is a mock: every read moves time on by 5 ms
        // and the budget is 100 ms, so the reads count the time spent. More than 10
        // reads: the search looks at the clock while it thinks, not only before and
        // after; at most 22: it stops within 10% of its budget.
        let mut elapsed = Duration::ZERO;
        let mut clock = MockClock::new();
        clock.expect_now().times(11..=22).returning(move || {
            elapsed += Duration::from_millis(5);
            elapsed
        });
        let corners = format!("x{0}x{1}o{0}o", ".".repeat(5), ".".repeat(35));

        // Act
        let advice = hurried(clock).advise(&board(7, 5, &corners), Mark::X);

        // Assert: a best guess (and, as the mock checks when dropped, 11 to 22 reads).
        assert!(advice.is_some_and(|a| !a.exact && !a.best_moves.is_empty()));
    }

    #[test]
    fn a_raised_stop_ends_the_thinking_with_only_what_is_proven() {
        // Arrange: (7,7,5) after X on 2, without the book (seconds to prove), on a clock
        // that never moves: only the flag can end the thinking, and it is up already.
        let stop = Arc::new(AtomicBool::new(true));
        let mut ai = impossible_never_hurried()
            .sharing(&SharedSolvers::without_book())
            .stopping_when(Arc::clone(&stop));
        let position = board(7, 5, ".X...............................................");

        // Act
        let analysis = ai.advise(&position, Mark::O);

        // Assert: an answer at once, claimed exact only if proven (it cannot be here).
        assert!(analysis.is_none_or(|a| !a.exact));
    }

    #[test]
    fn asking_twice_about_one_position_thinks_once() {
        // Arrange: every time Impossible thinks, it sets a deadline, which reads the
        // clock. The first answer must read it; then the clock is swapped for one that
        // must not be read (the first mock checks its reads as it is dropped).
        let position = board(3, 3, "x../.o./...");
        let mut ai = hurried(clock_that_must_be_read());
        let first = ai.advise(&position, Mark::X);
        let mut ai = ai.timed_by(Arc::new(clock_that_must_not_be_read()));

        // Act
        let second = ai.advise(&position, Mark::X);

        // Assert: the same answer, and no second thought (no read of the clock).
        assert_eq!(first, second);
    }

    #[test]
    fn the_move_it_plays_is_one_of_the_moves_it_advised_without_thinking_again() {
        // Arrange: X to move wins at once with cell 3. Advice first, on a clock that must
        // be read; then a clock that must not be.
        let game = Game::from_board(board(3, 3, "xx./oo./..."), Mark::X).unwrap();
        let mut ai = hurried(clock_that_must_be_read());
        let advice = ai.advise(game.board(), Mark::X).unwrap();
        let mut ai = ai.timed_by(Arc::new(clock_that_must_not_be_read()));

        // Act
        let played = ai.choose_move(&game);

        // Assert
        assert_eq!(numbers(&advice.best_moves), [3]);
        assert_eq!(played.map(|p| p.number()), Some(3));
    }

    #[rstest::rstest]
    #[case::easy(|| MinimaxAI::easy(StdRng::seed_from_u64(0)))]
    #[case::medium(|| MinimaxAI::medium(StdRng::seed_from_u64(0)))]
    #[case::impossible(impossible_never_hurried)]
    fn after_a_position_on_one_shape_it_answers_the_same_marks_on_another_for_that_shape(
        #[case] level: fn() -> MinimaxAI<StdRng>,
    ) {
        // Arrange: the same marks (X on cells 5 and 9, O on cell 1) on two shapes. On
        // 3 x 3 they are X in the centre and a corner, O in the opposite corner: no win
        // at once. On 4 x 4 with three in a row they are two of the first column, and X
        // wins at once with cell 13, which every level sees.
        let smaller = board(3, 3, "o../.x./..x");
        let larger = board(4, 3, "o.../x.../x.../....");
        // Only the shape tells the two positions apart: that is what is tested.
        assert_eq!(smaller.bits(Mark::X), larger.bits(Mark::X));
        assert_eq!(smaller.bits(Mark::O), larger.bits(Mark::O));
        let mut ai = level();
        ai.best_moves(&smaller, Mark::X);

        // Act
        let best = ai.best_moves(&larger, Mark::X);

        // Assert: neither the 3 x 3 answer nor a 3 x 3 engine's (which knows no 4 x 4
        // board and answers nothing).
        assert_eq!(numbers(&best), [13]);
    }

    #[rstest::rstest]
    #[case::easy(|| MinimaxAI::easy(StdRng::seed_from_u64(0)))]
    #[case::medium(|| MinimaxAI::medium(StdRng::seed_from_u64(0)))]
    fn a_level_that_only_looks_ahead_advises_nothing_though_it_has_a_move(
        #[case] level: fn() -> MinimaxAI<StdRng>,
    ) {
        // X to move can win at once at cell 3: both levels see it and would play it.
        let position = board(3, 3, "xx./oo./...");
        let mut ai = level();

        let advice = ai.advise(&position, Mark::X);

        assert_eq!(advice, None, "no value it does not know");
        assert_eq!(numbers(&ai.best_moves(&position, Mark::X)), [3]);
    }

    #[test]
    fn one_player_asked_about_two_board_shapes_answers_each_for_its_own_shape() {
        // Arrange: the empty 3 x 3 board (a draw) and the empty 4 x 4 board with three
        // in a row (a win for X) hold the same marks, none; only their shapes differ.
        // The clock never moves, so both are solved to the end.
        let mut ai = impossible_never_hurried();
        let larger = board(4, 3, "................");
        let truth = Solver::new(larger.geometry()).analyze(&larger, Mark::X);
        ai.advise(&board(3, 3, "........."), Mark::X);

        // Act
        let advice = ai.advise(&larger, Mark::X);

        // Assert: the answer a solver made for (4,4,3) alone gives.
        assert_eq!(advice, truth);
    }

    #[test]
    fn one_player_asked_about_two_board_shapes_thinks_with_the_pool_s_solver_for_each() {
        // Arrange
        let pool = SharedSolvers::new();
        let mut ai = impossible_never_hurried().sharing(&pool);
        ai.advise(&board(3, 3, "........."), Mark::X);

        // Act
        ai.advise(&board(4, 3, "................"), Mark::X);

        // Assert: not the 3 x 3 solver again (it knows no 4 x 4 board; the estimator
        // would answer instead, without the solver's proofs or table).
        assert_eq!(pool.shapes(), 2);
    }

    #[test]
    fn impossible_players_handed_one_pool_think_with_one_solver() {
        let pool = SharedSolvers::new();
        let mut first = MinimaxAI::impossible(StdRng::seed_from_u64(1)).sharing(&pool);
        let mut second = MinimaxAI::impossible(StdRng::seed_from_u64(2)).sharing(&pool);
        let empty = board(3, 3, ".........");

        first.advise(&empty, Mark::X);
        second.advise(&empty, Mark::O);

        assert_eq!(pool.shapes(), 1);
    }

    #[test]
    fn a_computer_player_can_move_to_another_thread() {
        fn assert_send<T: Send>(_: &T) {}
        let ai = MinimaxAI::impossible(StdRng::seed_from_u64(0));

        assert_send(&ai);
    }
}
