//! The page, built into the binary: no CDN, no build step. Each asset is served at a
//! fixed path with its type; scripts and styles are separate files, so the
//! Content-Security-Policy can forbid inline script.

use axum::http::header;
use axum::response::IntoResponse;

const INDEX: &str = include_str!("assets/index.html");
const SCORES: &str = include_str!("assets/scores.html");
const PLAYERS: &str = include_str!("assets/players.html");
const APP_JS: &str = include_str!("assets/app.js");
const SCORES_JS: &str = include_str!("assets/scores.js");
const PLAYERS_JS: &str = include_str!("assets/players.js");
const REPLAY_JS: &str = include_str!("assets/replay.js");
const STYLE: &str = include_str!("assets/style.css");
const ICON: &str = include_str!("assets/icon.svg");

/// No inline script or style, nothing from elsewhere, never framed.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; \
     form-action 'none'; frame-ancestors 'none'";

fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}

/// The game page: new game form, or a game when the path is `/games/{id}` (a finished
/// game's replay and review with it).
pub async fn index() -> impl IntoResponse {
    asset("text/html; charset=utf-8", INDEX)
}

pub async fn scores() -> impl IntoResponse {
    asset("text/html; charset=utf-8", SCORES)
}

/// A player's page, `/players/{name}`: the script reads the name from the address.
pub async fn players() -> impl IntoResponse {
    asset("text/html; charset=utf-8", PLAYERS)
}

pub async fn players_js() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", PLAYERS_JS)
}

pub async fn replay_js() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", REPLAY_JS)
}

pub async fn app_js() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", APP_JS)
}

pub async fn scores_js() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", SCORES_JS)
}

pub async fn style() -> impl IntoResponse {
    asset("text/css; charset=utf-8", STYLE)
}

pub async fn icon() -> impl IntoResponse {
    asset("image/svg+xml", ICON)
}
