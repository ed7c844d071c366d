//! The attacks on accounts of issue #41, and what a sign-in costs: see the program's
//! documentation. Each prints its figures; none asserts (the tests do:
//! `crates/web/tests/web_accounts.rs`).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::{Client, Response, StatusCode};
use serde_json::{Value, json};
use tictactoe_core::domain::{BitBoard, Game, GameState, Geometry, Mark};
use tictactoe_core::players::{Anchor, ComputerFactory, Level};
use tictactoe_players::StandardComputers;
use tokio::sync::Mutex;

use super::{loopback, person, summary};

const PASSWORD: &str = "correct horse battery";

/// A client of the server from `source`, with a cookie jar of its own.
fn client(source: IpAddr) -> Client {
    Client::builder()
        .local_address(source)
        .cookie_store(true)
        .timeout(Duration::from_secs(30))
        .build()
        .expect("a client")
}

/// `name` signed up through `client`: its session is then the client's.
async fn sign_up(client: &Client, base: &str, name: &str) {
    let url = format!("{base}/api/accounts");
    let answer = send(client, url, json!({ "name": name, "password": PASSWORD })).await;
    assert_eq!(answer.status(), StatusCode::CREATED, "signing up {name}");
}

/// `body` POSTed to `url` through `client`: the server's answer.
async fn send(client: &Client, url: String, body: Value) -> Response {
    client
        .post(url)
        .json(&body)
        .send()
        .await
        .expect("the server answers")
}

/// `body` POSTed to `url` through `client`: the JSON answered.
async fn post(client: &Client, url: String, body: Value) -> Value {
    send(client, url, body).await.json().await.expect("JSON")
}

/// `body` POSTed to `url` through `client`: the status answered.
async fn post_status(client: &Client, url: String, body: Value) -> u16 {
    send(client, url, body).await.status().as_u16()
}

/// Plays `game` (as `client` holds X) to its end with `brain`'s moves: its last answer.
async fn play_out(
    client: &Client,
    base: &str,
    game: Value,
    brain: &mut dyn tictactoe_core::players::MoveChooser,
) -> Value {
    let id = game["id"].as_str().expect("an id").to_string();
    let mut game = game;
    while game["status"] == "in_progress" {
        let mut board: Game<BitBoard> = Game::start(Geometry::classic(), Mark::X);
        for cell in game["moves"].as_array().expect("moves") {
            let at = cell.as_u64().expect("a cell") as usize - 1;
            board
                .play(Geometry::classic().position(at).expect("a cell"))
                .expect("a legal move");
        }
        let chosen = brain.choose_move(&board).expect("a move");
        let url = format!("{base}/api/games/{id}/moves");
        game = post(client, url, json!({ "cell": chosen.number() })).await;
    }
    game
}

pub async fn sign_in(server: SocketAddr, count: usize) {
    let base = format!("http://{server}");
    let ada = client(loopback(2));
    sign_up(&ada, &base, "Ada").await;
    let mut took = Vec::with_capacity(count);
    for _ in 0..count {
        let started = Instant::now();
        let answer = ada
            .post(format!("{base}/api/session"))
            .json(&json!({ "name": "Ada", "password": PASSWORD }))
            .send()
            .await
            .expect("the server answers");
        assert_eq!(answer.status(), StatusCode::OK);
        took.push(started.elapsed());
    }
    println!(
        "sign-in (Argon2id, the argon2 crate's defaults): {}",
        summary(&mut took)
    );
}

/// What the attackers were answered, by status.
#[derive(Default, Debug)]
struct Answered {
    wrong: u64,
    throttled: u64,
    busy: u64,
    other: u64,
}

