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
use std::time::{Duration, SystemTime};

use thiserror::Error;
use tokio::sync::watch;

use tictactoe_core::domain::{
    Analysis, Geometry, IllegalMove, Mark, Password, PlayerName, Position, Refusal, Scoreboard,
    TimeControl,
};
use tictactoe_core::play::{BoardRatings, OpenPuzzles};
use tictactoe_core::play::{NameRefusal, Review};
use tictactoe_core::ports::{
    GameId, GameSummary, HistoryPage, HistoryQuery, IdPrefix, Opponents, PlayerRating,
    RatingChange, RatingPoint, Seek, SeekId, SeekKind, StoreError, TokenId, TokenInfo,
};
use tictactoe_core::rules::{Answered, Fate, Puzzle};

use super::budget::{Payer, Refused};
use super::caller::Caller;
use super::setup::Setup;
use super::shares::Client;
use super::table::Views;
use super::token::{PersonalToken, Token};
use super::view::GameView;

/// An answer to come: the futures are `Send` and own what they need, so the handlers
/// awaiting them can run on any thread.
pub type Answer<T> = Pin<Box<dyn Future<Output = Result<T, GameError>> + Send>>;

/// Starting, finding and playing the server's games: one method per request of the API.
#[cfg_attr(test, mockall::automock)]
pub trait GameService: Send + Sync + 'static {
    /// A new game: each person's seat the caller's (their account's, or a guest's with
    /// a fresh secret), but the one `invite` names, held open for whoever brings the
    /// invite's code.
    fn create(&self, setup: Setup, caller: Caller, invite: Option<Mark>) -> Answer<Created>;

    /// The game as it stands, and the seats the caller holds (whose player has the game
    /// open: `joined`); holding none, a spectator's look.
    fn game(&self, id: GameId, caller: Caller) -> Answer<Looked>;

    /// The seat held open for whoever brings the invite `code`, taken by the caller
    /// (their account's, or a guest's with a fresh secret).
    fn join(&self, id: GameId, caller: Caller, code: Token) -> Answer<Created>;

    /// The caller's seat's move on the cell numbered `cell` (1-based), then the
    /// computer's reply if due.
    fn play(&self, id: GameId, caller: Caller, cell: u64) -> Answer<Arc<GameView>>;

    /// The caller's seat takes back a move (or asks to, between two screens).
    fn undo(&self, id: GameId, caller: Caller) -> Answer<Arc<GameView>>;

    /// The game ends as the caller's seat's loss, counted.
    fn resign(&self, id: GameId, caller: Caller) -> Answer<Arc<GameView>>;

    /// The caller's seat's person plays under `name` from now on: a person may choose
    /// their name until their first move.
    fn rename(&self, id: GameId, caller: Caller, name: PlayerName) -> Answer<Arc<GameView>>;

    /// What perfect play makes of the position, for the caller's seat, whose turn it is.
    fn hint(&self, id: GameId, caller: Caller) -> Answer<Hint>;

    /// The same game with sides swapped, once the game is over, each seat the caller
    /// held taken again on the other mark; asked again, the same rematch.
    fn rematch(&self, id: GameId, caller: Caller) -> Answer<Rematch>;

    /// The game's views as they change, until the game is forgotten from memory or the
    /// server stops.
    fn watch(&self, id: GameId) -> Answer<Watching>;

    /// The first `top` rows of the scoreboard as it is now.
    fn scores(&self, top: u64) -> Answer<Scoreboard>;

    /// A page of the ended games, newest first.
    fn history(&self, query: HistoryQuery) -> Answer<HistoryPage>;

    /// The review of an ended game, kept once computed; while it is computed, how far it
    /// has come. Computing one draws on `payer`'s share of the computer's thinking.
    fn review(&self, id: GameId, payer: Payer) -> Answer<Reviewing>;

    /// The kept games whose id starts with `prefix`: at most two (enough to tell that
    /// the prefix is ambiguous).
    fn games_starting(&self, prefix: IdPrefix) -> Answer<Vec<GameId>>;

    /// What an ended game did to its people's ratings, X's first: none when it rated
    /// nobody.
    fn rating_changes(&self, id: GameId) -> Answer<Vec<RatingChange>>;

    /// A player's results against each opponent and their newest games.
    fn player(&self, name: PlayerName) -> Answer<PlayerPage>;

    /// The first `top` rows of `board`'s ranking (the levels' anchors among them), and
    /// the first `top` provisional people apart.
    fn ratings(&self, board: Geometry, top: u32) -> Answer<BoardRatings>;

    /// A player's open training puzzles (on `board` only, if given), each with a short
    /// form of its game's id, and what kept more of their moves from being puzzles.
    fn puzzles(&self, name: PlayerName, board: Option<Geometry>) -> Answer<Training>;

    /// The player's answer `cell` (1-based) to their open puzzle `asked`,
    /// judged by perfect play in the server's thinking time; a right or wrong answer is
    /// kept as an attempt before it is answered, an answer not judged is not. Judging
    /// draws on `payer`'s share of the computer's thinking.
    fn answer_puzzle(&self, asked: PuzzleAsked, cell: u64, payer: Payer) -> Answer<PuzzleAnswer>;
}

