//! The full-screen terminal front end (ratatui on crossterm): one board redrawn in
//! place, a cursor, the mouse, a small form for the menu. A second front end on the same
//! core as the line-by-line console: it turns keys into requests for the [`Match`] and
//! draws the answers.
//!
//! * `menu_form.rs`: the menu as a form, producing `Settings`.
//! * `game_screen.rs`: one game: keys and clicks in, requests out, the screen drawn.
//! * `grid.rs`: the board's grid and the marks' styles, shared by both screens.
//! * `replay_screen.rs`: a kept game played back, a move at a time, with its review.
//! * `train_screen.rs`: training on one's own slips, a puzzle at a time.
//! * `run.rs`: the real terminal (raw mode, restored on every way out) and the loop,
//!   with the computer thinking on another thread.
//!
//! The screens are plain state and drawing, tested on ratatui's `TestBackend`.
//!
//! [`Match`]: tictactoe_core::play::Match

mod game_screen;
mod grid;
mod menu_form;
mod replay_screen;
mod run;
mod train_screen;

pub use game_screen::{Flow, GameScreen};
pub use menu_form::{FormOutcome, MenuForm};
pub use replay_screen::{ReplayFlow, ReplayScreen};
pub use run::{Ending, Start, run_full_screen, run_replay, run_training};
pub use train_screen::{TrainFlow, TrainScreen};

#[cfg(test)]
mod tests;
