//! The line console's ports: what it shows, in three parts shaped for their users
//! ([`GameView`]: the board and the game's events; [`Dialogue`]: questions and the
//! answers to answers; [`Reports`]: results, analyses, standings), and what it reads
//! ([`InputHandler`]). The console's game loop and menus are written against these, so
//! they can be tested with mocks; `main.rs` plugs in the real terminal, whose
//! `ConsoleRenderer` is all three.
//!
//! The renderer is told *what* happened, as typed values; *how* it reads is its own
//! business. That is also what makes the mocks precise: a test can say "the renderer
//! was told that cell 5 is taken", not "some text containing 5 was printed".

use thiserror::Error;

use crate::clock::TimeLeft;
use tictactoe_core::play::Help;
use tictactoe_core::ports::RatingChange;

use tictactoe_core::domain::{
    Analysis, Board, FinishedGame, Geometry, Mark, NameError, PlayerName, Position, PositionError,
    Refusal, Scoreboard,
};

/// What the program is asking a person for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prompt {
    /// A human's move. `guide`: say what can be typed (the first time in a game).
    /// `time`: each side's time as the question is put, in a game on a clock.
    Move {
        name: PlayerName,
        mark: Mark,
        geometry: Geometry,
        guide: bool,
        time: Option<TimeLeft>,
    },
    /// Human vs Human, Human vs Computer or Computer vs Computer.
    Mode,
    /// Which side the person plays against the computer.
    Side,
    /// The level of the computer playing `mark`.
    Level { mark: Mark },
    /// The name of the human playing `mark`; an empty answer takes `default`.
    Name { mark: Mark, default: PlayerName },
    /// Which mark moves first.
    FirstMover,
    /// The board size.
    Size,
    /// How many in a row win on a `size` x `size` board.
    Win { size: usize },
    /// What to do after a game.
    PlayAgain,
}

/// Something a person typed that could not be used, and why.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Problem {
    #[error("{0}")]
    Position(#[from] PositionError),
    /// The game refused what was asked.
    #[error("{0}")]
    Refused(#[from] Refusal),
    #[error("{0}")]
    Name(#[from] NameError),
    #[error("\"{given}\" is not one of the choices: type {expected}")]
    Choice { given: String, expected: String },
    #[error("{0} is already playing: choose another name")]
    NameTaken(PlayerName),
    #[error(
        "{name} looks like {other}, who is already playing: choose a name that reads differently"
    )]
    NameLooksLike { name: PlayerName, other: PlayerName },
}

/// Events worth telling the people watching.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    Welcome,
    GameStarts {
        x: PlayerName,
        o: PlayerName,
        first: Mark,
        geometry: Geometry,
    },
    Moved {
        name: PlayerName,
        mark: Mark,
        position: Position,
        by_computer: bool,
    },
    /// A player quit: the game is kept, but not counted.
    Abandoned {
        by: PlayerName,
    },
    /// A player gave up: the game is counted as their loss.
    Resigned {
        by: PlayerName,
    },
    /// The player of `side` ran out of time: the game is counted as their loss, or as a
    /// draw (`drawn`) when `other` could no longer complete a line.
    TimedOut {
        name: PlayerName,
        side: Mark,
        other: PlayerName,
        drawn: bool,
    },
    /// The player of `by` made no first move in time: the game is kept, not counted.
    Aborted {
        name: PlayerName,
        by: Mark,
    },
    /// Input ended before the game did: the game is kept as far as it went, not counted.
    InputClosed,
    /// `moves` moves were taken back.
    Undone {
        moves: usize,
    },
    /// `by` asked to take back their last move and waits for the other player to agree.
    UndoAsked {
        by: PlayerName,
    },
    /// The help just asked for would make this rated game casual: asked again, it is
    /// given.
    HelpWarned {
        help: Help,
    },
    /// Help made the game casual: it rates nobody now.
    MadeCasual,
    /// Something of this game (a move, or its result) could not be saved; play goes on.
    /// Said once per game.
    NotSaved {
        reason: String,
    },
    /// What the game just ended did to the ratings of the people in it (X's first):
    /// "Rating: Ada 1,512 → 1,498."
    Rated {
        changes: Vec<RatingChange>,
    },
    Goodbye,
}

/// Shows the game as it goes: the board, and what happens around it. What the game loop
/// and the menus tell everybody watching.
#[cfg_attr(test, mockall::automock)]
pub trait GameView {
    /// Draws the board; the cells in `highlight` (a winning line, or none) stand out.
    fn show_board(&self, board: &dyn Board, highlight: &[Position]);
    fn show_notice(&self, notice: &Notice);
}

/// The questions put to a person, and the answers to their answers: what a person at
/// the keyboard ([`HumanPlayer`](crate::HumanPlayer)) and the menus need.
#[cfg_attr(test, mockall::automock)]
pub trait Dialogue {
    fn show_prompt(&self, prompt: &Prompt);
    /// Asks `prompt` again, after an answer that could not be used was explained: the
    /// question alone, not the choices listed just above it.
    fn show_prompt_again(&self, prompt: &Prompt) {
        self.show_prompt(prompt)
    }
    /// Lists what can be typed at `prompt`.
    fn show_help(&self, prompt: &Prompt);
    fn show_problem(&self, problem: &Problem);
}

/// What the game, the engine and the scoreboard have to say: a result, an analysis, the
/// standings. The game loop shows them, and so do `analyze` and `scores`.
#[cfg_attr(test, mockall::automock)]
pub trait Reports {
    fn show_result(&self, game: &FinishedGame);
    /// What perfect play makes of the position, for `to_move` (a hint, or `analyze`).
    fn show_analysis(&self, to_move: Mark, analysis: &Analysis);
    fn show_scoreboard(&self, scoreboard: &Scoreboard);
}

/// The design card's `Renderer`: everything the console shows, for the parts that show
/// all of it (the game loop and the menus). Anything that is a [`GameView`], a
/// [`Dialogue`] and a [`Reports`] is a `Renderer`; a part that needs less asks for less
/// (a [`HumanPlayer`](crate::HumanPlayer) only talks, `scores` only reports).
pub trait Renderer: GameView + Dialogue + Reports {}

impl<T: GameView + Dialogue + Reports> Renderer for T {}

/// One answer from a person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A line of text, without its line ending.
    Line(String),
    /// Nothing more will come (end of file, closed terminal, or a read error).
    End,
}

/// Reads what people type.
#[cfg_attr(test, mockall::automock)]
pub trait InputHandler {
    fn read_line(&self) -> Input;

    /// Forgets whatever was typed but not read yet: keys pressed while the computer was
    /// thinking are not the person's next answer.
    fn discard_typed_ahead(&self);
}
