//! Every way a request can fail, and the one place that turns each into a status code.
//!
//! Handlers return `Result<_, ApiError>`; the body of a refusal is always
//! `{"error": "..."}`. Anything a client sends maps to a 4xx; a 500 means a bug in the
//! server or a computer player (or a kept game that is not one), never bad input; a
//! 503 is the server's or its store's trouble, for a while.

use std::time::Duration;

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use thiserror::Error;

use tictactoe_core::domain::{IllegalMove, Refusal};
use tictactoe_core::ports::StoreError;

#[derive(Debug, Error)]
pub enum ApiError {
    /// The body is not the JSON asked for, or a value in it is out of range.
    #[error("{0}")]
    BadRequest(String),
    #[error("this request needs a seat's token: Authorization: Bearer TOKEN")]
    NoToken,
    #[error("that token is not a seat of this game")]
    WrongToken,
    #[error("there is no such page")]
    NotFound,
    #[error("there is no such game")]
    NoSuchGame,
    /// The game refused the request (not your turn, cell taken, game over, ...).
    #[error("{0}")]
    Refused(Refusal),
    /// A request that needs the game to be over, or in progress, came at the wrong time.
    #[error("{0}")]
    Conflict(&'static str),
    #[error("the request body is larger than {limit} bytes")]
    TooLarge { limit: usize },
    /// The store could not keep (or read) the game: the store's own words, then ours.
    #[error(
        "the server could not use its store of games ({0}); nothing was changed: try again \
         in a moment"
    )]
    Store(StoreError),
    /// The game was read again several times while this request waited: others keep
    /// failing to keep it.
    #[error("the game could not be read back from the store; try again in a moment")]
    Unsettled,
    #[error("the server streams as many games live as it may; try again in {} s", retry_after.as_secs())]
    Streaming { retry_after: Duration },
    /// A bug: a computer broke the rules, or a worker thread died.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NoToken => StatusCode::UNAUTHORIZED,
            ApiError::WrongToken => StatusCode::FORBIDDEN,
            ApiError::NotFound | ApiError::NoSuchGame => StatusCode::NOT_FOUND,
            ApiError::Refused(refusal) => refusal_status(refusal),
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Streaming { .. } | ApiError::Store(_) | ApiError::Unsettled => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
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

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> Self {
        ApiError::Refused(refusal)
    }
}

#[derive(Serialize)]
struct ErrorJson {
    error: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        if status == StatusCode::INTERNAL_SERVER_ERROR || matches!(self, ApiError::Store(_)) {
            eprintln!("tictactoe serve: {self}");
        }
        let mut response = (
            status,
            Json(ErrorJson {
                error: self.to_string(),
            }),
        )
            .into_response();
        if let ApiError::Streaming { retry_after } = self {
            response.headers_mut().insert(
                header::RETRY_AFTER,
                HeaderValue::from(retry_after.as_secs()),
            );
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictactoe_core::domain::Mark;

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
        let response = ApiError::Streaming {
            retry_after: Duration::from_secs(30),
        }
        .into_response();

        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()[header::RETRY_AFTER], "30");
    }

    #[test]
    fn a_store_that_fails_is_a_503_in_the_stores_words_then_the_servers_advice() {
        let error = ApiError::Store(StoreError::Full {
            database: "/var/lib/tictactoe/games.db".into(),
        });

        assert_eq!(error.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(
            error.to_string(),
            "the server could not use its store of games (the disk holding \
             /var/lib/tictactoe/games.db is full); nothing was changed: try again in a moment"
        );
    }
}
