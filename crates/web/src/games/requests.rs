//! A seat's request, from the port to the store and back: find the game and its turn,
//! check the seat, run the request on the match where `thinking` says, hand its writes
//! to the group commit, and answer once they are kept (publishing the new view to
//! everyone at the same moment).
//!
//! When servers share the store, the table held here may be behind it: a write the
//! store refused because another server kept that step first, or a refusal by the
//! match that the store's game would not make, means the game is read again and the
//! request run on it once more. A second server that loses a race is so answered as
//! if both requests had come to one server, one after the other.

use std::sync::Arc;

use tokio::sync::OwnedMutexGuard;

use tictactoe_core::domain::{Analysis, GameState, Geometry, Mark, PlayerName, Position};
use tictactoe_core::ports::{GameId, SeatHolder, StoreError};

use super::super::port::{AfterTheEnd, Created, GameError, Rematch, SeatKey, Watching};
use super::super::setup::Setup;
use super::super::table::{Done, Play, Table, WebMatch};
use super::super::token::Token;
use super::super::view::GameView;
use super::Games;
use super::cache::seat_in;

/// A request tried this many times when it found the game changed by another server.
const TRIES: usize = 3;

impl Games {
    /// A new game, with a fresh token for each person's seat, answered once the store
    /// keeps it.
    pub(super) async fn create(&self, setup: Setup) -> Result<Created, GameError> {
        self.store_usable()?;
        let tokens = [Mark::X, Mark::O].map(|mark| setup.is_human(mark).then(Token::random));
        let seats = tokens.each_ref().map(|token| {
            token
                .as_ref()
                .map_or(SeatHolder::Local, |token| SeatHolder::Guest(token.lock()))
        });
        let table = self.open(setup, seats, None);
        self.begin(&table).await?;
        Ok(Created {
            game: table.view(),
            tokens,
        })
    }

    /// The game as it stands; the seat `key` opens, if any, has joined.
    pub(super) async fn look(
        &self,
        id: &GameId,
        key: &SeatKey,
    ) -> Result<Arc<GameView>, GameError> {
        let table = self.table(id).await?;
        if let Ok(seat) = seat_in(&table, key) {
            table.join(seat);
        }
        Ok(table.view())
    }

    /// The game's views as they change, until the game is forgotten from memory (the
    /// client then asks again, and the game is read back) or the server stops.
    pub(super) async fn watch(&self, id: &GameId) -> Result<Watching, GameError> {
        let table = self.table(id).await?;
        Ok(Watching {
            game: table.watch(),
            closing: self.0.closing.subscribe(),
        })
    }

    /// The seat's move, then the computer's reply if due.
    pub(super) async fn play(
        &self,
        id: &GameId,
        key: SeatKey,
        cell: u64,
    ) -> Result<Arc<GameView>, GameError> {
        self.as_seat(id, key, move |game, seat| {
            let position = cell_on(game.game().board().geometry(), cell)?;
            game.play(seat, position)?;
            computer_reply(game)
        })
        .await
    }

    pub(super) async fn undo(&self, id: &GameId, key: SeatKey) -> Result<Arc<GameView>, GameError> {
        self.as_seat(id, key, |game, seat| game.undo(seat)).await
    }

    /// The game ends as the seat's loss, counted once the store has it.
    pub(super) async fn resign(
        &self,
        id: &GameId,
        key: SeatKey,
    ) -> Result<Arc<GameView>, GameError> {
        self.as_seat(id, key, |game, seat| game.resign(seat)).await
    }

    /// The seat's person plays under `name` from now on (the match says whether they
    /// may: until their first move), shown to everyone once the store keeps it.
    pub(super) async fn rename(
        &self,
        id: &GameId,
        key: SeatKey,
        name: PlayerName,
    ) -> Result<Arc<GameView>, GameError> {
        self.as_seat(id, key, move |game, seat| game.rename(seat, name.clone()))
            .await
    }

    /// What perfect play makes of the position, for the seat whose turn it is. A hint
    /// makes a rated game casual: kept before the hint is answered.
    pub(super) async fn hint(&self, id: &GameId, key: &SeatKey) -> Result<Analysis, GameError> {
        let (table, seat, turn) = self.seat(id, key).await?;
        let (hint, _) = self
            .run(&table, turn, move |play| {
                play.game
                    .hint(seat)
                    .map(|hinted| hinted.analysis)
                    .map_err(GameError::from)
            })
            .await?;
        Ok(hint)
    }

    /// The same game with sides swapped; each person keeps their token, which now opens
    /// the other mark's seat. Asked twice, it answers the same rematch (not new). A
    /// computer-vs-computer game needs no token.
    ///
    /// When servers share the store, two asking at once on two servers race: the store
    /// keeps one rematch, and the other server, told so, reads the game again and
    /// answers that one.
    pub(super) async fn rematch(&self, id: &GameId, key: &SeatKey) -> Result<Rematch, GameError> {
        let mut tries = 0;
        loop {
            tries += 1;
            match self.rematch_once(id, key).await {
                Err(GameError::Store(StoreError::Conflict { .. }))
                    if tries < TRIES && self.0.store.is_shared() => {}
                answer => return answer,
            }
        }
    }

    /// The game, the seat the key holds in it (no such game, then no key, then not a
    /// seat), and the game's turn.
    async fn seat(
        &self,
        id: &GameId,
        key: &SeatKey,
    ) -> Result<(Arc<Table>, Mark, OwnedMutexGuard<()>), GameError> {
        let (table, turn) = self.turn(id).await?;
        let seat = seat_in(&table, key)?;
        table.touch();
        // Shown with the request's own change: one event, not two.
        table.mark_joined(seat);
        Ok((table, seat, turn))
    }

