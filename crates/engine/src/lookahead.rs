//! A shallow search for the weaker levels: it sees `depth` moves ahead and nothing more.
//!
//! Depth 1 sees its own immediate wins; depth 2 also sees the opponent's immediate
//! replies, so it blocks a single threat but walks into a fork. Beyond the horizon every
//! position counts as level, which is what makes these players beatable.

use super::bits::Shape;
use tictactoe_core::domain::{Board, Geometry, Mark, Position};

pub struct Lookahead {
    shape: Shape,
    depth: u32,
}

impl Lookahead {
    /// `depth` is clamped to at least 1: a player must look at its own moves.
    pub fn new(geometry: Geometry, depth: u32) -> Self {
        Lookahead {
            shape: Shape::new(geometry),
            depth: depth.max(1),
        }
    }

    pub fn geometry(&self) -> Geometry {
        self.shape.geometry
    }

    /// The moves that score best within the horizon, in ascending order. Empty if the
    /// game is over.
    pub fn best_moves(&self, board: &dyn Board, to_move: Mark) -> Vec<Position> {
        if board.geometry() != self.shape.geometry || board.winner().is_some() {
            return Vec::new();
        }
        let me = board.bits(to_move);
        let opp = board.bits(to_move.opponent());
        let scored: Vec<(Position, i32)> = board
            .empty_cells()
            .into_iter()
            .map(|cell| (cell, self.score_move(me, opp, cell.bit(), self.depth)))
            .collect();
        let Some(top) = scored.iter().map(|&(_, score)| score).max() else {
            return Vec::new();
        };
        scored
            .into_iter()
            .filter(|&(_, s)| s == top)
            .map(|(cell, _)| cell)
            .collect()
    }

    /// The score of playing `bit`, for the side that plays it, seen `depth` moves deep.
    fn score_move(&self, me: u64, opp: u64, bit: u64, depth: u32) -> i32 {
        let left = (self.shape.all & !(me | opp)).count_ones() as i32;
        if self.shape.threats(me, opp) & bit != 0 {
            return left;
        }
        if depth <= 1 {
            return 0;
        }
        let me = me | bit;
        let empty = self.shape.all & !(me | opp);
        let mut best_reply = i32::MIN;
        let mut cells = empty;
        while cells != 0 {
            let reply = cells & cells.wrapping_neg();
            cells &= cells - 1;
            best_reply = best_reply.max(self.score_move(opp, me, reply, depth - 1));
        }
        if best_reply == i32::MIN {
            0
        } else {
            -best_reply
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictactoe_core::domain::{BitBoard, fill_from_layout};

    fn board(size: usize, win: usize, layout: &str) -> BitBoard {
        fill_from_layout(BitBoard::new(Geometry::new(size, win).unwrap()), layout).unwrap()
    }

    fn indices(cells: &[Position]) -> Vec<usize> {
        cells.iter().map(|p| p.index()).collect()
    }

    #[test]
    fn a_lookahead_reports_the_shape_it_was_made_for() {
        // The players keep a lookahead across games only while its shape is the board's.
        let geometry = Geometry::new(5, 4).unwrap();

        let lookahead = Lookahead::new(geometry, 2);

        assert_eq!(lookahead.geometry(), geometry);
    }

    #[test]
    fn a_won_game_leaves_no_move() {
        let lookahead = Lookahead::new(Geometry::classic(), 2);

        let moves = lookahead.best_moves(&board(3, 3, "xxx/oo./..."), Mark::O);

        assert_eq!(moves, Vec::new());
    }

    #[test]
    fn three_moves_deep_a_win_now_comes_before_a_win_later() {
        // 3 x 3, X to move with two threats (cells 2 and 6): either wins now, while
        // the last empty cell (8) wins only two plies later.
        let lookahead = Lookahead::new(Geometry::classic(), 3);

        let moves = lookahead.best_moves(&board(3, 3, "xx./xoo/.o."), Mark::X);

        assert_eq!(indices(&moves), [2, 6]);
    }

    #[test]
    fn three_moves_deep_a_fork_is_found() {
        // 4 x 4, three in a row: X on cell 5 and to move; O in the two bottom corners.
        // X on 6 threatens 4 and 7, X on 9 threatens 1 and 13: O blocks only one.
        let lookahead = Lookahead::new(Geometry::new(4, 3).unwrap(), 3);

        let moves = lookahead.best_moves(&board(4, 3, "..../.x../..../o..o"), Mark::X);

        assert_eq!(indices(&moves), [6, 9]);
    }
}
