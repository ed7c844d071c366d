//! Every way a request can fail, the one place that words each for people and gives it
//! a status code.
//!
//! The games answer in the domain's terms ([`GameError`]); `From<GameError>` turns each
//! into an [`ApiError`], whose text is what the client reads, as `{"error": "..."}`,
//! except that a browser asking for a page (`Accept: text/html`) that does not exist, or
//! with a method the page does not take, gets a small page saying so
//! ([`ApiError::for_client`]). The refusals that never reach the routes (a head hyper
//! cannot read, a connection past its client's share) are worded here too
//! ([`ApiError::hyper_refusal`], [`ApiError::raw_answer`]).
//!
//! Anything a client sends maps to a 4xx; a 500 means a bug in the server or a computer
//! player (or a kept game that is not one), never bad input; a 503 is the server's or
//! its store's trouble, for a while, and says when to come back (`Retry-After`). No
//! answer names a file or folder of the server: the store's own words, which do, go to
//! the server's log only.

use std::time::Duration;

use axum::Json;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use thiserror::Error;

use tictactoe_core::accounts::SignUpError;
use tictactoe_core::domain::{IllegalMove, NameError, PasswordError, PlayerName, Refusal};
use tictactoe_core::ports::{GameId, StoreError};
use tictactoe_core::words::refused;

use super::assets::REFUSAL;
use super::budget::Refused;
use super::health::NotReady;
use super::port::{AccountError, AfterTheEnd, GameError};

/// What a client is told to wait when the store is in trouble: a store that comes back
/// is in use again within a second.
pub const STORE_RETRY_AFTER: Duration = Duration::from_secs(1);
/// What a client is told to wait when the server is as busy as it may be (streams,
/// reviews).
pub const BUSY_RETRY_AFTER: Duration = Duration::from_secs(30);
/// What a client past its share of connections is told to wait.
pub const SHARE_RETRY_AFTER: Duration = Duration::from_secs(10);

/// The headers every answer carries, whoever makes it: the router's layers set them,
/// and the raw refusals ([`ApiError::raw_answer`], `hyper_refusals`) add them. The page
/// shares no window with another site's (`cross-origin-opener-policy`: a page it opens,
/// or that opens it, cannot reach it), nothing here may be loaded into another site's
/// page (`cross-origin-resource-policy`: not even as an image or a script, which
/// `connect-src` and CORS do not cover), and the browser's features the page never
/// uses are off (`permissions-policy`).
pub const SECURITY_HEADERS: [(&str, &str); 7] = [
    (
        "content-security-policy",
        super::assets::CONTENT_SECURITY_POLICY,
    ),
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),
    ("cross-origin-opener-policy", "same-origin"),
    ("cross-origin-resource-policy", "same-origin"),
    ("permissions-policy", super::assets::PERMISSIONS_POLICY),
];

