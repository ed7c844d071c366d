use crate::clock::TimeLeft;
use crate::ports::{Dialogue, Input, InputHandler, Problem, Prompt};
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
/// for the game, explaining every answer it cannot use through the [`Dialogue`]: the
/// board and the scores are someone else's to show. Whether a move can be played is the
/// game's to say: this player only reads.
pub struct HumanPlayer<'a, I, D> {
    name: PlayerName,
    input: &'a I,
    dialogue: &'a D,
    /// Whether this person has been told what can be typed at the move prompt.
    guided: bool,
}

impl<'a, I: InputHandler, D: Dialogue> HumanPlayer<'a, I, D> {
    pub fn new(name: PlayerName, input: &'a I, dialogue: &'a D) -> Self {
        HumanPlayer {
            name,
            input,
            dialogue,
            guided: false,
        }
    }

    /// Prompts for this player's turn in `game` until the person types a request.
    /// `None` when input has ended.
    pub fn next_request(&mut self, game: &dyn GameState) -> Option<Request> {
        self.next_request_timed(game, &|| None)
    }

    /// As [`next_request`](Self::next_request), in a game on a clock: each prompt shows
    /// the time as `time` reads it when the prompt is shown.
    pub fn next_request_timed(
        &mut self,
        game: &dyn GameState,
        time: &dyn Fn() -> Option<TimeLeft>,
    ) -> Option<Request> {
        let geometry = game.board().geometry();
        let mut prompt = Prompt::Move {
            name: self.name.clone(),
            mark: game.to_move(),
            geometry,
            guide: !std::mem::replace(&mut self.guided, true),
            time: None,
        };
        loop {
            if let Prompt::Move { time: shown, .. } = &mut prompt {
                *shown = time();
            }
            self.dialogue.show_prompt(&prompt);
            // Said once: asked again, the question alone.
            if let Prompt::Move { guide, .. } = &mut prompt {
                *guide = false;
            }
            let Input::Line(text) = self.input.read_line() else {
                return None;
            };
            match Command::parse(&text, geometry) {
                Ok(Command::Request(request)) => return Some(request),
                Ok(Command::Help) => self.dialogue.show_help(&prompt),
                Err(error) => self.dialogue.show_problem(&Problem::Position(error)),
            }
        }
    }
}

impl<I, D> Player for HumanPlayer<'_, I, D> {
    fn name(&self) -> PlayerName {
        self.name.clone()
    }
}

#[cfg(test)]
mod tests {
    use mockall::Sequence;

    use super::*;
    use crate::ports::{MockDialogue, MockInputHandler};
    use crate::test_support::{cell, name, typed};
    use tictactoe_core::domain::{
        BitBoard, Game, Mark, MockBoard, MockGameState, fill_from_layout,
    };

    /// X to move, with cell 5 taken by O and cell 1 by X.
    #[rstest::fixture]
    fn game() -> Game<BitBoard> {
        let board = fill_from_layout(BitBoard::new(Geometry::classic()), "x../.o./...").unwrap();
        Game::from_board(board, Mark::X).unwrap()
    }

    /// What Ada asks for on her turn in `game`, reading `input` and answered on `dialogue`.
    fn ada_asks(
        input: MockInputHandler,
        dialogue: MockDialogue,
        game: &dyn GameState,
    ) -> Option<Request> {
        HumanPlayer::new(name("Ada"), &input, &dialogue).next_request(game)
    }

    /// A dialogue that stubs the prompt and expects nothing else: a problem or help
    /// shown would fail the test.
    fn prompts_only() -> MockDialogue {
        let mut dialogue = MockDialogue::new();
        dialogue.expect_show_prompt().return_const(());
        dialogue
    }

    /// `input` expects to be read once more, in `seq`'s order, and gives `line`.
    fn expect_read_in_turn(input: &mut MockInputHandler, seq: &mut Sequence, line: &str) {
        input
            .expect_read_line()
            .times(1)
            .in_sequence(seq)
            .return_const(Input::Line(line.to_string()));
    }

