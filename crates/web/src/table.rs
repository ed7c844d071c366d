//! One game held by the server: the match, the locks of its seats, and the latest view
//! of it that every client (and the event stream) reads.
//!
//! A table is a cache of a game kept in the store. Each request runs on the match under
//! the table's lock, and the writes the match made (collected by [`Outbox`]) are handed
//! to the group commit before the lock is let go, so a game's writes reach the store in
//! the order they were made. The view is published only once they are kept (see
//! `Games::run`), so nobody is shown a move the store lacks.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::{Mutex as Turn, OwnedMutexGuard, watch};

use tictactoe_core::domain::{GameState, Mark, PlayerName};
use tictactoe_core::play::{
    Match, Recorder, Recording, ResumeError, Seat, Seating, Settings, SettingsError,
};
use tictactoe_core::players::PlayerSpec;
use tictactoe_core::ports::{Ending, GameId, NewGame, News, SeatHolder, Step, StoreError, Write};

use super::caller::Caller;
use super::group_commit::{GroupCommit, Ticket};
use super::setup::Setup;
use super::token::Token;
use super::view::{GameView, mark_word};
use tictactoe_core::sync::lock;

/// A match as the server holds it.
pub type WebMatch = Match<Outbox>;

/// The recorder of a web game: it collects the match's writes (its beginning, each
/// step, the end) instead of keeping them, and the table hands them to the group commit
/// after each request. The match's `Event::Finished` says `Recording::Queued`: whether it was kept
/// is the request's answer (a 503 if not).
pub struct Outbox {
    game: GameId,
    writes: Vec<Write>,
}

impl Outbox {
    /// For a game not yet kept: its beginning is the first write.
    pub fn begin(game: NewGame) -> Self {
        Outbox {
            game: game.id.clone(),
            writes: vec![Write::Begin(game)],
        }
    }

    /// For a game the store already has.
    pub fn resume(game: GameId) -> Self {
        Outbox {
            game,
            writes: Vec::new(),
        }
    }

    /// The writes collected since the last call.
    pub fn drain(&mut self) -> Vec<Write> {
        std::mem::take(&mut self.writes)
    }

    /// The seat at `mark`, held open for an invite, taken by `holder`: kept with the
    /// request's other writes (a seat is no part of the match).
    pub fn take_seat(&mut self, mark: Mark, holder: SeatHolder) {
        self.writes.push(Write::Seat {
            game: self.game.clone(),
            mark,
            holder,
        });
    }
}

impl Recorder for Outbox {
    fn keep(&mut self, step: Step) -> Result<(), StoreError> {
        self.writes.push(Write::Step {
            game: self.game.clone(),
            step,
        });
        Ok(())
    }

    fn end(&mut self, ending: Ending, _players: &[PlayerName; 2]) -> Recording {
        self.writes.push(Write::End {
            game: self.game.clone(),
            ending,
        });
        Recording::Queued
    }

    fn rename(&mut self, mark: Mark, name: &PlayerName) -> Result<(), StoreError> {
        self.writes.push(Write::Name {
            game: self.game.clone(),
            mark,
            name: name.clone(),
        });
        Ok(())
    }

    fn casual(&mut self) -> Result<(), StoreError> {
        self.writes.push(Write::Casual {
            game: self.game.clone(),
        });
        Ok(())
    }
}

/// What is changed together, under one lock.
pub struct Play {
    pub game: WebMatch,
    pub rematch: Option<GameId>,
    /// Whose X's and O's seats are.
    pub seats: [SeatHolder; 2],
}

impl Play {
    /// The seats `caller` holds, X's and O's: an account's seat whose player has the
    /// name of the account the caller is signed in as, or a guest's whose secret the
    /// caller carries (each secret compared with each lock, in constant time).
    pub fn held_by(&self, caller: &Caller) -> [bool; 2] {
        Mark::ALL.map(|mark| match &self.seats[mark.index()] {
            SeatHolder::Account => caller
                .account
                .as_ref()
                .is_some_and(|account| account.key() == self.game.seat(mark).name().key()),
            SeatHolder::Guest(lock) => caller
                .secrets
                .iter()
                .fold(false, |opens, secret| secret.opens(lock) | opens),
            SeatHolder::Local | SeatHolder::Invited(_) => false,
        })
    }

