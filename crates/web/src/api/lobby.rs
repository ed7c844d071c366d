//! The lobby's routes: seeks opened, listed, followed, closed and accepted; quick
//! pairing; TV. HTTP in, calls to the [`LobbyService`](super::super::port::LobbyService)
//! out. A guest's seek travels as its cookie (`seek`, sent with that seek's requests
//! only) or its token as a bearer; once the seek is a game, asking about it gives the
//! guest their seat's cookie in that game (the same secret), so each person plays in
//! their own seat and nobody hands anybody a token.

use std::convert::Infallible;
use std::time::Duration;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::Stream;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use tictactoe_core::domain::{Geometry, TimeControl};
use tictactoe_core::ports::{GameId, SeatHolder, Seek, SeekId, SeekKind};

use super::super::caller::{Caller, seat_cookie_for, seek_cookie_for};
use super::super::dto::TimeControlJson;
use super::super::error::{ApiError, ErrorJson};
use super::super::openapi::{BodyRefusals, LobbyEventJson, SeekEventJson, StoreRefusals};
use super::super::port::{SeekAsked, SeekLooked};
use super::super::shares::Client;
use super::super::stream_places::NoPlace;
use super::super::view::{ControlJson, mark_word};
use super::{App, JsonBody, with_seats};

/// How often a seek's stream asks about it (and so shows its owner is there).
const SEEK_ASKED_EVERY: Duration = Duration::from_millis(500);

/// `POST /api/seeks` and `POST /api/pairing`: the game wished for.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeekJson {
    /// The board's size: 3 to 7 (3 if not given).
    #[schema(minimum = 3, maximum = 7)]
    pub size: Option<u64>,
    /// How many in a row win: 3 to the size (the size if not given).
    #[schema(minimum = 3, maximum = 7)]
    pub win: Option<u64>,
    /// A rated game (it needs an account); casual if not given.
    pub rated: Option<bool>,
    /// The clock every game found here has.
    pub clock: TimeControlJson,
}

impl SeekJson {
    fn asked(self, kind: SeekKind) -> Result<SeekAsked, ApiError> {
        let bad = |message: String| ApiError::BadRequest(message);
        let size = usize::try_from(self.size.unwrap_or(3)).unwrap_or(usize::MAX);
        let win = self
            .win
            .map_or(Ok(size), usize::try_from)
            .unwrap_or(usize::MAX);
        let board = Geometry::new(size, win).map_err(|error| bad(error.to_string()))?;
        let control: TimeControl = self.clock.control()?;
        Ok(SeekAsked {
            kind,
            board,
            control,
            rated: self.rated.unwrap_or(false),
        })
    }
}

/// A seek, as the lobby shows it and its owner follows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeekView {
    /// The seek's id: 32 hex digits.
    pub id: String,
    /// `lobby` (for anyone to accept) or `pool` (paired by rating).
    #[schema(pattern = "^(lobby|pool)$")]
    pub kind: &'static str,
    /// Who seeks: an account's name, or a guest's.
    pub owner: String,
    /// Whether the owner is signed in (a guest's seek is casual).
    pub account: bool,
    /// The owner's rating on the board, in whole points.
    pub rating: i64,
    #[schema(minimum = 3, maximum = 7)]
    pub size: usize,
    #[schema(minimum = 3, maximum = 7)]
    pub win: usize,
    pub clock: ControlJson,
    pub rated: bool,
    /// `open`, `taken` (a game began: `game`) or `closed`.
    #[schema(pattern = "^(open|taken|closed)$")]
    pub status: &'static str,
    /// The game it became, once taken.
    pub game: Option<String>,
    /// The owner's side in that game: `X` or `O`.
    #[schema(pattern = "^[XO]$")]
    pub mark: Option<&'static str>,
}

impl SeekView {
    pub fn of(seek: &Seek) -> Self {
        let new = &seek.seek;
        SeekView {
            id: new.id.to_string(),
            kind: match new.kind {
                SeekKind::Lobby => "lobby",
                SeekKind::Pool => "pool",
            },
            owner: new.owner.to_string(),
            account: new.holder == SeatHolder::Account,
            rating: new.rating,
            size: new.board.size(),
            win: new.board.win_length(),
            clock: ControlJson::of(new.control),
            rated: new.rated,
            status: match (&seek.taken, seek.closed) {
                (Some(_), _) => "taken",
                (None, true) => "closed",
                (None, false) => "open",
            },
            game: seek.taken.as_ref().map(|taken| taken.game.to_string()),
            mark: seek.taken.as_ref().map(|taken| mark_word(taken.mark)),
        }
    }
}

