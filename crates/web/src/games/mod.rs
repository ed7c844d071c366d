//! The server's games: the use cases behind the port ([`GameService`]), free of HTTP.
//! Find the game (held in memory, or read back from the store), check the seat, run the
//! request on the match where `thinking` says, wait until the store keeps what it
//! changed, answer with the new view. `api` turns HTTP into calls here; no rule of the
//! game is decided in either.
//!
//! Memory is a cache of the store, never ahead of it: a change is shown (to the player,
//! and to spectators) only once the store has kept it, and a table whose write the
//! store refused (or did not answer in time) is forgotten, so the next request reads the
//! game back as the store has it.
//!
//! The folder, by job:
//! * `limits`: the bounds the games keep to;
//! * `cache`: a game found in memory or read back from the store, and a new game's
//!   table;
//! * `requests`: a seat's request run on its game, kept, and answered (and run again
//!   when another server changed the game first);
//! * `nobodys_names`: the names lately found to be no account's, which guests may
//!   take without asking the store again;
//! * `queries`: what is read from the store alone (the scoreboard, the history, a
//!   player's page);
//! * `following`: what other servers sharing the store keep, taken in;
//! * `clocks`: games on a clock ended on time, held here or found overdue in the store;
//! * `lobby`: seeks in the lobby and the pool, becoming games; TV;
//! * `shows`: computer-against-computer games, played a paced move at a time;
//! * `training`: a player's open puzzles, and an answer judged and kept;
//! * the reviews of ended games are `reviews`' (one folder up).

mod cache;
mod clocks;
mod following;
mod limits;
mod lobby;
mod nobodys_names;
mod queries;
mod requests;
mod reviews;
mod shows;
mod training;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::{Mutex as Gate, watch};

use tictactoe_core::domain::{Geometry, Mark, PlayerName, Scoreboard};
use tictactoe_core::play::BoardRatings;
use tictactoe_core::players::ComputerFactory;
use tictactoe_core::ports::{
    Archive, Following, GameId, HistoryPage, HistoryQuery, IdPrefix, Pacing, RatingChange, Seek,
    SeekId, Shared, StoreError,
};

use super::budget::{Budgets, Kind, Payer, Spending};
use super::caller::Caller;
use super::group_commit::{CommitCounts, GroupCommit};
use super::health::{CHECK_EVERY, Health};
use super::port::{
    Answer, Created, GameError, GameService, Hint, LobbyService, Looked, Opened, PlayerPage,
    PuzzleAnswer, PuzzleAsked, Rematch, Reviewing, SeekAsked, SeekLooked, Training, Watching,
};
use super::registry::Registry;
use super::setup::Setup;
use super::store_lane::StoreLane;
use super::thinking::Thinking;
use super::token::Token;
use super::view::GameView;
use tictactoe_core::sync::lock;

/// The engine's tables for a board shape nobody has thought about for this long are
/// forgotten (their memory given back; the next game of that shape starts cold).
pub const TABLES_IDLE: Duration = Duration::from_secs(20);

/// How often the tables are looked at for that.
const TABLES_CHECKED_EVERY: Duration = Duration::from_secs(5);

use super::table::WebMatch;
pub use limits::GameLimits;
pub(crate) use nobodys_names::NobodysNames;
use requests::Acting::{LastMover, ToMove};
use reviews::Reviews;

/// Every game the server holds, and what they share: a cheap handle (clones share
/// one set of games).
#[derive(Clone)]
pub struct Games(Arc<Inner>);

struct Inner {
    registry: Registry,
    /// The games being read back from the store, each by one request; others asking
    /// for the same game wait for it, so a game is never held twice.
    loading: Mutex<HashMap<GameId, Arc<Gate<()>>>>,
    thinking: Thinking,
    budgets: Arc<Budgets>,
    computers: Mutex<Box<dyn ComputerFactory + Send>>,
    /// The store, reached only through its lanes (shared with the accounts); its writes
    /// through `commit`.
    store: Arc<StoreLane>,
    commit: GroupCommit,
    /// Names lately found to be no account's (shared with the accounts, whose sign-ups
    /// forget them).
    nobodys_names: Arc<NobodysNames>,
    reviews: Reviews,
    limits: GameLimits,
    closing: watch::Sender<bool>,
    /// While set, news of what the other servers keep reaches [`Games::hear`].
    following: Mutex<Option<Following>>,
    /// The deadlines of the games held on a clock.
    deadlines: clocks::Deadlines,
    /// The lobby as last read from the store, for its streams.
    lobby: watch::Sender<Arc<Vec<Seek>>>,
}

