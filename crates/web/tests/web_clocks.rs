//! Games on a clock (issue #45): the server is the only judge of time. A player who
//! stops moving loses on time, with the rating changed as for any loss; a game whose
//! first move is not made in time is aborted and rates nobody; a game overdue in the
//! store is ended by whichever server finds it. Not timed: each waits for a deadline
//! of its own, the shortest a clock allows (5 s) or a first-move window shortened here.

mod web_support;

use std::time::{Duration, Instant};

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use tictactoe_core::ports::{GameId, GameStore};
use tictactoe_web::GameLimits;
use web_support::{Created, Server, test_game_limits};

/// Five seconds a move: the shortest clock there is.
fn five_seconds_a_move() -> Value {
    json!({ "per_move": 5 })
}

/// A server whose games give each side `first_move` for its first move, ending games on
/// time (its housekeeping runs).
fn server_with_first_move_within(first_move: Duration) -> Server {
    let server = Server::with_game_limits(GameLimits {
        first_move_within: first_move,
        overdue_every: Duration::from_millis(100),
        ..test_game_limits()
    });
    server.games.spawn_housekeeping();
    server
}

/// A rated game on `clock` between the accounts Ada (X) and Bob (O), each seat held
/// through its account's personal token: Ada begins it and invites Bob, who takes it.
async fn rated_game_on(server: &Server, clock: Value) -> Created {
    let ada = server.account_token("Ada").await;
    let bob = server.account_token("Bob").await;
    let request = json!({ "x": "human:Ada", "o": "human:Bob", "invite": "o", "clock": clock });
    let begun = server
        .send(Method::POST, "/api/games", Some(&ada), Some(request))
        .await;
    assert_eq!(begun.status, StatusCode::CREATED, "{}", begun.text);
    let id = begun.json["id"].as_str().unwrap().to_string();
    let code = begun.json["invite"]["code"].as_str().unwrap();
    let joined = server
        .send(
            Method::POST,
            &format!("/api/games/{id}/join"),
            Some(&bob),
            Some(json!({ "invite": code })),
        )
        .await;
    assert_eq!(joined.status, StatusCode::OK, "{}", joined.text);
    Created {
        id,
        game: joined.json,
        x: Some(ada),
        o: Some(bob),
    }
}

