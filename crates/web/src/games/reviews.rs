//! The reviews of ended games: one computation per game at a time however many pages
//! poll for it, a few computations at once, each telling how far it has come. The
//! review itself is the core's (`play::review`), kept by the store once computed; this
//! module only says who computes it and when.
//!
//! A poll that finds no review kept and none under way starts one ([`Reviews::enter`]);
//! the computation, once it has its turn, looks in the store again first, so a review
//! kept by a computation that finished between the poll's look and its start is not
//! computed twice. A computation that failed is told to the next poll, once, and the
//! one after starts again.
//!
//! A review computed with the server's thinking time may leave some moves unsettled
//! (on 7x7, five in a row, the first few). It is answered and kept as it is, and then
//! completed in the background ([`Games::complete_review`]): the positions it left
//! unsettled, and only those, analysed again by a patient advisor ([`PATIENT_THINK`]
//! each, [`MOST_COMPLETION`] in all, on a thread at a lower priority than the players'
//! requests), one position at a time on the review lane (so a review asked for
//! meanwhile waits for one position at most), each paid for by whoever asked for the
//! review (once their share is spent, the positions left stay as they were), and
//! the result kept if it says more ([`ReviewStore::keep_review`] replaces a review that
//! was not exact by one that says more, never an exact one). A poll that finds a kept
//! review not exact starts its completion too (after a restart, say); each game's is
//! tried once per run of the server, one completion at a time.
//!
//! [`ReviewStore::keep_review`]: tictactoe_core::ports::ReviewStore::keep_review

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};

use tictactoe_core::domain::{Analysis, Board, Mark};
use tictactoe_core::play::{Replay, Review, complete, review};
use tictactoe_core::players::Advisor;
use tictactoe_core::ports::GameId;

use super::super::budget::{Budgets, Kind, Payer, Spending};
use super::super::port::{AfterTheEnd, GameError, Reviewing};
use super::super::thinking::at_low_priority;
use super::Games;
use tictactoe_core::sync::lock;

impl Games {
    /// The review kept, or how far its computation has come (started by this request if
    /// none is under way). Only an ended game is reviewed.
    ///
    /// Computing one draws on `payer`'s share of the computer's thinking (a poll of
    /// one under way, or of one kept, costs nothing). A 3x3 game's review (a few
    /// milliseconds) starts at once; a bigger board's waits for a review thread.
    pub(super) async fn review(&self, id: GameId, payer: Payer) -> Result<Reviewing, GameError> {
        if let Some(standing) = self.0.reviews.under_way(&id) {
            return standing;
        }
        let game = id.clone();
        let (kept_review, kept_game) = self
            .0
            .store
            .read(move |store| match store.review(&game)? {
                Some(review) => Ok((Some(review), None)),
                None => Ok((None, store.game(&game)?)),
            })
            .await?;
        if let Some(review) = kept_review {
            if !review.exact() {
                self.complete_review(&id, payer);
            }
            return Ok(Reviewing::Done { game: id, review });
        }
        let kept = kept_game.ok_or(GameError::NoSuchGame)?;
        if kept.ending.is_none() {
            return Err(GameError::StillPlaying(AfterTheEnd::Review));
        }
        let replay = Replay::of(&kept).map_err(|error| {
            GameError::Broken(format!("game {id} as kept cannot be replayed: {error}"))
        })?;
        let total = replay.moves().len();
        match self.0.reviews.enter(&id, total)? {
            Entered::UnderWay(standing) => Ok(standing),
            Entered::Started(progress) => {
                // Paid for by whoever starts it; refused, it was never under way.
                let spending = self.admit(payer.clone(), Kind::Review).inspect_err(|_| {
                    self.0.reviews.finish(&id, Ok(()));
                })?;
                self.spawn_review(id, replay, progress, (payer, spending));
                Ok(Reviewing::Computing { done: 0, total })
            }
        }
    }

