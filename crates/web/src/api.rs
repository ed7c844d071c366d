//! HTTP in, calls to [`Games`] out: extractors for the body and the seat's token, and
//! one handler per route. Statuses come from [`ApiError`] alone.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Request, State};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::response::sse::{KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

use tictactoe_json::scoreboard_json;

use super::dto::{MoveRequest, NewGame};
use super::error::ApiError;
use super::events::game_events;
use super::games::{Credentials, Games};
use super::token::Token;

type App = State<Arc<Games>>;

/// A JSON body, whatever its Content-Type says (so `curl -d` works), within the size
/// limit; anything else is a 400, or a 413 when too large.
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned> FromRequest<Arc<Games>> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, games: &Arc<Games>) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(request, games)
            .await
            .map_err(|rejection| {
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::TooLarge {
                        limit: games.limits().body_bytes,
                    }
                } else {
                    ApiError::BadRequest(rejection.body_text())
                }
            })?;
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|error| {
                ApiError::BadRequest(format!("the body is not the JSON expected: {error}"))
            })
    }
}

/// `Authorization: Bearer TOKEN`, read but not yet checked: the game comes first (an
/// unknown game is a 404 whatever the token).
impl<S: Send + Sync> FromRequestParts<S> for Credentials {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let Some(value) = parts.headers.get(header::AUTHORIZATION) else {
            return Ok(Credentials::Missing);
        };
        let token = value
            .to_str()
            .ok()
            .and_then(|text| text.strip_prefix("Bearer "))
            .and_then(|hex| Token::parse(hex.trim()));
        Ok(token.map_or(Credentials::Malformed, Credentials::Token))
    }
}

pub async fn create(
    State(games): App,
    JsonBody(request): JsonBody<NewGame>,
) -> Result<Response, ApiError> {
    let created = games.create(request).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

pub async fn game(State(games): App, Path(id): Path<String>) -> Result<Response, ApiError> {
    Ok(Json(&*games.game(&id)?).into_response())
}

pub async fn play(
    State(games): App,
    Path(id): Path<String>,
    key: Credentials,
    JsonBody(request): JsonBody<MoveRequest>,
) -> Result<Response, ApiError> {
    Ok(Json(&*games.play(&id, key, request.cell).await?).into_response())
}

pub async fn undo(
    State(games): App,
    Path(id): Path<String>,
    key: Credentials,
) -> Result<Response, ApiError> {
    Ok(Json(&*games.undo(&id, key).await?).into_response())
}

pub async fn leave(
    State(games): App,
    Path(id): Path<String>,
    key: Credentials,
) -> Result<Response, ApiError> {
    Ok(Json(&*games.leave(&id, key).await?).into_response())
}

pub async fn hint(
    State(games): App,
    Path(id): Path<String>,
    key: Credentials,
) -> Result<Response, ApiError> {
    Ok(Json(games.hint(&id, key).await?).into_response())
}

pub async fn rematch(
    State(games): App,
    Path(id): Path<String>,
    key: Credentials,
) -> Result<Response, ApiError> {
    let (created, new) = games.rematch(&id, key).await?;
    let status = if new {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(created)).into_response())
}

pub async fn events(State(games): App, Path(id): Path<String>) -> Result<Response, ApiError> {
    let watching = games.watch(&id)?;
    Ok(Sse::new(game_events(watching))
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// Exactly what `tictactoe scores --json` prints.
pub async fn scores(State(games): App) -> Result<Response, ApiError> {
    let scoreboard = games.scores().await?;
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        scoreboard_json(&scoreboard),
    )
        .into_response())
}

pub async fn not_found() -> ApiError {
    ApiError::NotFound
}
