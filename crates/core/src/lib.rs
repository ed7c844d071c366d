//! The core of Tic Tac Toe: the rules, the match and the ports. No I/O, no clock, no
//! randomness of its own; everything else in the workspace depends on it, and it
//! depends on nothing of theirs.
//!
//! * [`accounts`]: signing up and in, as every front end does it.
//! * [`domain`]: the rules and the things the game is played with (marks, cells,
//!   boards, games, names, the scoreboard). Pure data and logic.
//! * [`players`]: who sits at the board as the match sees them, and the levels'
//!   shared contract (`MoveChooser`, `Advisor`, `ComputerFactory`, `Level`).
//! * [`ports`]: what the core needs from the outside world (where results are kept):
//!   traits, and the types they speak.
//! * [`rules`]: the rules about kept games, written once for every store (exactly-once
//!   writes, counting, ratings, training's judging and retiring).
//! * `memory` (with the `mocks` feature): `MemoryStore`, every store port in memory.
//! * [`play`]: one game driven by requests (`Match`), started one way (`Settings`),
//!   many games at once (`simulate`), `analyze`, and the use cases that read a store
//!   by the rules (a player's open puzzles, a board's ratings).
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
#[cfg(any(test, feature = "mocks"))]
pub mod memory;
pub mod play;
pub mod players;
pub mod ports;
pub mod rules;
pub mod sync;
pub mod words;
