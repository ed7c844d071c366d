use std::ops::RangeInclusive;
use std::sync::OnceLock;

use thiserror::Error;

use super::position::{Line, Position};
use super::text::excerpt;

/// The shape of a board: `size` x `size` cells, `win` marks in a row to win.
///
/// This is the only place that knows how cells are numbered and which runs of cells
/// form a line; everything else asks it. A `Geometry` is always valid, so code that
/// holds one never re-checks the ranges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Geometry {
    size: u8,
    win: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GeometryError {
    #[error("board size must be from 3 to 7, not {0}")]
    Size(usize),
    #[error("the run to win must be from 3 to the board size ({size}), not {win}")]
    Win { size: usize, win: usize },
}

impl Geometry {
    /// Board sizes the game supports. 7 x 7 = 49 cells still fits a `u64` bitboard.
    pub const SIZES: RangeInclusive<usize> = 3..=7;
    const MIN_WIN: usize = 3;

    /// The classic game: 3 x 3, three in a row.
    pub const fn classic() -> Self {
        Geometry { size: 3, win: 3 }
    }

    pub fn new(size: usize, win: usize) -> Result<Self, GeometryError> {
        if !Self::SIZES.contains(&size) {
            return Err(GeometryError::Size(size));
        }
        if !(Self::MIN_WIN..=size).contains(&win) {
            return Err(GeometryError::Win { size, win });
        }
        // Both fit in a u8: checked against the ranges above.
        Ok(Geometry {
            size: size as u8,
            win: win as u8,
        })
    }

    pub const fn size(self) -> usize {
        self.size as usize
    }

    /// How many marks in a row win.
    pub const fn win_length(self) -> usize {
        self.win as usize
    }

    pub const fn cell_count(self) -> usize {
        self.size() * self.size()
    }

    /// The cell with this 0-based row-major index, if the board has it.
    pub fn position(self, index: usize) -> Option<Position> {
        (index < self.cell_count()).then(|| Position::new(index as u8))
    }

    /// The middle cell (the one below and right of the middle, on an even size).
    pub fn centre(self) -> Position {
        let middle = self.size() / 2;
        Position::new((middle * self.size() + middle) as u8)
    }

    /// The cell at 0-based `row` (from the top) and `col` (from the left).
    pub fn at(self, row: usize, col: usize) -> Option<Position> {
        (row < self.size() && col < self.size())
            .then(|| Position::new((row * self.size() + col) as u8))
    }

    pub fn row_of(self, position: Position) -> usize {
        position.index() / self.size()
    }

    pub fn col_of(self, position: Position) -> usize {
        position.index() % self.size()
    }

    /// Every cell, in row-major order.
    pub fn positions(self) -> impl Iterator<Item = Position> {
        (0..self.cell_count() as u8).map(Position::new)
    }

    /// Every run of `win` cells in a row, column or diagonal: rows first, then columns,
    /// then diagonals down-right, then diagonals down-left. With `win == size` there are
    /// 2N + 2 of them.
    pub fn lines(self) -> &'static [Line] {
        &self.table().lines
    }

    /// The same lines as bit masks over cell indices (bit i is cell i).
    pub fn line_masks(self) -> &'static [u64] {
        &self.table().masks
    }

    fn table(self) -> &'static LineTable {
        // One table per geometry, built on first use and shared for the life of the process:
        // boards and the engine ask for lines constantly and must not rebuild them.
        const SIDES: usize = 5; // sizes 3..=7
        static TABLES: [OnceLock<LineTable>; SIDES * SIDES] =
            [const { OnceLock::new() }; SIDES * SIDES];
        let slot = (self.size() - 3) * SIDES + (self.win_length() - 3);
        TABLES[slot].get_or_init(|| LineTable::build(self))
    }
}

impl Default for Geometry {
    fn default() -> Self {
        Geometry::classic()
    }
}

struct LineTable {
    lines: Vec<Line>,
    masks: Vec<u64>,
}

