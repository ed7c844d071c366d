//! What the solver concludes about a position, in bitboard form, before it is turned
//! into a domain [`Analysis`](tictactoe_core::domain::Analysis).

use tictactoe_core::domain::Verdict;

/// A position's value for the side to move and the moves that keep it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    pub verdict: Verdict,
    /// Moves left in the game, counting the next, when the winner hurries and the loser
    /// delays (for a draw, the empty cells).
    pub plies: u8,
    /// The cells of the best moves: every one keeps the verdict.
    pub best: u64,
    /// False when time ran out after the verdict was proven but before every move was
    /// checked or every length measured: `best` then holds the moves proven to keep the
    /// verdict, and `plies` is only a bound.
    pub exact: bool,
}

impl Outcome {
    /// From a negamax score (see [`Solver`](super::Solver)): a win whose last move
    /// leaves `r` cells empty scores `r + 1`, a loss `-(r + 1)`, a draw 0.
    pub fn from_score(score: i32, best: u64, empty: u32) -> Self {
        let left = empty as i32;
        let (verdict, plies) = match score {
            0 => (Verdict::Draw, left),
            s if s > 0 => (Verdict::Win, left - s + 1),
            s => (Verdict::Loss, left + s + 1),
        };
        Outcome {
            verdict,
            // At most 49 plies: fits a u8.
            plies: plies as u8,
            best,
            exact: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_counts_the_plies_to_the_end() {
        // Nine empty cells: a win with the last move leaving 4 empty scores 5, 5 plies.
        assert_eq!(Outcome::from_score(5, 1, 9).plies, 5);
        assert_eq!(Outcome::from_score(-4, 1, 9).verdict, Verdict::Loss);
        assert_eq!(Outcome::from_score(-4, 1, 9).plies, 6);
        assert_eq!(Outcome::from_score(0, 1, 9).plies, 9);
    }
}
