//! HTTP in, calls to a [`GameService`] out: extractors for the body and the seat's
//! token, and one handler per route, each registered once for the router and the API's
//! document (`openapi`). Statuses and words come from [`ApiError`] alone.

pub mod accounts;
pub mod lobby;

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection, QueryRejection};
use axum::extract::{FromRequest, Path, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::sse::{KeepAlive, Sse};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use tower_http::timeout::TimeoutError;
use utoipa::IntoParams;

use tictactoe_core::domain::{Geometry, Mark, NameError, PlayerName};
use tictactoe_core::ports::{GameId, HistoryQuery, IdPrefix, PageSize};
use tictactoe_core::words::shape;
use tictactoe_json::{
    HistoryPageJson, PlayerPageJson, PuzzleAnswerJson, RatingChangesJson, RatingsJson, ReviewJson,
    ScoreboardJson, TrainingJson, answer_json, history_page_json, player_page_json,
    rating_changes_json, ratings_json, review_json, scoreboard_json, training_json,
};

use super::caller::{Caller, seat_cookie_for};
use super::dto::{
    CreatedJson, HintJson, JoinRequest, LookedJson, MoveRequest, NameRequest, NewGameJson,
    ProgressJson,
};
use super::error::{ApiError, ErrorJson};
use super::events::game_events;
use super::health::Health;
use super::openapi::{
    BodyRefusals, GameEventJson, GameRefusals, ReadyJson, SeatRefusals, StoreRefusals,
    ThinkingRefusals,
};
use super::port::{AccountService, Created, GameService, LobbyService, PuzzleAsked, Reviewing};
use super::shares::Client;
use super::stream_places::{NoPlace, StreamPlaces};
use super::token::Token;
use super::view::{GameView, mark_word};

/// What every handler is given: the games (any [`GameService`]: `api`'s tests give it a
/// mock), the server's health, and the edge's own bounds.
#[derive(Clone)]
pub struct App {
    pub games: Arc<dyn GameService>,
    pub accounts: Arc<dyn AccountService>,
    pub lobby: Arc<dyn LobbyService>,
    pub health: Health,
    pub edge: Arc<Edge>,
    /// The API's document, as JSON.
    pub document: Arc<str>,
}

/// The bounds of the HTTP edge that handlers apply, or word: bodies, and the live event
/// streams; and how cookies are set.
pub struct Edge {
    /// Whether the cookies set say `Secure`: people reach the server over https.
    pub secure_cookies: bool,
    /// The largest request body accepted: held to it by axum's `DefaultBodyLimit`,
    /// here for the 413's words.
    pub body_limit: usize,
    /// How long a request's body may take to arrive, from its head: held to it by
    /// tower-http's `RequestBodyDeadline` on each connection, here for the 408's words.
    pub body_deadline: Duration,
    /// Places for live event streams, in all.
    pub stream_places: Arc<StreamPlaces>,
    /// Places for live event streams, per client.
    pub streams_per_client: usize,
}

/// The rows `/api/scores` answers when not told: a page's worth.
pub const DEFAULT_TOP: u64 = 100;
/// The most rows `/api/scores` and `/api/ratings` answer at once.
pub const MAX_TOP: u64 = 1000;
/// The rows `/api/ratings` answers when not told: the first screen's worth.
pub const DEFAULT_RATINGS_TOP: u64 = 20;
/// The games a page of `/api/games` lists when not told.
pub const DEFAULT_PAGE: u64 = 20;
/// The most games a page of `/api/games` lists.
pub const MAX_PAGE: u64 = 100;

/// A JSON body, labelled so (`Content-Type: application/json`, see [`says_json`]),
/// within the size limit and the time limit: a body labelled otherwise, or not at all,
/// is a 415 before a byte of it is read; then a 400 for what is not the JSON expected,
/// a 413 when too large, or a 408 when it has not all arrived in time (however it
/// trickles in). The limits are the crates': axum's `DefaultBodyLimit` (set in
/// `server::routes`) and tower-http's `RequestBodyDeadline` on each connection's
/// requests (`server::serve_connection`), whose timeout is the 408 here; what is
/// this type's is that their refusals are the server's JSON ones.
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned> FromRequest<App> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, app: &App) -> Result<Self, ApiError> {
        let label = request.headers().get(header::CONTENT_TYPE);
        if !label.is_some_and(says_json) {
            let said = |label| media_type(label).unwrap_or_else(|| "another type".into());
            return Err(ApiError::NotJson {
                sent: label.map(said),
            });
        }
        let bytes = Bytes::from_request(request, app)
            .await
            .map_err(|rejection| {
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::TooLarge {
                        limit: app.edge.body_limit,
                    }
                } else if timed_out(&rejection) {
                    ApiError::SlowBody {
                        deadline: app.edge.body_deadline,
                    }
                } else {
                    ApiError::BadRequest(rejection.body_text())
                }
            })?;
        // Every body this API takes is an object; serde would read a struct from an
        // array too (its fields in order), and `[]` as a request whose fields all
        // have defaults.
        let first = bytes
            .iter()
            .find(|byte| !matches!(byte, b' ' | b'\t' | b'\n' | b'\r'));
        if first != Some(&b'{') {
            return Err(ApiError::BadRequest(
                "the body is not the JSON expected: an object, {…}".into(),
            ));
        }
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|error| {
                ApiError::BadRequest(format!("the body is not the JSON expected: {error}"))
            })
    }
}

/// Whether reading a body failed because tower-http's deadline for it passed (its
/// `TimeoutError`, somewhere in the rejection's chain of causes).
fn timed_out(rejection: &BytesRejection) -> bool {
    let rejection: &(dyn std::error::Error + 'static) = rejection;
    std::iter::successors(Some(rejection), |error| error.source())
        .any(|error| error.is::<TimeoutError>())
}

/// Whether a `Content-Type` says JSON: `application/json`, its type and subtype in any
/// case (RFC 9110, 8.3.1), with any parameters (`; charset=utf-8`: JSON is UTF-8
/// whatever they say, RFC 8259). Only that: a `+json` type (`application/merge-patch+json`)
/// names rules of its own that these bodies do not follow. Requiring the label is what
/// keeps another site's page from sending a body at all without asking first: an HTML
/// form, or a script's "simple" request, can only label it `text/plain`, a form's
/// encoding or nothing, and a browser asks this server (CORS, which it never allows)
/// before sending anything labelled JSON.
fn says_json(label: &HeaderValue) -> bool {
    label.to_str().is_ok_and(|label| {
        let essence = label.split(';').next().unwrap_or_default().trim();
        essence.eq_ignore_ascii_case("application/json")
    })
}

/// The media type a `Content-Type` names, to say it back: its type and subtype alone,
/// if they are short and plain (nothing else of what a client sent is repeated).
fn media_type(label: &HeaderValue) -> Option<String> {
    let essence = label.to_str().ok()?.split(';').next()?.trim();
    let plain = |c: char| c.is_ascii_alphanumeric() || "/+-.!#$&^_".contains(c);
    (!essence.is_empty() && essence.len() <= 64 && essence.chars().all(plain))
        .then(|| essence.to_ascii_lowercase())
}

/// `{id}` in a path: the game.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct GamePath {
    /// The game's id: 32 hex digits
    id: String,
}

/// A game's id in a path: anything that is not one names no game (404).
fn game_id(id: &str) -> Result<GameId, ApiError> {
    GameId::parse(id).map_err(|_| ApiError::NoSuchGame)
}

/// Start a game.
///
/// Players are written as on the command line: `human`, `human:NAME`, `random`,
/// `easy`, `medium` or `impossible`. A person's seat named for the account the caller
/// is signed in as is the account's: the game is rated (between two signed-in people,
/// or one and the computer). Any other person's seat is a guest's, given to the
/// caller with a token of its own (in `seats`, and a cookie), which the seat's other
/// requests send as `Authorization: Bearer TOKEN`; a guest's name may be no account's,
/// nor look like one, and a game with a guest rates nobody. The seat `invite` names is
/// held open for a friend, who takes it with the invite's code.
#[utoipa::path(
    post, path = "/api/games", tag = "games",
    request_body = NewGameJson,
    responses(
        (status = 201, description = "The game, kept, with the caller's guest seats and the invite", body = CreatedJson,
         headers(("set-cookie" = String, description = "Each guest seat's cookie"))),
        (status = 400, description = "Not a game this server plays (an unknown player, a board out of range, one name twice, an invite to a computer or to one device) or not JSON", body = ErrorJson),
        (status = 403, description = "A guest's name that is an account's, or looks like one", body = ErrorJson),
        BodyRefusals,
        (status = 500, description = "A bug in the server", body = ErrorJson),
        StoreRefusals,
    )
)]
pub async fn create(
    State(app): State<App>,
    caller: Caller,
    JsonBody(request): JsonBody<NewGameJson>,
) -> Result<Response, ApiError> {
    let invite = request.invite();
    let setup = request.setup()?;
    let created = app.games.create(setup, caller, invite).await?;
    Ok(with_seats(&app, StatusCode::CREATED, &created))
}

