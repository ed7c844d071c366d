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
use std::time::Instant;

use tictactoe_core::domain::{GameState, Geometry, Mark, PlayerName, Position};
use tictactoe_core::ports::{GameId, SeatHolder, StoreError};

use tictactoe_core::play::Seating;
use tictactoe_core::players::{is_placeholder, unnamed};

use super::super::budget::Kind;
use super::super::caller::Caller;
use super::super::cut::Cut;
use super::super::port::{AfterTheEnd, Created, GameError, Hint, Looked, Rematch, Watching};
use super::super::setup::Setup;
use super::super::table::{Done, Play, Table, Turn, WebMatch};
use super::super::thinking::Lane;
use super::super::token::Token;
use super::super::view::GameView;
use super::Games;

/// A request tried this many times when it found the game changed by another server.
const TRIES: usize = 3;

/// Which seat acts for a caller who holds both (two people on one device, or a script
/// holding both tokens).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Acting {
    /// The side to move: a move, a hint, a resignation, a name.
    ToMove,
    /// The side that moved last: taking a move back.
    LastMover,
}

/// The seat that acts for a caller holding `held` (X's, O's), the side to move being
/// `to_move`: the one held, or of two, the one `acting` says.
fn acting(held: [bool; 2], to_move: Mark, acting: Acting) -> Option<Mark> {
    match held {
        [true, true] => Some(match acting {
            Acting::ToMove => to_move,
            Acting::LastMover => to_move.opponent(),
        }),
        [true, false] => Some(Mark::X),
        [false, true] => Some(Mark::O),
        [false, false] => None,
    }
}

/// Why a caller who holds no seat is refused: they sent nothing (who are you?), or what
/// they sent opens no seat that may do this.
fn no_seat(caller: &Caller) -> GameError {
    if caller.presented {
        GameError::NotASeat
    } else {
        GameError::NoSeatKey
    }
}

impl Games {
    /// A new game, answered once the store keeps it. Each person's seat is the
    /// caller's: an account's where the seat's name is the account the caller is
    /// signed in as; otherwise a guest's, with a fresh secret (the name may be no
    /// account's, nor look like one). The seat `invite` names, if any, is held open
    /// for whoever brings the invite's code.
    pub(super) async fn create(
        &self,
        setup: Setup,
        caller: Caller,
        invite: Option<Mark>,
    ) -> Result<Created, GameError> {
        self.store_usable()?;
        if let Some(mark) = invite {
            if !setup.is_human(mark) {
                return Err(GameError::InviteToComputer(mark));
            }
            if setup.seating == Seating::Together {
                return Err(GameError::InviteTogether);
            }
        }
        let mut tokens = [None, None];
        let mut code = None;
        let mut seats = [SeatHolder::Local, SeatHolder::Local];
        for mark in Mark::ALL.into_iter().filter(|&mark| setup.is_human(mark)) {
            let name = setup.spec(mark).name(mark);
            seats[mark.index()] = if invite == Some(mark) {
                let secret = Token::random();
                let lock = secret.lock();
                code = Some(secret);
                SeatHolder::Invited(lock)
            } else if caller
                .account
                .as_ref()
                .is_some_and(|a| a.key() == name.key())
            {
                SeatHolder::Account
            } else {
                self.guest_may_be_called(&name).await?;
                let secret = Token::random();
                let lock = secret.lock();
                tokens[mark.index()] = Some(secret);
                SeatHolder::Guest(lock)
            };
        }
        let table = self.open(setup, seats, None, false);
        self.begin(&table).await?;
        Ok(Created {
            game: table.view(),
            tokens,
            invite: code,
        })
    }

    /// Whether a guest may play under `name`: refused if it is an account's, or looks
    /// like one. (A name a front end gives whoever gave none is nobody's; a name the
    /// store lately found nobody's is not asked about again, see `nobodys_names`.)
    pub(super) async fn guest_may_be_called(&self, name: &PlayerName) -> Result<(), GameError> {
        if is_placeholder(name) {
            return Ok(());
        }
        let Err(asking) = self.0.nobodys_names.known(name, Instant::now()) else {
            return Ok(());
        };
        let asked = name.clone();
        match self
            .0
            .store
            .read(move |store| store.account_like(&asked))
            .await?
        {
            Some(_) => Err(GameError::AccountsName { name: name.clone() }),
            None => {
                self.0.nobodys_names.nobodys(asking);
                Ok(())
            }
        }
    }

