//! The web API over a real socket: the same contract as in-process, the live event
//! stream, and stopping cleanly. (The `tictactoe serve` binary on Ctrl-C is tested at the top, in
//! tests/serve.rs.)

mod web_support;

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::Value;
use tictactoe_web::GameLimits;
use web_support::{Server, test_game_limits, two_people};

async fn post(url: &str, token: Option<&str>, body: &str) -> (StatusCode, Value) {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .body(body.to_string());
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_a_socket_games_are_created_played_and_refused_with_the_documented_statuses() {
    // (Past the cap on games in memory, a new game is still made: the last request.)
    // Arrange
    let server = Server::with_game_limits(GameLimits {
        max_games: 2,
        ..test_game_limits()
    });
    let running = server.listen().await;
    let games = running.url("/api/games");
    let (created, game) = post(&games, None, r#"{"x":"human:Ada","o":"impossible"}"#).await;
    let id = game["id"].as_str().unwrap();
    let token = game["seats"]["x"]["token"].as_str().unwrap();
    let moves = running.url(&format!("/api/games/{id}/moves"));
    let (_, other) = post(&games, None, &two_people().to_string()).await;

    // Act
    let (played, after) = post(&moves, Some(token), r#"{"cell": 5}"#).await;
    let refusals = [
        post(&games, None, "not json").await.0,
        post(&moves, Some(token), r#"{"cell": 99}"#).await.0,
        post(&moves, None, r#"{"cell": 1}"#).await.0,
        post(
            &moves,
            other["seats"]["o"]["token"].as_str(),
            r#"{"cell": 1}"#,
        )
        .await
        .0,
        post(
            &running.url("/api/games/feed/moves"),
            Some(token),
            r#"{"cell": 1}"#,
        )
        .await
        .0,
        post(&moves, Some(token), r#"{"cell": 5}"#).await.0,
        post(
            &moves,
            Some(token),
            &format!(r#"{{"cell": 1, "x": "{}"}}"#, "y".repeat(10_000)),
        )
        .await
        .0,
        post(&games, None, &two_people().to_string()).await.0,
    ];

    // Assert
    assert_eq!(created, StatusCode::CREATED);
    assert_eq!(played, StatusCode::OK);
    assert_eq!(after["moves"].as_array().unwrap().len(), 2);
    assert_eq!(
        refusals.map(|status| status.as_u16()),
        [400, 400, 401, 403, 404, 409, 413, 201]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_hears_each_move_as_it_happens() {
    // Arrange: Bob's screen listens to the game's events.
    let server = Server::new();
    let running = server.listen().await;
    let (_, game) = post(&running.url("/api/games"), None, &two_people().to_string()).await;
    let id = game["id"].as_str().unwrap();
    let mut events = reqwest::get(running.url(&format!("/api/games/{id}/events")))
        .await
        .unwrap();
    let first = String::from_utf8(events.chunk().await.unwrap().unwrap().to_vec()).unwrap();

    // Act: Ada moves.
    post(
        &running.url(&format!("/api/games/{id}/moves")),
        game["seats"]["x"]["token"].as_str(),
        r#"{"cell": 3}"#,
    )
    .await;
    let next = tokio::time::timeout(Duration::from_secs(5), events.chunk())
        .await
        .expect("an event after the move")
        .unwrap()
        .unwrap();

    // Assert
    assert_eq!(events.headers()["content-type"], "text/event-stream");
    assert!(first.contains("\"board\":\".........\""), "{first}");
    let next = String::from_utf8(next.to_vec()).unwrap();
    assert!(next.starts_with("event: game\n"), "{next}");
    assert!(next.contains("\"board\":\"..X......\""), "{next}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_ends_the_event_streams_and_the_server_returns() {
    let server = Server::new();
    let mut running = server.listen().await;
    let (_, game) = post(&running.url("/api/games"), None, &two_people().to_string()).await;
    let id = game["id"].as_str().unwrap();
    let mut events = reqwest::get(running.url(&format!("/api/games/{id}/events")))
        .await
        .unwrap();
    events.chunk().await.unwrap();

    running.stop();
    let stopped = tokio::time::timeout(Duration::from_secs(5), &mut running.finished).await;

    assert!(matches!(stopped, Ok(Ok(Ok(())))), "{stopped:?}");
    let end = tokio::time::timeout(Duration::from_secs(5), events.chunk()).await;
    assert!(matches!(end, Ok(Ok(None))), "the stream ended: {end:?}");
}
