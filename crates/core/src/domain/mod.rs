//! The rules of the game and the things it is played with: marks, cells, boards, games,
//! names, passwords, the scoreboard and ratings, time controls. Pure data and logic: no
//! I/O, no randomness, no clock read (a game's clock is told the time).

mod analysis;
mod bit_board;
mod board;
mod clock;
mod game;
mod geometry;
mod grid_board;
mod mark;
mod password;
mod player_name;
mod position;
mod rating;
mod refusal;
mod scoreboard;
mod text;

pub use analysis::{Analysis, Known, Verdict};
pub use bit_board::BitBoard;
#[cfg(any(test, feature = "mocks"))]
pub use board::MockBoard;
pub use board::{Board, IllegalMove, LayoutError, Win, fill_from_layout, layout_of};
pub use clock::{
    ClockError, ClockParts, FIRST_MOVE_WITHIN, GameClock, Overdue, TimeControl, TimeControlError,
    could_still_win,
};
#[cfg(any(test, feature = "mocks"))]
pub use game::MockGameState;
pub use game::{Game, GameState, GameStatus, IllegalPosition, MoveError};
pub use geometry::{Geometry, GeometryError, PositionError};
pub use grid_board::GridBoard;
pub use mark::Mark;
pub use password::{Password, PasswordError};
pub use player_name::{NameError, PlayerName};
pub use position::{Line, Position};
pub use rating::{Certainty, Rating, RatingError, Score};
pub use refusal::Refusal;
pub use scoreboard::{FinishedGame, Outcome, Record, Scoreboard, Standing};
pub use text::{excerpt, excerpt_of};