    /// Computes the review of `replay` once a review thread is free, keeps it in the
    /// store, and says so to `progress`'s pollers. Given up when the server stops.
    fn spawn_review(
        &self,
        id: GameId,
        replay: Replay,
        progress: Arc<Progress>,
        paid: (Payer, Spending),
    ) {
        let games = self.clone();
        let small = replay.settings().geometry().size() <= 3;
        tokio::spawn(async move {
            let mut closing = games.0.closing.subscribe();
            let turn = if small {
                None
            } else {
                tokio::select! {
                    turn = games.0.reviews.turn() => Some(turn),
                    _ = closing.wait_for(|closed| *closed) => return games.0.reviews.finish(&id, Ok(())),
                }
            };
            let outcome = games
                .review_and_keep(&id, replay, &progress, turn, paid)
                .await;
            games.0.reviews.finish(&id, outcome);
        });
    }

    /// Unless the store has a review of `id` already, reviews `replay` on a blocking
    /// thread of its own (each position may take the advisor's whole thinking time),
    /// telling `progress` after each move, and keeps it; unless the server stops
    /// meanwhile: a review cut short is not kept.
    async fn review_and_keep(
        &self,
        id: &GameId,
        replay: Replay,
        progress: &Arc<Progress>,
        turn: Option<OwnedSemaphorePermit>,
        (payer, mut spending): (Payer, Spending),
    ) -> Result<(), GameError> {
        let game = id.clone();
        if self
            .0
            .store
            .read(move |store| store.review(&game))
            .await?
            .is_some()
        {
            return Ok(());
        }
        let advisor = lock(&self.0.computers).advisor();
        let closing = self.0.closing.subscribe();
        let counting = Arc::clone(progress);
        // What the payer has left (a second at least: a 3x3 review is milliseconds) is
        // all the review may think; then the positions left are not analysed, and the
        // review is kept not exact, to be completed later.
        let left = self.0.budgets.left(&payer, Instant::now());
        let until = Instant::now() + left.max(Duration::from_secs(1));
        let (reviewed, spent) = tokio::task::spawn_blocking(move || {
            let started = Instant::now();
            let advisor = UntilClosing {
                advisor,
                closing,
                until,
                stopped: false,
            };
            let reviewed = compute(&replay, advisor, &counting);
            drop(turn);
            (reviewed, started.elapsed())
        })
        .await
        .map_err(|error| GameError::Broken(format!("the review of game {id} stopped: {error}")))?;
        spending.spent(spent);
        drop(spending);
        let Some(reviewed) = reviewed else {
            return Ok(());
        };
        let exact = reviewed.exact();
        let game = id.clone();
        self.0
            .store
            .read(move |store| store.keep_review(&game, &reviewed))
            .await?;
        if !exact {
            self.complete_review(id, payer);
        }
        Ok(())
    }

    /// Completes the kept review of `id`, which was not exact, in the background, paid
    /// for by `payer` (whose review it is, or whose poll found it not exact): unless
    /// its completion was tried already in this run of the server, or as many
    /// completions are waiting as reviews may be under way, or the payer is not at rest
    /// (something of theirs under way, or their share not whole again: a later poll
    /// tries again). So a client that stops asking leaves no completion behind.
    fn complete_review(&self, id: &GameId, payer: Payer) {
        // Work nobody waits for waits for its payer to be at rest: not tried now, so a
        // later poll may, once they are.
        if !self.0.budgets.rested(&payer, Instant::now()) || !self.0.reviews.begin_completion(id) {
            return;
        }
        let games = self.clone();
        let id = id.clone();
        tokio::spawn(async move {
            let outcome = games.completed(&id, payer).await;
            games.0.reviews.end_completion();
            if let Err(error) = outcome {
                tracing::warn!(game = %id, "completing the review of a game: {error}");
            }
        });
    }

