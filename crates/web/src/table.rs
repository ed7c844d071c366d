//! One game held by the server: the match, who holds which seat, and the latest view of
//! it that every client (and the event stream) reads.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::watch;

use tictactoe_core::domain::{FinishedGame, Mark};
use tictactoe_core::play::{Match, Recorder, Recording};

use super::dto::GameJson;
use super::locks::lock;
use super::setup::Setup;
use super::token::{GameId, Token};

/// A match as the server holds it.
pub type WebMatch = Match<Queued>;

/// How a web game offers its result: as queued for the scoreboard's group commit. The
/// match says so in its `Event::Finished`, and the request that receives that event
/// hands the game to the group commit (see `Games::run`): the events a request returns
/// are the only way a result comes back.
pub struct Queued;

impl Recorder for Queued {
    fn offer(&self, _game: &FinishedGame) -> Recording {
        Recording::Queued
    }
}

/// What is changed together, under one lock.
pub struct Play {
    pub game: WebMatch,
    pub rematch: Option<GameId>,
}

pub struct Table {
    id: GameId,
    setup: Setup,
    /// X's and O's; `None` for a computer's seat.
    tokens: [Option<Token>; 2],
    /// Locked only for the game's work (see `thinking`): microseconds on 3x3, where it
    /// runs on the async runtime; up to the think time on bigger boards, where it runs
    /// on a thread of its own.
    play: Mutex<Play>,
    view: watch::Sender<Arc<GameJson>>,
    touched: Mutex<Instant>,
}

impl Table {
    pub fn new(id: GameId, setup: Setup, tokens: [Option<Token>; 2], game: WebMatch) -> Self {
        let view = GameJson::of(&id, &game, &setup.settings, None);
        Table {
            id,
            setup,
            tokens,
            play: Mutex::new(Play {
                game,
                rematch: None,
            }),
            view: watch::Sender::new(Arc::new(view)),
            touched: Mutex::new(Instant::now()),
        }
    }

    pub fn id(&self) -> &GameId {
        &self.id
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    pub fn token(&self, mark: Mark) -> Option<&Token> {
        self.tokens[mark.index()].as_ref()
    }

    /// The seat `token` holds. Both seats are compared, in constant time each, whatever
    /// the first comparison said.
    pub fn seat_of(&self, token: &Token) -> Option<Mark> {
        let [x, o] =
            [Mark::X, Mark::O].map(|mark| self.token(mark).is_some_and(|held| held.matches(token)));
        match (x, o) {
            (true, _) => Some(Mark::X),
            (_, true) => Some(Mark::O),
            _ => None,
        }
    }

    /// The game as it was after the last change.
    pub fn view(&self) -> Arc<GameJson> {
        self.view.borrow().clone()
    }

    /// Changes to the view, as they happen: for the event stream.
    pub fn watch(&self) -> watch::Receiver<Arc<GameJson>> {
        self.view.subscribe()
    }

    /// Runs `request` on the game, then publishes the new view. Takes as long as the
    /// request: run it where `thinking` says.
    pub fn request<T>(&self, request: impl FnOnce(&mut Play) -> T) -> T {
        let mut play = lock(&self.play);
        let answer = request(&mut play);
        let view = GameJson::of(
            &self.id,
            &play.game,
            &self.setup.settings,
            play.rematch.as_ref(),
        );
        self.view.send_if_modified(|old| {
            let changed = **old != view;
            if changed {
                *old = Arc::new(view);
            }
            changed
        });
        self.touch();
        answer
    }

    pub fn touch(&self) {
        *lock(&self.touched) = Instant::now();
    }

    pub fn idle_for(&self, now: Instant) -> Duration {
        now.saturating_duration_since(*lock(&self.touched))
    }
}
