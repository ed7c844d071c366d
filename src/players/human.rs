use std::rc::Rc;

use super::{Action, Player};
use crate::domain::{GameState, Geometry, PlayerName, Position, PositionError};
use crate::ports::{Input, InputHandler, Problem, Prompt, Renderer};

/// What a person can type at the move prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Move(Position),
    Quit,
    Help,
}

impl Command {
    /// `q`/`quit`, `h`/`help`, or a cell as a number (`5`) or coordinate (`b2`).
    pub fn parse(text: &str, geometry: Geometry) -> Result<Command, PositionError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "q" | "quit" => Ok(Command::Quit),
            "h" | "help" => Ok(Command::Help),
            _ => geometry.parse_position(text).map(Command::Move),
        }
    }
}

/// A person at the keyboard. Asks through the [`InputHandler`] until it gets a move it
/// can play, and explains every refusal through the [`Renderer`].
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
                Ok(Command::Move(cell)) if board.mark_at(cell).is_some() => {
                    self.renderer.show_problem(&Problem::Occupied(cell))
                }
                Ok(Command::Move(cell)) => return Action::Place(cell),
                Err(error) => self.renderer.show_problem(&Problem::Position(error)),
            }
        }
    }
}