impl Games {
    /// The server's games, kept in `store` (written through a group commit of its own,
    /// on a thread of its own), played by computers from `computers`, within `limits`.
    /// The same store answers the history of ended games and keeps their reviews.
    pub fn new(
        store: Arc<dyn Archive>,
        computers: Box<dyn ComputerFactory + Send>,
        limits: GameLimits,
    ) -> Self {
        Games::build(store, None, computers, limits)
    }

    /// The games of one of several servers sharing `store`: as [`Games::new`], and
    /// `shared` tells this server what the others keep (so that what it holds in
    /// memory, and shows its spectators, follows their changes) and which
    /// computer-against-computer games it plays. The store decides every race
    /// ([`GameStore::write_new`](tictactoe_core::ports::GameStore::write_new)).
    ///
    /// Call it before the async runtime starts, or on a blocking thread: following the
    /// news starts with a call to the store.
    pub fn shared(
        store: Arc<dyn Archive>,
        shared: Arc<dyn Shared>,
        computers: Box<dyn ComputerFactory + Send>,
        limits: GameLimits,
    ) -> Result<Self, StoreError> {
        let games = Games::build(store, Some(Arc::clone(&shared) as _), computers, limits);
        let listener = Arc::downgrade(&games.0);
        let following = shared.follow(Box::new(move |heard| {
            if let Some(games) = listener.upgrade() {
                Games(games).hear(heard);
            }
        }))?;
        *lock(&games.0.following) = Some(following);
        Ok(games)
    }

    fn build(
        store: Arc<dyn Archive>,
        pacing: Option<Arc<dyn Pacing>>,
        computers: Box<dyn ComputerFactory + Send>,
        limits: GameLimits,
    ) -> Self {
        let store = StoreLane::new(
            store,
            pacing,
            limits.store_threads,
            limits.store_deadline,
            Health::new(),
        );
        Games(Arc::new(Inner {
            registry: Registry::new(
                limits.max_games,
                limits.idle,
                limits.finished,
                limits.finished_grace,
            ),
            loading: Mutex::new(HashMap::new()),
            thinking: Thinking::new(limits.heavy_threads, limits.advice_threads),
            budgets: Budgets::new(limits.budget),
            computers: Mutex::new(computers),
            commit: store.group_commit(),
            store: Arc::new(store),
            nobodys_names: Arc::default(),
            reviews: Reviews::new(limits.review_threads, limits.max_reviews),
            limits,
            closing: watch::Sender::new(false),
            following: Mutex::new(None),
            deadlines: clocks::Deadlines::default(),
            lobby: watch::Sender::new(Arc::new(Vec::new())),
        }))
    }

    pub fn limits(&self) -> &GameLimits {
        &self.0.limits
    }

    /// The server's health: its store's, and whether it is draining.
    pub fn health(&self) -> Health {
        self.0.store.health().clone()
    }

    /// The store's lanes, for the accounts kept in the same store.
    pub(crate) fn store_lane(&self) -> Arc<StoreLane> {
        Arc::clone(&self.0.store)
    }

    /// The names lately found to be no account's, for the accounts: a sign-up forgets
    /// them.
    pub(crate) fn nobodys_names(&self) -> Arc<NobodysNames> {
        Arc::clone(&self.0.nobodys_names)
    }

    /// How many games are held in memory now.
    pub fn held(&self) -> usize {
        self.0.registry.len()
    }

    /// What the store's writer has done so far: batches, and the requests and writes
    /// they carried.
    pub fn commits(&self) -> CommitCounts {
        self.0.commit.counts()
    }

    /// Forgets the games expired at `now` from memory: what the sweeper does, for tests.
    pub fn sweep(&self, now: Instant) -> usize {
        self.0.registry.sweep(now)
    }

    /// Stops every event stream and computer-vs-computer game, and stops following the
    /// other servers: the server is stopping. Requests in flight still finish.
    pub fn close(&self) {
        self.0.closing.send_replace(true);
        drop(lock(&self.0.following).take());
    }