pub async fn guessing(server: SocketAddr, attackers: u8, seconds: u64) {
    let base = format!("http://{server}");
    sign_up(&client(loopback(3)), &base, "Ada").await;
    let pause = Duration::from_millis(60);
    let half = Duration::from_secs(seconds);

    // Alone.
    let (mut quiet, quiet_failed) = person(server, loopback(2), pause, Instant::now() + half).await;

    // Under attack.
    let answered = Arc::new(Mutex::new(Answered::default()));
    let until = Instant::now() + half;
    let mut guessers = Vec::new();
    for n in 0..attackers {
        let answered = Arc::clone(&answered);
        let base = base.clone();
        guessers.push(tokio::spawn(async move {
            let client = client(loopback(10 + n));
            let mut guess = 0u64;
            while Instant::now() < until {
                guess += 1;
                // Every other guess at Ada, the rest at a name of the attacker's own.
                let name = if guess.is_multiple_of(2) {
                    "Ada".to_string()
                } else {
                    format!("Guess {n}")
                };
                let answer = client
                    .post(format!("{base}/api/session"))
                    .json(&json!({ "name": name, "password": format!("wrong {guess}") }))
                    .send()
                    .await;
                let mut answered = answered.lock().await;
                match answer.map(|answer| answer.status()) {
                    Ok(StatusCode::UNAUTHORIZED) => answered.wrong += 1,
                    Ok(StatusCode::TOO_MANY_REQUESTS) => answered.throttled += 1,
                    Ok(StatusCode::SERVICE_UNAVAILABLE) => answered.busy += 1,
                    _ => answered.other += 1,
                }
            }
        }));
    }
    let (mut attacked, attacked_failed) = person(server, loopback(2), pause, until).await;
    for guesser in guessers {
        let _ = guesser.await;
    }
    println!(
        "a person's requests, alone:        {} ({quiet_failed} failed)",
        summary(&mut quiet)
    );
    println!(
        "a person's requests, under attack: {} ({attacked_failed} failed)",
        summary(&mut attacked)
    );
    let answered = answered.lock().await;
    println!(
        "{attackers} attackers' {} sign-ins: {} wrong (401), {} refused for too many tries (429), \
         {} busy (503), {} else",
        answered.wrong + answered.throttled + answered.busy + answered.other,
        answered.wrong,
        answered.throttled,
        answered.busy,
        answered.other
    );
}

pub async fn farm(server: SocketAddr, games: usize) {
    let base = format!("http://{server}");
    let farmer = client(loopback(2));
    sign_up(&farmer, &base, "Farmer").await;
    let mut perfect = StandardComputers::new(1, Duration::from_secs(1));
    let mut brain = perfect.computer(Level::Impossible);
    let (mut won, mut drawn, mut lost) = (0, 0, 0);
    for played in 1..=games {
        let url = format!("{base}/api/games");
        let begun = post(&farmer, url, json!({ "x": "human:Farmer", "o": "random" })).await;
        assert_eq!(begun["rated"], true, "{begun}");
        let game = play_out(&farmer, &base, begun, brain.as_mut()).await;
        match game["status"].as_str() {
            Some("x_won") => won += 1,
            Some("draw") => drawn += 1,
            _ => lost += 1,
        }
        if played % 10 == 0 || played == games {
            println!(
                "after {played} games ({won} won, {drawn} drawn, {lost} lost): {}",
                rating(&base, "Farmer").await
            );
        }
    }
    let strongest = Anchor::strongest(Geometry::classic()).points();
    let easy = Level::Easy.anchor(Geometry::classic()).rating.points();
    println!("the strongest level's anchor on 3x3: {strongest}; Easy's: {easy}");
}

/// `name`'s page, as anyone reads it through the API.
async fn player_page(base: &str, name: &str) -> Value {
    reqwest::get(format!("{base}/api/players/{name}"))
        .await
        .expect("the server answers")
        .json()
        .await
        .expect("JSON")
}

/// `name`'s rating on 3 x 3, as the API says it.
async fn rating(base: &str, name: &str) -> String {
    let page = player_page(base, name).await;
    match page["ratings"].as_array().and_then(|boards| boards.first()) {
        Some(board) => format!(
            "{} ± {} ({} games)",
            board["rating"], board["deviation"], board["games"]
        ),
        None => "not rated".into(),
    }
}

/// Ada's record and rating, as anyone reads them.
async fn standing(base: &str) -> String {
    let page = player_page(base, "Ada").await;
    format!(
        "record {}-{}-{}, rating {}",
        page["wins"],
        page["losses"],
        page["ties"],
        rating(base, "Ada").await
    )
}

