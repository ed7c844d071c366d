//! The inbound port: what the HTTP adapter (`api`) asks of the server's games, free of
//! HTTP. [`Games`](super::games::Games) is the implementation; `api`'s own tests put a
//! mock here, so each handler's translation (body and token in, status and JSON out) is
//! checked without a game behind it.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tictactoe_core::domain::{PlayerName, Scoreboard};
use tictactoe_core::play::Review;
use tictactoe_core::ports::{GameId, GameSummary, HistoryPage, HistoryQuery, Opponents};

use super::dto::{CreatedJson, GameJson, HintJson, NewGame};
use super::error::ApiError;
use super::games::{Credentials, Watching};
use super::shares::Client;

/// Starting, finding and playing the server's games: one method per request of the API.
/// The futures are `Send`, so the handlers awaiting them can run on any thread.
#[cfg_attr(test, mockall::automock)]
pub trait GameService: Send + Sync + 'static {
    /// The largest request body accepted, in bytes.
    fn body_limit(&self) -> usize;

    /// How long a request's body may take to arrive, from its head.
    fn body_deadline(&self) -> Duration;

    /// `POST /api/games`: a new game, with a fresh token for each person's seat.
    fn create(
        &self,
        request: NewGame,
    ) -> impl Future<Output = Result<CreatedJson, ApiError>> + Send;

    /// `GET /api/games/{id}`. A seat's token, if sent, says that the seat's player has
    /// the game open (`joined`); without one (or with a wrong one) it is a spectator's.
    fn game(
        &self,
        id: &str,
        key: Credentials,
    ) -> impl Future<Output = Result<Arc<GameJson>, ApiError>> + Send;

    /// `POST /api/games/{id}/moves`: the seat's move on the cell numbered `cell`
    /// (1-based), then the computer's reply if due.
    fn play(
        &self,
        id: &str,
        key: Credentials,
        cell: u64,
    ) -> impl Future<Output = Result<Arc<GameJson>, ApiError>> + Send;

    /// `POST /api/games/{id}/undo`.
    fn undo(
        &self,
        id: &str,
        key: Credentials,
    ) -> impl Future<Output = Result<Arc<GameJson>, ApiError>> + Send;

    /// `POST /api/games/{id}/resign`: the game ends as the seat's loss, counted.
    fn resign(
        &self,
        id: &str,
        key: Credentials,
    ) -> impl Future<Output = Result<Arc<GameJson>, ApiError>> + Send;

    /// `POST /api/games/{id}/hint`: the best cells for the seat, whose turn it is.
    fn hint(
        &self,
        id: &str,
        key: Credentials,
    ) -> impl Future<Output = Result<HintJson, ApiError>> + Send;

    /// `POST /api/games/{id}/rematch`: the same game with sides swapped, and whether it
    /// is new (`false`: someone asked for it before).
    fn rematch(
        &self,
        id: &str,
        key: Credentials,
    ) -> impl Future<Output = Result<(CreatedJson, bool), ApiError>> + Send;

    /// `GET /api/games/{id}/events`: the game's views as they change, and the stream's
    /// place under the cap on streams and in `client`'s share of them.
    fn watch(
        &self,
        id: &str,
        client: Client,
    ) -> impl Future<Output = Result<Watching, ApiError>> + Send;

    /// `GET /api/scores?top=N`: the first `top` rows of the scoreboard as it is now.
    fn scores(&self, top: u64) -> impl Future<Output = Result<Scoreboard, ApiError>> + Send;

    /// `GET /api/games?player=&limit=&before=`: a page of the ended games, newest first.
    fn history(
        &self,
        query: HistoryQuery,
    ) -> impl Future<Output = Result<HistoryPage, ApiError>> + Send;

    /// `GET /api/games/{id}/review`: the review of an ended game, kept once computed;
    /// while it is computed, how far it has come.
    fn review(&self, id: &str) -> impl Future<Output = Result<Reviewing, ApiError>> + Send;

    /// `GET /api/players/{name}`: a player's results against each opponent and their
    /// newest games.
    fn player(&self, name: PlayerName)
    -> impl Future<Output = Result<PlayerPage, ApiError>> + Send;
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
}
