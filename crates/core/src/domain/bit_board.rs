use super::{Board, Geometry, IllegalMove, Line, Mark, Position};

/// A board as two 64-bit masks, one per mark (bit i is cell i; 7 x 7 = 49 cells fit).
///
/// Placing a mark is one OR, a line check is one AND per line: this is the board the
/// game plays on and the representation the engine searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BitBoard {
    geometry: Geometry,
    marks: [u64; 2],
}

impl BitBoard {
    pub fn new(geometry: Geometry) -> Self {
        BitBoard {
            geometry,
            marks: [0; 2],
        }
    }

    fn all_cells(&self) -> u64 {
        // cell_count() <= 49, so the shift never overflows.
        (1u64 << self.geometry.cell_count()) - 1
    }

    fn occupied(&self) -> u64 {
        self.marks[0] | self.marks[1]
    }
}

impl From<Geometry> for BitBoard {
    fn from(geometry: Geometry) -> Self {
        BitBoard::new(geometry)
    }
}

impl Board for BitBoard {
    fn geometry(&self) -> Geometry {
        self.geometry
    }

    fn mark_at(&self, position: Position) -> Option<Mark> {
        Mark::ALL
            .into_iter()
            .find(|mark| self.marks[mark.index()] & position.bit() != 0)
    }

    fn place(&mut self, position: Position, mark: Mark) -> Result<(), IllegalMove> {
        if position.bit() & self.all_cells() == 0 {
            return Err(IllegalMove::OffBoard(position));
        }
        if self.occupied() & position.bit() != 0 {
            return Err(IllegalMove::Occupied(position));
        }
        self.marks[mark.index()] |= position.bit();
        Ok(())
    }

    fn remove(&mut self, position: Position) -> Option<Mark> {
        let mark = self.mark_at(position)?;
        self.marks[mark.index()] &= !position.bit();
        Some(mark)
    }

    fn winning_line(&self, mark: Mark) -> Option<Line> {
        let bits = self.marks[mark.index()];
        let masks = self.geometry.line_masks();
        let index = masks.iter().position(|&mask| bits & mask == mask)?;
        Some(self.geometry.lines()[index].clone())
    }

    fn empty_cells(&self) -> Vec<Position> {
        let empty = self.all_cells() & !self.occupied();
        self.geometry
            .positions()
            .filter(|p| empty & p.bit() != 0)
            .collect()
    }

    fn count(&self, mark: Mark) -> usize {
        self.marks[mark.index()].count_ones() as usize
    }

    fn is_full(&self) -> bool {
        self.occupied() == self.all_cells()
    }

    fn bits(&self, mark: Mark) -> u64 {
        self.marks[mark.index()]
    }
}