/// `created` as answered: its JSON, and a cookie for each guest's seat given.
fn with_seats(app: &App, status: StatusCode, created: &Created) -> Response {
    let mut response = (status, Json(CreatedJson::from(created))).into_response();
    if let Ok(id) = GameId::parse(&created.game.id) {
        for mark in Mark::ALL {
            if let Some(secret) = &created.tokens[mark.index()] {
                let cookie = seat_cookie_for(&id, mark, secret, app.edge.secure_cookies);
                response.headers_mut().append(header::SET_COOKIE, cookie);
            }
        }
    }
    response
}

/// Take an invite.
///
/// The seat held open for whoever brings this code, taken by the caller: signed in, as
/// their account's seat, under the account's name (the game is rated if the other
/// player's seat is an account's too); otherwise as a guest's, with a token of its own
/// (and a cookie). Taken once; a caller who holds a seat of the game already is
/// answered the game as it is.
#[utoipa::path(
    post, path = "/api/games/{id}/join", tag = "games",
    params(GamePath),
    request_body = JoinRequest,
    security((), ("token" = []), ("session" = [])),
    responses(
        (status = 200, description = "The seat taken, and its token if a guest's", body = CreatedJson,
         headers(("set-cookie" = String, description = "The guest seat's cookie"))),
        (status = 400, description = "The account's name is the other player's (or like it), or not JSON", body = ErrorJson),
        (status = 403, description = "The code opens no seat held open in this game: it was taken, or is another game's", body = ErrorJson),
        GameRefusals,
        BodyRefusals,
        StoreRefusals,
    )
)]
pub async fn join(
    State(app): State<App>,
    Path(GamePath { id }): Path<GamePath>,
    caller: Caller,
    JsonBody(request): JsonBody<JoinRequest>,
) -> Result<Response, ApiError> {
    let id = game_id(&id)?;
    let code = Token::parse(&request.invite).ok_or(ApiError::NotInvited)?;
    let joined = app.games.join(id, caller, code).await?;
    Ok(with_seats(&app, StatusCode::OK, &joined))
}

/// The game as it stands.
///
/// With the seats the caller holds (`yours`: signed in as a seat's account, or sending
/// a guest seat's cookie or token), whose players have the game open (`joined`);
/// holding none, a spectator's look.
#[utoipa::path(
    get, path = "/api/games/{id}", tag = "games",
    params(GamePath),
    security((), ("seat" = []), ("seat_x" = []), ("seat_o" = []), ("token" = []), ("session" = [])),
    responses(
        (status = 200, description = "The game, and the caller's seats", body = LookedJson),
        GameRefusals,
        StoreRefusals,
    )
)]
pub async fn game(
    State(app): State<App>,
    Path(GamePath { id }): Path<GamePath>,
    caller: Caller,
) -> Result<Response, ApiError> {
    let looked = app.games.game(game_id(&id)?, caller).await?;
    let yours = Mark::ALL
        .into_iter()
        .filter(|mark| looked.yours[mark.index()])
        .map(mark_word)
        .collect();
    Ok(Json(LookedJson {
        game: looked.game.as_ref().clone(),
        yours,
    })
    .into_response())
}

/// The page of a game, `/games/{id}`. An address with only the start of an id (as
/// `tictactoe history` prints it) sends the browser on to the whole id when exactly
/// one kept game starts so (303); otherwise the page says there is no such game (404
/// when no game starts so).
pub async fn game_page(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    if GameId::parse(&id).is_err()
        && let Ok(prefix) = IdPrefix::parse(&id)
    {
        match app.games.games_starting(prefix).await {
            Ok(found) => match found.as_slice() {
                [only] => return Redirect::to(&format!("/games/{only}")).into_response(),
                [] => {
                    let page = super::assets::index().await;
                    return (StatusCode::NOT_FOUND, page).into_response();
                }
                _ => {}
            },
            Err(error) => return ApiError::from(error).for_client(&headers),
        }
    }
    super::assets::index().await.into_response()
}

/// Play a move.
///
/// The seat's move on a cell (numbered from 1, row by row), then the computer's reply
/// if it is its turn. Answered once both are kept.
#[utoipa::path(
    post, path = "/api/games/{id}/moves", tag = "games",
    params(GamePath),
    request_body = MoveRequest,
    security(("seat" = []), ("seat_x" = []), ("seat_o" = []), ("token" = []), ("session" = [])),
    responses(
        (status = 200, description = "The game after the move (and the reply)", body = GameView),
        (status = 400, description = "A cell not on the board, or not JSON", body = ErrorJson),
        (status = 409, description = "Refused by the game: not your turn, the cell is taken, the game is over", body = ErrorJson),
        SeatRefusals,
        GameRefusals,
        BodyRefusals,
        StoreRefusals,
    )
)]
pub async fn play(
    State(app): State<App>,
    Path(GamePath { id }): Path<GamePath>,
    caller: Caller,
    JsonBody(request): JsonBody<MoveRequest>,
) -> Result<Response, ApiError> {
    let id = game_id(&id)?;
    let view = app.games.play(id, caller, request.cell).await?;
    Ok(Json(&*view).into_response())
}

/// Take back a move.
///
/// Takes back the seat's last move (and the computer's reply); between two people on
/// two screens, asks to, and the other's undo agrees.
#[utoipa::path(
    post, path = "/api/games/{id}/undo", tag = "games",
    params(GamePath),
    security(("seat" = []), ("seat_x" = []), ("seat_o" = []), ("token" = []), ("session" = [])),
    responses(
        (status = 200, description = "The game after the undo (or the request for one)", body = GameView),
        (status = 409, description = "Refused by the game: nothing to take back, the game is over", body = ErrorJson),
        SeatRefusals,
        GameRefusals,
        StoreRefusals,
    )
)]
pub async fn undo(
    State(app): State<App>,
    Path(GamePath { id }): Path<GamePath>,
    caller: Caller,
) -> Result<Response, ApiError> {
    let view = app.games.undo(game_id(&id)?, caller).await?;
    Ok(Json(&*view).into_response())
}

/// Resign.
///
/// The game ends as the seat's loss, counted on the scoreboard.
#[utoipa::path(
    post, path = "/api/games/{id}/resign", tag = "games",
    params(GamePath),
    security(("seat" = []), ("seat_x" = []), ("seat_o" = []), ("token" = []), ("session" = [])),
    responses(
        (status = 200, description = "The game, ended", body = GameView),
        (status = 409, description = "The game is over already", body = ErrorJson),
        SeatRefusals,
        GameRefusals,
        StoreRefusals,
    )
)]
pub async fn resign(
    State(app): State<App>,
    Path(GamePath { id }): Path<GamePath>,
    caller: Caller,
) -> Result<Response, ApiError> {
    let view = app.games.resign(game_id(&id)?, caller).await?;
    Ok(Json(&*view).into_response())
}

/// Choose the seat's name.
///
/// The seat's person plays under this name from now on: a person may choose their name
/// until their first move (a move, not an undo), as the one invited to a game does when
/// the invite names them by the host's guess. The same name again changes nothing. A
/// name is checked as a new game's names are, and may not be the other player's (or
/// look like it). Everyone following the game sees it.
#[utoipa::path(
    post, path = "/api/games/{id}/name", tag = "games",
    params(GamePath),
    request_body = NameRequest,
    security(("seat" = []), ("seat_x" = []), ("seat_o" = []), ("token" = []), ("session" = [])),
    responses(
        (status = 200, description = "The game, the seat so named", body = GameView),
        (status = 400, description = "A name the rules refuse (no visible character, over 40 characters, control or formatting characters, starting with \"Computer\", the other player's or like it), or not JSON", body = ErrorJson),
        (status = 409, description = "The seat has made its first move, or the game is over", body = ErrorJson),
        SeatRefusals,
        GameRefusals,
        BodyRefusals,
        StoreRefusals,
    )
)]
pub async fn rename(
    State(app): State<App>,
    Path(GamePath { id }): Path<GamePath>,
    caller: Caller,
    JsonBody(request): JsonBody<NameRequest>,
) -> Result<Response, ApiError> {
    let id = game_id(&id)?;
    let name = request.name()?;
    let view = app.games.rename(id, caller, name).await?;
    Ok(Json(&*view).into_response())
}

/// A hint.
///
/// What perfect play makes of the position, for the seat whose turn it is.
#[utoipa::path(
    post, path = "/api/games/{id}/hint", tag = "games",
    params(GamePath),
    security(("seat" = []), ("seat_x" = []), ("seat_o" = []), ("token" = []), ("session" = [])),
    responses(
        (status = 200, description = "The value and the best cells", body = HintJson),
        (status = 409, description = "Refused by the game: not your turn, the game is over, no hints here", body = ErrorJson),
        SeatRefusals,
        GameRefusals,
        ThinkingRefusals,
        StoreRefusals,
    )
)]
pub async fn hint(
    State(app): State<App>,
    Path(GamePath { id }): Path<GamePath>,
    caller: Caller,
) -> Result<Response, ApiError> {
    let hint = app.games.hint(game_id(&id)?, caller).await?;
    Ok(Json(HintJson::from(&hint)).into_response())
}

