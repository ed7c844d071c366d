//! The attacks on the computer's thinking (issue #42): hints asked without a pause on
//! big boards, beside people playing against the computer.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::Client;
use serde_json::{Value, json};
use tokio::sync::Mutex;

use super::{loopback, memory, person_playing, summary};

/// A 7x7 game, 4 in a row, of a guest against Impossible.
fn big_game() -> Value {
    json!({"x": "human:Visitor", "o": "impossible", "size": 7, "win": 4})
}

/// The two people, from 127.0.0.2 (7x7) and 127.0.0.3 (3x3), until `until`.
async fn people(server: SocketAddr, until: Instant) -> [(Vec<Duration>, usize); 2] {
    let pause = Duration::from_millis(60);
    let small = json!({"x": "human:Visitor", "o": "impossible"});
    let (big, small) = tokio::join!(
        person_playing(server, loopback(2), big_game(), pause, until),
        person_playing(server, loopback(3), small, pause, until),
    );
    [big, small]
}

/// One attacker: a 7x7 game of two people (both seats its own), a hint before each
/// move, new games as they end; every status counted.
async fn attacker(
    client: Client,
    base: String,
    until: Instant,
    statuses: Arc<Mutex<BTreeMap<u16, usize>>>,
) {
    while Instant::now() < until {
        let Ok(created) = client
            .post(format!("{base}/api/games"))
            .json(&json!({"x": "human:Mallory", "o": "human:Trudy", "size": 7, "win": 4}))
            .send()
            .await
        else {
            continue;
        };
        let game: Value = created.json().await.unwrap_or_default();
        let Some(id) = game["id"].as_str() else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let seats = [
            game["seats"]["x"]["token"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
            game["seats"]["o"]["token"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
        ];
        let mut board = game["board"].as_str().unwrap_or_default().to_string();
        let mut turn = 0;
        while Instant::now() < until {
            let hint = client
                .post(format!("{base}/api/games/{id}/hint"))
                .bearer_auth(&seats[turn % 2])
                .send()
                .await;
            let status = hint.map_or(0, |hint| hint.status().as_u16());
            *statuses.lock().await.entry(status).or_default() += 1;
            // Spread over the board, so each hint is a position of its own.
            let free: Vec<usize> = board
                .char_indices()
                .filter(|(_, cell)| *cell == '.')
                .map(|(index, _)| index + 1)
                .collect();
            let Some(&cell) = free.get((turn * 17 + 5) % free.len().max(1)) else {
                break;
            };
            let Ok(moved) = client
                .post(format!("{base}/api/games/{id}/moves"))
                .bearer_auth(&seats[turn % 2])
                .json(&json!({ "cell": cell }))
                .send()
                .await
            else {
                break;
            };
            let after: Value = moved.json().await.unwrap_or_default();
            if after["status"] != "in_progress" {
                break;
            }
            board = after["board"].as_str().unwrap_or_default().to_string();
            turn += 1;
        }
    }
}

pub async fn hints(server: SocketAddr, pid: Option<u32>, attackers: u8, seconds: u64) {
    let base = format!("http://{server}");
    let half = Duration::from_secs(seconds);
    println!("at rest: {}", memory(pid));

    let [mut big_alone, mut small_alone] = people(server, Instant::now() + half).await;

    let until = Instant::now() + half;
    let statuses = Arc::new(Mutex::new(BTreeMap::new()));
    let mut attacks = Vec::new();
    for n in 0..attackers {
        let client = Client::builder()
            .local_address(loopback(10 + n))
            .timeout(Duration::from_secs(30))
            .build()
            .expect("a client");
        attacks.push(tokio::spawn(attacker(
            client,
            base.clone(),
            until,
            Arc::clone(&statuses),
        )));
    }
    let [mut big_attacked, mut small_attacked] = people(server, until).await;
    println!("under attack, at the end: {}", memory(pid));
    for attack in attacks {
        let _ = attack.await;
    }
    let measured = [
        ("7x7 against Impossible, alone:       ", &mut big_alone),
        ("7x7 against Impossible, under attack:", &mut big_attacked),
        ("3x3 against Impossible, alone:       ", &mut small_alone),
        ("3x3 against Impossible, under attack:", &mut small_attacked),
    ];
    for (what, (took, failed)) in measured {
        println!("{what} {} ({failed} failed)", summary(took));
    }
    println!(
        "{attackers} attackers' hints by status: {:?}",
        statuses.lock().await
    );
    tokio::time::sleep(Duration::from_secs(10)).await;
    println!("10 s after: {}", memory(pid));
}

/// The game `request` made by `client` on the server at `base`: the answer's JSON, or
/// `None` if it could not be made.
async fn new_game(client: &Client, base: &str, request: &Value) -> Option<Value> {
    let answer = client
        .post(format!("{base}/api/games"))
        .json(request)
        .send()
        .await
        .ok()?;
    answer.json().await.ok()
}

/// A short 7x7 game (4 in a row) of two seats both `client`'s, X winning along the top
/// row while O plays the bottom one: its id, or `None` if the server refused.
async fn short_big_game(client: &Client, base: &str) -> Option<String> {
    let request = json!({"x": "human:Mallory", "o": "human:Trudy", "size": 7, "win": 4});
    let game = new_game(client, base, &request).await?;
    let id = game["id"].as_str()?.to_string();
    let seats = [
        game["seats"]["x"]["token"].as_str()?.to_string(),
        game["seats"]["o"]["token"].as_str()?.to_string(),
    ];
    for (turn, cell) in [1, 43, 2, 44, 3, 45, 4].into_iter().enumerate() {
        client
            .post(format!("{base}/api/games/{id}/moves"))
            .bearer_auth(&seats[turn % 2])
            .json(&json!({ "cell": cell }))
            .send()
            .await
            .ok()?;
    }
    Some(id)
}

/// The processor time `pid` has used so far (user and system), from /proc.
fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's name, which ends with the last ')'.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // The kernel's USER_HZ is 100 on every Linux this runs on.
    Some(Duration::from_millis(ticks * 10))
}

