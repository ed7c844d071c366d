//! The edge's guards: what is refused for where a request comes from, before any
//! handler runs.
//!
//! * Writes from another site's page ([`other_sites`]): a page elsewhere can make a
//!   visitor's browser send requests here (a form, a script's `fetch`), with whatever
//!   the browser holds for this server. Such a request is refused 403 if it would
//!   change anything. Reading is not guarded: a link from elsewhere opens a game, and
//!   another site's script cannot read an answer (no CORS is ever allowed).
//!
//! A body's label is checked where the body is read (`api::JsonBody`: 415), and the
//! answers' headers are `error::SECURITY_HEADERS`.

use axum::response::{IntoResponse, Response};
use tower_http::csrf::{CsrfLayer, ProtectionError};

use super::error::ApiError;

/// How a refusal of the guard against other sites is made.
type Refuse = fn(ProtectionError) -> Response;

/// The guard against writes from other sites' pages: tower-http's `CsrfLayer` (the
/// cross-origin protection of Go 1.25's `net/http`, ported), not one of our own. A
/// request that may change something (any method but GET, HEAD and OPTIONS) passes
/// when the browser says it comes from this server's own page (`Sec-Fetch-Site:
/// same-origin`) or from the person themselves (`none`: typed, a bookmark); any other
/// `Sec-Fetch-Site` is refused. A browser too old to send that header is judged by its
/// `Origin`: refused unless it names the host the request was sent to (`Host`, http or
/// https alike); `Origin: null` (a sandboxed frame, a redirect from elsewhere, a file)
/// is another site. A request with neither header passes: it is not a browser's (curl,
/// a script, the load generator), and carries no visitor's credentials.
///
/// `same-site` is refused too: it is a page of another origin on the same site (another
/// subdomain, or another port of this host), which this server's pages never are; one
/// such page taken over (an old subdomain, a user's page) must not be able to act for
/// this server's visitors.
pub fn other_sites() -> CsrfLayer<Refuse> {
    CsrfLayer::new().with_rejection_response(refuse_other_site as Refuse)
}

/// The refusal of a write from another site's page, in the server's words.
fn refuse_other_site(_: ProtectionError) -> Response {
    ApiError::OtherSite.into_response()
}
