//! The server's side of every request, free of HTTP: find the game (held in memory, or
//! read back from the store), check the seat, run the request on the match where
//! `thinking` says, wait until the store keeps what it changed, answer with the new
//! view. `api` turns HTTP into calls here; no rule of the game is decided in either.
//!
//! Memory is a cache of the store, never ahead of it: a change is shown (to the
//! player, and to spectators) only once the store has kept it, and a table whose write
//! the store refused is forgotten at once, so the next request reads the game back as
//! the store has it.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use tokio::sync::{Mutex as Gate, OwnedMutexGuard, OwnedSemaphorePermit, Semaphore, watch};

use tictactoe_core::domain::{GameState, Geometry, Mark, PlayerName, Position, Scoreboard};
use tictactoe_core::play::Replay;
use tictactoe_core::players::ComputerFactory;
use tictactoe_core::ports::{
    Archive, Following, GameId, GameStore, Heard, HistoryPage, HistoryQuery, NewGame as Begun,
    News, Pacing, PageSize, SeatLock, Shared, StoreError, StoredGame, names_of,
};

use super::dto::{CreatedJson, GameJson, HintJson, NewGame, SeatJson, seat_key};
use super::error::ApiError;
use super::group_commit::{CommitCounts, GroupCommit};
use super::locks::lock;
use super::registry::Registry;
use super::reviews::{Entered, Progress, Reviews, review_and_keep};
use super::service::{GameService, PlayerPage, Reviewing};
use super::setup::Setup;
use super::shares::{Client, Share, Shares};
use super::table::{Done, Pending, Play, Table, WebMatch};
use super::thinking::Thinking;
use super::token::{Token, new_game_id};

/// The bounds the server keeps to, whatever its clients do.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Games held in memory at once: a cache of the store. Past it, the quietest are
    /// forgotten (finished ones first), to be read back from the store when asked for.
    pub max_games: usize,
    /// A game nobody has touched for this long is forgotten from memory, finished or
    /// not (it stays in the store).
    pub idle: Duration,
    /// A finished game is forgotten from memory once nobody has touched it for this long.
    pub finished: Duration,
    /// When memory is full, finished games quiet for this long make room first.
    pub finished_grace: Duration,
    /// The largest request body accepted.
    pub body_bytes: usize,
    /// A request's body must arrive whole within this long of its head, or the answer
    /// is a 408 and the connection is closed.
    pub body_deadline: Duration,
    /// The largest request head (its first line and headers) accepted; past it, 431.
    pub head_bytes: usize,
    /// A request's head must arrive whole within this long of the connection's being
    /// ready for it (opened, or done with the request before), or the connection is
    /// closed; trickling bytes do not push this back.
    pub head_deadline: Duration,
    /// Connections open at once; past it, the next wait to be accepted.
    pub max_connections: usize,
    /// Connections open at once from one client (an IPv4 address, an IPv6 /64); past
    /// it, that client's next connection is refused at once.
    pub connections_per_client: usize,
    /// A connection with nothing sent or received for this long is closed.
    pub idle_connection: Duration,
    /// Live event streams at once; past it, a new stream is refused with 503.
    pub max_streams: usize,
    /// Live event streams at once for one client; past it, 429.
    pub streams_per_client: usize,
    /// Proxies whose `X-Forwarded-For` is believed: their requests count for the
    /// client the header names, and their connections against no client's share.
    pub trusted_proxies: Vec<IpAddr>,
    /// After the server is told to stop, how long requests in flight have to finish
    /// before every connection is closed.
    pub grace: Duration,
    /// Threads for reading the store (games read back, the scoreboard).
    pub disk_threads: usize,
    /// Threads for bigger boards' work, where the computer thinks against the clock.
    pub heavy_threads: usize,
    /// Reviews of ended games computed at once, each on a blocking thread of its own
    /// (every position may take the computer's whole thinking time).
    pub review_threads: usize,
    /// Reviews under way at once (computing, or waiting for a thread); past it, a
    /// review asked for is refused with 503 for a while.
    pub max_reviews: usize,
    /// The pause before each move of a computer-vs-computer game, so people can follow.
    pub pace: Duration,
    /// What a refused event stream is told to wait.
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
            body_deadline: Duration::from_secs(10),
            head_bytes: 8 * 1024,
            head_deadline: Duration::from_secs(10),
            max_connections: 4096,
            connections_per_client: 256,
            idle_connection: Duration::from_secs(60),
            max_streams: 2048,
            streams_per_client: 64,
            trusted_proxies: Vec::new(),
            grace: Duration::from_secs(5),
            disk_threads: 4,
            heavy_threads: 2,
            review_threads: 1,
            max_reviews: 64,
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
    /// Held while the stream lasts: under the cap, and in the client's share.
    pub place: (OwnedSemaphorePermit, Share),
}