    /// Runs `request` for the seat the key holds (what it answers besides a refusal is
    /// not needed: the view says it); answers the game after it (see the module
    /// documentation for a game another server changed first).
    async fn as_seat<T, E>(
        &self,
        id: &GameId,
        key: SeatKey,
        request: impl Fn(&mut WebMatch, Mark) -> Result<T, E> + Clone + Send + 'static,
    ) -> Result<Arc<GameView>, GameError>
    where
        GameError: From<E>,
    {
        let mut tries = 0;
        loop {
            tries += 1;
            let (table, seat, turn) = self.seat(id, &key).await?;
            let request = request.clone();
            let answer = self
                .run(&table, turn, move |play| {
                    request(&mut play.game, seat)
                        .map(drop)
                        .map_err(GameError::from)
                })
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
    async fn was_behind(&self, table: &Arc<Table>, error: &GameError) -> bool {
        if !self.0.store.is_shared() {
            return false;
        }
        match error {
            // `run` forgot the table already.
            GameError::Store(StoreError::Conflict { .. }) => true,
            GameError::Refused(_) => {
                let id = table.id().clone();
                let Ok(Some(kept)) = self.0.store.read(move |store| store.game(&id)).await else {
                    return false;
                };
                let stored = (kept.steps.len() as u32, kept.ending.is_some());
                if table.progress() == stored {
                    return false;
                }
                table.make_stale();
                self.0.registry.remove(table);
                true
            }
            _ => false,
        }
    }

    /// Runs `request` on the table's game where `thinking` says, in the table's `turn`
    /// (held until the store has answered); then, once the store keeps what the request
    /// wrote, shows the new view to everyone and answers it. If the store refused (or
    /// did not answer within its deadline), the table is forgotten once the store has
    /// answered (the next request reads the game back, as the store has it) and the
    /// answer says so.
    pub(super) async fn run<T: Send + 'static>(
        &self,
        table: &Arc<Table>,
        turn: OwnedMutexGuard<()>,
        request: impl FnOnce(&mut Play) -> Result<T, GameError> + Send + 'static,
    ) -> Result<(T, Arc<GameView>), GameError> {
        let geometry = table.setup().geometry();
        let worker = Arc::clone(table);
        let games = self.clone();
        let Done {
            answer,
            view,
            ticket,
        } = self
            .0
            .thinking
            .run(geometry, move || worker.request(&games.0.commit, request))
            .await?;
        let Some(ticket) = ticket else {
            table.publish(Arc::clone(&view));
            return Ok((answer?, view));
        };
        // On a task of its own, so that the change is shown (or the table forgotten)
        // even if the client stops waiting; the turn passes on only after that.
        let games = self.clone();
        let settled = Arc::clone(table);
        let shown = Arc::clone(&view);
        let written = tokio::spawn(async move {
            let written = ticket.written().await;
            if written.is_ok() {
                settled.publish(shown);
            } else {
                settled.make_stale();
                games.0.registry.remove(&settled);
            }
            drop(turn);
            written
        });
        let deadline = self.0.store.deadline();
        match tokio::time::timeout(deadline, written).await {
            Err(_) => {
                // Not answered in time: the game is read again for its next request.
                table.make_stale();
                self.0.registry.remove(table);
                Err(GameError::StoreSlow(deadline))
            }
            Ok(Err(error)) => Err(GameError::Broken(format!(
                "a wait for the store stopped: {error}"
            ))),
            Ok(Ok(written)) => {
                written?;
                Ok((answer?, view))
            }
        }
    }

    /// One try at [`Games::rematch`].
    async fn rematch_once(&self, id: &GameId, key: &SeatKey) -> Result<Rematch, GameError> {
        let (table, turn) = self.turn(id).await?;
        let caller = if table.setup().is_show() {
            None
        } else {
            Some(seat_in(&table, key)?)
        };
        if !table.view().is_over() {
            return Err(GameError::StillPlaying(AfterTheEnd::Rematch));
        }
        let mut tokens = [None, None];
        if let (Some(mark), SeatKey::Token(token)) = (caller, key) {
            tokens[mark.opponent().index()] = Some(token.clone());
        }
        if let Some(next) = table.rematch() {
            drop(turn);
            let next = self.table(&next).await?;
            return Ok(Rematch {
                created: Created {
                    game: next.view(),
                    tokens,
                },
                new: false,
            });
        }
        let seats = [Mark::O, Mark::X].map(|mark| table.seats()[mark.index()].clone());
        // Each person as they are called now: a name chosen since the game began too.
        let now = table.setup_now().map_err(|error| {
            GameError::Broken(format!("game {} names its players so: {error}", table.id()))
        })?;
        let next = self.open(now.swapped(), seats, Some(table.id().clone()));
        if let Err(error) = self.begin(&next).await {
            // The store may know a rematch this table does not: read it back.
            table.make_stale();
            self.0.registry.remove(&table);
            return Err(error);
        }
        table.set_rematch(next.id().clone());
        drop(turn);
        Ok(Rematch {
            created: Created {
                game: next.view(),
                tokens,
            },
            new: true,
        })
    }
}

/// The cell numbered `cell` (1-based, as people number them) on a board of `geometry`.
pub(super) fn cell_on(geometry: Geometry, cell: u64) -> Result<Position, GameError> {
    usize::try_from(cell)
        .ok()
        .and_then(|number| number.checked_sub(1))
        .and_then(|index| geometry.position(index))
        .ok_or(GameError::NoSuchCell {
            cell,
            cells: geometry.cell_count(),
        })
}

/// If a computer's turn has come, it moves.
pub(super) fn computer_reply(game: &mut WebMatch) -> Result<(), GameError> {
    game.advance()
        .map(drop)
        .map_err(|error| GameError::Broken(error.to_string()))
}
