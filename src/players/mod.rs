//! Who makes the moves: a person at the keyboard or one of the computer levels.
//! All of them are a [`Player`]; the game loop never knows which.

mod factory;
mod human;
mod minimax;
mod random;
pub mod spec;

#[cfg(test)]
pub use factory::MockPlayerFactory;
pub use factory::{PlayerFactory, StandardPlayers, computer};
pub use human::{Command, HumanPlayer};
pub use minimax::MinimaxAI;
pub use random::RandomAI;
pub use spec::{Level, PlayerSpec, SpecError};

use crate::domain::{Analysis, Board, GameState, Mark, PlayerName, Position};

/// What a player does with its turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Place(Position),
    /// The player leaves; the game is abandoned.
    Quit,
    /// The player's input ended (only people have input).
    InputClosed,
    /// Take back the last move (against a computer: the player's last move and the reply).
    Undo,
}

/// Says what perfect play (or the best search in the time allowed) makes of a position:
/// behind `analyze` and the in-game hint.
#[cfg_attr(test, mockall::automock)]
pub trait Advisor {
    /// `None` if the game is over.
    fn advise(&mut self, board: &dyn Board, to_move: Mark) -> Option<Analysis>;
}

#[cfg_attr(test, mockall::automock)]
pub trait Player {
    /// The name the scoreboard records.
    fn name(&self) -> PlayerName;

    /// True for a person, false for the computer.
    fn is_human(&self) -> bool;

    /// Chooses a move for the side to move in `game`, which is in progress.
    fn choose(&mut self, game: &dyn GameState) -> Action;
}
