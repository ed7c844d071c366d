use std::rc::Rc;

use super::{Action, Advisor, Player};
use crate::domain::{GameState, Geometry, PlayerName, Position, PositionError};
use crate::ports::{Input, InputHandler, Problem, Prompt, Renderer};

/// What a person can type at the move prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Move(Position),
    Quit,
    Help,
    Hint,
    Undo,
}

impl Command {
    /// `q`/`quit`, `h`/`help`, `hint`/`?`, `undo`/`u`, or a cell as a number (`5`) or
    /// coordinate (`b2`).
    pub fn parse(text: &str, geometry: Geometry) -> Result<Command, PositionError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "q" | "quit" => Ok(Command::Quit),
            "h" | "help" => Ok(Command::Help),
            "hint" | "?" => Ok(Command::Hint),
            "undo" | "u" => Ok(Command::Undo),
            _ => geometry.parse_position(text).map(Command::Move),
        }
    }
}

/// A person at the keyboard. Asks through the [`InputHandler`] until it gets a move it
/// can play, explains every refusal through the [`Renderer`], and answers `hint` with
/// what its [`Advisor`] says.
pub struct HumanPlayer<I, R> {
    name: PlayerName,
    input: Rc<I>,
    renderer: Rc<R>,
    advisor: Box<dyn Advisor>,
}

impl<I: InputHandler, R: Renderer> HumanPlayer<I, R> {
    pub fn new(name: PlayerName, input: Rc<I>, renderer: Rc<R>, advisor: Box<dyn Advisor>) -> Self {
        HumanPlayer {
            name,
            input,
            renderer,
            advisor,
        }
    }
}

impl<I: InputHandler, R: Renderer> Player for HumanPlayer<I, R> {
    fn name(&self) -> PlayerName {
        self.name.clone()
    }

    fn is_human(&self) -> bool {
        true
    }

