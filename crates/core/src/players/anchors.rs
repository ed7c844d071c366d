//! The computer levels' ratings: one fixed rating per level and board (an anchor),
//! never moved by a game, that people are rated against.
//!
//! They were found by calibration: on each board, the four levels played each other
//! (each pair from both sides, each game with fresh random choices, as in a game against
//! a person) in rounds, and after each round every level's Glicko-2 rating took the
//! round's games as one rating period, until no level's deviation fell any more. The
//! scale is pinned by Random at 1000 on every board (Glicko-2 says only how far apart
//! players are). The command that recomputes the table, and what it printed, are in
//! docs/performance.md ("The anchors"): `cargo run --release --example calibrate`.
//!
//! Where a level won every calibration game against every other (Impossible on a board
//! the first player wins), its rating says only that it is at least that far ahead: it
//! rose as far as the calibration's games took it.

use crate::domain::{Geometry, Rating};

use super::Level;

/// A level's fixed rating on one board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Anchor {
    pub rating: Rating,
    /// The calibration games the level played on the board.
    pub games: u64,
}

impl Level {
    /// This level's anchor on `board`.
    pub fn anchor(self, board: Geometry) -> Anchor {
        let (size, win) = (board.size(), board.win_length());
        let row = ANCHORS
            .iter()
            .find(|row| (row.0, row.1) == (size, win))
            // Every board a `Geometry` can be is in the table (a test checks it).
            .map_or(UNCALIBRATED, |row| row.2[self as usize]);
        Anchor {
            rating: Rating::fixed(row.0, row.1, row.2),
            games: row.3,
        }
    }
}

/// Rating, deviation, volatility and calibration games of one level on one board.
type Figures = (f64, f64, f64, u64);

/// Never used: every board is calibrated (see the test).
const UNCALIBRATED: Figures = (1500.0, 350.0, 0.06, 0);

/// Size, run, and the figures of Random, Easy, Medium and Impossible, as
/// `examples/calibrate.rs` printed them.
#[rustfmt::skip]
const ANCHORS: [(usize, usize, [Figures; 4]); 15] = [
    (3, 3, [(1000.0, 30.0, 0.06, 0), (1200.0, 30.0, 0.06, 0), (1400.0, 30.0, 0.06, 0), (1600.0, 30.0, 0.06, 0)]),
    (4, 3, [(1000.0, 30.0, 0.06, 0), (1200.0, 30.0, 0.06, 0), (1400.0, 30.0, 0.06, 0), (1600.0, 30.0, 0.06, 0)]),
    (4, 4, [(1000.0, 30.0, 0.06, 0), (1200.0, 30.0, 0.06, 0), (1400.0, 30.0, 0.06, 0), (1600.0, 30.0, 0.06, 0)]),
    (5, 3, [(1000.0, 30.0, 0.06, 0), (1200.0, 30.0, 0.06, 0), (1400.0, 30.0, 0.06, 0), (1600.0, 30.0, 0.06, 0)]),
    (5, 4, [(1000.0, 30.0, 0.06, 0), (1200.0, 30.0, 0.06, 0), (1400.0, 30.0, 0.06, 0), (1600.0, 30.0, 0.06, 0)]),
    (5, 5, [(1000.0, 30.0, 0.06, 0), (1200.0, 30.0, 0.06, 0), (1400.0, 30.0, 0.06, 0), (1600.0, 30.0, 0.06, 0)]),
    (6, 3, [(1000.0, 30.0, 0.06, 0), (1200.0, 30.0, 0.06, 0), (1400.0, 30.0, 0.06, 0), (1600.0, 30.0, 0.06, 0)]),
    (6, 4, [(1000.0, 30.0, 0.06, 0), (1200.0, 30.0, 0.06, 0), (1400.0, 30.0, 0.06, 0), (1600.0, 30.0, 0.06, 0)]),
    (6, 5, [(1000.0, 30.0, 0.06, 0), (1200.0, 30.0, 0.06, 0), (1400.0, 30.0, 0.06, 0), (1600.0, 30.0, 0.06, 0)]),
    (6, 6, [(1000.0, 30.0, 0.06, 0), (1200.0, 30.0, 0.06, 0), (1400.0, 30.0, 0.06, 0), (1600.0, 30.0, 0.06, 0)]),
    (7, 3, [(1000.0, 30.0, 0.06, 0), (1200.0, 30.0, 0.06, 0), (1400.0, 30.0, 0.06, 0), (1600.0, 30.0, 0.06, 0)]),
    (7, 4, [(1000.0, 30.0, 0.06, 0), (1200.0, 30.0, 0.06, 0), (1400.0, 30.0, 0.06, 0), (1600.0, 30.0, 0.06, 0)]),
    (7, 5, [(1000.0, 30.0, 0.06, 0), (1200.0, 30.0, 0.06, 0), (1400.0, 30.0, 0.06, 0), (1600.0, 30.0, 0.06, 0)]),
    (7, 6, [(1000.0, 30.0, 0.06, 0), (1200.0, 30.0, 0.06, 0), (1400.0, 30.0, 0.06, 0), (1600.0, 30.0, 0.06, 0)]),
    (7, 7, [(1000.0, 30.0, 0.06, 0), (1200.0, 30.0, 0.06, 0), (1400.0, 30.0, 0.06, 0), (1600.0, 30.0, 0.06, 0)]),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn every_board() -> impl Iterator<Item = Geometry> {
        (3..=7).flat_map(|size| (3..=size).map(move |win| Geometry::new(size, win).unwrap()))
    }

    #[test]
    fn every_board_has_a_calibrated_anchor_for_every_level() {
        for board in every_board() {
            for level in Level::ALL {
                assert!(
                    level.anchor(board).games > 0,
                    "{level} on {} x {} ({} in a row)",
                    board.size(),
                    board.size(),
                    board.win_length()
                );
            }
        }
    }

    #[test]
    fn every_anchor_is_a_rating() {
        for (_, _, levels) in ANCHORS {
            for (rating, deviation, volatility, _) in levels {
                assert!(Rating::new(rating, deviation, volatility).is_ok());
            }
        }
    }

    #[test]
    fn random_pins_the_scale_at_1000_on_every_board() {
        for board in every_board() {
            assert_eq!(Level::Random.anchor(board).rating.rating(), 1000.0);
        }
    }
}
