//! The accounts' routes: signing up, in and out, and a signed-in account's personal
//! tokens. HTTP in, calls to the [`AccountService`](super::super::port::AccountService)
//! out; the session travels as a cookie ([`caller`](super::super::caller)), a personal
//! token as a bearer, and each answer's words and status are `error`'s.

use std::time::SystemTime;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use tictactoe_core::domain::{Password, PlayerName};
use tictactoe_core::ports::{NewToken, TokenId, TokenInfo};

use super::super::caller::{Caller, SESSION, cookie, session_of};
use super::super::error::{ApiError, ErrorJson};
use super::super::openapi::{AccountRefusals, BodyRefusals, StoreRefusals};
use super::super::port::{MadeToken, NameAndPassword, Session};
use super::super::shares::Client;
use super::{App, JsonBody};
use tictactoe_json::time_word;

/// `POST /api/accounts` and `POST /api/session`: a name and a password.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CredentialsJson {
    /// The account's name: 1 to 40 visible characters, none of them control or
    /// formatting characters, not starting with "Computer".
    #[schema(pattern = r"^[^\x00-\x1f\x7f-\x9f]+$")]
    name: String,
    /// At least 8 characters, at most 256.
    #[schema(min_length = 8, max_length = 256)]
    password: String,
}

impl CredentialsJson {
    /// The name and password, checked as every name and password are.
    fn checked(self) -> Result<NameAndPassword, ApiError> {
        let name = PlayerName::new(&self.name).map_err(ApiError::BadName)?;
        let password = Password::new(&self.password).map_err(ApiError::BadPassword)?;
        Ok(NameAndPassword { name, password })
    }
}

/// An account, as it is signed in.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccountJson {
    /// The account's name, as it was signed up.
    name: String,
}

/// The account signed in as `session`'s, and its cookie.
fn signed_in(app: &App, status: StatusCode, session: Session) -> Response {
    let lasts = session
        .expires
        .duration_since(SystemTime::now())
        .unwrap_or_default();
    let cookie = cookie(
        SESSION,
        &session.secret.to_hex(),
        "/",
        lasts,
        app.edge.secure_cookies,
    );
    let body = AccountJson {
        name: session.account.to_string(),
    };
    (status, [(header::SET_COOKIE, cookie)], Json(body)).into_response()
}

/// Sign up.
///
/// A new account of this name, signed in at once (a session's cookie, `HttpOnly`). A
/// name is one account's, and so is every name that looks like it; a name that has
/// games kept under it from before is the operator's to give (`tictactoe accounts
/// add`). Tries from one address are limited (429, with `Retry-After`).
#[utoipa::path(
    post, path = "/api/accounts", tag = "accounts",
    request_body = CredentialsJson,
    responses(
        (status = 201, description = "The account, signed in", body = AccountJson,
         headers(("set-cookie" = String, description = "The session's cookie"))),
        (status = 400, description = "A name the rules refuse, a password under 8 characters, or not JSON", body = ErrorJson),
        (status = 409, description = "The name, or one like it, is taken (or has kept games)", body = ErrorJson),
        AccountRefusals,
        BodyRefusals,
        StoreRefusals,
    )
)]
pub async fn sign_up(
    State(app): State<App>,
    client: Client,
    JsonBody(credentials): JsonBody<CredentialsJson>,
) -> Result<Response, ApiError> {
    let asked = credentials.checked()?;
    let session = app.accounts.sign_up(asked, client).await?;
    Ok(signed_in(&app, StatusCode::CREATED, session))
}

/// Sign in.
///
/// A session of the account whose name and password these are (a cookie, `HttpOnly`).
/// A wrong name and a wrong password are refused alike. Too many wrong passwords for
/// one name, or from one address, are refused for a while (429, with `Retry-After`):
/// then the right password is taken again.
#[utoipa::path(
    post, path = "/api/session", tag = "accounts",
    request_body = CredentialsJson,
    responses(
        (status = 200, description = "Signed in", body = AccountJson,
         headers(("set-cookie" = String, description = "The session's cookie"))),
        (status = 400, description = "Not a name or a password at all, or not JSON", body = ErrorJson),
        (status = 401, description = "No account of that name with that password", body = ErrorJson),
        AccountRefusals,
        BodyRefusals,
        StoreRefusals,
    )
)]
pub async fn sign_in(
    State(app): State<App>,
    client: Client,
    JsonBody(credentials): JsonBody<CredentialsJson>,
) -> Result<Response, ApiError> {
    let asked = credentials.checked().map_err(|_| ApiError::WrongPair)?;
    let session = app.accounts.sign_in(asked, client).await?;
    Ok(signed_in(&app, StatusCode::OK, session))
}

/// Who is signed in.
///
/// The account the session's cookie (or a personal token) is of.
#[utoipa::path(
    get, path = "/api/session", tag = "accounts",
    security(("token" = []), ("session" = [])),
    responses(
        (status = 200, description = "Signed in as this account", body = AccountJson),
        (status = 401, description = "Not signed in", body = ErrorJson),
        StoreRefusals,
    )
)]
pub async fn session(caller: Caller) -> Result<Response, ApiError> {
    let name = signed_in_as(&caller)?;
    Ok(Json(AccountJson {
        name: name.to_string(),
    })
    .into_response())
}