    /// Closes (see [`Games::close`]), then waits until the store's writer has kept
    /// everything handed to it, and stops it.
    pub async fn shutdown(&self) {
        self.close();
        let games = self.clone();
        if tokio::task::spawn_blocking(move || games.0.commit.close())
            .await
            .is_err()
        {
            tracing::error!("the store's writer could not be stopped cleanly");
        }
    }

    /// Until the server stops: forgets expired games (every quarter of the shorter of
    /// its expiry times, within 1 s to 60 s), checks the store (see `health`), gives
    /// back the memory of the engine's tables nobody has used for `TABLES_IDLE` (20 s),
    /// ends games on time (`clocks`), and, when servers share the store, takes over the
    /// shows whose server stopped.
    pub fn spawn_housekeeping(&self) {
        let limits = &self.0.limits;
        let every = (limits.finished.min(limits.idle) / 4)
            .clamp(Duration::from_secs(1), Duration::from_secs(60));
        let games = self.clone();
        self.until_closing(every, move || {
            let games = games.clone();
            async move {
                games.0.registry.sweep(Instant::now());
            }
        });
        let games = self.clone();
        self.until_closing(CHECK_EVERY, move || {
            let games = games.clone();
            async move {
                games.0.store.check().await;
                metrics::gauge!("tictactoe_games_in_memory").set(games.held() as f64);
            }
        });
        let games = self.clone();
        self.until_closing(TABLES_CHECKED_EVERY, move || {
            let games = games.clone();
            async move {
                let mut computers = lock(&games.0.computers);
                computers.forget_idle(TABLES_IDLE);
                metrics::gauge!("tictactoe_engine_memory_bytes")
                    .set(computers.memory_in_use() as f64);
            }
        });
        self.spawn_clocks();
        self.spawn_lobby();
        if self.0.store.is_shared() {
            self.spawn_takeover();
        }
    }

    /// Runs `work` every `every`, until the server stops.
    fn until_closing<F: Future<Output = ()> + Send + 'static>(
        &self,
        every: Duration,
        work: impl Fn() -> F + Send + 'static,
    ) {
        let mut closing = self.0.closing.subscribe();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    () = tokio::time::sleep(every) => {}
                    _ = closing.wait_for(|closed| *closed) => break,
                }
                work().await;
            }
        });
    }

    /// Lets a costly request of `payer`'s in, or refuses it for their share of the
    /// computer's thinking (see `budget`).
    fn admit(&self, payer: Payer, kind: Kind) -> Result<Spending, GameError> {
        self.0
            .budgets
            .admit(&payer, kind, Instant::now())
            .map_err(GameError::OverBudget)
    }

    /// A request that needs the store is refused at once while the store is down.
    fn store_usable(&self) -> Result<(), GameError> {
        match self.0.store.health().store_down() {
            Some(why) => Err(GameError::StoreDown(why)),
            None => Ok(()),
        }
    }
}

/// Each use case as a future that owns what it needs (a clone of the handle).
impl Games {
    /// The port's answer: `call` run on a handle of these games that its future owns
    /// (the port's futures borrow nothing).
    fn answer<T, F>(&self, call: impl FnOnce(Games) -> F) -> Answer<T>
    where
        F: Future<Output = Result<T, GameError>> + Send + 'static,
    {
        Box::pin(call(self.clone()))
    }
}

impl LobbyService for Games {
    fn open_seek(&self, asked: SeekAsked, caller: Caller) -> Answer<Opened> {
        self.answer(|games| async move { games.open_seek(asked, caller).await })
    }

    fn lobby(&self) -> Answer<Vec<Seek>> {
        self.answer(|games| async move { games.lobby().await })
    }

    fn lobby_changes(&self) -> Answer<watch::Receiver<Arc<Vec<Seek>>>> {
        self.answer(|games| async move { Ok(games.lobby_changes()) })
    }

    fn seek(&self, id: SeekId, caller: Caller) -> Answer<SeekLooked> {
        self.answer(|games| async move { games.seek(id, caller).await })
    }

    fn cancel_seek(&self, id: SeekId, caller: Caller) -> Answer<()> {
        self.answer(|games| async move { games.cancel_seek(id, caller).await })
    }