    /// The game as it stands, and the seats the caller holds (which have joined).
    pub(super) async fn look(&self, id: &GameId, caller: &Caller) -> Result<Looked, GameError> {
        let table = self.table(id).await?;
        let held = table.held_by(caller);
        for mark in Mark::ALL.into_iter().filter(|mark| held[mark.index()]) {
            table.join(mark);
        }
        Ok(Looked {
            game: table.view(),
            yours: held,
        })
    }

    /// The seat held open for whoever brings `code`, taken by the caller: an account's
    /// seat, named for the account, if the caller is signed in; otherwise a guest's,
    /// with a fresh secret (and named as whoever gave no name, if the name it was held
    /// under is an account's). Taken once: a caller who took it already gets it again.
    /// When servers share the store, two taking it at once on two servers race: the
    /// store keeps one, and the other server, told so, reads the game again and answers
    /// as if the two had come one after the other.
    pub(super) async fn join(
        &self,
        id: &GameId,
        caller: Caller,
        code: Token,
    ) -> Result<Created, GameError> {
        self.raced(|| self.join_once(id, &caller, &code)).await
    }

    /// `once`'s answer, asked again (up to [`TRIES`] in all) while another server
    /// sharing the store keeps the same change first: then the game was read again, and
    /// the next try answers as if the two had come one after the other.
    async fn raced<T, F: Future<Output = Result<T, GameError>>>(
        &self,
        once: impl Fn() -> F,
    ) -> Result<T, GameError> {
        let mut tries = 0;
        loop {
            tries += 1;
            match once().await {
                Err(GameError::Store(StoreError::Conflict { .. }))
                    if tries < TRIES && self.0.store.is_shared() => {}
                answer => return answer,
            }
        }
    }

    /// One try at [`Games::join`].
    async fn join_once(
        &self,
        id: &GameId,
        caller: &Caller,
        code: &Token,
    ) -> Result<Created, GameError> {
        let code = code.clone();
        let table = self.table(id).await?;
        if table.held_by(caller).contains(&true) {
            return Ok(seated_already(&table));
        }
        let guest_name = match &caller.account {
            Some(_) => None,
            None => Some(self.guest_name_in(&table, &code).await?),
        };
        let (table, turn) = self.turn(id).await?;
        // Asked twice at once: the first request took the seat, and it is kept.
        if table.held_by(caller).contains(&true) {
            return Ok(seated_already(&table));
        }
        let account = caller.account.clone();
        let secret = Token::random();
        let lock = secret.lock();
        let ((mark, guest), view) = self
            .run(&table, turn, move |play| {
                let mark = play.invited_by(&code).ok_or(GameError::NotInvited)?;
                let holder = match (account, guest_name) {
                    (Some(account), _) => {
                        play.game.rename(mark, account)?;
                        SeatHolder::Account
                    }
                    (None, Some(Some(nameless))) => {
                        play.game.rename(mark, nameless)?;
                        SeatHolder::Guest(lock)
                    }
                    (None, _) => SeatHolder::Guest(lock),
                };
                let guest = matches!(holder, SeatHolder::Guest(_));
                play.take_seat(mark, holder);
                Ok((mark, guest))
            })
            .await?;
        table.join(mark);
        let mut tokens = [None, None];
        if guest {
            tokens[mark.index()] = Some(secret);
        }
        Ok(Created {
            game: view,
            tokens,
            invite: None,
        })
    }

    /// For a guest taking the seat `code` opens: the name to give the seat if the one
    /// it was held under is an account's (or like one), as whoever gave no name is
    /// called; `None` to keep it.
    async fn guest_name_in(
        &self,
        table: &Table,
        code: &Token,
    ) -> Result<Option<PlayerName>, GameError> {
        let Some((mark, name)) = table.invited_name(code) else {
            return Err(GameError::NotInvited);
        };
        match self.guest_may_be_called(&name).await {
            Ok(()) => Ok(None),
            Err(GameError::AccountsName { .. }) => Ok(Some(unnamed(mark))),
            Err(error) => Err(error),
        }
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
        caller: Caller,
        cell: u64,
    ) -> Result<Arc<GameView>, GameError> {
        self.as_seat(id, caller, Acting::ToMove, move |game, seat| {
            let position = cell_on(game.game().board().geometry(), cell)?;
            game.play(seat, position)?;
            computer_reply(game)
        })
        .await
    }

