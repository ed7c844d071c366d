//! The inbound port: what the HTTP adapter (`api`) asks of the server's games, in the
//! domain's words. Inputs arrive checked (a [`GameId`], a [`Setup`], a [`SeatKey`]);
//! answers are values of the core and of this crate's read model ([`GameView`]); every
//! "no" is a [`GameError`]. Nothing here knows HTTP: status codes, wording and
//! transport limits are the edge's (`error`, `server`).
//!
//! [`Games`](super::games::Games) is the implementation; `api`'s own tests put a mock
//! here, so each handler's translation (body and token in, status and JSON out) is
//! checked without a game behind it.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use thiserror::Error;
use tokio::sync::watch;

use tictactoe_core::domain::{
    Analysis, Geometry, IllegalMove, Mark, PlayerName, Position, Refusal, Scoreboard,
};
use tictactoe_core::play::{NameRefusal, Review};
use tictactoe_core::ports::{
    Answered, GameId, GameSummary, HistoryPage, HistoryQuery, OpenPuzzles, Opponents, PlayerRating,
    Puzzle, RatingPoint, RatingRow, StoreError,
};

use super::setup::Setup;
use super::token::Token;
use super::view::GameView;

/// An answer to come: the futures are `Send` and own what they need, so the handlers
/// awaiting them can run on any thread.
pub type Answer<T> = Pin<Box<dyn Future<Output = Result<T, GameError>> + Send>>;

/// Starting, finding and playing the server's games: one method per request of the API.
#[cfg_attr(test, mockall::automock)]
pub trait GameService: Send + Sync + 'static {
    /// A new game, with a fresh token for each person's seat.
    fn create(&self, setup: Setup) -> Answer<Created>;

    /// The game as it stands. A seat's key, if it opens a seat, says that the seat's
    /// player has the game open (`joined`); without one (or with a wrong one) it is a
    /// spectator's look.
    fn game(&self, id: GameId, key: SeatKey) -> Answer<Arc<GameView>>;

    /// The seat's move on the cell numbered `cell` (1-based), then the computer's reply
    /// if due.
    fn play(&self, id: GameId, key: SeatKey, cell: u64) -> Answer<Arc<GameView>>;

    /// The seat takes back a move (or asks to, between two screens).
    fn undo(&self, id: GameId, key: SeatKey) -> Answer<Arc<GameView>>;

    /// The game ends as the seat's loss, counted.
    fn resign(&self, id: GameId, key: SeatKey) -> Answer<Arc<GameView>>;

    /// The seat's person plays under `name` from now on: a person may choose their name
    /// until their first move.
    fn rename(&self, id: GameId, key: SeatKey, name: PlayerName) -> Answer<Arc<GameView>>;

    /// What perfect play makes of the position, for the seat whose turn it is.
    fn hint(&self, id: GameId, key: SeatKey) -> Answer<Analysis>;

    /// The same game with sides swapped, once the game is over; asked again, the same
    /// rematch.
    fn rematch(&self, id: GameId, key: SeatKey) -> Answer<Rematch>;

    /// The game's views as they change, until the game is forgotten from memory or the
    /// server stops.
    fn watch(&self, id: GameId) -> Answer<Watching>;

    /// The first `top` rows of the scoreboard as it is now.
    fn scores(&self, top: u64) -> Answer<Scoreboard>;

    /// A page of the ended games, newest first.
    fn history(&self, query: HistoryQuery) -> Answer<HistoryPage>;

    /// The review of an ended game, kept once computed; while it is computed, how far it
    /// has come.
    fn review(&self, id: GameId) -> Answer<Reviewing>;

    /// A player's results against each opponent and their newest games.
    fn player(&self, name: PlayerName) -> Answer<PlayerPage>;

    /// The first `top` rows of `board`'s ratings, the levels' anchors among them.
    fn ratings(&self, board: Geometry, top: u32) -> Answer<Vec<RatingRow>>;

    /// A player's open training puzzles (on `board` only, if given), each with a short
    /// form of its game's id, and what kept more of their moves from being puzzles.
    fn puzzles(&self, name: PlayerName, board: Option<Geometry>) -> Answer<Training>;

    /// The player's answer `cell` (1-based) to their open puzzle `asked`,
    /// judged by perfect play in the server's thinking time; a right or wrong answer is
    /// kept as an attempt before it is answered, an answer not judged is not.
    fn answer_puzzle(&self, asked: PuzzleAsked, cell: u64) -> Answer<PuzzleAnswer>;
}

/// A puzzle as a player names it: theirs, of `game` at `ply`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleAsked {
    pub player: PlayerName,
    pub game: GameId,
    pub ply: u32,
}

/// A player's open puzzles, as the training page lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Training {
    /// The puzzles, newest game first, and what was left out.
    pub open: OpenPuzzles,
    /// A short form of each puzzle's game id, in the same order (as `tictactoe train`
    /// names games).
    pub short_ids: Vec<String>,
}

/// An answer to a puzzle, judged (and, unless not judged, kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleAnswer {
    pub puzzle: Puzzle,
    pub cell: Position,
    pub answered: Answered,
}

