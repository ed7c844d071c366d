//! Finding an opponent (issue #45), through the API: a seek opened in the lobby and
//! accepted, quick pairing by rating, TV; each person in their own seat, never a token
//! handed across; every "no" with its status.

mod web_support;

use std::time::{Duration, Instant};

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use tictactoe_web::GameLimits;
use web_support::{Answer, Server, test_game_limits};

/// A seek on 3 x 3 at five seconds a move, rated or not.
fn seek(rated: bool) -> Value {
    json!({ "size": 3, "rated": rated, "clock": { "per_move": 5 } })
}

/// A server whose housekeeping runs (pairing, seeks that expire), seeks lasting `lasts`
/// without a sign of life.
fn server_pairing(lasts: Duration) -> Server {
    let server = Server::with_game_limits(GameLimits {
        seek_lasts: lasts,
        ..test_game_limits()
    });
    server.games.spawn_housekeeping();
    server
}

async fn open(server: &Server, path: &str, credential: Option<&str>, body: Value) -> Answer {
    server
        .send(Method::POST, path, credential, Some(body))
        .await
}

async fn accept(server: &Server, id: &str, credential: Option<&str>) -> Answer {
    server
        .send(
            Method::POST,
            &format!("/api/seeks/{id}/accept"),
            credential,
            None,
        )
        .await
}

async fn look(server: &Server, id: &str, credential: Option<&str>) -> Answer {
    server
        .send(Method::GET, &format!("/api/seeks/{id}"), credential, None)
        .await
}

