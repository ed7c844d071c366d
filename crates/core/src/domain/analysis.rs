use super::Position;

/// The result of a position under perfect play, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Draw,
    Loss,
}

impl Verdict {
    /// The same result seen by the other side: a win for one is a loss for the other.
    pub fn for_the_other_side(self) -> Verdict {
        match self {
            Verdict::Win => Verdict::Loss,
            Verdict::Draw => Verdict::Draw,
            Verdict::Loss => Verdict::Win,
        }
    }
}

/// What an analysis knows of the position's value, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    /// The value is proven (a win, a draw or a loss).
    Exactly(Verdict),
    /// Only a bound: the moves listed are proven not to lose, and whether there is a
    /// win was not settled in the time allowed.
    AtLeastDraw,
    /// Only a bound, seen from the other side: the other side was proven not to lose,
    /// so this side cannot win, and whether it can draw was not settled. An analysis
    /// never says this of the side to move; a review says it of the side that has just
    /// moved ([`Known::for_the_other_side`]).
    AtMostDraw,
    /// Nothing: time ran out before any move was proven; the moves listed are the
    /// best found.
    Nothing,
}

impl Known {
    /// Everything an analysis can know of a value, each once.
    pub const ALL: [Known; 6] = [
        Known::Exactly(Verdict::Win),
        Known::Exactly(Verdict::Draw),
        Known::Exactly(Verdict::Loss),
        Known::AtLeastDraw,
        Known::AtMostDraw,
        Known::Nothing,
    ];

    /// What is known of the same position for the other side.
    pub fn for_the_other_side(self) -> Known {
        match self {
            Known::Exactly(verdict) => Known::Exactly(verdict.for_the_other_side()),
            Known::AtLeastDraw => Known::AtMostDraw,
            Known::AtMostDraw => Known::AtLeastDraw,
            Known::Nothing => Known::Nothing,
        }
    }

    /// Whether this says all that `other` says of the same position, and perhaps more:
    /// the same, a value within the bound `other` gives, a bound where `other` knew
    /// nothing. A value outside `other`'s bound says something else, not more.
    pub fn says_all_of(self, other: Known) -> bool {
        match (self, other) {
            (_, Known::Nothing) => true,
            (Known::Exactly(Verdict::Win | Verdict::Draw), Known::AtLeastDraw) => true,
            (Known::Exactly(Verdict::Draw | Verdict::Loss), Known::AtMostDraw) => true,
            (known, other) => known == other,
        }
    }
}

/// What perfect play makes of a position in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    pub verdict: Verdict,
    /// Moves left in the game, counting the next one, when the winner hurries and the
    /// loser delays. A draw lasts until the board is full.
    pub plies: usize,
    /// Every move that keeps the verdict and the length, in ascending order: for a win
    /// only the fastest wins, for a loss only the slowest losses.
    pub best_moves: Vec<Position>,
    /// True when proven; false when the time allowed ran out first (the fields above
    /// then describe what was found in time).
    pub exact: bool,
    /// True when every move listed is proven to keep what the side to move has (a win
    /// to win, a draw not to lose), even if the list or the verdict was not settled in
    /// time: a move played from it is never a guess. Always true when `exact`; false
    /// for an estimate.
    pub moves_proven: bool,
}