    /// The kept review of `id` completed by a patient advisor ([`complete`]: only the
    /// positions it left unsettled, each once), one completion at a time, each position
    /// on the review lane in turn and paid for by `payer` (refused, the positions left
    /// stay as they were); kept if it says more than the one kept (the store decides).
    /// Given up when the server stops.
    async fn completed(&self, id: &GameId, payer: Payer) -> Result<(), GameError> {
        let mut closing = self.0.closing.subscribe();
        let _alone = tokio::select! {
            one = Arc::clone(&self.0.reviews.completing).acquire_owned() => one,
            _ = closing.wait_for(|closed| *closed) => return Ok(()),
        };
        let kept = self.kept_game(id).await?;
        let replay = Replay::of(&kept).map_err(|error| {
            GameError::Broken(format!("game {id} as kept cannot be replayed: {error}"))
        })?;
        let game = id.clone();
        let Some(hurried) = self.0.store.read(move |store| store.review(&game)).await? else {
            return Ok(());
        };
        // All it may spend: what the payer has left, at most MOST_COMPLETION.
        let budgets = Arc::clone(&self.0.budgets);
        let total = budgets.left(&payer, Instant::now()).min(MOST_COMPLETION);
        if total.is_zero() {
            return Ok(());
        }
        // The patient advisor stops at once when the server does, or that is spent.
        let stop = Arc::new(AtomicBool::new(false));
        let raise = Arc::clone(&stop);
        let watcher = tokio::spawn(async move {
            let _ = tokio::time::timeout(total, closing.wait_for(|closed| *closed)).await;
            raise.store(true, Ordering::Relaxed);
        });
        let advisor = lock(&self.0.computers).patient_advisor(PATIENT_THINK, Arc::clone(&stop));
        let lane = Arc::clone(&self.0.reviews.lane);
        let runtime = tokio::runtime::Handle::current();
        let reviewed = at_low_priority("completing a review", move || {
            let mut advisor = TakingTurns {
                advisor,
                lane,
                runtime,
                stop,
                paid_by: (budgets, payer),
                refused: false,
            };
            // Stopped half-way, it still never says less than the kept review.
            complete(&replay, &hurried, &mut advisor)
        })
        .await;
        watcher.abort();
        let reviewed = reviewed?;
        let game = id.clone();
        self.0
            .store
            .read(move |store| store.keep_review(&game, &reviewed))
            .await
    }
}

/// How long the patient advisor that completes a review thinks about each position:
/// every (7,7,5) position measured settles within it (the slowest, 15 s; most take
/// under 5 s). So a completion holds the review lane for at most this long at a time,
/// and at most 49 times this in all (a 7x7 game of 49 moves, none settled at first).
pub const PATIENT_THINK: Duration = Duration::from_secs(20);

/// How long one completion may think in all (less if its payer has less left): past
/// it, the positions left stay as the first review left them, honestly not exact. A
/// 7x7 game whose every position is unsettled would otherwise hold a core for up to
/// 49 times [`PATIENT_THINK`]; most completions end far sooner.
pub const MOST_COMPLETION: Duration = Duration::from_secs(120);

/// An advisor that takes the review lane for each position it analyses and gives it
/// back after, so that a review asked for meanwhile waits for one position at most;
/// each position paid for by its payer, and none analysed once one was refused or
/// `stop` was raised.
struct TakingTurns {
    advisor: Box<dyn Advisor>,
    lane: Arc<Semaphore>,
    runtime: tokio::runtime::Handle,
    stop: Arc<AtomicBool>,
    /// Whose share of the computer's thinking each position draws on.
    paid_by: (Arc<Budgets>, Payer),
    /// A position was refused for the payer's share: the rest are not analysed.
    refused: bool,
}

