//! The server's side of every request, free of HTTP: find the game, check the seat,
//! hand the request to the match where `thinking` says, wait for the scoreboard if the
//! game finished, answer with the new view.
//! `api` turns HTTP into calls here; no rule of the game is decided in either.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};

use tictactoe_core::domain::{GameState, Geometry, Mark, Position, Scoreboard};
use tictactoe_core::play::Event;
use tictactoe_core::players::ComputerFactory;

use super::dto::{CreatedJson, GameJson, HintJson, NewGame, SeatJson, seat_key};
use super::error::ApiError;
use super::group_commit::{GroupCommit, Ticket};
use super::locks::lock;
use super::registry::{Full, Registry};
use super::service::GameService;
use super::setup::Setup;
use super::table::{Play, Queued, Table, WebMatch};
use super::thinking::Thinking;
use super::token::{GameId, Token};

/// The bounds the server keeps to, whatever its clients do.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Games held at once; past it, a new game is refused with 503.
    pub max_games: usize,
    /// A game nobody has touched for this long is forgotten, finished or not.
    pub idle: Duration,
    /// A finished game is forgotten once nobody has touched it for this long.
    pub finished: Duration,
    /// When the server is full, finished games quiet for this long make room at once.
    pub finished_grace: Duration,
    /// The largest request body accepted.
    pub body_bytes: usize,
    /// Connections open at once; past it, the next wait to be accepted.
    pub max_connections: usize,
    /// A connection with nothing sent or received for this long is closed.
    pub idle_connection: Duration,
    /// Live event streams at once; past it, a new stream is refused with 503.
    pub max_streams: usize,
    /// Threads for reading the scoreboard file.
    pub disk_threads: usize,
    /// Threads for bigger boards' work, where the computer thinks against the clock.
    pub heavy_threads: usize,
    /// The pause before each move of a computer-vs-computer game, so people can follow.
    pub pace: Duration,
    /// What a refused new game is told to wait.
    pub retry_after: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_games: 20_000,
            idle: Duration::from_secs(30 * 60),
            finished: Duration::from_secs(10 * 60),
            finished_grace: Duration::from_secs(2),
            body_bytes: 4 * 1024,
            max_connections: 4096,
            idle_connection: Duration::from_secs(60),
            max_streams: 2048,
            disk_threads: 4,
            heavy_threads: 2,
            pace: Duration::from_millis(600),
            retry_after: Duration::from_secs(30),
        }
    }
}

/// What an event stream follows, and its place under the cap on streams.
pub struct Watching {
    /// The game's views as they change.
    pub game: watch::Receiver<Arc<GameJson>>,
    /// Turns true when the server stops.
    pub closing: watch::Receiver<bool>,
    /// Held while the stream lasts.
    pub place: OwnedSemaphorePermit,
}

/// A seat's credentials as the request carried them: a token, none, or something else.
pub enum Credentials {
    Token(Token),
    Missing,
    Malformed,
}

/// Every game the server holds, and what they share.
pub struct Games {
    /// Itself, for the work a request leaves running (a computer-vs-computer game, a
    /// rematch opened on the game's thread): every `Games` is made inside an `Arc`.
    me: Weak<Games>,
    registry: Registry,
    thinking: Thinking,
    computers: Mutex<Box<dyn ComputerFactory + Send>>,
    scoreboard: Arc<GroupCommit>,
    streams: Arc<Semaphore>,
    limits: Limits,
    closing: watch::Sender<bool>,
}

