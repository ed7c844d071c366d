//! The best guess when there is no time to prove: iterative deepening alpha-beta with a
//! judgement of the position at the horizon.
//!
//! The judgement counts "winning units", as one seed article calls them: every line a
//! side can still complete is worth something, the more of it already filled the more.
//! Wins and losses found within the horizon are certain and score beyond any judgement
//! (`DECIDED + cells left`, as the exact solver scores them), so a win seen is always
//! taken, and the fastest one first.

use super::bits::{Shape, Tactics};
use super::clock::{Deadline, TimeCheck};
use tictactoe_core::domain::{Analysis, Board, Geometry, Mark, Verdict};

/// Scores at or beyond this are wins or losses found within the horizon.
const DECIDED: i32 = 1_000_000;
const INFINITY: i32 = 2 * DECIDED;

pub struct Estimator {
    shape: Shape,
    /// What a line with `i` of one side's marks (and none of the other's) is worth.
    weights: Vec<i32>,
    time: TimeCheck,
}

impl Estimator {
    pub fn new(geometry: Geometry) -> Self {
        // Each further mark on an open line is worth eight times the one before.
        let weights = (0..=geometry.win_length() as u32)
            .map(|held| 8i32.pow(held))
            .collect();
        Estimator {
            shape: Shape::new(geometry),
            weights,
            time: TimeCheck::default(),
        }
    }

    pub fn geometry(&self) -> Geometry {
        self.shape.geometry
    }

    /// Searches one move deep, then two, and so on until `deadline`, and answers from the
    /// deepest search that finished. The first always finishes, so there is always an
    /// answer for a game in progress. `exact` is true when the search saw to the end.
    pub fn estimate(
        &mut self,
        board: &dyn Board,
        to_move: Mark,
        deadline: Deadline,
    ) -> Option<Analysis> {
        if board.geometry() != self.shape.geometry || board.winner().is_some() || board.is_full() {
            return None;
        }
        let me = board.bits(to_move);
        let opp = board.bits(to_move.opponent());
        let empty = self.shape.all & !(me | opp);
        let left = empty.count_ones() as i32;
        let scan = self.shape.scan(me, opp);
        let candidates = if scan.my_threats & empty != 0 {
            scan.my_threats & empty
        } else if scan.their_threats & empty != 0 {
            // Block; with two threats every block loses anyway, so any will do.
            scan.their_threats & empty
        } else {
            empty
        };

        let mut answer = None;
        for depth in 1..=left {
            self.time.restart();
            // The first search runs without a deadline: it is cheap and must finish.
            let limit = (depth > 1).then_some(&deadline);
            let mut scored = Vec::new();
            let mut cells = candidates;
            while cells != 0 {
                let bit = cells & cells.wrapping_neg();
                cells &= cells - 1;
                let score = if scan.my_threats & bit != 0 {
                    DECIDED + left
                } else {
                    -self.search(opp, me | bit, depth - 1, -INFINITY, INFINITY, limit)
                };
                scored.push((bit, score));
            }
            if self.time.ran_out() {
                break;
            }
            let best = scored.iter().map(|&(_, s)| s).max().unwrap_or(0);
            let best_bits = scored
                .iter()
                .filter(|&&(_, s)| s == best)
                .fold(0, |m, &(b, _)| m | b);
            // Seeing to the end, or a win or loss within the horizon, is proof: no deeper
            // search can change it.
            let proven = depth >= left || best.abs() >= DECIDED;
            answer = Some(self.analysis(best, best_bits, left, proven));
            if proven || (depth > 1 && deadline.passed()) {
                break;
            }
        }
        answer
    }

    fn analysis(&self, score: i32, best: u64, left: i32, exact: bool) -> Analysis {
        let (verdict, plies) = if score >= DECIDED {
            (Verdict::Win, left - (score - DECIDED) + 1)
        } else if score <= -DECIDED {
            (Verdict::Loss, left - (-score - DECIDED) + 1)
        } else {
            (Verdict::Draw, left)
        };
        Analysis {
            verdict,
            plies: plies as usize,
            best_moves: self
                .shape
                .geometry
                .positions()
                .filter(|p| best & p.bit() != 0)
                .collect(),
            exact,
            moves_proven: exact,
        }
    }