impl Advisor for TakingTurns {
    fn advise(&mut self, board: &dyn Board, to_move: Mark) -> Option<Analysis> {
        if self.refused || self.stop.load(Ordering::Relaxed) {
            return None;
        }
        let (budgets, payer) = &self.paid_by;
        let Ok(mut spending) = budgets.admit(payer, Kind::Review, Instant::now()) else {
            self.refused = true;
            return None;
        };
        // On a blocking thread, outside the runtime's own threads: waiting is allowed.
        let _turn = self
            .runtime
            .block_on(Arc::clone(&self.lane).acquire_owned())
            .ok()?;
        let started = Instant::now();
        let advice = self.advisor.advise(board, to_move);
        spending.spent(started.elapsed());
        advice
    }
}

/// The review of `replay` by `advisor`, telling `progress` after each move; `None` if
/// the server began to stop before it was done.
fn compute(replay: &Replay, mut advisor: UntilClosing, progress: &Progress) -> Option<Review> {
    let reviewed = review(replay, &mut advisor, &mut |done, _| {
        progress.done.store(done, Ordering::Relaxed);
    });
    (!advisor.stopped).then_some(reviewed)
}

/// One review under way: how many of the game's moves are reviewed, or why it failed.
pub struct Progress {
    done: AtomicUsize,
    total: usize,
    failed: Mutex<Option<GameError>>,
}

impl Progress {
    fn new(total: usize) -> Self {
        Progress {
            done: AtomicUsize::new(0),
            total,
            failed: Mutex::new(None),
        }
    }

    fn standing(&self) -> Reviewing {
        Reviewing::Computing {
            done: self.done.load(Ordering::Relaxed),
            total: self.total,
        }
    }

    fn has_failed(&self) -> bool {
        lock(&self.failed).is_some()
    }
}

/// What a poll that found no review kept is to answer: the review it started, or the
/// one already under way.
pub enum Entered {
    Started(Arc<Progress>),
    UnderWay(Reviewing),
}

/// The reviews under way, and the lane they are computed on.
pub struct Reviews {
    under_way: Mutex<HashMap<GameId, Arc<Progress>>>,
    /// Computations at once.
    lane: Arc<Semaphore>,
    /// Reviews under way (computing, or waiting for the lane) at once.
    most: usize,
    /// One completion at a time ([`Games::complete_review`]).
    completing: Arc<Semaphore>,
    /// The games whose completion was tried in this run, and how many completions are
    /// waiting or under way.
    completions: Mutex<(HashSet<GameId>, usize)>,
}

impl Reviews {
    /// `threads` computations at once, `most` reviews under way; a review asked for past
    /// that is refused ([`GameError::ReviewsFull`]).
    pub fn new(threads: usize, most: usize) -> Self {
        Reviews {
            under_way: Mutex::new(HashMap::new()),
            lane: Arc::new(Semaphore::new(threads.max(1))),
            most: most.max(1),
            completing: Arc::new(Semaphore::new(1)),
            completions: Mutex::new((HashSet::new(), 0)),
        }
    }

    /// Whether to start completing the review of `game`: not if it was tried already
    /// in this run, nor while `most` completions are waiting or under way.
    pub fn begin_completion(&self, game: &GameId) -> bool {
        let mut completions = lock(&self.completions);
        let (tried, waiting) = &mut *completions;
        if *waiting >= self.most || tried.contains(game) {
            return false;
        }
        tried.insert(game.clone());
        *waiting += 1;
        true
    }

    /// A completion begun is over.
    pub fn end_completion(&self) {
        let mut completions = lock(&self.completions);
        completions.1 = completions.1.saturating_sub(1);
    }

    /// How the review of `game` under way stands, if one is: its progress, or its
    /// failure (told once; the next poll starts again).
    pub fn under_way(&self, game: &GameId) -> Option<Result<Reviewing, GameError>> {
        let mut under_way = lock(&self.under_way);
        let progress = Arc::clone(under_way.get(game)?);
        let failed = lock(&progress.failed).take();
        match failed {
            Some(error) => {
                under_way.remove(game);
                Some(Err(error))
            }
            None => Some(Ok(progress.standing())),
        }
    }