    #[rstest::rstest]
    fn each_bad_answer_is_explained_in_turn_until_a_request_comes(game: Game<BitBoard>) {
        // Arrange: the person types "abc", then "0", then a good move. Every prompt, read
        // and explanation must happen in exactly this order.
        let mut seq = Sequence::new();
        let mut input = MockInputHandler::new();
        let mut dialogue = MockDialogue::new();
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
            dialogue
                .expect_show_prompt()
                .times(1)
                .in_sequence(&mut seq)
                .return_const(());
            expect_read_in_turn(&mut input, &mut seq, typed);
            dialogue
                .expect_show_problem()
                .withf(explained)
                .times(1)
                .in_sequence(&mut seq)
                .return_const(());
        }
        dialogue
            .expect_show_prompt()
            .withf(|prompt| matches!(prompt, Prompt::Move { mark: Mark::X, .. }))
            .times(1)
            .in_sequence(&mut seq)
            .return_const(());
        expect_read_in_turn(&mut input, &mut seq, "c3");

        // Act
        let request = ada_asks(input, dialogue, &game);

        // Assert
        assert_eq!(request, Some(Request::Move(cell(9))));
    }

    #[test]
    fn the_prompt_names_the_mark_and_the_cells_of_the_game_it_is_given() {
        // Arrange: the player only asks the game whose turn it is and how large its board
        // is, so stubs of `GameState` and `Board` answering just that are enough: O to
        // move on 4 x 4. The prompt is what this test is about.
        let mut board = MockBoard::new();
        board
            .expect_geometry()
            .return_const(Geometry::new(4, 3).unwrap());
        let mut game = MockGameState::new();
        game.expect_board().return_const(Box::new(board));
        game.expect_to_move().return_const(Mark::O);
        let mut dialogue = MockDialogue::new();
        dialogue
            .expect_show_prompt()
            .withf(|prompt| {
                matches!(prompt, Prompt::Move { name, mark: Mark::O, geometry, .. }
                    if name.as_str() == "Ada" && geometry.cell_count() == 16)
            })
            .times(1)
            .return_const(());

        // Act: 16 is a cell on 4 x 4 (not on the classic board).
        let request = ada_asks(typed(&["16"]), dialogue, &game);

        // Assert
        let last = Geometry::new(4, 3).unwrap().position(15).unwrap();
        assert_eq!(request, Some(Request::Move(last)));
    }

    #[rstest::rstest]
    fn a_taken_cell_is_still_handed_on_for_the_game_to_refuse(game: Game<BitBoard>) {
        // Arrange: cell 5 is O's; no problem may be shown (no expectation for one).
        let dialogue = prompts_only();

        // Act
        let request = ada_asks(typed(&["5"]), dialogue, &game);

        // Assert
        assert_eq!(request, Some(Request::Move(cell(5))));
    }

    #[rstest::rstest]
    fn end_of_input_is_reported_once_not_retried(game: Game<BitBoard>) {
        // Arrange: a mock of the input: one read, whatever happens.
        let mut input = MockInputHandler::new();
        input.expect_read_line().times(1).return_const(Input::End);

        // Act
        let request = ada_asks(input, prompts_only(), &game);

        // Assert
        assert_eq!(request, None);
    }

    #[rstest::rstest]
    fn help_is_shown_for_the_move_prompt_and_the_question_asked_again(game: Game<BitBoard>) {
        // Arrange: help once, for Ada's move prompt, which is then shown a second time.
        let mut dialogue = MockDialogue::new();
        dialogue
            .expect_show_help()
            .withf(|prompt| matches!(prompt, Prompt::Move { name, .. } if name.as_str() == "Ada"))
            .times(1)
            .return_const(());
        dialogue.expect_show_prompt().times(2).return_const(());

        // Act
        let request = ada_asks(typed(&["h", "2"]), dialogue, &game);

        // Assert
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
        // Act
        let request = ada_asks(typed(&[text]), prompts_only(), &game);

        // Assert
        assert_eq!(request, Some(expected));
    }

    #[test]
    fn a_human_player_is_a_player_by_the_name_it_was_given() {
        // Arrange: nothing is read or shown to give a name.
        let (input, dialogue) = (MockInputHandler::new(), MockDialogue::new());
        let ada = HumanPlayer::new(name("Ada"), &input, &dialogue);

        // Act
        let player: &dyn Player = &ada;

        // Assert
        assert_eq!(player.name(), name("Ada"));
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