/// A seek opened: as kept, and for a guest, its token (also its cookie), which opens
/// their seat in the game it becomes.
#[derive(Debug, Serialize, ToSchema)]
pub struct OpenedJson {
    #[serde(flatten)]
    pub seek: SeekView,
    pub token: Option<String>,
}

/// A seek as a caller sees it.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeekLookedJson {
    #[serde(flatten)]
    pub seek: SeekView,
    /// Whether the seek is the caller's.
    pub yours: bool,
}

/// The lobby: its open seeks, oldest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct LobbyJson {
    pub seeks: Vec<SeekView>,
}

/// TV: the game shown.
#[derive(Debug, Serialize, ToSchema)]
pub struct TvJson {
    /// The live game of the highest-rated people who met here; `null` if none is played.
    pub game: Option<String>,
}

/// `{id}` in a path: the seek.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct SeekPath {
    /// The seek's id: 32 hex digits
    id: String,
}

fn seek_id(id: &str) -> Result<SeekId, ApiError> {
    SeekId::parse(id).map_err(|_| ApiError::NoSuchSeek)
}

/// Open a seek in the lobby.
///
/// Shown in the lobby at once, for anyone to accept; the caller's other open seek is
/// closed. Signed in, the seek is the account's (and may be rated); otherwise a
/// guest's, casual, given a token (and a cookie) that opens the guest's seat in the
/// game it becomes. The seek lasts while its owner follows it
/// (`GET /api/seeks/{id}/events`, or asks about it at least every 20 s).
#[utoipa::path(
    post, path = "/api/seeks", tag = "lobby",
    request_body = SeekJson,
    security((), ("session" = []), ("token" = [])),
    responses(
        (status = 201, description = "The seek, open", body = OpenedJson,
         headers(("set-cookie" = String, description = "A guest's seek's cookie"))),
        (status = 400, description = "A board or clock out of range, or not JSON", body = ErrorJson),
        (status = 401, description = "A rated seek without an account", body = ErrorJson),
        BodyRefusals,
        StoreRefusals,
    )
)]
pub async fn open_seek(
    State(app): State<App>,
    caller: Caller,
    JsonBody(request): JsonBody<SeekJson>,
) -> Result<Response, ApiError> {
    opened(&app, request.asked(SeekKind::Lobby)?, caller).await
}

/// Quick pairing.
///
/// Waits in the pool until paired with the waiting person of the closest rating on the
/// same board and clock (rated with rated: signed in; casual with casual: guests), the
/// allowed rating gap widening the longer either waits. Answered at once with the seek;
/// follow it (`GET /api/seeks/{id}/events`) to learn the game.
#[utoipa::path(
    post, path = "/api/pairing", tag = "lobby",
    request_body = SeekJson,
    security((), ("session" = []), ("token" = [])),
    responses(
        (status = 201, description = "The seek, waiting in the pool", body = OpenedJson,
         headers(("set-cookie" = String, description = "A guest's seek's cookie"))),
        (status = 400, description = "A board or clock out of range, or not JSON", body = ErrorJson),
        (status = 401, description = "A rated seek without an account", body = ErrorJson),
        BodyRefusals,
        StoreRefusals,
    )
)]
pub async fn pairing(
    State(app): State<App>,
    caller: Caller,
    JsonBody(request): JsonBody<SeekJson>,
) -> Result<Response, ApiError> {
    opened(&app, request.asked(SeekKind::Pool)?, caller).await
}