#[derive(Debug, Error)]
pub enum ApiError {
    /// The body is not the JSON asked for, or a value in it is out of range.
    #[error("{0}")]
    BadRequest(String),
    #[error(
        "this request needs a seat of this game: sign in as its player, or send the seat's \
         cookie or token (Authorization: Bearer TOKEN)"
    )]
    NoToken,
    #[error("you hold no seat of this game that may do this")]
    WrongToken,
    /// A request that needs an account, with no session or personal token that opens
    /// one.
    #[error("sign in first: this needs your account (a session, or a personal token)")]
    NotSignedIn,
    /// A signed-in request about another account's things (its puzzles).
    #[error("this is {owner}'s: only {owner}, signed in, may see or do this")]
    NotYours { owner: PlayerName },
    /// A name asked for a guest's seat that is an account's, or looks like one.
    #[error(
        "{name} is the name of an account on this server (or looks like one): sign in as \
         it to play under it, or choose a name of your own"
    )]
    AccountsName { name: PlayerName },
    /// A password the rules refuse (too short, too long).
    #[error("{0}")]
    BadPassword(PasswordError),
    /// A sign-in refused: the same words whether or not the name is an account's.
    #[error("wrong name or password")]
    WrongPair,
    #[error("no such seek: it was never opened here")]
    NoSuchSeek,
    #[error("this seek is no longer open: somebody took it, or its owner closed it")]
    SeekGone,
    #[error("this is your own seek: wait for somebody else to accept it")]
    OwnSeek,
    #[error("a rated game needs an account: sign in first, or seek a casual game")]
    RatedNeedsAccount,
    #[error("this seek is somebody else's: only its owner may close it")]
    NotYourSeek,
    #[error("you cannot play this seek's owner: one of you blocked the other")]
    Blocked,
    #[error("you do not block {0}")]
    NotBlocked(PlayerName),
    /// An invite's code that opens no seat held open in the game.
    #[error(
        "this invite opens no open seat of this game: it was taken already (by whoever \
         opened the link first), or is another game's"
    )]
    NotInvited,
    /// A personal token's id that names no token of the account.
    #[error("you have no token of that id")]
    NoSuchToken,
    /// What the accounts refused, or could not do.
    #[error("{}", account_words(.0))]
    Account(AccountError),
    /// A request that would change something, sent by another site's page through a
    /// visitor's browser (`edge::other_sites`).
    #[error(
        "this request came from another site's page: changes are taken only from this \
         server's own pages, or from programs"
    )]
    OtherSite,
    /// A request sent to another address than the one people use (`--public-url`):
    /// which one that is.
    #[error(
        "this server answers for {public} only, and this request was sent to another \
         address"
    )]
    OtherHost { public: String },
    #[error("there is no such page")]
    NotFound,
    /// The path exists, but not for this method (GET for an action, say).
    #[error("this address does not take a {method} request")]
    MethodNotAllowed { method: String },
    #[error("there is no such game")]
    NoSuchGame,
    #[error("cell {cell} is not on this board: choose 1 to {cells}")]
    NoSuchCell { cell: u64, cells: usize },
    /// A history's cursor (`before`) that names no game the store keeps.
    #[error("before names no game kept on this server ({0}): use the next a page gave")]
    NoSuchCursor(GameId),
    /// Nobody of that name has a game kept.
    #[error(
        "there is no player called {0} on this server: nobody of that name has finished a game here"
    )]
    NoSuchPlayer(PlayerName),
    /// What was asked for as a player's name cannot be anybody's: why not.
    #[error("there is no such player: {0}")]
    NotAName(String),
    /// The game refused the request (not your turn, cell taken, game over, ...).
    #[error("{0}")]
    Refused(Refusal),
    /// The player has no open puzzle of that game and ply.
    #[error(
        "there is no open puzzle of game {game} at move {ply} for you: it was solved, or \
         never was one"
    )]
    NoSuchPuzzle { game: GameId, ply: u32 },
    /// An answer to a puzzle on a taken cell: in the console's words.
    #[error("{}", refused(&Refusal::Illegal(*.0)))]
    NotAnAnswer(IllegalMove),
    /// A name the rules of names refuse: in the words the console uses.
    #[error("{0}")]
    BadName(NameError),
    /// A name asked for a seat that has made its first move.
    #[error("you have made your first move: a name can be chosen only before it")]
    NameFixed,
    /// A name asked for that the other player has (letter case aside): in the words the
    /// console uses.
    #[error("{other} is already playing: choose another name")]
    NameTaken { other: PlayerName },
    /// A name asked for that looks like the other player's: in the console's words.
    #[error(
        "{name} looks like {other}, who is already playing: choose a name that reads differently"
    )]
    NameLooksLike { name: PlayerName, other: PlayerName },
    /// A request that needs the game to be over came while it is played.
    #[error("the game is still being played: {}", after_the_end(.0))]
    StillPlaying(AfterTheEnd),
    /// A JSON body not labelled `Content-Type: application/json`: what it said instead
    /// (its media type, or "another type" when too odd to repeat), if anything.
    #[error(
        "the body must be JSON, sent with Content-Type: application/json ({})",
        sent_type(.sent)
    )]
    NotJson { sent: Option<String> },
    #[error("the request body is larger than {limit} bytes")]
    TooLarge { limit: usize },
    /// The body did not all arrive within the deadline after the head.
    #[error("the request body did not arrive within {} s", deadline.as_secs_f64())]
    SlowBody { deadline: Duration },
    /// The store could not keep (or read) the game. Visitors are told what kind of
    /// trouble, never where: the store's own words name the database's path, and go to
    /// the server's log alone.
    #[error(
        "the server could not use its store of games ({}); nothing was changed: try again \
         in a moment",
        store_trouble(.0)
    )]
    Store(StoreError),
    /// The store did not answer in time: what was asked may or may not have been kept.
    #[error(
        "the server's store of games did not answer in time; what you asked may or may not \
         have been kept: look at the game again in a moment"
    )]
    StoreSlow,
    /// The store is known to be unusable: nothing was tried.
    #[error(
        "the server cannot reach its store of games just now; nothing was changed: try again in a moment"
    )]
    StoreDown,
    /// The game was read again several times while this request waited: others keep
    /// failing to keep it.
    #[error("the game could not be read back from the store; try again in a moment")]
    Unsettled,
    #[error("the server streams as many games live as it may; try again in {} s", BUSY_RETRY_AFTER.as_secs())]
    Streaming,
    /// As many reviews are being computed (or wait for their turn) as the server takes.
    #[error("the server is reviewing as many games as it may; try again in {} s", BUSY_RETRY_AFTER.as_secs())]
    Reviewing,
    /// The computer has as much advice waiting as the server lets wait.
    #[error("the computer is busy with others' hints and answers; try again in {} s", BUSY_RETRY_AFTER.as_secs())]
    EngineBusy,
    /// The caller's share of the computer's thinking is spent, or another of their
    /// hints, reviews or answers is under way.
    #[error("{}", over_budget(.0))]
    OverBudget(Refused),
    /// This client already has its share of the live streams open.
    #[error(
        "you already follow {most} games live, as many as one address may; close one, or \
         try again in {} s",
        BUSY_RETRY_AFTER.as_secs()
    )]
    StreamShare { most: usize },
    /// This client already has its share of the connections open (answered on the
    /// socket before any request is read).
    #[error(
        "this address already has {most} connections open to the server, as many as one \
         address may; close some, or try again later"
    )]
    ConnectionShare { most: usize },
    /// hyper could not read the request's head.
    #[error("the request could not be read: it is not HTTP/1.1 as this server reads it")]
    UnreadableHead,
    #[error("the request's address is too long")]
    AddressTooLong,
    #[error(
        "the request's head (its first line and headers) is larger than the {limit} bytes \
         this server takes"
    )]
    HeadTooLarge { limit: usize },
    /// `/readyz`: why the server is not ready.
    #[error("not ready: {}", not_ready(.0))]
    NotReady(NotReady),
    /// A bug: a computer broke the rules, or a worker thread died.
    #[error("internal error: {0}")]
    Internal(String),
}