/// A seat's credentials as the request carried them: a token, none, or something else.
pub enum Credentials {
    Token(Token),
    Missing,
    Malformed,
}

/// Every game the server holds, and what they share.
pub struct Games {
    /// Itself, for the work a request leaves running (a computer-vs-computer game, the
    /// wait for the store): every `Games` is made inside an `Arc`.
    me: Weak<Games>,
    registry: Registry,
    /// The games being read back from the store, each by one request; others asking
    /// for the same game wait for it, so a game is never held twice.
    loading: Mutex<HashMap<GameId, Arc<Gate<()>>>>,
    thinking: Thinking,
    computers: Mutex<Box<dyn ComputerFactory + Send>>,
    /// The games, and what is kept of the ended ones: their history and reviews.
    store: Arc<dyn Archive>,
    commit: Arc<GroupCommit>,
    streams: Arc<Semaphore>,
    stream_shares: Arc<Shares>,
    reviews: Reviews,
    limits: Limits,
    closing: watch::Sender<bool>,
    /// Set when several servers share the store: which of them plays each
    /// computer-against-computer game.
    pacing: Option<Arc<dyn Pacing>>,
    /// While set, news of what the other servers keep reaches [`Games::hear`].
    following: Mutex<Option<Following>>,
}

/// How much longer than the pause between its moves a server holds a
/// computer-against-computer game: past it, the game is another server's to take over.
const HOLD_MARGIN: Duration = Duration::from_secs(1);

/// How often a server that shares its store looks for computer-against-computer games
/// whose server stopped.
const TAKEOVER_EVERY: Duration = Duration::from_millis(500);

/// A request tried this many times when it found the game changed by another server.
const TRIES: usize = 3;

impl Games {
    /// The server's games, kept in `store` (written through a group commit of its own,
    /// on a thread of its own), played by computers from `computers`, within `limits`.
    /// The same store answers the history of ended games and keeps their reviews.
    pub fn new(
        store: Arc<dyn Archive>,
        computers: Box<dyn ComputerFactory + Send>,
        limits: Limits,
    ) -> Arc<Self> {
        Games::build(store, None, computers, limits)
    }

    /// The games of one of several servers sharing `store`: as [`Games::new`], and
    /// `shared` tells this server what the others keep (so that what it holds in
    /// memory, and shows its spectators, follows their changes) and which
    /// computer-against-computer games it plays. The store decides every race
    /// ([`GameStore::write_new`]).
    pub fn shared(
        store: Arc<dyn Archive>,
        shared: Arc<dyn Shared>,
        computers: Box<dyn ComputerFactory + Send>,
        limits: Limits,
    ) -> Result<Arc<Self>, StoreError> {
        let games = Games::build(store, Some(Arc::clone(&shared) as _), computers, limits);
        let listener = Arc::downgrade(&games);
        let following = shared.follow(Box::new(move |heard| {
            if let Some(games) = listener.upgrade() {
                games.hear(heard);
            }
        }))?;
        *lock(&games.following) = Some(following);
        Ok(games)
    }

