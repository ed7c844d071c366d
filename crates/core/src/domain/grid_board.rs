use super::{Board, Geometry, IllegalMove, Line, Mark, Position};

/// The plainest possible board: one `Option<Mark>` per cell, lines checked one by one.
///
/// It is the reference the faster [`BitBoard`](super::BitBoard) is tested against, and the
/// one to read first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridBoard {
    geometry: Geometry,
    cells: Vec<Option<Mark>>,
}

impl GridBoard {
    pub fn new(geometry: Geometry) -> Self {
        GridBoard {
            geometry,
            cells: vec![None; geometry.cell_count()],
        }
    }
}

impl From<Geometry> for GridBoard {
    fn from(geometry: Geometry) -> Self {
        GridBoard::new(geometry)
    }
}

impl Board for GridBoard {
    fn geometry(&self) -> Geometry {
        self.geometry
    }

    fn mark_at(&self, position: Position) -> Option<Mark> {
        self.cells.get(position.index()).copied().flatten()
    }

    fn place(&mut self, position: Position, mark: Mark) -> Result<(), IllegalMove> {
        match self.cells.get_mut(position.index()) {
            None => Err(IllegalMove::OffBoard(position)),
            Some(Some(_)) => Err(IllegalMove::Occupied(position)),
            Some(cell) => {
                *cell = Some(mark);
                Ok(())
            }
        }
    }

    fn remove(&mut self, position: Position) -> Option<Mark> {
        self.cells.get_mut(position.index()).and_then(Option::take)
    }

    fn winning_line(&self, mark: Mark) -> Option<Line> {
        self.geometry
            .lines()
            .iter()
            .find(|line| {
                line.cells()
                    .iter()
                    .all(|&cell| self.mark_at(cell) == Some(mark))
            })
            .cloned()
    }
}