/// Start the rematch.
///
/// The same game with sides swapped, once the game is over. Each person takes their
/// seat on the other mark by asking: an account's is theirs already; a guest's is given
/// a new token (and cookie), the old one ending with its game. Asked again (by either
/// player), the same rematch.
#[utoipa::path(
    post, path = "/api/games/{id}/rematch", tag = "games",
    params(GamePath),
    security(("seat" = []), ("seat_x" = []), ("seat_o" = []), ("token" = []), ("session" = []), ()),
    responses(
        (status = 201, description = "The rematch, begun by this request", body = CreatedJson,
         headers(("set-cookie" = String, description = "The caller's guest seats' cookies"))),
        (status = 200, description = "The rematch someone asked for before", body = CreatedJson,
         headers(("set-cookie" = String, description = "The caller's guest seats' cookies"))),
        (status = 409, description = "The game is still being played", body = ErrorJson),
        SeatRefusals,
        GameRefusals,
        StoreRefusals,
    )
)]
pub async fn rematch(
    State(app): State<App>,
    Path(GamePath { id }): Path<GamePath>,
    caller: Caller,
) -> Result<Response, ApiError> {
    let rematch = app.games.rematch(game_id(&id)?, caller).await?;
    let status = if rematch.new {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok(with_seats(&app, status, &rematch.created))
}

/// Follow the game live.
///
/// Server-sent events: an event `game` with the whole game at once (data: the game as
/// `GET /api/games/{id}` answers it), then one after each change, until the game is
/// forgotten from the server's memory or the server stops (then ask again). A comment
/// every 15 s keeps the connection open.
#[utoipa::path(
    get, path = "/api/games/{id}/events", tag = "games",
    params(GamePath),
    responses(
        (status = 200, description = "A stream of `game` events, each `data` a game", content_type = "text/event-stream", body = GameEventJson),
        (status = 429, description = "This address follows as many games live as it may (see Retry-After)", body = ErrorJson),
        GameRefusals,
        (status = 503, description = "The server streams as many games as it may, or its store cannot be used (see Retry-After)", body = ErrorJson),
    )
)]
pub async fn events(
    State(app): State<App>,
    Path(GamePath { id }): Path<GamePath>,
    client: Client,
) -> Result<Response, ApiError> {
    let watching = app.games.watch(game_id(&id)?).await?;
    let place = app.edge.stream_places.take(client).map_err(|no| match no {
        NoPlace::Share => ApiError::StreamShare {
            most: app.edge.streams_per_client,
        },
        NoPlace::Full => ApiError::Streaming,
    })?;
    Ok(Sse::new(game_events(watching, place))
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// `?top=N`, 1 to [`MAX_TOP`].
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ScoresQuery {
    /// How many rows, from the top: 1 to 1000 (100 if not given).
    #[param(minimum = 1, maximum = 1000)]
    top: Option<u64>,
}

/// The scoreboard.
///
/// Its first rows, ranked as `tictactoe scores` ranks them, in the words `tictactoe
/// scores --json` prints.
#[utoipa::path(
    get, path = "/api/scores", tag = "players",
    params(ScoresQuery),
    responses(
        (status = 200, description = "The scoreboard's first rows", body = ScoreboardJson),
        (status = 400, description = "top out of range, or an unknown parameter", body = ErrorJson),
        StoreRefusals,
    )
)]
pub async fn scores(
    State(app): State<App>,
    query: Result<Query<ScoresQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let query = parsed(query)?;
    let top = rows_asked(query.top, DEFAULT_TOP)?;
    let scoreboard = app.games.scores(top).await?;
    Ok(json_text(StatusCode::OK, scoreboard_json(&scoreboard)))
}

/// A query's fields, or 400 in the words of the parameter that did not parse.
fn parsed<T>(query: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    query
        .map(|Query(fields)| fields)
        .map_err(|rejection| ApiError::BadRequest(rejection.body_text()))
}

/// `?top=N`: the rows asked for, `default` if not given; 400 outside 1 to [`MAX_TOP`].
fn rows_asked(top: Option<u64>, default: u64) -> Result<u64, ApiError> {
    Some(top.unwrap_or(default))
        .filter(|top| (1..=MAX_TOP).contains(top))
        .ok_or_else(|| {
            ApiError::BadRequest(format!("top is the number of rows to show: 1 to {MAX_TOP}"))
        })
}

/// `?player=NAME&limit=N&before=ID`, each optional.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct HistoryParams {
    /// Only this player's games (names compared as the scoreboard compares them; a
    /// computer's name too).
    player: Option<String>,
    /// How many games: 1 to 100 (20 if not given).
    #[param(minimum = 1, maximum = 100)]
    limit: Option<u64>,
    /// The `next` of the page before: the games older than this one.
    #[param(pattern = "^[0-9a-fA-F]{32}$")]
    before: Option<String>,
}

/// The ended games, newest first.
///
/// A page of the games won, drawn, resigned or left, in the words the command line's
/// `history --json` prints. Paging from `next` to `next` gives every ended game once.
#[utoipa::path(
    get, path = "/api/games", tag = "history",
    params(HistoryParams),
    responses(
        (status = 200, description = "A page of ended games", body = HistoryPageJson),
        (status = 400, description = "A limit out of range, a cursor that is no game's id, or an unknown parameter", body = ErrorJson),
        (status = 404, description = "The cursor names no kept game, or the player's name cannot be anybody's", body = ErrorJson),
        StoreRefusals,
    )
)]
pub async fn history(
    State(app): State<App>,
    query: Result<Query<HistoryParams>, QueryRejection>,
) -> Result<Response, ApiError> {
    let params = parsed(query)?;
    let limit = params.limit.unwrap_or(DEFAULT_PAGE);
    let limit = PageSize::new(limit)
        .ok()
        .filter(|_| limit <= MAX_PAGE)
        .ok_or_else(|| {
            ApiError::BadRequest(format!(
                "limit is the number of games to list: 1 to {MAX_PAGE}"
            ))
        })?;
    let player = params.player.as_deref().map(player_name).transpose()?;
    let before = params
        .before
        .as_deref()
        .map(|id| {
            GameId::parse(id).map_err(|_| {
                ApiError::BadRequest(
                    "before is a game's id (32 hex digits), as a page's next gives it".into(),
                )
            })
        })
        .transpose()?;
    let page = app
        .games
        .history(HistoryQuery {
            player,
            before,
            limit,
        })
        .await?;
    Ok(json_text(
        StatusCode::OK,
        history_page_json(&page.games, page.next.as_ref()),
    ))
}

/// A game's review.
///
/// The review of an ended game by perfect play, in the words of `replay --review
/// --json`; while it is computed, how far it has come (poll again).
#[utoipa::path(
    get, path = "/api/games/{id}/review", tag = "history",
    params(GamePath),
    responses(
        (status = 200, description = "The review, computed and kept", body = ReviewJson),
        (status = 202, description = "Being computed: moves reviewed of all", body = ProgressJson),
        (status = 409, description = "The game is still being played", body = ErrorJson),
        GameRefusals,
        ThinkingRefusals,
        (status = 503, description = "As many reviews are under way as the server takes, or its store cannot be used (see Retry-After)", body = ErrorJson),
    )
)]
pub async fn review(
    State(app): State<App>,
    Path(GamePath { id }): Path<GamePath>,
    caller: Caller,
) -> Result<Response, ApiError> {
    Ok(
        match app.games.review(game_id(&id)?, caller.payer()).await? {
            Reviewing::Done { game, review } => {
                json_text(StatusCode::OK, review_json(&game, &review))
            }
            Reviewing::Computing { done, total } => {
                (StatusCode::ACCEPTED, Json(ProgressJson::new(done, total))).into_response()
            }
        },
    )
}

/// What a game did to ratings.
///
/// What an ended game did to each rated person's rating, X's first: each one's rating
/// before and after, and the change. Empty when the game rated nobody (a casual game,
/// a guest or a computer on both sides, a game left before its end).
#[utoipa::path(
    get, path = "/api/games/{id}/rating", tag = "history",
    params(GamePath),
    responses(
        (status = 200, description = "Each rated person's change", body = RatingChangesJson),
        (status = 409, description = "The game is still being played", body = ErrorJson),
        GameRefusals,
        StoreRefusals,
    )
)]
pub async fn rating_changes(
    State(app): State<App>,
    Path(GamePath { id }): Path<GamePath>,
) -> Result<Response, ApiError> {
    let changes = app.games.rating_changes(game_id(&id)?).await?;
    Ok(json_text(StatusCode::OK, rating_changes_json(&changes)))
}

/// A player's page.
///
/// Their record, their results against each opponent (the most played first) and their
/// newest ended games.
#[utoipa::path(
    get, path = "/api/players/{name}", tag = "players",
    params(("name" = String, Path, description = "The player's name, as people see it (a computer's too: `Computer (Impossible)`)")),
    responses(
        (status = 200, description = "The player's page", body = PlayerPageJson),
        (status = 404, description = "Nobody of that name has finished a game here (or the name cannot be anybody's)", body = ErrorJson),
        StoreRefusals,
    )
)]
pub async fn player(
    State(app): State<App>,
    name: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let page = app.games.player(name_in_path(name)?).await?;
    Ok(json_text(
        StatusCode::OK,
        player_page_json(&page.name, &page.opponents, &page.recent, &page.ratings),
    ))
}

/// `?size=N&win=K&top=N`, each optional: the board (3 x 3 unless told; the run is the
/// size unless told) and how many rows.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct RatingsQuery {
    /// The board's size, 3 to 7 (default 3).
    #[param(minimum = 3, maximum = 7)]
    size: Option<usize>,
    /// Marks in a row to win, 3 to the size (default: the size).
    #[param(minimum = 3, maximum = 7)]
    win: Option<usize>,
    /// How many rows, the levels' anchors among them (default 20).
    #[param(minimum = 1, maximum = 1000)]
    top: Option<u64>,
}