    fn build(
        store: Arc<dyn Archive>,
        pacing: Option<Arc<dyn Pacing>>,
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
            loading: Mutex::new(HashMap::new()),
            thinking: Thinking::new(limits.disk_threads, limits.heavy_threads),
            computers: Mutex::new(computers),
            commit: Arc::new(GroupCommit::new(Arc::clone(&store) as Arc<dyn GameStore>)),
            store,
            streams: Arc::new(Semaphore::new(limits.max_streams)),
            stream_shares: Shares::new(limits.streams_per_client),
            reviews: Reviews::new(
                limits.review_threads,
                limits.max_reviews,
                limits.retry_after,
            ),
            limits,
            closing: watch::Sender::new(false),
            pacing,
            following: Mutex::new(None),
        })
    }

    /// What another server kept: each game held here takes its news and shows it at
    /// once; a game that cannot (a request of this server's is under way on it, or the
    /// news does not follow on) is forgotten, to be read again when next asked for.
    /// After news was missed, every game is.
    pub fn hear(&self, heard: Heard) {
        match heard {
            Heard::Missed => self.registry.clear(Table::make_stale),
            Heard::News(news) => {
                for (game, mut news) in by_game(news) {
                    if let Some(News::Begin(new)) = news.first() {
                        let new = new.clone();
                        news.remove(0);
                        self.hold_begun(new);
                    }
                    if news.is_empty() {
                        continue;
                    }
                    if let Some(table) = self.registry.get(game.as_str())
                        && !table.take_news(&news)
                    {
                        table.make_stale();
                        self.registry.remove(&table);
                    }
                }
            }
        }
    }

    /// A game another server began: held here too (its next request may come here),
    /// and shown as the rematch of the game it follows. A computer-against-computer
    /// game stays the other server's to play.
    fn hold_begun(&self, new: Begun) {
        if let Some(first) = &new.follows
            && let Some(earlier) = self.registry.get(first.as_str())
        {
            earlier.set_rematch(new.id.clone());
        }
        if self.registry.get(new.id.as_str()).is_some() {
            return;
        }
        let kept = StoredGame {
            game: new,
            steps: Vec::new(),
            ending: None,
            started: std::time::SystemTime::now(),
            ended: None,
            rematch: None,
        };
        match self.rebuild(kept) {
            Ok(table) => self.registry.insert(Arc::new(table), Instant::now()),
            Err(error) => eprintln!("tictactoe serve: a game begun elsewhere: {error}"),
        }
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// How many games are held in memory now.
    pub fn held(&self) -> usize {
        self.registry.len()
    }

    /// What the store's writer has done so far: batches, and the requests and writes
    /// they carried.
    pub fn commits(&self) -> CommitCounts {
        self.commit.counts()
    }

    /// Stops every event stream and computer-vs-computer game: the server is stopping.
    pub fn close(&self) {
        self.closing.send_replace(true);
        drop(lock(&self.following).take());
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
        if self.pacing.is_some() {
            Arc::clone(self).spawn_takeover();
        }
    }

    /// Every [`TAKEOVER_EVERY`], until the server stops: the computer-against-computer
    /// games whose server stopped holding them (it died) are read back and played here
    /// (unless another server takes them first: see [`Games::spawn_show`]).
    fn spawn_takeover(self: Arc<Self>) {
        tokio::spawn(async move {
            let mut closing = self.closing.subscribe();
            loop {
                tokio::select! {
                    () = tokio::time::sleep(TAKEOVER_EVERY) => {}
                    _ = closing.wait_for(|closed| *closed) => break,
                }
                let Some(pacing) = self.pacing.clone() else {
                    break;
                };
                let orphans = self.thinking.on_disk(move || pacing.unpaced(32)).await;
                let orphans = match orphans {
                    Ok(Ok(orphans)) => orphans,
                    Ok(Err(error)) => {
                        eprintln!("tictactoe serve: looking for games to take over: {error}");
                        continue;
                    }
                    Err(_) => continue,
                };
                for id in orphans {
                    match self.table(id.as_str()).await {
                        Ok(table) if table.setup().is_show() && !table.view().is_over() => {
                            Arc::clone(&self).spawn_show(table);
                        }
                        Ok(_) => {}
                        Err(error) => eprintln!("tictactoe serve: taking over game {id}: {error}"),
                    }
                }
            }
        });
    }

    /// Forgets the games expired at `now` from memory: what the sweeper does, for tests.
    pub fn sweep(&self, now: Instant) -> usize {
        self.registry.sweep(now)
    }

    /// The `Arc` this `Games` lives in.
    fn this(&self) -> Arc<Games> {
        self.me
            .upgrade()
            .expect("a Games is only made inside an Arc (Games::new), alive while borrowed")
    }

    /// The game `id`, held or read back from the store: 404 for anything that is not
    /// a game id, or not kept.
    async fn table(&self, id: &str) -> Result<Arc<Table>, ApiError> {
        let id = GameId::parse(id).map_err(|_| ApiError::NoSuchGame)?;
        if let Some(table) = self.registry.get(id.as_str()) {
            return Ok(table);
        }
        let loading = Loading::enter(&self.loading, &id);
        let _only_me = loading.gate.lock().await;
        match self.registry.get(id.as_str()) {
            Some(table) => Ok(table),
            None => self.load(&id).await,
        }
    }

    /// The game and its turn. A table forgotten while this request waited for its turn
    /// (the store refused its write, or memory needed the room) is read back again, so
    /// that a game is played on one table only.
    async fn turn(&self, id: &str) -> Result<(Arc<Table>, OwnedMutexGuard<()>), ApiError> {
        for _ in 0..3 {
            let table = self.table(id).await?;
            let turn = table.turn().await;
            if !table.is_stale() && self.registry.holds(&table) {
                return Ok((table, turn));
            }
        }
        Err(ApiError::Unsettled)
    }

    /// The game, the seat the credentials hold in it (404, then 401, then 403), and
    /// the game's turn.
    async fn seat(
        &self,
        id: &str,
        key: &Credentials,
    ) -> Result<(Arc<Table>, Mark, OwnedMutexGuard<()>), ApiError> {
        let (table, turn) = self.turn(id).await?;
        let seat = seat_in(&table, key)?;
        table.touch();
        // Shown with the request's own change: one event, not two.
        table.mark_joined(seat);
        Ok((table, seat, turn))
    }

    /// Runs `request` for the seat the credentials hold; answers the game after it.
    ///
    /// When servers share the store, the table held here may be behind it: a write the
    /// store refused because another server kept that step first, or a refusal by the
    /// match that the store's game would not make, means the game is read again and the
    /// request run on it once more. A second server that loses a race is so answered
    /// as if both requests had come to one server, one after the other.
    async fn as_seat(
        &self,
        id: &str,
        key: Credentials,
        request: impl Fn(&mut WebMatch, Mark) -> Result<(), ApiError> + Clone + Send + 'static,
    ) -> Result<Arc<GameJson>, ApiError> {
        let mut tries = 0;
        loop {
            tries += 1;
            let (table, seat, turn) = self.seat(id, &key).await?;
            let request = request.clone();
            let answer = self
                .run(&table, turn, move |play| request(&mut play.game, seat))
                .await;
            match answer {
                Ok(((), view)) => return Ok(view),
                Err(error) if tries < TRIES && self.was_behind(&table, &error).await => {}
                Err(error) => return Err(error),
            }
        }
    }

    /// Whether `error` came from holding `table` behind the store, which another
    /// server changed: then the table is forgotten, to be read again. Never so for a
    /// server alone on its store.
    async fn was_behind(&self, table: &Arc<Table>, error: &ApiError) -> bool {
        if self.pacing.is_none() {
            return false;
        }
        match error {
            // `run` forgot the table already.
            ApiError::Store(StoreError::Conflict { .. }) => true,
            ApiError::Refused(_) => {
                let store = Arc::clone(&self.store);
                let id = table.id().clone();
                let kept = self.thinking.on_disk(move || store.game(&id)).await;
                let Ok(Ok(Some(kept))) = kept else {
                    return false;
                };
                let held = table.progress();
                let stored = (kept.steps.len() as u32, kept.ending.is_some());
                if held == stored {
                    return false;
                }
                table.make_stale();
                self.registry.remove(table);
                true
            }
            _ => false,
        }
    }

    /// Reads game `id` back from the store, and holds it (see [`Games::begin`]).
    async fn load(&self, id: &GameId) -> Result<Arc<Table>, ApiError> {
        // The writes handed over before now are kept first: a table forgotten with a
        // move on its way to the store is read back with that move.
        let _ = self.commit.submit(Vec::new()).written().await;
        let store = Arc::clone(&self.store);
        let key = id.clone();
        let kept = self
            .thinking
            .on_disk(move || store.game(&key))
            .await?
            .map_err(ApiError::Store)?
            .ok_or(ApiError::NoSuchGame)?;
        let table = Arc::new(self.rebuild(kept)?);
        self.begin(&table).await?;
        Ok(table)
    }

    /// The table of a kept game: its setup, its steps played again, locks for tokens,
    /// its rematch.
    fn rebuild(&self, kept: StoredGame) -> Result<Table, ApiError> {
        let setup = Setup::of_kept(&kept);
        let id = kept.game.id.clone();
        let resumed = {
            let mut computers = lock(&self.computers);
            setup.resume(
                computers.as_mut(),
                Pending::resume(id.clone()),
                &kept.steps,
                kept.ending,
            )
        };
        let (game, _) = resumed.map_err(|error| {
            ApiError::Internal(format!("game {id} as kept cannot be played on: {error}"))
        })?;
        Ok(Table::new(id, setup, kept.game.locks, game, kept.rematch))
    }

    /// A new game's table: its beginning is its first write (see [`Games::begin`]).
    fn open(
        &self,
        setup: Setup,
        locks: [Option<SeatLock>; 2],
        follows: Option<GameId>,
    ) -> Arc<Table> {
        let id = new_game_id();
        let kept = setup.begin(id.clone(), locks.clone(), follows);
        let game = {
            let mut computers = lock(&self.computers);
            setup.start(computers.as_mut(), Pending::begin(kept))
        };
        Arc::new(Table::new(id, setup, locks, game, None))
    }

    /// Starts a table, new or read back: keeps what it has to keep (a new game's
    /// beginning, an ending the store lacked) with the computer's move if it is a
    /// computer's turn, then holds it; a computer-vs-computer game is then played by
    /// the server, one paced move at a time.
    async fn begin(&self, table: &Arc<Table>) -> Result<(), ApiError> {
        let turn = table.turn().await;
        let show = table.setup().is_show();
        self.run(table, turn, move |play| {
            if show {
                Ok(())
            } else {
                computer_reply(&mut play.game)
            }
        })
        .await?;
        self.registry.insert(Arc::clone(table), Instant::now());
        if show && !table.view().is_over() {
            self.this().spawn_show(Arc::clone(table));
        }
        Ok(())
    }

    /// Plays a computer-against-computer game here, one paced move at a time, unless
    /// this server plays it already. When servers share the store, each move waits
    /// until this server holds the game ([`Pacing::pace`]); if another server holds
    /// it, this one stops and follows that one's moves through the news.
    fn spawn_show(self: Arc<Self>, table: Arc<Table>) {
        if table.start_pacing() {
            return;
        }
        tokio::spawn(async move {
            let mut closing = self.closing.subscribe();
            while !table.view().is_over() {
                tokio::select! {
                    () = tokio::time::sleep(self.limits.pace) => {}
                    _ = closing.wait_for(|closed| *closed) => break,
                }
                // A game forgotten from memory goes on where it is read back.
                if !self.registry.holds(&table) {
                    break;
                }
                if let Some(pacing) = self.pacing.clone() {
                    let id = table.id().clone();
                    let hold = self.limits.pace + HOLD_MARGIN;
                    match self.thinking.on_disk(move || pacing.pace(&id, hold)).await {
                        Ok(Ok(true)) => {}
                        // Another server plays it.
                        Ok(Ok(false)) => break,
                        Ok(Err(error)) => {
                            eprintln!("tictactoe serve: game {}: {error}", table.id());
                            continue;
                        }
                        Err(_) => break,
                    }
                }
                let turn = table.turn().await;
                if let Err(error) = self
                    .run(&table, turn, |play| computer_reply(&mut play.game))
                    .await
                {
                    eprintln!("tictactoe serve: game {}: {error}", table.id());
                    break;
                }
            }
            table.stop_pacing();
        });
    }

    /// Computes the review of `replay` once a review thread is free, keeps it in the
    /// store, and says so to `progress`'s pollers (see `reviews`). Given up when the
    /// server stops.
    fn spawn_review(self: Arc<Self>, id: GameId, replay: Replay, progress: Arc<Progress>) {
        tokio::spawn(async move {
            let mut closing = self.closing.subscribe();
            let turn = tokio::select! {
                turn = self.reviews.turn() => turn.map(Some),
                _ = closing.wait_for(|closed| *closed) => Ok(None),
            };
            let outcome = match turn {
                Ok(Some(turn)) => {
                    let advisor = lock(&self.computers).advisor();
                    let store = Arc::clone(&self.store);
                    let closing = self.closing.subscribe();
                    let reviewing = id.clone();
                    let worked = tokio::task::spawn_blocking(move || {
                        let game = (&reviewing, &replay);
                        review_and_keep(store.as_ref(), game, advisor, closing, &progress)
                    })
                    .await;
                    drop(turn);
                    match worked {
                        Ok(kept) => kept.map_err(ApiError::Store),
                        Err(error) => Err(ApiError::Internal(format!(
                            "the review of game {id} stopped: {error}"
                        ))),
                    }
                }
                Ok(None) => Ok(()),
                Err(error) => Err(error),
            };
            self.reviews.finish(&id, outcome);
        });
    }

    /// Runs `request` on the table's game where `thinking` says, in the table's `turn`
    /// (held until the store has answered); then, once the store keeps what the request
    /// wrote, shows the new view to everyone and answers it. If the store refused, the
    /// table is forgotten (the next request reads the game back, without this change)
    /// and the answer is a 503.
    async fn run<T: Send + 'static>(
        &self,
        table: &Arc<Table>,
        turn: OwnedMutexGuard<()>,
        request: impl FnOnce(&mut Play) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<(T, Arc<GameJson>), ApiError> {
        let geometry = table.setup().geometry();
        let worker = Arc::clone(table);
        let commit = Arc::clone(&self.commit);
        let Done {
            answer,
            view,
            ticket,
        } = self
            .thinking
            .run(geometry, move || worker.request(&commit, request))
            .await?;
        let Some(ticket) = ticket else {
            table.publish(Arc::clone(&view));
            return Ok((answer?, view));
        };
        // On a task of its own, so that the change is shown (or the table forgotten)
        // even if the client stops waiting; the turn passes on only after that.
        let games = self.this();
        let settled = Arc::clone(table);
        let shown = Arc::clone(&view);
        let written = tokio::spawn(async move {
            let written = ticket.written().await;
            if written.is_ok() {
                settled.publish(shown);
            } else {
                settled.make_stale();
                games.registry.remove(&settled);
            }
            drop(turn);
            written
        })
        .await
        .map_err(|error| ApiError::Internal(format!("a wait for the store stopped: {error}")))?;
        written.map_err(ApiError::Store)?;
        Ok((answer?, view))
    }

    /// One try at [`GameService::rematch`].
    async fn rematch_once(
        &self,
        id: &str,
        key: &Credentials,
    ) -> Result<(CreatedJson, bool), ApiError> {
        let (table, turn) = self.turn(id).await?;
        let caller = if table.setup().is_show() {
            None
        } else {
            Some(seat_in(&table, key)?)
        };
        if !table.view().is_over() {
            return Err(ApiError::Conflict(
                "the game is still being played: a rematch comes after the end",
            ));
        }
        let mut tokens = [None, None];
        if let (Some(mark), Credentials::Token(token)) = (caller, key) {
            tokens[mark.opponent().index()] = Some(token.clone());
        }
        if let Some(next) = table.rematch() {
            drop(turn);
            let next = self.table(next.as_str()).await?;
            return Ok((created(&next, &tokens), false));
        }
        let locks = [Mark::O, Mark::X].map(|mark| table.lock_of(mark).cloned());
        let next = self.open(table.setup().swapped(), locks, Some(table.id().clone()));
        if let Err(error) = self.begin(&next).await {
            // The store may know a rematch this table does not: read it back.
            table.make_stale();
            self.registry.remove(&table);
            return Err(error);
        }
        table.set_rematch(next.id().clone());
        drop(turn);
        Ok((created(&next, &tokens), true))
    }
}

