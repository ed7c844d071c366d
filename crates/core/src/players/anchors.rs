//! The computer levels' ratings: one fixed rating per level and board (an anchor),
//! never moved by a game, that people are rated against.
//!
//! They were found by calibration: on each board, the four levels played each other
//! (each pair from both sides, each game with fresh random choices, as in a game against
//! a person) in 12 rounds, and after each round every level's Glicko-2 rating took the
//! round's games as one rating period (the same `skillratings` Glicko-2 and
//! configuration people are rated with; Glicko-2 itself needs a period of several
//! games to settle a rating from a start of 1500 ± 350, which one-game periods would
//! take far longer to do). The
//! scale is pinned by Random at 1000 on every board (Glicko-2 says only how far apart
//! players are). The command that recomputes the table, and what it printed, are in
//! docs/ratings.md ("The anchors"): `cargo run --release --features measure --example calibrate`.
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

impl Anchor {
    /// The strongest level's anchor on `board`: perfect play's, or whichever level the
    /// calibration found stronger (on 5 x 5 Medium's anchor is a little above
    /// Impossible's, both drawing every game perfect play can draw). Impossible never
    /// loses on any board here, so nobody outplays it: no person is ever rated above
    /// this ([`Anchor::ceiling`]).
    pub fn strongest(board: Geometry) -> Rating {
        Level::ALL
            .map(|level| level.anchor(board).rating)
            .into_iter()
            .fold(Level::Random.anchor(board).rating, |best, rating| {
                if rating.rating() > best.rating() {
                    rating
                } else {
                    best
                }
            })
    }

    /// Where every person starts on `board`: [`Rating::START`] (1500 ± 350), but no
    /// higher than [`Anchor::strongest`]; on the boards where the levels are close
    /// (4 x 4 and up with a long run), perfect play sits below 1500, and a newcomer is
    /// not rated above perfect play before their first game.
    pub fn start(board: Geometry) -> Rating {
        let strongest = Anchor::strongest(board).rating();
        Rating::START.at_most(strongest)
    }

    /// The highest rating a game against `opponent` may leave a person with on
    /// `board`, as a person stood at `before` (a game never takes away what the person
    /// had: it only stops their rise):
    ///
    /// * against a level, the anchor of the next stronger level: beating a level again
    ///   and again cannot lift a person above the levels that beat it more often (60
    ///   wins over Random reach Easy's anchor and no further);
    /// * against a person, or the strongest level, the strongest anchor;
    ///
    /// and never above the strongest anchor, whatever `before` was.
    pub fn ceiling(board: Geometry, opponent: Option<Level>, before: Rating) -> f64 {
        let strongest = Anchor::strongest(board).rating();
        let reach = match opponent {
            None => strongest,
            Some(level) => {
                let beaten = level.anchor(board).rating.rating();
                Level::ALL
                    .map(|other| other.anchor(board).rating.rating())
                    .into_iter()
                    .filter(|&rating| rating > beaten)
                    .fold(strongest, f64::min)
            }
        };
        reach.max(before.rating()).min(strongest)
    }
}

/// Rating, deviation, volatility and calibration games of one level on one board.
type Figures = (f64, f64, f64, u64);

/// Never used: every board is calibrated (see the test).
const UNCALIBRATED: Figures = (1500.0, 350.0, 0.06, 0);