impl Games {
    pub fn new(
        scoreboard: Arc<GroupCommit>,
        computers: Box<dyn ComputerFactory + Send>,
        limits: Limits,
    ) -> Arc<Self> {
        Arc::new_cyclic(|me| Games {
            me: Weak::clone(me),
            registry: Registry::new(
                limits.max_games,
                limits.idle,
                limits.finished,
                limits.finished_grace,
            ),
            thinking: Thinking::new(limits.disk_threads, limits.heavy_threads),
            computers: Mutex::new(computers),
            scoreboard,
            streams: Arc::new(Semaphore::new(limits.max_streams)),
            limits,
            closing: watch::Sender::new(false),
        })
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// How many games are held now.
    pub fn held(&self) -> usize {
        self.registry.len()
    }

    /// Stops every event stream and computer-vs-computer game: the server is stopping.
    pub fn close(&self) {
        self.closing.send_replace(true);
    }

    /// Forgets expired games every `every`, until the server stops.
    pub fn spawn_sweeper(self: &Arc<Self>, every: Duration) {
        let games = Arc::clone(self);
        tokio::spawn(async move {
            let mut closing = games.closing.subscribe();
            loop {
                tokio::select! {
                    () = tokio::time::sleep(every) => {}
                    _ = closing.wait_for(|closed| *closed) => break,
                }
                games.registry.sweep(Instant::now());
            }
        });
    }

    /// Forgets the games expired at `now`: what the sweeper does, for tests.
    pub fn sweep(&self, now: Instant) -> usize {
        self.registry.sweep(now)
    }

    /// The `Arc` this `Games` lives in.
    fn this(&self) -> Arc<Games> {
        self.me
            .upgrade()
            .expect("a Games is only made inside an Arc (Games::new), alive while borrowed")
    }

    /// Runs `request` for the seat the credentials hold; answers the game after it.
    async fn as_seat(
        &self,
        id: &str,
        key: Credentials,
        request: impl FnOnce(&mut WebMatch, Mark, &mut Vec<Event>) -> Result<(), ApiError>
        + Send
        + 'static,
    ) -> Result<Arc<GameJson>, ApiError> {
        let (table, seat) = self.seat(id, key)?;
        self.run(&table, move |play, events| {
            request(&mut play.game, seat, events)
        })
        .await?;
        Ok(table.view())
    }

    fn table(&self, id: &str) -> Result<Arc<Table>, ApiError> {
        self.registry.get(id).ok_or(ApiError::NoSuchGame)
    }

    /// The game, then the seat the credentials hold in it: 404, then 401, then 403.
    fn seat(&self, id: &str, key: Credentials) -> Result<(Arc<Table>, Mark), ApiError> {
        let table = self.table(id)?;
        let seat = self.seat_in(&table, key)?;
        table.touch();
        Ok((table, seat))
    }

    fn seat_in(&self, table: &Table, key: Credentials) -> Result<Mark, ApiError> {
        match key {
            Credentials::Missing => Err(ApiError::NoToken),
            Credentials::Malformed => Err(ApiError::WrongToken),
            Credentials::Token(token) => table.seat_of(&token).ok_or(ApiError::WrongToken),
        }
    }

    /// Makes the match and holds it, or says the server is full.
    fn open(&self, setup: Setup, tokens: [Option<Token>; 2]) -> Result<Arc<Table>, ApiError> {
        let game = {
            let mut computers = lock(&self.computers);
            setup.start(computers.as_mut(), Queued)
        };
        let table = Arc::new(Table::new(GameId::random(), setup, tokens, game));
        self.registry
            .insert(Arc::clone(&table), Instant::now())
            .map_err(|Full| ApiError::Full {
                retry_after: self.limits.retry_after,
            })?;
        Ok(table)
    }

    /// A computer that moves first does so now; a computer-vs-computer game is played
    /// by the server, one paced move at a time.
    async fn start(self: &Arc<Self>, table: &Arc<Table>) -> Result<(), ApiError> {
        if table.setup().is_show() {
            self.spawn_show(Arc::clone(table));
            Ok(())
        } else {
            self.run(table, |play, events| computer_reply(&mut play.game, events))
                .await
        }
    }

    fn spawn_show(self: &Arc<Self>, table: Arc<Table>) {
        let games = Arc::clone(self);
        tokio::spawn(async move {
            let mut closing = games.closing.subscribe();
            while !table.view().is_over() {
                tokio::select! {
                    () = tokio::time::sleep(games.limits.pace) => {}
                    _ = closing.wait_for(|closed| *closed) => break,
                }
                if let Err(error) = games
                    .run(&table, |play, events| {
                        computer_reply(&mut play.game, events)
                    })
                    .await
                {
                    eprintln!("tictactoe serve: game {}: {error}", table.id());
                    break;
                }
            }
        });
    }

    /// Runs `request` on the table's game where `thinking` says. `request` adds the
    /// match's events to the list it is given as they come, so none is lost if a later
    /// step fails. A game those events say finished is handed to the scoreboard right
    /// there, on the game's thread (so even if the client stops waiting, it counts),
    /// and the answer waits until it is written.
    async fn run<T: Send + 'static>(
        &self,
        table: &Arc<Table>,
        request: impl FnOnce(&mut Play, &mut Vec<Event>) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let geometry = table.setup().geometry();
        let worker = Arc::clone(table);
        let scoreboard = Arc::clone(&self.scoreboard);
        let (answer, writes) = self
            .thinking
            .run(geometry, move || {
                let mut events = Vec::new();
                let answer = worker.request(|play| request(play, &mut events));
                let writes: Vec<Ticket> = events
                    .into_iter()
                    .filter_map(|event| match event {
                        Event::Finished { game, .. } => Some(scoreboard.submit(game)),
                        _ => None,
                    })
                    .collect();
                (answer, writes)
            })
            .await?;
        for write in writes {
            if let Err(error) = write.written().await {
                // The game counted for its players; only the file could not be updated.
                eprintln!(
                    "tictactoe serve: game {}: the scoreboard was not updated: {error}",
                    table.id()
                );
            }
        }
        answer
    }
}