/// One request's place among those reading a game back: the first in holds the gate,
/// the others wait for it; the last out takes the gate away.
struct Loading<'a> {
    loading: &'a Mutex<HashMap<GameId, Arc<Gate<()>>>>,
    id: GameId,
    gate: Arc<Gate<()>>,
}

impl<'a> Loading<'a> {
    fn enter(loading: &'a Mutex<HashMap<GameId, Arc<Gate<()>>>>, id: &GameId) -> Self {
        let gate = Arc::clone(lock(loading).entry(id.clone()).or_default());
        Loading {
            loading,
            id: id.clone(),
            gate,
        }
    }
}

impl Drop for Loading<'_> {
    fn drop(&mut self) {
        let mut loading = lock(self.loading);
        // Gates are cloned only under this lock: two owners are the map and this one.
        if loading
            .get(&self.id)
            .is_some_and(|gate| Arc::ptr_eq(gate, &self.gate) && Arc::strong_count(gate) == 2)
        {
            loading.remove(&self.id);
        }
    }
}

impl GameService for Games {
    fn body_limit(&self) -> usize {
        self.limits.body_bytes
    }

    fn body_deadline(&self) -> Duration {
        self.limits.body_deadline
    }

    /// `POST /api/games`: a new game, with a fresh token for each person's seat,
    /// answered once the store keeps it.
    async fn create(&self, request: NewGame) -> Result<CreatedJson, ApiError> {
        let setup = Setup::from_request(request)?;
        let tokens = [Mark::X, Mark::O].map(|mark| setup.is_human(mark).then(Token::random));
        let locks = tokens
            .each_ref()
            .map(|token| token.as_ref().map(Token::lock));
        let table = self.open(setup, locks, None);
        self.begin(&table).await?;
        Ok(created(&table, &tokens))
    }

