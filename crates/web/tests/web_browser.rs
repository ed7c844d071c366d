//! The page in a real browser: Debian's chromium driven through chromedriver (WebDriver)
//! by fantoccini. Without both programs installed these tests say they were skipped and
//! pass, unless TICTACTOE_REQUIRE_BROWSER=1 (as in CI), where a missing browser fails.
//! One browser test runs at a time: chromium is heavy for a two-core machine. Unix
//! only: the browsers are stopped with their driver's process group.
#![cfg(unix)]

#[path = "web_support/client.rs"]
mod client;
mod web_support;

use std::io::Write;
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tictactoe_core::domain::Geometry;
use tictactoe_core::ports::{Change, GameId, GameStore, Step, Write as Kept};

use tictactoe_core::memory::MemoryStore;
use tictactoe_web::{GameLimits, Limits};
use tokio::sync::{Semaphore, SemaphorePermit};
use web_support::{
    PASSWORD, Running, Server, ada_against, games_over, test_game_limits, writes_slowed_while,
};

/// How many browsers run at once: two, each with its own chromedriver, window and
/// server (a machine of two cores runs two tests at a time).
static BROWSERS: Semaphore = Semaphore::const_new(2);

/// chromedriver, with one browser window per `open`; killed when dropped.
struct Driver {
    process: Child,
    url: String,
    profiles: tempfile::TempDir,
    _turn: SemaphorePermit<'static>,
}

fn on_path(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|folder| folder.join(program))
        .find(|path| path.is_file())
}

impl Driver {
    /// `None` (after saying so) when no browser is installed and none is required.
    async fn start(test: &str) -> Option<Driver> {
        let (Some(driver), Some(_)) = (on_path("chromedriver"), on_path("chromium")) else {
            assert!(
                std::env::var("TICTACTOE_REQUIRE_BROWSER").as_deref() != Ok("1"),
                "{test}: chromium and chromedriver are required (TICTACTOE_REQUIRE_BROWSER=1) \
                 but not installed: apt-get install chromium chromium-driver"
            );
            // Straight to stderr: `eprintln!` is captured, and hidden for a passing test.
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED {test}: chromium and chromedriver are not installed \
                 (apt-get install --no-install-recommends chromium chromium-driver)"
            );
            return None;
        };
        let turn = BROWSERS
            .acquire()
            .await
            .expect("the semaphore is never closed");
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let process = Command::new(driver)
            .arg(format!("--port={port}"))
            // Its own process group, so the browsers it starts can be stopped with it.
            .process_group(0)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let url = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "chromedriver never listened"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Some(Driver {
            process,
            url,
            profiles: tempfile::TempDir::new().unwrap(),
            _turn: turn,
        })
    }

    /// A new headless browser window of `width` x `height`. Headless windows are at
    /// least 500 px wide, so a narrower one is a phone's screen, emulated.
    async fn open(&self, width: u32, height: u32) -> Client {
        let profile = tempfile::TempDir::new_in(self.profiles.path())
            .unwrap()
            .keep();
        let mut capabilities = serde_json::Map::new();
        let phone = json!({
            "deviceMetrics": { "width": width, "height": height, "pixelRatio": 1.0, "mobile": true, "touch": true }
        });
        capabilities.insert(
            "goog:chromeOptions".into(),
            json!({
                "mobileEmulation": if width < 500 { phone } else { json!({}) },
                "binary": "/usr/bin/chromium",
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu",
                    "--disable-dev-shm-usage", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--no-first-run",
                    format!("--window-size={width},{height}"),
                    format!("--user-data-dir={}", profile.display()),
                ]
            }),
        );
        ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(capabilities)
            .connect(&self.url)
            .await
            .expect("a browser session")
    }
}

