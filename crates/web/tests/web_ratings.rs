//! Ratings over the web API: a board's players by rating with the levels' anchors
//! (`GET /api/ratings`), and a player's rating on each board with its history
//! (`GET /api/players/{name}`).

mod web_support;

use axum::http::StatusCode;
use serde_json::Value;
use tictactoe_core::players::Anchor;
use web_support::{Server, two_people};

/// A server on which Ada (X) has beaten Bob (O) on 3 x 3, each signed in.
async fn ada_beat_bob() -> Server {
    let server = Server::new();
    let game = server.rated_game("Ada", "Bob").await;
    server.play_in_turn(&game, &[1, 4, 2, 5, 3]).await;
    server
}

fn names(rows: &Value) -> Vec<&str> {
    rows.as_array()
        .expect("rows")
        .iter()
        .map(|row| row["name"].as_str().expect("a name"))
        .collect()
}

#[tokio::test]
async fn a_boards_ratings_list_people_and_the_levels_anchors_best_first() {
    let server = ada_beat_bob().await;

    let answer = server.get("/api/ratings").await;

    assert_eq!(answer.status, StatusCode::OK);
    let rows = &answer.json["ratings"];
    let names = names(rows);
    assert_eq!(names.len(), 6);
    let (ada, bob) = (
        names.iter().position(|name| *name == "Ada").unwrap(),
        names.iter().position(|name| *name == "Bob").unwrap(),
    );
    assert!(ada < bob, "{names:?}");
    assert_eq!(rows[ada]["provisional"], true);
    assert_eq!(rows[ada]["anchor"], false);
    assert!(
        rows.as_array()
            .unwrap()
            .iter()
            .filter(|row| row["anchor"] == true)
            .count()
            == 4
    );
}

#[tokio::test]
async fn another_boards_ratings_hold_only_the_anchors() {
    let server = ada_beat_bob().await;

    let answer = server.get("/api/ratings?size=4&win=3").await;

    assert_eq!(
        (answer.json["size"].clone(), answer.json["win"].clone()),
        (4.into(), 3.into())
    );
    assert_eq!(names(&answer.json["ratings"]).len(), 4);
}

#[tokio::test]
async fn a_board_that_cannot_be_is_a_bad_request() {
    let server = Server::new();

    let answer = server.get("/api/ratings?size=4&win=5").await;

    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_players_page_gives_their_rating_on_each_board_and_its_history() {
    let server = ada_beat_bob().await;

    let answer = server.get("/api/players/Ada").await;

    let ratings = &answer.json["ratings"];
    assert_eq!(ratings.as_array().map(Vec::len), Some(1));
    assert_eq!(
        (ratings[0]["size"].clone(), ratings[0]["win"].clone()),
        (3.into(), 3.into())
    );
    // A win from 1500 lifts Ada, but no higher than perfect play's anchor.
    let strongest = Anchor::strongest(tictactoe_core::domain::Geometry::classic());
    assert_eq!(ratings[0]["rating"].as_i64().unwrap(), strongest.points());
    assert_eq!(ratings[0]["history"].as_array().map(Vec::len), Some(1));
    assert_eq!(ratings[0]["history"][0]["rating"], ratings[0]["rating"]);
}

#[tokio::test]
async fn a_game_with_a_guest_rates_nobody() {
    let (server, game) = Server::with_game(two_people()).await;
    server.play_in_turn(&game, &[1, 4, 2, 5, 3]).await;

    let answer = server.get("/api/ratings").await;

    assert_eq!(game.game["rated"], false);
    assert_eq!(names(&answer.json["ratings"]).len(), 4, "the anchors alone");
}
