//! Memory as a cache of the store: a game held, or read back from the store when asked
//! for (by one request at a time: others asking for the same game wait for it), and a
//! new game's table, whose beginning is its first write.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime};

use tokio::sync::Mutex as Gate;

use tictactoe_core::ports::{self, GameId, SeatHolder, StoredGame};

use super::super::cut::Stoppable;
use super::super::port::GameError;
use super::super::setup::Setup;
use super::super::table::{Outbox, Table, Turn};
use super::super::token::new_game_id;
use super::Games;
use super::requests::computer_reply;
use tictactoe_core::sync::lock;

impl Games {
    /// Game `id` as the store keeps it.
    pub(super) async fn kept_game(&self, id: &GameId) -> Result<StoredGame, GameError> {
        let id = id.clone();
        self.0
            .store
            .read(move |store| store.game(&id))
            .await?
            .ok_or(GameError::NoSuchGame)
    }

    /// The game `id`, held or read back from the store.
    pub(super) async fn table(&self, id: &GameId) -> Result<Arc<Table>, GameError> {
        if let Some(table) = self.0.registry.get(id.as_str()) {
            return Ok(table);
        }
        let loading = Loading::enter(&self.0.loading, id);
        let _only_me = loading.gate.lock().await;
        match self.0.registry.get(id.as_str()) {
            Some(table) => Ok(table),
            None => self.load(id).await,
        }
    }

    /// The game and its turn. A table forgotten while this request waited for its turn
    /// (the store refused its write, or memory needed the room) is read back again, so
    /// that a game is played on one table only. The turn is waited for no longer than
    /// the store's deadline: a request holding it waits for the store.
    pub(super) async fn turn(&self, id: &GameId) -> Result<(Arc<Table>, Turn), GameError> {
        let deadline = self.0.store.deadline();
        for _ in 0..3 {
            let table = self.table(id).await?;
            let turn = tokio::time::timeout(deadline, table.turn())
                .await
                .map_err(|_| GameError::StoreSlow(deadline))?;
            if self.0.registry.holds(&table) {
                return Ok((table, turn));
            }
        }
        Err(GameError::Unsettled)
    }

    /// Reads game `id` back from the store, and holds it (see [`Games::begin`]).
    async fn load(&self, id: &GameId) -> Result<Arc<Table>, GameError> {
        self.store_usable()?;
        // The writes handed over before now are kept first: a table forgotten with a
        // move on its way to the store is read back with that move.
        let deadline = self.0.store.deadline();
        let settled = self.0.commit.submit(Vec::new()).written();
        let _ = tokio::time::timeout(deadline, settled).await;
        let kept = self.kept_game(id).await?;
        let table = Arc::new(self.rebuild(kept)?);
        self.begin(&table).await?;
        Ok(table)
    }

    /// The table of a kept game: its setup, its steps played again, locks for tokens,
    /// its rematch.
    pub(super) fn rebuild(&self, kept: StoredGame) -> Result<Table, GameError> {
        let setup = Setup::of_kept(&kept);
        let id = kept.game.id.clone();
        let hints_stop = Arc::new(AtomicBool::new(false));
        let resumed = {
            let mut computers = lock(&self.0.computers);
            setup.resume(
                &mut Stoppable {
                    computers: computers.as_mut(),
                    stop: Arc::clone(&hints_stop),
                },
                Outbox::resume(id.clone()),
                &kept.steps,
                kept.ending,
            )
        };
        let (game, _) = resumed.map_err(|error| {
            GameError::Broken(format!("game {id} as kept cannot be played on: {error}"))
        })?;
        // Marked casual as kept: whether the game rates anybody also depends on whose
        // its seats are, which may change (an invite taken), and the view says so.
        let game = game.casual(kept.game.casual);
        let table = Table::new(id, setup, kept.game.seats, game, kept.rematch, kept.clock);
        Ok(table.hints_stopping_on(hints_stop))
    }

    /// A new game's table: its beginning is its first write (see [`Games::begin`]). A
    /// `casual` one rates nobody, whoever plays it.
    pub(super) fn open(
        &self,
        setup: Setup,
        seats: [SeatHolder; 2],
        follows: Option<GameId>,
        casual: bool,
    ) -> Arc<Table> {
        let id = new_game_id();
        let kept = setup.begin(
            id.clone(),
            seats.clone(),
            follows,
            self.0.limits.first_move_within,
            SystemTime::now(),
        );
        let kept = ports::NewGame { casual, ..kept };
        let clock = kept.clock;
        let hints_stop = Arc::new(AtomicBool::new(false));
        let game = {
            let mut computers = lock(&self.0.computers);
            let mut computers = Stoppable {
                computers: computers.as_mut(),
                stop: Arc::clone(&hints_stop),
            };
            setup.start(&mut computers, Outbox::begin(kept))
        };
        let game = game.casual(casual);
        let table = Table::new(id, setup, seats, game, None, clock);
        Arc::new(table.hints_stopping_on(hints_stop))
    }

    /// Starts a table, new or read back: keeps what it has to keep (a new game's
    /// beginning, an ending the store lacked) with the computer's move if it is a
    /// computer's turn, then holds it; a computer-vs-computer game is then played by
    /// the server, one paced move at a time.
    pub(super) async fn begin(&self, table: &Arc<Table>) -> Result<(), GameError> {
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
        self.0.registry.insert(Arc::clone(table), Instant::now());
        if show && !table.view().is_over() {
            self.spawn_show(Arc::clone(table));
        }
        Ok(())
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
