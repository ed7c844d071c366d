//! The application: one game ([`GameController`]) and the menus around games
//! ([`Session`]). Runs on the traits in `ports` and `players` only; it never names a
//! console, a file or a concrete player.

mod analysis;
mod controller;
pub mod menu;
mod session;
mod simulation;

pub use analysis::{Analyzer, BoardError, Report, analyze_all};
pub use controller::{GameController, GameEnd, PlayError};
pub use session::{Session, SessionEnd, Settings};
pub use simulation::{Tally, simulate};
