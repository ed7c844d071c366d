use std::rc::Rc;

use crate::ports::{Input, InputHandler, Problem, Prompt, Renderer};
use tictactoe_core::domain::{GameState, Geometry, PlayerName, Position, PositionError};
use tictactoe_core::players::Player;

/// What a person can type at the move prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// Something for the game: a move, undo, a hint, or leaving.
    Request(Request),
    /// What can be typed here: answered on the spot.
    Help,
}

/// What a person at the keyboard asks the game for on their turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request {
    Move(Position),
    Undo,
    Hint,
    Quit,
}

impl Command {
    /// `q`/`quit`, `h`/`help`, `hint`/`?`, `undo`/`u`, or a cell as a number (`5`) or
    /// coordinate (`b2`).
    pub fn parse(text: &str, geometry: Geometry) -> Result<Command, PositionError> {
        let request = match text.trim().to_ascii_lowercase().as_str() {
            "h" | "help" => return Ok(Command::Help),
            "q" | "quit" => Request::Quit,
            "hint" | "?" => Request::Hint,
            "undo" | "u" => Request::Undo,
            _ => Request::Move(geometry.parse_position(text)?),
        };
        Ok(Command::Request(request))
    }
}

/// A person at the keyboard. Asks through the [`InputHandler`] until it gets a request
/// for the game, explaining every answer it cannot use through the [`Renderer`]. Whether
/// a move can be played is the game's to say: this player only reads.
pub struct HumanPlayer<I, R> {
    name: PlayerName,
    input: Rc<I>,
    renderer: Rc<R>,
}

impl<I: InputHandler, R: Renderer> HumanPlayer<I, R> {
    pub fn new(name: PlayerName, input: Rc<I>, renderer: Rc<R>) -> Self {
        HumanPlayer {
            name,
            input,
            renderer,
        }
    }

    /// Prompts for this player's turn in `game` until the person types a request.
    /// `None` when input has ended.
    pub fn next_request(&mut self, game: &dyn GameState) -> Option<Request> {
        let geometry = game.board().geometry();
        let prompt = Prompt::Move {
            name: self.name.clone(),
            mark: game.to_move(),
            geometry,
        };
        loop {
            self.renderer.show_prompt(&prompt);
            let Input::Line(text) = self.input.read_line() else {
                return None;
            };
            match Command::parse(&text, geometry) {
                Ok(Command::Request(request)) => return Some(request),
                Ok(Command::Help) => self.renderer.show_help(&prompt),
                Err(error) => self.renderer.show_problem(&Problem::Position(error)),
            }
        }
    }
}

impl<I, R> Player for HumanPlayer<I, R> {
    fn name(&self) -> PlayerName {
        self.name.clone()
    }
}

#[cfg(test)]
mod tests {
    use mockall::Sequence;

    use super::*;
    use crate::ports::{MockInputHandler, MockRenderer};
    use crate::test_support::typed;
    use tictactoe_core::domain::{BitBoard, Game, Mark, fill_from_layout};

    /// X to move, with cell 5 taken by O and cell 1 by X.
    #[rstest::fixture]
    fn game() -> Game<BitBoard> {
        let board = fill_from_layout(BitBoard::new(Geometry::classic()), "x../.o./...").unwrap();
        Game::from_board(board, Mark::X).unwrap()
    }

    fn cell(number: usize) -> Position {
        Geometry::classic().position(number - 1).unwrap()
    }

    fn ada(
        input: MockInputHandler,
        renderer: MockRenderer,
    ) -> HumanPlayer<MockInputHandler, MockRenderer> {
        HumanPlayer::new(
            PlayerName::new("Ada").unwrap(),
            Rc::new(input),
            Rc::new(renderer),
        )
    }

    #[rstest::rstest]
    fn each_bad_answer_is_explained_in_turn_until_a_request_comes(game: Game<BitBoard>) {
        // Arrange: the person types "abc", then "0", then a good move. Every prompt, read
        // and explanation must happen in exactly this order.
        let mut seq = Sequence::new();
        let mut input = MockInputHandler::new();
        let mut renderer = MockRenderer::new();
        let explanations: [fn(&Problem) -> bool; 2] = [
            |p| matches!(p, Problem::Position(PositionError::Unrecognised(text)) if text == "abc"),
            |p| {
                matches!(
                    p,
                    Problem::Position(PositionError::NumberOutOfRange { last: 9, .. })
                )
            },
        ];
        for (typed, explained) in ["abc", "0"].into_iter().zip(explanations) {
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
        let request = ada(input, renderer).next_request(&game);

        // Assert
        assert_eq!(request, Some(Request::Move(cell(9))));
    }

    #[rstest::rstest]
    fn a_taken_cell_is_still_handed_on_for_the_game_to_refuse(game: Game<BitBoard>) {
        let mut renderer = MockRenderer::new();
        renderer.expect_show_prompt().times(1).return_const(());

        let request = ada(typed(&["5"]), renderer).next_request(&game);

        assert_eq!(request, Some(Request::Move(cell(5))));
    }

    #[rstest::rstest]
    fn end_of_input_is_reported_once_not_retried(game: Game<BitBoard>) {
        let mut input = MockInputHandler::new();
        input.expect_read_line().times(1).return_const(Input::End);
        let mut renderer = MockRenderer::new();
        renderer.expect_show_prompt().times(1).return_const(());

        let request = ada(input, renderer).next_request(&game);

        assert_eq!(request, None);
    }

    #[rstest::rstest]
    fn help_is_shown_for_the_move_prompt_and_the_question_asked_again(game: Game<BitBoard>) {
        let mut renderer = MockRenderer::new();
        renderer
            .expect_show_help()
            .withf(|prompt| matches!(prompt, Prompt::Move { name, .. } if name.as_str() == "Ada"))
            .times(1)
            .return_const(());
        renderer.expect_show_prompt().times(2).return_const(());

        let request = ada(typed(&["h", "2"]), renderer).next_request(&game);

        assert_eq!(request, Some(Request::Move(cell(2))));
    }

    #[rstest::rstest]
    #[case::quit("quit", Request::Quit)]
    #[case::undo("u", Request::Undo)]
    #[case::hint("?", Request::Hint)]
    fn requests_about_the_game_are_handed_on(
        game: Game<BitBoard>,
        #[case] text: &str,
        #[case] expected: Request,
    ) {
        let mut renderer = MockRenderer::new();
        renderer.expect_show_prompt().times(1).return_const(());

        let request = ada(typed(&[text]), renderer).next_request(&game);

        assert_eq!(request, Some(expected));
    }

    #[test]
    fn commands_are_recognised_in_any_case_and_with_spaces() {
        let geometry = Geometry::classic();
        let request = |r| Ok(Command::Request(r));

        assert_eq!(Command::parse(" Q ", geometry), request(Request::Quit));
        assert_eq!(Command::parse("HELP", geometry), Ok(Command::Help));
        assert_eq!(Command::parse(" Hint", geometry), request(Request::Hint));
        assert_eq!(Command::parse("UNDO", geometry), request(Request::Undo));
        assert_eq!(
            Command::parse("B2", geometry),
            request(Request::Move(cell(5)))
        );
    }
}
