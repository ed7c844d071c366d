//! The line-by-line console: the game loop ([`GameController`]), the menus around games
//! ([`Session`]), a person at the keyboard ([`HumanPlayer`]), and the console's own ports
//! ([`GameView`], [`Dialogue`], [`Reports`], [`InputHandler`], [`WallClock`]) with their real
//! implementations ([`ConsoleRenderer`], [`ConsoleInput`], [`SystemClock`]), and a game's
//! clock at one keyboard ([`TimeKeeper`]). It drives the core's `Match` like any other
//! front end, and words everything people read.

mod clock;
mod controller;
mod history;
mod human;
mod input;
pub mod menu;
pub mod ports;
mod renderer;
mod session;
#[cfg(test)]
mod test_support;
mod training;
pub mod words;

pub use clock::{SystemClock, TimeKeeper, TimeLeft, WallClock};
pub use controller::{GameController, GameEnd};
pub use history::HistoryTable;
pub use human::{Command, HumanPlayer, Request};
pub use input::{ConsoleInput, discard_terminal_input};
pub use ports::{
    Dialogue, GameView, Input, InputHandler, Notice, Problem, Prompt, Renderer, Reports,
};
pub use renderer::{ConsoleRenderer, ScoreTable};
pub use session::{Session, SessionEnd, begin_journal, starting_clock};
pub use training::{Stop, Titled, Trained, train_in_lines};