/// A hint: what perfect play makes of the position, and among its best moves those
/// Impossible itself would play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    pub analysis: Analysis,
    pub preferred: Vec<Position>,
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
    /// What became of the puzzle, after an answer that was judged and kept.
    pub fate: Option<Fate>,
}

/// Signing up, in and out, and a signed-in account's personal tokens: one method per
/// request of the API's accounts, and the question every request with a session or a
/// personal token asks ([`AccountService::who`]).
#[cfg_attr(test, mockall::automock)]
pub trait AccountService: Send + Sync + 'static {
    /// A new account of the name and password `asked`, signed in: refused if the name
    /// (or one like it) is an account's, or has kept games; past `client`'s share of new
    /// accounts, refused until it may try again.
    fn sign_up(&self, asked: NameAndPassword, client: Client) -> AccountAnswer<Session>;

    /// A session of the account `asked` names open, if the password is its; refused
    /// alike whether or not the name is an account's; past the name's or `client`'s share of wrong
    /// passwords, refused until they may try again.
    fn sign_in(&self, asked: NameAndPassword, client: Client) -> AccountAnswer<Session>;

    /// The account a session (open now) or a personal token is of, as signed up.
    fn who(&self, credential: Credential) -> AccountAnswer<Option<PlayerName>>;

    /// Ends the session: on every server sharing the store.
    fn sign_out(&self, session: Token) -> AccountAnswer<()>;

    /// A new personal token of `account`, labelled `label`: its secret, shown once.
    fn add_token(&self, account: PlayerName, label: String) -> AccountAnswer<MadeToken>;

    /// The account's personal tokens, oldest first (never their secrets).
    fn tokens(&self, account: PlayerName) -> AccountAnswer<Vec<TokenInfo>>;

    /// Revokes the account's token `id`: `false` if it has no such token.
    fn revoke_token(&self, account: PlayerName, id: TokenId) -> AccountAnswer<bool>;
}

/// The name and the password of an account, as signing up or in gives them (checked
/// as every name and password are).
#[derive(Debug, Clone)]
pub struct NameAndPassword {
    pub name: PlayerName,
    pub password: Password,
}

/// An answer of the accounts to come.
pub type AccountAnswer<T> = Pin<Box<dyn Future<Output = Result<T, AccountError>> + Send>>;

/// What says who a request is from, as it carried it.
#[derive(Debug, Clone)]
pub enum Credential {
    /// A signed-in session's cookie.
    Session(Token),
    /// A personal token (`Authorization: Bearer ttt_…`).
    Personal(PersonalToken),
}

/// A session opened: its account (as signed up), the secret its cookie carries, and
/// when it expires.
#[derive(Debug, Clone)]
pub struct Session {
    pub account: PlayerName,
    pub secret: Token,
    pub expires: SystemTime,
}

/// A personal token made: what its account sees of it, and its secret, shown once.
#[derive(Debug, Clone)]
pub struct MadeToken {
    pub info: TokenInfo,
    pub secret: PersonalToken,
}

/// Why the accounts did not do what was asked. The edge words each for people.
#[derive(Debug, Error)]
pub enum AccountError {
    /// An account has this name, or one like it (`by`).
    #[error("{by} is an account's name")]
    Taken { by: PlayerName },
    /// Games are kept under this name: only the operator can give it to a person.
    #[error("{0} has games kept under it")]
    Played(PlayerName),
    /// The name of whoever gives none.
    #[error("{0} is nobody's name")]
    Placeholder(PlayerName),
    /// No account of that name with that password (which of the two is not said).
    #[error("wrong name or password")]
    WrongPair,
    /// Past the name's or the client's share of tries: how long to wait.
    #[error("too many tries: wait {} s", .0.as_secs())]
    Throttled(Duration),
    /// As many hashes wait as the server lets wait.
    #[error("as many passwords are being checked as the server takes")]
    Busy,
    /// The account asked about is gone (removed meanwhile).
    #[error("no such account")]
    NoAccount,
    /// The store could not answer; nothing was changed.
    #[error("the store failed: {0}")]
    Store(StoreError),
    #[error("the store did not answer within {} ms", .0.as_millis())]
    StoreSlow(Duration),
    #[error("the store is unusable: {0}")]
    StoreDown(String),
    /// A bug.
    #[error("{0}")]
    Broken(String),
}

impl From<GameError> for AccountError {
    fn from(error: GameError) -> Self {
        match error {
            GameError::Store(error) => AccountError::Store(error),
            GameError::StoreSlow(wait) => AccountError::StoreSlow(wait),
            GameError::StoreDown(why) => AccountError::StoreDown(why),
            other => AccountError::Broken(other.to_string()),
        }
    }
}

impl From<StoreError> for AccountError {
    fn from(error: StoreError) -> Self {
        AccountError::Store(error)
    }
}

/// A game begun (or a seat taken in it): its view, a fresh secret for each guest's seat
/// the caller was given, and the invite's code for the seat held open.
#[derive(Debug, Clone)]
pub struct Created {
    pub game: Arc<GameView>,
    /// X's and O's.
    pub tokens: [Option<Token>; 2],
    pub invite: Option<Token>,
}

