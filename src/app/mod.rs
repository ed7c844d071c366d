//! The application: one game driven by requests ([`Match`]), the console's loop over it
//! ([`GameController`]), the menus around games ([`Session`]), `analyze` and `simulate`.
//! Runs on the traits in `ports` and `players` only; it never names a console, a file or
//! a concrete player.

mod analysis;
mod controller;
mod game_match;
pub mod menu;
mod session;
mod simulation;

pub use analysis::{Analyzer, BoardError, Report, analyze_all};
pub use controller::{GameController, GameEnd};
pub use game_match::{
    ComputerError, End, Event, Match, Recorder, Recording, Seat, Seating, Unrecorded,
};
pub use session::{Session, SessionEnd, Settings};
pub use simulation::{Tally, simulate};