/// The game's status once it is no longer `in_progress`, asked every 50 ms for at most
/// `within`; the last status seen if it never changed.
async fn status_after(server: &Server, id: &str, within: Duration) -> String {
    let started = Instant::now();
    loop {
        let game = server.get(&format!("/api/games/{id}")).await;
        let status = game.json["status"].as_str().unwrap_or_default().to_string();
        if status != "in_progress" || started.elapsed() > within {
            return status;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_game_on_a_clock_shows_its_control_each_sides_time_and_whose_runs() {
    // Arrange
    let server = Server::new();
    let game = rated_game_on(&server, json!({ "initial": 60, "increment": 2 })).await;

    // Act
    server.play_in_turn(&game, &[1, 5]).await;
    let seen = server.get(&game.api("")).await;

    // Assert
    let clock = &seen.json["clock"];
    assert_eq!(clock["control"], json!({ "initial": 60, "increment": 2 }));
    assert_eq!(clock["running"], "X");
    assert!(clock["x_ms"].as_u64().unwrap() <= 60_000, "{clock}");
    // Nothing is spent, nor added, before both sides have moved once.
    assert_eq!(clock["o_ms"], 60_000, "{clock}");
    assert_eq!(clock["first_move_ms"], Value::Null);
}

#[tokio::test]
async fn before_both_sides_move_the_clock_waits_for_a_first_move() {
    // Arrange
    let server = Server::new();
    let game = rated_game_on(&server, five_seconds_a_move()).await;

    // Act
    let seen = server.get(&game.api("")).await;

    // Assert
    let clock = &seen.json["clock"];
    assert_eq!(clock["running"], Value::Null);
    assert!(clock["first_move_ms"].as_u64().unwrap() > 0, "{clock}");
}

#[tokio::test]
async fn a_player_who_stops_moving_loses_on_time_and_their_rating_falls() {
    // Arrange
    let server = server_with_first_move_within(Duration::from_secs(30));
    let game = rated_game_on(&server, five_seconds_a_move()).await;
    server.play_in_turn(&game, &[1, 5]).await;

    // Act: Ada does not move again.
    let status = status_after(&server, &game.id, Duration::from_secs(10)).await;

    // Assert
    assert_eq!(status, "x_timeout");
    let changes = server
        .store
        .rating_changes(&[GameId::parse(&game.id).unwrap()])
        .unwrap();
    assert_eq!(changes.len(), 2);
    assert!(changes[0].after.points() < changes[0].before.points());
    assert!(changes[1].after.points() > changes[1].before.points());
}

#[tokio::test]
async fn a_move_sent_after_the_deadline_is_refused_and_the_game_is_lost_on_time() {
    // Arrange: no housekeeping, so only the move finds the time gone.
    let server = Server::new();
    let game = rated_game_on(&server, five_seconds_a_move()).await;
    server.play_in_turn(&game, &[1, 5]).await;
    tokio::time::sleep(Duration::from_millis(5_100)).await;

    // Act
    let late = server.play(&game.id, game.x_token(), 9).await;

    // Assert
    assert_eq!(late.status, StatusCode::CONFLICT, "{}", late.text);
    let seen = server.get(&game.api("")).await;
    assert_eq!(seen.json["status"], "x_timeout");
    assert_eq!(seen.json["board"], "X...O....");
    assert_eq!(seen.json["clock"]["x_ms"], 0, "{}", seen.text);
    assert_eq!(seen.json["clock"]["running"], Value::Null);
}

#[tokio::test]
async fn a_game_whose_first_move_is_not_made_in_time_is_aborted_and_rates_nobody() {
    // Arrange
    let server = server_with_first_move_within(Duration::from_millis(300));
    let game = rated_game_on(&server, five_seconds_a_move()).await;

    // Act
    let status = status_after(&server, &game.id, Duration::from_secs(5)).await;

    // Assert
    assert_eq!(status, "x_aborted");
    let id = GameId::parse(&game.id).unwrap();
    assert_eq!(server.store.rating_changes(&[id]).unwrap(), []);
    assert!(server.scoreboard().standings().is_empty());
}

#[tokio::test]
async fn a_game_overdue_in_the_store_is_ended_by_a_server_that_never_held_it() {
    // Arrange: the server that began the game stops before its deadline.
    let limits = GameLimits {
        first_move_within: Duration::from_millis(300),
        overdue_every: Duration::from_millis(100),
        ..test_game_limits()
    };
    let first = Server::with_game_limits(limits);
    let game = rated_game_on(&first, five_seconds_a_move()).await;

    // Act
    let second = first.restart();
    second.games.spawn_housekeeping();
    tokio::time::sleep(Duration::from_millis(1_000)).await;

    // Assert
    let kept = second.kept(&game.id);
    assert!(kept.ending.is_some(), "{kept:?}");
}

#[tokio::test]
async fn a_clock_too_short_or_against_the_computer_is_a_bad_request() {
    // Arrange
    let server = Server::new();
    let requests = [
        json!({ "x": "human:Ada", "o": "human:Bob", "clock": { "per_move": 4 } }),
        json!({ "x": "human:Ada", "o": "easy", "clock": { "per_move": 30 } }),
        json!({ "x": "human:Ada", "o": "human:Bob", "clock": { "initial": 60, "per_move": 30 } }),
    ];

    for request in requests {
        // Act
        let answer = server.create_raw(request, None).await;

        // Assert
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{}", answer.text);
        assert!(answer.text.contains("clock"), "{}", answer.text);
    }
}