impl LineTable {
    fn build(geometry: Geometry) -> Self {
        let n = geometry.size() as isize;
        let k = geometry.win_length() as isize;
        let directions: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
        let mut lines = Vec::new();
        for (dr, dc) in directions {
            for row in 0..n {
                for col in 0..n {
                    let (end_row, end_col) = (row + dr * (k - 1), col + dc * (k - 1));
                    if !(0..n).contains(&end_row) || !(0..n).contains(&end_col) {
                        continue;
                    }
                    let cells = (0..k)
                        .map(|step| Position::new(((row + dr * step) * n + col + dc * step) as u8))
                        .collect();
                    lines.push(Line::new(cells));
                }
            }
        }
        let masks = lines.iter().map(Line::mask).collect();
        LineTable { lines, masks }
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

    /// A full row to win gives 2n + 2 lines (the rows, the columns, the two
    /// diagonals); a shorter run, every placement of it along each.
    #[rstest]
    #[case::classic(3, 3, 8)]
    #[case::four_in_a_row_on_4x4(4, 4, 10)]
    #[case::seven_in_a_row_on_7x7(7, 7, 16)]
    #[case::three_on_4x4(4, 3, 4 * 2 + 4 * 2 + 2 * 4)]
    #[case::four_on_5x5(5, 4, 5 * 2 + 5 * 2 + 4 * 2)]
    fn a_board_has_a_line_for_every_placement_of_the_winning_run(
        #[case] size: usize,
        #[case] win: usize,
        #[case] lines: usize,
    ) {
        let geometry = Geometry::new(size, win).unwrap();

        assert_eq!(geometry.lines().len(), lines);
    }

    #[test]
    fn the_classic_lines_are_the_eight_familiar_ones() {
        let indices: Vec<Vec<usize>> = Geometry::classic()
            .lines()
            .iter()
            .map(|line| line.cells().iter().map(|p| p.index()).collect())
            .collect();

        assert_eq!(
            indices,
            vec![
                vec![0, 1, 2],
                vec![3, 4, 5],
                vec![6, 7, 8],
                vec![0, 3, 6],
                vec![1, 4, 7],
                vec![2, 5, 8],
                vec![0, 4, 8],
                vec![2, 4, 6],
            ]
        );
    }

    #[rstest]
    #[case::too_small(2, 2, GeometryError::Size(2))]
    #[case::too_large(8, 3, GeometryError::Size(8))]
    #[case::run_longer_than_board(3, 4, GeometryError::Win { size: 3, win: 4 })]
    #[case::run_too_short(5, 2, GeometryError::Win { size: 5, win: 2 })]
    fn out_of_range_shapes_are_refused(
        #[case] size: usize,
        #[case] win: usize,
        #[case] error: GeometryError,
    ) {
        assert_eq!(Geometry::new(size, win), Err(error));
    }

    #[rstest]
    #[case::odd_size(3, 5)]
    #[case::even_size_below_and_right_of_the_middle(4, 11)]
    #[case::largest(7, 25)]
    fn the_centre_is_the_middle_cell(#[case] size: usize, #[case] number: usize) {
        let geometry = Geometry::new(size, 3).unwrap();

        assert_eq!(geometry.centre().number(), number);
    }

    #[test]
    fn every_cell_is_at_its_own_row_and_column() {
        for size in 3..=7 {
            let geometry = Geometry::new(size, 3).unwrap();
            for cell in geometry.positions() {
                let (row, col) = (geometry.row_of(cell), geometry.col_of(cell));

                assert_eq!(geometry.at(row, col), Some(cell), "{size}x{size}, {cell}");
            }
        }
    }

    #[test]
    fn rows_count_down_and_columns_across() {
        let geometry = Geometry::new(4, 3).unwrap();
        let cell_7 = geometry.position(6).unwrap();

        assert_eq!((geometry.row_of(cell_7), geometry.col_of(cell_7)), (1, 2));
    }

    #[test]
    fn every_shape_has_its_own_lines_even_when_all_are_asked_for_in_one_process() {
        // Each shape's table is built once and kept: one shape must never be handed
        // another's. Rows and columns: n (n - k + 1) each; each diagonal direction
        // (n - k + 1)^2.
        for size in 3..=7 {
            for win in 3..=size {
                let geometry = Geometry::new(size, win).unwrap();
                let starts = size - win + 1;

                let lines = geometry.lines();

                assert_eq!(lines.len(), 2 * size * starts + 2 * starts * starts);
                assert!(
                    lines.iter().all(|line| line.cells().len() == win
                        && line
                            .cells()
                            .iter()
                            .all(|c| c.index() < geometry.cell_count())),
                    "({size},{size},{win})"
                );
            }
        }
    }

    // Reading what people type.

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
