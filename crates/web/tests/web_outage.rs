//! A store that fails, and a server that says so: liveness and readiness, and requests
//! answered within a bounded time whatever the store does (unreachable, or not
//! answering at all), recovering by themselves once it answers again.

mod web_support;

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use tictactoe_core::memory::MemoryStore;
use tictactoe_core::ports::StoreError;
use tictactoe_players::StandardComputers;
use tictactoe_web::{GameLimits, Games, Limits};
use web_support::{Front, Fronted, Server, test_game_limits, two_people};

/// What the store does now.
const UP: u8 = 0;
/// Every call fails at once: the database cannot be reached.
const UNREACHABLE: u8 = 1;
/// Every call waits until the store is up again (a database that accepts and never
/// answers, or a frozen server holding a lock).
const SILENT: u8 = 2;

/// A store's front that can make it unreachable or silent, and bring it back.
#[derive(Default)]
struct Flaky {
    state: AtomicU8,
    back: (Mutex<()>, Condvar),
}

impl Flaky {
    fn set(&self, state: u8) {
        self.state.store(state, Ordering::SeqCst);
        self.back.1.notify_all();
    }
}

impl Front for Flaky {
    /// Whether a call may go on: waits while silent (at most a minute, so a test that
    /// fails cannot hang), fails while unreachable.
    fn pass(&self) -> Result<(), StoreError> {
        let mut guard = self.back.0.lock().unwrap();
        let until = Instant::now() + Duration::from_secs(60);
        while self.state.load(Ordering::SeqCst) == SILENT && Instant::now() < until {
            guard = self
                .back
                .1
                .wait_timeout(guard, Duration::from_millis(50))
                .unwrap()
                .0;
        }
        match self.state.load(Ordering::SeqCst) {
            UNREACHABLE => Err(StoreError::Unavailable {
                database: "postgres://db.example/games".into(),
                detail: "Connection refused".into(),
            }),
            _ => Ok(()),
        }
    }
}

/// A flaky store, up at first, and a server on it, its housekeeping (the store's
/// checks) running; each request waits for the store at most `deadline`.
fn flaky_server(deadline: Duration) -> (Arc<Flaky>, Server) {
    let flaky = Arc::new(Flaky::default());
    let store = Arc::new(MemoryStore::new());
    let fronted = Fronted {
        front: Arc::clone(&flaky),
        store: Arc::clone(&store),
    };
    let limits = GameLimits {
        store_deadline: deadline,
        ..test_game_limits()
    };
    let computers = StandardComputers::new(7, Duration::from_secs(5));
    let games = Games::new(Arc::new(fronted), Box::new(computers), limits);
    games.spawn_housekeeping();
    let server = Server::of(games, store, Limits::default());
    (flaky, server)
}