/// A game as a caller sees it: the game, and the seats they hold (X's, O's).
#[derive(Debug, Clone)]
pub struct Looked {
    pub game: Arc<GameView>,
    pub yours: [bool; 2],
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
    pub game: Views,
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
    RatingChanges,
}

/// Finding an opponent: seeks in the lobby, quick pairing, and TV. Free of HTTP, like
/// [`GameService`], and implemented by the same games.
#[cfg_attr(test, mockall::automock)]
pub trait LobbyService: Send + Sync + 'static {
    /// A seek of the caller's, open at once (their other open seek closed): an
    /// account's, or a guest's with a fresh secret (a rated seek needs an account).
    fn open_seek(&self, asked: SeekAsked, caller: Caller) -> Answer<Opened>;

    /// The lobby's open seeks whose owners are still there, oldest first.
    fn lobby(&self) -> Answer<Vec<Seek>>;

    /// The lobby as it changes, until the server stops.
    fn lobby_changes(&self) -> Answer<watch::Receiver<Arc<Vec<Seek>>>>;

    /// A seek as it stands, and whether it is the caller's (its owner is then seen:
    /// their page or stream is open).
    fn seek(&self, id: SeekId, caller: Caller) -> Answer<SeekLooked>;

    /// The caller's open seek closed.
    fn cancel_seek(&self, id: SeekId, caller: Caller) -> Answer<()>;

    /// The caller accepts an open seek of the lobby's: the game begins, each person in
    /// their own seat.
    fn accept_seek(&self, id: SeekId, caller: Caller) -> Answer<Created>;

    /// The live game of the highest-rated people that met here, if any.
    fn tv(&self) -> Answer<Option<GameId>>;

    /// `account` blocks `whom`: never paired with them, and neither accepts the other's
    /// seek. `false` if blocked already.
    fn block(&self, account: PlayerName, whom: PlayerName) -> Answer<bool>;

    /// `account` no longer blocks `whom`: `false` if they did not.
    fn unblock(&self, account: PlayerName, whom: PlayerName) -> Answer<bool>;

    /// Whom `account` blocks.
    fn blocked(&self, account: PlayerName) -> Answer<Vec<PlayerName>>;
}

/// A seek as asked for, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeekAsked {
    pub kind: SeekKind,
    pub board: Geometry,
    pub control: TimeControl,
    pub rated: bool,
}

/// A seek opened: as kept, and a guest owner's fresh secret (which opens their seat
/// in the game the seek becomes).
#[derive(Debug, Clone)]
pub struct Opened {
    pub seek: Seek,
    pub secret: Option<Token>,
}

/// A seek as a caller sees it: whether it is theirs, and, once it was taken into a
/// game by a guest's secret the caller carries, that secret (to hold the seat with).
#[derive(Debug, Clone)]
pub struct SeekLooked {
    pub seek: Seek,
    pub yours: bool,
    pub seat_secret: Option<Token>,
}

/// Why the server's games did not do what was asked. The edge words each for people
/// and gives it a status; these texts are for the server's log.
#[derive(Debug, Error)]
pub enum GameError {
    /// No game of that id is kept.
    #[error("no such game")]
    NoSuchGame,
    /// No seek of that id is kept.
    #[error("no such seek")]
    NoSuchSeek,
    /// The seek was taken into a game or closed.
    #[error("the seek is no longer open")]
    SeekGone,
    /// The caller's own seek, accepted by themselves.
    #[error("a seek is accepted by somebody else")]
    OwnSeek,
    /// A rated seek needs an account: to open, or to accept.
    #[error("a rated seek needs an account")]
    RatedNeedsAccount,
    /// A seek that is not the caller's, asked to be closed.
    #[error("the seek is somebody else's")]
    NotYourSeek,
    /// A seek whose owner and the caller: one blocked the other.
    #[error("one of the two blocked the other")]
    Blocked,
    /// The request needs a seat, and carried nothing that says who it is from.
    #[error("no seat's credential was given")]
    NoSeatKey,
    /// What the request carried holds no seat of this game that may do this.
    #[error("the caller holds no seat of this game that may do this")]
    NotASeat,
    /// A guest's seat asked under a name that is an account's, or looks like one.
    #[error("{name} is an account's name")]
    AccountsName { name: PlayerName },
    /// An invite's code that opens no seat held open in this game (taken already, or
    /// another game's).
    #[error("the invite opens no open seat of this game")]
    NotInvited,
    /// An invite for a computer's seat.
    #[error("the computer plays {0}: nobody is invited to it")]
    InviteToComputer(Mark),
    /// An invite to a game of two people on one device.
    #[error("two people on one device invite nobody")]
    InviteTogether,
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
    /// As much advice waits for the computer as the server lets wait.
    #[error("as much advice waits for the computer as the server lets wait")]
    EngineBusy,
    /// The caller's share of the computer's thinking is spent, or a costly request of
    /// theirs is under way already (see `budget`).
    #[error("the caller's share of the computer's thinking: {0:?}")]
    OverBudget(Refused),
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
