//! The page, built into the binary: no CDN, no build step. Each asset is served at a
//! fixed path with its type; scripts and styles are separate files, so the
//! Content-Security-Policy can forbid inline script.
//!
//! The pages share one frame (`assets/frame.html`: the head, the icon, the style and
//! the top bar), written once; each page's file is its `<main>`, put in the frame with
//! its title and scripts the first time it is served.

use std::sync::LazyLock;

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;

const FRAME: &str = include_str!("assets/frame.html");

/// A page: the path it is served at, its title, its scripts (from `/assets/`, in order)
/// and its `<main>`.
struct Page {
    path: &'static str,
    title: &'static str,
    scripts: &'static [&'static str],
    main: &'static str,
}

/// A [`Page`] at `$path` whose `<main>` is the file `$main`, titled `$title` on the
/// site's name (the name alone without one), loading `session.js` (which fills in the
/// header's account link) and then `$script`s.
macro_rules! page {
    ($path:literal, $main:literal, [$($script:literal),*]) => {
        page!(@ $path, "Tic Tac Toe", $main, [$($script),*])
    };
    ($path:literal, $title:literal, $main:literal, [$($script:literal),*]) => {
        page!(@ $path, concat!($title, " · Tic Tac Toe"), $main, [$($script),*])
    };
    (@ $path:literal, $title:expr, $main:literal, [$($script:literal),*]) => {
        Page {
            path: $path,
            title: $title,
            scripts: &["session.js", $($script),*],
            main: include_str!(concat!("assets/", $main)),
        }
    };
}

/// The game page first (see [`index`]). A board's ratings are asked for as
/// `/ratings?size=N&win=K`, a player's page as `/players/{name}` (each script reads
/// the address); `/train` is the signed-in account's puzzles; `/account` is signing up,
/// in and out, and the personal tokens (`/account?next=PATH`: where signing in leads
/// back to); `/lobby` is finding an opponent (seeks, quick pairing), `/tv` the live game
/// of the highest-rated people who met there.
#[rustfmt::skip] // a table: one page a line
const PAGES: [Page; 8] = [
    page!("/", "index.html", ["rating-words.js", "replay.js", "app.js"]),
    page!("/scores", "Scores", "scores.html", ["rating-words.js", "scores.js"]),
    page!("/ratings", "Ratings", "ratings.html", ["rating-words.js", "ratings.js"]),
    page!("/players/{name}", "Player", "players.html", ["rating-words.js", "players.js"]),
    page!("/train", "Training", "train.html", ["train.js"]),
    page!("/account", "Account", "account.html", ["account.js"]),
    page!("/lobby", "Lobby", "lobby.html", ["rating-words.js", "lobby.js"]),
    page!("/tv", "TV", "tv.html", ["tv.js"]),
];

/// Each page in its frame, in [`PAGES`]' order: built the first time one is served.
static BUILT: LazyLock<[String; 8]> =
    LazyLock::new(|| PAGES.map(|each| page(each.title, each.scripts, each.main)));

/// The page a browser gets for a refusal: `{title}`, `{message}` and `{status}` are
/// filled in for each (`ApiError::for_client`).
pub static REFUSAL: LazyLock<String> = LazyLock::new(|| {
    page(
        "{title} · Tic Tac Toe",
        &[],
        include_str!("assets/refusal.html"),
    )
});
/// The scripts, the style and the icon, each served at `/assets/{name}` with its type.
const FILES: [(&str, &str, &str); 13] = [
    ("app.js", JS, include_str!("assets/app.js")),
    ("replay.js", JS, include_str!("assets/replay.js")),
    ("scores.js", JS, include_str!("assets/scores.js")),
    ("ratings.js", JS, include_str!("assets/ratings.js")),
    // How every page writes a rating and its change.
    (
        "rating-words.js",
        JS,
        include_str!("assets/rating-words.js"),
    ),
    ("players.js", JS, include_str!("assets/players.js")),
    ("train.js", JS, include_str!("assets/train.js")),
    ("account.js", JS, include_str!("assets/account.js")),
    ("lobby.js", JS, include_str!("assets/lobby.js")),
    ("tv.js", JS, include_str!("assets/tv.js")),
    // Who is signed in, asked once by every page, and the header's link.
    ("session.js", JS, include_str!("assets/session.js")),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("assets/style.css"),
    ),
    ("icon.svg", "image/svg+xml", include_str!("assets/icon.svg")),
];

const JS: &str = "text/javascript; charset=utf-8";
const HTML: &str = "text/html; charset=utf-8";

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
    asset(HTML, &BUILT[0])
}

/// The pages and their files, each at its path. (`/games/{id}` is the game page too,
/// served by `api` once it knows the game.)
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let pages = PAGES
        .iter()
        .enumerate()
        .fold(Router::new(), |routes, (at, each)| {
            routes.route(
                each.path,
                get(move || async move { asset(HTML, &BUILT[at]) }),
            )
        });
    FILES
        .into_iter()
        .fold(pages, |routes, (name, content_type, body)| {
            routes.route(
                &format!("/assets/{name}"),
                get(move || async move { asset(content_type, body) }),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[rstest::rstest]
    #[case::the_game("/", "<title>Tic Tac Toe</title>", "app.js")]
    #[case::the_scores("/scores", "<title>Scores · Tic Tac Toe</title>", "scores.js")]
    #[case::the_ratings("/ratings", "<title>Ratings · Tic Tac Toe</title>", "ratings.js")]
    #[case::a_player("/players/{name}", "<title>Player · Tic Tac Toe</title>", "players.js")]
    #[case::training("/train", "<title>Training · Tic Tac Toe</title>", "train.js")]
    #[case::the_account("/account", "<title>Account · Tic Tac Toe</title>", "account.js")]
    #[case::the_lobby("/lobby", "<title>Lobby · Tic Tac Toe</title>", "lobby.js")]
    #[case::tv("/tv", "<title>TV · Tic Tac Toe</title>", "tv.js")]
    fn each_page_is_its_main_in_the_shared_frame_with_its_title_and_scripts(
        #[case] path: &str,
        #[case] title: &str,
        #[case] script: &str,
    ) {
        let at = PAGES.iter().position(|each| each.path == path).unwrap();
        let page = BUILT[at].as_str();

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
