//! A client of the web API, as programs outside the server use it: what a new game or a
//! move answers (only the fields a client needs), and a request's JSON answer. Shared by
//! the browser tests and by the measuring programs in `examples/` (`load`, `crash`,
//! `hostile`), which include this file with `#[path]`, so that the client's side of the
//! API is written once.
#![allow(dead_code)] // each program uses its own part

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

/// What the server answers to a new game or a move: only what a client needs.
#[derive(Debug, Clone, Deserialize)]
pub struct Answer {
    #[serde(default)]
    pub id: String,
    pub board: String,
    pub status: String,
    /// The seats a new game hands out (none in the answer to a move).
    #[serde(default)]
    pub seats: Option<Seats>,
}

/// The guests' seats of a new game: X's when a guest plays it, O's too when a guest
/// plays it (an account's seat is its session's or token's, and has none here).
#[derive(Debug, Clone, Deserialize)]
pub struct Seats {
    #[serde(default)]
    pub x: Option<Seat>,
    #[serde(default)]
    pub o: Option<Seat>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Seat {
    pub token: String,
}

/// How many games each player has played, from a scoreboard as `/api/scores` answers
/// it.
pub fn games_by_name(scores: &Value) -> HashMap<String, u64> {
    scores["players"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            (
                p["name"].as_str().unwrap_or_default().to_string(),
                p["games"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

/// How many games the players whose names start with `prefix` have played, in all
/// (each game counts once for each of its players so named).
pub fn games_of_players_named(games: &HashMap<String, u64>, prefix: &str) -> u64 {
    games
        .iter()
        .filter(|(name, _)| name.starts_with(prefix))
        .map(|(_, games)| games)
        .sum()
}

/// The JSON the server answers `request` with. For tests and measuring programs: a
/// request that gets no answer, or an answer that is not JSON, stops the run there.
pub async fn json_answer(request: reqwest::RequestBuilder) -> Value {
    request
        .send()
        .await
        .expect("the server answers")
        .json()
        .await
        .expect("the answer is JSON")
}