/// A seat's key as the request carried it: a token, none, or something that is not one.
#[derive(Clone)]
pub enum SeatKey {
    Token(Token),
    Missing,
    Malformed,
}

/// A game begun: its view, and a token for each seat the caller holds (a person's).
#[derive(Debug, Clone)]
pub struct Created {
    pub game: Arc<GameView>,
    /// X's and O's.
    pub tokens: [Option<Token>; 2],
}

/// A rematch: the game, and whether this request began it (`false`: someone asked
/// before).
#[derive(Debug, Clone)]
pub struct Rematch {
    pub created: Created,
    pub new: bool,
}

/// What an event stream follows.
pub struct Watching {
    /// The game's views as they change.
    pub game: watch::Receiver<Arc<GameView>>,
    /// Turns true when the server stops.
    pub closing: watch::Receiver<bool>,
}

/// Where the review of an ended game stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reviewing {
    /// Computed and kept.
    Done { game: GameId, review: Review },
    /// Being computed (or waiting for its turn): `done` of the game's `total` moves.
    Computing { done: usize, total: usize },
}

/// What a player's page shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerPage {
    /// The name as the newest of their games has it (as asked, if they have none).
    pub name: PlayerName,
    /// Their results by opponent (the most played first) and their whole record.
    pub opponents: Opponents,
    /// Their newest ended games, newest first.
    pub recent: Vec<GameSummary>,
    /// Their rating on each board they were rated on (by size, then run), with their
    /// rating after each of their last games there, oldest first.
    pub ratings: Vec<(PlayerRating, Vec<RatingPoint>)>,
}

/// What a request needed the game to have done first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterTheEnd {
    Rematch,
    Review,
}

/// Why the server's games did not do what was asked. The edge words each for people
/// and gives it a status; these texts are for the server's log.
#[derive(Debug, Error)]
pub enum GameError {
    /// No game of that id is kept.
    #[error("no such game")]
    NoSuchGame,
    /// The request needs a seat, and carried no key.
    #[error("no seat key was given")]
    NoSeatKey,
    /// The key opens no seat of this game.
    #[error("the key opens no seat of this game")]
    NotASeat,
    /// A cell number past the board's (or 0).
    #[error("cell {cell} is not on a board of {cells} cells")]
    NoSuchCell { cell: u64, cells: usize },
    /// The game refused the request (not your turn, cell taken, game over, ...).
    #[error("refused: {0}")]
    Refused(Refusal),
    /// The seat has made its first move: its name stays as it is.
    #[error("{0} has moved: its name stays as it is")]
    NameFixed(Mark),
    /// The name asked for is the other person's (`other`), letter case aside.
    #[error("the other player is called {other}")]
    NameTaken { other: PlayerName },
    /// The name asked for looks like the other person's (`other`).
    #[error("{name} looks like the other player's name, {other}")]
    NameLooksLike { name: PlayerName, other: PlayerName },
    /// The request comes after the game's end, and the game is still played.
    #[error("the game is still being played ({0:?} comes after the end)")]
    StillPlaying(AfterTheEnd),
    /// A history's cursor naming no kept game.
    #[error("no game {0} is kept to page from")]
    NoSuchCursor(GameId),
    /// Nobody of that name has a game kept.
    #[error("no player called {0} has a game kept")]
    NoSuchPlayer(PlayerName),
    /// The player has no open puzzle of that game and ply (there never was one, or it
    /// has retired).
    #[error("no open puzzle of game {game} at move {ply}")]
    NoSuchPuzzle { game: GameId, ply: u32 },
    /// An answer to a puzzle on a cell that is taken there.
    #[error("not an answer: {0}")]
    NotAnAnswer(IllegalMove),
    /// The store could not keep or read what the request needed; nothing was changed.
    #[error("the store failed: {0}")]
    Store(StoreError),
    /// The store did not answer in time: what the request changed may or may not be
    /// kept (the game is read again before its next request).
    #[error("the store did not answer within {} ms", .0.as_millis())]
    StoreSlow(std::time::Duration),
    /// The store is known to be unusable (its last checks failed): not even tried.
    #[error("the store is unusable: {0}")]
    StoreDown(String),
    /// The game was read again several times while this request waited: others keep
    /// failing to keep it.
    #[error("the game could not be settled: read back several times while waiting")]
    Unsettled,
    /// As many reviews are under way as the server takes.
    #[error("as many reviews are under way as the server takes")]
    ReviewsFull,
    /// A bug: a computer broke the rules, a worker thread died, a kept game is not one.
    #[error("{0}")]
    Broken(String),
}

impl From<Refusal> for GameError {
    fn from(refusal: Refusal) -> Self {
        GameError::Refused(refusal)
    }
}

impl From<NameRefusal> for GameError {
    fn from(refusal: NameRefusal) -> Self {
        match refusal {
            NameRefusal::Refused(refusal) => GameError::Refused(refusal),
            NameRefusal::Moved(seat) => GameError::NameFixed(seat),
            NameRefusal::Taken { other } => GameError::NameTaken { other },
            NameRefusal::LooksLike { name, other } => GameError::NameLooksLike { name, other },
        }
    }
}

impl From<StoreError> for GameError {
    fn from(error: StoreError) -> Self {
        GameError::Store(error)
    }
}
