//! The exact solver behind the Impossible level.
//!
//! Two searches under one API. Boards larger than 4 x 4 go to the [`Prover`]: it proves
//! the value first with yes/no questions and measures the game's length only for the
//! moves that keep it. The 3 x 3 and 4 x 4 boards, where a full search is quicker than
//! two questions, keep the negamax described here.
//!
//! Negamax with alpha-beta pruning over bitboards. A score is always from the point of
//! view of the side to move, and encodes how soon the game ends:
//!
//! * a win whose last move leaves `r` cells empty scores `r + 1`,
//! * a loss likewise scores `-(r + 1)`,
//! * a draw scores 0.
//!
//! So among wins the fastest scores highest, and among losses the slowest: the search
//! never delays a win it could take now (the bug in one of the seed articles) and never
//! hurries a loss. A transposition table remembers positions already searched.

use super::bits::{Shape, Tactics};
use super::book::Book;
use super::clock::{Deadline, TimeCheck};
use super::memory::{Counted, Memory};
use super::outcome::Outcome;
use super::progress::Progress;
use super::prover::Prover;
use super::symmetry::Symmetries;
use tictactoe_core::domain::{Analysis, Board, Geometry, Mark, Position, Verdict};

pub struct Solver {
    shape: Shape,
    /// When the deadline passes, every frame returns at once and stores nothing.
    time: TimeCheck,
    symmetries: &'static Symmetries,
    table: Counted<Entry>,
    /// Finished answers (score and best-move cells) by exact position, so a position met
    /// again, as in game after game of a simulation, is one look-up.
    answers: Counted<Outcome>,
    /// What every table of this solver draws on (its provers' too).
    memory: Memory,
    /// The yes/no proof search, for boards larger than [`NEGAMAX_CELLS`].
    prover: Option<Box<Prover>>,
    /// Another, for a second core: `analyze` settles the moves of a position on both.
    helper: Option<Box<Prover>>,
    /// Whether answers may come from the opening book ([`without_book`](Self::without_book)).
    book: bool,
}

/// Whether this machine has a second core for a helper prover (asked once: the
/// question reads the system's files).
fn two_cores() -> bool {
    static TWO: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *TWO.get_or_init(|| std::thread::available_parallelism().is_ok_and(|n| n.get() > 1))
}

/// Boards up to this many cells (3 x 3 and 4 x 4) are solved by negamax with distances
/// in one search; larger ones by proving the value first ([`Prover`]).
const NEGAMAX_CELLS: usize = 16;

#[derive(Clone, Copy)]
struct Entry {
    score: i8,
    bound: Bound,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

const INFINITY: i32 = 100;

impl Solver {
    /// A solver whose tables hold at most [`DEFAULT_BYTES`](crate::DEFAULT_BYTES).
    pub fn new(geometry: Geometry) -> Self {
        Solver::within(geometry, Memory::default())
    }

    /// A solver whose tables draw on `memory`, which other solvers may share: across
    /// many games the tables would otherwise grow without end, so a table that finds
    /// it spent starts again (they are caches: nothing is lost but time). A full solve
    /// of the empty 5 x 5 board needs well under the default.
    pub fn within(geometry: Geometry, memory: Memory) -> Self {
        Solver {
            shape: Shape::new(geometry),
            time: TimeCheck::default(),
            symmetries: Symmetries::of(geometry),
            // A cold solve of the empty 3 x 3 board stores 448 positions: with room for
            // them from the start, the first search never stops to regrow the table.
            table: Counted::with_room(memory.clone(), 1024),
            answers: Counted::new(memory.clone()),
            memory,
            prover: None,
            helper: None,
            book: true,
        }
    }

    /// A solver that never reads the opening book: every answer is its own proof (for
    /// `analyze --no-book`, and to measure the search alone).
    pub fn without_book(mut self) -> Self {
        self.book = false;
        self
    }

    /// Forgets what the tables hold (the provers' too), giving their memory back: for a
    /// solver nobody has used for a while. Later searches start cold.
    pub fn forget(&mut self) {
        self.table.forget();
        self.answers.forget();
        if let Some(prover) = &self.prover {
            prover.forget();
        }
    }

    /// How many positions this solver's searches have visited so far (a measure of
    /// work that does not depend on the machine).
    pub fn positions(&self) -> u64 {
        self.time.total()
            + [&self.prover, &self.helper]
                .iter()
                .filter_map(|prover| prover.as_ref())
                .map(|prover| prover.positions())
                .sum::<u64>()
    }

    /// Whether this solver answers from the opening book where it can.
    pub fn reads_book(&self) -> bool {
        self.book
    }

    pub fn geometry(&self) -> Geometry {
        self.shape.geometry
    }

    /// Solves the position for `to_move`. `None` if the game is already over.
    ///
    /// The table is kept between calls, so later positions of the same game are quick.
    pub fn analyze(&mut self, board: &dyn Board, to_move: Mark) -> Option<Analysis> {
        self.solve(board, to_move, None)
    }

