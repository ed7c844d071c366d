//! A store that fails, and a server that says so: liveness and readiness, and requests
//! answered within a bounded time whatever the store does (unreachable, or not
//! answering at all), recovering by themselves once it answers again.

mod web_support;

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};
use tictactoe_core::ports::{
    Attempt, PlayerRating, RatingChange, RatingHistoryQuery, RatingListQuery, RatingPoint,
    RatingStore, Rebuilt, TrainingStore,
};

use axum::http::StatusCode;
use tictactoe_core::domain::{PlayerName, Scoreboard};
use tictactoe_core::memory::MemoryStore;
use tictactoe_core::play::Review;
use tictactoe_core::ports::{
    Cleared, GameHistory, GameId, GameStore, HistoryPage, HistoryQuery, IdPrefix, Imported,
    Opponents, Restored, ReviewStore, Rows, StoreError, StoredGame, Write,
};
use tictactoe_players::StandardComputers;
use tictactoe_web::{GameLimits, Games, Limits};
use web_support::{Server, test_game_limits, two_people};

/// What the store does now.
const UP: u8 = 0;
/// Every call fails at once: the database cannot be reached.
const UNREACHABLE: u8 = 1;
/// Every call waits until the store is up again (a database that accepts and never
/// answers, or a frozen server holding a lock).
const SILENT: u8 = 2;

/// A store in memory that can be made unreachable or silent, and brought back.
#[derive(Default)]
struct Flaky {
    store: MemoryStore,
    state: AtomicU8,
    back: (Mutex<()>, Condvar),
}

impl Flaky {
    fn set(&self, state: u8) {
        self.state.store(state, Ordering::SeqCst);
        self.back.1.notify_all();
    }

