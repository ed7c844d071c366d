//! What the web tests share: a server's games over a store in memory (the core's
//! `MemoryStore`, a real store, with the history of ended games and their reviews), and
//! requests to its router made in-process.
#![allow(dead_code)] // each test file uses its own part

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};
use tictactoe_core::ports::{
    Attempt, PlayerRating, RatingChange, RatingHistoryQuery, RatingListQuery, RatingPoint,
    RatingStore, Rebuilt, TrainingStore,
};

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tictactoe_core::domain::{Mark, PlayerName, Scoreboard};
use tictactoe_core::memory::MemoryStore;
use tictactoe_core::play::Review;
use tictactoe_core::players::ComputerFactory;
use tictactoe_core::ports::{
    Archive, Cleared, GameHistory, GameId, GameStore, HistoryPage, HistoryQuery, IdPrefix,
    Imported, MockGameStore, Opponents, Restored, ReviewStore, Rows, StoreError, StoredGame, Write,
};
use tictactoe_core::ports::{NewSeek, Seek, SeekId, SeekKind, SeekStore};
use tictactoe_passwords::Argon2Passwords;
use tictactoe_players::StandardComputers;
use tictactoe_web::{Accounts, GameLimits, Games, Limits, Tries};
use tower::ServiceExt;

/// A server's games, and the store they are kept in (shared, so that another server
/// can be started on it: a restart), with the transport's limits it serves within.
pub struct Server {
    pub games: Games,
    pub accounts: Accounts,
    pub store: Arc<MemoryStore>,
    pub limits: Limits,
    /// Made once: what the edge holds (the places of the live streams) is the server's.
    router: Router,
}

impl Server {
    pub fn new() -> Self {
        Server::with_limits(Limits::default())
    }

    /// A new server, and the game `request` begins on it.
    pub async fn with_game(request: Value) -> (Self, Created) {
        let server = Server::new();
        let game = server.create(request).await;
        (server, game)
    }

    /// A new server on which Ada (X) resigned a game against Medium and asked for the
    /// rematch with her seat's token: the server, the game resigned, and the answer to
    /// asking.
    pub async fn with_rematch_asked() -> (Self, Created, Answer) {
        let (server, game) = Server::with_game(ada_against("medium")).await;
        let ada = game.x_token();
        server.post(&game.id, "resign", Some(ada)).await;
        let rematch = server.post(&game.id, "rematch", Some(ada)).await;
        (server, game, rematch)
    }

    /// A server whose transport keeps to `limits`.
    pub fn with_limits(limits: Limits) -> Self {
        Server::over(Arc::new(MemoryStore::new()), test_game_limits(), limits)
    }

    /// A server whose games keep to `limits`.
    pub fn with_game_limits(limits: GameLimits) -> Self {
        Server::over(Arc::new(MemoryStore::new()), limits, Limits::default())
    }

    /// A server on `store`, whatever another server left there.
    pub fn over(store: Arc<MemoryStore>, game_limits: GameLimits, limits: Limits) -> Self {
        let games = games_archived_in(Arc::clone(&store) as Arc<dyn Archive>, game_limits);
        Server::of(games, store, limits)
    }

    /// A server of `games`, which keep their games in `store` (behind whatever the
    /// games write through), serving within `limits`.
    pub fn of(games: Games, store: Arc<MemoryStore>, limits: Limits) -> Self {
        let accounts = test_accounts(&games);
        let router = tictactoe_web::router(&games, &accounts, &limits);
        Server {
            games,
            accounts,
            store,
            limits,
            router,
        }
    }

    /// A server whose games are kept through `mock` (a store that fails or waits), in
    /// front of `store`, which the test reads.
    pub fn behind(mock: MockGameStore, store: Arc<MemoryStore>) -> Self {
        let games = games_over(Arc::new(mock), test_game_limits());
        Server::of(games, store, Limits::default())
    }

