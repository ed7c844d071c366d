//! Who a request is from, read from what it carries, and the cookies that carry it.
//!
//! * A signed-in session: the cookie [`SESSION`] (the whole site's), which the accounts
//!   turn into an account ([`AccountService::who`]); or a personal token, for scripts:
//!   `Authorization: Bearer ttt_…`.
//! * A guest's seat: the cookie [`seat_cookie`] of the game's seat (sent only with the
//!   requests of that game, by its `Path`), or a seat's token as the bearer
//!   (`Authorization: Bearer` and 32 hex digits), for scripts.
//!
//! Every cookie the server sets is `HttpOnly` (no script of the page reads it),
//! `SameSite=Lax` (another site's page cannot send it with a form's POST; the edge
//! refuses such requests anyway) and, where people reach the server over https,
//! `Secure`. No secret is ever put in an address.

use std::time::Duration;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};

use tictactoe_core::domain::{Mark, PlayerName};
use tictactoe_core::ports::{GameId, SeekId};

use super::api::App;
use super::budget::Payer;
use super::error::ApiError;
use super::port::{AccountError, Credential};
use super::shares::{Client, ClientAddress};
use super::token::{PersonalToken, Token};

/// The session's cookie.
pub const SESSION: &str = "session";

/// A guest's seek's cookie: sent with that seek's requests only (its secret then opens
/// the guest's seat in the game the seek becomes).
pub const SEEK: &str = "seek";

/// How long a guest's seat cookie is kept by the browser: long enough to come back to
/// a game the next day; the seat's secret opens nothing once the game is over but its
/// rematch.
pub const SEAT_COOKIE_LASTS: Duration = Duration::from_secs(7 * 24 * 60 * 60);

/// The cookie of the seat at `mark`: `seat_x`, `seat_o`.
pub fn seat_cookie(mark: Mark) -> &'static str {
    match mark {
        Mark::X => "seat_x",
        Mark::O => "seat_o",
    }
}

/// Who a request is from, as far as what it carried says. See the module
/// documentation.
#[derive(Debug, Clone)]
pub struct Caller {
    /// The account it is signed in as (its name as signed up).
    pub account: Option<PlayerName>,
    /// The seats' secrets it carried: its seat cookies, then a bearer seat token.
    pub secrets: Vec<Token>,
    /// Whether it carried anything at all that says who it is (a session or token
    /// that opens nothing too): what tells "who are you?" (401) from "not you" (403).
    pub presented: bool,
    /// The client it came from (its address, as `--trust-proxy` reads it).
    pub client: Client,
}

impl Caller {
    /// Who pays for this caller's costly requests (see `budget`).
    pub fn payer(&self) -> Payer {
        Payer {
            client: self.client,
            account: self.account.clone(),
        }
    }
}

/// What a request carries, read but not yet asked of the accounts.
#[derive(Debug, Clone, Default)]
pub struct Carried {
    pub session: Option<Token>,
    pub personal: Option<PersonalToken>,
    pub secrets: Vec<Token>,
    /// Something was sent that is no credential (a malformed bearer, a cookie that is
    /// not a secret).
    pub unreadable: bool,
}

impl Carried {
    /// What `headers` carry.
    pub fn of(headers: &HeaderMap) -> Carried {
        let mut carried = Carried::default();
        for (name, value) in cookies(headers) {
            let seat = name == SEEK || Mark::ALL.into_iter().any(|mark| seat_cookie(mark) == name);
            if name != SESSION && !seat {
                continue;
            }
            match Token::parse(value) {
                Some(token) if name == SESSION => carried.session = Some(token),
                Some(token) => carried.secrets.push(token),
                None => carried.unreadable = true,
            }
        }
        if let Some(value) = headers.get(header::AUTHORIZATION) {
            let credentials = value.to_str().ok().and_then(bearer).map(str::trim);
            match credentials {
                Some(text) if text.starts_with(PersonalToken::PREFIX) => {
                    match PersonalToken::parse(text) {
                        Some(token) => carried.personal = Some(token),
                        None => carried.unreadable = true,
                    }
                }
                Some(text) => match Token::parse(text) {
                    Some(token) => carried.secrets.push(token),
                    None => carried.unreadable = true,
                },
                None => carried.unreadable = true,
            }
        }
        carried
    }

    /// Whether anything was carried.
    pub fn presented(&self) -> bool {
        self.unreadable
            || self.session.is_some()
            || self.personal.is_some()
            || !self.secrets.is_empty()
    }
}

/// The credentials of `Bearer CREDENTIALS`: the scheme's name in any case, as HTTP
/// says (RFC 9110, 11.1), then white space.
pub fn bearer(header: &str) -> Option<&str> {
    let (scheme, rest) = header.trim_start().split_once([' ', '\t'])?;
    scheme.eq_ignore_ascii_case("bearer").then_some(rest)
}

/// The cookies of a request: each `name=value` of each `Cookie` header.
fn cookies(headers: &HeaderMap) -> impl Iterator<Item = (&str, &str)> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
}

