//! Ratings over the web API: a board's players by rating with the levels' anchors
//! (`GET /api/ratings`), and a player's rating on each board with its history
//! (`GET /api/players/{name}`).

mod web_support;

use axum::http::StatusCode;
use serde_json::{Value, json};
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
async fn a_boards_provisional_ratings_are_listed_apart_from_its_ranking_best_first() {
    let server = ada_beat_bob().await;

    let answer = server.get("/api/ratings").await;

    assert_eq!(answer.status, StatusCode::OK);
    let provisional = &answer.json["provisional"];
    assert_eq!(names(provisional), ["Ada", "Bob"]);
    assert_eq!(provisional[0]["provisional"], true);
    assert_eq!(provisional[0]["anchor"], false);
    let ranked = answer.json["ratings"].as_array().unwrap();
    assert_eq!(ranked.len(), 4);
    assert!(ranked.iter().all(|row| row["anchor"] == true), "{ranked:?}");
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
    assert_eq!(names(&answer.json["provisional"]), Vec::<&str>::new());
}

#[tokio::test]
async fn an_ended_games_rating_changes_are_each_persons_before_and_after() {
    let server = Server::new();
    let game = server.rated_game("Ada", "Bob").await;
    server.play_in_turn(&game, &[1, 4, 2, 5, 3]).await;

    let answer = server.get(&format!("/api/games/{}/rating", game.id)).await;

    assert_eq!(answer.status, StatusCode::OK);
    let changes = answer.json["changes"].as_array().unwrap();
    let said: Vec<(&str, &str, i64)> = changes
        .iter()
        .map(|change| {
            let (before, after) = (
                change["before"].as_i64().unwrap(),
                change["after"].as_i64().unwrap(),
            );
            assert_eq!(change["change"].as_i64().unwrap(), after - before);
            (
                change["player"].as_str().unwrap(),
                change["mark"].as_str().unwrap(),
                before,
            )
        })
        .collect();
    assert_eq!(said, [("Ada", "X", 1500), ("Bob", "O", 1500)]);
    assert!(changes[0]["change"].as_i64().unwrap() > 0);
    assert!(changes[1]["change"].as_i64().unwrap() < 0);
}

#[tokio::test]
async fn a_casual_games_rating_changes_are_none() {
    let (server, game) = Server::with_game(two_people()).await;
    server.play_in_turn(&game, &[1, 4, 2, 5, 3]).await;

    let answer = server.get(&format!("/api/games/{}/rating", game.id)).await;

    assert_eq!(
        (answer.status, answer.json["changes"].clone()),
        (StatusCode::OK, json!([]))
    );
}

#[tokio::test]
async fn a_game_still_played_has_no_rating_changes_yet() {
    let server = Server::new();
    let game = server.rated_game("Ada", "Bob").await;

    let answer = server.get(&format!("/api/games/{}/rating", game.id)).await;

    assert_eq!(answer.status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn a_game_not_kept_has_no_rating_changes() {
    let server = Server::new();

    let answer = server
        .get(&format!("/api/games/{}/rating", "0".repeat(32)))
        .await;

    assert_eq!(answer.status, StatusCode::NOT_FOUND);
}
