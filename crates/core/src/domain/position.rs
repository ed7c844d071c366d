use std::fmt;

/// A cell on a board, by 0-based row-major index.
///
/// Only a [`Geometry`](super::Geometry) hands out positions (or parses them from what a person typed), so
/// a `Position` is always on the board it was made for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position(u8);

impl Position {
    pub(crate) const fn new(index: u8) -> Self {
        Position(index)
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The number a person types for this cell: 1-based, row-major from the top-left.
    pub const fn number(self) -> usize {
        self.index() + 1
    }

    /// This cell's bit in a bitboard.
    pub const fn bit(self) -> u64 {
        1 << self.0
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// A run of cells that wins when one mark fills it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Line {
    cells: Box<[Position]>,
}

impl Line {
    pub(crate) fn new(cells: Box<[Position]>) -> Self {
        Line { cells }
    }

    pub fn cells(&self) -> &[Position] {
        &self.cells
    }

    pub fn mask(&self) -> u64 {
        self.cells.iter().fold(0, |mask, cell| mask | cell.bit())
    }
}

#[cfg(test)]
mod tests {
    use crate::domain::Geometry;

    #[test]
    fn a_cell_is_shown_by_the_number_people_type_for_it() {
        let fifth = Geometry::classic().position(4).unwrap();

        assert_eq!(fifth.to_string(), "5");
    }
}