    /// The seat's person plays under `name` from now on (the match says whether they
    /// may: until their first move), shown to everyone once the store keeps it. An
    /// account's seat keeps the account's name; a guest's takes no account's.
    pub(super) async fn rename(
        &self,
        id: &GameId,
        caller: Caller,
        name: PlayerName,
    ) -> Result<Arc<GameView>, GameError> {
        self.guest_may_be_called(&name).await?;
        self.as_seat(id, caller, Acting::ToMove, move |game, seat| {
            game.rename(seat, name.clone())
        })
        .await
    }

    /// What perfect play makes of the position, for the seat whose turn it is. A hint
    /// makes a rated game casual: kept before the hint is answered.
    ///
    /// A hint draws on the caller's share of the computer's thinking (`budget`), and
    /// on a bigger board runs on the advice lane, never in front of a game's move.
    pub(super) async fn hint(&self, id: &GameId, caller: &Caller) -> Result<Hint, GameError> {
        let (table, seat, turn) = self.seat(id, caller, Acting::ToMove).await?;
        let mut spending = self.admit(caller.payer(), Kind::Hint)?;
        // Dropped with this future (the client gone) before the answer: thinking stops.
        let cut = Cut::arm(table.hints_stop());
        let ((hint, spent), _) = self
            .run_in(Lane::Advice, &table, turn, move |play| {
                let started = Instant::now();
                let hinted = play.game.hint(seat).map_err(GameError::from)?;
                let hint = Hint {
                    analysis: hinted.analysis,
                    preferred: hinted.preferred,
                };
                Ok((hint, started.elapsed()))
            })
            .await?;
        cut.done();
        spending.spent(spent);
        Ok(hint)
    }

    /// The same game with sides swapped; each person keeps their token, which now opens
    /// the other mark's seat. Asked twice, it answers the same rematch (not new). A
    /// computer-vs-computer game needs no token.
    ///
    /// When servers share the store, two asking at once on two servers race: the store
    /// keeps one rematch, and the other server, told so, reads the game again and
    /// answers that one.
    pub(super) async fn rematch(&self, id: &GameId, caller: &Caller) -> Result<Rematch, GameError> {
        self.raced(|| self.rematch_once(id, caller)).await
    }

    /// The game, the seat the caller holds in it that acts (no such game, then nothing
    /// carried, then no seat held), and the game's turn.
    async fn seat(
        &self,
        id: &GameId,
        caller: &Caller,
        who: Acting,
    ) -> Result<(Arc<Table>, Mark, Turn), GameError> {
        let (table, turn) = self.turn(id).await?;
        let held = table.held_by(caller);
        let to_move = turn.game.game().to_move();
        let seat = acting(held, to_move, who).ok_or_else(|| no_seat(caller))?;
        table.arrive(seat);
        Ok((table, seat, turn))
    }