impl From<GameError> for ApiError {
    fn from(error: GameError) -> Self {
        match error {
            GameError::NoSuchGame => ApiError::NoSuchGame,
            GameError::NoSuchSeek => ApiError::NoSuchSeek,
            GameError::SeekGone => ApiError::SeekGone,
            GameError::OwnSeek => ApiError::OwnSeek,
            GameError::RatedNeedsAccount => ApiError::RatedNeedsAccount,
            GameError::NotYourSeek => ApiError::NotYourSeek,
            GameError::Blocked => ApiError::Blocked,
            GameError::NoSeatKey => ApiError::NoToken,
            GameError::NotASeat => ApiError::WrongToken,
            GameError::AccountsName { name } => ApiError::AccountsName { name },
            GameError::NotInvited => ApiError::NotInvited,
            GameError::InviteToComputer(mark) => ApiError::BadRequest(format!(
                "the computer plays {mark}: invite a friend to a person's seat"
            )),
            GameError::InviteTogether => ApiError::BadRequest(
                "two people on one device need no invite: leave out invite, or play apart".into(),
            ),
            GameError::NoSuchCell { cell, cells } => ApiError::NoSuchCell { cell, cells },
            GameError::Refused(refusal) => ApiError::Refused(refusal),
            GameError::NameFixed(_) => ApiError::NameFixed,
            GameError::NameTaken { other } => ApiError::NameTaken { other },
            GameError::NameLooksLike { name, other } => ApiError::NameLooksLike { name, other },
            GameError::StillPlaying(asked) => ApiError::StillPlaying(asked),
            GameError::NoSuchCursor(id) => ApiError::NoSuchCursor(id),
            GameError::NoSuchPlayer(name) => ApiError::NoSuchPlayer(name),
            GameError::NoSuchPuzzle { game, ply } => ApiError::NoSuchPuzzle { game, ply },
            GameError::NotAnAnswer(illegal) => ApiError::NotAnAnswer(illegal),
            GameError::Store(error) => ApiError::Store(error),
            GameError::StoreSlow(_) => ApiError::StoreSlow,
            GameError::StoreDown(_) => ApiError::StoreDown,
            GameError::Unsettled => ApiError::Unsettled,
            GameError::ReviewsFull => ApiError::Reviewing,
            GameError::EngineBusy => ApiError::EngineBusy,
            GameError::OverBudget(refused) => ApiError::OverBudget(refused),
            GameError::Broken(why) => ApiError::Internal(why),
        }
    }
}

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> Self {
        ApiError::Refused(refusal)
    }
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_)
            | ApiError::NoSuchCell { .. }
            | ApiError::UnreadableHead
            | ApiError::BadName(_)
            | ApiError::NotAnAnswer(_)
            | ApiError::NameTaken { .. }
            | ApiError::BadPassword(_)
            | ApiError::NameLooksLike { .. } => StatusCode::BAD_REQUEST,
            ApiError::NoToken
            | ApiError::NotSignedIn
            | ApiError::WrongPair
            | ApiError::RatedNeedsAccount => StatusCode::UNAUTHORIZED,
            ApiError::WrongToken
            | ApiError::NotYourSeek
            | ApiError::Blocked
            | ApiError::OtherSite
            | ApiError::NotYours { .. }
            | ApiError::NotInvited
            | ApiError::AccountsName { .. } => StatusCode::FORBIDDEN,
            ApiError::NoSuchToken => StatusCode::NOT_FOUND,
            ApiError::Account(error) => account_status(error),
            ApiError::NotFound
            | ApiError::NoSuchGame
            | ApiError::NoSuchSeek
            | ApiError::NotBlocked(_)
            | ApiError::NoSuchCursor(_)
            | ApiError::NoSuchPlayer(_)
            | ApiError::NoSuchPuzzle { .. }
            | ApiError::NotAName(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::OtherHost { .. } => StatusCode::MISDIRECTED_REQUEST,
            ApiError::Refused(refusal) => refusal_status(refusal),
            ApiError::StillPlaying(_)
            | ApiError::NameFixed
            | ApiError::SeekGone
            | ApiError::OwnSeek => StatusCode::CONFLICT,
            ApiError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::NotJson { .. } => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::SlowBody { .. } => StatusCode::REQUEST_TIMEOUT,
            ApiError::AddressTooLong => StatusCode::URI_TOO_LONG,
            ApiError::HeadTooLarge { .. } => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            ApiError::StreamShare { .. }
            | ApiError::ConnectionShare { .. }
            | ApiError::OverBudget(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Streaming
            | ApiError::Reviewing
            | ApiError::EngineBusy
            | ApiError::Store(_)
            | ApiError::StoreSlow
            | ApiError::StoreDown
            | ApiError::Unsettled
            | ApiError::NotReady(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// How long the client should wait before trying again, for a refusal that passes.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            ApiError::Store(_)
            | ApiError::StoreSlow
            | ApiError::StoreDown
            | ApiError::Unsettled
            | ApiError::NotReady(_) => Some(STORE_RETRY_AFTER),
            ApiError::Streaming
            | ApiError::Reviewing
            | ApiError::EngineBusy
            | ApiError::StreamShare { .. } => Some(BUSY_RETRY_AFTER),
            ApiError::OverBudget(refused) => {
                let wait = refused.retry_after();
                Some(Duration::from_secs(
                    wait.as_secs() + u64::from(wait.subsec_nanos() > 0),
                ))
            }
            ApiError::ConnectionShare { .. } => Some(SHARE_RETRY_AFTER),
            ApiError::Account(AccountError::Throttled(wait)) => {
                // Whole seconds, rounded up: never "0" while a wait is left.
                Some(Duration::from_secs(
                    wait.as_secs() + u64::from(wait.subsec_nanos() > 0),
                ))
            }
            ApiError::Account(AccountError::Busy) => Some(STORE_RETRY_AFTER),
            ApiError::Account(
                AccountError::Store(_) | AccountError::StoreSlow(_) | AccountError::StoreDown(_),
            ) => Some(STORE_RETRY_AFTER),
            _ => None,
        }
    }

    /// The refusal of a head hyper could not take, by the status hyper gave it;
    /// `head_bytes` is the largest head the server takes.
    pub fn hyper_refusal(status: u16, head_bytes: usize) -> ApiError {
        match status {
            414 => ApiError::AddressTooLong,
            431 => ApiError::HeadTooLarge { limit: head_bytes },
            _ => ApiError::UnreadableHead,
        }
    }

    /// The JSON body of the refusal: `{"error": "..."}`.
    pub fn json_body(&self) -> String {
        serde_json::json!({ "error": self.to_string() }).to_string()
    }

    /// The refusal as a whole HTTP/1.1 answer, for a socket the routes never see: its
    /// status, the security headers, and the body; the connection closes after it.
    pub fn raw_answer(&self) -> String {
        let status = self.status();
        let body = self.json_body();
        let mut answer = format!(
            "HTTP/1.1 {} {}\r\n",
            status.as_str(),
            status.canonical_reason().unwrap_or("")
        );
        for (name, value) in SECURITY_HEADERS {
            answer.push_str(&format!("{name}: {value}\r\n"));
        }
        if let Some(wait) = self.retry_after() {
            answer.push_str(&format!("retry-after: {}\r\n", wait.as_secs()));
        }
        answer.push_str(&format!(
            "cache-control: no-store\r\ncontent-type: application/json\r\n\
             connection: close\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        ));
        answer
    }
}

/// What the accounts refused, in words for people; the store's trouble in the words
/// the games give it (never a path).
fn account_words(error: &AccountError) -> String {
    match error {
        AccountError::Taken { by } => {
            format!("{by} is taken: choose a name that reads differently")
        }
        AccountError::Played(name) => SignUpError::Played(name.clone()).to_string(),
        AccountError::Placeholder(name) => SignUpError::Placeholder(name.clone()).to_string(),
        AccountError::WrongPair | AccountError::NoAccount => "wrong name or password".into(),
        AccountError::Throttled(wait) => format!(
            "too many tries: try again in {} s",
            wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
        ),
        AccountError::Busy => format!(
            "the server is checking as many passwords as it may; try again in {} s",
            STORE_RETRY_AFTER.as_secs()
        ),
        AccountError::Store(error) => ApiError::Store(error.clone()).to_string(),
        AccountError::StoreSlow(_) => ApiError::StoreSlow.to_string(),
        AccountError::StoreDown(_) => ApiError::StoreDown.to_string(),
        AccountError::Broken(why) => ApiError::Internal(why.clone()).to_string(),
    }
}

/// The status of what the accounts refused.
fn account_status(error: &AccountError) -> StatusCode {
    match error {
        AccountError::Taken { .. } | AccountError::Played(_) => StatusCode::CONFLICT,
        AccountError::Placeholder(_) => StatusCode::BAD_REQUEST,
        AccountError::WrongPair | AccountError::NoAccount => StatusCode::UNAUTHORIZED,
        AccountError::Throttled(_) => StatusCode::TOO_MANY_REQUESTS,
        AccountError::Busy
        | AccountError::Store(_)
        | AccountError::StoreSlow(_)
        | AccountError::StoreDown(_) => StatusCode::SERVICE_UNAVAILABLE,
        AccountError::Broken(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// What a request after the end asked for, in words.
fn after_the_end(asked: &AfterTheEnd) -> &'static str {
    match asked {
        AfterTheEnd::Rematch => "a rematch comes after the end",
        AfterTheEnd::Review => "it is reviewed once it has ended",
        AfterTheEnd::RatingChanges => "it changes ratings once it has ended",
    }
}

/// The Content-Type a body came with, in words.
fn sent_type(sent: &Option<String>) -> String {
    match sent {
        Some(sent) => format!("this request's was {sent}"),
        None => "this request had no Content-Type".to_string(),
    }
}

/// Why the server is not ready, in words that name no path.
fn not_ready(why: &NotReady) -> String {
    match why {
        NotReady::StoreDown(_) => "its store of games cannot be reached".into(),
        NotReady::StoreSilent(silent) => format!(
            "its store of games has not answered a check for {:.1} s",
            silent.as_secs_f64()
        ),
        NotReady::Draining => "the server is stopping".into(),
    }
}

/// The kind of trouble a store is in, in words that name no path.
fn store_trouble(error: &StoreError) -> &'static str {
    match error {
        StoreError::Full { .. } => "its disk is full",
        StoreError::Locked { .. } => "another program holds its database",
        StoreError::ReadOnly { .. } => "its database is read-only",
        StoreError::NoLocation
        | StoreError::Folder { .. }
        | StoreError::Unreadable { .. }
        | StoreError::Newer { .. } => "its database cannot be read",
        StoreError::Unavailable { .. } => "its database cannot be reached",
        StoreError::NoSuchGame(_) | StoreError::Conflict { .. } => {
            "its database and the game in memory disagree"
        }
    }
}

/// A cell off the board is a malformed request; the rest are the game's state.
fn refusal_status(refusal: &Refusal) -> StatusCode {
    match refusal {
        Refusal::Illegal(IllegalMove::OffBoard(_)) => StatusCode::BAD_REQUEST,
        // A valid token is a human seat's, so this is a token for the wrong seat.
        Refusal::ComputerSeat(_) => StatusCode::FORBIDDEN,
        Refusal::NotYourTurn(_)
        | Refusal::Illegal(IllegalMove::Occupied(_))
        | Refusal::GameOver
        | Refusal::NothingToUndo
        | Refusal::NoHints => StatusCode::CONFLICT,
    }
}

/// The body of every refusal.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorJson {
    /// What went wrong, in words for people.
    error: String,
}

impl ApiError {
    /// The refusal as the client asked for it: a page for a browser loading one
    /// (`Accept: text/html`), the API's JSON for anything else.
    pub fn for_client(self, headers: &HeaderMap) -> Response {
        let wants_page = headers
            .get_all(header::ACCEPT)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .any(|accept| accept.contains("text/html"));
        if !wants_page {
            return self.into_response();
        }
        let status = self.status();
        let title = status.canonical_reason().unwrap_or("Refused");
        // The message is one of ours (nothing a client sent): it needs no escaping.
        let page = REFUSAL
            .replace("{title}", title)
            .replace("{status}", status.as_str())
            .replace("{message}", &sentence(&self.to_string()));
        (
            status,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            page,
        )
            .into_response()
    }
}

/// `message` with a capital and a full stop, for a page.
fn sentence(message: &str) -> String {
    let mut chars = message.chars();
    chars.next().map_or_else(String::new, |first| {
        format!("{}{}.", first.to_uppercase(), chars.as_str())
    })
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        // The store's own words (which may name its path) go to the request's log line
        // only (see `observe`).
        let detail = match &self {
            ApiError::Store(error) => Some(error.to_string()),
            ApiError::Internal(why) => Some(why.clone()),
            _ => None,
        };
        let mut response = (
            status,
            Json(ErrorJson {
                error: self.to_string(),
            }),
        )
            .into_response();
        if let Some(wait) = self.retry_after() {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(wait.as_secs()));
        }
        // The rest of a body that came too slowly is not waited for: the connection
        // closes after this answer.
        if let ApiError::SlowBody { .. } = self {
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        if let Some(detail) = detail {
            response.extensions_mut().insert(Detail(detail));
        }
        response
    }
}

/// What the server's log says of a refusal beyond its status: the store's own words,
/// or what broke. Carried to the request's log line in the response's extensions.
#[derive(Debug, Clone)]
pub struct Detail(pub String);

impl Detail {
    pub fn of(response: &Response) -> Option<&str> {
        response
            .extensions()
            .get::<Detail>()
            .map(|detail| detail.0.as_str())
    }
}

/// The words of a refusal for the caller's share of the computer's thinking.
fn over_budget(refused: &Refused) -> String {
    match refused {
        Refused::UnderWay => "another of your hints, reviews or answers is being worked \
            out: ask again once it is answered"
            .into(),
        Refused::Spent(_) => format!(
            "you have used your share of the computer's thinking for now; try again in {} s",
            refused.retry_after().as_secs_f64().ceil()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictactoe_core::domain::Mark;
    use tictactoe_core::ports::Conflict;

    #[test]
    fn refusals_of_the_games_state_are_conflicts_and_a_cell_off_the_board_is_bad_input() {
        assert_eq!(
            ApiError::from(Refusal::NotYourTurn(Mark::O)).status(),
            StatusCode::CONFLICT
        );
        assert_eq!(
            ApiError::from(Refusal::GameOver).status(),
            StatusCode::CONFLICT
        );
        assert_eq!(
            ApiError::from(Refusal::Illegal(IllegalMove::OffBoard(
                tictactoe_core::domain::Geometry::classic()
                    .position(0)
                    .unwrap()
            )))
            .status(),
            StatusCode::BAD_REQUEST
        );
    }

    #[test]
    fn a_server_streaming_all_it_may_says_when_to_come_back() {
        let response = ApiError::Streaming.into_response();

        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()[header::RETRY_AFTER], "30");
    }

    #[test]
    fn a_store_that_fails_is_a_503_saying_what_kind_of_trouble_and_then_the_advice() {
        let error = ApiError::Store(StoreError::Full {
            database: "/var/lib/tictactoe/games.db".into(),
        });

        assert_eq!(error.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(
            error.to_string(),
            "the server could not use its store of games (its disk is full); nothing was \
             changed: try again in a moment"
        );
    }

    #[test]
    fn no_store_error_shows_a_visitor_where_the_database_is() {
        let path = "/var/lib/tictactoe/games.db";
        let id = tictactoe_core::ports::GameId::from_bits(7);
        let errors = [
            StoreError::NoLocation,
            StoreError::Folder {
                database: path.into(),
            },
            StoreError::Unreadable {
                database: path.into(),
                detail: format!("{path}: bad"),
            },
            StoreError::Newer {
                database: path.into(),
                found: 9,
                known: 2,
            },
            StoreError::Locked {
                database: path.into(),
            },
            StoreError::ReadOnly {
                database: path.into(),
            },
            StoreError::Full {
                database: path.into(),
            },
            StoreError::Unavailable {
                database: path.into(),
                detail: format!("{path}: gone"),
            },
            StoreError::NoSuchGame(id.clone()),
            Conflict::KeptAtOnce(format!("{path}: step 3")).about(&id),
        ];

        for error in errors {
            let shown = ApiError::Store(error).to_string();

            assert!(!shown.contains("/var"), "{shown}");
        }
    }

    fn accepting(accept: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT, HeaderValue::from_str(accept).unwrap());
        headers
    }

    #[tokio::test]
    async fn a_browser_loading_a_page_gets_the_refusal_as_a_page_with_its_status() {
        let browser = accepting("text/html,application/xhtml+xml,*/*;q=0.8");

        let response = ApiError::NotFound.for_client(&browser);

        assert_eq!(response.status(), StatusCode::NOT_FOUND);
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "text/html; charset=utf-8"
        );
        let body = axum::body::to_bytes(response.into_body(), 10_000)
            .await
            .unwrap();
        let page = String::from_utf8(body.to_vec()).unwrap();
        assert!(
            page.contains("<title>Not Found · Tic Tac Toe</title>"),
            "{page}"
        );
        assert!(page.contains("There is no such page."), "{page}");
    }

    #[tokio::test]
    async fn a_program_gets_the_refusal_as_json_whatever_else_it_accepts() {
        for accept in [None, Some("application/json"), Some("*/*")] {
            let headers = accept.map_or_else(HeaderMap::new, accepting);

            let response = ApiError::NotFound.for_client(&headers);

            assert_eq!(response.status(), StatusCode::NOT_FOUND);
            assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
            let body = axum::body::to_bytes(response.into_body(), 10_000)
                .await
                .unwrap();
            let json: serde_json::Value = serde_json::from_slice(&body).unwrap();
            assert_eq!(json["error"], "there is no such page");
        }
    }
}