    /// The seat held open for an invite that `code` opens, if any.
    pub fn invited_by(&self, code: &Token) -> Option<Mark> {
        Mark::ALL.into_iter().find(|mark| {
            matches!(&self.seats[mark.index()], SeatHolder::Invited(lock) if code.opens(lock))
        })
    }

    /// The seat at `mark` taken by `holder` (see [`Outbox::take_seat`]).
    pub fn take_seat(&mut self, mark: Mark, holder: SeatHolder) {
        self.seats[mark.index()] = holder.clone();
        self.game.recorder_mut().take_seat(mark, holder);
    }
}

/// What a request did: its answer, the game after it, and the ticket of its writes
/// (`None` if it wrote nothing).
pub struct Done<T> {
    pub answer: T,
    pub view: Arc<GameView>,
    pub ticket: Option<Ticket>,
}

pub struct Table {
    id: GameId,
    setup: Setup,
    /// One request at a time, from the match to the store and the view: held across
    /// the wait for the store (see `Games::run`), so a request never starts from a
    /// game the store may yet refuse.
    turn: Arc<Turn<()>>,
    /// Locked only for the match's work (see `thinking`): microseconds on 3x3, where it
    /// runs on the async runtime; up to the think time on bigger boards, where it runs
    /// on a thread of its own.
    play: Mutex<Play>,
    view: watch::Sender<Arc<GameView>>,
    touched: Mutex<Instant>,
    /// The store refused a write of this game: what the table holds may be ahead of
    /// the store, and the game must be read again.
    stale: AtomicBool,
    /// X's and O's: whether the seat's token has been used since the table was made
    /// (its player has the game open). Not kept in the store: after a restart, a page
    /// that reconnects with its seat joins again.
    joined: [AtomicBool; 2],
    /// A computer-against-computer game: whether this server is playing it.
    paced: AtomicBool,
    /// How far the game has come, readable without `play`'s lock (which a request on
    /// a big board holds through the computer's thinking): see [`Table::progress`].
    progress: AtomicU64,
    /// Raised to stop the hint being thought about when nobody waits for it any more
    /// (see `cut`): the match's advisor stops on it.
    hints_stop: Arc<AtomicBool>,
}

