//! What a long proof has settled so far, for whoever wants to show it: an outbound
//! port of the engine. The engine says what it proved; a front end decides how (and
//! whether) to show it.

/// Where the proof search stands in one position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Proven {
    /// The stage the search is in.
    pub stage: Stage,
    /// Moves proven not to lose (they keep at least a draw for the side to move).
    pub holding: usize,
    /// Moves proven to lose.
    pub losing: usize,
    /// Every move there is (the empty cells).
    pub moves: usize,
}

/// The stages of [`Prover::analyze`](crate::Solver), in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Looking for a short forced win.
    ShortWin,
    /// Proving moves that do not lose, one by one.
    Holding,
    /// Looking for a long forced win.
    LongWin,
    /// Settling the moves not yet proven either way.
    Rest,
}

/// Told as the proof of a position goes on. Called between searches, never inside
/// one: at most once per candidate move.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait Progress: Send {
    fn proven(&mut self, so_far: Proven);
}
