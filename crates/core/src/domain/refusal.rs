use thiserror::Error;

use super::{IllegalMove, Mark, MoveError};

/// Why a game refuses a request from one of its seats. The game is unchanged after any
/// of these. (The texts are for logs and developers; front ends word them for people.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum Refusal {
    /// The request needs the seat's turn, and it is the other seat's.
    #[error("it is not {0}'s turn")]
    NotYourTurn(Mark),
    /// The computer plays this seat: nobody can ask for it.
    #[error("the computer plays {0}")]
    ComputerSeat(Mark),
    /// The cell cannot take a mark.
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
    #[error("the game is over")]
    GameOver,
    /// No move of this seat's is left to take back.
    #[error("there is no move to take back")]
    NothingToUndo,
    /// This game was set up without an advisor.
    #[error("this game gives no hints")]
    NoHints,
}

impl From<MoveError> for Refusal {
    fn from(error: MoveError) -> Self {
        match error {
            MoveError::Illegal(illegal) => Refusal::Illegal(illegal),
            MoveError::GameOver => Refusal::GameOver,
        }
    }
}