    fn choose(&mut self, game: &dyn GameState) -> Action {
        let board = game.board();
        let prompt = Prompt::Move {
            name: self.name.clone(),
            mark: game.to_move(),
            geometry: board.geometry(),
        };
        loop {
            self.renderer.show_prompt(&prompt);
            let Input::Line(text) = self.input.read_line() else {
                return Action::InputClosed;
            };
            match Command::parse(&text, board.geometry()) {
                Ok(Command::Quit) => return Action::Quit,
                Ok(Command::Help) => self.renderer.show_help(&prompt),
                Ok(Command::Undo) => return Action::Undo,
                Ok(Command::Hint) => {
                    if let Some(analysis) = self.advisor.advise(board, game.to_move()) {
                        self.renderer.show_analysis(game.to_move(), &analysis);
                    }
                }
                Ok(Command::Move(cell)) if board.mark_at(cell).is_some() => {
                    self.renderer.show_problem(&Problem::Occupied(cell))
                }
                Ok(Command::Move(cell)) => return Action::Place(cell),
                Err(error) => self.renderer.show_problem(&Problem::Position(error)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use mockall::Sequence;
    use mockall::predicate::eq;

    use super::*;
    use crate::domain::{
        Analysis, BitBoard, Board, Game, Mark, MockBoard, MockGameState, Verdict, fill_from_layout,
    };
    use crate::players::MockAdvisor;
    use crate::ports::{MockInputHandler, MockRenderer};
    use crate::test_support::typed;

    fn ada() -> PlayerName {
        PlayerName::new("Ada").unwrap()
    }

    /// X to move, with cell 5 taken by O and cell 1 by X.
    fn game() -> Game<BitBoard> {
        let board = fill_from_layout(BitBoard::new(Geometry::classic()), "x../.o./...").unwrap();
        Game::from_board(board, Mark::X).unwrap()
    }

    fn cell(number: usize) -> Position {
        Geometry::classic().position(number - 1).unwrap()
    }

    fn player(
        input: MockInputHandler,
        renderer: MockRenderer,
    ) -> HumanPlayer<MockInputHandler, MockRenderer> {
        // Only the hint test consults an advisor; it brings its own.
        advised_player(input, renderer, MockAdvisor::new())
    }

    fn advised_player(
        input: MockInputHandler,
        renderer: MockRenderer,
        advisor: MockAdvisor,
    ) -> HumanPlayer<MockInputHandler, MockRenderer> {
        HumanPlayer::new(ada(), Rc::new(input), Rc::new(renderer), Box::new(advisor))
    }

    #[test]
    fn each_bad_answer_is_explained_in_turn_until_a_move_can_be_played() {
        // Arrange: the person types "abc", "0", an occupied cell, then a good move. Every
        // prompt, read and explanation must happen in exactly this order.
        let mut seq = Sequence::new();
        let mut input = MockInputHandler::new();
        let mut renderer = MockRenderer::new();
        let explanations: [fn(&Problem) -> bool; 3] = [
            |p| matches!(p, Problem::Position(PositionError::Unrecognised(text)) if text == "abc"),
            |p| {
                matches!(
                    p,
                    Problem::Position(PositionError::NumberOutOfRange { last: 9, .. })
                )
            },
            |p| *p == Problem::Occupied(cell(5)),
        ];
        for (typed, explained) in ["abc", "0", "5"].into_iter().zip(explanations) {
            renderer
                .expect_show_prompt()
                .times(1)
                .in_sequence(&mut seq)
                .return_const(());
            input
                .expect_read_line()
                .times(1)
                .in_sequence(&mut seq)
                .return_const(Input::Line(typed.to_string()));
            renderer
                .expect_show_problem()
                .withf(explained)
                .times(1)
                .in_sequence(&mut seq)
                .return_const(());
        }
        renderer
            .expect_show_prompt()
            .withf(|prompt| matches!(prompt, Prompt::Move { mark: Mark::X, .. }))
            .times(1)
            .in_sequence(&mut seq)
            .return_const(());
        input
            .expect_read_line()
            .times(1)
            .in_sequence(&mut seq)
            .return_const(Input::Line("c3".to_string()));

        // Act
        let action = player(input, renderer).choose(&game());

        // Assert
        assert_eq!(action, Action::Place(cell(9)));
    }

    #[test]
    fn quitting_leaves_without_a_move() {
        let mut renderer = MockRenderer::new();
        renderer.expect_show_prompt().times(1).return_const(());

        let action = player(typed(&["quit"]), renderer).choose(&game());

        assert_eq!(action, Action::Quit);
    }

    #[test]
    fn end_of_input_is_reported_once_not_retried() {
        let mut input = MockInputHandler::new();
        input.expect_read_line().times(1).return_const(Input::End);
        let mut renderer = MockRenderer::new();
        renderer.expect_show_prompt().times(1).return_const(());

        let action = player(input, renderer).choose(&game());

        assert_eq!(action, Action::InputClosed);
    }

    #[test]
    fn help_is_shown_for_the_move_prompt_and_the_question_asked_again() {
        let mut renderer = MockRenderer::new();
        renderer
            .expect_show_help()
            .withf(|prompt| matches!(prompt, Prompt::Move { name, .. } if name.as_str() == "Ada"))
            .times(1)
            .return_const(());
        renderer.expect_show_prompt().times(2).return_const(());

        let action = player(typed(&["h", "2"]), renderer).choose(&game());

        assert_eq!(action, Action::Place(cell(2)));
    }

    #[test]
    fn the_board_is_asked_whether_the_chosen_cell_is_free() {
        // Arrange: a game whose board says cell 5 is taken and cell 6 is free.
        let mut board = MockBoard::new();
        board.expect_geometry().return_const(Geometry::classic());
        board
            .expect_mark_at()
            .with(eq(cell(5)))
            .times(1)
            .return_const(Some(Mark::O));
        board
            .expect_mark_at()
            .with(eq(cell(6)))
            .times(1)
            .return_const(None);
        let mut game = MockGameState::new();
        game.expect_board()
            .return_const(Box::new(board) as Box<dyn Board + Send>);
        game.expect_to_move().return_const(Mark::X);
        let mut renderer = MockRenderer::new();
        renderer.expect_show_prompt().times(2).return_const(());
        renderer
            .expect_show_problem()
            .with(eq(Problem::Occupied(cell(5))))
            .times(1)
            .return_const(());

        // Act
        let action = player(typed(&["5", "6"]), renderer).choose(&game);

        // Assert
        assert_eq!(action, Action::Place(cell(6)));
    }

    #[test]
    fn a_hint_shows_the_advisors_analysis_for_the_player_and_asks_again() {
        // Arrange: an advisor that, asked about X's position, says cell 3 wins at once.
        let mut advisor = MockAdvisor::new();
        advisor
            .expect_advise()
            .withf(|board, to_move| *to_move == Mark::X && board.mark_at(cell(5)) == Some(Mark::O))
            .times(1)
            .returning(|_, _| {
                Some(Analysis {
                    verdict: Verdict::Win,
                    plies: 1,
                    best_moves: vec![cell(3)],
                    exact: true,
                })
            });
        let mut renderer = MockRenderer::new();
        renderer
            .expect_show_analysis()
            .withf(|mark, analysis| *mark == Mark::X && analysis.best_moves == [cell(3)])
            .times(1)
            .return_const(());
        renderer.expect_show_prompt().times(2).return_const(());

        // Act
        let action = advised_player(typed(&["?", "7"]), renderer, advisor).choose(&game());

        // Assert
        assert_eq!(action, Action::Place(cell(7)), "a hint does not play");
    }

    #[test]
    fn undo_is_handed_to_the_game_loop() {
        let mut renderer = MockRenderer::new();
        renderer.expect_show_prompt().times(1).return_const(());

        assert_eq!(
            player(typed(&["u"]), renderer).choose(&game()),
            Action::Undo
        );
    }

    #[test]
    fn commands_are_recognised_in_any_case_and_with_spaces() {
        let geometry = Geometry::classic();

        assert_eq!(Command::parse(" Q ", geometry), Ok(Command::Quit));
        assert_eq!(Command::parse("HELP", geometry), Ok(Command::Help));
        assert_eq!(Command::parse(" Hint", geometry), Ok(Command::Hint));
        assert_eq!(Command::parse("UNDO", geometry), Ok(Command::Undo));
        assert_eq!(Command::parse("B2", geometry), Ok(Command::Move(cell(5))));
    }
}
