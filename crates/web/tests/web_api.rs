//! The web API's contract, called in-process through the router: the shape of a game,
//! each request, and every refusal's status.

mod web_support;

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use tictactoe_core::domain::Mark;
use tictactoe_json::scoreboard_json;
use tictactoe_web::GameLimits;
use web_support::{
    Answer, Created, Server, ada_against, limits, next_event, test_game_limits, two_people,
    two_people_together,
};

/// A server whose finished games leave its memory at once (they stay in the store).
fn forgetting_finished_games() -> Server {
    Server::with_game_limits(GameLimits {
        finished: Duration::ZERO,
        ..test_game_limits()
    })
}

/// The scoreboard's rows once Ada has beaten Bob, as the API words them.
fn ada_beat_bob() -> Value {
    json!([
        { "name": "Ada", "wins": 1, "losses": 0, "ties": 0, "games": 1 },
        { "name": "Bob", "wins": 0, "losses": 1, "ties": 0, "games": 1 }
    ])
}

#[tokio::test]
async fn a_new_game_against_the_computer_answers_the_game_and_the_persons_seat_only() {
    let server = Server::new();

    let game = server
        .create(json!({ "x": "human", "o": "impossible" }))
        .await;

    let json = &game.game;
    assert_eq!(json["id"].as_str().unwrap().len(), 32);
    assert_eq!(json["size"], 3);
    assert_eq!(json["win"], 3);
    assert_eq!(json["board"], ".........");
    assert_eq!(json["status"], "in_progress");
    assert_eq!(json["to_move"], "X");
    assert_eq!(json["moves"], json!([]));
    assert_eq!(
        json["players"],
        json!({
            "x": { "name": "Player 1", "kind": "human", "moved": false },
            "o": { "name": "Computer (Impossible)", "kind": "computer", "level": "impossible", "moved": false }
        })
    );
    let token = game.x_token();
    assert_eq!(token.len(), 32);
    // The seat's link is the game's page: no secret in an address.
    assert_eq!(json["seats"]["x"]["url"], format!("/games/{}", game.id));
    assert!(game.o.is_none(), "no token for the computer's seat");
    assert!(json.get("line").is_none());
}

#[tokio::test]
async fn a_move_is_answered_with_the_game_after_the_computers_reply() {
    let (server, game) = Server::with_game(json!({ "x": "human", "o": "impossible" })).await;

    let answer = server.play(&game.id, game.x_token(), 5).await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(answer.json["moves"].as_array().unwrap().len(), 2);
    assert_eq!(answer.json["moves"][0], 5);
    assert_eq!(&answer.json["board"].as_str().unwrap()[4..5], "X");
    assert_eq!(answer.json["to_move"], "X");
}

#[tokio::test]
async fn a_computer_that_moves_first_has_moved_when_the_game_is_created() {
    let server = Server::new();
    let medium_first = json!({ "x": "medium", "o": "human:Ada", "first": "x" });

    let game = server.create(medium_first).await;

    assert_eq!(game.game["moves"].as_array().unwrap().len(), 1);
    assert_eq!(game.game["to_move"], "O");
    assert!(game.o.is_some());
}

#[tokio::test]
async fn a_won_game_shows_its_line_and_is_counted_once_in_the_shared_scoreboard() {
    // Arrange: Ada (X) and Bob (O); X plays 1, 2, 3 and wins.
    let (server, game) = Server::with_game(two_people()).await;
    let (x, o) = (game.x_token(), game.o_token());
    server.play_in_turn(&game, &[1, 4, 2, 5]).await;

    // Act
    let won = server.play(&game.id, x, 3).await;
    let late = server.play(&game.id, o, 9).await;
    let scores = server.get("/api/scores").await;

    // Assert
    assert_eq!(won.json["status"], "x_won");
    assert_eq!(won.json["line"], json!([1, 2, 3]));
    assert_eq!(won.json["to_move"], Value::Null);
    assert_eq!(late.status, StatusCode::CONFLICT);
    assert_eq!(scores.text, scoreboard_json(&server.scoreboard()));
    assert_eq!(scores.json["players"], ada_beat_bob());
}