    /// `GET /api/games/{id}`.
    async fn game(&self, id: &str, key: Credentials) -> Result<Arc<GameJson>, ApiError> {
        let table = self.table(id).await?;
        if let Ok(seat) = seat_in(&table, &key) {
            table.join(seat);
        }
        Ok(table.view())
    }

    /// The game's views as they change, until the game is forgotten from memory (the
    /// client then asks again, and the game is read back) or the server stops, and the
    /// stream's place under the cap, to hold while it lasts.
    async fn watch(&self, id: &str, client: Client) -> Result<Watching, ApiError> {
        let table = self.table(id).await?;
        let share = self
            .stream_shares
            .take(client)
            .ok_or(ApiError::StreamShare {
                most: self.limits.streams_per_client,
                retry_after: self.limits.retry_after,
            })?;
        let place =
            Arc::clone(&self.streams)
                .try_acquire_owned()
                .map_err(|_| ApiError::Streaming {
                    retry_after: self.limits.retry_after,
                })?;
        Ok(Watching {
            game: table.watch(),
            closing: self.closing.subscribe(),
            place: (place, share),
        })
    }

    /// `POST /api/games/{id}/moves`: the seat's move, then the computer's reply if due.
    async fn play(&self, id: &str, key: Credentials, cell: u64) -> Result<Arc<GameJson>, ApiError> {
        self.as_seat(id, key, move |game, seat| {
            let position = cell_on(game.game().board().geometry(), cell)?;
            game.play(seat, position)?;
            computer_reply(game)
        })
        .await
    }

