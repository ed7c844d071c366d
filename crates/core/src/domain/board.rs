use thiserror::Error;

use super::{Geometry, Line, Mark, Position};

/// A line completed by one mark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Win {
    pub mark: Mark,
    pub line: Line,
}

/// Why a cell cannot take a mark: the one "illegal move" of the game. A board answers
/// it, a game's [`MoveError`](super::MoveError) and a match's
/// [`Refusal`](super::Refusal) carry it whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum IllegalMove {
    #[error("cell {0} is not on this board")]
    OffBoard(Position),
    #[error("cell {0} is already taken")]
    Occupied(Position),
}

/// An N x N grid of cells, each empty or holding a mark.
///
/// A board knows nothing of turns or of whose move it is (that is [`GameState`]'s job):
/// it stores marks and answers questions about lines. Implementors provide the five
/// required methods; the rest have correct defaults that an implementation may
/// override for speed.
///
/// [`GameState`]: super::GameState
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait Board {
    fn geometry(&self) -> Geometry;

    /// The mark on `position`, or `None` if it is empty (or not on this board).
    fn mark_at(&self, position: Position) -> Option<Mark>;

    /// Puts `mark` on an empty cell.
    fn place(&mut self, position: Position, mark: Mark) -> Result<(), IllegalMove>;

    /// Empties a cell, returning what was there.
    fn remove(&mut self, position: Position) -> Option<Mark>;

    /// A line that `mark` fills completely, if there is one.
    fn winning_line(&self, mark: Mark) -> Option<Line>;

    /// The empty cells in row-major order.
    fn empty_cells(&self) -> Vec<Position> {
        self.geometry()
            .positions()
            .filter(|&p| self.mark_at(p).is_none())
            .collect()
    }

    fn count(&self, mark: Mark) -> usize {
        self.geometry()
            .positions()
            .filter(|&p| self.mark_at(p) == Some(mark))
            .count()
    }

    fn is_full(&self) -> bool {
        self.geometry()
            .positions()
            .all(|p| self.mark_at(p).is_some())
    }

    /// The cells holding `mark`, as a bitboard (bit i is cell i).
    fn bits(&self, mark: Mark) -> u64 {
        self.geometry()
            .positions()
            .filter(|&p| self.mark_at(p) == Some(mark))
            .fold(0, |bits, p| bits | p.bit())
    }

    /// The first completed line, looking at X's lines before O's. On a board reached by
    /// legal play at most one mark has a line.
    fn winner(&self) -> Option<Win> {
        Mark::ALL
            .into_iter()
            .find_map(|mark| self.winning_line(mark).map(|line| Win { mark, line }))
    }
}

/// Why a board layout (`"xx./xoo/..."`) could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LayoutError {
    #[error("'{0}' is not a mark: use X, O, and . - or _ for an empty cell")]
    BadCharacter(char),
    #[error("a {size}x{size} board has {expected} cells, not {found}")]
    WrongLength {
        size: usize,
        expected: usize,
        found: usize,
    },
}

/// Fills an empty board from a layout: the cells row-major, `X`/`O` in either case,
/// `.`, `-` or `_` for an empty cell; `/` and white space between cells are ignored.
pub fn fill_from_layout<B: Board>(mut board: B, layout: &str) -> Result<B, LayoutError> {
    let geometry = board.geometry();
    let cells: Vec<Option<Mark>> = layout
        .chars()
        .filter(|c| *c != '/' && !c.is_whitespace())
        .map(|c| match c {
            'x' | 'X' => Ok(Some(Mark::X)),
            'o' | 'O' => Ok(Some(Mark::O)),
            '.' | '-' | '_' => Ok(None),
            other => Err(LayoutError::BadCharacter(other)),
        })
        .collect::<Result<_, _>>()?;
    if cells.len() != geometry.cell_count() {
        return Err(LayoutError::WrongLength {
            size: geometry.size(),
            expected: geometry.cell_count(),
            found: cells.len(),
        });
    }
    for (position, cell) in geometry.positions().zip(cells) {
        if let Some(mark) = cell {
            board.remove(position);
            // Cannot fail: the position comes from the board's own geometry and was just emptied.
            let _ = board.place(position, mark);
        }
    }
    Ok(board)
}

/// Writes a board as a layout: upper-case marks, `.` for empty, no separators.
pub fn layout_of(board: &dyn Board) -> String {
    board
        .geometry()
        .positions()
        .map(|p| match board.mark_at(p) {
            Some(Mark::X) => 'X',
            Some(Mark::O) => 'O',
            None => '.',
        })
        .collect()
}
