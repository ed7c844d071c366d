use super::Position;

/// The result of a position under perfect play, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Draw,
    Loss,
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