/// Stops chromedriver and every browser it started, even when a test failed before
/// closing its browser.
impl Drop for Driver {
    fn drop(&mut self) {
        let group = format!("-{}", self.process.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// What a browser test holds on to while it runs: chromedriver (whose drop stops the
/// browsers: a test leaves its windows open, and they are closed with the driver when
/// it ends, passed or failed) and a server with its games in memory.
struct Scene {
    driver: Driver,
    server: Server,
}

impl Scene {
    /// What most browser tests open with: the scene (or `None` after saying the test
    /// was skipped), the server listening, and one browser window of `width` x `height`.
    async fn start(test: &str, width: u32, height: u32) -> Option<(Scene, Running, Client)> {
        let driver = Driver::start(test).await?;
        let server = Server::new();
        let running = server.listen().await;
        let browser = driver.open(width, height).await;
        Some((Scene { driver, server }, running, browser))
    }
}

/// Polls `check` until it gives a value, for up to ten seconds.
async fn eventually<T, F, Fut>(what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let started = Instant::now();
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn css(browser: &Client, selector: &str) -> Element {
    browser.find(Locator::Css(selector)).await.unwrap()
}

/// Every element `selector` finds now.
async fn all(browser: &Client, selector: &str) -> Vec<Element> {
    browser.find_all(Locator::Css(selector)).await.unwrap()
}

/// Waits until `selector` finds `count` elements; `what` names them.
async fn until_found(count: usize, browser: &Client, what: &str, selector: &str) {
    eventually(what, || async {
        let found = browser.find_all(Locator::Css(selector)).await.ok()?;
        (found.len() == count).then_some(())
    })
    .await;
}

/// Clicks the element once it is on the page.
async fn click(browser: &Client, selector: &str) {
    let element = eventually(selector, || async {
        browser.find(Locator::Css(selector)).await.ok()
    })
    .await;
    element.click().await.unwrap();
}

/// Types `keys` into the field `selector` finds.
async fn type_into(browser: &Client, selector: &str, keys: &str) {
    css(browser, selector).await.send_keys(keys).await.unwrap();
}

async fn text(browser: &Client, selector: &str) -> String {
    match browser.find(Locator::Css(selector)).await {
        Ok(element) => element.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// The attribute `name` of the element `selector` finds (`None` where it has none).
async fn attribute(browser: &Client, selector: &str, name: &str) -> Option<String> {
    css(browser, selector).await.attr(name).await.unwrap()
}

/// Whether the element `selector` finds is shown.
async fn shown(browser: &Client, selector: &str) -> bool {
    css(browser, selector).await.is_displayed().await.unwrap()
}

/// Whether the element `selector` finds is shown, `None` while the browser cannot say
/// (the page is changing): for the checks [`eventually`] repeats.
async fn shown_now(browser: &Client, selector: &str) -> Option<bool> {
    css(browser, selector).await.is_displayed().await.ok()
}

/// The text of `selector` once it has some.
async fn said(browser: &Client, selector: &str) -> String {
    eventually(&format!("{selector} to say something"), || async {
        let now = text(browser, selector).await;
        (!now.is_empty()).then_some(now)
    })
    .await
}

async fn status(browser: &Client) -> String {
    text(browser, "[role=status]").await
}

/// The text of `selector` once `done` holds for it; `what` names what is waited for.
async fn text_once(
    browser: &Client,
    what: &str,
    selector: &str,
    done: impl Fn(&str) -> bool,
) -> String {
    eventually(what, || async {
        let now = text(browser, selector).await;
        done(&now).then_some(now)
    })
    .await
}

/// The status line once `done` holds for it; `what` names what is waited for.
async fn status_once(browser: &Client, what: &str, done: impl Fn(&str) -> bool) -> String {
    text_once(browser, what, "[role=status]", done).await
}

/// Waits until the status line starts with `start`; `what` names what is waited for.
async fn until_status(browser: &Client, what: &str, start: &str) {
    status_once(browser, what, |now| now.starts_with(start)).await;
}

async fn cell_text(browser: &Client, cell: usize) -> String {
    text(browser, &format!("[data-cell=\"{cell}\"]")).await
}

/// Waits until `cell` shows `mark`.
async fn until_cell(browser: &Client, cell: usize, mark: &str) {
    eventually(&format!("cell {cell} to show {mark}"), || async {
        (cell_text(browser, cell).await == mark).then_some(())
    })
    .await;
}

/// Starts a game from the form with its defaults (you, X, against Impossible, 3x3).
async fn start_default_game(browser: &Client, running: &Running) {
    browser.goto(&running.url("/")).await.unwrap();
    click(browser, "button[type=submit]").await;
    eventually("the game page", || async {
        let url = browser.current_url().await.ok()?;
        (url.path().starts_with("/games/") && status(browser).await.starts_with("Your turn"))
            .then_some(())
    })
    .await;
}

/// Opens `path` and waits until its page is drawn: its heading, and on a game's page
/// the board's last cell, `last_cell`.
async fn open_drawn(browser: &Client, running: &Running, path: &str, last_cell: usize) {
    browser.goto(&running.url(path)).await.unwrap();
    let last = format!("[data-cell=\"{last_cell}\"]");
    eventually(&format!("{path} drawn"), || async {
        let drawn = !text(browser, "main section:not([hidden]) h1")
            .await
            .is_empty()
            && (!path.starts_with("/games/") || browser.find(Locator::Css(&last)).await.is_ok());
        drawn.then_some(())
    })
    .await;
}

/// A game of `x` (a person, X) against Bob (O), made through the API.
async fn against_bob(running: &Running, x: &str) -> Value {
    create(
        running,
        json!({ "x": format!("human:{x}"), "o": "human:Bob" }),
    )
    .await
}

/// `x` (X) beats Bob (O) on the top row, played through the API: X 1, O 4, X 2, O 5,
/// X 3.
async fn beats_bob_on_the_top_row(running: &Running, x: &str) -> Value {
    let game = against_bob(running, x).await;
    let moves = [("x", 1), ("o", 4), ("x", 2), ("o", 5), ("x", 3)];
    play_through_the_api(running, &game, &moves).await;
    game
}

/// Plays `moves` (seat, cell) in `game` through the API, as the players' own pages
/// would.
async fn play_through_the_api(running: &Running, game: &Value, moves: &[(&str, u64)]) {
    let id = game["id"].as_str().unwrap();
    let http = reqwest::Client::new();
    for &(seat, cell) in moves {
        let answer = http
            .post(running.url(&format!("/api/games/{id}/moves")))
            .bearer_auth(game["seats"][seat]["token"].as_str().unwrap())
            .json(&json!({ "cell": cell }))
            .send()
            .await
            .unwrap();
        assert!(answer.status().is_success(), "{seat} {cell}: {answer:?}");
    }
}

async fn create(running: &Running, request: Value) -> Value {
    client::json_answer(
        reqwest::Client::new()
            .post(running.url("/api/games"))
            .json(&request),
    )
    .await
}

/// `method` `path` sent by the page open in `browser`, as its own script sends a
/// request (same origin: the browser's cookies go with it, and those answered are
/// kept), with `body` as JSON: the status and the JSON answered (null if none).
async fn fetch_in(browser: &Client, method: &str, path: &str, body: Option<Value>) -> (u64, Value) {
    let script = r#"const [method, path, body, done] = arguments;
        const init = { method, headers: {} };
        if (body !== null) {
          init.headers["Content-Type"] = "application/json";
          init.body = JSON.stringify(body);
        }
        fetch(path, init)
          .then(async (response) => done([response.status, await response.json().catch(() => null)]))
          .catch((error) => done([0, String(error)]));"#;
    let args = vec![json!(method), json!(path), body.unwrap_or(Value::Null)];
    let answer = browser.execute_async(script, args).await.unwrap();
    (answer[0].as_u64().unwrap(), answer[1].clone())
}

/// Opens a page of the server in `browser`, unless it shows one: where [`fetch_in`]
/// sends from.
async fn on_the_site(browser: &Client, running: &Running) {
    let url = browser.current_url().await.unwrap();
    if !url.as_str().starts_with(&running.url("/")) {
        browser.goto(&running.url("/scores")).await.unwrap();
    }
}

/// `name` signs up in `browser`, through the API from a page of the site: the
/// session's cookie is the browser's, as if signed up on the account page.
async fn signed_up_in(browser: &Client, running: &Running, name: &str) {
    on_the_site(browser, running).await;
    let credentials = json!({ "name": name, "password": PASSWORD });
    let (status, answer) = fetch_in(browser, "POST", "/api/accounts", Some(credentials)).await;
    assert_eq!(status, 201, "{answer}");
}

/// The game `request` begun by the page in `browser`: the seats it gives are the
/// browser's (its cookies, or its account's). The answer, with the tokens the API
/// gives programs too, which the tests play with.
async fn begun_in(browser: &Client, running: &Running, request: Value) -> Value {
    on_the_site(browser, running).await;
    let (status, game) = fetch_in(browser, "POST", "/api/games", Some(request)).await;
    assert_eq!(status, 201, "{game}");
    game
}

/// The invite of `game` taken by a program, as a guest: the seat's token written into
/// the game's `seats`, as if it had been given at the start.
async fn joined_through_the_api(running: &Running, game: &mut Value) {
    let id = game["id"].as_str().unwrap().to_string();
    let code = game["invite"]["code"].as_str().unwrap().to_string();
    let joined = client::json_answer(
        reqwest::Client::new()
            .post(running.url(&format!("/api/games/{id}/join")))
            .json(&json!({ "invite": code })),
    )
    .await;
    for (seat, given) in joined["seats"].as_object().unwrap() {
        game["seats"][seat] = given.clone();
    }
}

/// The same, taken by the page in `browser` (its cookie is the browser's).
async fn joined_in(browser: &Client, running: &Running, game: &mut Value) {
    on_the_site(browser, running).await;
    let id = game["id"].as_str().unwrap().to_string();
    let code = json!({ "invite": game["invite"]["code"] });
    let (status, joined) = fetch_in(
        browser,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(code),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    for (seat, given) in joined["seats"].as_object().unwrap() {
        game["seats"][seat] = given.clone();
    }
}

/// Two people, Ada (X) and Bob (O), Bob's seat held open for an invite.
fn ada_invites_bob() -> Value {
    json!({ "x": "human:Ada", "o": "human:Bob", "invite": "o" })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_clicked_to_the_end_against_impossible_is_never_won_and_shows_its_end() {
    // Arrange
    let Some((_scene, running, browser)) =
        Scene::start("a_game_clicked_to_the_end", 1280, 900).await
    else {
        return;
    };
    start_default_game(&browser, &running).await;

    // Act: click the first empty cell whenever it is our turn, until the game ends.
    for _ in 0..5 {
        let now = status(&browser).await;
        if !now.starts_with("Your turn") {
            break;
        }
        let mut empty = None;
        for cell in 1..=9 {
            if cell_text(&browser, cell).await.is_empty() {
                empty = Some(cell);
                break;
            }
        }
        let cell = empty.expect("an empty cell while the game is on");
        click(&browser, &format!("[data-cell=\"{cell}\"]")).await;
        until_cell(&browser, cell, "X").await;
        eventually("the computer's reply or the end", || async {
            let now = status(&browser).await;
            (now.starts_with("Your turn") || now.contains("wins") || now.contains("draw"))
                .then_some(())
        })
        .await;
    }

    // Assert
    let end = status(&browser).await;
    assert!(
        end == "Computer (Impossible, O) wins!" || end == "A draw.",
        "{end}"
    );
    let winning = all(&browser, ".cell.win").await;
    assert_eq!(winning.len(), if end.contains("wins") { 3 } else { 0 });
    assert!(shown(&browser, "#rematch").await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_browsers_on_one_online_game_each_see_the_others_move_without_reloading() {
    // Arrange: Ada creates an online game in her browser; Bob opens her invite link.
    let Some(driver) = Driver::start("two_browsers").await else {
        return;
    };
    let server = Server::new();
    let running = server.listen().await;
    let ada = driver.open(1000, 800).await;
    let bob = driver.open(1000, 800).await;
    let invite = ada_invites(&ada, &running, "Bob").await;
    let invite_shown = shown(&ada, "#invite").await;
    bob.goto(&invite).await.unwrap();
    until_status(&bob, "Bob's page", "Waiting for Ada").await;
    // Ada is told that Bob has come, and the invite is put away.
    eventually("Bob's arrival on Ada's page", || async {
        (text(&ada, "#joined").await == "Bob (O) has joined.").then_some(())
    })
    .await;
    assert!(invite_shown);
    assert!(!shown(&ada, "#invite").await);

    // Act and assert: each move shows up on the other screen.
    click(&ada, "[data-cell=\"5\"]").await;
    until_cell(&bob, 5, "X").await;
    eventually("Bob's turn", || async {
        (status(&bob).await == "Your turn (O).").then_some(())
    })
    .await;
    click(&bob, "[data-cell=\"1\"]").await;
    until_cell(&ada, 1, "O").await;
    assert_eq!(status(&ada).await, "Your turn (X).");
}

/// Ada's online game, begun from the form in her browser, as a guest, with `friend` as
/// the other player's name: the invite link her page shows.
async fn ada_invites(ada: &Client, running: &Running, friend: &str) -> String {
    ada.goto(&running.url("/")).await.unwrap();
    type_into(ada, "input[name=me]", "Ada").await;
    invite_from_the_form(ada, friend).await
}

/// An online game begun from the form on the page `host` shows (the name field as it
/// is: a guest's as typed, or the account's), with `friend` as the other player's
/// name: the invite link the game's page shows.
async fn invite_from_the_form(host: &Client, friend: &str) -> String {
    click(host, "input[value=online]").await;
    type_into(host, "input[name=friend]", friend).await;
    click(host, "button[type=submit]").await;
    eventually("the invite link", || async {
        // The page may still be on its way from the form to the game: look again.
        let field = host.find(Locator::Css("#invite-link")).await.ok()?;
        let link = field.prop("value").await.ok()??;
        (!link.is_empty()).then_some(link)
    })
    .await
}

/// Ada's invite under her guess, "Bob", opened by the friend in a second window: the
/// scene (or `None` after saying the test was skipped), the server listening, Ada's and
/// the friend's windows, and the name field the friend's page asks with, filled in.
async fn the_friend_asked_their_name(
    test: &str,
) -> Option<(Scene, Running, Client, Client, Element)> {
    let driver = Driver::start(test).await?;
    let server = Server::new();
    let running = server.listen().await;
    let ada = driver.open(1000, 800).await;
    let friend = driver.open(1000, 800).await;
    let invite = ada_invites(&ada, &running, "Bob").await;
    friend.goto(&invite).await.unwrap();
    let field = eventually("the friend asked their name", || async {
        let field = friend.find(Locator::Css("#naming-name")).await.ok()?;
        let shown = field.is_displayed().await.ok()?;
        let filled = !field.prop("value").await.ok()??.is_empty();
        (shown && filled).then_some(field)
    })
    .await;
    Some((Scene { driver, server }, running, ada, friend, field))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_invited_friend_types_their_name_before_moving_and_the_host_and_scoreboard_show_it() {
    // Arrange: Ada invites her friend under her guess, "Bob"; the friend opens the link.
    let Some((_scene, running, ada, friend, field)) =
        the_friend_asked_their_name("invited_name").await
    else {
        return;
    };
    let guess = field.prop("value").await.unwrap().unwrap_or_default();

    // Act: the friend types their own name, then they play: Ada wins on the top row.
    field.clear().await.unwrap();
    field.send_keys("Cy").await.unwrap();
    click(&friend, "#naming button[type=submit]").await;
    let on_adas_page = text_once(&ada, "the name on Ada's page", "#players", |now| {
        now == "Ada (X) vs Cy (O)"
    })
    .await;
    for (page, cell, mark) in [
        (&ada, 1, "X"),
        (&friend, 4, "O"),
        (&ada, 2, "X"),
        (&friend, 5, "O"),
        (&ada, 3, "X"),
    ] {
        until_status(page, "the page's turn", "Your turn").await;
        click(page, &format!("[data-cell=\"{cell}\"]")).await;
        until_cell(page, cell, mark).await;
    }
    eventually("the end on Ada's page", || async {
        (status(&ada).await == "Ada (X) wins!").then_some(())
    })
    .await;
    let scores = client::json_answer(reqwest::Client::new().get(running.url("/api/scores"))).await;

    // Assert: asked with the host's guess; once chosen, the question is gone and the
    // name is everyone's, the scoreboard's too.
    assert_eq!(guess, "Bob");
    assert!(!shown(&friend, "#naming").await);
    assert_eq!(on_adas_page, "Ada (X) vs Cy (O)");
    assert_eq!(
        scores["players"],
        json!([
            { "name": "Ada", "wins": 1, "losses": 0, "ties": 0, "games": 1 },
            { "name": "Cy", "wins": 0, "losses": 1, "ties": 0, "games": 1 }
        ])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_the_rules_refuse_is_said_beside_the_field_and_nothing_changes() {
    // Arrange
    let Some((_scene, _running, _ada, friend, field)) =
        the_friend_asked_their_name("invited_name_refused").await
    else {
        return;
    };

    // Act: the host's own name, in other letters.
    field.clear().await.unwrap();
    field.send_keys("ADA").await.unwrap();
    click(&friend, "#naming button[type=submit]").await;
    let said = said(&friend, "#naming-error").await;

    // Assert
    assert_eq!(said, "Ada is already playing: choose another name");
    assert!(shown(&friend, "#naming").await);
    assert_eq!(text(&friend, "#players").await, "Ada (X) vs Bob (O)");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reload_keeps_the_players_seat() {
    let Some((_scene, running, browser)) = Scene::start("a_reload_keeps_the_seat", 1000, 800).await
    else {
        return;
    };
    start_default_game(&browser, &running).await;
    click(&browser, "[data-cell=\"1\"]").await;
    until_cell(&browser, 1, "X").await;
    let address = browser.current_url().await.unwrap();

    browser.refresh().await.unwrap();

    until_cell(&browser, 1, "X").await;
    until_status(&browser, "our turn again", "Your turn").await;
    let empty = if cell_text(&browser, 9).await.is_empty() {
        9
    } else {
        3
    };
    click(&browser, &format!("[data-cell=\"{empty}\"]")).await;
    until_cell(&browser, empty, "X").await;
    assert_eq!(
        address.fragment(),
        None,
        "the seat is kept by the tab, not shown in the address bar: {address}"
    );
}

/// The element with focus, and its `attribute`.
async fn focused(browser: &Client, attribute: &str) -> (Element, Option<String>) {
    let element = browser.active_element().await.unwrap();
    let value = element.attr(attribute).await.unwrap();
    (element, value)
}

/// Presses Tab until the focused element has `attribute`; returns it.
async fn tab_to(browser: &Client, attribute: &str) -> Element {
    for _ in 0..30 {
        let (element, value) = focused(browser, attribute).await;
        if value.is_some() {
            return element;
        }
        element.send_keys(&Key::Tab).await.unwrap();
    }
    panic!("Tab never reached an element with {attribute}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_can_be_started_and_played_with_the_keyboard_alone() {
    // Arrange: the form, reached and sent with the keyboard.
    let Some((_scene, running, browser)) = Scene::start("keyboard_only", 1000, 800).await else {
        return;
    };
    browser.goto(&running.url("/")).await.unwrap();
    for _ in 0..30 {
        let element = browser.active_element().await.unwrap();
        if element.text().await.unwrap_or_default() == "Start" {
            break;
        }
        element.send_keys(&Key::Tab).await.unwrap();
    }
    browser
        .active_element()
        .await
        .unwrap()
        .send_keys(&Key::Enter)
        .await
        .unwrap();
    until_status(&browser, "the game page", "Your turn").await;

    // Act: Tab onto the board, an arrow to the next cell, Enter to play there.
    let first = tab_to(&browser, "data-cell").await;
    let start = first.attr("data-cell").await.unwrap().unwrap();
    first.send_keys(&Key::Right).await.unwrap();
    let (next, cell) = focused(&browser, "data-cell").await;
    next.send_keys(&Key::Enter).await.unwrap();

    // Assert
    let cell: usize = cell.unwrap().parse().unwrap();
    assert_eq!(start, "1");
    assert_eq!(cell, 2);
    until_cell(&browser, cell, "X").await;
    let label = attribute(&browser, "[data-cell=\"2\"]", "aria-label").await;
    assert_eq!(label.as_deref(), Some("row 1, column 2, X"));
    let empty = attribute(&browser, "[data-cell=\"9\"]", "aria-label").await;
    assert!(matches!(
        empty.as_deref(),
        Some("row 3, column 3, empty" | "row 3, column 3, O")
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_with_markup_is_shown_as_text_on_the_game_and_the_scoreboard() {
    // Arrange: a finished game won by a player whose name is markup.
    let Some((_scene, running, browser)) = Scene::start("a_name_with_markup", 1000, 800).await
    else {
        return;
    };
    let name = "<img src=x onerror=alert(1)>";
    let game = beats_bob_on_the_top_row(&running, name).await;
    let id = game["id"].as_str().unwrap();

    // Act
    browser
        .goto(&running.url(&format!("/games/{id}")))
        .await
        .unwrap();
    let status = status_once(&browser, "the result", |now| now.contains("wins")).await;
    let images = all(&browser, "main img").await;
    browser.goto(&running.url("/scores")).await.unwrap();
    let first_row = text_once(&browser, "the scoreboard", "#scores tbody tr", |now| {
        !now.is_empty()
    })
    .await;

    // Assert
    assert_eq!(status, format!("{name} (X) wins!"));
    assert!(images.is_empty(), "the name became an element");
    assert!(first_row.contains(name), "{first_row}");
    assert!(all(&browser, "main img").await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_phone_width_nothing_scrolls_sideways_even_on_a_7x7_board() {
    let Some((_scene, running, browser)) = Scene::start("phone_width", 390, 844).await else {
        return;
    };
    let game = create(
        &running,
        json!({ "x": "human:Bartholomew Montgomery-Featherstonehau", "o": "easy", "size": 7, "win": 4 }),
    )
    .await;
    let fits = "return document.documentElement.scrollWidth <= window.innerWidth";

    for path in [
        "/".to_string(),
        game["seats"]["x"]["url"].as_str().unwrap().to_string(),
        "/scores".into(),
        "/ratings?size=7&win=4".into(),
        "/account".into(),
        "/train".into(),
        "/lobby".into(),
        "/tv".into(),
    ] {
        open_drawn(&browser, &running, &path, 49).await;

        let width = browser
            .execute("return window.innerWidth", vec![])
            .await
            .unwrap();
        let fit = browser.execute(fits, vec![]).await.unwrap();

        assert!(width.as_u64().unwrap() <= 390, "{width}");
        assert_eq!(fit, Value::Bool(true), "{path} scrolls sideways");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_1280_by_800_no_page_scrolls() {
    let Some((_scene, running, browser)) = Scene::start("no_scroll", 1280, 800).await else {
        return;
    };
    let overflow = "return document.documentElement.scrollHeight - window.innerHeight";
    // Ada's page as she has it after creating the game: her seat, and the invite.
    ada_invites(&browser, &running, "Bob").await;
    let creators = browser.current_url().await.unwrap().path().to_string();

    for path in [
        "/".to_string(),
        creators,
        "/scores".into(),
        "/ratings?size=7&win=4".into(),
        "/account".into(),
        "/train".into(),
        "/lobby".into(),
        "/tv".into(),
    ] {
        // Act
        open_drawn(&browser, &running, &path, 9).await;
        let over = browser.execute(overflow, vec![]).await.unwrap();

        // Assert
        assert!(over.as_i64().unwrap() <= 0, "{path} scrolls by {over} px");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_phone_width_the_scoreboards_headers_are_whole_words_in_the_consoles_vocabulary() {
    // Arrange: a player with a long name on the scoreboard.
    let Some((_scene, running, browser)) = Scene::start("scores_headers", 375, 667).await else {
        return;
    };
    let long_name = "Bartholomew Montgomery-Featherstonehau";
    beats_bob_on_the_top_row(&running, long_name).await;
    // Each header's text laid out on one line: a word broken in two takes two.
    // The headers shown (on a phone the rating's column is left out: the Ratings page has
    // them), each laid out on one line.
    let lines_of_each_header = "return [...document.querySelectorAll('#scores th')] \
        .filter(th => th.offsetParent !== null).map(th => { \
        const range = document.createRange(); range.selectNodeContents(th); \
        return [th.textContent, range.getClientRects().length]; })";

    // Act
    browser.goto(&running.url("/scores")).await.unwrap();
    eventually("the scoreboard", || async {
        let row = text(&browser, "#scores tbody tr").await;
        (!row.is_empty()).then_some(())
    })
    .await;
    let headers = browser.execute(lines_of_each_header, vec![]).await.unwrap();

    // Assert
    assert_eq!(
        headers,
        json!([
            ["#", 1],
            ["Player", 1],
            ["Wins", 1],
            ["Losses", 1],
            ["Ties", 1],
            ["Games", 1]
        ])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_address_shows_a_page_saying_so_with_a_way_back() {
    let Some((_scene, running, browser)) = Scene::start("unknown_address", 1000, 800).await else {
        return;
    };

    // Act
    browser.goto(&running.url("/no/such/page")).await.unwrap();
    let heading = text(&browser, "h1").await;
    let said = text(&browser, "main p").await;
    browser
        .find(Locator::LinkText("Start a new game"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let home = eventually("the new game form", || async {
        let url = browser.current_url().await.unwrap();
        (url.path() == "/").then_some(url)
    })
    .await;

    // Assert
    assert_eq!(heading, "Not Found");
    assert_eq!(said, "There is no such page.");
    assert_eq!(home.path(), "/");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_highlights_the_best_cells_and_undo_takes_the_moves_back() {
    let Some((_scene, running, browser)) = Scene::start("hint_and_undo", 1000, 800).await else {
        return;
    };
    start_default_game(&browser, &running).await;

    click(&browser, "#hint").await;
    let hinted = eventually("highlighted cells", || async {
        let cells = browser.find_all(Locator::Css(".cell.hint")).await.ok()?;
        (!cells.is_empty()).then_some(cells.len())
    })
    .await;
    let first = attribute(&browser, ".cell.hint", "data-cell")
        .await
        .unwrap();
    click(&browser, &format!("[data-cell=\"{first}\"]")).await;
    until_cell(&browser, first.parse().unwrap(), "X").await;
    until_status(&browser, "the reply", "Your turn").await;
    click(&browser, "#undo").await;

    until_cell(&browser, first.parse().unwrap(), "").await;
    assert!(hinted >= 1);
    assert_eq!(
        all(&browser, ".cell.x, .cell.o").await.len(),
        0,
        "the move and the reply are both taken back"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resign_asks_first_and_then_counts_the_game_as_the_resigners_loss() {
    // Arrange: a game against Impossible, one move in.
    let Some((scene, running, browser)) = Scene::start("resign", 1000, 800).await else {
        return;
    };
    start_default_game(&browser, &running).await;
    click(&browser, "[data-cell=\"5\"]").await;
    let playing = status_once(&browser, "the computer's reply", |now| {
        now.starts_with("Your turn")
    })
    .await;

    // Act: Resign once; then again, with the keyboard.
    click(&browser, "#resign").await;
    let asked = text(&browser, "#message").await;
    let still = status(&browser).await;
    css(&browser, "#resign")
        .await
        .send_keys(&Key::Enter.to_string())
        .await
        .unwrap();
    let ended = status_once(&browser, "the resignation", |now| now.contains("resigned")).await;

    // Assert
    assert!(
        asked.starts_with("Press Resign again to give up"),
        "{asked}"
    );
    assert_eq!(still, playing, "one press resigns nothing");
    assert_eq!(
        ended,
        "Player 1 (X) resigned: Computer (Impossible, O) wins."
    );
    let records: Vec<(String, u64, u64)> = scene
        .server
        .scoreboard()
        .standings()
        .iter()
        .map(|row| (row.name.to_string(), row.record.wins, row.record.losses))
        .collect();
    assert_eq!(
        records,
        [
            ("Computer (Impossible)".to_string(), 1, 0),
            ("Player 1".to_string(), 0, 1)
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_persons_move_shows_at_once_and_thinking_until_the_computer_replies() {
    // Arrange: a game against Impossible on a server whose store takes 1.5 s for each
    // write once `slow` is set (and which waits up to 5 s for it): the answer to a move,
    // and the live event, wait for it.
    let Some(driver) = Driver::start("thinking").await else {
        return;
    };
    let store = Arc::new(MemoryStore::new());
    let slow = Arc::new(AtomicBool::new(false));
    let slow_store = writes_slowed_while(&store, &slow, Duration::from_millis(1500));
    let patient = GameLimits {
        store_deadline: Duration::from_secs(5),
        ..test_game_limits()
    };
    let server = Server::of(
        games_over(Arc::new(slow_store), patient),
        store,
        Limits::default(),
    );
    let running = server.listen().await;
    let browser = driver.open(1000, 800).await;
    start_default_game(&browser, &running).await;
    slow.store(true, Ordering::SeqCst);

    // Act
    click(&browser, "[data-cell=\"1\"]").await;
    let at_once = (cell_text(&browser, 1).await, status(&browser).await);
    let replied = status_once(&browser, "the computer's reply", |now| {
        now.starts_with("Your turn")
    })
    .await;

    // Assert
    assert_eq!(
        at_once,
        (
            "X".to_string(),
            "Computer (Impossible, O) is thinking…".to_string()
        )
    );
    assert_eq!(replied, "Your turn (X).");
    let marks = all(&browser, ".cell.o").await;
    assert_eq!(marks.len(), 1, "the reply is on the board");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_is_gone_once_the_game_has_moved_on() {
    // Arrange: Ada's page in an online game with Bob, whose turn it is.
    let Some((_scene, running, browser)) = Scene::start("refusal_gone", 1000, 800).await else {
        return;
    };
    let mut game = begun_in(&browser, &running, ada_invites_bob()).await;
    joined_through_the_api(&running, &mut game).await;
    play_through_the_api(&running, &game, &[("x", 5)]).await;
    browser
        .goto(&running.url(game["seats"]["x"]["url"].as_str().unwrap()))
        .await
        .unwrap();
    until_cell(&browser, 5, "X").await;
    click(&browser, "[data-cell=\"1\"]").await;
    let refused = text(&browser, "#message").await;

    // Act: Bob moves.
    play_through_the_api(&running, &game, &[("o", 9)]).await;
    until_cell(&browser, 9, "O").await;

    // Assert
    assert_eq!(refused, "Wait for Bob (O) to move.");
    assert_eq!(status(&browser).await, "Your turn (X).");
    assert_eq!(text(&browser, "#message").await, "");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn copy_spectator_link_copies_the_plain_address_or_shows_it_selected() {
    // Arrange: a game against the computer, as its creator sees it.
    let Some((_scene, running, browser)) = Scene::start("copy_link", 1000, 800).await else {
        return;
    };
    start_default_game(&browser, &running).await;
    let address = browser.current_url().await.unwrap();

    // Act
    click(&browser, "#copy-watch").await;
    let said = said(&browser, "#message").await;

    // Assert: copied, or (where the browser refuses the clipboard) shown selected; the
    // link is the game's plain address, with no seat in it.
    let link = css(&browser, "#watch-link")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(link, address.as_str());
    assert!(!link.contains('#'), "{link}");
    match said.as_str() {
        "Spectator link copied." => {}
        "Spectator link selected: press Ctrl-C (or ⌘-C) to copy it." => {
            assert!(shown(&browser, "#watch-link").await);
        }
        other => panic!("the button said {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_puts_the_player_on_the_other_side_of_a_new_game() {
    let Some((_scene, running, browser)) = Scene::start("rematch", 1000, 800).await else {
        return;
    };
    start_default_game(&browser, &running).await;
    let first_game = browser.current_url().await.unwrap().path().to_string();
    click(&browser, "#resign").await;
    click(&browser, "#resign").await;

    click(&browser, "#rematch").await;

    let now = status_once(&browser, "our turn as O in the rematch", |now| {
        now == "Your turn (O)."
    })
    .await;
    assert_eq!(now, "Your turn (O).");
    let url = browser.current_url().await.unwrap();
    assert_ne!(url.path(), first_game);
    assert_eq!(
        url.fragment(),
        None,
        "no seat's token in the address bar: {url}"
    );
    let marks = all(&browser, ".cell.x").await;
    assert_eq!(marks.len(), 1, "the computer, now X, has opened");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_whose_server_goes_away_says_so_and_shows_the_game_as_kept_once_a_server_is_back() {
    // Arrange: Ada (X) has played 5 in a game against Bob; her page shows it.
    let Some(driver) = Driver::start("connection_lost").await else {
        return;
    };
    let server = Server::new();
    let mut running = server.listen().await;
    let port = running.address.port();
    let browser = driver.open(1000, 800).await;
    let mut game = begun_in(&browser, &running, ada_invites_bob()).await;
    joined_through_the_api(&running, &mut game).await;
    let id = game["id"].as_str().unwrap().to_string();
    play_through_the_api(&running, &game, &[("x", 5)]).await;
    let ada = game["seats"]["x"]["url"].as_str().unwrap();
    browser.goto(&running.url(ada)).await.unwrap();
    until_cell(&browser, 5, "X").await;

    // Act: the server stops.
    running.stop();
    (&mut running.finished).await.unwrap().unwrap();
    server.games.close();
    let store = std::sync::Arc::clone(&server.store);
    drop(server);
    let lost = text_once(
        &browser,
        "the page to say the connection is lost",
        "#connection",
        |now| now.starts_with("Connection lost"),
    )
    .await;
    // Meanwhile Bob's move 1 reaches the store (through another server, say).
    let step = Step {
        number: 2,
        change: Change::Move(Geometry::classic().position(0).unwrap()),
    };
    store
        .write(&[Kept::Step {
            game: GameId::parse(&id).unwrap(),
            step,
        }])
        .unwrap();
    // Act: a new server on the same port and store.
    let server = Server::over(store, test_game_limits(), Limits::default());
    let running = server.listen_on(port).await;

    // Assert: the game as kept, without a reload, and live again.
    until_cell(&browser, 1, "O").await;
    eventually("the connection back", || async {
        let shown = shown_now(&browser, "#connection").await?;
        (!shown).then_some(())
    })
    .await;
    assert!(lost.contains("Trying again"), "{lost}");
    assert_eq!(status(&browser).await, "Your turn (X).");
    play_through_the_api(&running, &game, &[("x", 9)]).await;
    until_cell(&browser, 9, "X").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_for_a_game_the_server_does_not_have_says_so_and_offers_no_move() {
    // Arrange
    let Some((_scene, running, browser)) = Scene::start("no_such_game", 1000, 800).await else {
        return;
    };

    // Act: a link to a game this server never had, with a seat's token, reloaded.
    let link = "/games/0123456789abcdef0123456789abcdef#x=00000000000000000000000000000001";
    browser.goto(&running.url(link)).await.unwrap();
    browser.refresh().await.unwrap();
    let said = status_once(&browser, "the page to say there is no such game", |now| {
        now.contains("not on this server")
    })
    .await;

    // Assert: no board, no buttons to press, no error from the page's script.
    assert!(
        said.starts_with("This game is not on this server"),
        "{said}"
    );
    assert!(all(&browser, "[data-cell]").await.is_empty());
    assert!(!shown(&browser, "#hint").await);
    assert_eq!(text(&browser, "#message").await, "");
}

/// Opens the page of finished game `id` and waits until its review is in (seven moves:
/// [`ada_beats_bobs_edge_reply`]'s game).
async fn open_reviewed(browser: &Client, running: &Running, id: &str) {
    browser
        .goto(&running.url(&format!("/games/{id}")))
        .await
        .unwrap();
    until_found(7, browser, "the review", "#review-moves li").await;
}

/// The marks on the board as the page shows them, cell 1 first ("." for empty).
async fn board_shown(browser: &Client) -> String {
    let cells = all(browser, ".cell").await;
    let mut board = String::new();
    for cell in cells {
        let mark = cell.text().await.unwrap_or_default();
        board.push_str(if mark.is_empty() { "." } else { &mark });
    }
    board
}

/// Presses `key` where the page has its focus.
async fn press(browser: &Client, key: Key) {
    let focused = browser.active_element().await.unwrap();
    focused.send_keys(&key.to_string()).await.unwrap();
}

/// Waits until the replay shows `position` ("Move 2 of 7.").
async fn until_position(browser: &Client, position: &str) {
    eventually(&format!("the replay at {position:?}"), || async {
        (text(browser, "#replay-position").await == position).then_some(())
    })
    .await;
}

/// Ada (X) and Bob (O), played through the API: X 5, O 2 (an edge reply, which loses),
/// X 1, O 9, X 7, O 4, X 3 (wins on 3-5-7).
async fn ada_beats_bobs_edge_reply(running: &Running, ada: &str) -> Value {
    let game = against_bob(running, ada).await;
    play_through_the_api(
        running,
        &game,
        &[
            ("x", 5),
            ("o", 2),
            ("x", 1),
            ("o", 9),
            ("x", 7),
            ("o", 4),
            ("x", 3),
        ],
    )
    .await;
    game
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_games_replay_steps_through_its_moves_with_the_keyboard() {
    // Arrange: a finished game's page, its review in.
    let Some((_scene, running, browser)) =
        Scene::start("replay_with_the_keyboard", 1280, 800).await
    else {
        return;
    };
    let game = ada_beats_bobs_edge_reply(&running, "Ada").await;
    let id = game["id"].as_str().unwrap();
    open_reviewed(&browser, &running, id).await;
    let at_the_end = board_shown(&browser).await;

    // Act and assert: Home, then two moves forward, one back, and End.
    press(&browser, Key::Home).await;
    until_position(&browser, "The start of the game (7 moves in all).").await;
    assert_eq!(board_shown(&browser).await, ".........");

    press(&browser, Key::Right).await;
    press(&browser, Key::Right).await;
    until_position(&browser, "Move 2 of 7.").await;
    assert_eq!(board_shown(&browser).await, ".O..X....");
    let played = attribute(&browser, ".cell.last", "data-cell").await;
    assert_eq!(
        played.as_deref(),
        Some("2"),
        "the move played is highlighted"
    );
    let reviewed = text(&browser, "#review-moves li.current").await;
    assert!(
        reviewed.starts_with("2. Bob (O) played 2: threw away the draw;")
            && reviewed.contains("kept it"),
        "{reviewed}"
    );
    assert!(reviewed.contains("a draw → a loss"), "{reviewed}");
    let moved = text(&browser, "#replay-move").await;
    assert!(moved.starts_with("2. Bob (O) played 2"), "{moved}");

    press(&browser, Key::Left).await;
    until_position(&browser, "Move 1 of 7.").await;
    assert_eq!(board_shown(&browser).await, "....X....");
    let reviewed = text(&browser, "#review-moves li.current").await;
    assert!(
        reviewed.starts_with("1. Ada (X) played 5: kept the draw"),
        "{reviewed}"
    );

    press(&browser, Key::End).await;
    until_position(&browser, "Move 7 of 7.").await;
    assert_eq!(board_shown(&browser).await, at_the_end);
    assert_eq!(at_the_end, "XOXOX.X.O");
    let line = all(&browser, ".cell.win").await;
    assert_eq!(line.len(), 3, "the winning line, at the end only");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_page_shows_the_record_by_opponent_and_its_games_open_their_replay() {
    // Arrange: Ada beats Bob, then resigns against Easy.
    let Some((_scene, running, browser)) = Scene::start("players_page", 1000, 800).await else {
        return;
    };
    let won = ada_beats_bobs_edge_reply(&running, "Ada").await;
    let resigned = create(&running, ada_against("easy")).await;
    let answer = reqwest::Client::new()
        .post(running.url(&format!(
            "/api/games/{}/resign",
            resigned["id"].as_str().unwrap()
        )))
        .bearer_auth(resigned["seats"]["x"]["token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert!(answer.status().is_success());

    // Act
    browser.goto(&running.url("/players/Ada")).await.unwrap();
    let record = text_once(&browser, "the record", "#player-status", |now| {
        now.contains("games")
    })
    .await;
    let rows = all(&browser, "#opponents tbody tr").await;
    let mut opponents = Vec::new();
    for row in rows {
        opponents.push(row.text().await.unwrap());
    }
    let links = all(&browser, "#recent a.recent-game").await;
    let mut targets = Vec::new();
    for link in &links {
        targets.push(link.attr("href").await.unwrap().unwrap_or_default());
    }
    let won_path = format!("/games/{}", won["id"].as_str().unwrap());
    let position = targets.iter().position(|href| *href == won_path).unwrap();
    links[position].click().await.unwrap();

    // Assert
    assert_eq!(record, "1 win, 1 loss, 0 ties in 2 games.");
    assert_eq!(
        opponents,
        ["Bob 1 0 0 1", "Computer (Easy) 0 1 0 1"],
        "one row per opponent, each level its own"
    );
    assert_eq!(targets.len(), 2);
    eventually("the replay of the game clicked", || async {
        let url = browser.current_url().await.ok()?;
        let replaying = shown_now(&browser, "#replay").await?;
        (url.path() == won_path && replaying && status(&browser).await == "Ada (X) wins!")
            .then_some(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_with_markup_stays_text_on_the_players_page_and_in_the_review() {
    // Arrange: a finished game won by a player whose name is markup.
    let Some((_scene, running, browser)) = Scene::start("markup_on_players_page", 1000, 800).await
    else {
        return;
    };
    let name = "<b>markup</b>";
    let game = ada_beats_bobs_edge_reply(&running, name).await;
    let id = game["id"].as_str().unwrap();

    // Act
    browser
        .goto(&running.url("/players/%3Cb%3Emarkup%3C%2Fb%3E"))
        .await
        .unwrap();
    eventually("the player's record", || async {
        let now = text(&browser, "#player-status").await;
        now.contains(" in 1 game").then_some(())
    })
    .await;
    let heading = text(&browser, "h1").await;
    let game_link = text(&browser, "#recent a").await;
    let bold_on_players_page = all(&browser, "main b").await;
    browser
        .goto(&running.url(&format!("/games/{id}")))
        .await
        .unwrap();
    let reviewed = text_once(&browser, "the review", "#review-moves li", |now| {
        !now.is_empty()
    })
    .await;
    let bold_in_review = all(&browser, "main b").await;

    // Assert
    assert_eq!(heading, name);
    assert!(
        game_link.starts_with(&format!("{name} (X) vs Bob (O)")),
        "{game_link}"
    );
    assert!(
        bold_on_players_page.is_empty(),
        "the name became an element"
    );
    assert!(
        reviewed.starts_with(&format!("1. {name} (X) played 5")),
        "{reviewed}"
    );
    assert!(bold_in_review.is_empty(), "the name became an element");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_phone_width_a_players_page_and_its_table_of_opponents_fit_without_sideways_scroll() {
    // Arrange: Bob has lost to a player with a long name.
    let Some((_scene, running, browser)) = Scene::start("players_page_phone", 390, 844).await
    else {
        return;
    };
    ada_beats_bobs_edge_reply(&running, "Bartholomew Montgomery-Featherstonehau").await;

    // Act
    browser.goto(&running.url("/players/Bob")).await.unwrap();
    until_found(1, &browser, "the table of opponents", "#opponents tbody tr").await;
    let page = browser
        .execute(
            "return document.documentElement.scrollWidth - window.innerWidth",
            vec![],
        )
        .await
        .unwrap();
    let table = browser
        .execute(
            "const wrap = document.querySelector('.table-wrap'); \
             return wrap.scrollWidth - wrap.clientWidth",
            vec![],
        )
        .await
        .unwrap();

    // Assert
    assert!(page.as_i64().unwrap() <= 0, "the page scrolls by {page} px");
    assert!(
        table.as_i64().unwrap() <= 0,
        "the table scrolls by {table} px"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visitor_opening_a_finished_game_with_a_rematch_stays_on_its_replay_with_a_link_on() {
    // Arrange: a finished game whose players went on to a rematch.
    let Some((_scene, running, browser)) =
        Scene::start("replay_of_a_rematched_game", 1000, 800).await
    else {
        return;
    };
    let game = ada_beats_bobs_edge_reply(&running, "Ada").await;
    let id = game["id"].as_str().unwrap();
    let rematch = client::json_answer(
        reqwest::Client::new()
            .post(running.url(&format!("/api/games/{id}/rematch")))
            .bearer_auth(game["seats"]["x"]["token"].as_str().unwrap()),
    )
    .await;

    // Act: a visitor without a seat (from a player's page, say) opens the game.
    browser
        .goto(&running.url(&format!("/games/{id}")))
        .await
        .unwrap();
    let link = eventually("the link to the rematch", || async {
        let shown = shown_now(&browser, "#replay-rematch").await?;
        let href = css(&browser, "#replay-rematch-link")
            .await
            .attr("href")
            .await
            .ok()??;
        shown.then_some(href)
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let address = browser.current_url().await.unwrap();

    // Assert
    assert_eq!(
        address.path(),
        format!("/games/{id}"),
        "still on the replay"
    );
    assert_eq!(link, format!("/games/{}", rematch["id"].as_str().unwrap()));
}

/// Resigns `game` for the seat `seat`, through the API.
async fn resign_through_the_api(running: &Running, game: &Value, seat: &str) {
    let id = game["id"].as_str().unwrap();
    let answer = reqwest::Client::new()
        .post(running.url(&format!("/api/games/{id}/resign")))
        .bearer_auth(game["seats"][seat]["token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert!(answer.status().is_success(), "{answer:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_phone_width_the_scoreboard_fits_and_breaks_names_only_between_words() {
    // Arrange: a long name and a computer's on the scoreboard.
    let Some((_scene, running, browser)) = Scene::start("scores_at_phone_width", 390, 844).await
    else {
        return;
    };
    ada_beats_bobs_edge_reply(&running, "Bartholomew Montgomery-Featherstonehau").await;
    let lost = create(&running, ada_against("impossible")).await;
    resign_through_the_api(&running, &lost, "x").await;
    // Each word of each name, with the lines it is laid out on: a word broken in two
    // takes two.
    let lines_of_each_word = "return [...document.querySelectorAll('#scores td:nth-child(2) a')] \
        .flatMap(a => { const text = a.firstChild; let from = 0; \
          return text.textContent.split(/[ -]/).filter(w => w).map(word => { \
            const at = text.textContent.indexOf(word, from); from = at + word.length; \
            const range = document.createRange(); range.setStart(text, at); \
            range.setEnd(text, at + word.length); \
            return [word, range.getClientRects().length]; }); })";
    let table_overflow = "const wrap = document.querySelector('.table-wrap'); \
        return wrap.scrollWidth - wrap.clientWidth";

    // Act
    browser.goto(&running.url("/scores")).await.unwrap();
    until_found(4, &browser, "the scoreboard", "#scores tbody tr").await;
    let words = browser.execute(lines_of_each_word, vec![]).await.unwrap();
    let overflow = browser.execute(table_overflow, vec![]).await.unwrap();

    // Assert: the Games column in view, and no word cut in two.
    assert!(
        overflow.as_i64().unwrap() <= 0,
        "the table scrolls by {overflow} px"
    );
    let words = words.as_array().unwrap();
    assert!(
        words.iter().any(|word| word[0] == "(Impossible)"),
        "{words:?}"
    );
    for word in words {
        assert_eq!(word[1], 1, "{} is broken across lines", word[0]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_an_empty_7x7_board_a_hint_says_every_cell_keeps_the_draw_and_lights_impossibles_move() {
    // Arrange: Ada's empty 7 x 7 board, five in a row (every cell keeps the draw), in a
    // rated game: she is signed in.
    let Some((_scene, running, browser)) = Scene::start("hint_on_7x7", 1280, 800).await else {
        return;
    };
    signed_up_in(&browser, &running, "Ada").await;
    let game = begun_in(
        &browser,
        &running,
        json!({ "x": "human:Ada", "o": "impossible", "size": 7, "win": 5 }),
    )
    .await;
    assert_eq!(game["seats"], json!({}), "Ada's seat is her account's");
    browser
        .goto(&running.url(&format!("/games/{}", game["id"].as_str().unwrap())))
        .await
        .unwrap();
    until_status(&browser, "Ada's turn", "Your turn").await;

    // Act: the first press says the hint makes the rated game casual; the second asks.
    click(&browser, "#hint").await;
    text_once(&browser, "the warning", "#message", |now| {
        now.starts_with("A hint makes this rated game casual")
    })
    .await;
    click(&browser, "#hint").await;
    let said = text_once(&browser, "the hint", "#message", |now| {
        now.starts_with("Hint")
    })
    .await;

    // Assert
    let lit = all(&browser, ".cell.hint").await;
    assert_eq!(
        lit.len(),
        1,
        "the words say it, and Impossible's move is lit"
    );
    assert_eq!(
        lit[0].attr("data-cell").await.unwrap().as_deref(),
        Some("25")
    );
    assert_eq!(text(&browser, "#rule").await, "7×7, 5 in a row wins");
    let rated = text_once(&browser, "the game said casual", "#rated", |now| {
        now.starts_with("Casual")
    })
    .await;
    assert_eq!(rated, "Casual: a hint was taken.");
    assert_eq!(
        said,
        "Hint: every free cell keeps the draw, so any move will do; Impossible would play \
         25 (lit). This game is casual now: it rates nobody."
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_against_the_computer_says_that_both_moves_were_taken_back() {
    let Some((_scene, running, browser)) = Scene::start("undo_says_so", 1000, 800).await else {
        return;
    };
    start_default_game(&browser, &running).await;
    click(&browser, "[data-cell=\"5\"]").await;
    eventually("the reply", || async {
        let marks = browser.find_all(Locator::Css(".cell.o")).await.ok()?;
        (marks.len() == 1 && status(&browser).await.starts_with("Your turn")).then_some(())
    })
    .await;

    click(&browser, "#undo").await;

    let said = said(&browser, "#message").await;
    assert_eq!(said, "The last 2 moves were taken back.");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_the_other_player_asked_for_is_offered_and_taken_when_they_choose() {
    // Arrange: Ada (X) beat Bob (O) online, each a guest in a browser of their own;
    // each has the finished game open.
    let Some((scene, running, ada)) = Scene::start("rematch_offered", 1280, 800).await else {
        return;
    };
    let bob = scene.driver.open(1280, 800).await;
    let mut game = begun_in(&ada, &running, ada_invites_bob()).await;
    joined_in(&bob, &running, &mut game).await;
    let moves = [
        ("x", 5),
        ("o", 2),
        ("x", 1),
        ("o", 9),
        ("x", 7),
        ("o", 4),
        ("x", 3),
    ];
    play_through_the_api(&running, &game, &moves).await;
    let first = format!("/games/{}", game["id"].as_str().unwrap());
    for (page, seat) in [(&ada, "x"), (&bob, "o")] {
        page.goto(&running.url(game["seats"][seat]["url"].as_str().unwrap()))
            .await
            .unwrap();
        eventually("the finished game", || async {
            status(page).await.contains("wins").then_some(())
        })
        .await;
    }

    // Act: Bob asks for the rematch.
    click(&bob, "#rematch").await;
    let rematch = eventually("Bob in the rematch", || async {
        let url = bob.current_url().await.ok()?;
        (url.path() != first).then(|| url.path().to_string())
    })
    .await;
    let offered = eventually("the offer on Ada's page", || async {
        let shown = shown_now(&ada, "#replay-rematch").await?;
        let said = text(&ada, "#replay-rematch").await;
        (shown && !said.is_empty()).then_some(said)
    })
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let still = ada.current_url().await.unwrap().path().to_string();
    click(&ada, "#replay-rematch-link").await;
    let joined = eventually("Ada in the rematch, on O", || async {
        let url = ada.current_url().await.ok()?;
        let now = status(&ada).await;
        (url.path() == rematch && now.starts_with("Waiting for Bob (X)")).then_some(now)
    })
    .await;

    // Assert: Ada stayed on the finished game, told who asked, until she chose.
    assert_eq!(offered, "Bob wants a rematch, sides swapped: Join");
    assert_eq!(still, first, "Ada's page stays on the game she was reading");
    assert!(joined.starts_with("Waiting for Bob (X)"), "{joined}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_under_games_that_is_no_game_id_says_there_is_no_such_game() {
    let Some((_scene, running, browser)) = Scene::start("games_zzzz", 1000, 800).await else {
        return;
    };

    browser.goto(&running.url("/games/zzzz")).await.unwrap();

    let said = said(&browser, "[role=status]").await;
    assert!(
        said.starts_with("This game is not on this server"),
        "{said}"
    );
    assert_eq!(text(&browser, "#players").await, "No such game");
    assert!(!shown(&browser, "#setup").await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_page_for_a_name_nobody_played_under_says_so_once() {
    let Some((_scene, running, browser)) = Scene::start("no_such_player", 1000, 800).await else {
        return;
    };

    browser.goto(&running.url("/players/Nobody")).await.unwrap();

    let said = text_once(&browser, "the page to say so", "#player-status", |now| {
        now != "Loading…" && !now.is_empty()
    })
    .await;
    assert_eq!(said, "No player called Nobody has played here.");
    assert_eq!(text(&browser, "h1").await, "No such player");
    assert!(
        !shown(&browser, "#player-details").await,
        "nothing said twice under it"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_line_lights_the_cells_that_would_have_kept_what_its_move_threw_away() {
    // Arrange: Bob's edge reply (move 2) threw the draw away; the review says which
    // cells kept it.
    let Some((_scene, running, browser)) = Scene::start("better_cells_lit", 1280, 800).await else {
        return;
    };
    let game = ada_beats_bobs_edge_reply(&running, "Ada").await;
    let id = game["id"].as_str().unwrap();
    open_reviewed(&browser, &running, id).await;
    let review: Value = reqwest::get(running.url(&format!("/api/games/{id}/review")))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();

    // Act: the review's line for move 2.
    click(&browser, "#review-moves li[data-ply=\"2\"] button").await;
    until_position(&browser, "Move 2 of 7.").await;

    // Assert
    let mut lit = Vec::new();
    for cell in all(&browser, ".cell.hint").await {
        lit.push(
            cell.attr("data-cell")
                .await
                .unwrap()
                .unwrap()
                .parse::<u64>()
                .unwrap(),
        );
    }
    let kept: Vec<u64> = review["moves"][1]["best_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|cell| cell.as_u64().unwrap())
        .collect();
    assert!(!kept.is_empty());
    assert_eq!(lit, kept);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_setup_form_asks_the_run_only_where_there_is_a_choice_and_says_how_each_level_plays() {
    let Some((_scene, running, browser)) = Scene::start("setup_form", 1280, 800).await else {
        return;
    };
    browser.goto(&running.url("/")).await.unwrap();
    let run_shown = || async { shown(&browser, "#win-choice").await };

    let on_three = run_shown().await;
    let impossible = text(&browser, "#level-how").await;
    click(&browser, "select[name=size] option[value=\"5\"]").await;
    click(&browser, "select[name=level] option[value=\"easy\"]").await;
    let on_five = run_shown().await;
    let easy = text(&browser, "#level-how").await;

    assert!(!on_three, "one choice on 3 x 3 is no choice");
    assert!(on_five);
    assert_eq!(impossible, "Plays perfectly: it never loses.");
    assert_eq!(easy, "Takes a win it can see, otherwise plays at random.");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_run_to_win_defaults_to_the_boards_size_and_a_run_picked_is_kept() {
    let Some((_scene, running, browser)) = Scene::start("run_default", 1280, 800).await else {
        return;
    };
    browser.goto(&running.url("/")).await.unwrap();
    let run = || async {
        css(&browser, "select[name=win]")
            .await
            .prop("value")
            .await
            .unwrap()
            .unwrap_or_default()
    };

    // Act: 5 x 5, then 4 in a row picked, then 6 x 6.
    click(&browser, "select[name=size] option[value=\"5\"]").await;
    let on_five = run().await;
    click(&browser, "select[name=win] option[value=\"4\"]").await;
    click(&browser, "select[name=size] option[value=\"6\"]").await;
    let picked = run().await;

    // Assert: as the terminal and `--win` have it, the size unless another was picked.
    assert_eq!(on_five, "5");
    assert_eq!(picked, "4");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_phone_width_the_replay_buttons_stay_on_one_line() {
    let Some((_scene, running, browser)) =
        Scene::start("replay_buttons_on_a_phone", 390, 844).await
    else {
        return;
    };
    let game = ada_beats_bobs_edge_reply(&running, "Ada").await;
    browser
        .goto(&running.url(&format!("/games/{}", game["id"].as_str().unwrap())))
        .await
        .unwrap();
    until_position(&browser, "Move 7 of 7.").await;

    let tops = browser
        .execute(
            "return [...document.querySelectorAll('.replay-buttons button')] \
             .map(b => b.getBoundingClientRect().top)",
            vec![],
        )
        .await
        .unwrap();

    let tops = tops.as_array().unwrap();
    assert_eq!(tops.len(), 4);
    assert!(tops.iter().all(|top| *top == tops[0]), "{tops:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_1280_by_800_a_finished_games_page_does_not_scroll_and_shows_its_link() {
    // Arrange: a finished game between players with long names, its review in.
    let Some((_scene, running, browser)) = Scene::start("finished_game_at_1280", 1280, 800).await
    else {
        return;
    };
    let game = ada_beats_bobs_edge_reply(&running, "Bartholomew Montgomery-Featherstonehau").await;

    // Act
    open_reviewed(&browser, &running, game["id"].as_str().unwrap()).await;
    let page = browser
        .execute(
            "return document.documentElement.scrollHeight - window.innerHeight",
            vec![],
        )
        .await
        .unwrap();
    let link_below = browser
        .execute(
            "return document.getElementById('copy-watch').getBoundingClientRect().bottom \
             - window.innerHeight",
            vec![],
        )
        .await
        .unwrap();

    // Assert: one scroll bar at most (the review's own), the link in view.
    assert!(
        page.as_f64().unwrap() <= 0.0,
        "the page scrolls by {page} px"
    );
    assert!(
        link_below.as_f64().unwrap() <= 0.0,
        "the link is {link_below} px below the fold"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_games_link_is_offered_as_the_games_not_a_spectators() {
    // Arrange: a finished game.
    let Some((_scene, running, browser)) = Scene::start("finished_game_link", 1000, 800).await
    else {
        return;
    };
    let game = ada_beats_bobs_edge_reply(&running, "Ada").await;

    // Act
    open_reviewed(&browser, &running, game["id"].as_str().unwrap()).await;
    let offered = css(&browser, "#copy-watch").await.text().await.unwrap();

    // Assert: nobody is left to watch; the link is the game's, to read it again.
    assert_eq!(offered, "Copy game link");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_page_draws_their_rating_over_time_as_a_chart_that_fits_a_phone() {
    // Arrange: Ada beats Bob twice, each signed in: two rated games.
    let Some((scene, running, browser)) = Scene::start("rating_chart", 390, 844).await else {
        return;
    };
    let server = &scene.server;
    let (ada, bob) = (
        server.account_token("Ada").await,
        server.account_token("Bob").await,
    );
    for _ in 0..2 {
        let game = server.rated_game_of(("Ada", &ada), ("Bob", &bob)).await;
        server.play_in_turn(&game, &[5, 2, 1, 9, 7, 4, 3]).await;
    }

    browser.goto(&running.url("/players/Ada")).await.unwrap();

    let points = eventually("the rating chart drawn", || async {
        let points = browser
            .find_all(Locator::Css(
                "#ratings:not([hidden]) svg.rating-chart circle",
            ))
            .await
            .ok()?;
        (!points.is_empty()).then_some(points.len())
    })
    .await;
    assert_eq!(points, 2);
    let caption = text(&browser, "#rating-boards figcaption").await;
    assert!(caption.starts_with("3×3, 3 in a row: "), "{caption}");
    let labels = all(&browser, "svg.rating-chart text.rating-axis").await;
    assert!(
        labels.len() >= 4,
        "ratings on the side and the games' dates below"
    );
    let tip = browser
        .execute(
            "return document.querySelector('svg.rating-chart circle title').textContent",
            vec![],
        )
        .await
        .unwrap();
    assert!(tip.as_str().is_some_and(|tip| tip.contains(" ± ")), "{tip}");
    let fits = browser
        .execute(
            "return document.documentElement.scrollWidth <= window.innerWidth",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(fits, Value::Bool(true), "the player page scrolls sideways");
}

/// Ada (X) beats Bob (O) on the top row in a rated game, both signed in; then a
/// browser window of 1280 x 800 opens `path` (`{id}` in it is the game's id).
async fn after_ada_beats_bob(test: &str, path: &str) -> Option<(Scene, Running, Client)> {
    let (scene, running, browser) = Scene::start(test, 1280, 800).await?;
    let server = &scene.server;
    let (ada, bob) = (
        server.account_token("Ada").await,
        server.account_token("Bob").await,
    );
    let game = server.rated_game_of(("Ada", &ada), ("Bob", &bob)).await;
    server.play_in_turn(&game, &[1, 4, 2, 5, 3]).await;
    browser
        .goto(&running.url(&path.replace("{id}", &game.id)))
        .await
        .unwrap();
    Some((scene, running, browser))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ended_rated_games_page_says_what_it_did_to_each_persons_rating() {
    let Some((_scene, _running, browser)) =
        after_ada_beats_bob("rating_change", "/games/{id}").await
    else {
        return;
    };

    let changes = said(&browser, "#rating-change").await;
    let [ada, bob] = [0, 1].map(|n| changes.split(" · ").nth(n).unwrap_or_default().to_string());
    assert!(
        ada.starts_with("Ada 1,500 → ") && ada.ends_with(')') && ada.contains("? (+"),
        "{changes}"
    );
    assert!(
        bob.starts_with("Bob 1,500 → ") && bob.contains("? (−"),
        "{changes}"
    );
    assert!(text(&browser, "#rated").await.starts_with("Rated."));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ratings_page_ranks_the_levels_and_lists_provisional_players_apart() {
    let Some((_scene, _running, browser)) = after_ada_beats_bob("ratings_page", "/ratings").await
    else {
        return;
    };

    until_found(
        2,
        &browser,
        "the provisional players",
        "#provisional tbody tr",
    )
    .await;
    let provisional: Vec<String> = {
        let mut names = Vec::new();
        for row in all(&browser, "#provisional tbody tr td:first-child").await {
            names.push(row.text().await.unwrap());
        }
        names
    };
    assert_eq!(provisional, ["Ada", "Bob"]);
    let ranked = all(&browser, "#ranked tbody tr").await;
    assert_eq!(ranked.len(), 4, "the four levels alone are ranked");
    let level = ranked[0].text().await.unwrap();
    assert!(
        level.contains("fixed anchor") && level.ends_with("288*"),
        "{level}"
    );
    assert!(
        text(&browser, "main")
            .await
            .contains("* A computer level's games are those of the calibration"),
        "the note says what a level's games are"
    );
    assert_eq!(text(&browser, "h1").await, "Ratings on 3×3, 3 in a row");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ratings_page_shows_the_board_picked_and_the_address_names_it() {
    let Some((_scene, running, browser)) = Scene::start("ratings_board", 1280, 800).await else {
        return;
    };
    browser.goto(&running.url("/ratings")).await.unwrap();
    until_found(4, &browser, "the levels", "#ranked tbody tr").await;

    browser
        .execute(
            "const size = document.getElementById('ratings-size'); size.value = '5'; \
             size.dispatchEvent(new Event('change'));",
            vec![],
        )
        .await
        .unwrap();

    text_once(&browser, "the 5 x 5 title", "h1", |now| {
        now == "Ratings on 5×5, 5 in a row"
    })
    .await;
    let address = browser.current_url().await.unwrap();
    assert_eq!(address.path(), "/ratings");
    assert_eq!(address.query(), Some("size=5&win=5"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_scoreboard_shows_each_players_3x3_rating_beside_their_results() {
    let Some((_scene, _running, browser)) = after_ada_beats_bob("scores_rating", "/scores").await
    else {
        return;
    };

    until_found(2, &browser, "the two players", "#scores tbody tr").await;
    let first = all(&browser, "#scores tbody tr").await[0]
        .text()
        .await
        .unwrap();
    assert!(first.starts_with("1 Ada 1 0 0 1 1,"), "{first}");
    assert!(first.ends_with('?'), "Ada's rating is provisional: {first}");
}

/// Bob, on a server where he slipped in a rated game (his O on 4 after X on 1, where
/// only 5 kept the draw), opens `/train` in a window of `width` x `height`, follows its
/// link to sign in, signs in on the account page, is led back to `/train`, and waits
/// for his puzzle's board.
async fn bob_trains(test: &str, width: u32, height: u32) -> Option<(Scene, Running, Client)> {
    let (scene, running, browser) = Scene::start(test, width, height).await?;
    scene.server.bob_slipped().await;
    browser.goto(&running.url("/train")).await.unwrap();
    click(&browser, "#train-sign-in a").await;
    until_found(1, &browser, "the sign-in form", "#signed-out:not([hidden])").await;
    type_into(&browser, "#sign-in input[name=name]", "Bob").await;
    type_into(&browser, "#sign-in input[name=password]", PASSWORD).await;
    click(&browser, "#sign-in button[type=submit]").await;
    eventually("Bob's puzzle", || async {
        text(&browser, "#puzzle-title")
            .await
            .starts_with("Puzzle 1 of 1: game ")
            .then_some(())
    })
    .await;
    Some((scene, running, browser))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signed_in_player_clicks_a_best_move_on_the_training_page_and_is_told_right() {
    // Arrange
    let Some((_scene, _running, browser)) = bob_trains("training_right", 1280, 900).await else {
        return;
    };

    // Act
    click(&browser, "[data-cell=\"5\"]").await;

    // Assert
    let verdict = said(&browser, "#verdict").await;
    assert_eq!(
        verdict,
        "Right: 5 keeps the draw. It comes back once more: solve it again another day, or \
         after another puzzle, and it retires."
    );
    assert_eq!(
        text(&browser, "#puzzle-prompt").await,
        "O to move; O had a draw here. Find a move that keeps it."
    );
    assert_eq!(cell_text(&browser, 5).await, "O");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_phone_width_the_training_board_fits_and_a_wrong_click_offers_another_try_in_sight() {
    // Arrange
    let Some((_scene, _running, browser)) = bob_trains("training_phone", 390, 844).await else {
        return;
    };
    let overflow = browser
        .execute(
            "const board = document.getElementById('board').getBoundingClientRect(); \
             return [board.right - window.innerWidth, \
                     document.documentElement.scrollWidth - window.innerWidth, board.width]",
            vec![],
        )
        .await
        .unwrap();

    // Act: O in the far corner loses.
    click(&browser, "[data-cell=\"9\"]").await;

    // Assert: said, with another try offered, all in sight; nothing lit yet.
    let verdict = said(&browser, "#verdict").await;
    assert_eq!(
        verdict,
        "Not that one: 9 leaves a loss. Try again on the same position, or see the answer."
    );
    let in_sight = browser
        .execute(
            "const box = document.getElementById('try-again').getBoundingClientRect(); \
             return box.top >= 0 && box.bottom <= window.innerHeight",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(in_sight, Value::Bool(true), "the way on is off screen");
    assert!(all(&browser, ".cell.hint").await.is_empty());
    assert!(
        overflow[0].as_f64().unwrap() <= 0.0,
        "the board's right edge is past the screen: {overflow}"
    );
    assert!(
        overflow[1].as_f64().unwrap() <= 0.0,
        "the page scrolls sideways: {overflow}"
    );
    assert!(overflow[2].as_f64().unwrap() > 200.0, "{overflow}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_answer_tried_again_is_judged_afresh_and_seeing_the_answer_lights_the_best_moves() {
    // Arrange: Bob's wrong answer on 9.
    let Some((_scene, _running, browser)) = bob_trains("training_again", 1280, 900).await else {
        return;
    };
    click(&browser, "[data-cell=\"9\"]").await;
    click(&browser, "#try-again").await;
    text_once(&browser, "the position again", "#verdict", str::is_empty).await;

    // Act: wrong again (a corner), then the answer.
    click(&browser, "[data-cell=\"3\"]").await;
    said(&browser, "#verdict").await;
    click(&browser, "#see-answer").await;

    // Assert
    let verdict = text_once(&browser, "the answer", "#verdict", |now| {
        now.contains("In the game")
    })
    .await;
    assert!(
        verdict.ends_with("The best moves: 5 (lit). The puzzle stays."),
        "{verdict}"
    );
    let lit = all(&browser, ".cell.hint").await;
    assert_eq!(lit.len(), 1);
    assert_eq!(
        lit[0].attr("data-cell").await.unwrap().as_deref(),
        Some("5")
    );
    assert!(shown(&browser, "#next-puzzle").await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_training_page_tells_a_signed_in_player_without_a_slip_why_there_is_none() {
    // Arrange: Ada won without a slip; she is signed in.
    let Some((scene, running, browser)) = Scene::start("training_none", 1280, 900).await else {
        return;
    };
    scene.server.bob_slipped().await;
    on_the_site(&browser, &running).await;
    let credentials = json!({ "name": "Ada", "password": PASSWORD });
    let (signed_in, _) = fetch_in(&browser, "POST", "/api/session", Some(credentials)).await;
    assert_eq!(signed_in, 200);

    // Act
    browser.goto(&running.url("/train")).await.unwrap();

    // Assert
    let said = status_once(&browser, "the status", |now| now.starts_with("No puzzles")).await;
    assert_eq!(
        said,
        "No puzzles for Ada on any board: no slip of theirs in a reviewed game is open."
    );
    assert!(!shown(&browser, "#puzzle").await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signing_up_on_the_account_page_puts_the_name_in_every_pages_header() {
    // Arrange
    let Some((_scene, running, browser)) = Scene::start("sign_up", 1280, 800).await else {
        return;
    };
    browser.goto(&running.url("/account")).await.unwrap();
    let before = text_once(&browser, "the header's link", "#account-link", |now| {
        now != "Account"
    })
    .await;
    let password_field = attribute(&browser, "#sign-up input[name=password]", "autocomplete").await;

    // Act
    type_into(&browser, "#sign-up input[name=name]", "Ada").await;
    type_into(&browser, "#sign-up input[name=password]", PASSWORD).await;
    click(&browser, "#sign-up button[type=submit]").await;
    let heading = text_once(&browser, "the account", "#signed-in-as", |now| {
        now.starts_with("Signed in")
    })
    .await;
    browser.goto(&running.url("/scores")).await.unwrap();
    let header = text_once(
        &browser,
        "the header on another page",
        "#account-link",
        |now| now != "Account",
    )
    .await;

    // Assert
    assert_eq!(before, "Sign in");
    assert_eq!(password_field.as_deref(), Some("new-password"));
    assert_eq!(heading, "Signed in as Ada");
    assert_eq!(header, "Ada");
    let link = attribute(&browser, "#account-link", "href").await;
    assert_eq!(link.as_deref(), Some("/account"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_password_is_refused_in_the_servers_words_and_the_right_one_signs_in_and_goes_back()
{
    // Arrange: Ada has an account; she comes to sign in from the scoreboard.
    let Some((scene, running, browser)) = Scene::start("sign_in", 1280, 800).await else {
        return;
    };
    scene.server.sign_up("Ada").await;
    browser.goto(&running.url("/scores")).await.unwrap();
    click(&browser, "#account-link[href^=\"/account?next=\"]").await;
    until_found(1, &browser, "the sign-in form", "#signed-out:not([hidden])").await;
    type_into(&browser, "#sign-in input[name=name]", "Ada").await;

    // Act: a wrong password, then the right one.
    type_into(
        &browser,
        "#sign-in input[name=password]",
        "not her password",
    )
    .await;
    click(&browser, "#sign-in button[type=submit]").await;
    let refused = said(&browser, "#sign-in-error").await;
    let field = css(&browser, "#sign-in input[name=password]").await;
    field.clear().await.unwrap();
    field.send_keys(PASSWORD).await.unwrap();
    click(&browser, "#sign-in button[type=submit]").await;
    let back = eventually("the scoreboard again, signed in", || async {
        let url = browser.current_url().await.ok()?;
        let header = text(&browser, "#account-link").await;
        (url.path() == "/scores" && header == "Ada").then_some(url)
    })
    .await;

    // Assert
    assert_eq!(refused, "wrong name or password");
    assert_eq!(back.query(), None);
}

/// Whether `address` carries 32 hex digits in a row anywhere but in `id`: a secret.
fn carries_a_secret(address: &str, id: &str) -> bool {
    let rest = address.replace(id, "");
    let mut run = 0;
    for c in rest.chars() {
        run = if c.is_ascii_hexdigit() { run + 1 } else { 0 };
        if run >= 32 {
            return true;
        }
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_signed_in_players_in_two_browsers_play_a_rated_game_through_an_invite_with_no_secret_in_any_address()
 {
    // Arrange: Ada and Bob, each signed in in a browser of their own (its own
    // cookies); Ada invites Bob from the new game form.
    let Some(driver) = Driver::start("rated_invite").await else {
        return;
    };
    let server = Server::new();
    let running = server.listen().await;
    let (ada, bob) = (driver.open(1000, 800).await, driver.open(1000, 800).await);
    signed_up_in(&ada, &running, "Ada").await;
    signed_up_in(&bob, &running, "Bob").await;
    ada.goto(&running.url("/")).await.unwrap();
    let invite = invite_from_the_form(&ada, "Bobby").await;
    let id = ada.current_url().await.unwrap().path()["/games/".len()..].to_string();

    // Act: Bob opens the invite; they play, Ada wins on the top row.
    bob.goto(&invite).await.unwrap();
    until_status(&bob, "Bob in his seat", "Waiting for Ada").await;
    let mut addresses = vec![invite.clone()];
    for page in [&ada, &bob] {
        addresses.push(page.current_url().await.unwrap().to_string());
    }
    let players = text(&bob, "#players").await;
    let rated = text_once(&bob, "the game rated", "#rated", |now| !now.is_empty()).await;
    for (page, cell, mark) in [
        (&ada, 1, "X"),
        (&bob, 4, "O"),
        (&ada, 2, "X"),
        (&bob, 5, "O"),
        (&ada, 3, "X"),
    ] {
        until_status(page, "the page's turn", "Your turn").await;
        click(page, &format!("[data-cell=\"{cell}\"]")).await;
        until_cell(page, cell, mark).await;
        addresses.push(page.current_url().await.unwrap().to_string());
    }
    until_status(&bob, "the end on Bob's page", "Ada (X) wins!").await;
    let http = reqwest::Client::new();
    let mut games_rated = Vec::new();
    for name in ["Ada", "Bob"] {
        let page =
            client::json_answer(http.get(running.url(&format!("/api/players/{name}")))).await;
        games_rated.push(page["ratings"][0]["games"].clone());
    }

    // Assert: the invite's code left the address at once; no address after it carries
    // a secret; each played under their account's name, rated.
    assert!(
        carries_a_secret(&invite, &id),
        "the invite carries its code: {invite}"
    );
    let game = running.url(&format!("/games/{id}"));
    for address in &addresses[1..] {
        assert_eq!(address, &game);
        assert!(!carries_a_secret(address, &id), "{address}");
    }
    assert_eq!(players, "Ada (X) vs Bob (O)");
    assert!(
        !shown(&bob, "#naming").await,
        "a signed-in player is not asked a name"
    );
    assert_eq!(rated, "Rated: the result changes the players' ratings.");
    assert_eq!(games_rated, [json!(1), json!(1)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_who_closes_the_tab_and_opens_the_game_again_still_holds_their_seat() {
    // Arrange: a guest's game against Impossible, one move in.
    let Some((_scene, running, browser)) = Scene::start("tab_closed", 1000, 800).await else {
        return;
    };
    start_default_game(&browser, &running).await;
    click(&browser, "[data-cell=\"1\"]").await;
    until_cell(&browser, 1, "X").await;
    until_status(&browser, "the computer's reply", "Your turn").await;
    let address = browser.current_url().await.unwrap();

    // Act: a new tab; the game's tab closed; the game's address opened in the new one.
    let tab = browser.new_window(true).await.unwrap();
    browser.close_window().await.unwrap();
    browser.switch_to_window(tab.handle).await.unwrap();
    browser.goto(address.as_str()).await.unwrap();

    // Assert: the seat is the guest's again: their turn, and a move is taken.
    until_status(&browser, "the seat given back", "Your turn (X).").await;
    let empty = if cell_text(&browser, 9).await.is_empty() {
        9
    } else {
        3
    };
    click(&browser, &format!("[data-cell=\"{empty}\"]")).await;
    until_cell(&browser, empty, "X").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_training_page_asks_a_visitor_who_is_not_signed_in_to_sign_in_and_come_back() {
    // Arrange
    let Some((_scene, running, browser)) = Scene::start("train_signed_out", 390, 844).await else {
        return;
    };

    // Act
    browser.goto(&running.url("/train")).await.unwrap();
    eventually("the way to sign in", || async {
        shown_now(&browser, "#train-sign-in").await?.then_some(())
    })
    .await;

    // Assert
    assert_eq!(
        text(&browser, "#train-sign-in a").await,
        "Sign in to train on your own slips"
    );
    let link = attribute(&browser, "#train-sign-in a", "href").await;
    assert_eq!(link.as_deref(), Some("/account?next=/train"));
    assert!(!shown(&browser, "#puzzle").await);
    let fits = browser
        .execute(
            "return document.documentElement.scrollWidth <= window.innerWidth",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(fits, Value::Bool(true), "the page scrolls sideways");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invite_taken_already_is_said_so_and_its_game_is_shown_to_watch() {
    // Arrange: Ada's invite, taken by Bob already.
    let Some((_scene, running, browser)) = Scene::start("invite_taken", 1000, 800).await else {
        return;
    };
    let mut game = create(&running, ada_invites_bob()).await;
    joined_through_the_api(&running, &mut game).await;

    // Act: someone else opens the invite link, and tries a move.
    let link = game["invite"]["url"].as_str().unwrap();
    browser.goto(&running.url(link)).await.unwrap();
    let said = said(&browser, "#notice").await;
    until_status(&browser, "the game", "Waiting for Ada").await;
    click(&browser, "[data-cell=\"5\"]").await;

    // Assert
    assert_eq!(
        said,
        "This invite was taken already, or is not this game's: you are watching the game."
    );
    let address = browser.current_url().await.unwrap();
    assert_eq!(address.fragment(), None, "{address}");
    assert_eq!(
        text(&browser, "#message").await,
        "You are watching this game."
    );
    assert_eq!(cell_text(&browser, 5).await, "");
}

// ---- The lobby and TV -----------------------------------------------------------------

/// Opens the lobby in `browser` and waits until its form knows who is signed in and
/// its list has been read once.
async fn open_lobby(browser: &Client, running: &Running) {
    browser.goto(&running.url("/lobby")).await.unwrap();
    eventually("the lobby ready", || async {
        let form = text(browser, "#seek-rated-text").await;
        let list = text(browser, "#lobby-status").await;
        (!form.is_empty() && !form.starts_with("Finding out") && !list.starts_with("Loading"))
            .then_some(())
    })
    .await;
}

/// Waits until `browser` shows a game's page and its board of `cells` cells: the
/// game's id.
async fn on_a_game(browser: &Client, who: &str, cells: usize) -> String {
    let id = eventually(&format!("{who} on a game's page"), || async {
        let url = browser.current_url().await.ok()?;
        url.path().strip_prefix("/games/").map(str::to_string)
    })
    .await;
    until_found(cells, browser, &format!("{who}'s board"), "[data-cell]").await;
    id
}

/// The mark `name` plays, as the game's page in `browser` names the players ("Ada (X)
/// vs Bob (O)").
async fn mark_of(browser: &Client, name: &str) -> &'static str {
    let players = text_once(browser, "the players named", "#players", |now| {
        now.contains(" vs ")
    })
    .await;
    if players.contains(&format!("{name} (X)")) {
        "X"
    } else {
        assert!(players.contains(&format!("{name} (O)")), "{players}");
        "O"
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_a_rated_seek_accepted_seats_each_person_and_the_one_who_stops_moving_loses_on_time()
{
    // Arrange: Ada and Bob, each signed in in a browser of their own (Bob's a phone).
    let Some(driver) = Driver::start("lobby_rated_seek").await else {
        return;
    };
    let server = Server::new();
    let running = server.listen().await;
    let (ada, bob) = (driver.open(1000, 800).await, driver.open(390, 844).await);
    signed_up_in(&ada, &running, "Ada").await;
    signed_up_in(&bob, &running, "Bob").await;

    // Act: Ada opens a rated game, 5 s a move; Bob sees it in the lobby and accepts.
    open_lobby(&ada, &running).await;
    click(&ada, "input[name=rated]").await;
    css(&ada, "select[name=clock]")
        .await
        .select_by_value("5s")
        .await
        .unwrap();
    click(&ada, "#open-seek").await;
    let waiting = said(&ada, "#waiting-text").await;
    until_found(1, &ada, "Ada's seek in her lobby", ".seek.mine").await;
    let own_row = text(&ada, ".seek.mine .seek-action").await;
    let own_accept = all(&ada, ".seek button.accept").await.len();
    open_lobby(&bob, &running).await;
    until_found(1, &bob, "Ada's seek in Bob's lobby", ".seek button.accept").await;
    let mut row = Vec::new();
    for part in ["owner", "rating", "board", "clock", "rated"] {
        row.push(text(&bob, &format!(".seek .seek-{part}")).await);
    }
    let fits = bob
        .execute(
            "return document.documentElement.scrollWidth <= window.innerWidth",
            vec![],
        )
        .await
        .unwrap();
    click(&bob, ".seek button.accept").await;
    let bobs_game = on_a_game(&bob, "Bob", 9).await;
    let adas_game = on_a_game(&ada, "Ada", 9).await;
    let ada_mark = mark_of(&ada, "Ada").await;
    let bob_mark = if ada_mark == "X" { "O" } else { "X" };
    let mut clocks_shown = Vec::new();
    for page in [&ada, &bob] {
        clocks_shown.push(
            eventually("the clocks", || async {
                shown_now(page, "#clocks").await?.then_some(true)
            })
            .await,
        );
    }
    // Each moves in their own seat (X first): then it is Ada's turn, and she waits.
    let mut moves = vec![(&ada, ada_mark, 1), (&bob, bob_mark, 5)];
    if ada_mark == "O" {
        moves = vec![
            (&bob, bob_mark, 1),
            (&ada, ada_mark, 5),
            (&bob, bob_mark, 9),
        ];
    }
    let mut turns = Vec::new();
    for (page, mark, cell) in moves {
        turns.push(status_once(page, "the page's turn", |now| now.starts_with("Your turn")).await);
        click(page, &format!("[data-cell=\"{cell}\"]")).await;
        until_cell(page, cell, mark).await;
    }
    let lost = format!("Ada ({ada_mark}) ran out of time: Bob ({bob_mark}) wins.");
    let started = Instant::now();
    for page in [&ada, &bob] {
        until_status(page, "Ada's time to run out", &lost).await;
    }

    // Assert: one game, each in their own seat, on a clock; Ada lost on time.
    assert_eq!(waiting, "Waiting for an opponent…");
    assert_eq!((own_row.as_str(), own_accept), ("Yours", 0));
    assert_eq!(row[0], "Ada");
    assert!(
        !row[1].is_empty() && row[1].chars().all(|c| c.is_ascii_digit() || c == ','),
        "a rating: {}",
        row[1]
    );
    assert_eq!(row[2..], ["3 × 3", "5 s a move", "Rated"]);
    assert_eq!(adas_game, bobs_game);
    assert_eq!(clocks_shown, [true, true]);
    assert_eq!(
        fits,
        Value::Bool(true),
        "the lobby scrolls sideways on a phone"
    );
    let mut expected = vec![
        format!("Your turn ({ada_mark})."),
        format!("Your turn ({bob_mark})."),
    ];
    if ada_mark == "O" {
        expected = vec![
            format!("Your turn ({bob_mark})."),
            format!("Your turn ({ada_mark})."),
            format!("Your turn ({bob_mark})."),
        ];
    }
    assert_eq!(turns, expected);
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(text(&bob, "#rated-words").await, "Rated.");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_quick_pairing_seats_two_guests_on_opposite_sides_of_one_game() {
    // Arrange: two guests, each in a browser of their own, on the lobby.
    let Some(driver) = Driver::start("lobby_quick_pairing").await else {
        return;
    };
    let server = Server::new();
    let running = server.listen().await;
    let (one, two) = (driver.open(1000, 800).await, driver.open(1000, 800).await);
    for page in [&one, &two] {
        open_lobby(page, &running).await;
        css(page, "select[name=size]")
            .await
            .select_by_value("4")
            .await
            .unwrap();
        css(page, "select[name=clock]")
            .await
            .select_by_value("30s")
            .await
            .unwrap();
    }

    // Act: both press Quick pairing.
    click(&one, "#quick-pairing").await;
    let waiting = said(&one, "#waiting-text").await;
    let pool_listed = all(&one, ".seek").await.len();
    click(&two, "#quick-pairing").await;
    let ones_game = on_a_game(&one, "the first guest", 16).await;
    let twos_game = on_a_game(&two, "the second guest", 16).await;
    let mut marks = Vec::new();
    for page in [&one, &two] {
        let now = status_once(page, "whose turn", |now| {
            now.starts_with("Your turn") || now.starts_with("Waiting for")
        })
        .await;
        marks.push(now.starts_with("Your turn"));
    }
    // X moves; the other page is then O's turn, in its own seat.
    let (x_page, o_page) = if marks[0] { (&one, &two) } else { (&two, &one) };
    click(x_page, "[data-cell=\"6\"]").await;
    until_cell(o_page, 6, "X").await;
    let o_turn = status_once(o_page, "O's turn", |now| now.starts_with("Your turn")).await;

    // Assert
    assert_eq!(waiting, "Waiting for an opponent…");
    assert_eq!(pool_listed, 0, "a seek in the pool is not in the lobby");
    assert_eq!(ones_game, twos_game);
    assert_ne!(marks[0], marks[1], "one holds X, the other O");
    assert_eq!(o_turn, "Your turn (O).");
    assert!(shown(&one, "#clocks").await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tv_shows_the_live_game_of_people_who_met_in_the_lobby_and_then_says_none_is_on() {
    // Arrange: TV open with nothing on; Ada opens a seek and Bob accepts it, through
    // the API.
    let Some((scene, running, browser)) = Scene::start("tv", 1000, 800).await else {
        return;
    };
    let (ada, bob) = (
        scene.server.account_token("Ada").await,
        scene.server.account_token("Bob").await,
    );
    browser.goto(&running.url("/tv")).await.unwrap();
    let nothing = text_once(&browser, "TV with nothing on", "#tv-status", |now| {
        now.starts_with("No game")
    })
    .await;
    let http = reqwest::Client::new();
    let seek = client::json_answer(
        http.post(running.url("/api/seeks"))
            .bearer_auth(&ada)
            .json(&json!({ "size": 3, "rated": true, "clock": { "per_move": 60 } })),
    )
    .await;
    let accept = format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap());
    let game = client::json_answer(http.post(running.url(&accept)).bearer_auth(&bob)).await;
    let id = game["id"].as_str().expect("a game").to_string();
    let (x, o) = if game["players"]["x"]["name"] == "Ada" {
        (&ada, &bob)
    } else {
        (&bob, &ada)
    };

    // Act: TV finds the game; X plays 5; then O resigns.
    let players = text_once(&browser, "the game on TV", "#tv-players", |now| {
        now.contains(" vs ")
    })
    .await;
    let moved = http
        .post(running.url(&format!("/api/games/{id}/moves")))
        .bearer_auth(x)
        .json(&json!({ "cell": 5 }))
        .send()
        .await
        .unwrap();
    assert!(moved.status().is_success(), "{moved:?}");
    eventually("X on TV's board", || async {
        (text(&browser, "#tv-board [data-cell=\"5\"]").await == "X").then_some(())
    })
    .await;
    let playing = text(&browser, "#tv-status").await;
    let clocks = shown(&browser, "#tv-clocks").await;
    let link = attribute(&browser, "#tv-game-link", "href").await;
    let resigned = http
        .post(running.url(&format!("/api/games/{id}/resign")))
        .bearer_auth(o)
        .send()
        .await
        .unwrap();
    assert!(resigned.status().is_success(), "{resigned:?}");
    let result = text_once(&browser, "the result on TV", "#tv-status", |now| {
        now.contains("resigned")
    })
    .await;
    let after = text_once(&browser, "TV with nothing on again", "#tv-status", |now| {
        now.starts_with("No game")
    })
    .await;

    // Assert
    assert_eq!(
        nothing,
        "No game is being played right now. Looking again every few seconds…"
    );
    let names = [
        game["players"]["x"]["name"].as_str().unwrap(),
        game["players"]["o"]["name"].as_str().unwrap(),
    ];
    assert_eq!(players, format!("{} (X) vs {} (O)", names[0], names[1]));
    assert_eq!(playing, format!("{} (O) to move.", names[1]));
    assert!(clocks);
    assert_eq!(link, Some(format!("/games/{id}")));
    assert_eq!(
        result,
        format!("{} (O) resigned: {} (X) wins.", names[1], names[0])
    );
    assert!(after.starts_with("No game is being played right now"));
}