#[tokio::test]
async fn anyone_with_the_id_watches_the_game_without_a_token() {
    let server = Server::new();
    let game = server.ada_played(7).await;

    let watched = server.get(&game.api("")).await;

    assert_eq!(watched.status, StatusCode::OK);
    assert_eq!(watched.json["board"], "......X..");
    assert!(watched.json.get("seats").is_none());
}

async fn status_of(
    server: &Server,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Body,
) -> (StatusCode, Value) {
    let answer = server.send_raw(method, path, token, body).await;
    (answer.status, answer.json)
}

/// What is sent (why, method, path, token, body), and the status it must get.
type Refused<'a> = (&'a str, Method, &'a str, Option<&'a str>, Body, StatusCode);

#[tokio::test]
async fn every_refusal_has_its_status_and_a_json_error() {
    // Arrange: a game of two people, X having played 1; another game for its token.
    let server = Server::with_limits(limits(|limits| limits.body_bytes = 256));
    let game = server.create(two_people()).await;
    let other = server.create(two_people()).await;
    let (x, o) = (game.x_token(), game.o_token());
    server.play(&game.id, x, 1).await;
    let moves = game.api("/moves");
    let cell = |n: i64| Body::from(json!({ "cell": n }).to_string());
    let post = Method::POST;
    let cases: Vec<Refused> = vec![
        (
            "malformed JSON",
            post.clone(),
            "/api/games",
            None,
            Body::from("{\"x\": "),
            StatusCode::BAD_REQUEST,
        ),
        (
            "unknown player",
            post.clone(),
            "/api/games",
            None,
            Body::from(r#"{"x":"grandmaster","o":"easy"}"#),
            StatusCode::BAD_REQUEST,
        ),
        (
            "size out of range",
            post.clone(),
            "/api/games",
            None,
            Body::from(r#"{"x":"human","o":"easy","size":8}"#),
            StatusCode::BAD_REQUEST,
        ),
        (
            "run longer than the board",
            post.clone(),
            "/api/games",
            None,
            Body::from(r#"{"x":"human","o":"easy","size":4,"win":5}"#),
            StatusCode::BAD_REQUEST,
        ),
        (
            "unknown field",
            post.clone(),
            "/api/games",
            None,
            Body::from(r#"{"x":"human","o":"easy","colour":"red"}"#),
            StatusCode::BAD_REQUEST,
        ),
        (
            "a computer's name behind a zero-width space",
            post.clone(),
            "/api/games",
            None,
            Body::from(r#"{"x":"human:\u200bComputer (Impossible)","o":"easy"}"#),
            StatusCode::BAD_REQUEST,
        ),
        (
            "two names that look alike",
            post.clone(),
            "/api/games",
            None,
            Body::from(r#"{"x":"human:Ada","o":"human:\u0410da"}"#),
            StatusCode::BAD_REQUEST,
        ),
        (
            "cell 10 of 9",
            post.clone(),
            &moves,
            Some(o),
            cell(10),
            StatusCode::BAD_REQUEST,
        ),
        (
            "cell 0",
            post.clone(),
            &moves,
            Some(o),
            cell(0),
            StatusCode::BAD_REQUEST,
        ),
        (
            "negative cell",
            post.clone(),
            &moves,
            Some(o),
            cell(-3),
            StatusCode::BAD_REQUEST,
        ),
        (
            "no token",
            post.clone(),
            &moves,
            None,
            cell(2),
            StatusCode::UNAUTHORIZED,
        ),
        (
            "another game's token",
            post.clone(),
            &moves,
            other.x.as_deref(),
            cell(2),
            StatusCode::FORBIDDEN,
        ),
        (
            "not a token",
            post.clone(),
            &moves,
            Some("letmein"),
            cell(2),
            StatusCode::FORBIDDEN,
        ),
        (
            "unknown game",
            post.clone(),
            "/api/games/0123456789abcdef0123456789abcdef/moves",
            Some(o),
            cell(2),
            StatusCode::NOT_FOUND,
        ),
        (
            "unknown game watched",
            Method::GET,
            "/api/games/nope",
            None,
            Body::empty(),
            StatusCode::NOT_FOUND,
        ),
        (
            "unknown route",
            Method::GET,
            "/api/nothing",
            None,
            Body::empty(),
            StatusCode::NOT_FOUND,
        ),
        (
            "not your turn",
            post.clone(),
            &moves,
            Some(x),
            cell(2),
            StatusCode::CONFLICT,
        ),
        (
            "cell taken",
            post.clone(),
            &moves,
            Some(o),
            cell(1),
            StatusCode::CONFLICT,
        ),
        (
            "body too large",
            post.clone(),
            &moves,
            Some(o),
            Body::from(format!(
                "{{\"cell\": 2, \"pad\": \"{}\"}}",
                "x".repeat(1000)
            )),
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
    ];

    for (what, method, path, token, body, expected) in cases {
        // Act
        let (status, json) = status_of(&server, method, path, token, body).await;

        // Assert
        assert_eq!(status, expected, "{what}: {json}");
        assert!(json["error"].is_string(), "{what}: {json}");
    }
    let unchanged = server.get(&game.api("")).await;
    assert_eq!(unchanged.json["board"], "X........");
}

#[tokio::test]
async fn a_move_in_a_finished_game_is_a_conflict() {
    let (server, game) = Server::with_game(two_people()).await;
    let o = game.o_token();
    server.play_in_turn(&game, &[1, 4, 2, 5, 3]).await;

    let answer = server.play(&game.id, o, 6).await;

    assert_eq!(answer.status, StatusCode::CONFLICT);
    assert_eq!(answer.json["error"], "the game is over");
}

#[tokio::test]
async fn past_the_cap_on_memory_a_new_game_is_made_and_the_quietest_read_back_when_asked_for() {
    // Arrange: room for two games in memory; the first one played on.
    let server = Server::with_game_limits(GameLimits {
        max_games: 2,
        ..test_game_limits()
    });
    let first = server.create(two_people()).await;
    server.play(&first.id, first.x.as_deref().unwrap(), 5).await;
    server.create(two_people()).await;

    // Act
    let third = server
        .send(Method::POST, "/api/games", None, Some(two_people()))
        .await;
    let held_then = server.games.held();
    let again = server.play(&first.id, first.o.as_deref().unwrap(), 1).await;

    // Assert
    assert_eq!(third.status, StatusCode::CREATED);
    assert!(held_then <= 2, "{held_then} games in memory");
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(again.json["board"], "O...X....");
}

#[tokio::test]
async fn a_finished_game_forgotten_from_memory_is_read_back_with_its_result() {
    // Arrange: finished games expire from memory at once.
    let server = forgetting_finished_games();
    let game = server.create(two_people()).await;
    server.post(&game.id, "resign", Some(game.x_token())).await;

    // Act
    let swept = server.games.sweep(Instant::now());
    let read_back = server.get(&game.api("")).await;

    // Assert
    assert_eq!(swept, 1);
    assert_eq!(read_back.status, StatusCode::OK);
    assert_eq!(read_back.json["status"], "x_resigned");
    assert_eq!(read_back.json["to_move"], Value::Null);
}

#[tokio::test]
async fn an_idle_game_swept_from_memory_goes_on_where_it_was() {
    let server = Server::with_game_limits(GameLimits {
        idle: Duration::from_secs(60),
        ..test_game_limits()
    });
    let game = server.ada_played(5).await;

    let swept = server.games.sweep(Instant::now() + Duration::from_secs(61));
    let next = server.play(&game.id, game.o_token(), 1).await;

    assert_eq!(swept, 1);
    assert_eq!(next.status, StatusCode::OK, "{}", next.text);
    assert_eq!(next.json["board"], "O...X....");
}

#[tokio::test]
async fn undo_against_the_computer_takes_back_the_move_and_the_reply() {
    let (server, game) = Server::with_game(json!({ "x": "human", "o": "easy" })).await;
    let x = game.x.unwrap();
    server.play(&game.id, &x, 5).await;

    let answer = server.post(&game.id, "undo", Some(&x)).await;

    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.json["board"], ".........");
    assert_eq!(
        server.post(&game.id, "undo", Some(&x)).await.status,
        StatusCode::CONFLICT
    );
}

#[rstest::rstest]
#[case::by_default(two_people())]
#[case::when_asked_for(json!({ "x": "human:Ada", "o": "human:Bob", "seating": "apart" }))]
#[tokio::test]
async fn undo_between_two_screens_waits_for_the_other_players_consent(#[case] new_game: Value) {
    let (server, game) = Server::with_game(new_game).await;
    let (x, o) = (game.x_token(), game.o_token());
    server.play(&game.id, x, 1).await;

    let asked = server.post(&game.id, "undo", Some(x)).await;
    let agreed = server.post(&game.id, "undo", Some(o)).await;

    assert_eq!(asked.json["undo_asked_by"], "X");
    assert_eq!(asked.json["board"], "X........");
    assert_eq!(agreed.json["undo_asked_by"], Value::Null);
    assert_eq!(agreed.json["board"], ".........");
}

#[tokio::test]
async fn on_one_device_undo_takes_back_the_last_move_at_once() {
    let (server, game) = Server::with_game(two_people_together()).await;
    server.play_in_turn(&game, &[1, 2]).await;
    let x = game.x_token();

    let answer = server.post(&game.id, "undo", Some(x)).await;

    assert_eq!(answer.json["board"], "X........");
}

#[tokio::test]
async fn a_hint_names_the_best_cells_in_the_words_of_analyze() {
    let (server, game) = Server::with_game(two_people()).await;
    let (x, o) = (game.x_token(), game.o_token());
    server.play_in_turn(&game, &[1, 4, 2]).await;

    let hint = server.post(&game.id, "hint", Some(o)).await;
    let out_of_turn = server.post(&game.id, "hint", Some(x)).await;

    assert_eq!(hint.status, StatusCode::OK);
    assert_eq!(hint.json["best_moves"], json!([3]));
    assert_eq!(hint.json["value"], "loss", "X forks with 5 whatever O does");
    assert_eq!(hint.json["exact"], true);
    assert_eq!(hint.json["moves_proven"], true);
    assert_eq!(out_of_turn.status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn a_resignation_ends_the_game_as_a_loss_for_who_resigned_and_a_win_for_the_other() {
    // Arrange: Ada (X) and Bob (O), Ada having played 1.
    let server = Server::new();
    let game = server.ada_played(1).await;

    // Act
    let resigned = server.post(&game.id, "resign", Some(game.o_token())).await;

    // Assert
    assert_eq!(resigned.status, StatusCode::OK, "{}", resigned.text);
    assert_eq!(resigned.json["status"], "o_resigned");
    assert_eq!(resigned.json["to_move"], Value::Null);
    let scores = server.get("/api/scores").await;
    assert_eq!(scores.json["players"], ada_beat_bob());
}

#[tokio::test]
async fn a_seat_has_joined_once_its_token_has_been_used_and_everyone_sees_it() {
    // Arrange: Ada and Bob on two screens; nobody has opened the game yet.
    let (server, game) = Server::with_game(two_people()).await;
    let path = game.api("");
    let before = server.get(&path).await;

    // Act: Bob's page asks for the game with his seat; a stranger's with a wrong token.
    server
        .send(Method::GET, &path, game.o.as_deref(), None)
        .await;
    server
        .send(
            Method::GET,
            &path,
            Some("0123456789abcdef0123456789abcdef"),
            None,
        )
        .await;
    let after = server.get(&path).await;

    // Assert
    assert_eq!(before.json["joined"], json!([]));
    assert_eq!(after.json["joined"], json!(["O"]));
}

#[tokio::test]
async fn two_people_on_one_device_join_together() {
    // Arrange
    let (server, game) = Server::with_game(two_people_together()).await;
    let path = game.api("");

    // Act: the device's page asks with X's token alone.
    let seen = server
        .send(Method::GET, &path, game.x.as_deref(), None)
        .await;

    // Assert
    assert_eq!(seen.json["joined"], json!(["X", "O"]));
}

#[tokio::test]
async fn a_game_resigned_cannot_be_resigned_again_or_played_on() {
    // Arrange
    let (server, game) = Server::with_game(two_people()).await;
    server.post(&game.id, "resign", Some(game.x_token())).await;

    // Act
    let again = server.post(&game.id, "resign", Some(game.o_token())).await;
    let moved = server.play(&game.id, game.o_token(), 5).await;

    // Assert
    assert_eq!(again.status, StatusCode::CONFLICT);
    assert_eq!(moved.status, StatusCode::CONFLICT);
    assert_eq!(server.scoreboard().standings().len(), 2, "counted once");
}

#[tokio::test]
async fn a_rematch_swaps_sides_and_gives_each_guest_a_new_token_the_old_one_ending_with_its_game() {
    // Arrange: Ada (X) resigns a game against Medium.
    let (server, game) = Server::with_game(ada_against("medium")).await;
    let ada = game.x_token();
    let early = server.post(&game.id, "rematch", Some(ada)).await;
    server.post(&game.id, "resign", Some(ada)).await;

    // Act
    let rematch = server.post(&game.id, "rematch", Some(ada)).await;
    let again = server.post(&game.id, "rematch", Some(ada)).await;

    // Assert
    assert_eq!(early.status, StatusCode::CONFLICT);
    assert_eq!(rematch.status, StatusCode::CREATED, "{}", rematch.text);
    let next = rematch.json["id"].as_str().unwrap();
    assert_eq!(rematch.json["players"]["o"]["name"], "Ada");
    assert_eq!(rematch.json["players"]["x"]["level"], "medium");
    let new_token = rematch.json["seats"]["o"]["token"].as_str().unwrap();
    assert_ne!(new_token, ada);
    assert_eq!(
        rematch.json["moves"].as_array().unwrap().len(),
        1,
        "Medium, now X, opened"
    );
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.json["id"], next);
    let old = server.get(&game.api("")).await;
    assert_eq!(old.json["rematch"], next);
}

#[tokio::test]
async fn the_old_token_opens_no_seat_of_the_rematch() {
    // Arrange: Ada resigns against Medium and takes the rematch.
    let (server, game, rematch) = Server::with_rematch_asked().await;
    let ada = game.x_token();
    let next = rematch.json["id"].as_str().unwrap();
    let board = rematch.json["board"].as_str().unwrap();
    let empty = board.find('.').unwrap() as u64 + 1;

    // Act
    let played = server.play(next, ada, empty).await;

    // Assert
    assert_eq!(played.status, StatusCode::FORBIDDEN, "{}", played.text);
}

#[tokio::test]
async fn the_server_plays_a_computer_against_a_computer_by_itself() {
    let (server, game) = Server::with_game(json!({ "x": "random", "o": "random" })).await;
    assert!(game.x.is_none() && game.o.is_none());

    let mut status = Value::Null;
    for _ in 0..200 {
        tokio::time::sleep(Duration::from_millis(10)).await;
        let now = server.get(&game.api("")).await;
        status = now.json["status"].clone();
        if now.json["to_move"].is_null() {
            break;
        }
    }

    assert_ne!(status, "in_progress");
}

#[tokio::test]
async fn the_page_carries_a_policy_without_inline_script() {
    let server = Server::new();

    let page = server.get("/").await;

    assert_eq!(page.status, StatusCode::OK);
    let policy = page.headers["content-security-policy"].to_str().unwrap();
    assert!(policy.contains("script-src 'self'"));
    assert!(!policy.contains("unsafe-inline"));
    assert_eq!(page.headers["x-content-type-options"], "nosniff");
    assert!(page.text.contains("<script src=\"/assets/app.js\""));
    assert!(!page.text.contains("<script>"), "no inline script");
}

#[tokio::test]
async fn the_event_stream_starts_with_the_game_as_it_stands() {
    let server = Server::new();
    let game = server.ada_played(5).await;

    let mut events = server.events(&game).await;
    let text = next_event(&mut events).await;

    assert!(text.starts_with("event: game\ndata: {"), "{text}");
    assert!(text.contains("\"board\":\"....X....\""), "{text}");
}

#[tokio::test]
async fn a_full_server_makes_room_from_finished_games_past_their_grace() {
    // Arrange: room for one game, which is finished; finished games keep for an hour
    // unless room is needed.
    let server = Server::with_game_limits(GameLimits {
        max_games: 1,
        finished: Duration::from_secs(3600),
        finished_grace: Duration::ZERO,
        ..test_game_limits()
    });
    let game = server.create(two_people()).await;
    server.post(&game.id, "resign", Some(game.o_token())).await;

    // Act
    let next = server
        .send(Method::POST, "/api/games", None, Some(two_people()))
        .await;

    // Assert
    assert_eq!(next.status, StatusCode::CREATED);
    assert_eq!(server.games.held(), 1);
}

#[tokio::test]
async fn past_the_cap_on_live_streams_a_new_stream_waits_its_turn_with_503() {
    use tower::ServiceExt;

    // Arrange: room for one live stream, which a spectator holds.
    let server = Server::with_limits(limits(|limits| limits.max_streams = 1));
    let game = server.create(two_people()).await;
    let events = || {
        axum::http::Request::get(game.api("/events"))
            .body(Body::empty())
            .unwrap()
    };
    let first = server.router().oneshot(events()).await.unwrap();

    // Act
    let second = server.router().oneshot(events()).await.unwrap();
    drop(first);
    let after_the_first_ends = server.router().oneshot(events()).await.unwrap();

    // Assert
    assert_eq!(second.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(second.headers().contains_key("retry-after"));
    assert_eq!(after_the_first_ends.status(), StatusCode::OK);
}

#[tokio::test]
async fn the_answer_to_the_move_that_ends_a_game_comes_once_the_game_is_on_the_scoreboard() {
    // Arrange: Ada (X) and Bob (O); X is one move from winning with 3.
    let (server, game) = Server::with_game(two_people()).await;
    let x = game.x_token();
    server.play_in_turn(&game, &[1, 4, 2, 5]).await;

    // Act
    let won = server.play(&game.id, x, 3).await;
    let kept = server.scoreboard();

    // Assert: read straight from the store, with nothing in between.
    assert_eq!(won.json["status"], "x_won");
    assert_eq!(kept.standings().len(), 2, "Ada and Bob: {kept:?}");
}

#[tokio::test]
async fn a_cell_off_the_board_is_refused_with_the_cells_there_are() {
    let (server, game) =
        Server::with_game(json!({ "x": "human:Ada", "o": "human:Bob", "size": 4 })).await;

    let answer = server.play(&game.id, game.x_token(), 17).await;

    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        answer.json["error"],
        "cell 17 is not on this board: choose 1 to 16"
    );
}

#[tokio::test]
async fn the_sweeper_forgets_expired_games_by_itself() {
    // Arrange: finished games expire at once; one game, resigned; then time is paused
    // (the store's writer is a thread of its own, which paused time would not wait for).
    let server = forgetting_finished_games();
    let game = server.create(two_people()).await;
    server.post(&game.id, "resign", Some(game.o_token())).await;
    tokio::time::pause();

    // Act: the sweeper runs every second; (paused) time moves on by two.
    server.games.spawn_housekeeping();
    tokio::time::sleep(Duration::from_secs(2)).await;

    // Assert
    assert_eq!(server.games.held(), 0);
}

#[tokio::test]
async fn a_move_keeps_a_game_from_being_forgotten_as_idle() {
    // Arrange: games idle for a second are forgotten; a game created, then a move
    // 300 ms later.
    let server = Server::with_game_limits(GameLimits {
        idle: Duration::from_secs(1),
        ..test_game_limits()
    });
    let game = server.create(two_people()).await;
    std::thread::sleep(Duration::from_millis(300));
    server.play(&game.id, game.x_token(), 5).await;
    let moved = std::time::Instant::now();

    // Act: 850 ms after the move, 1,150 ms after the game was created.
    let forgotten = server.games.sweep(moved + Duration::from_millis(850));

    // Assert
    assert_eq!(forgotten, 0);
    assert_eq!(server.games.held(), 1);
}

// ---- A seat's name: chosen until the seat's first move (the one invited) ------------

/// The seat of `token` in `game` asks to be called `name`.
async fn named(server: &Server, game: &Created, token: &str, name: &str) -> Answer {
    server
        .send(
            Method::POST,
            &game.api("/name"),
            Some(token),
            Some(json!({ "name": name })),
        )
        .await
}

#[tokio::test]
async fn the_invited_person_chooses_their_name_before_their_first_move_and_it_is_kept() {
    // Arrange: Ada (X) has moved; Bob (O), invited under the host's guess, has not.
    let server = Server::new();
    let game = server.ada_played(5).await;

    // Act
    let renamed = named(&server, &game, game.o_token(), "Cy").await;

    // Assert
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.text);
    assert_eq!(
        renamed.json["players"]["o"],
        json!({ "name": "Cy", "kind": "human", "moved": false })
    );
    let kept = server.kept(&game.id).game.settings;
    assert_eq!(kept.player(Mark::O).name(Mark::O).as_str(), "Cy");
}

#[tokio::test]
async fn a_game_played_on_after_a_name_is_chosen_is_counted_under_that_name() {
    // Arrange
    let server = Server::new();
    let game = server.ada_played(5).await;
    named(&server, &game, game.o_token(), "Cy").await;

    // Act: Ada gives up.
    server.post(&game.id, "resign", Some(game.x_token())).await;

    // Assert
    let scores = server.get("/api/scores").await;
    assert_eq!(
        scores.json["players"],
        json!([
            { "name": "Cy", "wins": 1, "losses": 0, "ties": 0, "games": 1 },
            { "name": "Ada", "wins": 0, "losses": 1, "ties": 0, "games": 1 }
        ])
    );
}

/// Ada (X) has moved; Bob (O) has not.
#[rstest::rstest]
#[case::after_the_seats_first_move(
    Mark::X,
    "Cy",
    StatusCode::CONFLICT,
    "you have made your first move: a name can be chosen only before it"
)]
#[case::the_other_players_name(
    Mark::O,
    "ADA",
    StatusCode::BAD_REQUEST,
    "Ada is already playing: choose another name"
)]
#[tokio::test]
async fn a_name_refused_says_why_and_changes_nothing(
    #[case] seat: Mark,
    #[case] name: &str,
    #[case] status: StatusCode,
    #[case] error: &str,
) {
    let server = Server::new();
    let game = server.ada_played(5).await;
    let token = if seat == Mark::X {
        game.x_token()
    } else {
        game.o_token()
    };

    let renamed = named(&server, &game, token, name).await;

    assert_eq!(renamed.status, status);
    assert_eq!(renamed.json["error"], error);
    let players = server.get(&game.api("")).await.json["players"].clone();
    assert_eq!(
        (players["x"]["name"].as_str(), players["o"]["name"].as_str()),
        (Some("Ada"), Some("Bob"))
    );
}

#[tokio::test]
async fn whoever_follows_the_game_live_sees_the_name_chosen() {
    // Arrange: a spectator's stream, its first event read.
    let server = Server::new();
    let game = server.ada_played(5).await;
    let mut events = server.events(&game).await;
    next_event(&mut events).await;

    // Act
    named(&server, &game, game.o_token(), "Cy").await;

    // Assert
    let text = next_event(&mut events).await;
    assert!(text.contains(r#""o":{"name":"Cy""#), "{text}");
}