    fn search(
        &mut self,
        me: u64,
        opp: u64,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        deadline: Option<&Deadline>,
    ) -> i32 {
        if self.time.expired(deadline) {
            return 0;
        }
        let (moves, scan) = match self.shape.tactics(me, opp, DECIDED) {
            Tactics::Settled(score) => return score,
            Tactics::Search { moves, scan, .. } => (moves, scan),
        };
        if scan.my_most == 0 && scan.their_most == 0 {
            return 0; // nobody can complete a line: a certain draw
        }
        if depth <= 0 {
            return self.judge(me, opp);
        }
        let mut best = -INFINITY;
        for rank in 0..self.shape.cell_count() {
            let bit = self.shape.ordered_bit(rank);
            if moves & bit == 0 {
                continue;
            }
            let score = -self.search(opp, me | bit, depth - 1, -beta, -alpha, deadline);
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Winning units: open lines for the side to move minus open lines for the opponent,
    /// each weighted by how full it is.
    fn judge(&self, me: u64, opp: u64) -> i32 {
        self.shape
            .masks()
            .iter()
            .map(
                |&mask| match ((me & mask).count_ones(), (opp & mask).count_ones()) {
                    (0, 0) => 0,
                    (mine, 0) => self.weights[mine as usize],
                    (0, theirs) => -self.weights[theirs as usize],
                    _ => 0,
                },
            )
            .sum::<i32>()
            .clamp(-(DECIDED - 1), DECIDED - 1)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::MockClock;
    use tictactoe_core::domain::{BitBoard, fill_from_layout};

    fn geometry(size: usize, win: usize) -> Geometry {
        Geometry::new(size, win).unwrap()
    }

    fn cells(list: &[u32]) -> u64 {
        list.iter().fold(0, |m, &c| m | 1 << c)
    }

    /// The estimate of a position on an `size` x `size` board, `win` in a row, with time
    /// to spare: the clock (a stub) stands still, so no deadline passes and every depth
    /// is searched.
    fn estimate_unhurried(
        size: usize,
        win: usize,
        layout: &str,
        to_move: Mark,
    ) -> Option<Analysis> {
        let board = fill_from_layout(BitBoard::new(geometry(size, win)), layout).unwrap();
        let clock = MockClock::stuck_at(Duration::ZERO);
        let deadline = Deadline::after(&clock, Duration::from_secs(1));
        Estimator::new(geometry(size, win)).estimate(&board, to_move, deadline)
    }

    #[test]
    fn a_side_with_a_line_half_built_is_judged_ahead() {
        // 5 x 5, four in a row: the side to move holds two of the top row, the other
        // side one corner cell at the bottom.
        let estimator = Estimator::new(geometry(5, 4));
        let (two, one) = (cells(&[0, 1]), cells(&[24]));

        let ahead = estimator.judge(two, one);
        let behind = estimator.judge(one, two);

        assert!(ahead > 0, "{ahead}");
        assert_eq!(behind, -ahead);
    }

    #[test]
    fn a_line_with_both_marks_counts_for_nobody() {
        // 3 x 3: X and O each on the top row, nothing else.
        let estimator = Estimator::new(geometry(3, 3));

        let crossed = estimator.judge(cells(&[0]), cells(&[1]));
        let apart = estimator.judge(cells(&[0]), cells(&[8]));

        assert_ne!(crossed, apart);
    }

    /// 4 x 4, three in a row, with time to see two moves ahead. X on cell 5 (row 1,
    /// column 1), O in the two bottom corners, X to move: X on 6 threatens 4 and 7, X on 9
    /// threatens 1 and 13, and O can block only one, so X wins with its second move (3
    /// plies). X on 5 and 6 threatening 4 and 7, O to move: O loses at X's next move.
    #[rstest::rstest]
    #[case::a_fork_two_moves_ahead_is_found_and_proven(
        "..../.x../..../o..o", Mark::X, Verdict::Win, 3, &[6, 9]
    )]
    #[case::facing_a_fork_it_sees_the_loss_and_says_so(
        "..../.xx./..../o...", Mark::O, Verdict::Loss, 2, &[]
    )]
    fn a_fork_is_seen_from_either_side(
        #[case] layout: &str,
        #[case] to_move: Mark,
        #[case] verdict: Verdict,
        #[case] plies: usize,
        #[case] among_the_best: &[usize],
    ) {
        let analysis = estimate_unhurried(4, 3, layout, to_move).unwrap();

        assert_eq!((analysis.verdict, analysis.plies), (verdict, plies));
        assert!(analysis.exact);
        let best: Vec<usize> = analysis.best_moves.iter().map(|p| p.index()).collect();
        assert!(
            among_the_best.iter().all(|cell| best.contains(cell)),
            "{best:?}"
        );
    }

    #[test]
    fn an_estimator_reports_the_shape_it_was_made_for() {
        let estimator = Estimator::new(geometry(5, 4));

        assert_eq!(estimator.geometry(), geometry(5, 4));
    }

    #[test]
    fn a_finished_game_has_no_estimate() {
        let (won, full) = ("xxx/oo./...", "xox/xoo/oxx");

        let (after_a_win, on_a_full_board) = (
            estimate_unhurried(3, 3, won, Mark::O),
            estimate_unhurried(3, 3, full, Mark::X),
        );

        assert!(after_a_win.is_none());
        assert!(on_a_full_board.is_none());
    }

    #[test]
    fn a_win_on_the_move_is_taken() {
        // 4 x 4, three in a row: X to move completes its row at cell 2.
        let layout = "xx../oo../..../....";

        let analysis = estimate_unhurried(4, 3, layout, Mark::X).unwrap();

        assert_eq!((analysis.verdict, analysis.plies), (Verdict::Win, 1));
        let best: Vec<usize> = analysis.best_moves.iter().map(|p| p.index()).collect();
        assert_eq!(best, [2]);
    }
}
