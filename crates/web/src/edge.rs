//! The edge's guards: what is refused for where a request comes from, or where it was
//! sent, before any handler runs.
//!
//! * Writes from another site's page ([`other_sites`]): a page elsewhere can make a
//!   visitor's browser send requests here (a form, a script's `fetch`), with whatever
//!   the browser holds for this server. Such a request is refused 403 if it would
//!   change anything. Reading is not guarded: a link from elsewhere opens a game, and
//!   another site's script cannot read an answer (no CORS is ever allowed).
//! * Requests for another address ([`this_host_only`]), once the server knows the
//!   address people use ([`PublicUrl`], `serve --public-url`): refused 421, so that a
//!   name of the attacker's that is made to point at this server (DNS rebinding) does
//!   not make the attacker's page a page of this server's, able to read its answers.
//!
//! A body's label is checked where the body is read (`api::JsonBody`: 415), and the
//! answers' headers are `error::SECURITY_HEADERS`.

use std::fmt;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tower_http::csrf::{CsrfLayer, ProtectionError};

use super::error::ApiError;

/// The address people use to reach the server (`serve --public-url`): http or https, a
/// host and a port, nothing else. With it, the server answers only requests sent to
/// that address, and knows whether people reach it over https (through a proxy that
/// speaks TLS for it), as a cookie that must say `Secure` needs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicUrl {
    https: bool,
    /// Lower case: a name, an IPv4 address, or an IPv6 address in brackets.
    host: String,
    port: u16,
}

impl PublicUrl {
    /// `https://` (or `http://`) `host`:`port`, the host as the command line checked it
    /// (a name of letters, digits, `-` and `.`; an IPv4 address; an IPv6 address in
    /// brackets), in any case.
    pub fn new(https: bool, host: &str, port: u16) -> PublicUrl {
        PublicUrl {
            https,
            host: host.to_ascii_lowercase(),
            port,
        }
    }

    /// Whether people reach the server over https.
    pub fn is_https(&self) -> bool {
        self.https
    }

    /// The origin a browser names this address by: `https://play.example`, with the
    /// port only when it is not the scheme's own (`http://192.0.2.7:8080`).
    pub fn origin(&self) -> String {
        self.to_string()
    }

    /// Whether `authority` (a request's `Host`, `host[:port]`) names this address: the
    /// host in any case, and the port this one, or left out when it is the scheme's own.
    pub fn is_named_by(&self, authority: &str) -> bool {
        let (host, port) = match authority.rsplit_once(':') {
            // `[::1]` alone ends in `]`, not in a port.
            Some((host, port)) if !port.ends_with(']') => (host, Some(port)),
            _ => (authority, None),
        };
        let port = match port {
            Some(port) => port.parse::<u16>().ok(),
            None => Some(self.scheme_port()),
        };
        host.eq_ignore_ascii_case(&self.host) && port == Some(self.port)
    }

    /// The port the scheme is served on unless a URL says otherwise.
    fn scheme_port(&self) -> u16 {
        if self.https { 443 } else { 80 }
    }
}

impl fmt::Display for PublicUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scheme = if self.https { "https" } else { "http" };
        write!(f, "{scheme}://{}", self.host)?;
        if self.port != self.scheme_port() {
            write!(f, ":{}", self.port)?;
        }
        Ok(())
    }
}

/// How a refusal of the guard against other sites is made.
type Refuse = fn(ProtectionError) -> Response;

/// The guard against writes from other sites' pages: tower-http's `CsrfLayer` (the
/// cross-origin protection of Go 1.25's `net/http`, ported), not one of our own. A
/// request that may change something (any method but GET, HEAD and OPTIONS) passes
/// when the browser says it comes from this server's own page (`Sec-Fetch-Site:
/// same-origin`) or from the person themselves (`none`: typed, a bookmark); any other
/// `Sec-Fetch-Site` is refused. A browser too old to send that header is judged by its
/// `Origin`: refused unless it names the host the request was sent to (`Host`, http or
/// https alike) or is `public`'s origin; `Origin: null` (a sandboxed frame, a redirect
/// from elsewhere, a file) is another site. A request with neither header passes: it
/// is not a browser's (curl, a script, the load generator), and carries no visitor's
/// credentials.
///
/// `same-site` is refused too: it is a page of another origin on the same site (another
/// subdomain, or another port of this host), which this server's pages never are; one
/// such page taken over (an old subdomain, a user's page) must not be able to act for
/// this server's visitors.
pub fn other_sites(public: Option<&PublicUrl>) -> CsrfLayer<Refuse> {
    let guard = match public {
        Some(public) => CsrfLayer::new()
            .add_trusted_origin(public.origin())
            .expect("a public URL's origin (http or https, an ASCII host) is an origin"),
        None => CsrfLayer::new(),
    };
    guard.with_rejection_response(refuse_other_site as Refuse)
}