/// A request's caller: the account its session or personal token is of (asked of the
/// accounts), and the seats' secrets it carries.
impl FromRequestParts<App> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, ApiError> {
        let carried = Carried::of(&parts.headers);
        let credential = match (carried.personal.clone(), carried.session.clone()) {
            (Some(token), _) => Some(Credential::Personal(token)),
            (None, Some(session)) => Some(Credential::Session(session)),
            (None, None) => None,
        };
        let account = match credential {
            Some(credential) => app.accounts.who(credential).await.map_err(ApiError::from)?,
            None => None,
        };
        Ok(Caller {
            account,
            presented: carried.presented(),
            secrets: carried.secrets,
            client: Client::of(ClientAddress::of(&parts.extensions)),
        })
    }
}

/// The session's cookie (a request's `Cookie`), if it carries one that can be a
/// session: what signing out ends.
pub fn session_of(headers: &HeaderMap) -> Option<Token> {
    Carried::of(headers).session
}

/// A `Set-Cookie` value: `name=value` for `path`, kept `lasts` (`None`: forgotten at
/// once), `HttpOnly`, `SameSite=Lax`, and `Secure` when people reach the server over
/// https.
pub fn cookie(name: &str, value: &str, path: &str, lasts: Duration, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let cookie = format!(
        "{name}={value}; Path={path}; Max-Age={}; HttpOnly; SameSite=Lax{secure}",
        lasts.as_secs()
    );
    HeaderValue::from_str(&cookie).expect("a cookie of hex digits and fixed words")
}

/// The cookie of a guest's seat at `mark` of game `id`: sent with that game's
/// requests only.
pub fn seat_cookie_for(id: &GameId, mark: Mark, secret: &Token, secure: bool) -> HeaderValue {
    cookie(
        seat_cookie(mark),
        &secret.to_hex(),
        &format!("/api/games/{id}"),
        SEAT_COOKIE_LASTS,
        secure,
    )
}

/// The cookie of a guest's seek `id`: sent with that seek's requests only.
pub fn seek_cookie_for(id: &SeekId, secret: &Token, secure: bool) -> HeaderValue {
    cookie(
        SEEK,
        &secret.to_hex(),
        &format!("/api/seeks/{id}"),
        SEAT_COOKIE_LASTS,
        secure,
    )
}

impl From<AccountError> for ApiError {
    fn from(error: AccountError) -> Self {
        ApiError::Account(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[rstest::rstest]
    #[case::as_written("Bearer abc", Some("abc"))]
    #[case::lower_case("bearer abc", Some("abc"))]
    #[case::upper_case("BEARER abc", Some("abc"))]
    #[case::a_tab("Bearer\tabc", Some("abc"))]
    #[case::another_scheme("Basic abc", None)]
    #[case::no_credentials("Bearer", None)]
    #[case::a_longer_name("Bearerx abc", None)]
    fn the_bearer_scheme_is_read_in_any_case(
        #[case] header: &str,
        #[case] credentials: Option<&str>,
    ) {
        assert_eq!(bearer(header), credentials);
    }

    fn headers(pairs: &[(header::HeaderName, String)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(name.clone(), HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    #[test]
    fn a_session_and_seat_cookies_are_read_among_other_cookies() {
        let (session, seat) = (Token::random(), Token::random());
        let cookie = format!(
            "theme=dark; session={}; seat_o={}",
            session.to_hex(),
            seat.to_hex()
        );

        let carried = Carried::of(&headers(&[(header::COOKIE, cookie)]));

        assert_eq!(carried.session.map(|s| s.to_hex()), Some(session.to_hex()));
        assert_eq!(carried.secrets.len(), 1);
        assert!(carried.secrets[0].opens(&seat.lock()));
    }

    #[test]
    fn a_bearer_personal_token_is_told_from_a_seats_token() {
        let personal = PersonalToken::random();
        let seat = Token::random();

        let as_personal = Carried::of(&headers(&[(
            header::AUTHORIZATION,
            format!("Bearer {}", personal.to_text()),
        )]));
        let as_seat = Carried::of(&headers(&[(
            header::AUTHORIZATION,
            format!("Bearer {}", seat.to_hex()),
        )]));

        assert!(as_personal.personal.is_some() && as_personal.secrets.is_empty());
        assert!(as_seat.personal.is_none() && as_seat.secrets.len() == 1);
    }

    #[rstest::rstest]
    #[case::a_bearer_that_is_no_token(header::AUTHORIZATION, "Bearer nonsense")]
    #[case::another_scheme(header::AUTHORIZATION, "Basic abc")]
    #[case::a_session_cookie_that_is_no_secret(header::COOKIE, "session=nonsense")]
    fn what_is_no_credential_is_carried_but_opens_nothing(
        #[case] name: header::HeaderName,
        #[case] value: &str,
    ) {
        let carried = Carried::of(&headers(&[(name, value.to_owned())]));

        assert!(carried.presented());
        assert!(carried.session.is_none() && carried.secrets.is_empty());
    }

    #[test]
    fn nothing_carried_is_nobody() {
        assert!(!Carried::of(&HeaderMap::new()).presented());
    }

    #[test]
    fn a_seats_cookie_is_sent_with_its_games_requests_only_and_kept_from_scripts() {
        let id = GameId::from_bits(7);

        let cookie = seat_cookie_for(&id, Mark::O, &Token::random(), true);

        let cookie = cookie.to_str().unwrap();
        assert!(cookie.starts_with("seat_o="), "{cookie}");
        assert!(
            cookie.contains(&format!("; Path=/api/games/{id};")),
            "{cookie}"
        );
        assert!(
            cookie.ends_with("; HttpOnly; SameSite=Lax; Secure"),
            "{cookie}"
        );
    }
}