pub async fn impersonate(server: SocketAddr) {
    let base = format!("http://{server}");
    // Ada plays a rated game against Random to its end: a record and a rating.
    let ada = client(loopback(2));
    sign_up(&ada, &base, "Ada").await;
    let mut perfect = StandardComputers::new(1, Duration::from_secs(1));
    let mut brain = perfect.computer(Level::Impossible);
    let url = format!("{base}/api/games");
    let begun = post(&ada, url, json!({ "x": "human:Ada", "o": "random" })).await;
    let id = begun["id"].as_str().unwrap().to_string();
    play_out(&ada, &base, begun, brain.as_mut()).await;
    let before = standing(&base).await;
    let mallory = client(loopback(4));
    sign_up(&mallory, &base, "Mallory").await;
    let nobody = client(loopback(5));
    let mut statuses: Vec<(String, u16)> = Vec::new();

    for (who, as_whom) in [("nobody", &nobody), ("Mallory", &mallory)] {
        for (what, x) in [
            ("Ada's name", "human:Ada"),
            ("a look-alike (Cyrillic А)", "human:\u{410}da"),
        ] {
            let url = format!("{base}/api/games");
            let started = post_status(as_whom, url, json!({ "x": x, "o": "impossible" })).await;
            statuses.push((format!("{who} starts a game under {what}"), started));
        }
    }
    // Twenty of Ada's games, each resigned by Mallory and by nobody.
    let mut resignations = [0u64; 2];
    for _ in 0..20 {
        let url = format!("{base}/api/games");
        let begun = post(&ada, url, json!({ "x": "human:Ada", "o": "impossible" })).await;
        let id = begun["id"].as_str().unwrap();
        for (at, as_whom) in [&mallory, &nobody].into_iter().enumerate() {
            let answer = as_whom
                .post(format!("{base}/api/games/{id}/resign"))
                .send()
                .await
                .unwrap();
            if answer.status().is_client_error() {
                resignations[at] += 1;
            }
        }
    }
    statuses.push((
        "Mallory's 20 resignations of Ada's seats refused".into(),
        resignations[0] as u16,
    ));
    statuses.push((
        "nobody's 20 resignations of Ada's seats refused".into(),
        resignations[1] as u16,
    ));
    for (who, as_whom) in [("nobody", &nobody), ("Mallory", &mallory)] {
        let listed = as_whom
            .get(format!("{base}/api/players/Ada/puzzles"))
            .send()
            .await
            .unwrap();
        statuses.push((
            format!("{who} lists Ada's puzzles").to_string(),
            listed.status().as_u16(),
        ));
        let url = format!("{base}/api/players/Ada/puzzles/{id}/2");
        let answered = post_status(as_whom, url, json!({ "cell": 5 })).await;
        statuses.push((format!("{who} answers a puzzle of Ada's"), answered));
    }
    // The host of a friend's game acting for the friend; the invite taken twice.
    let url = format!("{base}/api/games");
    let invite = json!({ "x": "human:Ada", "o": "human:Bob", "invite": "o" });
    let invited = post(&ada, url, invite).await;
    let invited_id = invited["id"].as_str().unwrap();
    let code = invited["invite"]["code"].clone();
    statuses.push((
        "seats of the friend's given to the host".into(),
        u16::from(invited["seats"].get("o").is_some()),
    ));
    let moves = format!("{base}/api/games/{invited_id}/moves");
    send(&ada, moves.clone(), json!({ "cell": 5 })).await;
    let host_as_friend = post_status(&ada, moves, json!({ "cell": 1 })).await;
    statuses.push((
        "the host plays the friend's move".to_string(),
        host_as_friend,
    ));
    let friend = client(loopback(6));
    let join = format!("{base}/api/games/{invited_id}/join");
    for n in ["first", "second"] {
        let joined = post_status(&friend, join.clone(), json!({ "invite": code })).await;
        statuses.push((
            format!("the invite brought by the friend, a {n} time"),
            joined,
        ));
    }
    let second = post_status(&mallory, join, json!({ "invite": code })).await;
    statuses.push((
        "the invite brought by someone else after it was taken".to_string(),
        second,
    ));

    let after = standing(&base).await;
    for (what, status) in statuses {
        println!("{status}  {what}");
    }
    println!("Ada before: {before}");
    println!("Ada after:  {after}");
}