/// The seek's JSON once it is taken, asked every 50 ms for at most `within`.
async fn taken(server: &Server, id: &str, credential: &str, within: Duration) -> Value {
    let started = Instant::now();
    loop {
        let looked = look(server, id, Some(credential)).await;
        if looked.json["status"] == "taken" || started.elapsed() > within {
            return looked.json;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn id_of(answer: &Answer) -> String {
    answer.json["id"].as_str().expect("an id").to_string()
}

#[tokio::test]
async fn an_open_seek_is_listed_in_the_lobby_with_who_their_rating_the_board_and_clock() {
    // Arrange
    let server = Server::new();
    let ada = server.account_token("Ada").await;

    // Act
    let opened = open(&server, "/api/seeks", Some(&ada), seek(true)).await;
    let lobby = server.get("/api/lobby").await;

    // Assert
    assert_eq!(opened.status, StatusCode::CREATED, "{}", opened.text);
    let listed = &lobby.json["seeks"][0];
    assert_eq!(listed["owner"], "Ada");
    assert_eq!(listed["rating"], 1500);
    assert_eq!(
        (listed["size"].clone(), listed["win"].clone()),
        (json!(3), json!(3))
    );
    assert_eq!(listed["clock"], json!({ "per_move": 5 }));
    assert_eq!(listed["rated"], true);
    assert_eq!(listed["status"], "open");
}

#[tokio::test]
async fn accepting_a_seek_begins_a_game_with_each_person_in_their_own_seat() {
    // Arrange
    let server = Server::new();
    let ada = server.account_token("Ada").await;
    let bob = server.account_token("Bob").await;
    let opened = open(&server, "/api/seeks", Some(&ada), seek(true)).await;

    // Act
    let accepted = accept(&server, &id_of(&opened), Some(&bob)).await;

    // Assert
    assert_eq!(accepted.status, StatusCode::CREATED, "{}", accepted.text);
    let game = id_of(&accepted);
    let seen = look(&server, &id_of(&opened), Some(&ada)).await;
    assert_eq!(seen.json["status"], "taken");
    assert_eq!(seen.json["game"], game.as_str());
    let ada_mark = seen.json["mark"].as_str().unwrap();
    let (first, second) = if ada_mark == "X" {
        (&ada, &bob)
    } else {
        (&bob, &ada)
    };
    assert_eq!(server.play(&game, first, 5).await.status, StatusCode::OK);
    assert_eq!(server.play(&game, second, 1).await.status, StatusCode::OK);
    let played = server.get(&format!("/api/games/{game}")).await;
    assert_eq!(played.json["rated"], true);
    assert_eq!(played.json["clock"]["running"], "X");
}

#[tokio::test]
async fn a_guest_who_opened_a_seek_plays_in_the_game_it_became_with_the_seeks_own_secret() {
    // Arrange
    let server = Server::new();
    let opened = open(&server, "/api/seeks", None, seek(false)).await;
    let secret = opened.json["token"].as_str().unwrap().to_string();
    let guest = accept(&server, &id_of(&opened), None).await;
    let game = id_of(&guest);

    // Act
    let looked = look(&server, &id_of(&opened), Some(&secret)).await;

    // Assert
    let cookie = looked.headers["set-cookie"].to_str().unwrap();
    assert!(
        cookie.starts_with(&format!(
            "seat_{}=",
            looked.json["mark"].as_str().unwrap().to_lowercase()
        )),
        "{cookie}"
    );
    assert!(
        cookie.contains(&format!("Path=/api/games/{game}")),
        "{cookie}"
    );
    let seen = server
        .send(
            Method::GET,
            &format!("/api/games/{game}"),
            Some(&secret),
            None,
        )
        .await;
    assert_eq!(
        seen.json["yours"],
        json!([looked.json["mark"]]),
        "{}",
        seen.text
    );
}

#[tokio::test]
async fn a_seek_is_accepted_once_and_never_by_its_owner() {
    // Arrange
    let server = Server::new();
    let ada = server.account_token("Ada").await;
    let bob = server.account_token("Bob").await;
    let cyd = server.account_token("Cyd").await;
    let opened = open(&server, "/api/seeks", Some(&ada), seek(true)).await;
    let id = id_of(&opened);

    // Act
    let by_owner = accept(&server, &id, Some(&ada)).await;
    let first = accept(&server, &id, Some(&bob)).await;
    let second = accept(&server, &id, Some(&cyd)).await;

    // Assert
    assert_eq!(by_owner.status, StatusCode::CONFLICT, "{}", by_owner.text);
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    assert_eq!(second.status, StatusCode::CONFLICT, "{}", second.text);
}

#[tokio::test]
async fn a_rated_seek_needs_an_account_to_open_or_to_accept() {
    // Arrange
    let server = Server::new();
    let ada = server.account_token("Ada").await;
    let opened = open(&server, "/api/seeks", Some(&ada), seek(true)).await;

    // Act
    let guest_opens = open(&server, "/api/seeks", None, seek(true)).await;
    let guest_accepts = accept(&server, &id_of(&opened), None).await;

    // Assert
    assert_eq!(
        guest_opens.status,
        StatusCode::UNAUTHORIZED,
        "{}",
        guest_opens.text
    );
    assert_eq!(
        guest_accepts.status,
        StatusCode::UNAUTHORIZED,
        "{}",
        guest_accepts.text
    );
}

#[tokio::test]
async fn only_its_owner_closes_a_seek() {
    // Arrange
    let server = Server::new();
    let ada = server.account_token("Ada").await;
    let bob = server.account_token("Bob").await;
    let opened = open(&server, "/api/seeks", Some(&ada), seek(true)).await;
    let path = format!("/api/seeks/{}", id_of(&opened));

    // Act
    let nobody = server.send(Method::DELETE, &path, None, None).await;
    let somebody_else = server.send(Method::DELETE, &path, Some(&bob), None).await;
    let owner = server.send(Method::DELETE, &path, Some(&ada), None).await;
    let again = server.send(Method::DELETE, &path, Some(&ada), None).await;

    // Assert
    assert_eq!(nobody.status, StatusCode::UNAUTHORIZED, "{}", nobody.text);
    assert_eq!(
        somebody_else.status,
        StatusCode::FORBIDDEN,
        "{}",
        somebody_else.text
    );
    assert_eq!(owner.status, StatusCode::NO_CONTENT, "{}", owner.text);
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
    assert_eq!(server.get("/api/lobby").await.json["seeks"], json!([]));
}

#[tokio::test]
async fn opening_a_second_seek_closes_the_first() {
    // Arrange
    let server = Server::new();
    let ada = server.account_token("Ada").await;
    let first = open(&server, "/api/seeks", Some(&ada), seek(true)).await;

    // Act
    open(&server, "/api/seeks", Some(&ada), seek(false)).await;

    // Assert
    let lobby = server.get("/api/lobby").await;
    assert_eq!(lobby.json["seeks"].as_array().unwrap().len(), 1);
    assert_eq!(
        look(&server, &id_of(&first), Some(&ada)).await.json["status"],
        "closed"
    );
}

#[tokio::test]
async fn a_seek_whose_owner_shows_no_sign_of_life_leaves_the_lobby() {
    // Arrange
    let server = server_pairing(Duration::from_millis(300));
    let ada = server.account_token("Ada").await;
    open(&server, "/api/seeks", Some(&ada), seek(true)).await;

    // Act
    tokio::time::sleep(Duration::from_millis(600)).await;

    // Assert
    assert_eq!(server.get("/api/lobby").await.json["seeks"], json!([]));
}

#[tokio::test]
async fn a_bad_board_or_clock_is_a_bad_request_and_an_unknown_seek_is_not_found() {
    // Arrange
    let server = Server::new();
    let bad = [
        json!({ "size": 8, "clock": { "per_move": 5 } }),
        json!({ "size": 3, "clock": { "per_move": 2 } }),
        json!({ "size": 3 }),
    ];

    for body in bad {
        // Act
        let answer = open(&server, "/api/seeks", None, body).await;

        // Assert
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{}", answer.text);
    }
    let unknown = look(&server, &"0".repeat(32), None).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND, "{}", unknown.text);
}

#[tokio::test]
async fn quick_pairing_pairs_two_people_of_close_ratings_into_one_game_on_opposite_sides() {
    // Arrange
    let server = server_pairing(Duration::from_secs(20));
    let ada = server.account_token("Ada").await;
    let bob = server.account_token("Bob").await;

    // Act
    let ada_seek = id_of(&open(&server, "/api/pairing", Some(&ada), seek(true)).await);
    let bob_seek = id_of(&open(&server, "/api/pairing", Some(&bob), seek(true)).await);
    let ada_seen = taken(&server, &ada_seek, &ada, Duration::from_secs(5)).await;
    let bob_seen = taken(&server, &bob_seek, &bob, Duration::from_secs(5)).await;

    // Assert
    assert_eq!(ada_seen["status"], "taken", "{ada_seen}");
    assert_eq!(ada_seen["game"], bob_seen["game"]);
    assert_ne!(ada_seen["mark"], bob_seen["mark"]);
}

/// (That the pairing rule never pairs one person's two seeks is the core's test,
/// `rules::pairing`: here a second request closes the first before any pairing.)
#[tokio::test]
async fn a_second_quick_pairing_of_one_person_closes_the_first_and_waits_alone() {
    // Arrange
    let server = server_pairing(Duration::from_secs(20));
    let ada = server.account_token("Ada").await;

    // Act
    let first = id_of(&open(&server, "/api/pairing", Some(&ada), seek(true)).await);
    let second = id_of(&open(&server, "/api/pairing", Some(&ada), seek(true)).await);
    tokio::time::sleep(Duration::from_millis(1_200)).await;

    // Assert: the second closed the first, and waits alone.
    assert_eq!(
        look(&server, &first, Some(&ada)).await.json["status"],
        "closed"
    );
    assert_eq!(
        look(&server, &second, Some(&ada)).await.json["status"],
        "open"
    );
}

#[tokio::test]
async fn tv_shows_the_live_game_of_the_people_who_met_here_and_nothing_once_it_ends() {
    // Arrange
    let server = Server::new();
    let ada = server.account_token("Ada").await;
    let bob = server.account_token("Bob").await;
    let opened = open(&server, "/api/seeks", Some(&ada), seek(true)).await;
    let game = id_of(&accept(&server, &id_of(&opened), Some(&bob)).await);

    // Act
    let live = server.get("/api/tv").await;
    server.post(&game, "resign", Some(&ada)).await;
    let after = server.get("/api/tv").await;

    // Assert
    assert_eq!(live.json["game"], game.as_str());
    assert_eq!(after.json["game"], Value::Null);
}

async fn block(server: &Server, credential: &str, name: &str) -> Answer {
    open(
        server,
        "/api/blocks",
        Some(credential),
        json!({ "name": name }),
    )
    .await
}

#[tokio::test]
async fn two_people_one_of_whom_blocked_the_other_are_never_paired() {
    // Arrange
    let server = server_pairing(Duration::from_secs(20));
    let ada = server.account_token("Ada").await;
    let bob = server.account_token("Bob").await;
    block(&server, &bob, "ada").await;

    // Act
    let ada_seek = id_of(&open(&server, "/api/pairing", Some(&ada), seek(true)).await);
    let bob_seek = id_of(&open(&server, "/api/pairing", Some(&bob), seek(true)).await);
    tokio::time::sleep(Duration::from_millis(1_500)).await;

    // Assert
    assert_eq!(
        look(&server, &ada_seek, Some(&ada)).await.json["status"],
        "open"
    );
    assert_eq!(
        look(&server, &bob_seek, Some(&bob)).await.json["status"],
        "open"
    );
}

#[tokio::test]
async fn neither_of_two_people_one_of_whom_blocked_the_other_accepts_the_others_seek() {
    // Arrange
    let server = Server::new();
    let ada = server.account_token("Ada").await;
    let bob = server.account_token("Bob").await;
    block(&server, &ada, "Bob").await;
    let adas = id_of(&open(&server, "/api/seeks", Some(&ada), seek(true)).await);

    // Act
    let bob_accepts = accept(&server, &adas, Some(&bob)).await;
    let bobs = id_of(&open(&server, "/api/seeks", Some(&bob), seek(true)).await);
    let ada_accepts = accept(&server, &bobs, Some(&ada)).await;

    // Assert
    assert_eq!(
        bob_accepts.status,
        StatusCode::FORBIDDEN,
        "{}",
        bob_accepts.text
    );
    assert_eq!(
        ada_accepts.status,
        StatusCode::FORBIDDEN,
        "{}",
        ada_accepts.text
    );
}

#[tokio::test]
async fn an_accounts_blocks_are_its_own_to_list_and_undo() {
    // Arrange
    let server = Server::new();
    let ada = server.account_token("Ada").await;

    // Act
    let first = block(&server, &ada, "Bob").await;
    let again = block(&server, &ada, "bob").await;
    let herself = block(&server, &ada, "ADA").await;
    let listed = server
        .send(Method::GET, "/api/blocks", Some(&ada), None)
        .await;
    let nobody = server.send(Method::GET, "/api/blocks", None, None).await;
    let undone = server
        .send(Method::DELETE, "/api/blocks/Bob", Some(&ada), None)
        .await;
    let undone_again = server
        .send(Method::DELETE, "/api/blocks/Bob", Some(&ada), None)
        .await;

    // Assert
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(herself.status, StatusCode::BAD_REQUEST, "{}", herself.text);
    assert_eq!(listed.json, json!({ "blocked": ["Bob"] }));
    assert_eq!(nobody.status, StatusCode::UNAUTHORIZED, "{}", nobody.text);
    assert_eq!(undone.status, StatusCode::NO_CONTENT, "{}", undone.text);
    assert_eq!(
        undone_again.status,
        StatusCode::NOT_FOUND,
        "{}",
        undone_again.text
    );
}