/// A board's ratings.
///
/// The players by Glicko-2 rating on one board, best first: the ranking (settled
/// ratings, with the computer levels' fixed anchors among them), and apart the people
/// whose rating is still provisional: the rows `tictactoe ratings --json` prints.
#[utoipa::path(
    get, path = "/api/ratings", tag = "players",
    params(RatingsQuery),
    responses(
        (status = 200, description = "The board's ranking and, apart, its provisional ratings, best first", body = RatingsJson),
        (status = 400, description = "No such board, top out of range, or an unknown parameter", body = ErrorJson),
        StoreRefusals,
    )
)]
pub async fn ratings(
    State(app): State<App>,
    query: Result<Query<RatingsQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let query = parsed(query)?;
    let board = board_asked(query.size, query.win)?;
    let top = rows_asked(query.top, DEFAULT_RATINGS_TOP)?;
    let listed = app.games.ratings(board, top as u32).await?;
    Ok(json_text(StatusCode::OK, ratings_json(&listed)))
}

/// `?size=N&win=K`, each optional: only the puzzles of that board (every board's when
/// neither is given; the run is the size unless told, the size 3 unless told).
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PuzzlesQuery {
    /// The board's size, 3 to 7.
    #[param(minimum = 3, maximum = 7)]
    size: Option<usize>,
    /// Marks in a row to win, 3 to the size.
    #[param(minimum = 3, maximum = 7)]
    win: Option<usize>,
}

/// How the training page tells a player to review a game (the notes' words).
const HOW_TO_REVIEW: &str = "a game is reviewed when its page is opened (from the \
                             player's page), and its puzzles come then";

/// A player's training puzzles.
///
/// The positions from their reviewed games where their move threw a value away, and
/// that they have not yet solved twice apart (as `tictactoe train --list --json` lists
/// them), each with its title and what it asks; and what kept more of their moves
/// from being puzzles.
#[utoipa::path(
    get, path = "/api/players/{name}/puzzles", tag = "players",
    params(
        ("name" = String, Path, description = "The player's name, as people see it"),
        PuzzlesQuery,
    ),
    security(("token" = []), ("session" = [])),
    responses(
        (status = 200, description = "The player's open puzzles, newest game first", body = TrainingJson),
        (status = 400, description = "No such board, or an unknown parameter", body = ErrorJson),
        (status = 401, description = "Not signed in", body = ErrorJson),
        (status = 403, description = "Signed in as someone else: a player's puzzles are their own", body = ErrorJson),
        (status = 404, description = "The name cannot be anybody's", body = ErrorJson),
        StoreRefusals,
    )
)]
pub async fn puzzles(
    State(app): State<App>,
    caller: Caller,
    name: Result<Path<String>, PathRejection>,
    query: Result<Query<PuzzlesQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let name = name_in_path(name)?;
    owned_by(&caller, &name)?;
    let query = parsed(query)?;
    let board = match (query.size, query.win) {
        (None, None) => None,
        (size, win) => Some(board_asked(size, win)?),
    };
    let training = app.games.puzzles(name.clone(), board).await?;
    let on = match board {
        Some(board) => format!("on {}", shape(board.size(), board.win_length())),
        None => "on any board".to_string(),
    };
    Ok(json_text(
        StatusCode::OK,
        training_json(
            &name,
            &training.open,
            &training.short_ids,
            &on,
            HOW_TO_REVIEW,
        ),
    ))
}

/// `{name}`, `{id}` and `{ply}` in a puzzle's path.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct PuzzlePath {
    /// The player's name, as people see it
    name: String,
    /// The puzzle's game: 32 hex digits
    id: String,
    /// The puzzle's move in its game (1 for the first)
    ply: u32,
}

/// Answer a training puzzle.
///
/// The player's move in one of their open puzzles, judged by perfect play: right when
/// it keeps the value they had, wrong (with what it leaves, and the review's words on
/// the move played in the game) when it gives it away. Either is kept before it is
/// answered, and two right answers apart retire the puzzle. A move perfect play could
/// not prove in the server's thinking time is not judged (`unproven`), and nothing is
/// kept.
#[utoipa::path(
    post, path = "/api/players/{name}/puzzles/{id}/{ply}", tag = "players",
    params(PuzzlePath),
    request_body = MoveRequest,
    security(("token" = []), ("session" = [])),
    responses(
        (status = 200, description = "The answer, judged", body = PuzzleAnswerJson),
        (status = 400, description = "A cell not on the board or taken, or not JSON", body = ErrorJson),
        (status = 401, description = "Not signed in", body = ErrorJson),
        (status = 403, description = "Signed in as someone else: a player's puzzles are their own", body = ErrorJson),
        (status = 404, description = "The player has no open puzzle of that game and move (or the name cannot be anybody's)", body = ErrorJson),
        (status = 500, description = "A bug in the server", body = ErrorJson),
        BodyRefusals,
        ThinkingRefusals,
        StoreRefusals,
    )
)]
pub async fn answer_puzzle(
    State(app): State<App>,
    caller: Caller,
    path: Result<Path<PuzzlePath>, PathRejection>,
    JsonBody(request): JsonBody<MoveRequest>,
) -> Result<Response, ApiError> {
    let Path(PuzzlePath { name, id, ply }) = path.map_err(|_| ApiError::NotFound)?;
    let player = player_name(&name)?;
    owned_by(&caller, &player)?;
    let asked = PuzzleAsked {
        player,
        game: game_id(&id)?,
        ply,
    };
    let answer = app
        .games
        .answer_puzzle(asked, request.cell, caller.payer())
        .await?;
    Ok(json_text(
        StatusCode::OK,
        answer_json(&answer.puzzle, answer.cell, &answer.answered, answer.fate),
    ))
}

/// Liveness.
///
/// The process serves. Touches nothing.
#[utoipa::path(
    get, path = "/healthz", tag = "operations",
    responses((status = 200, description = "The process serves", body = ReadyJson))
)]
pub async fn healthz() -> Response {
    Json(ReadyJson::new("ok")).into_response()
}

/// Readiness.
///
/// The store answered a check within the last second and the server is not stopping.
/// A proxy sends requests only to a ready server.
#[utoipa::path(
    get, path = "/readyz", tag = "operations",
    responses(
        (status = 200, description = "Ready", body = ReadyJson),
        (status = 503, description = "Not ready, and why (see Retry-After)", body = ErrorJson),
    )
)]
pub async fn readyz(State(app): State<App>) -> Result<Response, ApiError> {
    app.health
        .readiness(Instant::now())
        .map_err(ApiError::NotReady)?;
    Ok(Json(ReadyJson::new("ready")).into_response())
}

/// This document.
///
/// The API in OpenAPI 3.1, generated from the handlers themselves.
#[utoipa::path(
    get, path = "/api/openapi.json", tag = "operations",
    responses((status = 200, description = "The API's OpenAPI document", content_type = "application/json", body = Object))
)]
pub async fn document(State(app): State<App>) -> Response {
    json_text(StatusCode::OK, app.document.to_string())
}

/// `?size=N&win=K`: the board, 3 x 3 unless told, its run the size unless told; 400
/// for a board that cannot be.
fn board_asked(size: Option<usize>, win: Option<usize>) -> Result<Geometry, ApiError> {
    let size = size.unwrap_or(3);
    Geometry::new(size, win.unwrap_or(size))
        .map_err(|error| ApiError::BadRequest(error.to_string()))
}

/// Whether `caller` may see and do what is `owner`'s (their training): signed in as the
/// account of that name. 401 if not signed in, 403 if as someone else.
fn owned_by(caller: &Caller, owner: &PlayerName) -> Result<(), ApiError> {
    let account = accounts::signed_in_as(caller)?;
    if account.key() != owner.key() {
        return Err(ApiError::NotYours {
            owner: owner.clone(),
        });
    }
    Ok(())
}

/// `{name}` in a path, as [`player_name`] reads it.
pub(super) fn name_in_path(
    name: Result<Path<String>, PathRejection>,
) -> Result<PlayerName, ApiError> {
    let Path(name) = name.map_err(|_| ApiError::NotAName("a name is text (UTF-8)".into()))?;
    player_name(&name)
}

/// A player's name as a client sends it to look a player up: a person's name, checked
/// as when they sit down, or a computer's (`Computer (Impossible)`), whose results
/// are kept like anyone's.
fn player_name(raw: &str) -> Result<PlayerName, ApiError> {
    PlayerName::new(raw)
        .or_else(|error| match error {
            NameError::Reserved => PlayerName::stored(raw),
            error => Err(error),
        })
        .map_err(|error| ApiError::NotAName(error.to_string()))
}

/// JSON written by `tictactoe_json`, answered as it is.
fn json_text(status: StatusCode, json: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], json).into_response()
}

/// Any path the server does not know: a page for a browser, JSON for a program.
pub async fn not_found(headers: HeaderMap) -> Response {
    ApiError::NotFound.for_client(&headers)
}

