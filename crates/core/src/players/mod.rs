//! Who sits at the board, as the match sees them: a [`Player`] has a name; a computer is
//! a [`MoveChooser`] the match asks for its move; an [`Advisor`] gives hints; a
//! [`ComputerFactory`] makes the computers a game needs. The levels themselves live in
//! the `tictactoe-players` crate, and a person's moves arrive as requests from a front end.

mod anchors;
pub mod spec;

pub use anchors::Anchor;
pub use spec::{Level, PlayerSpec, SpecError, default_name, is_placeholder, seated, unnamed};

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::domain::{Analysis, Board, GameState, Mark, PlayerName, Position};

/// Someone at the board.
///
/// No double of its own: nothing takes a bare `Player` (the match asks a `MoveChooser`,
/// whose double `MockComputer` answers `name` too), so a `MockPlayer` served no test.
pub trait Player {
    /// The name the game shows and the scoreboard records.
    fn name(&self) -> PlayerName;
}

/// A player the match asks for a move when its turn comes: every computer level.
///
/// `Send`, so that a match holding one can be kept by a server between requests and
/// handed from thread to thread.
pub trait MoveChooser: Player + Send {
    /// A move for the side to move in `game`, which is in progress. `None` only if the
    /// board has no empty cell, which a match in progress never asks about.
    fn choose_move(&mut self, game: &dyn GameState) -> Option<Position>;
}

// `automock` cannot mock a trait together with its supertrait; `mock!` can: one
// `MockComputer` that is both a `Player` and a `MoveChooser`.
#[cfg(any(test, feature = "mocks"))]
mockall::mock! {
    pub Computer {}
    impl Player for Computer {
        fn name(&self) -> PlayerName;
    }
    impl MoveChooser for Computer {
        fn choose_move(&mut self, game: &dyn GameState) -> Option<Position>;
    }
}

/// Says what perfect play (or the best search in the time allowed) makes of a position:
/// behind `analyze` and the in-game hint.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait Advisor: Send {
    /// `None` if the game is over, or if this advisor cannot say what the position is
    /// worth (a computer that only looks a few moves ahead advises nothing).
    fn advise(&mut self, board: &dyn Board, to_move: Mark) -> Option<Analysis>;

    /// Among `best` (the moves that keep the value), those this advisor's own player
    /// would rather play (Impossible: those its opening book answers next, as it plays
    /// them); none when it has no preference.
    fn preferred(&mut self, board: &dyn Board, to_move: Mark, best: &[Position]) -> Vec<Position> {
        let _ = (board, to_move, best);
        Vec::new()
    }
}

/// Makes the computer players: one per level asked for, and the advisor behind hints.
/// The match asks for new ones for every game; the factory decides what they are made of.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait ComputerFactory {
    /// A computer player at `level`.
    fn computer(&mut self, level: Level) -> Box<dyn MoveChooser>;

    /// What the hint says: perfect play, as the Impossible level sees it.
    fn advisor(&mut self) -> Box<dyn Advisor>;

    /// The advisor, stopping as soon as `stop` is raised (it then answers with what it
    /// has found, or nothing): for advice that someone may stop waiting for. By default,
    /// the usual advisor, which does not stop.
    fn advisor_stopping_when(&mut self, stop: Arc<AtomicBool>) -> Box<dyn Advisor> {
        let _ = stop;
        self.advisor()
    }

    /// The same perfect play for work nobody waits on, such as completing a review
    /// that was not exact in the usual time: `think` for each position instead of the
    /// usual time, and no longer once `stop` is raised (it then answers with what it
    /// has proven). By default, the usual advisor.
    fn patient_advisor(&mut self, think: Duration, stop: Arc<AtomicBool>) -> Box<dyn Advisor> {
        let _ = (think, stop);
        self.advisor()
    }

    /// Lets go of what the computers keep between moves (their tables of positions)
    /// where nothing has used it for `idle`: memory given back after a busy spell. By
    /// default they keep nothing.
    fn forget_idle(&mut self, idle: Duration) {
        let _ = idle;
    }

    /// The bytes the computers keep between moves, at most their cap. By default none.
    fn memory_in_use(&self) -> u64 {
        0
    }
}