    /// A server on `store` whose computers (and hints, and reviews) come from
    /// `computers`.
    pub fn with_computers(
        store: Arc<MemoryStore>,
        computers: Box<dyn ComputerFactory + Send>,
        game_limits: GameLimits,
    ) -> Self {
        let games = Games::new(
            Arc::clone(&store) as Arc<dyn Archive>,
            computers,
            game_limits,
        );
        Server::of(games, store, Limits::default())
    }

    /// This server stopped (its computer-vs-computer games too) and forgotten, and a
    /// new one started on the same store.
    pub fn restart(self) -> Server {
        self.games.close();
        let game_limits = self.games.limits().clone();
        let Server { store, limits, .. } = self;
        Server::over(store, game_limits, limits)
    }

    /// The whole scoreboard, as the store has it.
    pub fn scoreboard(&self) -> Scoreboard {
        self.store.scoreboard(None).unwrap()
    }

    /// Game `id` as the store has it.
    pub fn kept(&self, id: &str) -> StoredGame {
        self.store
            .game(&GameId::parse(id).unwrap())
            .unwrap()
            .expect("the game is in the store")
    }

    pub fn router(&self) -> Router {
        self.router.clone()
    }

    /// Sends one request through the router; `token` goes in `Authorization: Bearer`,
    /// and a body is labelled JSON (`Content-Type: application/json`).
    pub async fn send(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Answer {
        let body = body.map_or_else(Body::empty, |json| Body::from(json.to_string()));
        self.send_raw(method, path, token, body).await
    }

    pub async fn send_raw(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Body,
    ) -> Answer {
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header("content-type", "application/json");
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        self.answer(request.body(body).unwrap()).await
    }

    /// Sends `request` through the router, as it is.
    pub async fn answer(&self, request: Request<Body>) -> Answer {
        let response = self.router().oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Answer {
            status,
            headers,
            json,
            text: String::from_utf8_lossy(&bytes).into_owned(),
        }
    }

    /// `POST /api/games` with `request`, and `token` as the bearer if given: answered as
    /// it is.
    pub async fn create_raw(&self, request: Value, token: Option<&str>) -> Answer {
        self.send(Method::POST, "/api/games", token, Some(request))
            .await
    }

    /// Creates a game from `request`, which must succeed.
    pub async fn create(&self, request: Value) -> Created {
        let answer = self
            .send(Method::POST, "/api/games", None, Some(request))
            .await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        Created::from(answer.json)
    }

    /// Signs `name` up (password [`PASSWORD`]): the session's cookie, `session=…`.
    pub async fn sign_up(&self, name: &str) -> String {
        let answer = self.try_sign_up(name).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        session_cookie(&answer)
    }

    /// `POST /api/accounts` for `name` (password [`PASSWORD`]), answered as it is.
    pub async fn try_sign_up(&self, name: &str) -> Answer {
        self.send(
            Method::POST,
            "/api/accounts",
            None,
            Some(json!({ "name": name, "password": PASSWORD })),
        )
        .await
    }

    /// Signs `name` up, and makes a personal token of the account's: the token, to send
    /// as the bearer (it acts as the account).
    pub async fn account_token(&self, name: &str) -> String {
        let session = self.sign_up(name).await;
        let answer = self
            .send_with(
                Method::POST,
                "/api/tokens",
                &[("cookie", session.as_str())],
                Some(json!({ "label": "tests" })),
            )
            .await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        answer.json["token"].as_str().unwrap().to_string()
    }

    /// A rated game between the accounts `x` and `o`, each signed up here: `x` begins it
    /// and invites `o`, who takes the invite. Each seat's credential is its account's
    /// personal token.
    pub async fn rated_game(&self, x: &str, o: &str) -> Created {
        let (x_token, o_token) = (self.account_token(x).await, self.account_token(o).await);
        self.rated_game_of((x, &x_token), (o, &o_token)).await
    }

    /// A rated game between two accounts signed up already, each given as its name and
    /// a personal token of it: X begins it and invites O, who takes the invite.
    pub async fn rated_game_of(
        &self,
        (x, x_token): (&str, &str),
        (o, o_token): (&str, &str),
    ) -> Created {
        let (x_token, o_token) = (x_token.to_string(), o_token.to_string());
        let request =
            json!({ "x": format!("human:{x}"), "o": format!("human:{o}"), "invite": "o" });
        let begun = self
            .send(Method::POST, "/api/games", Some(&x_token), Some(request))
            .await;
        assert_eq!(begun.status, StatusCode::CREATED, "{}", begun.text);
        let id = begun.json["id"].as_str().unwrap().to_string();
        let code = begun.json["invite"]["code"].as_str().unwrap();
        let joined = self
            .send(
                Method::POST,
                &format!("/api/games/{id}/join"),
                Some(&o_token),
                Some(json!({ "invite": code })),
            )
            .await;
        assert_eq!(joined.status, StatusCode::OK, "{}", joined.text);
        assert_eq!(joined.json["rated"], true, "{}", joined.text);
        Created {
            id,
            game: joined.json,
            x: Some(x_token),
            o: Some(o_token),
        }
    }

    /// Sends one request with these headers (a cookie, say) through the router; a body
    /// is labelled JSON.
    pub async fn send_with(
        &self,
        method: Method,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<Value>,
    ) -> Answer {
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header("content-type", "application/json");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let body = body.map_or_else(Body::empty, |json| Body::from(json.to_string()));
        self.answer(request.body(body).unwrap()).await
    }

    /// A game of two people, Ada (X) and Bob (O), in which Ada has played `cell`.
    pub async fn ada_played(&self, cell: u64) -> Created {
        let game = self.create(two_people()).await;
        let answer = self.play(&game.id, game.x_token(), cell).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        game
    }

    /// Plays `cells` in `game` in turn, X first, each with its seat's token; each move
    /// must be taken.
    pub async fn play_in_turn(&self, game: &Created, cells: &[u64]) {
        for (cell, x_to_move) in cells.iter().zip([true, false].into_iter().cycle()) {
            let token = if x_to_move {
                game.x_token()
            } else {
                game.o_token()
            };
            let answer = self.play(&game.id, token, *cell).await;
            assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        }
    }

    pub async fn play(&self, id: &str, token: &str, cell: u64) -> Answer {
        self.send(
            Method::POST,
            &format!("/api/games/{id}/moves"),
            Some(token),
            Some(json!({ "cell": cell })),
        )
        .await
    }

    pub async fn post(&self, id: &str, action: &str, token: Option<&str>) -> Answer {
        self.send(
            Method::POST,
            &format!("/api/games/{id}/{action}"),
            token,
            None,
        )
        .await
    }

    pub async fn get(&self, path: &str) -> Answer {
        self.send(Method::GET, path, None, None).await
    }

    /// Opens the live event stream of `game` on this server: its body, to read an event
    /// at a time with [`next_event`].
    pub async fn events(&self, game: &Created) -> Body {
        let request = Request::get(game.api("/events"))
            .body(Body::empty())
            .unwrap();
        self.router().oneshot(request).await.unwrap().into_body()
    }

    /// Polls the review of game `id` until it is answered 200 (for up to ten seconds);
    /// every answer on the way.
    pub async fn poll_review(&self, id: &str) -> Vec<Answer> {
        let started = std::time::Instant::now();
        let mut answers = Vec::new();
        loop {
            let answer = self.get(&format!("/api/games/{id}/review")).await;
            let done = answer.status != StatusCode::ACCEPTED;
            answers.push(answer);
            if done {
                return answers;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "the review never came"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Ada (X) beats Bob (O), each signed in ([`Server::rated_game`]): X 1, O 4 (Bob's
    /// slip: the draw thrown away, 5 alone kept it), X 2, O 5, X 3; the game's review
    /// computed and kept. Bob has one puzzle, at move 2; Ada none. The seats' tokens are
    /// the accounts' personal tokens.
    pub async fn bob_slipped(&self) -> Created {
        let game = self.rated_game("Ada", "Bob").await;
        self.play_in_turn(&game, &[1, 4, 2, 5, 3]).await;
        let review = self.poll_review(&game.id).await.pop().unwrap();
        assert_eq!(review.status, StatusCode::OK, "{}", review.text);
        game
    }
}

/// The password every account of the tests is signed up with.
pub const PASSWORD: &str = "correct horse battery";

/// The session's cookie an answer set, as a request sends it back: `session=…`.
pub fn session_cookie(answer: &Answer) -> String {
    let set = answer
        .headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find(|value| value.starts_with("session="))
        .expect("a session's cookie");
    set.split(';').next().unwrap().to_string()
}

/// The accounts of a test server: in the same store as its games, passwords hashed at
/// the least cost Argon2id allows.
pub fn test_accounts(games: &Games) -> Accounts {
    Accounts::new(
        games,
        Arc::new(Argon2Passwords::for_tests()),
        Tries::default(),
    )
}

/// The next event of a live stream opened by [`Server::events`], as text.
pub async fn next_event(events: &mut Body) -> String {
    let frame = events.frame().await.unwrap().unwrap().into_data().unwrap();
    String::from_utf8(frame.to_vec()).unwrap()
}

/// A server's games over any store of games (a mock, for a store that fails), which
/// lists no ended game and keeps no review ([`GamesOnly`]).
pub fn games_over(store: Arc<dyn GameStore>, limits: GameLimits) -> Games {
    games_archived_in(Arc::new(GamesOnly(store)), limits)
}

/// A server's games over a store that also lists ended games and keeps reviews.
pub fn games_archived_in(store: Arc<dyn Archive>, limits: GameLimits) -> Games {
    // A think time no 3x3 question comes near (they take microseconds), even when a
    // loaded machine keeps a test's thread waiting: every answer is then exact. (At
    // 50 ms, a hint once came back as an estimate while the suite ran beside two
    // builds.)
    let computers = StandardComputers::new(7, Duration::from_secs(5));
    Games::new(store, Box::new(computers), limits)
}

/// A store of games only (a mock, say), as an archive with nothing in it: its history
/// is empty, it has no review and keeps none. For the tests whose point is how games
/// are kept, not how they are listed.
pub struct GamesOnly(pub Arc<dyn GameStore>);

impl GameStore for GamesOnly {
    fn rating_changes(&self, games: &[GameId]) -> Result<Vec<RatingChange>, StoreError> {
        self.0.rating_changes(games)
    }
    fn write(&self, writes: &[Write]) -> Result<(), StoreError> {
        self.0.write(writes)
    }
    fn write_new(&self, writes: &[Write]) -> Result<(), StoreError> {
        self.0.write_new(writes)
    }
    fn game(&self, id: &GameId) -> Result<Option<StoredGame>, StoreError> {
        self.0.game(id)
    }
    fn overdue(&self, now: SystemTime, limit: usize) -> Result<Vec<GameId>, StoreError> {
        self.0.overdue(now, limit)
    }
    fn standings(&self, top: Option<u64>, each: &mut dyn Rows) -> Result<(), StoreError> {
        self.0.standings(top, each)
    }
    fn standings_of(&self, names: &[PlayerName]) -> Result<Scoreboard, StoreError> {
        self.0.standings_of(names)
    }
    fn reset(&self) -> Result<Cleared, StoreError> {
        self.0.reset()
    }
    fn restore(&self) -> Result<Restored, StoreError> {
        self.0.restore()
    }
    fn import(&self, source: &str, scoreboard: &Scoreboard) -> Result<Imported, StoreError> {
        self.0.import(source, scoreboard)
    }
    fn scoreboard(&self, top: Option<u64>) -> Result<Scoreboard, StoreError> {
        self.0.scoreboard(top)
    }
    /// The checks of a server's health pass: the store under test fails (or waits)
    /// where its test says, in its reads and writes.
    fn checkup(&self) -> Result<(), StoreError> {
        Ok(())
    }
}

/// No seek is kept: nobody finds an opponent through a store of games only.
impl SeekStore for GamesOnly {
    fn open_seek(&self, _: &NewSeek) -> Result<(), StoreError> {
        Ok(())
    }
    fn open_seeks(&self, _: SeekKind, _: SystemTime) -> Result<Vec<Seek>, StoreError> {
        Ok(Vec::new())
    }
    fn seek(&self, _: &SeekId) -> Result<Option<Seek>, StoreError> {
        Ok(None)
    }
    fn seek_seen(&self, _: &SeekId, _: SystemTime) -> Result<bool, StoreError> {
        Ok(false)
    }
    fn close_seek(&self, _: &SeekId) -> Result<bool, StoreError> {
        Ok(false)
    }
    fn take_seeks(
        &self,
        _: &[(SeekId, Mark)],
        _: &GameId,
        _: SystemTime,
    ) -> Result<bool, StoreError> {
        Ok(false)
    }
    fn taken_since(&self, _: SystemTime) -> Result<Vec<Seek>, StoreError> {
        Ok(Vec::new())
    }
    fn block(&self, _: &PlayerName, _: &PlayerName) -> Result<bool, StoreError> {
        Ok(false)
    }
    fn unblock(&self, _: &PlayerName, _: &PlayerName) -> Result<bool, StoreError> {
        Ok(false)
    }
    fn blocked_by(&self, _: &PlayerName) -> Result<Vec<PlayerName>, StoreError> {
        Ok(Vec::new())
    }
    fn blocks_among(&self, _: &[String]) -> Result<Vec<(String, String)>, StoreError> {
        Ok(Vec::new())
    }
}

impl RatingStore for GamesOnly {
    fn ratings(&self, _: &RatingListQuery) -> Result<Vec<PlayerRating>, StoreError> {
        Ok(Vec::new())
    }
    fn ratings_of(&self, _: &PlayerName) -> Result<Vec<PlayerRating>, StoreError> {
        Ok(Vec::new())
    }
    fn rating_history(&self, _: &RatingHistoryQuery) -> Result<Vec<RatingPoint>, StoreError> {
        Ok(Vec::new())
    }
    fn rebuild_ratings(&self) -> Result<Rebuilt, StoreError> {
        Ok(Rebuilt {
            games: 0,
            ratings: 0,
            unreadable: 0,
        })
    }
}

impl TrainingStore for GamesOnly {
    fn keep_attempt(&self, _: &Attempt) -> Result<(), StoreError> {
        Ok(())
    }
    fn attempts(&self, _: &PlayerName) -> Result<Vec<Attempt>, StoreError> {
        Ok(Vec::new())
    }
}

use std::time::SystemTime as AccountsTime;
use tictactoe_core::ports::{
    Account, AccountStore, AccountSummary, Added, NewAccount, NewSession, NewToken, PasswordHash,
    SecretLock, TokenId, TokenInfo,
};

/// No accounts, and none kept.
impl AccountStore for GamesOnly {
    fn add_account(&self, _: &NewAccount) -> Result<Added, StoreError> {
        Ok(Added::Added)
    }
    fn account(&self, _: &PlayerName) -> Result<Option<Account>, StoreError> {
        Ok(None)
    }
    fn account_like(&self, _: &PlayerName) -> Result<Option<PlayerName>, StoreError> {
        Ok(None)
    }
    fn accounts(&self, _: AccountsTime) -> Result<Vec<AccountSummary>, StoreError> {
        Ok(Vec::new())
    }
    fn set_password(&self, _: &PlayerName, _: &PasswordHash) -> Result<bool, StoreError> {
        Ok(false)
    }
    fn remove_account(&self, _: &PlayerName) -> Result<bool, StoreError> {
        Ok(false)
    }
    fn open_session(&self, _: &NewSession) -> Result<bool, StoreError> {
        Ok(false)
    }
    fn session(&self, _: &SecretLock, _: AccountsTime) -> Result<Option<PlayerName>, StoreError> {
        Ok(None)
    }
    fn close_session(&self, _: &SecretLock) -> Result<(), StoreError> {
        Ok(())
    }
    fn forget_expired_sessions(&self, _: AccountsTime) -> Result<u64, StoreError> {
        Ok(0)
    }
    fn add_token(&self, _: &NewToken) -> Result<bool, StoreError> {
        Ok(false)
    }
    fn token(&self, _: &SecretLock) -> Result<Option<PlayerName>, StoreError> {
        Ok(None)
    }
    fn tokens(&self, _: &PlayerName) -> Result<Vec<TokenInfo>, StoreError> {
        Ok(Vec::new())
    }
    fn revoke_token(&self, _: &PlayerName, _: &TokenId) -> Result<bool, StoreError> {
        Ok(false)
    }
    fn has_games(&self, _: &PlayerName) -> Result<bool, StoreError> {
        Ok(false)
    }
}

impl GameHistory for GamesOnly {
    fn history(&self, _: &HistoryQuery) -> Result<HistoryPage, StoreError> {
        Ok(HistoryPage {
            games: Vec::new(),
            next: None,
        })
    }
    fn games_starting(&self, _: &IdPrefix, _: u32) -> Result<Vec<GameId>, StoreError> {
        Ok(Vec::new())
    }
    fn opponents(&self, _: &PlayerName, _: u32) -> Result<Opponents, StoreError> {
        Ok(Opponents::default())
    }
}

impl ReviewStore for GamesOnly {
    fn review(&self, _: &GameId) -> Result<Option<Review>, StoreError> {
        Ok(None)
    }
    fn keep_review(&self, _: &GameId, _: &Review) -> Result<(), StoreError> {
        Ok(())
    }
}

/// What a test puts in front of a store in memory ([`Fronted`]).
pub trait Front: Send + Sync + 'static {
    /// Whether a call may go on to the store: an error fails it, and it may wait here.
    fn pass(&self) -> Result<(), StoreError> {
        Ok(())
    }

    /// Hears the writes the store has just kept.
    fn kept(&self, _writes: &[Write]) {}
}

/// A store in memory (all an [`Archive`] keeps) behind a test's `front`: each call
/// asks the front first ([`Front::pass`]), and each write kept is told to it
/// ([`Front::kept`]).
pub struct Fronted<F> {
    pub front: Arc<F>,
    pub store: Arc<MemoryStore>,
}

impl<F: Front> Fronted<F> {
    /// `call` on the store, if the front lets it pass.
    fn through<T>(
        &self,
        call: impl FnOnce(&MemoryStore) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.front.pass()?;
        call(&self.store)
    }
}

/// The methods of a store's trait, each `name(argument: Type, ...) -> Value;`, written
/// as calls that go [`Fronted::through`] the front to the same method of the store.
macro_rules! through_the_front {
    ($($method:ident($($argument:ident: $kind:ty),*) -> $value:ty;)*) => {
        $(
            fn $method(&self, $($argument: $kind),*) -> Result<$value, StoreError> {
                self.through(|store| store.$method($($argument),*))
            }
        )*
    };
}

impl<F: Front> GameStore for Fronted<F> {
    fn write(&self, writes: &[Write]) -> Result<(), StoreError> {
        self.through(|store| store.write(writes))?;
        self.front.kept(writes);
        Ok(())
    }
    fn write_new(&self, writes: &[Write]) -> Result<(), StoreError> {
        self.through(|store| store.write_new(writes))?;
        self.front.kept(writes);
        Ok(())
    }
    through_the_front! {
        rating_changes(games: &[GameId]) -> Vec<RatingChange>;
        game(id: &GameId) -> Option<StoredGame>;
        overdue(now: SystemTime, limit: usize) -> Vec<GameId>;
        standings(top: Option<u64>, each: &mut dyn Rows) -> ();
        standings_of(names: &[PlayerName]) -> Scoreboard;
        reset() -> Cleared;
        restore() -> Restored;
        import(source: &str, scoreboard: &Scoreboard) -> Imported;
        checkup() -> ();
    }
}

impl<F: Front> SeekStore for Fronted<F> {
    through_the_front! {
        open_seek(seek: &NewSeek) -> ();
        open_seeks(kind: SeekKind, seen_since: SystemTime) -> Vec<Seek>;
        seek(id: &SeekId) -> Option<Seek>;
        seek_seen(id: &SeekId, at: SystemTime) -> bool;
        close_seek(id: &SeekId) -> bool;
        take_seeks(taking: &[(SeekId, Mark)], game: &GameId, at: SystemTime) -> bool;
        taken_since(since: SystemTime) -> Vec<Seek>;
        block(by: &PlayerName, whom: &PlayerName) -> bool;
        unblock(by: &PlayerName, whom: &PlayerName) -> bool;
        blocked_by(by: &PlayerName) -> Vec<PlayerName>;
        blocks_among(keys: &[String]) -> Vec<(String, String)>;
    }
}

impl<F: Front> RatingStore for Fronted<F> {
    through_the_front! {
        ratings(query: &RatingListQuery) -> Vec<PlayerRating>;
        ratings_of(player: &PlayerName) -> Vec<PlayerRating>;
        rating_history(query: &RatingHistoryQuery) -> Vec<RatingPoint>;
        rebuild_ratings() -> Rebuilt;
    }
}

impl<F: Front> TrainingStore for Fronted<F> {
    through_the_front! {
        keep_attempt(attempt: &Attempt) -> ();
        attempts(player: &PlayerName) -> Vec<Attempt>;
    }
}

impl<F: Front> AccountStore for Fronted<F> {
    through_the_front! {
        add_account(account: &NewAccount) -> Added;
        account(name: &PlayerName) -> Option<Account>;
        account_like(name: &PlayerName) -> Option<PlayerName>;
        accounts(now: AccountsTime) -> Vec<AccountSummary>;
        set_password(name: &PlayerName, hash: &PasswordHash) -> bool;
        remove_account(name: &PlayerName) -> bool;
        open_session(session: &NewSession) -> bool;
        session(lock: &SecretLock, now: AccountsTime) -> Option<PlayerName>;
        close_session(lock: &SecretLock) -> ();
        forget_expired_sessions(now: AccountsTime) -> u64;
        add_token(token: &NewToken) -> bool;
        token(lock: &SecretLock) -> Option<PlayerName>;
        tokens(account: &PlayerName) -> Vec<TokenInfo>;
        revoke_token(account: &PlayerName, id: &TokenId) -> bool;
        has_games(name: &PlayerName) -> bool;
    }
}

impl<F: Front> GameHistory for Fronted<F> {
    through_the_front! {
        history(query: &HistoryQuery) -> HistoryPage;
        games_starting(prefix: &IdPrefix, limit: u32) -> Vec<GameId>;
        opponents(player: &PlayerName, limit: u32) -> Opponents;
    }
}

impl<F: Front> ReviewStore for Fronted<F> {
    through_the_front! {
        review(game: &GameId) -> Option<Review>;
        keep_review(game: &GameId, review: &Review) -> ();
    }
}

/// A store of games (a mock) in front of `store` whose writes wait while `held` is set.
pub fn writes_held_while(store: &Arc<MemoryStore>, held: &Arc<AtomicBool>) -> MockGameStore {
    let held = Arc::clone(held);
    writes_delayed(Arc::clone(store), move || {
        while held.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(5));
        }
    })
}

/// A store of games (a mock) in front of `store` whose writes each take `wait` more
/// while `slow` is set.
pub fn writes_slowed_while(
    store: &Arc<MemoryStore>,
    slow: &Arc<AtomicBool>,
    wait: Duration,
) -> MockGameStore {
    let slow = Arc::clone(slow);
    writes_delayed(Arc::clone(store), move || {
        if slow.load(Ordering::SeqCst) {
            std::thread::sleep(wait);
        }
    })
}

/// A store of games (a mock) in front of `store` that calls `delay` before each write
/// it passes on, and reads games from `store` as they are.
fn writes_delayed(
    store: Arc<MemoryStore>,
    delay: impl Fn() + Send + Sync + 'static,
) -> MockGameStore {
    let mut delayed = MockGameStore::new();
    let inner = Arc::clone(&store);
    delayed.expect_write_new().returning(move |writes| {
        delay();
        inner.write_new(writes)
    });
    delayed.expect_game().returning(move |id| store.game(id));
    delayed
}

/// The transport's default limits, changed by `change` (`|limits| limits.max_streams = 1`).
pub fn limits(change: impl FnOnce(&mut Limits)) -> Limits {
    let mut limits = Limits::default();
    change(&mut limits);
    limits
}

/// Small and quick: computer-vs-computer games move every 10 ms.
pub fn test_game_limits() -> GameLimits {
    GameLimits {
        pace: Duration::from_millis(10),
        ..GameLimits::default()
    }
}

#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub json: Value,
    pub text: String,
}

/// A new game's id and its seats' tokens.
pub struct Created {
    pub id: String,
    pub game: Value,
    pub x: Option<String>,
    pub o: Option<String>,
}

impl Created {
    /// The game's address in the API, with `below` after it (`""`, `"/moves"`, ...).
    pub fn api(&self, below: &str) -> String {
        format!("/api/games/{}{below}", self.id)
    }