    /// `POST /api/games/{id}/undo`.
    async fn undo(&self, id: &str, key: Credentials) -> Result<Arc<GameJson>, ApiError> {
        self.as_seat(id, key, |game, seat| {
            game.undo(seat)?;
            Ok(())
        })
        .await
    }

    /// `POST /api/games/{id}/resign`: the game ends as the seat's loss, counted once
    /// the store has it.
    async fn resign(&self, id: &str, key: Credentials) -> Result<Arc<GameJson>, ApiError> {
        self.as_seat(id, key, |game, seat| {
            game.resign(seat)?;
            Ok(())
        })
        .await
    }

    /// `POST /api/games/{id}/hint`: the best cells for the seat, whose turn it is.
    async fn hint(&self, id: &str, key: Credentials) -> Result<HintJson, ApiError> {
        let (table, seat, turn) = self.seat(id, &key).await?;
        let (hint, _) = self
            .run(&table, turn, move |play| {
                play.game
                    .hint(seat)
                    .map(|analysis| HintJson::from(&analysis))
                    .map_err(ApiError::from)
            })
            .await?;
        Ok(hint)
    }

    /// `POST /api/games/{id}/rematch`: the same game with sides swapped; each person
    /// keeps their token, which now opens the other mark's seat. Asked twice, it
    /// answers the same rematch (`false`: not new). A computer-vs-computer game needs no
    /// token.
    ///
    /// When servers share the store, two asking at once on two servers race: the store
    /// keeps one rematch, and the other server, told so, reads the game again and
    /// answers that one.
    async fn rematch(&self, id: &str, key: Credentials) -> Result<(CreatedJson, bool), ApiError> {
        let mut tries = 0;
        loop {
            tries += 1;
            match self.rematch_once(id, &key).await {
                Err(ApiError::Store(StoreError::Conflict { .. }))
                    if tries < TRIES && self.pacing.is_some() => {}
                answer => return answer,
            }
        }
    }

