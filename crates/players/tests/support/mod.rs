//! Helpers shared by the integration tests that build their own positions as plain
//! arrays of cells (each test file is its own crate: `mod support;` brings these in).

use tictactoe_core::domain::Mark;

/// The layout `fill_from_layout` reads for `cells`, row after row: "x", "o" or ".".
pub fn layout(cells: &[Option<Mark>]) -> String {
    cells
        .iter()
        .map(|c| match c {
            Some(Mark::X) => 'x',
            Some(Mark::O) => 'o',
            None => '.',
        })
        .collect()
}