    /// Starts the review of `game` (of `total` moves), unless one is under way: then
    /// its progress. Refused while `most` reviews are under way.
    pub fn enter(&self, game: &GameId, total: usize) -> Result<Entered, GameError> {
        let mut under_way = lock(&self.under_way);
        // Failures nobody came back for do not hold places.
        under_way.retain(|_, progress| !progress.has_failed());
        if let Some(progress) = under_way.get(game) {
            return Ok(Entered::UnderWay(progress.standing()));
        }
        if under_way.len() >= self.most {
            return Err(GameError::ReviewsFull);
        }
        let progress = Arc::new(Progress::new(total));
        if let Entry::Vacant(place) = under_way.entry(game.clone()) {
            place.insert(Arc::clone(&progress));
        }
        Ok(Entered::Started(progress))
    }

    /// A place among the computations: waited for. (The lane is never closed.)
    pub async fn turn(&self) -> OwnedSemaphorePermit {
        loop {
            if let Ok(place) = Arc::clone(&self.lane).acquire_owned().await {
                return place;
            }
        }
    }

    /// The review of `game` is over: kept (or given up as the server stops), so it is
    /// no longer under way; or failed, which the next poll is told.
    pub fn finish(&self, game: &GameId, outcome: Result<(), GameError>) {
        let mut under_way = lock(&self.under_way);
        match outcome {
            Ok(()) => {
                under_way.remove(game);
            }
            Err(error) => match under_way.get(game) {
                Some(progress) => *lock(&progress.failed) = Some(error),
                None => tracing::warn!(game = %game, "the review of a game: {error}"),
            },
        }
    }
}

/// An advisor that answers nothing once the server is stopping, so a review under way
/// ends at once instead of holding the stop up; nor past `until`, when the payer's
/// share is spent (the review then says nothing of the positions left).
struct UntilClosing {
    advisor: Box<dyn Advisor>,
    closing: watch::Receiver<bool>,
    until: Instant,
    stopped: bool,
}

impl Advisor for UntilClosing {
    fn advise(&mut self, board: &dyn Board, to_move: Mark) -> Option<Analysis> {
        if *self.closing.borrow() {
            self.stopped = true;
            return None;
        }
        if Instant::now() >= self.until {
            return None;
        }
        self.advisor.advise(board, to_move)
    }
}

#[cfg(test)]
mod tests {
    use tictactoe_core::players::MockAdvisor;

    use super::*;

    fn game(bits: u128) -> GameId {
        GameId::from_bits(bits)
    }

    fn reviews(most: usize) -> Reviews {
        Reviews::new(1, most)
    }

    /// A completion's advisor, paid for by a payer with a share of `share`.
    fn taking_turns(patient: MockAdvisor, share: Duration) -> TakingTurns {
        let budgets = Budgets::new(crate::budget::Budget {
            burst: share,
            refill: 1e-9,
        });
        let payer = Payer {
            client: crate::shares::Client::of(std::net::IpAddr::from([192, 0, 2, 1])),
            account: None,
        };
        TakingTurns {
            advisor: Box::new(patient),
            lane: Arc::new(Semaphore::new(1)),
            runtime: tokio::runtime::Builder::new_current_thread()
                .build()
                .unwrap()
                .handle()
                .clone(),
            stop: Arc::new(AtomicBool::new(false)),
            paid_by: (budgets, payer),
            refused: false,
        }
    }

    fn empty_board() -> tictactoe_core::domain::BitBoard {
        tictactoe_core::domain::BitBoard::new(tictactoe_core::domain::Geometry::classic())
    }