impl GameService for Games {
    fn body_limit(&self) -> usize {
        self.limits.body_bytes
    }

    /// `POST /api/games`: a new game, with a fresh token for each person's seat.
    async fn create(&self, request: NewGame) -> Result<CreatedJson, ApiError> {
        let setup = Setup::from_request(request)?;
        let tokens = [Mark::X, Mark::O].map(|mark| setup.is_human(mark).then(Token::random));
        let table = self.open(setup, tokens)?;
        self.this().start(&table).await?;
        let seats = [Mark::X, Mark::O].into_iter().collect();
        Ok(created(&table, seats))
    }

    /// `GET /api/games/{id}`.
    fn game(&self, id: &str) -> Result<Arc<GameJson>, ApiError> {
        Ok(self.table(id)?.view())
    }

    /// The game's views as they change, until the game is forgotten or the server stops,
    /// and the stream's place under the cap, to hold while it lasts.
    fn watch(&self, id: &str) -> Result<Watching, ApiError> {
        let table = self.table(id)?;
        let place =
            Arc::clone(&self.streams)
                .try_acquire_owned()
                .map_err(|_| ApiError::Streaming {
                    retry_after: self.limits.retry_after,
                })?;
        Ok(Watching {
            game: table.watch(),
            closing: self.closing.subscribe(),
            place,
        })
    }

    /// `POST /api/games/{id}/moves`: the seat's move, then the computer's reply if due.
    async fn play(&self, id: &str, key: Credentials, cell: u64) -> Result<Arc<GameJson>, ApiError> {
        self.as_seat(id, key, move |game, seat, events| {
            let position = cell_on(game.game().board().geometry(), cell)?;
            events.extend(game.play(seat, position)?);
            computer_reply(game, events)
        })
        .await
    }

    /// `POST /api/games/{id}/undo`.
    async fn undo(&self, id: &str, key: Credentials) -> Result<Arc<GameJson>, ApiError> {
        self.as_seat(id, key, |game, seat, events| {
            events.extend(game.undo(seat)?);
            Ok(())
        })
        .await
    }