    /// X's seat's token: the game must have given one.
    pub fn x_token(&self) -> &str {
        self.x.as_deref().expect("a token for X's seat")
    }

    /// O's seat's token: the game must have given one.
    pub fn o_token(&self) -> &str {
        self.o.as_deref().expect("a token for O's seat")
    }
}

impl From<Value> for Created {
    fn from(game: Value) -> Self {
        let token = |key: &str| game["seats"][key]["token"].as_str().map(String::from);
        Created {
            id: game["id"].as_str().unwrap().to_string(),
            x: token("x"),
            o: token("o"),
            game,
        }
    }
}

/// Two people on two screens, Ada (X) and Bob (O).
pub fn two_people() -> Value {
    json!({ "x": "human:Ada", "o": "human:Bob" })
}

/// Ada (X) and Bob (O) at one device: one page plays both seats.
pub fn two_people_together() -> Value {
    json!({ "x": "human:Ada", "o": "human:Bob", "seating": "together" })
}

/// Ada (X, moving first) against the computer at `level`.
pub fn ada_against(level: &str) -> Value {
    json!({ "x": "human:Ada", "o": level })
}

/// The server listening on a loopback port, until `stop` is called or it is dropped.
pub struct Running {
    pub address: std::net::SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    pub finished: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Running {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// Asks the server to stop, as Ctrl-C does.
    pub fn stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Server {
    /// Serves on 127.0.0.1, on a port the system picks.
    pub async fn listen(&self) -> Running {
        self.listen_on(0).await
    }

    /// Serves on 127.0.0.1:`port` (0: a port the system picks).
    pub async fn listen_on(&self, port: u16) -> Running {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
            .await
            .unwrap();
        let address = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let finished = tokio::spawn(tictactoe_web::serve(
            listener,
            self.games.clone(),
            self.accounts.clone(),
            self.limits.clone(),
            async move {
                let _ = stopped.await;
            },
        ));
        Running {
            address,
            stop: Some(stop),
            finished,
        }
    }
}
