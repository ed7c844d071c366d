//! How strong a player is on one board: a Glicko-2 rating (rating, deviation,
//! volatility), as lichess rates its players. The arithmetic is the `skillratings`
//! crate's Glicko-2, none of it written here; this module says what a rating is, where
//! a person starts, when a rating is provisional, and what one game does to it.
//!
//! A rating period is one game (as lichess's): each game a person plays updates their
//! rating at once, from their rating and their opponent's as they stood before it. No
//! clock is read: a rating is a function of the games, in the order they were rated.

use std::fmt;

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use thiserror::Error;

/// A Glicko-2 rating: the rating itself, its deviation (how uncertain it is: about
/// two deviations either side of the rating hold the player's true strength, 95 times
/// in 100) and its volatility (how erratic the player's results have been).
///
/// Two ratings are equal when every figure is the same to the last bit: a rating rebuilt
/// from the games must be the one kept as they were played, not merely close to it.
#[derive(Debug, Clone, Copy)]
pub struct Rating {
    rating: f64,
    deviation: f64,
    volatility: f64,
}

/// Why three numbers (read back from a store, say) are no rating.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "a rating of {rating}, deviation {deviation} and volatility {volatility} is no rating \
     (each must be a finite number, the deviation and volatility above 0)"
)]
pub struct RatingError {
    rating: String,
    deviation: String,
    volatility: String,
}

/// Whether a rating says much yet: settled ratings are ranked; provisional ones (too
/// few games) are listed apart, as lichess lists only settled ratings on its
/// leaderboards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Certainty {
    Settled,
    Provisional,
}

/// How a game went for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

impl Rating {
    /// Where every person starts on every board: 1500, deviation 350, volatility 0.06
    /// (Glicko-2's own defaults, and lichess's).
    pub const START: Rating = Rating {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };

    /// A rating is provisional while its deviation is above this (lichess's line): too
    /// few games to say much yet.
    pub const PROVISIONAL_ABOVE: f64 = 110.0;

    /// A rating from its three figures: each finite, the deviation and volatility above 0.
    pub fn new(rating: f64, deviation: f64, volatility: f64) -> Result<Rating, RatingError> {
        let valid = rating.is_finite()
            && deviation.is_finite()
            && volatility.is_finite()
            && deviation > 0.0
            && volatility > 0.0;
        if valid {
            Ok(Rating {
                rating,
                deviation,
                volatility,
            })
        } else {
            Err(RatingError {
                rating: rating.to_string(),
                deviation: deviation.to_string(),
                volatility: volatility.to_string(),
            })
        }
    }

    /// A rating from figures known to be one (the levels' anchors, checked by a test).
    pub(crate) const fn fixed(rating: f64, deviation: f64, volatility: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility,
        }
    }

    pub fn rating(self) -> f64 {
        self.rating
    }

    pub fn deviation(self) -> f64 {
        self.deviation
    }

    pub fn volatility(self) -> f64 {
        self.volatility
    }

    /// The rating as people read it: rounded to a whole number.
    pub fn points(self) -> i64 {
        // Finite by construction; `as` saturates the absurd.
        self.rating.round() as i64
    }

    /// The rating as a result screen or a list shows it: whole points, thousands
    /// grouped with commas (`1,512`), and `?` after a provisional one (`1,662?`), as
    /// lichess marks them.
    pub fn shown(self) -> String {
        let points = self.points();
        let digits = points.unsigned_abs().to_string();
        let mut grouped = String::new();
        for (i, digit) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                grouped.push(',');
            }
            grouped.push(digit);
        }
        let sign = if points < 0 { "-" } else { "" };
        let mark = if self.provisional() { "?" } else { "" };
        format!("{sign}{grouped}{mark}")
    }

    /// Whether the rating is still provisional ([`Rating::PROVISIONAL_ABOVE`]).
    pub fn provisional(self) -> bool {
        self.deviation > Rating::PROVISIONAL_ABOVE
    }

    /// Whether the rating is settled or still provisional.
    pub fn certainty(self) -> Certainty {
        if self.provisional() {
            Certainty::Provisional
        } else {
            Certainty::Settled
        }
    }

    /// This rating, its figure no higher than `most` (the deviation and volatility as
    /// they are).
    pub fn at_most(self, most: f64) -> Rating {
        Rating {
            rating: self.rating.min(most),
            ..self
        }
    }

    /// This rating after one game against `opponent` (as the opponent stood before it)
    /// that went `score` for this player: Glicko-2 with a rating period of one game,
    /// its system constant τ at 0.5 (`skillratings`' default, within Glickman's 0.3 to
    /// 1.2).
    pub fn after(self, opponent: Rating, score: Score) -> Rating {
        let outcome = match score {
            Score::Win => Outcomes::WIN,
            Score::Draw => Outcomes::DRAW,
            Score::Loss => Outcomes::LOSS,
        };
        let (mine, _) = glicko2(
            &self.into(),
            &opponent.into(),
            &outcome,
            &Glicko2Config::new(),
        );
        // Glicko-2 keeps finite figures finite and the deviation and volatility above 0;
        // should it ever not, the rating stands as it was rather than become no rating.
        Rating::new(mine.rating, mine.deviation, mine.volatility).unwrap_or(self)
    }
}