    /// Like [`analyze`](Self::analyze), but gives up (`None`) when `deadline` passes.
    /// What was learnt before then stays in the table, so the next call starts warmer.
    pub fn analyze_by(
        &mut self,
        board: &dyn Board,
        to_move: Mark,
        deadline: Deadline,
    ) -> Option<Analysis> {
        self.solve(board, to_move, Some(&deadline))
    }

    fn solve(
        &mut self,
        board: &dyn Board,
        to_move: Mark,
        deadline: Option<&Deadline>,
    ) -> Option<Analysis> {
        if board.geometry() != self.shape.geometry || board.winner().is_some() || board.is_full() {
            return None;
        }
        self.time.restart();
        let me = board.bits(to_move);
        let opp = board.bits(to_move.opponent());
        let position = (u128::from(me) << 64) | u128::from(opp);
        let outcome = match self.answers.get(&position) {
            Some(&outcome) => outcome,
            None => {
                let book = Book::of(self.shape.geometry)
                    .filter(|_| self.book)
                    .and_then(|book| book.get(me, opp));
                let outcome = if self.shape.cell_count() <= NEGAMAX_CELLS {
                    let (score, best) = self.best_moves(me, opp, deadline)?;
                    Outcome::from_score(score, best, self.empty_count(me, opp))
                } else if let Some(known) = book.filter(|known| known.exact) {
                    known
                } else {
                    // A book's partial answer (some moves proven) only if the search
                    // cannot prove anything in time.
                    let geometry = self.shape.geometry;
                    let prover = self
                        .prover
                        .get_or_insert_with(|| Box::new(Prover::new(geometry, &self.memory)));
                    // A second prover, for a second core: the same table, no reports.
                    let helper = two_cores().then(|| {
                        &mut **self.helper.get_or_insert_with(|| Box::new(prover.beside()))
                    });
                    match prover.analyze(me, opp, deadline, helper) {
                        Some(outcome) => outcome,
                        None => book?,
                    }
                };
                if outcome.exact {
                    self.answers.insert(position, outcome);
                }
                outcome
            }
        };
        let geometry = self.shape.geometry;
        Some(Analysis {
            verdict: outcome.verdict,
            plies: usize::from(outcome.plies),
            best_moves: geometry
                .positions()
                .filter(|p| outcome.best & p.bit() != 0)
                .collect(),
            exact: outcome.exact,
            // The prover and the book list only moves they proved; negamax is exact.
            moves_proven: true,
        })
    }

    /// The moves here after which the opening book answers every reply: the ones the
    /// Impossible player prefers among equally good moves, so that its next move is
    /// proven at once (on (7,7,5), X in the centre). Empty where the book has nothing
    /// to say, as on every other board.
    pub fn book_follows(board: &dyn Board, to_move: Mark) -> Vec<Position> {
        let geometry = board.geometry();
        let Some(book) = Book::of(geometry) else {
            return Vec::new();
        };
        let (me, opp) = (board.bits(to_move), board.bits(to_move.opponent()));
        let all = geometry.positions().fold(0, |all, p| all | p.bit());
        let follows = book.follows(me, opp, all & !(me | opp));
        geometry
            .positions()
            .filter(|p| follows & p.bit() != 0)
            .collect()
    }

    /// Only the verdict for `to_move`, without the best moves or the game's length:
    /// the least work that proves it. `None` if the game is over.
    pub fn value(&mut self, board: &dyn Board, to_move: Mark) -> Option<Verdict> {
        if board.geometry() != self.shape.geometry || board.winner().is_some() || board.is_full() {
            return None;
        }
        self.time.restart();
        let me = board.bits(to_move);
        let opp = board.bits(to_move.opponent());
        if self.shape.cell_count() <= NEGAMAX_CELLS {
            let score = self.negamax(me, opp, -INFINITY, INFINITY, None);
            Some(Outcome::from_score(score, 0, self.empty_count(me, opp)).verdict)
        } else {
            self.prover_mut().value(me, opp, None)
        }
    }

    /// Whether `attacker` can force a win from this position with `to_move` to move,
    /// by the proof search alone (any board size). `None` if the game is over or the
    /// deadline passed first.
    pub fn can_force_win(
        &mut self,
        board: &dyn Board,
        attacker: Mark,
        to_move: Mark,
        deadline: Option<&Deadline>,
    ) -> Option<bool> {
        if board.geometry() != self.shape.geometry || board.winner().is_some() || board.is_full() {
            return None;
        }
        let (a, d) = (board.bits(attacker), board.bits(attacker.opponent()));
        self.prover_mut().wins(
            a,
            d,
            attacker == to_move,
            super::prover::UNBOUNDED,
            deadline,
        )
    }

    fn empty_count(&self, me: u64, opp: u64) -> u32 {
        (self.shape.all & !(me | opp)).count_ones()
    }