    /// Whether a call may go on: waits while silent (at most a minute, so a test that
    /// fails cannot hang), fails while unreachable.
    fn reach(&self) -> Result<(), StoreError> {
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

impl GameStore for Flaky {
    fn rating_changes(&self, games: &[GameId]) -> Result<Vec<RatingChange>, StoreError> {
        self.reach()?;
        self.store.rating_changes(games)
    }
    fn write(&self, writes: &[Write]) -> Result<(), StoreError> {
        self.reach()?;
        self.store.write(writes)
    }
    fn write_new(&self, writes: &[Write]) -> Result<(), StoreError> {
        self.reach()?;
        self.store.write_new(writes)
    }
    fn game(&self, id: &GameId) -> Result<Option<StoredGame>, StoreError> {
        self.reach()?;
        self.store.game(id)
    }
    fn standings(&self, top: Option<u64>, each: &mut dyn Rows) -> Result<(), StoreError> {
        self.reach()?;
        self.store.standings(top, each)
    }
    fn standings_of(&self, names: &[PlayerName]) -> Result<Scoreboard, StoreError> {
        self.reach()?;
        self.store.standings_of(names)
    }
    fn reset(&self) -> Result<Cleared, StoreError> {
        self.reach()?;
        self.store.reset()
    }
    fn restore(&self) -> Result<Restored, StoreError> {
        self.reach()?;
        self.store.restore()
    }
    fn import(&self, source: &str, scoreboard: &Scoreboard) -> Result<Imported, StoreError> {
        self.reach()?;
        self.store.import(source, scoreboard)
    }
    fn checkup(&self) -> Result<(), StoreError> {
        self.reach()
    }
}

impl RatingStore for Flaky {
    fn ratings(&self, query: &RatingListQuery) -> Result<Vec<PlayerRating>, StoreError> {
        self.reach()?;
        self.store.ratings(query)
    }
    fn ratings_of(&self, player: &PlayerName) -> Result<Vec<PlayerRating>, StoreError> {
        self.reach()?;
        self.store.ratings_of(player)
    }
    fn rating_history(&self, query: &RatingHistoryQuery) -> Result<Vec<RatingPoint>, StoreError> {
        self.reach()?;
        self.store.rating_history(query)
    }
    fn rebuild_ratings(&self) -> Result<Rebuilt, StoreError> {
        self.reach()?;
        self.store.rebuild_ratings()
    }
}

impl TrainingStore for Flaky {
    fn keep_attempt(&self, attempt: &Attempt) -> Result<(), StoreError> {
        self.reach()?;
        self.store.keep_attempt(attempt)
    }
    fn attempts(&self, player: &PlayerName) -> Result<Vec<Attempt>, StoreError> {
        self.reach()?;
        self.store.attempts(player)
    }
}

use std::time::SystemTime as AccountsTime;
use tictactoe_core::ports::{
    Account, AccountStore, AccountSummary, Added, NewAccount, NewSession, NewToken, PasswordHash,
    SecretLock, TokenId, TokenInfo,
};

impl AccountStore for Flaky {
    fn add_account(&self, account: &NewAccount) -> Result<Added, StoreError> {
        self.reach()?;
        self.store.add_account(account)
    }
    fn account(&self, name: &PlayerName) -> Result<Option<Account>, StoreError> {
        self.reach()?;
        self.store.account(name)
    }
    fn account_like(&self, name: &PlayerName) -> Result<Option<PlayerName>, StoreError> {
        self.reach()?;
        self.store.account_like(name)
    }
    fn accounts(&self, now: AccountsTime) -> Result<Vec<AccountSummary>, StoreError> {
        self.reach()?;
        self.store.accounts(now)
    }
    fn set_password(&self, name: &PlayerName, hash: &PasswordHash) -> Result<bool, StoreError> {
        self.reach()?;
        self.store.set_password(name, hash)
    }
    fn remove_account(&self, name: &PlayerName) -> Result<bool, StoreError> {
        self.reach()?;
        self.store.remove_account(name)
    }
    fn open_session(&self, session: &NewSession) -> Result<bool, StoreError> {
        self.reach()?;
        self.store.open_session(session)
    }
    fn session(
        &self,
        lock: &SecretLock,
        now: AccountsTime,
    ) -> Result<Option<PlayerName>, StoreError> {
        self.reach()?;
        self.store.session(lock, now)
    }
    fn close_session(&self, lock: &SecretLock) -> Result<(), StoreError> {
        self.reach()?;
        self.store.close_session(lock)
    }
    fn forget_expired_sessions(&self, now: AccountsTime) -> Result<u64, StoreError> {
        self.reach()?;
        self.store.forget_expired_sessions(now)
    }
    fn add_token(&self, token: &NewToken) -> Result<bool, StoreError> {
        self.reach()?;
        self.store.add_token(token)
    }
    fn token(&self, lock: &SecretLock) -> Result<Option<PlayerName>, StoreError> {
        self.reach()?;
        self.store.token(lock)
    }
    fn tokens(&self, account: &PlayerName) -> Result<Vec<TokenInfo>, StoreError> {
        self.reach()?;
        self.store.tokens(account)
    }
    fn revoke_token(&self, account: &PlayerName, id: &TokenId) -> Result<bool, StoreError> {
        self.reach()?;
        self.store.revoke_token(account, id)
    }
    fn has_games(&self, name: &PlayerName) -> Result<bool, StoreError> {
        self.reach()?;
        self.store.has_games(name)
    }
}

impl GameHistory for Flaky {
    fn history(&self, query: &HistoryQuery) -> Result<HistoryPage, StoreError> {
        self.reach()?;
        self.store.history(query)
    }
    fn games_starting(&self, prefix: &IdPrefix, limit: u32) -> Result<Vec<GameId>, StoreError> {
        self.reach()?;
        self.store.games_starting(prefix, limit)
    }
    fn opponents(&self, player: &PlayerName, limit: u32) -> Result<Opponents, StoreError> {
        self.reach()?;
        self.store.opponents(player, limit)
    }
}

impl ReviewStore for Flaky {
    fn review(&self, game: &GameId) -> Result<Option<Review>, StoreError> {
        self.reach()?;
        self.store.review(game)
    }
    fn keep_review(&self, game: &GameId, review: &Review) -> Result<(), StoreError> {
        self.reach()?;
        self.store.keep_review(game, review)
    }
}

/// A flaky store, up at first, and a server on it, its housekeeping (the store's
/// checks) running; each request waits for the store at most `deadline`.
fn flaky_server(deadline: Duration) -> (Arc<Flaky>, Server) {
    let flaky = Arc::new(Flaky::default());
    let limits = GameLimits {
        store_deadline: deadline,
        ..test_game_limits()
    };
    let computers = StandardComputers::new(7, Duration::from_secs(5));
    let games = Games::new(Arc::clone(&flaky) as _, Box::new(computers), limits);
    games.spawn_housekeeping();
    let server = Server::of(games, Arc::new(MemoryStore::new()), Limits::default());
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
    let kept = flaky
        .store
        .game(&GameId::parse(&game.id).unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(kept.steps.len(), 1);
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