/// Sign out.
///
/// Ends the session on the server (on every server sharing its store), and forgets its
/// cookie. Without a session, nothing to end: the same answer.
#[utoipa::path(
    delete, path = "/api/session", tag = "accounts",
    security(("session" = []), ()),
    responses(
        (status = 204, description = "Signed out",
         headers(("set-cookie" = String, description = "The session's cookie, forgotten"))),
        StoreRefusals,
    )
)]
pub async fn sign_out(State(app): State<App>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some(session) = session_of(&headers) {
        app.accounts.sign_out(session).await?;
    }
    let forgotten = cookie(
        SESSION,
        "",
        "/",
        Default::default(),
        app.edge.secure_cookies,
    );
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, forgotten)]).into_response())
}

/// The account a request is signed in as: 401 if none.
pub(crate) fn signed_in_as(caller: &Caller) -> Result<&PlayerName, ApiError> {
    caller.account.as_ref().ok_or(ApiError::NotSignedIn)
}

/// `POST /api/tokens`: what the token is for.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    /// Words for the token ("my laptop"), at most 100 characters; none if left out.
    #[schema(max_length = 100)]
    #[serde(default)]
    label: String,
}

/// A personal token, as its account lists it (never its secret).
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenJson {
    /// Its id: 16 hex digits, by which it is revoked.
    id: String,
    label: String,
    /// When it was made: RFC 3339, UTC.
    created: String,
}

impl From<&TokenInfo> for TokenJson {
    fn from(info: &TokenInfo) -> Self {
        TokenJson {
            id: info.id.to_string(),
            label: info.label.clone(),
            created: time_word(info.created),
        }
    }
}

/// A personal token made: its secret, shown this once.
#[derive(Debug, Serialize, ToSchema)]
pub struct MadeTokenJson {
    #[serde(flatten)]
    info: TokenJson,
    /// The secret: `ttt_` and 32 hex digits, sent as `Authorization: Bearer TOKEN`.
    /// Shown once; the server keeps only its digest.
    token: String,
}

/// The account's personal tokens.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokensJson {
    /// Oldest first.
    tokens: Vec<TokenJson>,
}

/// Make a personal token.
///
/// A token for scripts and terminal clients: sent as `Authorization: Bearer TOKEN`, it
/// acts as the account (its games, its training) until revoked. Its secret is shown
/// in this answer only.
#[utoipa::path(
    post, path = "/api/tokens", tag = "accounts",
    request_body(content = TokenRequest, description = "What the token is for (optional)"),
    security(("token" = []), ("session" = [])),
    responses(
        (status = 201, description = "The token, and its secret (shown once)", body = MadeTokenJson),
        (status = 400, description = "A label over 100 characters, or not JSON", body = ErrorJson),
        (status = 401, description = "Not signed in", body = ErrorJson),
        BodyRefusals,
        StoreRefusals,
    )
)]
pub async fn add_token(
    State(app): State<App>,
    caller: Caller,
    JsonBody(request): JsonBody<TokenRequest>,
) -> Result<Response, ApiError> {
    let account = signed_in_as(&caller)?.clone();
    if request.label.chars().count() > NewToken::MAX_LABEL_CHARS {
        return Err(ApiError::BadRequest(format!(
            "a token's label has at most {} characters",
            NewToken::MAX_LABEL_CHARS
        )));
    }
    let MadeToken { info, secret } = app.accounts.add_token(account, request.label).await?;
    let made = MadeTokenJson {
        info: TokenJson::from(&info),
        token: secret.to_text(),
    };
    Ok((StatusCode::CREATED, Json(made)).into_response())
}

/// The account's personal tokens.
///
/// Each token's id, label and when it was made; never its secret.
#[utoipa::path(
    get, path = "/api/tokens", tag = "accounts",
    security(("token" = []), ("session" = [])),
    responses(
        (status = 200, description = "The tokens, oldest first", body = TokensJson),
        (status = 401, description = "Not signed in", body = ErrorJson),
        StoreRefusals,
    )
)]
pub async fn tokens(State(app): State<App>, caller: Caller) -> Result<Response, ApiError> {
    let account = signed_in_as(&caller)?.clone();
    let tokens = app.accounts.tokens(account).await?;
    Ok(Json(TokensJson {
        tokens: tokens.iter().map(TokenJson::from).collect(),
    })
    .into_response())
}

/// Revoke a personal token.
///
/// From now on it opens nothing, on every server.
#[utoipa::path(
    delete, path = "/api/tokens/{id}", tag = "accounts",
    params(("id" = String, Path, description = "The token's id: 16 hex digits")),
    security(("token" = []), ("session" = [])),
    responses(
        (status = 204, description = "Revoked"),
        (status = 401, description = "Not signed in", body = ErrorJson),
        (status = 404, description = "The account has no token of that id", body = ErrorJson),
        StoreRefusals,
    )
)]
pub async fn revoke_token(
    State(app): State<App>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let account = signed_in_as(&caller)?.clone();
    let id = TokenId::parse(&id).map_err(|_| ApiError::NoSuchToken)?;
    if !app.accounts.revoke_token(account, id).await? {
        return Err(ApiError::NoSuchToken);
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}