/// The refusal of a write from another site's page, in the server's words.
fn refuse_other_site(_: ProtectionError) -> Response {
    ApiError::OtherSite.into_response()
}

/// The paths a load balancer's health checks ask for, answered whatever address they
/// were sent to: such checks name the server by its own address (an IP, a container's
/// name), and these answers change nothing and tell nothing but whether it serves.
const PROBES: [&str; 2] = ["/healthz", "/readyz"];

/// The guard against requests for another address: a request whose `Host` (or
/// absolute address) does not name `public` is refused 421 Misdirected Request (RFC
/// 9110, 15.5.20: this server does not answer for that address; a 400 would blame the
/// request's form, which is fine), but for the health checks ([`PROBES`]). Without it,
/// a page on a name the attacker controls, made to point at this server (DNS
/// rebinding), would be a page of this server's in the browser's eyes, and could read
/// its answers.
pub async fn this_host_only(
    State(public): State<Arc<PublicUrl>>,
    request: Request,
    next: Next,
) -> Response {
    let named = match request.uri().authority() {
        Some(authority) => Some(authority.as_str()),
        None => request
            .headers()
            .get(header::HOST)
            .and_then(|host| host.to_str().ok()),
    };
    if PROBES.contains(&request.uri().path()) || named.is_some_and(|n| public.is_named_by(n)) {
        return next.run(request).await;
    }
    ApiError::OtherHost {
        public: public.origin(),
    }
    .into_response()
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    #[rstest]
    #[case::https_on_its_own_port(
        PublicUrl::new(true, "Play.Example", 443),
        "https://play.example"
    )]
    #[case::http_on_its_own_port(PublicUrl::new(false, "play.example", 80), "http://play.example")]
    #[case::another_port(PublicUrl::new(false, "192.0.2.7", 8080), "http://192.0.2.7:8080")]
    #[case::an_ipv6_address(
        PublicUrl::new(true, "[2001:DB8::1]", 8443),
        "https://[2001:db8::1]:8443"
    )]
    fn the_origin_names_the_port_only_when_it_is_not_the_schemes_own(
        #[case] public: PublicUrl,
        #[case] origin: &str,
    ) {
        assert_eq!(public.origin(), origin);
    }

    #[rstest]
    #[case::as_given("play.example", true)]
    #[case::in_any_case("PLAY.example", true)]
    #[case::with_the_schemes_own_port("play.example:443", true)]
    #[case::another_port("play.example:8443", false)]
    #[case::another_host("evil.example", false)]
    #[case::a_longer_name("play.example.evil.example", false)]
    #[case::not_a_port("play.example:https", false)]
    #[case::nothing("", false)]
    fn a_host_names_the_public_address_when_host_and_port_are_its_own(
        #[case] authority: &str,
        #[case] named: bool,
    ) {
        let public = PublicUrl::new(true, "play.example", 443);

        assert_eq!(public.is_named_by(authority), named);
    }

    #[rstest]
    #[case::with_its_port("[2001:db8::1]:8443", true)]
    #[case::without_its_port("[2001:db8::1]", false)]
    #[case::another_address("[2001:db8::2]:8443", false)]
    fn an_ipv6_host_is_named_with_its_brackets(#[case] authority: &str, #[case] named: bool) {
        let public = PublicUrl::new(true, "[2001:db8::1]", 8443);

        assert_eq!(public.is_named_by(authority), named);
    }

    #[test]
    fn https_is_said_for_an_https_address_only() {
        assert!(PublicUrl::new(true, "play.example", 443).is_https());
        assert!(!PublicUrl::new(false, "play.example", 80).is_https());
    }
}
