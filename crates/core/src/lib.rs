//! The core of Tic Tac Toe: the rules, the match and the ports. No I/O, no clock, no
//! randomness of its own; everything else in the workspace depends on it, and it
//! depends on nothing of theirs.
//!
//! * [`accounts`]: signing up and in, as every front end does it.
//! * [`domain`]: the rules and the things the game is played with (marks, cells,
//!   boards, games, names, the scoreboard). Pure data and logic.
//! * [`players`]: who sits at the board as the match sees them, and the levels'
//!   shared contract (`MoveChooser`, `Advisor`, `ComputerFactory`, `Level`).
//! * [`ports`]: what the core needs from the outside world (where results are kept).
//! * [`play`]: one game driven by requests (`Match`), started one way (`Settings`),
//!   many games at once (`simulate`), and `analyze`.
//! * `fixtures` (with the `mocks` feature, for tests): the values tests start from.
//! * [`sync`]: taking a lock whose holder panicked ([`sync::lock`]).
//! * [`words`]: the words people read that more than one front end says (a move's
//!   review, a refusal, training's puzzles and answers).
//!
//! See docs/architecture.md for the tour.

pub mod accounts;
pub mod domain;
#[cfg(any(test, feature = "mocks"))]
pub mod fixtures;
pub mod play;
pub mod players;
pub mod ports;
pub mod sync;
pub mod words;