    /// Runs `request` for the seat the caller holds that acts as `who` says (what it
    /// answers besides a refusal is not needed: the view says it); answers the game
    /// after it (see the module documentation for a game another server changed first).
    pub(super) async fn as_seat<T, E>(
        &self,
        id: &GameId,
        caller: Caller,
        who: Acting,
        request: impl Fn(&mut WebMatch, Mark) -> Result<T, E> + Clone + Send + 'static,
    ) -> Result<Arc<GameView>, GameError>
    where
        GameError: From<E>,
    {
        let mut tries = 0;
        loop {
            tries += 1;
            let (table, seat, turn) = self.seat(id, &caller, who).await?;
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
        turn: Turn,
        request: impl FnOnce(&mut Play) -> Result<T, GameError> + Send + 'static,
    ) -> Result<(T, Arc<GameView>), GameError> {
        self.run_in(Lane::Play, table, turn, request).await
    }

    /// [`Games::run`] on `lane`.
    pub(super) async fn run_in<T: Send + 'static>(
        &self,
        lane: Lane,
        table: &Arc<Table>,
        mut turn: Turn,
        request: impl FnOnce(&mut Play) -> Result<T, GameError> + Send + 'static,
    ) -> Result<(T, Arc<GameView>), GameError> {
        let geometry = table.setup().geometry();
        let worker = Arc::clone(table);
        let games = self.clone();
        // The turn goes with the work and comes back with its outcome.
        let (turn, done) = self
            .0
            .thinking
            .run(lane, geometry, move || {
                let done = worker.request(&mut turn, &games.0.commit, request);
                (turn, done)
            })
            .await?;
        let view = done.view();
        let Done {
            answer,
            shown,
            ticket,
        } = done;
        let Some(ticket) = ticket else {
            table.publish(shown);
            self.follow_deadline(table);
            drop(turn);
            return Ok((answer?, view));
        };
        // On a task of its own, so that the change is shown (or the table forgotten)
        // even if the client stops waiting; the turn passes on only after that.
        let games = self.clone();
        let settled = Arc::clone(table);
        let written = tokio::spawn(async move {
            let written = ticket.written().await;
            if written.is_ok() {
                settled.publish(shown);
                games.follow_deadline(&settled);
            } else {
                games.0.registry.remove(&settled);
            }
            drop(turn);
            written
        });
        let deadline = self.0.store.deadline();
        match tokio::time::timeout(deadline, written).await {
            Err(_) => {
                // Not answered in time: the game is read again for its next request.
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
    async fn rematch_once(&self, id: &GameId, caller: &Caller) -> Result<Rematch, GameError> {
        let (table, mut turn) = self.turn(id).await?;
        let held = table.held_by(caller);
        if !table.setup().is_show() && !held.contains(&true) {
            return Err(no_seat(caller));
        }
        if !table.view().is_over() {
            return Err(GameError::StillPlaying(AfterTheEnd::Rematch));
        }
        // The seats of the game before, each secret now held open for its holder.
        let old_seats = turn.seats.clone();
        let (next, new) = match turn.rematch.clone() {
            Some(next) => {
                drop(turn);
                (self.table(&next).await?, false)
            }
            None => {
                let seats = [Mark::O, Mark::X].map(|mark| rematch_seat(&old_seats[mark.index()]));
                // Each person as they are called now: a name chosen since the game began
                // too.
                let now = table.setup_now(&turn).map_err(|error| {
                    GameError::Broken(format!("game {} names its players so: {error}", table.id()))
                })?;
                let next = self.open(now.swapped(), seats, Some(table.id().clone()), false);
                if let Err(error) = self.begin(&next).await {
                    // The store may know a rematch this table does not: read it back.
                    self.0.registry.remove(&table);
                    return Err(error);
                }
                table.set_rematch(&mut turn, next.id().clone());
                drop(turn);
                (next, true)
            }
        };
        let (game, tokens) = self.take_rematch_seats(&next, &old_seats, held).await?;
        Ok(Rematch {
            created: Created {
                game,
                tokens,
                invite: None,
            },
            new,
        })
    }

    /// In rematch `next`, the seats a caller held in the game before (`held`, whose
    /// seats were `old`), each now on the other mark: a guest's, held open for the
    /// secret that opened it before, is taken with a fresh secret (the old one ends
    /// with its game); an account's is the account's already. Answers the rematch as it
    /// stands, and the fresh secrets.
    async fn take_rematch_seats(
        &self,
        next: &Arc<Table>,
        old: &[SeatHolder; 2],
        held: [bool; 2],
    ) -> Result<(Arc<GameView>, [Option<Token>; 2]), GameError> {
        let mut tokens = [None, None];
        // Read in the rematch's turn: a caller asking twice at once finds the seat taken
        // by their first request, kept.
        let (next, turn) = self.turn(next.id()).await?;
        let taking: Vec<(Mark, SeatHolder)> = Mark::ALL
            .into_iter()
            .filter(|&mark| held[mark.index()])
            .filter_map(
                |mark| match (&old[mark.index()], &turn.seats[mark.opponent().index()]) {
                    (SeatHolder::Guest(was), SeatHolder::Invited(open)) if was == open => {
                        let secret = Token::random();
                        let holder = SeatHolder::Guest(secret.lock());
                        tokens[mark.opponent().index()] = Some(secret);
                        Some((mark.opponent(), holder))
                    }
                    _ => None,
                },
            )
            .collect();
        if taking.is_empty() {
            return Ok((next.view(), tokens));
        }
        let ((), view) = self
            .run(&next, turn, move |play| {
                for (mark, holder) in taking {
                    play.take_seat(mark, holder);
                }
                Ok(())
            })
            .await?;
        Ok((view, tokens))
    }
}

/// The answer to a caller who took their seat in `table` already: the game, no secret.
fn seated_already(table: &Table) -> Created {
    Created {
        game: table.view(),
        tokens: [None, None],
        invite: None,
    }
}

/// Whose the seat of a rematch is, taken by the holder of `before` on the other mark: an
/// account's stays the account's, a guest's is held open for the secret that held it
/// (taken with a fresh one), an invite not taken stays open.
fn rematch_seat(before: &SeatHolder) -> SeatHolder {
    match before {
        SeatHolder::Guest(lock) => SeatHolder::Invited(lock.clone()),
        other => other.clone(),
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