async fn opened(app: &App, asked: SeekAsked, caller: Caller) -> Result<Response, ApiError> {
    let opened = app.lobby.open_seek(asked, caller).await?;
    let body = OpenedJson {
        seek: SeekView::of(&opened.seek),
        token: opened.secret.as_ref().map(|secret| secret.to_hex()),
    };
    let mut response = (StatusCode::CREATED, Json(body)).into_response();
    if let Some(secret) = &opened.secret {
        let cookie = seek_cookie_for(&opened.seek.seek.id, secret, app.edge.secure_cookies);
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    Ok(response)
}

/// The lobby.
///
/// Its open seeks whose owners are still there, oldest first.
#[utoipa::path(
    get, path = "/api/lobby", tag = "lobby",
    responses(
        (status = 200, description = "The lobby's open seeks", body = LobbyJson),
        StoreRefusals,
    )
)]
pub async fn lobby(State(app): State<App>) -> Result<Json<LobbyJson>, ApiError> {
    let seeks = app.lobby.lobby().await?;
    Ok(Json(LobbyJson {
        seeks: seeks.iter().map(SeekView::of).collect(),
    }))
}

/// Follow the lobby live.
///
/// Server-sent events: an event `lobby` with the whole lobby at once (data: as
/// `GET /api/lobby` answers it), then one after each change, until the server stops.
#[utoipa::path(
    get, path = "/api/lobby/events", tag = "lobby",
    responses(
        (status = 200, description = "A stream of `lobby` events, each `data` the lobby", content_type = "text/event-stream", body = LobbyEventJson),
        (status = 429, description = "This address follows as many streams as it may (see Retry-After)", body = ErrorJson),
        (status = 503, description = "The server streams as much as it may (see Retry-After)", body = ErrorJson),
    )
)]
pub async fn lobby_events(State(app): State<App>, client: Client) -> Result<Response, ApiError> {
    let changes = app.lobby.lobby_changes().await?;
    let place = stream_place(&app, client)?;
    let stream = futures_util::stream::unfold(
        (changes, true, place),
        |(mut changes, first, mut place)| async move {
            if !first {
                tokio::select! {
                    changed = changes.changed() => changed.ok()?,
                    () = place.taken() => return None,
                }
            }
            let seeks = changes.borrow_and_update().clone();
            let json = serde_json::to_string(&LobbyJson {
                seeks: seeks.iter().map(SeekView::of).collect(),
            })
            .ok()?;
            Some((
                Ok::<_, Infallible>(Event::default().event("lobby").data(json)),
                (changes, false, place),
            ))
        },
    );
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}

fn stream_place(
    app: &App,
    client: Client,
) -> Result<super::super::stream_places::StreamPlace, ApiError> {
    app.edge.stream_places.take(client).map_err(|no| match no {
        NoPlace::Share => ApiError::StreamShare {
            most: app.edge.streams_per_client,
        },
        NoPlace::Full => ApiError::Streaming,
    })
}

/// A seek.
///
/// As it stands: open, taken (with the game it became, and its owner's side) or
/// closed. Its owner asking keeps it open; a guest owner asking once it was taken is
/// given their seat's cookie in the game.
#[utoipa::path(
    get, path = "/api/seeks/{id}", tag = "lobby",
    params(SeekPath),
    security((), ("seek" = []), ("seat" = []), ("session" = []), ("token" = [])),
    responses(
        (status = 200, description = "The seek", body = SeekLookedJson,
         headers(("set-cookie" = String, description = "A guest owner's seat's cookie, once the seek is a game"))),
        (status = 404, description = "No such seek", body = ErrorJson),
        StoreRefusals,
    )
)]
pub async fn seek(
    State(app): State<App>,
    Path(SeekPath { id }): Path<SeekPath>,
    caller: Caller,
) -> Result<Response, ApiError> {
    let looked = app.lobby.seek(seek_id(&id)?, caller).await?;
    Ok(looked_answer(&app, &looked))
}

fn looked_answer(app: &App, looked: &SeekLooked) -> Response {
    let body = SeekLookedJson {
        seek: SeekView::of(&looked.seek),
        yours: looked.yours,
    };
    let mut response = Json(body).into_response();
    if let (Some(secret), Some(taken)) = (&looked.seat_secret, &looked.seek.taken) {
        let cookie = seat_cookie_for(&taken.game, taken.mark, secret, app.edge.secure_cookies);
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}

/// Follow a seek live.
///
/// Server-sent events: an event `seek` with the seek as `GET /api/seeks/{id}` answers
/// it, then one at each change, until it is taken (its game named) or closed. Its
/// owner following it keeps it open.
#[utoipa::path(
    get, path = "/api/seeks/{id}/events", tag = "lobby",
    params(SeekPath),
    security((), ("seek" = []), ("seat" = []), ("session" = []), ("token" = [])),
    responses(
        (status = 200, description = "A stream of `seek` events, each `data` the seek", content_type = "text/event-stream", body = SeekEventJson),
        (status = 404, description = "No such seek", body = ErrorJson),
        (status = 429, description = "This address follows as many streams as it may (see Retry-After)", body = ErrorJson),
        (status = 503, description = "The server streams as much as it may, or the store cannot be used (see Retry-After)", body = ErrorJson),
    )
)]
pub async fn seek_events(
    State(app): State<App>,
    Path(SeekPath { id }): Path<SeekPath>,
    caller: Caller,
    client: Client,
) -> Result<Response, ApiError> {
    let id = seek_id(&id)?;
    let first = app.lobby.seek(id.clone(), caller.clone()).await?;
    let place = stream_place(&app, client)?;
    let stream = seek_stream(app, id, caller, first, place);
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}

