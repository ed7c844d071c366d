//! Several servers on one store: what `Games::shared` adds, over a fake of a shared
//! store (the core's `MemoryStore` behind a hub that tells every other server what each
//! one kept, at once, and holds computer-against-computer games for one server at a
//! time, as PostgreSQL's NOTIFY and the pacing table do). The same behaviours are
//! tested end to end over a real PostgreSQL in the root package's `tests/servers.rs`.

mod web_support;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::Method;
use serde_json::json;
use tictactoe_core::memory::MemoryStore;
use tictactoe_core::ports::{
    Following, GameId, GameStore, Hear, Heard, News, NewsFeed, Pacing, StoreError, Write,
};
use tictactoe_players::StandardComputers;
use tictactoe_web::{GameLimits, Games, Limits};
use web_support::{Front, Fronted, Server, next_event, test_game_limits, two_people};

/// The store every server shares, and who listens to it.
#[derive(Default)]
struct Hub {
    store: Arc<MemoryStore>,
    listeners: Mutex<Vec<(usize, Box<dyn Hear>)>>,
    /// Each paced game: the server holding it, until when.
    holds: Mutex<HashMap<GameId, (usize, Instant)>>,
}

/// One server's connection to the hub.
struct Peer {
    hub: Arc<Hub>,
    me: usize,
}

impl Front for Peer {
    /// Tells every other server what `writes` kept.
    fn kept(&self, writes: &[Write]) {
        // The news of a write is the write.
        let news: Vec<News> = writes.to_vec();
        for (server, listener) in self.hub.listeners.lock().unwrap().iter_mut() {
            if *server != self.me && !news.is_empty() {
                listener.hear(Heard::News(news.clone()));
            }
        }
    }
}

impl NewsFeed for Peer {
    fn follow(&self, hear: Box<dyn Hear>) -> Result<Following, StoreError> {
        self.hub.listeners.lock().unwrap().push((self.me, hear));
        Ok(Following::until_dropped(()))
    }
}

impl Pacing for Peer {
    fn pace(&self, game: &GameId, hold: Duration) -> Result<bool, StoreError> {
        let now = Instant::now();
        let mut holds = self.hub.holds.lock().unwrap();
        match holds.get(game) {
            Some((server, until)) if *server != self.me && *until > now => Ok(false),
            _ => {
                holds.insert(game.clone(), (self.me, now + hold));
                Ok(true)
            }
        }
    }
    fn unpaced(&self, limit: u32) -> Result<Vec<GameId>, StoreError> {
        let now = Instant::now();
        let holds = self.hub.holds.lock().unwrap();
        Ok(holds
            .iter()
            .filter(|(game, (_, until))| {
                *until <= now
                    && self
                        .hub
                        .store
                        .game(game)
                        .is_ok_and(|kept| kept.is_some_and(|kept| kept.ending.is_none()))
            })
            .map(|(game, _)| game.clone())
            .take(limit as usize)
            .collect())
    }
}

/// Server number `me` on `hub`.
fn server_on(hub: &Arc<Hub>, me: usize, limits: GameLimits) -> Server {
    let peer = Arc::new(Peer {
        hub: Arc::clone(hub),
        me,
    });
    let fronted = Fronted {
        front: Arc::clone(&peer),
        store: Arc::clone(&hub.store),
    };
    let computers = StandardComputers::new(7, Duration::from_secs(5));
    let games = Games::shared(Arc::new(fronted), peer, Box::new(computers), limits)
        .expect("following the hub");
    Server::of(games, Arc::clone(&hub.store), Limits::default())
}

/// Two servers on one new hub.
fn two_servers() -> (Server, Server) {
    let hub = Arc::new(Hub::default());
    (
        server_on(&hub, 1, test_game_limits()),
        server_on(&hub, 2, test_game_limits()),
    )
}

