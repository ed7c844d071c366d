//! One game held by the server: one lock around everything a request changes
//! ([`Play`]: the match, whose the seats are, its rematch), and one channel for what
//! everyone else reads of it ([`Shown`]: the view every client and the event stream
//! see, and whose the seats are).
//!
//! A table is a cache of a game kept in the store. A request holds the lock, its
//! [`Turn`], from the match to the store's answer: the writes the match made (collected
//! by [`Outbox`]) are handed to the group commit under it, so a game's writes reach the
//! store in the order they were made, and what they changed is shown only once they are
//! kept (see `Games::run`), so nobody is shown a move the store lacks. Whoever only
//! reads (a page loaded, the event stream, a seat looked up) reads the channel and never
//! waits for a turn, which a big board's request holds through the computer's thinking.
//! The one atomic left, the hint's stop flag, is raised by someone who does not hold the
//! turn (a client gone while the computer thinks for it), which is its whole point.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant, SystemTime};

use tokio::sync::{Mutex, OwnedMutexGuard, watch};

use tictactoe_core::domain::{GameClock, GameState, Mark, PlayerName};
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

    /// The game's clock as it stands after its first `after` steps: kept with the
    /// request's other writes (the clock is no part of the match).
    fn keep_clock(&mut self, after: u32, clock: GameClock) {
        self.writes.push(Write::Clock {
            game: self.game.clone(),
            after,
            clock,
        });
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

/// What a request changes, under the table's one lock.
pub struct Play {
    pub game: WebMatch,
    pub rematch: Option<GameId>,
    /// Whose X's and O's seats are.
    pub seats: [SeatHolder; 2],
    /// The game's clock, if it is played on one: the server is its only judge.
    pub clock: Option<GameClock>,
    /// A computer-against-computer game: whether this server is playing it.
    paced: bool,
    /// When a request or another server's news last changed or asked for the game.
    touched: Instant,
}

impl Play {
    /// The seat held open for an invite that `code` opens, if any.
    pub fn invited_by(&self, code: &Token) -> Option<Mark> {
        invited_by(&self.seats, code)
    }

    /// The seat at `mark` taken by `holder` (see [`Outbox::take_seat`]).
    pub fn take_seat(&mut self, mark: Mark, holder: SeatHolder) {
        self.seats[mark.index()] = holder.clone();
        self.game.recorder_mut().take_seat(mark, holder);
    }

    /// Whether this server now plays the show; `false` if it did already (see
    /// `Games::spawn_show`).
    pub fn start_pacing(&mut self) -> bool {
        !std::mem::replace(&mut self.paced, true)
    }

    /// This server stopped playing the show (over, or another server holds it).
    pub fn stop_pacing(&mut self) {
        self.paced = false;
    }

    /// The clock judges the game at `now`: a side out of time loses on time (or draws,
    /// if the other could no longer win), a first move not made in time aborts it.
    /// Whether it ended so.
    pub fn judge(&mut self, now: SystemTime) -> bool {
        let Some(overdue) = self.clock.and_then(|clock| clock.overdue(now)) else {
            return false;
        };
        if self.game.end().is_some() {
            return false;
        }
        match self.game.overdue(overdue) {
            Ok(_) => true,
            Err(refusal) => {
                // The clock and the match disagree on whose turn it is: a bug, said
                // once per judging; the game goes on as the match has it.
                tracing::error!(
                    "the clock's verdict {overdue:?} is refused by the match: {refusal}"
                );
                false
            }
        }
    }

    /// The clock follows what a request did: each move played since `before` (steps,
    /// moves on the board) charged to its mover (the first at `asked`, when the request
    /// came; a computer's reply when it came, now), or moves taken back; then the clock
    /// is kept with the request's writes. A game over keeps its last reading.
    fn follow_clock(&mut self, before: (u32, usize), asked: SystemTime) {
        let Some(clock) = &mut self.clock else {
            return;
        };
        let steps = self.game.steps_taken();
        if steps == before.0 {
            return;
        }
        let state = self.game.game();
        let moves = state.moves().len();
        if moves < before.1 {
            clock.taken_back(state.to_move(), asked);
        } else {
            for made in 0..moves - before.1 {
                clock.moved(if made == 0 { asked } else { SystemTime::now() });
            }
        }
        if self.game.end().is_none() {
            let clock = *clock;
            self.game.recorder_mut().keep_clock(steps, clock);
        }
    }
}

/// A table's turn: its one lock, held by one request at a time from the match to the
/// store's answer.
pub type Turn = OwnedMutexGuard<Play>;

/// What anyone reads of a table without its turn: the game as the store keeps it, as of
/// the last change kept.
#[derive(Clone)]
pub struct Shown {
    view: Arc<GameView>,
    /// Whose the seats are, and the names they are played under.
    seats: [SeatHolder; 2],
    names: [PlayerName; 2],
    /// X's and O's: whether the seat's player has had the game open since the table was
    /// made (their page loaded, or a request of theirs). Not kept in the store: after a
    /// restart, a page that reconnects with its seat joins again. A seat that joined
    /// through a request is in the view from the next change on (see
    /// [`Table::arrive`]).
    joined: [bool; 2],
    /// Steps taken, and whether it ended.
    progress: (u32, bool),
    /// When the game's clock ends it unless its side to move moves: none for a game
    /// without a clock, or over.
    deadline: Option<SystemTime>,
}

impl Shown {
    /// The same, with the seats `also` joined too: `None` if it had them already.
    fn joining(&self, also: [bool; 2]) -> Option<Shown> {
        let joined = Mark::ALL.map(|mark| self.joined[mark.index()] | also[mark.index()]);
        (joined != self.joined).then(|| Shown {
            view: Arc::new(GameView {
                joined: joined_words(joined),
                ..(*self.view).clone()
            }),
            joined,
            ..self.clone()
        })
    }
}

/// The game's views as they change: for the event stream.
pub struct Views(watch::Receiver<Shown>);

impl Views {
    /// Waits for the next change; an error once the table is gone.
    pub async fn changed(&mut self) -> Result<(), watch::error::RecvError> {
        self.0.changed().await
    }

    /// The view as it is now, marked as seen.
    pub fn latest(&mut self) -> Arc<GameView> {
        Arc::clone(&self.0.borrow_and_update().view)
    }
}

/// What a request did: its answer, the game after it, and the ticket of its writes
/// (`None` if it wrote nothing).
pub struct Done<T> {
    pub answer: T,
    pub shown: Shown,
    pub ticket: Option<Ticket>,
}

impl<T> Done<T> {
    pub fn view(&self) -> Arc<GameView> {
        Arc::clone(&self.shown.view)
    }
}

pub struct Table {
    id: GameId,
    setup: Setup,
    /// The one lock: one request at a time, from the match to the store and the view
    /// (see `Games::run`), so a request never starts from a game the store may yet
    /// refuse.
    play: Arc<Mutex<Play>>,
    /// The one channel: what was last kept, for everyone who reads.
    shown: watch::Sender<Shown>,
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
        clock: Option<GameClock>,
    ) -> Self {
        let play = Play {
            game,
            rematch,
            seats,
            clock,
            paced: false,
            touched: Instant::now(),
        };
        let shown = shown_of(&id, &play, &setup, [false; 2]);
        Table {
            id,
            setup,
            play: Arc::new(Mutex::new(play)),
            shown: watch::Sender::new(shown),
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

    /// The seat held open for an invite that `code` opens, and the name it is held
    /// under.
    pub fn invited_name(&self, code: &Token) -> Option<(Mark, PlayerName)> {
        let shown = self.shown.borrow();
        let mark = invited_by(&shown.seats, code)?;
        Some((mark, shown.names[mark.index()].clone()))
    }

    /// The seats `caller` holds, X's and O's: an account's seat whose player has the
    /// name of the account the caller is signed in as, or a guest's whose secret the
    /// caller carries (each secret compared with each lock, in constant time).
    pub fn held_by(&self, caller: &Caller) -> [bool; 2] {
        let shown = self.shown.borrow();
        Mark::ALL.map(|mark| match &shown.seats[mark.index()] {
            SeatHolder::Account => caller
                .account
                .as_ref()
                .is_some_and(|account| account.key() == shown.names[mark.index()].key()),
            SeatHolder::Guest(lock) => caller
                .secrets
                .iter()
                .fold(false, |opens, secret| secret.opens(lock) | opens),
            SeatHolder::Local | SeatHolder::Invited(_) => false,
        })
    }

    /// Waits for the table's turn: one request at a time, until the guard is dropped.
    pub async fn turn(&self) -> Turn {
        Arc::clone(&self.play).lock_owned().await
    }

    /// The game as it was after the last change the store kept.
    pub fn view(&self) -> Arc<GameView> {
        Arc::clone(&self.shown.borrow().view)
    }

    /// Changes to the view, as they happen: for the event stream.
    pub fn watch(&self) -> Views {
        Views(self.shown.subscribe())
    }

    /// How far the game has come as kept: steps taken, and whether it ended.
    pub fn progress(&self) -> (u32, bool) {
        self.shown.borrow().progress
    }

    /// When the game's clock ends it, as last kept: none without a clock, or over.
    pub fn deadline(&self) -> Option<SystemTime> {
        self.shown.borrow().deadline
    }

    /// The setup as the game stands: as it began, with each person called as the match
    /// calls them now (a person may have chosen their name since). Refused only if the
    /// two names clash, which the match never lets happen.
    pub fn setup_now(&self, play: &Play) -> Result<Setup, SettingsError> {
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
            clock: self.setup.clock,
        })
    }

    /// Runs `request` on the game in its turn, and hands the writes it made to `commit`
    /// before anyone else can change the game. Takes as long as the request: run it
    /// where `thinking` says. What it changed is not shown: see [`Table::publish`].
    pub fn request<T>(
        &self,
        play: &mut Play,
        commit: &GroupCommit,
        request: impl FnOnce(&mut Play) -> T,
    ) -> Done<T> {
        let asked = SystemTime::now();
        play.judge(asked);
        let before = (play.game.steps_taken(), play.game.game().moves().len());
        let answer = request(play);
        play.follow_clock(before, asked);
        let writes = play.game.recorder_mut().drain();
        let ticket = (!writes.is_empty()).then(|| commit.submit(writes));
        play.touched = Instant::now();
        Done {
            answer,
            shown: self.shown_now(play),
            ticket,
        }
    }

    /// Shows `shown` to everyone: call once what it shows is kept. The seats joined
    /// meanwhile (a page loaded) stay joined.
    pub fn publish(&self, shown: Shown) {
        self.shown.send_if_modified(|old| {
            let new = shown.joining(old.joined).unwrap_or(shown);
            let changed = old.view != new.view;
            *old = new;
            changed
        });
    }

    /// `seat`'s player has the game open: shown to everyone the first time. Only the
    /// seat is added to what is shown, never a view rebuilt from the match: a request
    /// may be waiting for the store to keep a change the view must not show yet.
    pub fn join(&self, seat: Mark) {
        let also = self.together(seat);
        self.shown
            .send_if_modified(|shown| match shown.joining(also) {
                Some(joined) => {
                    *shown = joined;
                    true
                }
                None => false,
            });
    }

    /// The seats a player at `seat` has open: two people on one device come together,
    /// one seat's token being both seats'.
    fn together(&self, seat: Mark) -> [bool; 2] {
        match self.setup.seating {
            Seating::Together => [true; 2],
            Seating::Apart => Mark::ALL.map(|mark| mark == seat),
        }
    }

    /// `seat`'s player acts through a request: joined, shown with the request's own
    /// change (one event, not two), or with the next one if it changes nothing.
    pub fn arrive(&self, seat: Mark) {
        let also = self.together(seat);
        self.shown.send_if_modified(|shown| {
            shown.joined = Mark::ALL.map(|mark| shown.joined[mark.index()] | also[mark.index()]);
            false
        });
    }

    /// Links the rematch the store now has, and shows it.
    pub fn set_rematch(&self, play: &mut Play, next: GameId) {
        play.rematch = Some(next);
        self.publish(self.shown_now(play));
    }

    /// [`Table::set_rematch`] for a rematch another server began: `false` if a request
    /// of this server's holds the turn, and the table must be read again.
    pub fn hear_rematch(&self, next: GameId) -> bool {
        let Ok(mut play) = self.play.try_lock() else {
            return false;
        };
        self.set_rematch(&mut play, next);
        true
    }

    /// What is shown of `play`, this table's game, with the seats known to have joined.
    fn shown_now(&self, play: &Play) -> Shown {
        shown_of(&self.id, play, &self.setup, self.shown.borrow().joined)
    }

    /// Takes what another server kept of this game (see `Games::hear`) and shows it:
    /// `false` if the table cannot follow (a request of this server's is under way, or
    /// the news does not follow on from what the table holds), and must be read again.
    pub fn take_news(&self, news: &[News]) -> bool {
        let Ok(mut play) = self.play.try_lock() else {
            return false;
        };
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
                News::Clock { clock, .. } => {
                    play.clock = Some(*clock);
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
        play.touched = Instant::now();
        self.publish(self.shown_now(&play));
        true
    }

    /// How long nobody has asked for the game, at `now`: none while a request holds
    /// its turn.
    pub fn idle_for(&self, now: Instant) -> Duration {
        match self.play.try_lock() {
            Ok(play) => now.saturating_duration_since(play.touched),
            Err(_) => Duration::ZERO,
        }
    }
}

/// The seat among `seats` held open for an invite that `code` opens, if any.
fn invited_by(seats: &[SeatHolder; 2], code: &Token) -> Option<Mark> {
    Mark::ALL
        .into_iter()
        .find(|mark| matches!(&seats[mark.index()], SeatHolder::Invited(lock) if code.opens(lock)))
}

/// What is shown of game `id` as `play` holds it, with the seats `joined`.
fn shown_of(id: &GameId, play: &Play, setup: &Setup, joined: [bool; 2]) -> Shown {
    let view = GameView::of(id, play, &setup.settings, joined_words(joined));
    Shown {
        view: Arc::new(view),
        seats: play.seats.clone(),
        names: Mark::ALL.map(|mark| play.game.seat(mark).name()),
        joined,
        progress: (play.game.steps_taken(), play.game.end().is_some()),
        deadline: play
            .clock
            .filter(|_| play.game.end().is_none())
            .map(|clock| clock.deadline()),
    }
}

/// The seats joined, as the view says them.
fn joined_words(joined: [bool; 2]) -> Vec<&'static str> {
    Mark::ALL
        .into_iter()
        .filter(|mark| joined[mark.index()])
        .map(mark_word)
        .collect()
}
