use super::Position;

/// The result of a position under perfect play, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Draw,
    Loss,
}

/// What an analysis knows of the position's value, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    /// The value is proven (a win, a draw or a loss).
    Exactly(Verdict),
    /// Only a bound: the moves listed are proven not to lose, and whether there is a
    /// win was not settled in the time allowed.
    AtLeastDraw,
    /// Nothing: time ran out before any move was proven; the moves listed are the
    /// best found.
    Nothing,
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
}