fn seek_stream(
    app: App,
    id: SeekId,
    caller: Caller,
    first: SeekLooked,
    place: super::super::stream_places::StreamPlace,
) -> impl Stream<Item = Result<Event, Infallible>> {
    futures_util::stream::unfold(
        (Some(first), None::<String>, false, place),
        move |(mut next, last, done, mut place)| {
            let (app, id, caller) = (app.clone(), id.clone(), caller.clone());
            async move {
                if done {
                    return None;
                }
                loop {
                    let looked = match next.take() {
                        Some(looked) => looked,
                        None => {
                            tokio::select! {
                                () = tokio::time::sleep(SEEK_ASKED_EVERY) => {}
                                () = place.taken() => return None,
                            }
                            // The store unreachable for a moment: asked again.
                            match app.lobby.seek(id.clone(), caller.clone()).await {
                                Ok(looked) => looked,
                                Err(_) => continue,
                            }
                        }
                    };
                    let view = SeekView::of(&looked.seek);
                    let over = view.status != "open";
                    let json = serde_json::to_string(&SeekLookedJson {
                        seek: view,
                        yours: looked.yours,
                    })
                    .ok()?;
                    if last.as_deref() == Some(json.as_str()) {
                        continue;
                    }
                    let event = Event::default().event("seek").data(json.clone());
                    return Some((Ok(event), (None, Some(json), over, place)));
                }
            }
        },
    )
}

/// Close a seek.
///
/// The caller's own open seek: signed in as its account, or sending its guest's
/// cookie or token.
#[utoipa::path(
    delete, path = "/api/seeks/{id}", tag = "lobby",
    params(SeekPath),
    security(("seek" = []), ("seat" = []), ("session" = []), ("token" = [])),
    responses(
        (status = 204, description = "Closed"),
        (status = 401, description = "Nothing says who the caller is", body = ErrorJson),
        (status = 403, description = "The seek is somebody else's", body = ErrorJson),
        (status = 404, description = "No such seek", body = ErrorJson),
        (status = 409, description = "The seek was taken into a game, or closed already", body = ErrorJson),
        StoreRefusals,
    )
)]
pub async fn cancel_seek(
    State(app): State<App>,
    Path(SeekPath { id }): Path<SeekPath>,
    caller: Caller,
) -> Result<StatusCode, ApiError> {
    app.lobby.cancel_seek(seek_id(&id)?, caller).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Accept a seek.
///
/// The game begins at once between the seek's owner and the caller, sides drawn at
/// random, each in their own seat: signed in, the caller's seat is their account's;
/// otherwise a guest's, with a token (and a cookie). A rated seek needs an account.
#[utoipa::path(
    post, path = "/api/seeks/{id}/accept", tag = "lobby",
    params(SeekPath),
    security((), ("session" = []), ("token" = [])),
    responses(
        (status = 201, description = "The game, begun, with the caller's guest seat", body = super::super::dto::CreatedJson,
         headers(("set-cookie" = String, description = "The caller's guest seat's cookie"))),
        (status = 401, description = "A rated seek accepted without an account", body = ErrorJson),
        (status = 404, description = "No such seek", body = ErrorJson),
        (status = 409, description = "The seek is the caller's own, or was taken or closed", body = ErrorJson),
        StoreRefusals,
    )
)]
pub async fn accept_seek(
    State(app): State<App>,
    Path(SeekPath { id }): Path<SeekPath>,
    caller: Caller,
) -> Result<Response, ApiError> {
    let created = app.lobby.accept_seek(seek_id(&id)?, caller).await?;
    Ok(with_seats(&app, StatusCode::CREATED, &created))
}

