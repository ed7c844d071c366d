//! A shallow search for the weaker levels: it sees `depth` moves ahead and nothing more.
//!
//! Depth 1 sees its own immediate wins; depth 2 also sees the opponent's immediate
//! replies, so it blocks a single threat but walks into a fork. Beyond the horizon every
//! position counts as level, which is what makes these players beatable.

use super::bits::Shape;
use crate::domain::{Board, Geometry, Mark, Position};

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