/// Size, run, and the figures of Random, Easy, Medium and Impossible, as
/// `cargo run --release --features measure --example calibrate` printed them (its defaults: 12 rounds of
/// 4 games a pairing and side, Impossible thinking 100 ms a move, seed 1).
#[rustfmt::skip]
const ANCHORS: [(usize, usize, [Figures; 4]); 15] = [
    (3, 3, [(1000.0, 36.7, 0.0600, 288), (1175.3, 32.7, 0.0598, 288), (1395.1, 32.7, 0.0599, 288), (1554.2, 36.9, 0.0599, 288)]),
    (4, 3, [(1000.0, 52.1, 0.0600, 288), (1368.6, 38.8, 0.0599, 288), (1671.0, 37.0, 0.0600, 288), (1935.7, 44.1, 0.0600, 288)]),
    (4, 4, [(1000.0, 30.5, 0.0597, 288), (1066.2, 28.9, 0.0596, 288), (1240.2, 29.1, 0.0596, 288), (1279.8, 29.8, 0.0596, 288)]),
    (5, 3, [(1000.0, 50.8, 0.0600, 288), (1393.5, 37.2, 0.0599, 288), (1573.5, 37.1, 0.0598, 288), (1969.3, 49.6, 0.0600, 288)]),
    (5, 4, [(1000.0, 39.4, 0.0600, 288), (1234.9, 35.3, 0.0600, 288), (1488.3, 38.7, 0.0598, 288), (2057.2, 63.4, 0.0600, 288)]),
    (5, 5, [(1000.0, 28.4, 0.0597, 288), (1005.7, 28.2, 0.0596, 288), (1162.9, 28.3, 0.0596, 288), (1151.2, 28.2, 0.0595, 288)]),
    (6, 3, [(1000.0, 50.4, 0.0600, 288), (1368.9, 36.2, 0.0599, 288), (1594.2, 36.0, 0.0598, 288), (1955.9, 48.6, 0.0600, 288)]),
    (6, 4, [(1000.0, 43.5, 0.0600, 288), (1284.1, 36.3, 0.0600, 288), (1534.4, 39.0, 0.0600, 288), (2133.3, 65.5, 0.0600, 288)]),
    (6, 5, [(1000.0, 35.1, 0.0599, 288), (1146.8, 32.1, 0.0597, 288), (1365.5, 32.2, 0.0597, 288), (1486.1, 35.4, 0.0598, 288)]),
    (6, 6, [(1000.0, 27.7, 0.0595, 288), (1007.3, 27.6, 0.0596, 288), (1087.6, 27.7, 0.0594, 288), (1101.1, 27.7, 0.0595, 288)]),
    (7, 3, [(1000.0, 49.3, 0.0600, 288), (1384.1, 36.4, 0.0599, 288), (1552.9, 37.0, 0.0600, 288), (2023.0, 57.9, 0.0601, 288)]),
    (7, 4, [(1000.0, 48.1, 0.0600, 288), (1372.2, 39.1, 0.0600, 288), (1605.6, 41.9, 0.0600, 288), (2217.5, 63.4, 0.0600, 288)]),
    (7, 5, [(1000.0, 41.2, 0.0599, 288), (1160.3, 36.0, 0.0600, 288), (1473.2, 38.8, 0.0599, 288), (1918.1, 56.7, 0.0599, 288)]),
    (7, 6, [(1000.0, 29.5, 0.0598, 288), (1023.3, 28.5, 0.0597, 288), (1171.9, 28.6, 0.0596, 288), (1207.0, 29.0, 0.0596, 288)]),
    (7, 7, [(1000.0, 27.4, 0.0595, 288), (1028.0, 27.4, 0.0595, 288), (1060.0, 27.4, 0.0594, 288), (1070.5, 27.4, 0.0594, 288)]),
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

    fn on(size: usize, win: usize) -> Geometry {
        Geometry::new(size, win).unwrap()
    }

    fn rating(points: f64) -> Rating {
        Rating::new(points, 60.0, 0.06).unwrap()
    }

    #[test]
    fn the_strongest_anchor_is_the_highest_levels_on_the_board() {
        assert_eq!(
            Anchor::strongest(Geometry::classic()),
            Level::Impossible.anchor(Geometry::classic()).rating
        );
        // On 5 x 5 the calibration put Medium a little above Impossible.
        assert_eq!(
            Anchor::strongest(on(5, 5)),
            Level::Medium.anchor(on(5, 5)).rating
        );
    }

    #[test]
    fn a_newcomer_starts_at_1500_where_perfect_play_is_rated_higher() {
        assert_eq!(Anchor::start(Geometry::classic()), Rating::START);
    }

    #[test]
    fn a_newcomer_starts_at_the_strongest_anchor_where_perfect_play_is_rated_below_1500() {
        let start = Anchor::start(on(7, 7));

        assert_eq!(start.rating(), Anchor::strongest(on(7, 7)).rating());
        assert_eq!(start.deviation(), Rating::START.deviation());
    }

    #[test]
    fn beating_a_level_lifts_a_person_no_higher_than_the_next_stronger_levels_anchor() {
        let board = Geometry::classic();

        let ceiling = Anchor::ceiling(board, Some(Level::Random), rating(1100.0));

        assert_eq!(ceiling, Level::Easy.anchor(board).rating.rating());
    }

    #[test]
    fn a_game_never_takes_away_what_a_person_had_below_the_strongest_anchor() {
        let board = Geometry::classic();

        let ceiling = Anchor::ceiling(board, Some(Level::Random), rating(1300.0));

        assert_eq!(ceiling, 1300.0);
    }

    #[rstest::rstest]
    #[case::against_a_person(None)]
    #[case::against_perfect_play(Some(Level::Impossible))]
    #[case::against_the_weakest_level(Some(Level::Random))]
    fn nobody_is_rated_above_the_strongest_anchor(#[case] opponent: Option<Level>) {
        for board in every_board() {
            let ceiling = Anchor::ceiling(board, opponent, rating(3000.0));

            assert_eq!(ceiling, Anchor::strongest(board).rating());
        }
    }

    #[test]
    fn random_pins_the_scale_at_1000_on_every_board() {
        for board in every_board() {
            assert_eq!(Level::Random.anchor(board).rating.rating(), 1000.0);
        }
    }
}