impl Analysis {
    /// The value as far as it is known: a verdict reached without proving it, or a
    /// draw found when time ran out, is never read as exact.
    pub fn known(&self) -> Known {
        match (self.verdict, self.exact, self.moves_proven) {
            (_, false, false) => Known::Nothing,
            // The draw is what was proven not to be lost; a win was not ruled out.
            (Verdict::Draw, false, true) => Known::AtLeastDraw,
            // A win or a loss is proven even when its length is not.
            (verdict, _, _) => Known::Exactly(verdict),
        }
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    #[rstest]
    #[case::the_same_bound(Known::AtLeastDraw, Known::AtLeastDraw)]
    #[case::a_bound_where_nothing_was_known(Known::AtMostDraw, Known::Nothing)]
    #[case::a_win_within_at_least_a_draw(Known::Exactly(Verdict::Win), Known::AtLeastDraw)]
    #[case::a_draw_within_at_most_a_draw(Known::Exactly(Verdict::Draw), Known::AtMostDraw)]
    #[case::the_same_value(Known::Exactly(Verdict::Loss), Known::Exactly(Verdict::Loss))]
    fn a_value_or_bound_says_all_that_a_looser_one_says(
        #[case] known: Known,
        #[case] other: Known,
    ) {
        assert!(known.says_all_of(other));
    }

    #[rstest]
    #[case::nothing_of_a_bound(Known::Nothing, Known::AtLeastDraw)]
    #[case::a_bound_of_a_value(Known::AtLeastDraw, Known::Exactly(Verdict::Draw))]
    #[case::a_loss_against_at_least_a_draw(Known::Exactly(Verdict::Loss), Known::AtLeastDraw)]
    #[case::a_win_against_at_most_a_draw(Known::Exactly(Verdict::Win), Known::AtMostDraw)]
    #[case::another_value(Known::Exactly(Verdict::Win), Known::Exactly(Verdict::Draw))]
    #[case::the_other_bound(Known::AtMostDraw, Known::AtLeastDraw)]
    fn a_value_or_bound_does_not_say_what_it_leaves_out_or_contradicts(
        #[case] known: Known,
        #[case] other: Known,
    ) {
        assert!(!known.says_all_of(other));
    }

    fn analysis(verdict: Verdict, exact: bool, moves_proven: bool) -> Analysis {
        Analysis {
            verdict,
            plies: 20,
            best_moves: Vec::new(),
            exact,
            moves_proven,
        }
    }

    #[rstest]
    #[case::a_proven_draw(Verdict::Draw, true, true, Known::Exactly(Verdict::Draw))]
    #[case::a_draw_cut_short_is_a_bound(Verdict::Draw, false, true, Known::AtLeastDraw)]
    #[case::nothing_proven(Verdict::Draw, false, false, Known::Nothing)]
    #[case::a_win_whose_length_was_not_settled(
        Verdict::Win,
        false,
        true,
        Known::Exactly(Verdict::Win)
    )]
    #[case::a_loss_whose_length_was_not_settled(
        Verdict::Loss,
        false,
        true,
        Known::Exactly(Verdict::Loss)
    )]
    #[case::a_guessed_win(Verdict::Win, false, false, Known::Nothing)]
    fn an_analysis_claims_only_the_value_it_proved(
        #[case] verdict: Verdict,
        #[case] exact: bool,
        #[case] moves_proven: bool,
        #[case] known: Known,
    ) {
        assert_eq!(analysis(verdict, exact, moves_proven).known(), known);
    }

    #[rstest]
    #[case::a_win_is_the_others_loss(Known::Exactly(Verdict::Win), Known::Exactly(Verdict::Loss))]
    #[case::a_draw_is_a_draw_for_both(Known::Exactly(Verdict::Draw), Known::Exactly(Verdict::Draw))]
    #[case::a_loss_is_the_others_win(Known::Exactly(Verdict::Loss), Known::Exactly(Verdict::Win))]
    #[case::not_losing_leaves_the_other_at_most_a_draw(Known::AtLeastDraw, Known::AtMostDraw)]
    #[case::at_most_a_draw_leaves_the_other_at_least_one(Known::AtMostDraw, Known::AtLeastDraw)]
    #[case::nothing_known_is_nothing_known(Known::Nothing, Known::Nothing)]
    fn what_is_known_for_one_side_is_known_mirrored_for_the_other(
        #[case] known: Known,
        #[case] other: Known,
    ) {
        assert_eq!(known.for_the_other_side(), other);
    }
}