/// TV.
///
/// The live game of the highest-rated people who met here (in the lobby, or paired);
/// `null` while none is played. Ask again once it ends.
#[utoipa::path(
    get, path = "/api/tv", tag = "lobby",
    responses(
        (status = 200, description = "The game shown", body = TvJson),
        StoreRefusals,
    )
)]
pub async fn tv(State(app): State<App>) -> Result<Json<TvJson>, ApiError> {
    let game: Option<GameId> = app.lobby.tv().await?;
    Ok(Json(TvJson {
        game: game.map(|game| game.to_string()),
    }))
}

/// `POST /api/blocks`: the person to block.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BlockJson {
    /// Their name, as people see it.
    #[schema(pattern = r"^[^\x00-\x1f\x7f-\x9f]+$")]
    pub name: String,
}

/// Whom the account blocks.
#[derive(Debug, Serialize, ToSchema)]
pub struct BlockedJson {
    /// Their names, as they were named when blocked, the first blocked first.
    pub blocked: Vec<String>,
}

/// Block somebody.
///
/// The account signed in never meets them again here: quick pairing never pairs the
/// two, and neither may accept the other's seek (whoever blocked whom).
#[utoipa::path(
    post, path = "/api/blocks", tag = "lobby",
    request_body = BlockJson,
    security(("session" = []), ("token" = [])),
    responses(
        (status = 201, description = "Blocked", body = BlockedJson),
        (status = 200, description = "Blocked already", body = BlockedJson),
        (status = 400, description = "Not a name, or one's own, or not JSON", body = ErrorJson),
        (status = 401, description = "Not signed in", body = ErrorJson),
        BodyRefusals,
        StoreRefusals,
    )
)]
pub async fn block(
    State(app): State<App>,
    caller: Caller,
    JsonBody(request): JsonBody<BlockJson>,
) -> Result<Response, ApiError> {
    let account = super::accounts::signed_in_as(&caller)?.clone();
    let whom = tictactoe_core::domain::PlayerName::new(&request.name).map_err(ApiError::BadName)?;
    if whom.key() == account.key() {
        return Err(ApiError::BadRequest("you cannot block yourself".into()));
    }
    let new = app.lobby.block(account.clone(), whom).await?;
    let status = if new {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((
        status,
        Json(blocked_json(app.lobby.blocked(account).await?)),
    )
        .into_response())
}

/// Whom one blocks.
#[utoipa::path(
    get, path = "/api/blocks", tag = "lobby",
    security(("session" = []), ("token" = [])),
    responses(
        (status = 200, description = "Whom the account blocks", body = BlockedJson),
        (status = 401, description = "Not signed in", body = ErrorJson),
        StoreRefusals,
    )
)]
pub async fn blocks(State(app): State<App>, caller: Caller) -> Result<Json<BlockedJson>, ApiError> {
    let account = super::accounts::signed_in_as(&caller)?.clone();
    Ok(Json(blocked_json(app.lobby.blocked(account).await?)))
}

/// Unblock somebody.
#[utoipa::path(
    delete, path = "/api/blocks/{name}", tag = "lobby",
    params(("name" = String, Path, description = "Their name")),
    security(("session" = []), ("token" = [])),
    responses(
        (status = 204, description = "No longer blocked"),
        (status = 401, description = "Not signed in", body = ErrorJson),
        (status = 404, description = "Not blocked, or not a name", body = ErrorJson),
        StoreRefusals,
    )
)]
pub async fn unblock(
    State(app): State<App>,
    caller: Caller,
    name: Result<Path<String>, axum::extract::rejection::PathRejection>,
) -> Result<StatusCode, ApiError> {
    let account = super::accounts::signed_in_as(&caller)?.clone();
    let whom = super::name_in_path(name)?;
    if !app.lobby.unblock(account, whom.clone()).await? {
        return Err(ApiError::NotBlocked(whom));
    }
    Ok(StatusCode::NO_CONTENT)
}

fn blocked_json(blocked: Vec<tictactoe_core::domain::PlayerName>) -> BlockedJson {
    BlockedJson {
        blocked: blocked.iter().map(ToString::to_string).collect(),
    }
}