    #[test]
    fn a_completion_whose_payer_has_spent_their_share_analyses_nothing_more() {
        // Arrange: a share that one position spends; neither advisor may be asked
        // after it.
        let mut patient = MockAdvisor::new();
        patient.expect_advise().times(1).returning(|_, _| {
            std::thread::sleep(Duration::from_millis(2));
            None
        });
        let mut advisor = taking_turns(patient, Duration::from_millis(1));
        let _first = advisor.advise(&empty_board(), Mark::X);

        // Act
        let second = advisor.advise(&empty_board(), Mark::X);
        let third = advisor.advise(&empty_board(), Mark::O);

        // Assert: nothing (and the mocks were asked once in all).
        assert!(second.is_none() && third.is_none());
    }

    #[test]
    fn a_completion_whose_time_is_up_analyses_nothing_more() {
        // Arrange: the advisor must not be asked.
        let mut patient = MockAdvisor::new();
        patient.expect_advise().never();
        let advisor = taking_turns(patient, Duration::from_secs(20));
        advisor.stop.store(true, Ordering::Relaxed);
        let mut advisor = advisor;

        // Act
        let analysis = advisor.advise(&empty_board(), Mark::X);

        // Assert
        assert!(analysis.is_none());
    }

    #[test]
    fn a_second_poll_joins_the_review_under_way_instead_of_starting_another() {
        // Arrange
        let reviews = reviews(8);
        let Ok(Entered::Started(progress)) = reviews.enter(&game(1), 5) else {
            panic!("the first poll starts the review");
        };
        progress.done.store(2, Ordering::Relaxed);

        // Act
        let second = reviews.enter(&game(1), 5);

        // Assert
        assert!(matches!(
            second,
            Ok(Entered::UnderWay(Reviewing::Computing {
                done: 2,
                total: 5
            }))
        ));
    }

    #[test]
    fn past_the_most_reviews_under_way_a_new_one_is_refused_for_a_while() {
        // Arrange
        let reviews = reviews(1);
        let _first = reviews.enter(&game(1), 5);

        // Act
        let refused = reviews.enter(&game(2), 5);

        // Assert
        assert!(matches!(refused, Err(GameError::ReviewsFull)));
    }

    #[test]
    fn a_finished_review_is_no_longer_under_way() {
        // Arrange
        let reviews = reviews(8);
        let _started = reviews.enter(&game(1), 5);

        // Act
        reviews.finish(&game(1), Ok(()));

        // Assert
        assert!(reviews.under_way(&game(1)).is_none());
    }

    #[test]
    fn a_failed_review_is_told_to_the_next_poll_once_and_the_one_after_starts_again() {
        // Arrange
        let reviews = reviews(8);
        let _started = reviews.enter(&game(1), 5);
        reviews.finish(&game(1), Err(GameError::Broken("broken".into())));

        // Act
        let told = reviews.under_way(&game(1));
        let after = reviews.under_way(&game(1));

        // Assert
        assert!(matches!(told, Some(Err(GameError::Broken(_)))));
        assert!(after.is_none());
        assert!(matches!(
            reviews.enter(&game(1), 5),
            Ok(Entered::Started(_))
        ));
    }

    #[test]
    fn a_review_is_completed_once_per_run_and_no_more_at_once_than_the_most_under_way() {
        // Arrange
        let reviews = reviews(1);
        let first = reviews.begin_completion(&game(1));

        // Act
        let again = reviews.begin_completion(&game(1));
        let another_meanwhile = reviews.begin_completion(&game(2));
        reviews.end_completion();
        let another_after = reviews.begin_completion(&game(2));

        // Assert
        assert!(first);
        assert!(!again);
        assert!(!another_meanwhile);
        assert!(another_after);
    }

    #[test]
    fn a_failure_nobody_came_back_for_holds_no_place() {
        // Arrange
        let reviews = reviews(1);
        let _started = reviews.enter(&game(1), 5);
        reviews.finish(&game(1), Err(GameError::Broken("broken".into())));

        // Act
        let other = reviews.enter(&game(2), 5);

        // Assert
        assert!(matches!(other, Ok(Entered::Started(_))));
    }
}
