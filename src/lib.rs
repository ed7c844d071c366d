//! Console Tic Tac Toe, built in layers that depend only inward:
//!
//! `domain` (rules, no I/O) <- `engine` and `players` <- `app` (game loop, menus)
//! <- `adapters` (console, JSON file, web server) <- `main.rs` (wiring).
//!
//! The traits that connect the layers to the outside world live in [`ports`].
//! See docs/architecture.md for the tour.

pub mod adapters;

pub mod app;
pub mod domain;
pub mod engine;
pub mod players;
pub mod ports;
#[cfg(test)]
mod test_support;
