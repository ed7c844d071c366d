use std::fmt;

use thiserror::Error;

use super::geometry::Geometry;
use super::text::excerpt;

/// A cell on a board, by 0-based row-major index.
///
/// Only a [`Geometry`] hands out positions (or parses them from what a person typed), so
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

/// Why some text is not a cell on the board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error("type a cell number or a coordinate such as b2")]
    Empty,
    #[error("there is no cell {given}: choose 1 to {last}")]
    NumberOutOfRange { given: String, last: usize },
    #[error(
        "there is no cell {given}: columns go from a to {last_column}, rows from 1 to {last_row}"
    )]
    CoordinateOutOfRange {
        given: String,
        last_column: char,
        last_row: usize,
    },
    #[error("\"{0}\" is not a cell: type a number such as 5 or a coordinate such as b2")]
    Unrecognised(String),
}

impl Geometry {
    /// Reads a cell as a person types it: its number (`5`) or a coordinate (`b2`, `B2`).
    pub fn parse_position(self, text: &str) -> Result<Position, PositionError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(PositionError::Empty);
        }
        let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
        if !unsigned.is_empty() && unsigned.bytes().all(|b| b.is_ascii_digit()) {
            return self.parse_number(text);
        }
        self.parse_coordinate(text)
    }

    fn parse_number(self, text: &str) -> Result<Position, PositionError> {
        let out_of_range = || PositionError::NumberOutOfRange {
            given: excerpt(text),
            last: self.cell_count(),
        };
        // Too long for u64 is simply out of range.
        let number: usize = text.parse().map_err(|_| out_of_range())?;
        number
            .checked_sub(1)
            .and_then(|index| self.position(index))
            .ok_or_else(out_of_range)
    }

    fn parse_coordinate(self, text: &str) -> Result<Position, PositionError> {
        let mut chars = text.chars();
        let column = chars.next().filter(char::is_ascii_alphabetic);
        let row = chars.as_str();
        let (Some(column), false) = (
            column,
            row.is_empty() || !row.bytes().all(|b| b.is_ascii_digit()),
        ) else {
            return Err(PositionError::Unrecognised(excerpt(text)));
        };
        let col = usize::from(column.to_ascii_lowercase() as u8 - b'a');
        let row: Option<usize> = row.parse().ok();
        row.and_then(|row| row.checked_sub(1))
            .and_then(|row| self.at(row, col))
            .ok_or_else(|| PositionError::CoordinateOutOfRange {
                given: excerpt(text),
                last_column: char::from(b'a' + self.size() as u8 - 1),
                last_row: self.size(),
            })
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    fn classic() -> Geometry {
        Geometry::classic()
    }

    #[rstest]
    #[case::first_cell("1", 0)]
    #[case::centre_by_number("5", 4)]
    #[case::last_cell("9", 8)]
    #[case::surrounding_spaces("  7 ", 6)]
    #[case::coordinate("b2", 4)]
    #[case::upper_case_coordinate("B2", 4)]
    #[case::top_right("c1", 2)]
    #[case::bottom_left("a3", 6)]
    fn cells_can_be_typed_as_numbers_or_coordinates(#[case] text: &str, #[case] index: usize) {
        assert_eq!(
            classic().parse_position(text).map(Position::index),
            Ok(index)
        );
    }

    #[rstest]
    #[case::zero("0")]
    #[case::ten("10")]
    #[case::negative("-1")]
    #[case::huge("123456789012345678901234567890")]
    fn numbers_off_the_board_say_which_numbers_are_allowed(#[case] text: &str) {
        let error = classic().parse_position(text).unwrap_err();

        assert!(
            matches!(error, PositionError::NumberOutOfRange { last: 9, .. }),
            "{error:?}"
        );
        assert!(error.to_string().contains("choose 1 to 9"));
    }

    #[rstest]
    #[case::column_past_the_edge("d1")]
    #[case::row_past_the_edge("a4")]
    #[case::row_zero("b0")]
    fn coordinates_off_the_board_say_which_are_allowed(#[case] text: &str) {
        let error = classic().parse_position(text).unwrap_err();

        assert!(matches!(
            error,
            PositionError::CoordinateOutOfRange {
                last_column: 'c',
                last_row: 3,
                ..
            }
        ));
    }

    #[rstest]
    #[case::word("abc")]
    #[case::letter_only("b")]
    #[case::decimal("2.5")]
    #[case::non_ascii("é2")]
    #[case::replacement_character("\u{FFFD}\u{FFFD}")]
    fn anything_else_is_unrecognised(#[case] text: &str) {
        assert!(matches!(
            classic().parse_position(text),
            Err(PositionError::Unrecognised(_))
        ));
    }

    #[test]
    fn an_empty_line_asks_for_a_cell() {
        assert_eq!(classic().parse_position("   "), Err(PositionError::Empty));
    }

    #[test]
    fn a_huge_line_is_quoted_only_in_part() {
        let text = "x".repeat(100_000);

        let message = classic().parse_position(&text).unwrap_err().to_string();

        assert!(message.len() < 200, "message is {} bytes", message.len());
    }
}
