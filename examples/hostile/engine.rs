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
