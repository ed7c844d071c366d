//! Who sits at the board: a person, or one of the computer levels.
//!
//! People and computers are different *types*, not one type with a flag: a computer is a
//! [`MoveChooser`] that the match asks for its move when its turn comes; a person's moves
//! arrive as requests (the console's [`HumanPlayer`] reads them through the
//! `InputHandler`, a web seat's come over HTTP). Both are a [`Player`]: someone with a
//! name the scoreboard records.

mod factory;
mod human;
mod minimax;
mod random;
mod solvers;
pub mod spec;

#[cfg(test)]
pub use factory::MockComputerFactory;
pub use factory::{ComputerFactory, StandardComputers};
pub use human::{Command, HumanPlayer, Request};
pub use minimax::MinimaxAI;
pub use random::RandomAI;
pub use solvers::SharedSolvers;
pub use spec::{Level, PlayerSpec, SpecError};

use crate::domain::{Analysis, Board, GameState, Mark, PlayerName, Position};

/// Someone at the board.
#[cfg_attr(test, mockall::automock)]
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
#[cfg(test)]
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
#[cfg_attr(test, mockall::automock)]
pub trait Advisor: Send {
    /// `None` if the game is over.
    fn advise(&mut self, board: &dyn Board, to_move: Mark) -> Option<Analysis>;
}