/// A stranger at 127.0.0.3 plays a 3x3 game against Impossible to its end and asks its
/// review, polling every 50 ms: how long from the first ask to the review.
async fn strangers_review(server: SocketAddr) -> Option<Duration> {
    let client = Client::builder()
        .local_address(loopback(3))
        .timeout(Duration::from_secs(120))
        .build()
        .ok()?;
    let base = format!("http://{server}");
    let game = new_game(
        &client,
        &base,
        &json!({"x": "human:Stranger", "o": "impossible"}),
    )
    .await?;
    let id = game["id"].as_str()?.to_string();
    let token = game["seats"]["x"]["token"].as_str()?.to_string();
    let mut board = game["board"].as_str()?.to_string();
    while let Some(cell) = board.find('.').map(|index| index + 1) {
        let moved: Value = client
            .post(format!("{base}/api/games/{id}/moves"))
            .bearer_auth(&token)
            .json(&json!({ "cell": cell }))
            .send()
            .await
            .ok()?
            .json()
            .await
            .ok()?;
        if moved["status"] != "in_progress" {
            break;
        }
        board = moved["board"].as_str()?.to_string();
    }
    let asked = Instant::now();
    loop {
        let answer = client
            .get(format!("{base}/api/games/{id}/review"))
            .send()
            .await
            .ok()?;
        match answer.status().as_u16() {
            200 => return Some(asked.elapsed()),
            202 | 503 => tokio::time::sleep(Duration::from_millis(50)).await,
            other => {
                println!("the stranger's review: {other}");
                return None;
            }
        }
    }
}

/// The review flood of issue #42: `games` short 7x7 games from 127.0.0.10, then each
/// one's review asked (and asked again while it is computed); a stranger's 3x3 review
/// meanwhile; the server's processor use each second for 20 s after the flood.
pub async fn reviews(server: SocketAddr, pid: Option<u32>, games: usize) {
    let base = format!("http://{server}");
    println!("at rest: {}", memory(pid));
    let client = Client::builder()
        .local_address(loopback(10))
        .timeout(Duration::from_secs(30))
        .build()
        .expect("a client");
    let started = Instant::now();
    let mut ids = Vec::new();
    for _ in 0..games {
        if let Some(id) = short_big_game(&client, &base).await {
            ids.push(id);
        }
    }
    let mut statuses: BTreeMap<u16, usize> = BTreeMap::new();
    let mut sent = ids.len() * 8;
    for round in 0..3 {
        for id in &ids {
            let status = client
                .get(format!("{base}/api/games/{id}/review"))
                .send()
                .await
                .map_or(0, |answer| answer.status().as_u16());
            *statuses.entry(status).or_default() += 1;
            sent += 1;
        }
        if round < 2 {
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }
    let flood_ended = Instant::now();
    println!(
        "the flood: {} games, {sent} requests in {:.1} s; reviews asked, by status: {statuses:?}",
        ids.len(),
        (flood_ended - started).as_secs_f64()
    );
    match strangers_review(server).await {
        Some(took) => println!(
            "a stranger's 3x3 review: {:.0} ms",
            took.as_secs_f64() * 1000.0
        ),
        None => println!("a stranger's 3x3 review: failed"),
    }
    println!("after the flood: {}", memory(pid));
    let Some(pid) = pid else {
        return;
    };
    let mut busy = Vec::new();
    let mut before = cpu_time(pid).unwrap_or_default();
    for _ in 0..20 {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let now = cpu_time(pid).unwrap_or_default();
        busy.push(format!("{:.0}%", (now - before).as_secs_f64() * 100.0));
        before = now;
    }
    println!(
        "processor use in each second after the flood (100% is one core): {}",
        busy.join(" ")
    );
    println!("20 s after the flood: {}", memory(Some(pid)));
}