impl Table {
    pub fn new(
        id: GameId,
        setup: Setup,
        seats: [SeatHolder; 2],
        game: WebMatch,
        rematch: Option<GameId>,
    ) -> Self {
        let play = Play {
            game,
            rematch,
            seats,
        };
        let view = GameView::of(&id, &play, &setup.settings, Vec::new());
        let progress = AtomicU64::new(progress_of(&play.game));
        Table {
            id,
            setup,
            turn: Arc::new(Turn::new(())),
            play: Mutex::new(play),
            view: watch::Sender::new(Arc::new(view)),
            touched: Mutex::new(Instant::now()),
            stale: AtomicBool::new(false),
            joined: [AtomicBool::new(false), AtomicBool::new(false)],
            paced: AtomicBool::new(false),
            progress,
            hints_stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The same table, whose match's advisor stops when `stop` is raised.
    pub fn hints_stopping_on(self, stop: Arc<AtomicBool>) -> Self {
        Table {
            hints_stop: stop,
            ..self
        }
    }

    /// The flag the match's advisor stops on.
    pub fn hints_stop(&self) -> &Arc<AtomicBool> {
        &self.hints_stop
    }

    pub fn id(&self) -> &GameId {
        &self.id
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// Whose each seat is, now.
    pub fn seats(&self) -> [SeatHolder; 2] {
        lock(&self.play).seats.clone()
    }

    /// The seat held open for an invite that `code` opens, and the name it is held
    /// under.
    pub fn invited_name(&self, code: &Token) -> Option<(Mark, PlayerName)> {
        let play = lock(&self.play);
        let mark = play.invited_by(code)?;
        Some((mark, play.game.seat(mark).name()))
    }

    /// The seats `caller` holds now, X's and O's ([`Play::held_by`]), and the side to
    /// move.
    pub fn held_by(&self, caller: &Caller) -> ([bool; 2], Mark) {
        let play = lock(&self.play);
        (play.held_by(caller), play.game.game().to_move())
    }

    /// Waits for the table's turn: one request at a time, until the guard is dropped.
    pub async fn turn(&self) -> OwnedMutexGuard<()> {
        Arc::clone(&self.turn).lock_owned().await
    }

    /// The game as it was after the last change the store kept.
    pub fn view(&self) -> Arc<GameView> {
        self.view.borrow().clone()
    }

    /// Changes to the view, as they happen: for the event stream.
    pub fn watch(&self) -> watch::Receiver<Arc<GameView>> {
        self.view.subscribe()
    }

    /// The setup as the game stands: as it began, with each person called as the match
    /// calls them now (a person may have chosen their name since). Refused only if the
    /// two names clash, which the match never lets happen.
    pub fn setup_now(&self) -> Result<Setup, SettingsError> {
        let play = lock(&self.play);
        let spec = |mark: Mark| match play.game.seat(mark) {
            Seat::Human(name) => PlayerSpec::Human(Some(name.clone())),
            Seat::Computer(_) => self.setup.spec(mark).clone(),
        };
        let settings = Settings::new(
            spec(Mark::X),
            spec(Mark::O),
            self.setup.settings.first(),
            self.setup.geometry(),
        )?;
        Ok(Setup {
            settings,
            seating: self.setup.seating,
        })
    }

    /// The rematch, once one was kept.
    pub fn rematch(&self) -> Option<GameId> {
        lock(&self.play).rematch.clone()
    }

    /// Runs `request` on the game, and hands the writes it made to `commit` before
    /// anyone else can change the game. Takes as long as the request: run it where
    /// `thinking` says. The new view is not published: see [`Table::publish`].
    pub fn request<T>(
        &self,
        commit: &GroupCommit,
        request: impl FnOnce(&mut Play) -> T,
    ) -> Done<T> {
        let mut play = lock(&self.play);
        let answer = request(&mut play);
        let writes = play.game.recorder_mut().drain();
        let ticket = (!writes.is_empty()).then(|| commit.submit(writes));
        let view = self.view_of(&play);
        self.progress
            .store(progress_of(&play.game), Ordering::Release);
        drop(play);
        self.touch();
        Done {
            answer,
            view: Arc::new(view),
            ticket,
        }
    }

    /// Shows `view` to everyone: call once what it shows is kept.
    pub fn publish(&self, view: Arc<GameView>) {
        self.view.send_if_modified(|old| {
            let changed = **old != *view;
            if changed {
                *old = view;
            }
            changed
        });
    }

    /// `seat`'s player has the game open: shown to everyone the first time. The view
    /// published is the last one with the seat added, never one rebuilt from the match:
    /// a request may be waiting for the store to keep a change the view must not show
    /// yet.
    pub fn join(&self, seat: Mark) {
        if self.mark_joined(seat) {
            return;
        }
        let joined = self.joined_seats();
        self.view.send_if_modified(|view| {
            if view.joined == joined {
                return false;
            }
            *view = Arc::new(GameView {
                joined,
                ..(**view).clone()
            });
            true
        });
    }

    /// `seat`'s player is here, to be shown with the next change (a request for the
    /// seat publishes its view anyway): true if it was known already.
    pub fn mark_joined(&self, seat: Mark) -> bool {
        // Two people on one device come together: one seat's token is both seats'.
        let seats = match self.setup.seating {
            Seating::Together => vec![Mark::X, Mark::O],
            Seating::Apart => vec![seat],
        };
        let mut known = true;
        for seat in seats {
            known &= self.joined[seat.index()].swap(true, Ordering::AcqRel);
        }
        known
    }

    /// The seats joined, as the view shows them.
    fn joined_seats(&self) -> Vec<&'static str> {
        Mark::ALL
            .into_iter()
            .filter(|mark| self.joined[mark.index()].load(Ordering::Acquire))
            .map(mark_word)
            .collect()
    }

    /// Links the rematch the store now has, and shows it.
    pub fn set_rematch(&self, next: GameId) {
        let mut play = lock(&self.play);
        play.rematch = Some(next);
        let view = self.view_of(&play);
        drop(play);
        self.publish(Arc::new(view));
    }

    /// What clients see of `play`, this table's game.
    fn view_of(&self, play: &Play) -> GameView {
        GameView::of(&self.id, play, &self.setup.settings, self.joined_seats())
    }

    /// Takes what another server kept of this game (see `Games::hear`) and shows it:
    /// `false` if the table cannot follow (a request of this server's is under way, or
    /// the news does not follow on from what the table holds), and must be read again.
    pub fn take_news(&self, news: &[News]) -> bool {
        let Ok(_turn) = Arc::clone(&self.turn).try_lock_owned() else {
            return false;
        };
        let mut play = lock(&self.play);
        for item in news {
            let taken = match item {
                // Already held: the table was read back after this news was sent.
                News::Step { step, .. } if step.number <= play.game.steps_taken() => Ok(()),
                News::End { .. } if play.game.end().is_some() => Ok(()),
                News::Step { step, .. } => play.game.take_kept(*step),
                News::End { ending, .. } => play.game.end_kept(*ending),
                // A name the table has already is no change (`rename_kept`).
                News::Name { mark, name, .. } => play.game.rename_kept(*mark, name.clone()),
                News::Casual { .. } => {
                    play.game.casual_kept();
                    Ok(())
                }
                News::Seat { mark, holder, .. } => {
                    play.seats[mark.index()] = holder.clone();
                    Ok(())
                }
                // The table is this game: it began long ago (`Games::hear` makes
                // tables of the games others begin).
                News::Begin(_) => Err(ResumeError::OutOfOrder { number: 0 }),
            };
            if taken.is_err() {
                return false;
            }
        }
        let view = self.view_of(&play);
        self.progress
            .store(progress_of(&play.game), Ordering::Release);
        drop(play);
        self.touch();
        self.publish(Arc::new(view));
        true
    }

    /// How far the table's game has come: steps taken, and whether it ended, as of the
    /// last request (or news) that finished; read without waiting for one under way.
    pub fn progress(&self) -> (u32, bool) {
        let packed = self.progress.load(Ordering::Acquire);
        ((packed >> 1) as u32, packed & 1 == 1)
    }

    /// Whether a server plays this computer-against-computer game here (see
    /// `Games::spawn_show`); `true` if one already did.
    pub fn start_pacing(&self) -> bool {
        self.paced.swap(true, Ordering::AcqRel)
    }

    /// This server stopped playing the show (over, or another server holds it).
    pub fn stop_pacing(&self) {
        self.paced.store(false, Ordering::Release);
    }

    /// The store refused this game's write: the table may hold what the store lacks.
    pub fn make_stale(&self) {
        self.stale.store(true, Ordering::Release);
    }

    pub fn is_stale(&self) -> bool {
        self.stale.load(Ordering::Acquire)
    }

    pub fn touch(&self) {
        *lock(&self.touched) = Instant::now();
    }

    pub fn idle_for(&self, now: Instant) -> Duration {
        now.saturating_duration_since(*lock(&self.touched))
    }
}

/// A game's progress packed in one word: the steps taken, then whether it ended.
fn progress_of(game: &WebMatch) -> u64 {
    (u64::from(game.steps_taken()) << 1) | u64::from(game.end().is_some())
}