/// Asks `path` until its status is `wanted`; how long that took.
async fn until(server: &Server, path: &str, wanted: StatusCode) -> Duration {
    let started = Instant::now();
    while server.get(path).await.status != wanted {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{path} never answered {wanted}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    started.elapsed()
}

/// What `answering` answers, and how long it took.
async fn timed<T>(answering: impl std::future::Future<Output = T>) -> (T, Duration) {
    let started = Instant::now();
    let answer = answering.await;
    (answer, started.elapsed())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn liveness_is_answered_whatever_the_store_does() {
    // Arrange
    let (flaky, server) = flaky_server(Duration::from_secs(1));
    flaky.set(SILENT);

    // Act
    let started = Instant::now();
    let alive = server.get("/healthz").await;

    // Assert
    assert_eq!(alive.status, StatusCode::OK);
    assert!(started.elapsed() < Duration::from_millis(500));
    flaky.set(UP);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_fails_within_a_second_of_the_store_going_and_comes_back_with_it() {
    // Arrange
    let (flaky, server) = flaky_server(Duration::from_secs(1));
    assert_eq!(server.get("/readyz").await.status, StatusCode::OK);

    // Act
    flaky.set(UNREACHABLE);
    let down_after = until(&server, "/readyz", StatusCode::SERVICE_UNAVAILABLE).await;
    let refused = server.get("/readyz").await;
    flaky.set(UP);
    let up_after = until(&server, "/readyz", StatusCode::OK).await;

    // Assert
    assert!(down_after < Duration::from_secs(1), "{down_after:?}");
    assert!(up_after < Duration::from_secs(1), "{up_after:?}");
    assert_eq!(refused.headers["retry-after"], "1");
    assert_eq!(
        refused.json["error"],
        "not ready: its store of games cannot be reached"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_store_makes_the_server_not_ready_within_a_second() {
    // Arrange
    let (flaky, server) = flaky_server(Duration::from_secs(1));

    // Act
    flaky.set(SILENT);
    let down_after = until(&server, "/readyz", StatusCode::SERVICE_UNAVAILABLE).await;
    flaky.set(UP);

    // Assert
    assert!(down_after < Duration::from_secs(1), "{down_after:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_while_the_store_cannot_be_reached_is_refused_at_once_with_retry_after() {
    // Arrange: a game begun, then the store gone and noticed.
    let (flaky, server) = flaky_server(Duration::from_secs(1));
    let game = server.create(two_people()).await;
    flaky.set(UNREACHABLE);
    until(&server, "/readyz", StatusCode::SERVICE_UNAVAILABLE).await;

    // Act
    let (moved, took) = timed(server.play(&game.id, game.x_token(), 5)).await;

    // Assert
    assert_eq!(moved.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(moved.headers["retry-after"], "1");
    assert!(took < Duration::from_millis(200), "{took:?}");
    assert_eq!(
        moved.json["error"],
        "the server cannot reach its store of games just now; nothing was changed: try \
         again in a moment"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_into_a_silent_store_is_answered_503_at_the_deadline_not_when_it_comes_back() {
    // Arrange: a game begun, then the store silent.
    let (flaky, server) = flaky_server(Duration::from_millis(500));
    let game = server.create(two_people()).await;
    flaky.set(SILENT);

    // Act
    let (moved, took) = timed(server.play(&game.id, game.x_token(), 5)).await;

    // Assert
    assert_eq!(
        moved.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        moved.text
    );
    assert_eq!(moved.headers["retry-after"], "1");
    assert!(took < Duration::from_secs(2), "{took:?}");
    flaky.set(UP);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn once_the_store_answers_again_the_next_move_is_played_and_kept_without_a_restart() {
    // Arrange: a move refused while the store was gone.
    let (flaky, server) = flaky_server(Duration::from_secs(1));
    let game = server.create(two_people()).await;
    let x = game.x_token();
    flaky.set(UNREACHABLE);
    until(&server, "/readyz", StatusCode::SERVICE_UNAVAILABLE).await;
    let refused = server.play(&game.id, x, 5).await;

    // Act
    flaky.set(UP);
    until(&server, "/readyz", StatusCode::OK).await;
    let moved = server.play(&game.id, x, 5).await;

    // Assert: the refused move was not kept; the one after it was, once.
    assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.text);
    assert_eq!(moved.json["board"], "....X....");
    assert_eq!(server.kept(&game.id).steps.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twelve_moves_sent_together_while_the_store_is_silent_are_all_answered_within_two_seconds()
{
    // Arrange: twelve games, then the store silent (not yet noticed by a check).
    let (flaky, server) = flaky_server(Duration::from_secs(1));
    let server = Arc::new(server);
    let mut games = Vec::new();
    for _ in 0..12 {
        games.push(server.create(two_people()).await);
    }
    flaky.set(SILENT);

    // Act
    let started = Instant::now();
    let moves: Vec<_> = games
        .into_iter()
        .map(|game| {
            let server = Arc::clone(&server);
            tokio::spawn(async move {
                let answer = server.play(&game.id, game.x_token(), 5).await;
                (answer.status, started.elapsed())
            })
        })
        .collect();
    let mut answers = Vec::new();
    for answered in moves {
        answers.push(answered.await.unwrap());
    }
    flaky.set(UP);

    // Assert
    for (status, after) in answers {
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(after < Duration::from_secs(2), "{after:?}");
    }
}
