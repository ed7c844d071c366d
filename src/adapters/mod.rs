//! The outside world: a console to draw on and read from, a JSON file for the
//! scoreboard, and a web server. Each implements a trait from `ports`; only `main.rs` names them.

mod console_input;
mod console_renderer;
mod json_store;
mod report;
pub mod web;

pub use console_input::ConsoleInput;
pub use console_renderer::ConsoleRenderer;
pub use json_store::{Disk, DurableWrite, JsonFileStore};
pub use report::{report_json, scoreboard_json, tally_json};