    fn accept_seek(&self, id: SeekId, caller: Caller) -> Answer<Created> {
        self.answer(|games| async move { games.accept_seek(id, caller).await })
    }

    fn tv(&self) -> Answer<Option<GameId>> {
        self.answer(|games| async move { games.tv().await })
    }

    fn block(&self, account: PlayerName, whom: PlayerName) -> Answer<bool> {
        self.answer(|games| async move { games.block(account, whom).await })
    }

    fn unblock(&self, account: PlayerName, whom: PlayerName) -> Answer<bool> {
        self.answer(|games| async move { games.unblock(account, whom).await })
    }

    fn blocked(&self, account: PlayerName) -> Answer<Vec<PlayerName>> {
        self.answer(|games| async move { games.blocked(account).await })
    }
}

impl GameService for Games {
    fn create(&self, setup: Setup, caller: Caller, invite: Option<Mark>) -> Answer<Created> {
        self.answer(|games| async move { games.create(setup, caller, invite).await })
    }

    fn game(&self, id: GameId, caller: Caller) -> Answer<Looked> {
        self.answer(|games| async move { games.look(&id, &caller).await })
    }

    fn join(&self, id: GameId, caller: Caller, code: Token) -> Answer<Created> {
        self.answer(|games| async move { games.join(&id, caller, code).await })
    }

    fn play(&self, id: GameId, caller: Caller, cell: u64) -> Answer<Arc<GameView>> {
        self.answer(|games| async move { games.play(&id, caller, cell).await })
    }

    fn undo(&self, id: GameId, caller: Caller) -> Answer<Arc<GameView>> {
        let undo = |game: &mut WebMatch, seat| game.undo(seat);
        self.answer(|games| async move { games.as_seat(&id, caller, LastMover, undo).await })
    }

    /// The game ends as the seat's loss, counted once the store has it.
    fn resign(&self, id: GameId, caller: Caller) -> Answer<Arc<GameView>> {
        let resign = |game: &mut WebMatch, seat| game.resign(seat);
        self.answer(|games| async move { games.as_seat(&id, caller, ToMove, resign).await })
    }

    fn rename(&self, id: GameId, caller: Caller, name: PlayerName) -> Answer<Arc<GameView>> {
        self.answer(|games| async move { games.rename(&id, caller, name).await })
    }

    fn hint(&self, id: GameId, caller: Caller) -> Answer<Hint> {
        self.answer(|games| async move { games.hint(&id, &caller).await })
    }

    fn rematch(&self, id: GameId, caller: Caller) -> Answer<Rematch> {
        self.answer(|games| async move { games.rematch(&id, &caller).await })
    }

    fn watch(&self, id: GameId) -> Answer<Watching> {
        self.answer(|games| async move { games.watch(&id).await })
    }

    fn scores(&self, top: u64) -> Answer<Scoreboard> {
        self.answer(|games| async move { games.scores(top).await })
    }

    fn history(&self, query: HistoryQuery) -> Answer<HistoryPage> {
        self.answer(|games| async move { games.history(query).await })
    }

    fn review(&self, id: GameId, payer: Payer) -> Answer<Reviewing> {
        self.answer(|games| async move { games.review(id, payer).await })
    }

    fn games_starting(&self, prefix: IdPrefix) -> Answer<Vec<GameId>> {
        self.answer(|games| async move { games.games_starting(prefix).await })
    }

    fn rating_changes(&self, id: GameId) -> Answer<Vec<RatingChange>> {
        self.answer(|games| async move { games.rating_changes(id).await })
    }

    fn player(&self, name: PlayerName) -> Answer<PlayerPage> {
        self.answer(|games| async move { games.player(name).await })
    }

    fn ratings(&self, board: Geometry, top: u32) -> Answer<BoardRatings> {
        self.answer(|games| async move { games.ratings(board, top).await })
    }

    fn puzzles(&self, name: PlayerName, board: Option<Geometry>) -> Answer<Training> {
        self.answer(|games| async move { games.puzzles(name, board).await })
    }

    fn answer_puzzle(&self, asked: PuzzleAsked, cell: u64, payer: Payer) -> Answer<PuzzleAnswer> {
        self.answer(|games| async move { games.answer_puzzle(asked, cell, payer).await })
    }
}
