//! The words every store gives a write that contradicts what it holds.

use thiserror::Error;

use crate::domain::Mark;
use crate::play::{ResumeError, SettingsError};

use super::{GameId, StoreError};

/// Why a write (or a review) contradicts what a store holds: the detail of a
/// [`StoreError::Conflict`], in the words every store gives it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Conflict {
    /// `write_new` of a write the store already has.
    #[error("another writer kept this first")]
    KeptFirst,
    /// Another writer kept the same row in the same moment, and the database refused the
    /// second (what a shared database says when two writers race past each other's
    /// checks): its own words follow.
    #[error("another writer kept this at the same time ({0})")]
    KeptAtOnce(String),
    /// A `Begin` whose id names a game begun otherwise.
    #[error("another game has this id")]
    AnotherGame,
    /// A `Begin` of the rematch of a game that has one (a game has at most one).
    #[error("this game already has a rematch")]
    HasRematch,
    /// A step numbered 0.
    #[error("steps are numbered from 1")]
    NumberedZero,
    /// Another change under a step number already kept.
    #[error("step {number} was another change")]
    AnotherChange { number: u32 },
    /// A step that does not follow the last one kept.
    #[error("step {number} cannot follow step {taken}")]
    Gap { number: u32, taken: u32 },
    /// A step after the game's end.
    #[error("the game is over")]
    Over,
    /// A move to a cell that is not on the game's board.
    #[error("step {number} plays cell {cell}, off the {size} x {size} board")]
    OffBoard {
        number: u32,
        cell: usize,
        size: usize,
    },
    /// Another ending than the one kept.
    #[error("the game ended otherwise")]
    EndedOtherwise,
    /// A `Name` for a seat the computer plays: only a person's seat has a name to choose.
    #[error("the computer plays {0}: it has no name to choose")]
    ComputerSeat(Mark),
    /// Another name for a seat that has made its first move: its name is fixed.
    #[error("{0} has moved: its name stays as it is")]
    NameFixed(Mark),
    /// A `Name` that would give the two people one name, or names that look alike (as
    /// [`Settings::new`](crate::play::Settings::new) refuses them).
    #[error("{0}")]
    Names(SettingsError),
    /// A `Seat` for a seat that is not held open for an invite (it is a computer's, or
    /// somebody's already).
    #[error("the seat of {0} is not open to take")]
    SeatTaken(Mark),
    /// A `Name` for a seat an account holds: its name is the account's.
    #[error("{0} is an account's seat: its name is the account's")]
    AccountName(Mark),
    /// A `Clock` for a game begun without one.
    #[error("the game has no clock")]
    NoClock,
    /// A `Clock` as of a step the store does not hold (later than its last).
    #[error("the clock follows step {after}, and the last kept is {taken}")]
    ClockAhead { after: u32, taken: u32 },
    /// A review of a game that has not ended.
    #[error("a game is reviewed once it has ended")]
    NotEnded,
    /// A review of a game whose kept steps are not a game.
    #[error("{0}")]
    NotAGame(ResumeError),
    /// A review that does not go through the game's moves, in order.
    #[error("the review is not of this game's moves")]
    NotItsMoves,
}

impl Conflict {
    /// This conflict, about game `game`, as the port's error.
    pub fn about(self, game: &GameId) -> StoreError {
        StoreError::Conflict {
            game: game.clone(),
            detail: self,
        }
    }
}