    /// `POST /api/games/{id}/leave`: the game ends, unrecorded.
    async fn leave(&self, id: &str, key: Credentials) -> Result<Arc<GameJson>, ApiError> {
        self.as_seat(id, key, |game, seat, events| {
            events.extend(game.leave(seat)?);
            Ok(())
        })
        .await
    }

    /// `POST /api/games/{id}/hint`: the best cells for the seat, whose turn it is.
    async fn hint(&self, id: &str, key: Credentials) -> Result<HintJson, ApiError> {
        let (table, seat) = self.seat(id, key)?;
        self.run(&table, move |play, _| {
            play.game
                .hint(seat)
                .map(|analysis| HintJson::from(&analysis))
                .map_err(ApiError::from)
        })
        .await
    }

    /// `POST /api/games/{id}/rematch`: the same game with sides swapped; each person
    /// keeps their token, which now holds the other mark. Asked twice, it answers the
    /// same rematch (`false`: not new). A computer-vs-computer game needs no token.
    async fn rematch(&self, id: &str, key: Credentials) -> Result<(CreatedJson, bool), ApiError> {
        let table = self.table(id)?;
        let caller = if table.setup().is_show() {
            None
        } else {
            Some(self.seat_in(&table, key)?)
        };
        if !table.view().is_over() {
            return Err(ApiError::Conflict(
                "the game is still being played: a rematch comes after the end",
            ));
        }
        let games = self.this();
        let old = Arc::clone(&table);
        let (next, new) = self
            .run(&table, move |play, _| match &play.rematch {
                Some(id) => games.table(id.as_str()).map(|next| (next, false)),
                None => {
                    let tokens = [Mark::O, Mark::X].map(|mark| old.token(mark).cloned());
                    let next = games.open(old.setup().swapped(), tokens)?;
                    play.rematch = Some(next.id().clone());
                    Ok((next, true))
                }
            })
            .await?;
        if new {
            self.this().start(&next).await?;
        }
        let seats = caller.map(Mark::opponent).into_iter().collect();
        Ok((created(&next, seats), new))
    }

    /// `GET /api/scores`: the scoreboard file as it is now.
    async fn scores(&self) -> Result<Scoreboard, ApiError> {
        let scoreboard = Arc::clone(&self.scoreboard);
        self.thinking
            .on_disk(move || scoreboard.load())
            .await?
            .map_err(|error| ApiError::Internal(error.to_string()))
    }
}

/// The cell numbered `cell` (1-based, as people number them) on a board of `geometry`.
fn cell_on(geometry: Geometry, cell: u64) -> Result<Position, ApiError> {
    usize::try_from(cell)
        .ok()
        .and_then(|number| number.checked_sub(1))
        .and_then(|index| geometry.position(index))
        .ok_or_else(|| {
            let cells = geometry.cell_count();
            ApiError::BadRequest(format!(
                "cell {cell} is not on this board: choose 1 to {cells}"
            ))
        })
}

/// If a computer's turn has come, it moves; its events join `events`.
fn computer_reply(game: &mut WebMatch, events: &mut Vec<Event>) -> Result<(), ApiError> {
    let moved = game
        .advance()
        .map_err(|error| ApiError::Internal(error.to_string()))?;
    events.extend(moved);
    Ok(())
}

/// The answer to a new game: the game, and for each of `seats` that a person holds,
/// its token and link.
fn created(table: &Table, seats: Vec<Mark>) -> CreatedJson {
    let id = table.id();
    let seats: BTreeMap<_, _> = seats
        .into_iter()
        .filter_map(|mark| {
            let token = table.token(mark)?.to_hex();
            let key = seat_key(mark);
            let url = format!("/games/{id}#{key}={token}");
            Some((key, SeatJson { token, url }))
        })
        .collect();
    CreatedJson {
        game: table.view().as_ref().clone(),
        seats,
    }
}
