//! The page, built into the binary: no CDN, no build step. Each asset is served at a
//! fixed path with its type; scripts and styles are separate files, so the
//! Content-Security-Policy can forbid inline script.
//!
//! The pages share one frame (`assets/frame.html`: the head, the icon, the style and
//! the top bar), written once; each page's file is its `<main>`, put in the frame with
//! its title and scripts the first time it is served.

use std::sync::LazyLock;

use axum::http::header;
use axum::response::IntoResponse;

const FRAME: &str = include_str!("assets/frame.html");

static INDEX: LazyLock<String> = LazyLock::new(|| {
    page(
        "Tic Tac Toe",
        &["session.js", "rating-words.js", "replay.js", "app.js"],
        include_str!("assets/index.html"),
    )
});
static SCORES: LazyLock<String> = LazyLock::new(|| {
    page(
        "Scores · Tic Tac Toe",
        &["session.js", "rating-words.js", "scores.js"],
        include_str!("assets/scores.html"),
    )
});
static RATINGS: LazyLock<String> = LazyLock::new(|| {
    page(
        "Ratings · Tic Tac Toe",
        &["session.js", "rating-words.js", "ratings.js"],
        include_str!("assets/ratings.html"),
    )
});
static PLAYERS: LazyLock<String> = LazyLock::new(|| {
    page(
        "Player · Tic Tac Toe",
        &["session.js", "rating-words.js", "players.js"],
        include_str!("assets/players.html"),
    )
});
static TRAIN: LazyLock<String> = LazyLock::new(|| {
    page(
        "Training · Tic Tac Toe",
        &["session.js", "train.js"],
        include_str!("assets/train.html"),
    )
});
static ACCOUNT: LazyLock<String> = LazyLock::new(|| {
    page(
        "Account · Tic Tac Toe",
        &["session.js", "account.js"],
        include_str!("assets/account.html"),
    )
});
/// The page a browser gets for a refusal: `{title}`, `{message}` and `{status}` are
/// filled in for each (`ApiError::for_client`).
pub static REFUSAL: LazyLock<String> = LazyLock::new(|| {
    page(
        "{title} · Tic Tac Toe",
        &[],
        include_str!("assets/refusal.html"),
    )
});
const APP_JS: &str = include_str!("assets/app.js");
const SCORES_JS: &str = include_str!("assets/scores.js");
const RATING_WORDS_JS: &str = include_str!("assets/rating-words.js");
const RATINGS_JS: &str = include_str!("assets/ratings.js");
const PLAYERS_JS: &str = include_str!("assets/players.js");
const TRAIN_JS: &str = include_str!("assets/train.js");
const ACCOUNT_JS: &str = include_str!("assets/account.js");
const SESSION_JS: &str = include_str!("assets/session.js");
const REPLAY_JS: &str = include_str!("assets/replay.js");
const STYLE: &str = include_str!("assets/style.css");
const ICON: &str = include_str!("assets/icon.svg");

/// No inline script or style, nothing from elsewhere, never framed.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; \
     form-action 'none'; frame-ancestors 'none'";

/// Every browser feature the page never uses, turned off for it and anything it could
/// ever load (only features Chromium knows, so that none is a warning in its console).
/// Not the clipboard: "Copy invite link" writes to it.
pub const PERMISSIONS_POLICY: &str = "accelerometer=(), autoplay=(), camera=(), \
     display-capture=(), encrypted-media=(), fullscreen=(), geolocation=(), gyroscope=(), \
     hid=(), idle-detection=(), magnetometer=(), microphone=(), midi=(), payment=(), \
     picture-in-picture=(), publickey-credentials-get=(), screen-wake-lock=(), serial=(), \
     usb=(), xr-spatial-tracking=()";

/// The frame around `main`, titled `title`, loading `scripts` (from `/assets/`, in
/// order, deferred).
fn page(title: &str, scripts: &[&str], main: &str) -> String {
    let scripts: String = scripts
        .iter()
        .map(|script| format!("  <script src=\"/assets/{script}\" defer></script>\n"))
        .collect();
    FRAME
        .replace("{title}", title)
        .replace("{scripts}", &scripts)
        .replace("{main}", main)
}

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
    asset("text/html; charset=utf-8", INDEX.as_str())
}

pub async fn scores() -> impl IntoResponse {
    asset("text/html; charset=utf-8", SCORES.as_str())
}

/// A board's ratings, `/ratings?size=N&win=K`: the script reads the board from the
/// address.
pub async fn ratings() -> impl IntoResponse {
    asset("text/html; charset=utf-8", RATINGS.as_str())
}

/// How every page writes a rating and its change.
pub async fn rating_words_js() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", RATING_WORDS_JS)
}

pub async fn ratings_js() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", RATINGS_JS)
}

/// A player's page, `/players/{name}`: the script reads the name from the address.
pub async fn players() -> impl IntoResponse {
    asset("text/html; charset=utf-8", PLAYERS.as_str())
}

/// The training page, `/train`: the signed-in account's puzzles.
pub async fn train() -> impl IntoResponse {
    asset("text/html; charset=utf-8", TRAIN.as_str())
}

/// The account page, `/account` (or `/account?next=PATH`, where signing in leads back
/// to): signing up, in and out, and the personal tokens.
pub async fn account() -> impl IntoResponse {
    asset("text/html; charset=utf-8", ACCOUNT.as_str())
}

pub async fn account_js() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", ACCOUNT_JS)
}

/// Who is signed in, asked once by every page, and the header's link.
pub async fn session_js() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", SESSION_JS)
}

pub async fn train_js() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", TRAIN_JS)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[rstest::rstest]
    #[case::the_game(&INDEX, "<title>Tic Tac Toe</title>", "app.js")]
    #[case::the_scores(&SCORES, "<title>Scores · Tic Tac Toe</title>", "scores.js")]
    #[case::the_ratings(&RATINGS, "<title>Ratings · Tic Tac Toe</title>", "ratings.js")]
    #[case::a_player(&PLAYERS, "<title>Player · Tic Tac Toe</title>", "players.js")]
    #[case::training(&TRAIN, "<title>Training · Tic Tac Toe</title>", "train.js")]
    #[case::the_account(&ACCOUNT, "<title>Account · Tic Tac Toe</title>", "account.js")]
    fn each_page_is_its_main_in_the_shared_frame_with_its_title_and_scripts(
        #[case] page: &LazyLock<String>,
        #[case] title: &str,
        #[case] script: &str,
    ) {
        let page = page.as_str();

        assert!(page.starts_with("<!doctype html>\n<html lang=\"en\">\n<head>\n"));
        assert!(page.contains(title), "{page}");
        assert!(page.contains(&format!(
            "<script src=\"/assets/{script}\" defer></script>\n</head>"
        )));
        assert!(page.contains("</header>\n  <main>"), "{page}");
        assert!(page.ends_with("  </main>\n</body>\n</html>\n"), "{page}");
        assert!(!page.contains("{scripts}") && !page.contains("{main}"));
        assert!(
            page.contains("<script src=\"/assets/session.js\" defer></script>\n  <script"),
            "the header's account link is filled in first: {page}"
        );
    }
}
