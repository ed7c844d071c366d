use thiserror::Error;

use super::{Board, Geometry, IllegalMove, Mark, Position, Win};

/// Where a game stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameStatus {
    InProgress,
    Won(Win),
    Draw,
}

impl GameStatus {
    pub fn is_over(&self) -> bool {
        !matches!(self, GameStatus::InProgress)
    }
}

/// Why a move was refused. The game is unchanged after any of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The cell cannot take a mark.
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
    #[error("the game is over")]
    GameOver,
}

/// Why a board cannot be a position of a game (for games set up from a layout).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IllegalPosition {
    #[error("{x} X and {o} O cannot happen when {first} moves first")]
    Counts { x: usize, o: usize, first: Mark },
    #[error("both X and O have a line")]
    BothWon,
    #[error("{0} has a line but play went on after it")]
    PlayAfterWin(Mark),
}

/// The rules: whose turn it is, what a move does, and when the game ends.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait GameState {
    fn board(&self) -> &dyn Board;

    /// The mark that moves next (after the game is over: the one that would have).
    fn to_move(&self) -> Mark;

    fn status(&self) -> GameStatus;

    /// Puts the mover's mark on `position` and passes the turn.
    fn play(&mut self, position: Position) -> Result<GameStatus, MoveError>;

    /// Takes back the last move played in this game, giving the turn back to its mover.
    /// `None` if no move has been played (marks a game was set up with stay).
    fn undo(&mut self) -> Option<Position>;

    /// How many moves have been played in this game (and so can be undone).
    fn moves_played(&self) -> usize;
}

/// The one implementation of [`GameState`], over any [`Board`].
#[derive(Debug, Clone)]
pub struct Game<B> {
    board: B,
    to_move: Mark,
    status: GameStatus,
    history: Vec<Position>,
}

impl<B: Board> Game<B> {
    /// The board as its own type (a copy of it is a position to keep).
    pub fn cells(&self) -> &B {
        &self.board
    }

    /// The moves played in this game, in order (not the marks it was set up with).
    pub fn moves(&self) -> &[Position] {
        &self.history
    }

    /// A new game on an empty board of this shape.
    pub fn start(geometry: Geometry, first: Mark) -> Self
    where
        B: From<Geometry>,
    {
        Game {
            board: B::from(geometry),
            to_move: first,
            status: GameStatus::InProgress,
            history: Vec::new(),
        }
    }

    /// A game that continues from `board`, which must be reachable by legal play with
    /// `first` moving first. The side to move follows from the counts.
    pub fn from_board(board: B, first: Mark) -> Result<Self, IllegalPosition> {
        let second = first.opponent();
        let (firsts, seconds) = (board.count(first), board.count(second));
        let to_move = if firsts == seconds {
            first
        } else if firsts == seconds + 1 {
            second
        } else {
            let (x, o) = (board.count(Mark::X), board.count(Mark::O));
            return Err(IllegalPosition::Counts { x, o, first });
        };
        let won = |mark: Mark, line| {
            // The winner must have made the last move, and that one move must have
            // completed every line it holds.
            if to_move == mark.opponent() && one_move_made_every_line(&board, mark) {
                Ok(GameStatus::Won(Win { mark, line }))
            } else {
                Err(IllegalPosition::PlayAfterWin(mark))
            }
        };
        let status = match (board.winning_line(Mark::X), board.winning_line(Mark::O)) {
            (Some(_), Some(_)) => return Err(IllegalPosition::BothWon),
            (Some(line), None) => won(Mark::X, line)?,
            (None, Some(line)) => won(Mark::O, line)?,
            (None, None) if board.is_full() => GameStatus::Draw,
            (None, None) => GameStatus::InProgress,
        };
        Ok(Game {
            board,
            to_move,
            status,
            history: Vec::new(),
        })
    }
}

/// True when some cell of `mark` lies on every line `mark` holds: removing it leaves no line.
fn one_move_made_every_line<B: Board>(board: &B, mark: Mark) -> bool {
    let held = board.bits(mark);
    let common = board
        .geometry()
        .line_masks()
        .iter()
        .filter(|&&mask| held & mask == mask)
        .fold(u64::MAX, |common, &mask| common & mask);
    common != 0
}

impl<B: Board> GameState for Game<B> {
    fn board(&self) -> &dyn Board {
        &self.board
    }

    fn to_move(&self) -> Mark {
        self.to_move
    }

    fn status(&self) -> GameStatus {
        self.status.clone()
    }

    fn play(&mut self, position: Position) -> Result<GameStatus, MoveError> {
        if self.status.is_over() {
            return Err(MoveError::GameOver);
        }
        let mover = self.to_move;
        self.board.place(position, mover)?;
        self.status = if let Some(line) = self.board.winning_line(mover) {
            GameStatus::Won(Win { mark: mover, line })
        } else if self.board.is_full() {
            GameStatus::Draw
        } else {
            GameStatus::InProgress
        };
        self.to_move = mover.opponent();
        self.history.push(position);
        Ok(self.status.clone())
    }

    fn undo(&mut self) -> Option<Position> {
        let last = self.history.pop()?;
        if let Some(mover) = self.board.remove(last) {
            self.to_move = mover;
        }
        // The game went on after that position, so it was in progress.
        self.status = GameStatus::InProgress;
        Some(last)
    }

    fn moves_played(&self) -> usize {
        self.history.len()
    }
}
