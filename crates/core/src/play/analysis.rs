//! `tictactoe analyze`: what perfect play makes of positions given as layouts.

use thiserror::Error;

use crate::domain::{
    Analysis, BitBoard, Game, GameState, GameStatus, Geometry, IllegalPosition, LayoutError, Mark,
    Outcome, Position, fill_from_layout,
};
use crate::players::{Advisor, MoveChooser};

/// The answer for one board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Report {
    InProgress {
        board: BitBoard,
        to_move: Mark,
        analysis: Analysis,
        /// The move the Impossible player makes here.
        choice: Position,
    },
    Finished {
        board: BitBoard,
        outcome: Outcome,
    },
    Invalid {
        given: String,
        error: BoardError,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    #[error("{0}")]
    Layout(#[from] LayoutError),
    #[error("{0}")]
    Illegal(#[from] IllegalPosition),
}

/// Answers boards one at a time with the Impossible player's own reasoning: the
/// analysis is its advice and `choice` its move, so the two always agree.
pub struct Analyzer<F> {
    geometry: Geometry,
    first: Mark,
    /// Makes the Impossible player, freshly seeded, so each board's `choice` does not
    /// depend on the boards before it.
    impossible: F,
}

impl<F, A> Analyzer<F>
where
    F: FnMut() -> A,
    A: MoveChooser + Advisor,
{
    pub fn new(geometry: Geometry, first: Mark, impossible: F) -> Self {
        Analyzer {
            geometry,
            first,
            impossible,
        }
    }

    pub fn report(&mut self, layout: &str) -> Report {
        let invalid = |error: BoardError| Report::Invalid {
            given: layout.to_string(),
            error,
        };
        let board = match fill_from_layout(BitBoard::new(self.geometry), layout) {
            Ok(board) => board,
            Err(error) => return invalid(error.into()),
        };
        let game = match Game::from_board(board, self.first) {
            Ok(game) => game,
            Err(error) => return invalid(error.into()),
        };
        match game.status() {
            GameStatus::Won(win) => Report::Finished {
                board,
                outcome: Outcome::Won(win.mark),
            },
            GameStatus::Draw => Report::Finished {
                board,
                outcome: Outcome::Draw,
            },
            GameStatus::InProgress => {
                let to_move = game.to_move();
                let mut impossible = (self.impossible)();
                // A game in progress has an empty cell, so it has an analysis and a move
                // (the `Advisor` and `MoveChooser` contracts).
                let analysis = impossible
                    .advise(&board, to_move)
                    .expect("an advisor analyses every game in progress");
                let choice = impossible
                    .choose_move(&game)
                    .expect("a computer has a move in every game in progress");
                Report::InProgress {
                    board,
                    to_move,
                    analysis,
                    choice,
                }
            }
        }
    }
}

/// Answers each layout from `layouts` in order, handing each report to `emit` as soon as
/// it is ready. Returns how many boards were invalid. An empty layout is a board with no
/// cells, and invalid like any other wrong count; a caller reading lines skips blank ones.
pub fn analyze_all<F: FnMut() -> A, A: MoveChooser + Advisor>(
    analyzer: &mut Analyzer<F>,
    layouts: impl IntoIterator<Item = String>,
    mut emit: impl FnMut(&Report),
) -> usize {
    let mut invalid = 0;
    for layout in layouts {
        let report = analyzer.report(&layout);
        invalid += usize::from(matches!(report, Report::Invalid { .. }));
        emit(&report);
    }
    invalid
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Board, PlayerName};
    use crate::players::Player;

    /// A dummy: finished and invalid boards need no player, so any question is a failure.
    struct NeverAsked;

    impl Player for NeverAsked {
        fn name(&self) -> PlayerName {
            panic!("a finished or invalid board asked for a player")
        }
    }

    impl MoveChooser for NeverAsked {
        fn choose_move(&mut self, _: &dyn GameState) -> Option<Position> {
            panic!("a finished or invalid board asked for a move")
        }
    }

    impl Advisor for NeverAsked {
        fn advise(&mut self, _: &dyn Board, _: Mark) -> Option<Analysis> {
            panic!("a finished or invalid board asked for advice")
        }
    }

    fn analyzer() -> Analyzer<impl FnMut() -> NeverAsked> {
        Analyzer::new(Geometry::classic(), Mark::X, || NeverAsked)
    }

    #[test]
    fn every_board_is_reported_in_order_and_the_invalid_ones_are_counted() {
        // Arrange: a won board, a layout that is not one, a board with too few cells.
        let layouts = ["xxx/oo./...", "not a board", "x"].map(String::from);
        let mut reported = Vec::new();

        // Act
        let invalid = analyze_all(&mut analyzer(), layouts, |report| {
            reported.push(matches!(report, Report::Invalid { .. }))
        });

        // Assert
        assert_eq!(invalid, 2);
        assert_eq!(reported, [false, true, true]);
    }

    #[test]
    fn a_finished_board_is_reported_with_its_outcome() {
        let report = analyzer().report("xxx/oo./...");

        assert!(matches!(
            report,
            Report::Finished {
                outcome: Outcome::Won(Mark::X),
                ..
            }
        ));
    }
}