    /// The proof search, made on first use: the small boards never need it.
    /// Reports what the proof search settles, on boards larger than 4 x 4, to
    /// `progress` from now on (`None`: to nobody); answers the one reported to before.
    pub fn report_to(&mut self, progress: Option<Box<dyn Progress>>) -> Option<Box<dyn Progress>> {
        self.prover_mut().report_to(progress)
    }

    fn prover_mut(&mut self) -> &mut Prover {
        self.prover
            .get_or_insert_with(|| Box::new(Prover::new(self.shape.geometry, &self.memory)))
    }

    /// The position's score and the cells of every move that keeps it; `None` if the
    /// deadline passed first.
    fn best_moves(&mut self, me: u64, opp: u64, deadline: Option<&Deadline>) -> Option<(i32, u64)> {
        let empty = self.shape.all & !(me | opp);
        let score = self.negamax(me, opp, -INFINITY, INFINITY, deadline);

        let winning_now = self.shape.threats(me, opp) & empty;
        let mut best = 0u64;
        let mut cells = empty;
        while cells != 0 {
            let bit = cells & cells.wrapping_neg();
            cells &= cells - 1;
            let keeps_score = if winning_now != 0 {
                winning_now & bit != 0
            } else {
                // A null window around `score`: this move is best iff the reply scores at most -score.
                -self.negamax(opp, me | bit, -score, -score + 1, deadline) >= score
            };
            if keeps_score {
                best |= bit;
            }
        }
        if self.time.ran_out() {
            return None;
        }
        Some((score, best))
    }

    fn negamax(
        &mut self,
        me: u64,
        opp: u64,
        mut alpha: i32,
        mut beta: i32,
        deadline: Option<&Deadline>,
    ) -> i32 {
        if self.time.expired(deadline) {
            return 0;
        }
        // A win now scores highest; two threats lose to the opponent's next move.
        let (moves, scan, left) = match self.shape.tactics(me, opp, 0) {
            Tactics::Settled(score) => return score,
            Tactics::Search { moves, scan, left } => (moves, scan, left),
        };

        // Bounds from the lines still open. Needing `n` more marks, a side wins at the
        // earliest with its n-th move from now: for the side to move that is ply 2n - 1
        // (score left - 2n + 2), for the opponent ply 2n (score -(left - 2n + 1)).
        // A side with no open line can do no better than a draw.
        let k = self.shape.win_length() as i32;
        let best_possible = match scan.my_most {
            0 => 0,
            most => (left - 2 * (k - (most as i32 - 1)) + 2).max(0),
        };
        let worst_possible = match scan.their_most {
            0 => 0,
            most => (-(left - 2 * (k - (most as i32 - 1)) + 1)).min(0),
        };
        if best_possible == worst_possible {
            return best_possible;
        }
        beta = beta.min(best_possible);
        alpha = alpha.max(worst_possible);
        if alpha >= beta {
            return if best_possible <= alpha {
                best_possible
            } else {
                worst_possible
            };
        }

        let key = self.symmetries.canonical(me, opp);
        if let Some(entry) = self.table.get(&key) {
            let score = i32::from(entry.score);
            match entry.bound {
                Bound::Exact => return score,
                Bound::Lower => alpha = alpha.max(score),
                Bound::Upper => beta = beta.min(score),
            }
            if alpha >= beta {
                return score;
            }
        }

        let original_alpha = alpha;
        let mut best = -INFINITY;
        for rank in 0..self.shape.cell_count() {
            let bit = self.shape.ordered_bit(rank);
            if moves & bit == 0 {
                continue;
            }
            let score = -self.negamax(opp, me | bit, -beta, -alpha, deadline);
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }

        if self.time.ran_out() {
            // An unfinished search proves nothing: keep it out of the table.
            return 0;
        }
        let bound = if best <= original_alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        // Scores lie within ±50 (at most 49 cells), so they fit an i8.
        self.table.insert(
            key,
            Entry {
                score: best as i8,
                bound,
            },
        );
        best
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::MockClock;
    use tictactoe_core::domain::BitBoard;

    #[test]
    fn a_solver_without_the_book_proves_what_the_book_would_have_answered() {
        // Arrange: the empty (7,7,5) board, which the book holds whole, and no time at
        // all, so that only the book can answer.
        let geometry = Geometry::new(7, 5).unwrap();
        let board = BitBoard::new(geometry);
        let clock = MockClock::stuck_at(Duration::ZERO);
        let no_time = || Deadline::after(&clock, Duration::ZERO);

        // Act
        let with_book = Solver::new(geometry).analyze_by(&board, Mark::X, no_time());
        let without = Solver::new(geometry)
            .without_book()
            .analyze_by(&board, Mark::X, no_time());

        // Assert
        assert_eq!(
            with_book.map(|a| (a.verdict, a.exact)),
            Some((Verdict::Draw, true))
        );
        assert_eq!(without, None);
    }
}