    /// `GET /api/scores`: the first `top` rows of the scoreboard as the store has it.
    async fn scores(&self, top: u64) -> Result<Scoreboard, ApiError> {
        let store = Arc::clone(&self.store);
        self.thinking
            .on_disk(move || store.scoreboard(Some(top)))
            .await?
            .map_err(ApiError::Store)
    }

    /// `GET /api/games`: the ended games `query` asks for, newest first, as the store
    /// has them. A cursor naming no kept game is the client's mistake (400).
    async fn history(&self, query: HistoryQuery) -> Result<HistoryPage, ApiError> {
        let store = Arc::clone(&self.store);
        self.thinking
            .on_disk(move || store.history(&query))
            .await?
            .map_err(|error| match error {
                StoreError::NoSuchGame(id) => ApiError::NoSuchCursor(id),
                error => ApiError::Store(error),
            })
    }

    /// `GET /api/games/{id}/review`: the review kept, or how far its computation has
    /// come (started by this request if none is under way). Only an ended game is
    /// reviewed (409 otherwise); an unknown one is a 404.
    async fn review(&self, id: &str) -> Result<Reviewing, ApiError> {
        let id = GameId::parse(id).map_err(|_| ApiError::NoSuchGame)?;
        if let Some(standing) = self.reviews.under_way(&id) {
            return standing;
        }
        let store = Arc::clone(&self.store);
        let game = id.clone();
        let (kept_review, kept_game) = self
            .thinking
            .on_disk(move || -> Result<_, StoreError> {
                match store.review(&game)? {
                    Some(review) => Ok((Some(review), None)),
                    None => Ok((None, store.game(&game)?)),
                }
            })
            .await?
            .map_err(ApiError::Store)?;
        if let Some(review) = kept_review {
            return Ok(Reviewing::Done { game: id, review });
        }
        let kept = kept_game.ok_or(ApiError::NoSuchGame)?;
        if kept.ending.is_none() {
            return Err(ApiError::Conflict(
                "the game is still being played: it is reviewed once it has ended",
            ));
        }
        let replay = Replay::of(&kept).map_err(|error| {
            ApiError::Internal(format!("game {id} as kept cannot be replayed: {error}"))
        })?;
        let total = replay.moves().len();
        match self.reviews.enter(&id, total)? {
            Entered::UnderWay(standing) => Ok(standing),
            Entered::Started(progress) => {
                self.this().spawn_review(id.clone(), replay, progress);
                Ok(Reviewing::Computing { done: 0, total })
            }
        }
    }