impl From<Rating> for Glicko2Rating {
    fn from(rating: Rating) -> Self {
        Glicko2Rating {
            rating: rating.rating,
            deviation: rating.deviation,
            volatility: rating.volatility,
        }
    }
}

/// The same to the last bit (see [`Rating`]).
impl PartialEq for Rating {
    fn eq(&self, other: &Self) -> bool {
        self.rating.to_bits() == other.rating.to_bits()
            && self.deviation.to_bits() == other.deviation.to_bits()
            && self.volatility.to_bits() == other.volatility.to_bits()
    }
}

/// No figure of a rating is ever NaN ([`Rating::new`]), so equality is an equivalence.
impl Eq for Rating {}

/// `1512 ± 64`: the rounded rating and deviation.
impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ± {}", self.points(), self.deviation.round() as i64)
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    #[test]
    fn a_person_starts_at_1500_with_deviation_350_and_volatility_0_06() {
        let start = Rating::START;

        assert_eq!(
            (start.rating(), start.deviation(), start.volatility()),
            (1500.0, 350.0, 0.06)
        );
    }

    #[rstest]
    #[case::uncertain(110.5, true)]
    #[case::at_the_line(110.0, false)]
    #[case::settled(60.0, false)]
    fn a_rating_is_provisional_while_its_deviation_is_above_110(
        #[case] deviation: f64,
        #[case] provisional: bool,
    ) {
        let rating = Rating::new(1500.0, deviation, 0.06).unwrap();

        assert_eq!(rating.provisional(), provisional);
    }

    #[rstest]
    #[case::not_a_number(f64::NAN, 350.0, 0.06)]
    #[case::infinite(f64::INFINITY, 350.0, 0.06)]
    #[case::no_deviation(1500.0, 0.0, 0.06)]
    #[case::negative_deviation(1500.0, -1.0, 0.06)]
    #[case::no_volatility(1500.0, 350.0, 0.0)]
    fn figures_that_cannot_be_a_rating_are_refused(
        #[case] rating: f64,
        #[case] deviation: f64,
        #[case] volatility: f64,
    ) {
        assert!(Rating::new(rating, deviation, volatility).is_err());
    }

    #[test]
    fn a_first_win_between_newcomers_is_glicko_2_s_own_example() {
        // skillratings' documented example: 1500/350 beats 1500/350.
        let after = Rating::START.after(Rating::START, Score::Win);

        assert_eq!((after.points(), after.deviation().round()), (1662, 290.0));
    }

    #[test]
    fn a_win_raises_a_rating_a_loss_lowers_it_and_both_make_it_surer() {
        let opponent = Rating::new(1600.0, 80.0, 0.06).unwrap();

        let won = Rating::START.after(opponent, Score::Win);
        let lost = Rating::START.after(opponent, Score::Loss);

        assert!(won.rating() > 1500.0 && lost.rating() < 1500.0);
        assert!(won.deviation() < 350.0 && lost.deviation() < 350.0);
    }

    #[test]
    fn a_draw_with_a_stronger_player_raises_a_rating() {
        let stronger = Rating::new(1800.0, 50.0, 0.06).unwrap();

        let after = Rating::START.after(stronger, Score::Draw);

        assert!(after.rating() > 1500.0);
    }

    #[test]
    fn the_same_game_gives_the_same_rating_to_the_last_bit() {
        let opponent = Rating::new(1432.25, 71.5, 0.0599).unwrap();
        let player = Rating::new(1510.125, 120.0, 0.06).unwrap();

        let once = player.after(opponent, Score::Draw);
        let again = player.after(opponent, Score::Draw);

        assert_eq!(once.rating().to_bits(), again.rating().to_bits());
        assert_eq!(once, again);
    }

    #[test]
    fn ratings_that_differ_in_the_last_bit_are_not_equal() {
        let rating = Rating::new(1500.0, 350.0, 0.06).unwrap();
        let next = Rating::new(f64::from_bits(1500f64.to_bits() + 1), 350.0, 0.06).unwrap();

        assert_ne!(rating, next);
    }

    #[rstest]
    #[case::settled(1511.6, 63.4, "1,512")]
    #[case::provisional(1662.3, 290.0, "1,662?")]
    #[case::under_a_thousand(987.4, 60.0, "987")]
    #[case::negative(-1234.0, 60.0, "-1,234")]
    fn a_rating_is_shown_in_whole_points_grouped_and_marked_while_provisional(
        #[case] rating: f64,
        #[case] deviation: f64,
        #[case] shown: &str,
    ) {
        let rating = Rating::new(rating, deviation, 0.06).unwrap();

        assert_eq!(rating.shown(), shown);
    }

    #[test]
    fn a_rating_is_shown_rounded_with_its_deviation() {
        let rating = Rating::new(1511.6, 63.4, 0.06).unwrap();

        assert_eq!(rating.to_string(), "1512 ± 63");
    }
}
