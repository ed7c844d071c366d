//! Every game written down: what the server keeps in its store, what survives a restart
//! (a new server on the same store), and what a store that fails does to a request.

mod web_support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;
use tictactoe_core::ports::SeatHolder;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tictactoe_core::domain::{PlayerName, Record, Scoreboard, Standing};
use tictactoe_core::memory::MemoryStore;
use tictactoe_core::ports::{Change, GameId, GameStore, MockGameStore, Step, StoreError, Write};
use tictactoe_web::{GameLimits, Limits};
use web_support::{
    Created, Server, ada_against, games_over, test_game_limits, two_people, writes_held_while,
};

fn path(id: &str) -> String {
    format!("/api/games/{id}")
}

/// Polls game `id` until it is over; its last view.
async fn until_over(server: &Server, id: &str) -> Value {
    for _ in 0..500 {
        let now = server.get(&path(id)).await;
        if now.json["to_move"].is_null() {
            return now.json;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("game {id} never ended");
}

#[tokio::test]
async fn a_game_goes_on_after_a_restart_with_the_same_link_and_tokens() {
    // Arrange: Ada (X) and Bob (O) played 5 and 1; then the server restarts.
    let (server, game) = Server::with_game(two_people()).await;
    server.play_in_turn(&game, &[5, 1]).await;
    let x = game.x_token();
    let server = server.restart();

    // Act
    let seen = server.get(&path(&game.id)).await;
    let moved = server.play(&game.id, x, 9).await;
    let out_of_turn = server.play(&game.id, x, 3).await;

    // Assert
    assert_eq!(seen.status, StatusCode::OK);
    assert_eq!(seen.json["board"], "O...X....");
    assert_eq!(seen.json["players"]["x"]["name"], "Ada");
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.text);
    assert_eq!(moved.json["board"], "O...X...X");
    assert_eq!(out_of_turn.status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn a_finished_game_shows_its_result_after_a_restart() {
    // Arrange: X wins with 1, 2, 3; the server restarts.
    let (server, game) = Server::with_game(two_people()).await;
    server.play_in_turn(&game, &[1, 4, 2, 5, 3]).await;
    let o = game.o_token();
    let server = server.restart();

    // Act
    let seen = server.get(&path(&game.id)).await;
    let late = server.play(&game.id, o, 9).await;

    // Assert
    assert_eq!(seen.json["status"], "x_won");
    assert_eq!(seen.json["line"], json!([1, 2, 3]));
    assert_eq!(seen.json["to_move"], Value::Null);
    assert_eq!(server.scoreboard().standings().len(), 2, "counted once");
    assert_eq!(late.status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn a_rematch_link_survives_a_restart_and_the_rematch_is_played_with_its_seats_token() {
    // Arrange: Ada (X) resigns against Medium and asks for a rematch; a restart.
    let (server, game, rematch) = Server::with_rematch_asked().await;
    let ada = game.x_token();
    let next = rematch.json["id"].as_str().unwrap().to_string();
    let new_token = rematch.json["seats"]["o"]["token"]
        .as_str()
        .unwrap()
        .to_string();
    let server = server.restart();

    // Act
    let old = server.get(&path(&game.id)).await;
    let again = server.post(&game.id, "rematch", Some(ada)).await;
    let board = server.get(&path(&next)).await.json["board"].clone();
    let empty = board.as_str().unwrap().find('.').unwrap() as u64 + 1;
    let played = server.play(&next, &new_token, empty).await;

    // Assert: asked again, the same rematch, the seat already taken.
    assert_eq!(old.json["rematch"], next.as_str());
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.json["id"], next.as_str());
    assert_eq!(played.status, StatusCode::OK, "{}", played.text);
}

#[tokio::test]
async fn the_store_keeps_each_seats_lock_never_its_token() {
    // Arrange
    let server = Server::new();

    // Act
    let game = server.create(two_people()).await;

    // Assert: each lock is the SHA-256 of the token's hex digits, not the token.
    let kept = server.kept(&game.id);
    for (holder, token) in kept.game.seats.iter().zip([&game.x, &game.o]) {
        let SeatHolder::Guest(lock) = holder else {
            panic!("a guest's seat: {holder:?}")
        };
        let (lock, token) = (lock.as_str(), token.as_deref().unwrap());
        let digest: String = Sha256::digest(token.as_bytes())
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect();
        assert_ne!(lock, token);
        assert!(!lock.contains(token));
        assert_eq!(lock, digest);
    }
}

#[tokio::test]
async fn a_new_game_and_each_move_are_in_the_store_when_answered() {
    // Arrange
    let server = Server::new();

    // Act
    let game = server
        .create(json!({ "x": "human:Ada", "o": "easy", "first": "o" }))
        .await;
    let begun = server.kept(&game.id);
    server.play(&game.id, game.x_token(), 5).await;
    let after_the_move = server.kept(&game.id);

    // Assert: begun with the computer's opening; then Ada's move and the reply.
    assert_eq!(begun.steps.len(), 1);
    assert_eq!(after_the_move.steps.len(), 3);
    assert_eq!(after_the_move.game.follows, None);
}

/// A store in memory whose writes fail while `failing` is set: a mock, since a failing
/// store is an interaction; everything else is the real store's.
fn failing_store(store: &Arc<MemoryStore>, failing: &Arc<AtomicBool>) -> MockGameStore {
    let mut mock = MockGameStore::new();
    let (inner, failing) = (Arc::clone(store), Arc::clone(failing));
    mock.expect_write_new().returning(move |writes| {
        if failing.load(Ordering::SeqCst) {
            Err(StoreError::Locked {
                database: "games.db".into(),
            })
        } else {
            inner.write_new(writes)
        }
    });
    let inner = Arc::clone(store);
    mock.expect_game().returning(move |id| inner.game(id));
    mock
}

#[tokio::test]
async fn a_move_the_store_refuses_is_a_503_and_the_next_request_sees_the_game_without_it() {
    // Arrange: X has played 5; then the store stops taking writes.
    let store = Arc::new(MemoryStore::new());
    let failing = Arc::new(AtomicBool::new(false));
    let games = games_over(
        Arc::new(failing_store(&store, &failing)),
        test_game_limits(),
    );
    let server = Server::of(games, Arc::clone(&store), Limits::default());
    let game = server.create(two_people()).await;
    let (x, o) = (game.x_token(), game.o_token());
    server.play(&game.id, x, 5).await;
    failing.store(true, Ordering::SeqCst);

    // Act: O's move is refused by the store; then the store is well again.
    let refused = server.play(&game.id, o, 1).await;
    failing.store(false, Ordering::SeqCst);
    let seen = server.get(&path(&game.id)).await;
    let again = server.play(&game.id, o, 1).await;

    // Assert
    assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
    let error = refused.json["error"].as_str().unwrap();
    assert!(
        error.contains("another program holds its database"),
        "{error}"
    );
    assert!(
        !error.contains("games.db"),
        "no path of the server's: {error}"
    );
    assert_eq!(seen.json["board"], "....X....");
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(again.json["board"], "O...X....");
    assert_eq!(server.kept(&game.id).steps.len(), 2);
}

/// A game of two people on a server whose store holds every write from now on, until
/// the flag answered is lowered.
async fn game_of_two_whose_writes_are_held() -> (Server, Created, Arc<AtomicBool>) {
    let store = Arc::new(MemoryStore::new());
    let held = Arc::new(AtomicBool::new(false));
    let mock = writes_held_while(&store, &held);
    let server = Server::behind(mock, store);
    let game = server.create(two_people()).await;
    held.store(true, Ordering::SeqCst);
    (server, game, held)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_sees_a_move_only_once_the_store_has_kept_it() {
    // Arrange: a store whose writes wait while `held` is set.
    let (server, game, held) = game_of_two_whose_writes_are_held().await;

    // Act: X plays 5, on a task of its own; a spectator looks while the store holds
    // the move, and again once it has it.
    let request = axum::http::Request::post(game.api("/moves"))
        .header("authorization", format!("Bearer {}", game.x.unwrap()))
        .header("content-type", "application/json")
        .body(axum::body::Body::from(r#"{"cell":5}"#))
        .unwrap();
    let moving = tokio::spawn(tower::ServiceExt::oneshot(server.router(), request));
    tokio::time::sleep(Duration::from_millis(100)).await;
    let meanwhile = server.get(&path(&game.id)).await;
    // Bob's page opens the game with his seat, which is shown at once: not the move.
    let joining = server
        .send(Method::GET, &path(&game.id), game.o.as_deref(), None)
        .await;
    let answered_meanwhile = moving.is_finished();
    held.store(false, Ordering::SeqCst);
    let answered = moving.await.unwrap().unwrap();
    let after = server.get(&path(&game.id)).await;

    // Assert
    assert_eq!(meanwhile.json["board"], ".........");
    assert_eq!(joining.json["board"], ".........");
    // Ada (whose move waits) has joined too: that is no change of the game.
    assert_eq!(joining.json["joined"], serde_json::json!(["X", "O"]));
    assert!(
        !answered_meanwhile,
        "the move was answered before it was kept"
    );
    assert_eq!(answered.status(), StatusCode::OK);
    assert_eq!(after.json["board"], "....X....");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_that_joined_while_a_move_waited_for_the_store_stays_joined_once_the_move_is_shown()
{
    // Arrange: a store whose writes wait while `held` is set; X's move waits in it.
    let (server, game, held) = game_of_two_whose_writes_are_held().await;
    let moving = spawn_post(&server, game.api("/moves"), game.x.clone(), r#"{"cell":5}"#);
    tokio::time::sleep(Duration::from_millis(100)).await;

    // Act: Bob opens the game with his seat meanwhile; then the move is kept.
    server
        .send(Method::GET, &path(&game.id), game.o.as_deref(), None)
        .await;
    held.store(false, Ordering::SeqCst);
    moving.await.unwrap();
    let after = server.get(&path(&game.id)).await;

    // Assert: the move's view, built before Bob came, does not hide him.
    assert_eq!(after.json["board"], "....X....");
    assert_eq!(after.json["joined"], serde_json::json!(["X", "O"]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_arriving_together_for_a_game_not_in_memory_read_it_once() {
    // Arrange: a game kept by one server; a second server on the same store, whose
    // reads take 50 ms and are counted.
    let first = Server::new();
    let game = first.create(two_people()).await;
    let store = Arc::clone(&first.store);
    drop(first.restart());
    let reads = Arc::new(AtomicUsize::new(0));
    let mut mock = MockGameStore::new();
    let (inner, counted) = (Arc::clone(&store), Arc::clone(&reads));
    mock.expect_game().returning(move |id| {
        counted.fetch_add(1, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(50));
        inner.game(id)
    });
    let inner = Arc::clone(&store);
    mock.expect_write_new()
        .returning(move |writes| inner.write_new(writes));
    let server = Server::behind(mock, store);

    // Act: eight spectators at once.
    let path = path(&game.id);
    let answers = futures_util::future::join_all((0..8).map(|_| server.get(&path))).await;

    // Assert
    assert!(answers.iter().all(|answer| answer.status == StatusCode::OK));
    assert_eq!(reads.load(Ordering::SeqCst), 1);
    assert_eq!(server.games.held(), 1);
}

#[tokio::test]
async fn a_computer_whose_turn_it_was_moves_when_its_game_is_read_back() {
    // Arrange: Ada's move 5 kept, the server stopped before Easy's reply was.
    let (server, game) = Server::with_game(ada_against("easy")).await;
    let id = GameId::parse(&game.id).unwrap();
    let step = Step {
        number: 1,
        change: Change::Move(
            tictactoe_core::domain::Geometry::classic()
                .position(4)
                .unwrap(),
        ),
    };
    server
        .store
        .write(&[Write::Step { game: id, step }])
        .unwrap();
    let server = server.restart();

    // Act
    let seen = server.get(&path(&game.id)).await;

    // Assert
    assert_eq!(seen.json["moves"].as_array().unwrap().len(), 2);
    assert_eq!(seen.json["to_move"], "X");
    assert_eq!(server.kept(&game.id).steps.len(), 2);
}

#[tokio::test]
async fn a_computer_against_a_computer_plays_on_to_the_end_after_a_restart() {
    // Arrange: a slow show, restarted before its first move, on a quick server.
    let slow = Server::with_game_limits(GameLimits {
        pace: Duration::from_secs(60),
        ..test_game_limits()
    });
    let game = slow.create(json!({ "x": "random", "o": "random" })).await;
    let server = Server::over(
        Arc::clone(&slow.store),
        test_game_limits(),
        Limits::default(),
    );
    slow.games.close();
    drop(slow);

    // Act
    let end = until_over(&server, &game.id).await;

    // Assert
    assert_ne!(end["status"], "in_progress");
    assert!(server.kept(&game.id).ending.is_some());
}

#[tokio::test]
async fn a_game_id_the_store_does_not_have_is_not_found() {
    let server = Server::new();

    let answer = server
        .get("/api/games/0123456789abcdef0123456789abcdef")
        .await;

    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_eq!(answer.json["error"], "there is no such game");
}

#[tokio::test]
async fn the_scores_are_the_stores_first_rows() {
    // Arrange: three players on the store's scoreboard.
    let server = Server::new();
    let rows = [("Ada", 3), ("Bob", 2), ("Cy", 1)].map(|(name, wins)| Standing {
        name: PlayerName::new(name).unwrap(),
        record: Record {
            wins,
            ..Record::default()
        },
    });
    server
        .store
        .import("test", &Scoreboard::from_standings(rows))
        .unwrap();

    // Act
    let top = server.get("/api/scores?top=2").await;

    // Assert
    let names: Vec<&str> = top.json["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Ada", "Bob"]);
}

#[tokio::test]
async fn scores_a_store_cannot_read_are_a_503_that_names_no_path_of_the_server() {
    // Arrange: a store whose file became unreadable while the server ran.
    let unreadable = StoreError::Unreadable {
        database: "/srv/tictactoe/games.db".into(),
        detail: "file is not a database".into(),
    };
    let mut store = MockGameStore::new();
    store
        .expect_scoreboard()
        .returning(move |_| Err(unreadable.clone()));
    let server = Server::behind(store, Arc::new(MemoryStore::new()));

    // Act
    let answer = server.get("/api/scores").await;

    // Assert
    assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE);
    let error = answer.json["error"].as_str().unwrap();
    assert_eq!(
        error,
        "the server could not use its store of games (its database cannot be read); \
         nothing was changed: try again in a moment"
    );
}

#[tokio::test]
async fn each_commit_is_counted_with_the_requests_and_writes_it_carried() {
    // Arrange
    let server = Server::new();

    // Act: a new game (one write), a move (one write).
    server.ada_played(5).await;

    // Assert
    let counts = server.games.commits();
    assert_eq!((counts.requests, counts.writes), (2, 2));
    assert!((1..=2).contains(&counts.batches));
}

/// `POST path` through `server`'s router on a task of its own.
fn spawn_post(
    server: &Server,
    path: String,
    token: Option<String>,
    body: &str,
) -> tokio::task::JoinHandle<axum::response::Response> {
    let mut request = axum::http::Request::post(path).header("content-type", "application/json");
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let request = request
        .body(axum::body::Body::from(body.to_string()))
        .unwrap();
    let router = server.router();
    tokio::spawn(async move { tower::ServiceExt::oneshot(router, request).await.unwrap() })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_ending_move_is_answered_only_once_its_result_is_kept_even_while_hints_wait() {
    // Arrange: Ada (X) one move from a win on 1-2-3; the store then holds its writes.
    let store = Arc::new(MemoryStore::new());
    let held = Arc::new(AtomicBool::new(false));
    let server = Server::behind(writes_held_while(&store, &held), store);
    let game = server.create(two_people()).await;
    let moves = game.api("/moves");
    server.play_in_turn(&game, &[1, 4, 2, 5]).await;
    held.store(true, Ordering::SeqCst);

    // Act: the winning move, and three hints from Bob at the same moment.
    let winning = spawn_post(&server, moves.clone(), game.x.clone(), r#"{"cell":3}"#);
    let hints: Vec<_> = (0..3)
        .map(|_| spawn_post(&server, game.api("/hint"), game.o.clone(), ""))
        .collect();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let answered_while_held = winning.is_finished();
    let kept_while_held = server.kept(&game.id).ending;
    held.store(false, Ordering::SeqCst);
    let answer = winning.await.unwrap();
    let kept = server.kept(&game.id).ending;
    for hint in hints {
        hint.await.unwrap();
    }

    // Assert
    assert!(
        !answered_while_held,
        "the win was answered before it was kept"
    );
    assert_eq!(kept_while_held, None);
    assert_eq!(answer.status(), StatusCode::OK);
    assert!(
        kept.is_some(),
        "the win was answered but its result is not kept"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_caller_of_a_rematch_is_answered_with_the_computers_opening_move_made_and_kept() {
    // Arrange: Ada (X) against Impossible, played to the end; in the rematch the
    // computer is X and opens.
    let (server, game) = Server::with_game(ada_against("impossible")).await;
    let moves = game.api("/moves");
    let mut view = game.game.clone();
    while view["to_move"] == "X" {
        let cell = view["board"].as_str().unwrap().find('.').unwrap() + 1;
        let body = Some(json!({ "cell": cell }));
        view = server
            .send(Method::POST, &moves, game.x.as_deref(), body)
            .await
            .json;
    }

    // Act: Ada asks for the rematch three times at once (a double click, a retry).
    let rematch = game.api("/rematch");
    let calls: Vec<_> = (0..3)
        .map(|_| spawn_post(&server, rematch.clone(), game.x.clone(), ""))
        .collect();
    let mut answers = Vec::new();
    for call in calls {
        let response = call.await.unwrap();
        let bytes = http_body_util::BodyExt::collect(response.into_body())
            .await
            .unwrap()
            .to_bytes();
        answers.push(serde_json::from_slice::<Value>(&bytes).unwrap());
    }

    // Assert: one rematch, each answer showing the computer's first mark, as kept.
    let ids: Vec<_> = answers.iter().map(|answer| answer["id"].clone()).collect();
    assert!(
        ids.iter().all(|id| *id == ids[0]),
        "several rematches: {answers:?}"
    );
    for answer in &answers {
        let board = answer["board"].as_str().unwrap();
        assert_eq!(
            board.matches('X').count(),
            1,
            "answered without the opening: {board}"
        );
        assert_eq!(answer["to_move"], "O");
    }
    let kept = server.kept(ids[0].as_str().unwrap());
    assert_eq!(kept.steps.len(), 1);
}