/// The board `server` shows for game `id`.
async fn board_on(server: &Server, id: &str) -> String {
    let answer = server.get(&format!("/api/games/{id}")).await;
    answer.json["board"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test]
async fn a_game_begun_on_one_server_is_played_through_the_other() {
    // Arrange
    let (a, b) = two_servers();
    let game = a.create(two_people()).await;

    // Act
    let moved = b.play(&game.id, game.x_token(), 5).await;

    // Assert
    assert_eq!(moved.status, 200, "{}", moved.text);
    assert_eq!(a.kept(&game.id).steps.len(), 1);
}

#[tokio::test]
async fn a_server_holding_a_game_shows_a_move_made_through_another_at_once() {
    // Arrange: both servers hold the game.
    let (a, b) = two_servers();
    let game = a.create(two_people()).await;
    assert_eq!(board_on(&b, &game.id).await, ".........");

    // Act
    a.play(&game.id, game.x_token(), 5).await;

    // Assert: no read of the store needed: the news came with the write.
    assert_eq!(board_on(&b, &game.id).await, "....X....");
}

#[tokio::test]
async fn a_spectator_of_one_server_sees_a_move_made_through_another() {
    // Arrange: a spectator's event stream on server B, past its first event.
    let (a, b) = two_servers();
    let game = a.create(two_people()).await;
    let mut events = b.events(&game).await;
    next_event(&mut events).await;

    // Act
    a.play(&game.id, game.x_token(), 5).await;
    let next = tokio::time::timeout(Duration::from_secs(2), next_event(&mut events)).await;

    // Assert
    let text = next.expect("an event within 2 s");
    assert!(text.contains("\"board\":\"....X....\""), "{text}");
}

#[tokio::test]
async fn a_server_holding_a_game_shows_a_name_chosen_through_another_at_once() {
    // Arrange: both servers hold the game; Ada (X) has moved, Bob (O) has not.
    let (a, b) = two_servers();
    let game = a.ada_played(5).await;
    assert_eq!(board_on(&b, &game.id).await, "....X....");

    // Act
    let renamed = a
        .send(
            Method::POST,
            &game.api("/name"),
            game.o.as_deref(),
            Some(json!({ "name": "Cy" })),
        )
        .await;

    // Assert: no read of the store needed: the news came with the write.
    assert_eq!(renamed.status, 200, "{}", renamed.text);
    let on_b = b.get(&game.api("")).await;
    assert_eq!(on_b.json["players"]["o"]["name"], "Cy");
}

#[tokio::test]
async fn the_same_move_sent_to_two_servers_at_once_is_accepted_once_and_the_other_is_a_409() {
    // Arrange: both servers hold the game; X's move comes to both at once.
    let (a, b) = two_servers();
    let game = a.create(two_people()).await;
    board_on(&b, &game.id).await;
    let x = game.x_token();

    // Act
    let (first, second) = tokio::join!(a.play(&game.id, x, 5), b.play(&game.id, x, 5));

    // Assert
    let mut statuses = [first.status.as_u16(), second.status.as_u16()];
    statuses.sort();
    assert_eq!(statuses, [200, 409], "{} / {}", first.text, second.text);
    assert_eq!(a.kept(&game.id).steps.len(), 1);
}

#[tokio::test]
async fn a_server_behind_the_store_reads_the_game_again_instead_of_refusing_a_move() {
    // Arrange: server B holds the game, then misses X's move (its news was lost).
    let hub = Arc::new(Hub::default());
    let (a, b) = (
        server_on(&hub, 1, test_game_limits()),
        server_on(&hub, 2, test_game_limits()),
    );
    let game = a.create(two_people()).await;
    board_on(&b, &game.id).await;
    hub.listeners
        .lock()
        .unwrap()
        .retain(|(server, _)| *server != 2);
    a.play(&game.id, game.x_token(), 5).await;

    // Act: O's move through B, which thinks it is still X's turn.
    let moved = b.play(&game.id, game.o_token(), 1).await;

    // Assert
    assert_eq!(moved.status, 200, "{}", moved.text);
    assert_eq!(moved.json["board"], "O...X....");
}

#[tokio::test]
async fn a_rematch_asked_on_two_servers_at_once_is_one_rematch() {
    // Arrange: a finished game both servers hold.
    let (a, b) = two_servers();
    let game = a.create(two_people()).await;
    a.post(&game.id, "resign", game.o.as_deref()).await;
    board_on(&b, &game.id).await;

    // Act
    let (first, second) = tokio::join!(
        a.post(&game.id, "rematch", game.x.as_deref()),
        b.post(&game.id, "rematch", game.o.as_deref())
    );

    // Assert
    assert!(first.status.is_success(), "{}", first.text);
    assert!(second.status.is_success(), "{}", second.text);
    assert_eq!(first.json["id"], second.json["id"]);
}

#[tokio::test]
async fn a_computer_game_is_played_by_one_server_and_taken_over_when_it_stops() {
    // Arrange: a computer-against-computer game on A, moving every 100 ms; B looks
    // for games to take over.
    let hub = Arc::new(Hub::default());
    let limits = GameLimits {
        pace: Duration::from_millis(100),
        ..GameLimits::default()
    };
    let a = server_on(&hub, 1, limits.clone());
    let b = server_on(&hub, 2, limits);
    b.games.spawn_housekeeping();
    let show = json!({ "x": "random", "o": "random", "size": 7, "win": 7 });
    let game = a.create(show).await;
    tokio::time::sleep(Duration::from_millis(350)).await;
    let moves_by_a = a.kept(&game.id).steps.len();

    // Act: A stops (as a killed server would: it no longer holds the game).
    a.games.close();
    let stopped_at = a.kept(&game.id).steps.len();
    tokio::time::sleep(Duration::from_millis(2500)).await;

    // Assert: B went on with it, from where A stopped.
    let kept = a.kept(&game.id);
    assert!(moves_by_a >= 1, "A played {moves_by_a} moves");
    assert!(
        kept.steps.len() > stopped_at,
        "{} moves after A stopped at {stopped_at}",
        kept.steps.len()
    );
    assert_eq!(
        hub.holds
            .lock()
            .unwrap()
            .get(&GameId::parse(&game.id).unwrap())
            .map(|(server, _)| *server),
        Some(2)
    );
}

#[tokio::test]
async fn a_game_begun_on_one_server_is_held_by_the_other_from_the_news() {
    // Arrange
    let (a, b) = two_servers();

    // Act
    a.create(two_people()).await;

    // Assert: held before anyone asked B for it (its first request reads nothing).
    assert_eq!(b.games.held(), 1);
}

#[tokio::test]
async fn news_a_server_already_holds_changes_nothing_and_keeps_the_game_held() {
    // Arrange: B holds the game with X's first move (from the news).
    let (a, b) = two_servers();
    let game = a.create(two_people()).await;
    a.play(&game.id, game.x_token(), 5).await;
    let kept = a.kept(&game.id);

    // Act: the same news again, as a server that read the game back meanwhile gets it.
    b.games.hear(Heard::News(vec![News::Step {
        game: kept.game.id.clone(),
        step: kept.steps[0],
    }]));

    // Assert
    assert_eq!(b.games.held(), 1);
    assert_eq!(board_on(&b, &game.id).await, "....X....");
}
