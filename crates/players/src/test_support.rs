//! Helpers shared by this crate's unit tests.

use tictactoe_core::domain::{BitBoard, Geometry, Position, fill_from_layout};

/// A board of `size` x `size` cells, `win` in a row, from a layout such as "xx./oo./...".
pub(crate) fn board(size: usize, win: usize, layout: &str) -> BitBoard {
    fill_from_layout(BitBoard::new(Geometry::new(size, win).unwrap()), layout).unwrap()
}

/// The numbers a person types for `cells` (1-based).
pub(crate) fn numbers(cells: &[Position]) -> Vec<usize> {
    cells.iter().map(|p| p.number()).collect()
}
