//! The reviews of ended games under way: one computation per game at a time however
//! many pages poll for it, a few computations at once, each telling how far it has
//! come. The review itself is the core's (`play::review`), kept by the store once
//! computed; this module only says who computes it and when.
//!
//! A poll that finds no review kept and none under way starts one ([`Reviews::enter`]);
//! the computation, once it has its turn, looks in the store again first, so a review
//! kept by a computation that finished between the poll's look and its start is not
//! computed twice. A computation that failed is told to the next poll, once (503), and
//! the one after starts again.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};

use tictactoe_core::domain::{Analysis, Board, Mark};
use tictactoe_core::play::{Replay, review};
use tictactoe_core::players::Advisor;
use tictactoe_core::ports::{Archive, GameId, StoreError};

use super::error::ApiError;
use super::locks::lock;
use super::service::Reviewing;

/// One review under way: how many of the game's moves are reviewed, or why it failed.
pub struct Progress {
    done: AtomicUsize,
    total: usize,
    failed: Mutex<Option<ApiError>>,
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

pub struct Reviews {
    under_way: Mutex<HashMap<GameId, Arc<Progress>>>,
    /// Computations at once.
    lane: Arc<Semaphore>,
    /// Reviews under way (computing, or waiting for the lane) at once.
    most: usize,
    retry_after: Duration,
}

impl Reviews {
    /// `threads` computations at once, `most` reviews under way; a review asked for past
    /// that is told to come back after `retry_after`.
    pub fn new(threads: usize, most: usize, retry_after: Duration) -> Self {
        Reviews {
            under_way: Mutex::new(HashMap::new()),
            lane: Arc::new(Semaphore::new(threads.max(1))),
            most: most.max(1),
            retry_after,
        }
    }

    /// How the review of `game` under way stands, if one is: its progress, or its
    /// failure (told once; the next poll starts again).
    pub fn under_way(&self, game: &GameId) -> Option<Result<Reviewing, ApiError>> {
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
    pub fn enter(&self, game: &GameId, total: usize) -> Result<Entered, ApiError> {
        let mut under_way = lock(&self.under_way);
        // Failures nobody came back for do not hold places.
        under_way.retain(|_, progress| !progress.has_failed());
        if let Some(progress) = under_way.get(game) {
            return Ok(Entered::UnderWay(progress.standing()));
        }
        if under_way.len() >= self.most {
            return Err(ApiError::Reviewing {
                retry_after: self.retry_after,
            });
        }
        let progress = Arc::new(Progress::new(total));
        if let Entry::Vacant(place) = under_way.entry(game.clone()) {
            place.insert(Arc::clone(&progress));
        }
        Ok(Entered::Started(progress))
    }

    /// A place among the computations: waited for.
    pub async fn turn(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        Arc::clone(&self.lane)
            .acquire_owned()
            .await
            .map_err(|_| ApiError::Internal("the reviews' lane is closed".into()))
    }

    /// The review of `game` is over: kept (or given up as the server stops), so it is
    /// no longer under way; or failed, which the next poll is told.
    pub fn finish(&self, game: &GameId, outcome: Result<(), ApiError>) {
        let mut under_way = lock(&self.under_way);
        match outcome {
            Ok(()) => {
                under_way.remove(game);
            }
            Err(error) => match under_way.get(game) {
                Some(progress) => *lock(&progress.failed) = Some(error),
                None => eprintln!("tictactoe serve: the review of game {game}: {error}"),
            },
        }
    }
}

/// Reviews `replay` with `advisor` and keeps the review in `store`, telling `progress`
/// after each move; unless the store has one already, or the server stops meanwhile
/// (`closing`): a review cut short is not kept. Runs on a blocking thread: each
/// position may take the advisor's whole thinking time.
pub fn review_and_keep(
    store: &dyn Archive,
    (id, replay): (&GameId, &Replay),
    advisor: Box<dyn Advisor>,
    closing: watch::Receiver<bool>,
    progress: &Progress,
) -> Result<(), StoreError> {
    if store.review(id)?.is_some() {
        return Ok(());
    }
    let mut advisor = UntilClosing {
        advisor,
        closing,
        stopped: false,
    };
    let reviewed = review(replay, &mut advisor, &mut |done, _| {
        progress.done.store(done, Ordering::Relaxed);
    });
    if advisor.stopped {
        return Ok(());
    }
    store.keep_review(id, &reviewed)
}

/// An advisor that answers nothing once the server is stopping, so a review under way
/// ends at once instead of holding the stop up.
struct UntilClosing {
    advisor: Box<dyn Advisor>,
    closing: watch::Receiver<bool>,
    stopped: bool,
}

impl Advisor for UntilClosing {
    fn advise(&mut self, board: &dyn Board, to_move: Mark) -> Option<Analysis> {
        if *self.closing.borrow() {
            self.stopped = true;
            return None;
        }
        self.advisor.advise(board, to_move)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(bits: u128) -> GameId {
        GameId::from_bits(bits)
    }

    fn reviews(most: usize) -> Reviews {
        Reviews::new(1, most, Duration::from_secs(30))
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
        assert!(matches!(refused, Err(ApiError::Reviewing { .. })));
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
        reviews.finish(&game(1), Err(ApiError::Internal("broken".into())));

        // Act
        let told = reviews.under_way(&game(1));
        let after = reviews.under_way(&game(1));

        // Assert
        assert!(matches!(told, Some(Err(ApiError::Internal(_)))));
        assert!(after.is_none());
        assert!(matches!(
            reviews.enter(&game(1), 5),
            Ok(Entered::Started(_))
        ));
    }

    #[test]
    fn a_failure_nobody_came_back_for_holds_no_place() {
        // Arrange
        let reviews = reviews(1);
        let _started = reviews.enter(&game(1), 5);
        reviews.finish(&game(1), Err(ApiError::Internal("broken".into())));

        // Act
        let other = reviews.enter(&game(2), 5);

        // Assert
        assert!(matches!(other, Ok(Entered::Started(_))));
    }
}