    /// `GET /api/players/{name}`: the player's results by opponent and newest games,
    /// under the name as their newest game has it.
    async fn player(&self, name: PlayerName) -> Result<PlayerPage, ApiError> {
        let limit = PageSize::new(RECENT_GAMES)
            .map_err(|error| ApiError::Internal(format!("a player's page: {error}")))?;
        let store = Arc::clone(&self.store);
        self.thinking
            .on_disk(move || -> Result<PlayerPage, StoreError> {
                let opponents = store.opponents(&name, OPPONENTS_SHOWN)?;
                let recent = store
                    .history(&HistoryQuery {
                        player: Some(name.clone()),
                        before: None,
                        limit,
                    })?
                    .games;
                let name = recent
                    .first()
                    .and_then(|newest| kept_spelling(&name, newest))
                    .unwrap_or(name);
                Ok(PlayerPage {
                    name,
                    opponents,
                    recent,
                })
            })
            .await?
            .map_err(ApiError::Store)
    }
}

/// The ended games a player's page lists.
const RECENT_GAMES: u64 = 20;

/// The opponents a player's page lists by name (the most played; the rest counted).
const OPPONENTS_SHOWN: u32 = 50;

/// The name `name` is kept under in `summary`'s game, if they played it.
fn kept_spelling(
    name: &PlayerName,
    game: &tictactoe_core::ports::GameSummary,
) -> Option<PlayerName> {
    let key = name.key();
    names_of(&game.settings)
        .into_iter()
        .find(|kept| kept.key() == key)
}

/// `news` by game, in the order each game first appears, each game's in order.
fn by_game(news: Vec<News>) -> Vec<(GameId, Vec<News>)> {
    let mut games: Vec<(GameId, Vec<News>)> = Vec::new();
    for item in news {
        match games.iter_mut().find(|(game, _)| game == item.game()) {
            Some((_, items)) => items.push(item),
            None => games.push((item.game().clone(), vec![item])),
        }
    }
    games
}

/// The seat `key` opens in `table`.
fn seat_in(table: &Table, key: &Credentials) -> Result<Mark, ApiError> {
    match key {
        Credentials::Missing => Err(ApiError::NoToken),
        Credentials::Malformed => Err(ApiError::WrongToken),
        Credentials::Token(token) => table.seat_of(token).ok_or(ApiError::WrongToken),
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

/// If a computer's turn has come, it moves.
fn computer_reply(game: &mut WebMatch) -> Result<(), ApiError> {
    game.advance()
        .map(drop)
        .map_err(|error| ApiError::Internal(error.to_string()))
}

/// The answer to a new game: the game, and for each seat whose token is in `tokens`
/// (the caller's), the token and the link.
fn created(table: &Table, tokens: &[Option<Token>; 2]) -> CreatedJson {
    let id = table.id();
    let seats: BTreeMap<_, _> = Mark::ALL
        .into_iter()
        .filter_map(|mark| {
            let token = tokens[mark.index()].as_ref()?.to_hex();
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