/// A known path asked with a method it does not take (GET for a move, say).
pub async fn method_not_allowed(method: Method, headers: HeaderMap) -> Response {
    ApiError::MethodNotAllowed {
        method: method.to_string(),
    }
    .for_client(&headers)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use axum::body::Body;
    use axum::http::Method;
    use http_body_util::BodyExt;
    use serde_json::{Value, json};
    use tower::ServiceExt;

    use tictactoe_core::domain::{Mark, Refusal};
    use tictactoe_core::ports::Opponents;
    use tower_http::timeout::DeadlineBody;

    use super::*;
    use crate::port::{
        AccountError, Created, GameError, MockAccountService, MockGameService, MockLobbyService,
        PlayerPage, Rematch,
    };
    use crate::server::{Limits, routes};
    use crate::view::{PlayerView, Players};

    /// A service the router can be built on, expecting nothing yet.
    fn service() -> MockGameService {
        MockGameService::new()
    }

    /// The game the requests name.
    fn the_game() -> GameId {
        GameId::from_bits(1)
    }

    /// `path` with `{id}` in it, naming [`the_game`].
    fn at(path: &str) -> String {
        path.replace("{id}", the_game().as_str())
    }

    /// A game as the service might answer it: the contents do not matter here.
    fn a_view() -> Arc<GameView> {
        let person = |name: &str| PlayerView {
            name: name.into(),
            kind: "human",
            level: None,
            moved: false,
        };
        Arc::new(GameView {
            id: the_game().to_string(),
            size: 3,
            win: 3,
            first: "X",
            board: "....X....".into(),
            status: "in_progress",
            to_move: Some("O"),
            players: Players {
                x: person("Ada"),
                o: person("Bob"),
            },
            moves: vec![5],
            line: None,
            undo_asked_by: None,
            rematch: None,
            joined: vec!["X"],
            rated: true,
            clock: None,
        })
    }

    /// `path` got through the router on `service`: the status and the body.
    async fn get(service: MockGameService, path: &str) -> (StatusCode, String) {
        let request = Request::get(path).body(Body::empty()).unwrap();
        let (status, _, body) = through(service, MockAccountService::new(), request).await;
        (status, body)
    }

    /// `request` through the router on `service` and `accounts`: the status, the
    /// headers and the body.
    async fn through(
        service: MockGameService,
        accounts: MockAccountService,
        request: Request<Body>,
    ) -> (StatusCode, HeaderMap, String) {
        let response = routes(
            Arc::new(service),
            Arc::new(accounts),
            Arc::new(MockLobbyService::new()),
            Health::new(),
            &Limits::default(),
        )
        .oneshot(request)
        .await
        .unwrap();
        let (status, headers) = (response.status(), response.headers().clone());
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, headers, String::from_utf8(bytes.to_vec()).unwrap())
    }

    /// An accounts stub: every session and personal token is `name`'s account's.
    fn signed_in_as(name: &'static str) -> MockAccountService {
        let mut accounts = MockAccountService::new();
        accounts
            .expect_who()
            .returning(move |_| Box::pin(async move { Ok(Some(PlayerName::new(name).unwrap())) }));
        accounts
    }

    /// A request to `path` with a personal token as its bearer (whose account the
    /// accounts say), and `body` labelled JSON if there is one.
    fn with_a_personal_token(method: Method, path: &str, body: &str) -> Request<Body> {
        let mut request = Request::builder().method(method).uri(path).header(
            header::AUTHORIZATION,
            format!("Bearer {}", crate::token::PersonalToken::random().to_text()),
        );
        if !body.is_empty() {
            request = request.header(header::CONTENT_TYPE, "application/json");
        }
        request.body(Body::from(body.to_owned())).unwrap()
    }

    /// `body` POSTed to `path` through the router on `service`, with `token` as the
    /// bearer if given (and, if there is a body, labelled JSON): the status and the JSON
    /// answered.
    async fn post(
        service: MockGameService,
        path: &str,
        token: Option<&Token>,
        body: &str,
    ) -> (StatusCode, Value) {
        let label = (!body.is_empty()).then_some("application/json");
        post_labelled(service, path, token, body, label).await
    }

    /// The same, with `label` as the body's Content-Type, if given.
    async fn post_labelled(
        service: MockGameService,
        path: &str,
        token: Option<&Token>,
        body: &str,
        label: Option<&str>,
    ) -> (StatusCode, Value) {
        let mut request = Request::builder().method(Method::POST).uri(path);
        if let Some(label) = label {
            request = request.header(header::CONTENT_TYPE, label);
        }
        if let Some(token) = token {
            let bearer = format!("Bearer {}", token.to_hex());
            request = request.header(header::AUTHORIZATION, bearer);
        }
        let request = request.body(Body::from(body.to_owned())).unwrap();
        let (status, _, body) = through(service, MockAccountService::new(), request).await;
        (status, serde_json::from_str(&body).unwrap())
    }

    #[tokio::test]
    async fn a_move_asks_the_service_for_the_cell_as_the_seat_the_bearer_token_names() {
        // Arrange
        let token = Token::random();
        let expected = token.clone();
        let mut service = service();
        service
            .expect_play()
            .withf(move |id, caller, cell| {
                *id == the_game()
                    && *cell == 5
                    && caller.secrets.iter().any(|given| given.matches(&expected))
            })
            .times(1)
            .returning(|_, _, _| Box::pin(async { Ok(a_view()) }));

        // Act
        let (status, body) = post(
            service,
            &at("/api/games/{id}/moves"),
            Some(&token),
            r#"{"cell":5}"#,
        )
        .await;

        // Assert: the mock checked the call; the answer is the service's game.
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["moves"], json!([5]));
    }

    #[tokio::test]
    async fn a_move_without_a_token_reaches_the_service_as_missing_credentials() {
        // Arrange
        let mut service = service();
        service
            .expect_play()
            .withf(|_, caller, _| !caller.presented)
            .times(1)
            .returning(|_, _, _| Box::pin(async { Err(GameError::NoSeatKey) }));

        // Act
        let (status, _) = post(service, &at("/api/games/{id}/moves"), None, r#"{"cell":5}"#).await;

        // Assert
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }

    #[tokio::test]
    async fn the_services_refusal_is_a_conflict_with_its_words_as_the_error() {
        // Arrange: a stub; the call itself is not what this test is about.
        let refusal = Refusal::NotYourTurn(Mark::O);
        let mut service = service();
        service
            .expect_play()
            .returning(move |_, _, _| Box::pin(async move { Err(GameError::Refused(refusal)) }));

        // Act
        let (status, body) = post(
            service,
            &at("/api/games/{id}/moves"),
            Some(&Token::random()),
            r#"{"cell":5}"#,
        )
        .await;

        // Assert
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(body, json!({ "error": "it is not O's turn" }));
    }

    #[tokio::test]
    async fn a_malformed_move_is_a_bad_request_that_never_reaches_the_service() {
        // Arrange
        let mut service = service();
        service.expect_play().never();

        // Act
        let (status, body) = post(
            service,
            &at("/api/games/{id}/moves"),
            Some(&Token::random()),
            r#"{"cell":"five"}"#,
        )
        .await;

        // Assert
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let error = body["error"].as_str().unwrap();
        assert!(
            error.starts_with("the body is not the JSON expected"),
            "{error}"
        );
    }

    #[rstest::rstest]
    #[case::as_written("application/json")]
    #[case::any_case_with_a_charset("Application/JSON; charset=UTF-8")]
    #[case::spaced(" application/json ;charset=utf-8")]
    #[tokio::test]
    async fn a_body_labelled_json_reaches_the_service(#[case] label: &str) {
        // Arrange
        let mut service = service();
        service
            .expect_play()
            .times(1)
            .returning(|_, _, _| Box::pin(async { Ok(a_view()) }));

        // Act
        let (status, _) = post_labelled(
            service,
            &at("/api/games/{id}/moves"),
            Some(&Token::random()),
            r#"{"cell":5}"#,
            Some(label),
        )
        .await;

        // Assert
        assert_eq!(status, StatusCode::OK);
    }

    #[rstest::rstest]
    #[case::a_form(
        Some("application/x-www-form-urlencoded"),
        "this request's was application/x-www-form-urlencoded"
    )]
    #[case::plain_text(Some("text/plain;charset=UTF-8"), "this request's was text/plain")]
    #[case::a_json_based_type(
        Some("application/merge-patch+json"),
        "this request's was application/merge-patch+json"
    )]
    #[case::a_type_too_odd_to_repeat(Some("text/<b>"), "this request's was another type")]
    #[case::none(None, "this request had no Content-Type")]
    #[tokio::test]
    async fn a_body_not_labelled_json_is_a_415_that_never_reaches_the_service(
        #[case] label: Option<&str>,
        #[case] said: &str,
    ) {
        // Arrange
        let mut service = service();
        service.expect_play().never();

        // Act
        let (status, body) = post_labelled(
            service,
            &at("/api/games/{id}/moves"),
            Some(&Token::random()),
            r#"{"cell":5}"#,
            label,
        )
        .await;

        // Assert
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        let error = body["error"].as_str().unwrap();
        assert!(
            error.starts_with("the body must be JSON, sent with Content-Type: application/json"),
            "{error}"
        );
        assert!(error.contains(said), "{error}");
    }

    #[tokio::test]
    async fn a_request_that_takes_no_body_needs_no_content_type() {
        // Arrange
        let mut service = service();
        service
            .expect_resign()
            .times(1)
            .returning(|_, _| Box::pin(async { Ok(a_view()) }));

        // Act
        let (status, _) = post_labelled(
            service,
            &at("/api/games/{id}/resign"),
            Some(&Token::random()),
            "",
            None,
        )
        .await;

        // Assert
        assert_eq!(status, StatusCode::OK);
    }

    #[tokio::test]
    async fn a_name_asks_the_service_to_rename_the_seat_the_bearer_token_names() {
        // Arrange
        let token = Token::random();
        let expected = token.clone();
        let mut service = service();
        service
            .expect_rename()
            .withf(move |id, caller, name| {
                *id == the_game()
                    && name.as_str() == "Cy"
                    && caller.secrets.iter().any(|given| given.matches(&expected))
            })
            .times(1)
            .returning(|_, _, _| Box::pin(async { Ok(a_view()) }));

        // Act
        let (status, body) = post(
            service,
            &at("/api/games/{id}/name"),
            Some(&token),
            r#"{"name":"Cy"}"#,
        )
        .await;

        // Assert: the mock checked the call; the answer is the service's game.
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["players"]["o"]["name"], "Bob");
    }

    #[rstest::rstest]
    #[case::no_visible_character("  ", "a name needs at least one visible character")]
    #[case::the_computers(
        "Computer Cy",
        "names starting with \"Computer\" (or looking like it) are kept for the computer players"
    )]
    #[tokio::test]
    async fn a_name_the_rules_refuse_is_a_bad_request_in_the_consoles_words_and_never_reaches_the_service(
        #[case] name: &str,
        #[case] words: &str,
    ) {
        // Arrange
        let mut service = service();
        service.expect_rename().never();

        // Act
        let (status, body) = post(
            service,
            &at("/api/games/{id}/name"),
            Some(&Token::random()),
            &json!({ "name": name }).to_string(),
        )
        .await;

        // Assert
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body, json!({ "error": words }));
    }

    #[rstest::rstest]
    #[case::after_the_seats_first_move(
        GameError::NameFixed(Mark::O),
        StatusCode::CONFLICT,
        "you have made your first move: a name can be chosen only before it"
    )]
    #[case::the_other_players(
        GameError::NameTaken { other: PlayerName::new("Ada").unwrap() },
        StatusCode::BAD_REQUEST,
        "Ada is already playing: choose another name"
    )]
    #[case::like_the_other_players(
        GameError::NameLooksLike {
            name: PlayerName::new("\u{410}da").unwrap(),
            other: PlayerName::new("Ada").unwrap(),
        },
        StatusCode::BAD_REQUEST,
        "\u{410}da looks like Ada, who is already playing: choose a name that reads differently"
    )]
    #[tokio::test]
    async fn the_services_refusal_of_a_name_is_worded_as_the_console_words_it_with_its_status(
        #[case] refusal: GameError,
        #[case] expected: StatusCode,
        #[case] words: &str,
    ) {
        // Arrange: a stub; the call itself is not what this test is about.
        let mut service = service();
        let refusal = std::sync::Mutex::new(Some(refusal));
        service.expect_rename().returning(move |_, _, _| {
            let refusal = refusal.lock().unwrap().take().expect("one request");
            Box::pin(async move { Err(refusal) })
        });

        // Act
        let (status, body) = post(
            service,
            &at("/api/games/{id}/name"),
            Some(&Token::random()),
            r#"{"name":"Cy"}"#,
        )
        .await;

        // Assert
        assert_eq!(status, expected);
        assert_eq!(body, json!({ "error": words }));
    }

    #[tokio::test]
    async fn a_new_game_is_created_with_201_and_the_players_as_written() {
        // Arrange
        let mut service = service();
        service
            .expect_create()
            .withf(|setup, _, _| {
                *setup.settings.player(Mark::X) == "human:Ada".parse().unwrap()
                    && *setup.settings.player(Mark::O) == "impossible".parse().unwrap()
            })
            .times(1)
            .returning(|_, _, _| {
                Box::pin(async {
                    Ok(Created {
                        game: a_view(),
                        tokens: [None, None],
                        invite: None,
                    })
                })
            });

        // Act
        let (status, body) = post(
            service,
            "/api/games",
            None,
            r#"{"x":"human:Ada","o":"impossible"}"#,
        )
        .await;

        // Assert
        assert_eq!(status, StatusCode::CREATED);
        assert_eq!(body["id"], the_game().as_str());
    }

    #[tokio::test]
    async fn a_rematch_asked_before_is_answered_200_not_201() {
        // Arrange: a stub saying the rematch already existed.
        let mut service = service();
        service.expect_rematch().returning(|_, _| {
            Box::pin(async {
                Ok(Rematch {
                    created: Created {
                        game: a_view(),
                        tokens: [None, None],
                        invite: None,
                    },
                    new: false,
                })
            })
        });

        // Act
        let (status, _) = post(
            service,
            &at("/api/games/{id}/rematch"),
            Some(&Token::random()),
            "",
        )
        .await;

        // Assert
        assert_eq!(status, StatusCode::OK);
    }

    #[rstest::rstest]
    #[case::by_default("/api/scores", DEFAULT_TOP)]
    #[case::when_asked_for("/api/scores?top=5", 5)]
    #[case::at_most("/api/scores?top=1000", MAX_TOP)]
    #[tokio::test]
    async fn the_scores_are_asked_of_the_service_for_the_top_rows(
        #[case] path: &str,
        #[case] top: u64,
    ) {
        // Arrange
        let mut service = service();
        service
            .expect_scores()
            .with(mockall::predicate::eq(top))
            .times(1)
            .returning(|_| Box::pin(async { Ok(tictactoe_core::domain::Scoreboard::new()) }));

        // Act
        let (status, body) = get(service, path).await;

        // Assert
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body, r#"{"players":[]}"#);
    }

    /// A summary of an ended game, for a history the service answers.
    fn a_summary(bits: u128) -> tictactoe_core::ports::GameSummary {
        use tictactoe_core::domain::Outcome;
        use tictactoe_core::fixtures::{person, settings};
        use tictactoe_core::players::{Level, PlayerSpec};
        use tictactoe_core::ports::{Ending, GameSummary};
        let settings = settings(person("Ada"), PlayerSpec::Computer(Level::Easy));
        GameSummary {
            id: GameId::from_bits(bits),
            settings,
            started: std::time::SystemTime::UNIX_EPOCH,
            ended: std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(60),
            ending: Ending::Finished(Outcome::Won(Mark::X)),
            moves: 5,
        }
    }

    #[tokio::test]
    async fn the_history_is_asked_of_the_service_with_the_player_the_limit_and_the_cursor() {
        // Arrange
        let before = GameId::from_bits(9);
        let expected = before.clone();
        let mut service = service();
        service
            .expect_history()
            .withf(move |query| {
                query.player.as_ref().map(PlayerName::as_str) == Some("Ada")
                    && query.limit.get() == 5
                    && query.before.as_ref() == Some(&expected)
            })
            .times(1)
            .returning(|_| {
                Box::pin(async {
                    Ok(tictactoe_core::ports::HistoryPage {
                        games: vec![a_summary(8)],
                        next: Some(GameId::from_bits(8)),
                    })
                })
            });

        // Act
        let (status, body) = get(
            service,
            &format!("/api/games?player=Ada&limit=5&before={before}"),
        )
        .await;

        // Assert: the page in the words of the command line.
        assert_eq!(status, StatusCode::OK);
        let page = &a_summary(8);
        assert_eq!(
            body,
            history_page_json(std::slice::from_ref(page), Some(&page.id))
        );
    }

    #[tokio::test]
    async fn the_history_asks_for_everybodys_newest_twenty_games_when_told_nothing() {
        // Arrange
        let mut service = service();
        service
            .expect_history()
            .withf(|query| {
                query.player.is_none()
                    && query.before.is_none()
                    && u64::from(query.limit.get()) == DEFAULT_PAGE
            })
            .times(1)
            .returning(|_| {
                Box::pin(async {
                    Ok(tictactoe_core::ports::HistoryPage {
                        games: Vec::new(),
                        next: None,
                    })
                })
            });

        // Act
        let (status, body) = get(service, "/api/games").await;

        // Assert
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body, r#"{"games":[],"next":null}"#);
    }

    #[rstest::rstest]
    #[case::no_games("/api/games?limit=0")]
    #[case::too_many("/api/games?limit=101")]
    #[case::a_cursor_that_is_no_id("/api/games?before=xyz")]
    #[tokio::test]
    async fn a_history_with_an_impossible_limit_cursor_or_name_never_reaches_the_service(
        #[case] path: &str,
    ) {
        // Arrange
        let mut service = service();
        service.expect_history().never();

        // Act
        let (status, body) = get(service, path).await;

        // Assert
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body.starts_with(r#"{"error":"#), "{body}");
    }

    #[tokio::test]
    async fn a_history_of_a_name_nobody_can_have_is_not_found_and_never_reaches_the_service() {
        // Arrange
        let mut service = service();
        service.expect_history().never();

        // Act
        let (status, body) = get(service, "/api/games?player=%20").await;

        // Assert
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert!(body.contains("there is no such player"), "{body}");
    }

    #[tokio::test]
    async fn a_cursor_the_store_does_not_know_is_not_found() {
        // Arrange
        let mut service = service();
        service.expect_history().returning(|query| {
            let before = query.before.clone().unwrap();
            Box::pin(async move { Err(GameError::NoSuchCursor(before)) })
        });

        // Act
        let (status, _) = get(
            service,
            &format!("/api/games?before={}", GameId::from_bits(3)),
        )
        .await;

        // Assert
        assert_eq!(status, StatusCode::NOT_FOUND);
    }

    #[tokio::test]
    async fn a_review_being_computed_is_answered_202_with_how_far_it_has_come() {
        // Arrange
        let mut service = service();
        service
            .expect_review()
            .withf(|id, _| *id == the_game())
            .times(1)
            .returning(|_, _| Box::pin(async { Ok(Reviewing::Computing { done: 3, total: 7 }) }));

        // Act
        let (status, body) = get(service, &at("/api/games/{id}/review")).await;

        // Assert
        assert_eq!(status, StatusCode::ACCEPTED);
        assert_eq!(body, r#"{"progress":{"done":3,"total":7}}"#);
    }

    #[tokio::test]
    async fn a_review_computed_is_answered_200_in_the_command_lines_words() {
        // Arrange
        use tictactoe_core::domain::{Geometry, Known, Verdict};
        use tictactoe_core::play::{MoveReview, Review};
        let center = Geometry::classic().position(4).unwrap();
        let review = Review {
            moves: vec![MoveReview {
                ply: 1,
                mark: Mark::X,
                cell: center,
                before: Known::Exactly(Verdict::Draw),
                after: Known::Exactly(Verdict::Draw),
                best_moves: vec![center],
            }],
        };
        let answered = review.clone();
        let mut service = service();
        service.expect_review().returning(move |_, _| {
            let review = answered.clone();
            Box::pin(async move {
                Ok(Reviewing::Done {
                    game: GameId::from_bits(1),
                    review,
                })
            })
        });

        // Act
        let (status, body) = get(service, &at("/api/games/{id}/review")).await;

        // Assert
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body, review_json(&GameId::from_bits(1), &review));
    }

    #[tokio::test]
    async fn a_players_page_is_asked_of_the_service_for_the_name_in_the_path_decoded() {
        // Arrange
        let mut service = service();
        service
            .expect_player()
            .withf(|name| name.as_str() == "Ada Lovelace")
            .times(1)
            .returning(|name| {
                Box::pin(async move {
                    Ok(PlayerPage {
                        ratings: Vec::new(),
                        name,
                        opponents: Opponents::default(),
                        recent: vec![a_summary(4)],
                    })
                })
            });

        // Act
        let (status, body) = get(service, "/api/players/Ada%20Lovelace").await;

        // Assert
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            body,
            player_page_json(
                &PlayerName::new("Ada Lovelace").unwrap(),
                &Opponents::default(),
                &[a_summary(4)],
                &[]
            )
        );
    }

    #[tokio::test]
    async fn a_computers_name_is_a_players_page_too() {
        // Arrange
        let mut service = service();
        service
            .expect_player()
            .withf(|name| name.as_str() == "Computer (Easy)")
            .times(1)
            .returning(|name| {
                Box::pin(async move {
                    Ok(PlayerPage {
                        ratings: Vec::new(),
                        name,
                        opponents: Opponents::default(),
                        recent: Vec::new(),
                    })
                })
            });

        // Act
        let (status, _) = get(service, "/api/players/Computer%20(Easy)").await;

        // Assert
        assert_eq!(status, StatusCode::OK);
    }

    #[rstest::rstest]
    #[case::a_control_character("/api/players/a%1Bb")]
    #[case::a_right_to_left_mark("/api/players/%E2%80%AEAda")]
    #[case::not_utf8("/api/players/%C3")]
    #[tokio::test]
    async fn a_players_page_for_what_cannot_be_a_name_is_not_found_and_never_reaches_the_service(
        #[case] path: &str,
    ) {
        // Arrange
        let mut service = service();
        service.expect_player().never();

        // Act
        let (status, body) = get(service, path).await;

        // Assert
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert!(body.starts_with(r#"{"error":"#), "{body}");
    }

    #[rstest::rstest]
    #[case::none("/api/scores?top=0")]
    #[case::too_many("/api/scores?top=1001")]
    #[case::not_a_number("/api/scores?top=all")]
    #[case::unknown("/api/scores?limit=5")]
    #[tokio::test]
    async fn scores_asked_for_an_impossible_number_of_rows_are_a_bad_request(#[case] path: &str) {
        // Arrange
        let mut service = service();
        service.expect_scores().never();

        // Act
        let (status, body) = get(service, path).await;

        // Assert
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body.starts_with(r#"{"error":"#), "{body}");
    }

    #[tokio::test]
    async fn an_answer_asks_the_service_for_the_players_puzzle_and_cell_and_says_its_words() {
        // Arrange
        let mut service = service();
        service
            .expect_answer_puzzle()
            .withf(|asked, cell, _| {
                (asked.player.as_str(), &asked.game, asked.ply, *cell)
                    == ("Ada Lovelace", &the_game(), 2, 9)
            })
            .times(1)
            .returning(|_, _, _| {
                Box::pin(async {
                    let puzzle =
                        tictactoe_core::fixtures::o_puzzle_after_x_in_the_centre(the_game());
                    Ok(crate::port::PuzzleAnswer {
                        cell: puzzle.best_moves[1],
                        puzzle,
                        answered: tictactoe_core::rules::Answered::Right,
                        fate: Some(tictactoe_core::rules::Fate::ComesBack),
                    })
                })
            });

        // Act
        let path = at("/api/players/Ada%20Lovelace/puzzles/{id}/2");
        let request = with_a_personal_token(Method::POST, &path, r#"{"cell": 9}"#);
        let (status, _, body) = through(service, signed_in_as("Ada Lovelace"), request).await;

        // Assert
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            serde_json::from_str::<Value>(&body).unwrap(),
            json!({"judged": "right", "left": "draw", "said": "Right: 9 keeps the draw.",
                   "then": "It comes back once more: solve it again another day, or after \
                            another puzzle, and it retires.",
                   "answer": null, "best_moves": [1, 9]})
        );
    }

    fn no_such_puzzle() -> GameError {
        GameError::NoSuchPuzzle {
            game: the_game(),
            ply: 2,
        }
    }

    fn cell_5_taken() -> GameError {
        let cell = tictactoe_core::domain::Geometry::classic()
            .position(4)
            .unwrap();
        GameError::NotAnAnswer(tictactoe_core::domain::IllegalMove::Occupied(cell))
    }

    #[rstest::rstest]
    #[case::no_such_puzzle(no_such_puzzle, StatusCode::NOT_FOUND)]
    #[case::a_taken_cell(cell_5_taken, StatusCode::BAD_REQUEST)]
    #[tokio::test]
    async fn the_services_refusal_of_an_answer_is_worded_with_its_status(
        #[case] refusal: fn() -> GameError,
        #[case] expected: StatusCode,
    ) {
        // Arrange
        let said = ApiError::from(refusal()).to_string();
        let mut service = service();
        service
            .expect_answer_puzzle()
            .times(1)
            .returning(move |_, _, _| Box::pin(async move { Err(refusal()) }));

        // Act
        let path = at("/api/players/Ada/puzzles/{id}/2");
        let request = with_a_personal_token(Method::POST, &path, r#"{"cell": 5}"#);
        let (status, _, body) = through(service, signed_in_as("Ada"), request).await;

        // Assert
        assert_eq!(status, expected);
        assert_eq!(
            serde_json::from_str::<Value>(&body).unwrap(),
            json!({ "error": said })
        );
    }

    #[tokio::test]
    async fn a_puzzles_board_asked_for_is_the_one_the_service_is_asked_for() {
        // Arrange
        let mut service = service();
        service
            .expect_puzzles()
            .withf(|name, board| {
                name.as_str() == "Ada"
                    && *board == Some(tictactoe_core::domain::Geometry::new(4, 3).unwrap())
            })
            .times(1)
            .returning(|_, _| {
                Box::pin(async {
                    Ok(crate::port::Training {
                        open: tictactoe_core::play::OpenPuzzles::default(),
                        short_ids: Vec::new(),
                    })
                })
            });

        // Act
        let path = "/api/players/Ada/puzzles?size=4&win=3";
        let request = with_a_personal_token(Method::GET, path, "");
        let (status, _, body) = through(service, signed_in_as("ada"), request).await;

        // Assert
        assert_eq!(status, StatusCode::OK);
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            body["notes"][0],
            "No puzzles for Ada on 4x4, 3 in a row: no game of theirs has ended here yet. Play \
             one: its slips become puzzles."
        );
    }

    // ---- Who may call what ------------------------------------------------------------

    #[rstest::rstest]
    #[case::a_list(Method::GET, "/api/players/Ada/puzzles", "")]
    #[case::an_answer(Method::POST, "/api/players/Ada/puzzles/{id}/2", r#"{"cell": 5}"#)]
    #[tokio::test]
    async fn a_players_puzzles_are_refused_to_whoever_is_not_signed_in(
        #[case] method: Method,
        #[case] path: &str,
        #[case] body: &str,
    ) {
        // Arrange
        let mut service = service();
        service.expect_puzzles().never();
        service.expect_answer_puzzle().never();
        let mut request = Request::builder().method(method).uri(at(path));
        if !body.is_empty() {
            request = request.header(header::CONTENT_TYPE, "application/json");
        }
        let request = request.body(Body::from(body.to_owned())).unwrap();

        // Act
        let (status, _, _) = through(service, MockAccountService::new(), request).await;

        // Assert
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }

    #[rstest::rstest]
    #[case::a_list(Method::GET, "/api/players/Ada/puzzles", "")]
    #[case::an_answer(Method::POST, "/api/players/Ada/puzzles/{id}/2", r#"{"cell": 5}"#)]
    #[tokio::test]
    async fn a_players_puzzles_are_refused_to_another_account(
        #[case] method: Method,
        #[case] path: &str,
        #[case] body: &str,
    ) {
        // Arrange
        let mut service = service();
        service.expect_puzzles().never();
        service.expect_answer_puzzle().never();
        let request = with_a_personal_token(method, &at(path), body);

        // Act
        let (status, _, body) = through(service, signed_in_as("Mallory"), request).await;

        // Assert
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert!(body.contains("only Ada, signed in"), "{body}");
    }

    /// A session the accounts stub opens for Ada.
    fn adas_session() -> crate::port::Session {
        crate::port::Session {
            account: PlayerName::new("Ada").unwrap(),
            secret: Token::random(),
            expires: std::time::SystemTime::now() + Duration::from_secs(3600),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_body_past_its_deadline_is_a_408_in_the_servers_json_and_closes_the_connection() {
        // Arrange: tower-http's deadline, as each connection puts it on its requests'
        // bodies (`server::serve_connection`), on a body that never comes.
        let never =
            Body::from_stream(futures_util::stream::pending::<Result<Bytes, std::io::Error>>());
        let deadline = Limits::default().body_deadline;
        let request = Request::post("/api/accounts")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::new(DeadlineBody::new(deadline, never)))
            .unwrap();
        let mut accounts = MockAccountService::new();
        accounts.expect_sign_up().never();

        // Act
        let (status, headers, body) = through(service(), accounts, request).await;

        // Assert
        assert_eq!(status, StatusCode::REQUEST_TIMEOUT);
        assert_eq!(headers[header::CONNECTION], "close");
        assert_eq!(
            body,
            r#"{"error":"the request body did not arrive within 10 s"}"#
        );
    }

    fn post_json(path: &str, body: &str) -> Request<Body> {
        Request::post(path)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_owned()))
            .unwrap()
    }

    #[tokio::test]
    async fn a_sign_up_is_answered_201_with_a_session_cookie_scripts_cannot_read() {
        // Arrange
        let mut accounts = MockAccountService::new();
        accounts
            .expect_sign_up()
            .withf(|asked, _| asked.name.as_str() == "Ada")
            .times(1)
            .returning(|_, _| Box::pin(async { Ok(adas_session()) }));
        let request = post_json(
            "/api/accounts",
            r#"{"name":"Ada","password":"correct horse"}"#,
        );

        // Act
        let (status, headers, body) = through(service(), accounts, request).await;

        // Assert
        assert_eq!(status, StatusCode::CREATED);
        assert_eq!(body, r#"{"name":"Ada"}"#);
        let cookie = headers[header::SET_COOKIE].to_str().unwrap();
        assert!(cookie.starts_with("session="), "{cookie}");
        assert!(cookie.contains("; Path=/;"), "{cookie}");
        assert!(cookie.ends_with("; HttpOnly; SameSite=Lax"), "{cookie}");
    }

    #[tokio::test]
    async fn a_password_under_8_characters_is_refused_400_before_any_hash() {
        let mut accounts = MockAccountService::new();
        accounts.expect_sign_up().never();
        let request = post_json("/api/accounts", r#"{"name":"Ada","password":"short"}"#);

        let (status, _, body) = through(service(), accounts, request).await;

        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(
            body,
            r#"{"error":"a password needs at least 8 characters"}"#
        );
    }

    #[tokio::test]
    async fn a_name_that_is_taken_is_a_conflict_naming_its_account() {
        let mut accounts = MockAccountService::new();
        accounts.expect_sign_up().returning(|_, _| {
            Box::pin(async {
                Err(AccountError::Taken {
                    by: PlayerName::new("Ada").unwrap(),
                })
            })
        });
        let request = post_json(
            "/api/accounts",
            r#"{"name":"Аda","password":"correct horse"}"#,
        );

        let (status, _, body) = through(service(), accounts, request).await;

        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(
            body,
            r#"{"error":"Ada is taken: choose a name that reads differently"}"#
        );
    }

    #[rstest::rstest]
    #[case::a_wrong_password(r#"{"name":"Ada","password":"wrong horse"}"#)]
    #[case::a_password_nobody_can_have(r#"{"name":"Ada","password":"short"}"#)]
    #[case::a_name_nobody_can_have(r#"{"name":"Computer","password":"wrong horse"}"#)]
    #[tokio::test]
    async fn a_wrong_pair_is_refused_401_in_the_same_words_whatever_was_wrong(#[case] body: &str) {
        let mut accounts = MockAccountService::new();
        accounts
            .expect_sign_in()
            .returning(|_, _| Box::pin(async { Err(AccountError::WrongPair) }));

        let (status, _, body) = through(service(), accounts, post_json("/api/session", body)).await;

        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(body, r#"{"error":"wrong name or password"}"#);
    }

    #[tokio::test]
    async fn too_many_tries_are_refused_429_saying_when_to_come_back() {
        let mut accounts = MockAccountService::new();
        accounts.expect_sign_in().returning(|_, _| {
            Box::pin(async { Err(AccountError::Throttled(Duration::from_millis(41_200))) })
        });
        let request = post_json("/api/session", r#"{"name":"Ada","password":"guess 1234"}"#);

        let (status, headers, body) = through(service(), accounts, request).await;

        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(headers[header::RETRY_AFTER], "42");
        assert_eq!(body, r#"{"error":"too many tries: try again in 42 s"}"#);
    }

    #[tokio::test]
    async fn who_is_signed_in_is_refused_401_without_a_session() {
        let request = Request::get("/api/session").body(Body::empty()).unwrap();

        let (status, _, _) = through(service(), MockAccountService::new(), request).await;

        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }

    #[tokio::test]
    async fn signing_out_ends_the_session_the_cookie_names_and_forgets_the_cookie() {
        // Arrange
        let session = Token::random();
        let expected = session.clone();
        let mut accounts = MockAccountService::new();
        accounts
            .expect_sign_out()
            .withf(move |ended| ended.matches(&expected))
            .times(1)
            .returning(|_| Box::pin(async { Ok(()) }));
        let request = Request::delete("/api/session")
            .header(header::COOKIE, format!("session={}", session.to_hex()))
            .body(Body::empty())
            .unwrap();

        // Act
        let (status, headers, _) = through(service(), accounts, request).await;

        // Assert
        assert_eq!(status, StatusCode::NO_CONTENT);
        let cookie = headers[header::SET_COOKIE].to_str().unwrap();
        assert!(
            cookie.starts_with("session=;") && cookie.contains("Max-Age=0"),
            "{cookie}"
        );
    }

    #[rstest::rstest]
    #[case::make(Method::POST, "/api/tokens", "{}")]
    #[case::list(Method::GET, "/api/tokens", "")]
    #[case::revoke(Method::DELETE, "/api/tokens/0123456789abcdef", "")]
    #[tokio::test]
    async fn personal_tokens_are_refused_401_without_an_account(
        #[case] method: Method,
        #[case] path: &str,
        #[case] body: &str,
    ) {
        let mut request = Request::builder().method(method).uri(path);
        if !body.is_empty() {
            request = request.header(header::CONTENT_TYPE, "application/json");
        }
        let request = request.body(Body::from(body.to_owned())).unwrap();

        let (status, _, _) = through(service(), MockAccountService::new(), request).await;

        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }

    #[tokio::test]
    async fn a_token_the_account_does_not_have_is_not_found() {
        let mut accounts = signed_in_as("Ada");
        accounts
            .expect_revoke_token()
            .returning(|_, _| Box::pin(async { Ok(false) }));
        let request = with_a_personal_token(Method::DELETE, "/api/tokens/0123456789abcdef", "");

        let (status, _, _) = through(service(), accounts, request).await;

        assert_eq!(status, StatusCode::NOT_FOUND);
    }

    #[tokio::test]
    async fn a_new_guest_seat_is_given_its_cookie_for_its_games_requests_only() {
        // Arrange: the service gives the caller X's seat, a guest's.
        let secret = Token::random();
        let given = secret.clone();
        let mut service = service();
        service.expect_create().returning(move |_, _, _| {
            let secret = given.clone();
            Box::pin(async move {
                Ok(Created {
                    game: a_view(),
                    tokens: [Some(secret), None],
                    invite: None,
                })
            })
        });
        let request = post_json("/api/games", r#"{"x":"human:Ada","o":"impossible"}"#);

        // Act
        let (status, headers, body) = through(service, MockAccountService::new(), request).await;

        // Assert
        assert_eq!(status, StatusCode::CREATED);
        let cookie = headers[header::SET_COOKIE].to_str().unwrap();
        assert!(
            cookie.starts_with(&format!("seat_x={};", secret.to_hex())),
            "{cookie}"
        );
        assert!(cookie.contains(&at("; Path=/api/games/{id};")), "{cookie}");
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(body["seats"]["x"]["url"], at("/games/{id}"));
    }
}
