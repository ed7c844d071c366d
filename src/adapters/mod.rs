//! The outside world: a line-by-line console, a full-screen terminal, a JSON file for
//! the scoreboard, and a web server. Only `main.rs` names them.

mod console_input;
mod console_renderer;
mod json_store;
mod report;
pub mod terminal;
pub mod web;
mod words;

pub use console_input::{ConsoleInput, discard_terminal_input};
pub use console_renderer::ConsoleRenderer;
pub use json_store::{Disk, DurableWrite, JsonFileStore};
pub use report::{report_json, scoreboard_json, tally_json};
