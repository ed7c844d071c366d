//! The one way the server's games reach the store. The store's ports are synchronous
//! (a console game has no async runtime), and a call may block for as long as the
//! database takes, so no async code holds the store itself: [`StoreLane`] runs each
//! call on a blocking thread, a bounded number at once, and answers within a deadline
//! whatever the store does. (The PostgreSQL client even blocks on a runtime of its own,
//! which panics if called on one of the server's.)
//!
//! Three lanes, so that none waits behind another: users' reads (games read back, the
//! scoreboard, the history), the pacing of computer-against-computer games between
//! servers, and the health checks. Writes are the group commit's, on a thread of its
//! own (`group_commit`), which this lane makes.
//!
//! A thread stuck in a store that does not answer keeps its place in the lane until
//! the store lets it go, so stuck calls never pile up threads: the requests behind them
//! wait for a place, and are answered [`GameError::StoreSlow`] at the deadline. While
//! the store is known to be down ([`Health`]), nothing is tried: the answer is
//! [`GameError::StoreDown`] at once.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

use tictactoe_core::ports::{Archive, GameId, GameStore, Pacing, StoreError};

use super::group_commit::GroupCommit;
use super::health::{CHECK_DEADLINE, CheckFailed, Health};
use super::port::GameError;
use super::thinking;

/// The store, behind its lanes. See the module documentation.
pub struct StoreLane {
    store: Arc<dyn Archive>,
    reads: Arc<Semaphore>,
    checks: Arc<Semaphore>,
    pacing: Option<Paced>,
    health: Health,
    deadline: Duration,
}

/// The pacing of shows between servers, on a lane of its own.
struct Paced {
    pacing: Arc<dyn Pacing>,
    lane: Arc<Semaphore>,
}

/// Threads for the pacing lane: a move of a show every 600 ms is a few calls a second.
const PACING_THREADS: usize = 2;

impl StoreLane {
    /// `store`, read on at most `threads` threads at once, each call answered within
    /// `deadline`; `pacing` if the store is shared with other servers.
    pub fn new(
        store: Arc<dyn Archive>,
        pacing: Option<Arc<dyn Pacing>>,
        threads: usize,
        deadline: Duration,
        health: Health,
    ) -> Self {
        StoreLane {
            store,
            reads: Arc::new(Semaphore::new(threads.max(1))),
            checks: Arc::new(Semaphore::new(1)),
            pacing: pacing.map(|pacing| Paced {
                pacing,
                lane: Arc::new(Semaphore::new(PACING_THREADS)),
            }),
            health,
            deadline,
        }
    }

    /// The writer of this store's games: the group commit, on a thread of its own.
    pub fn group_commit(&self) -> GroupCommit {
        GroupCommit::new(
            Arc::clone(&self.store) as Arc<dyn GameStore>,
            self.health.clone(),
        )
    }

    /// Whether other servers share the store (it paces their shows with this one's).
    pub fn is_shared(&self) -> bool {
        self.pacing.is_some()
    }

    /// How long a request waits for the store.
    pub fn deadline(&self) -> Duration {
        self.deadline
    }

    pub fn health(&self) -> &Health {
        &self.health
    }

    /// `job` on the store, on the reads' lane.
    pub async fn read<T: Send + 'static>(
        &self,
        job: impl FnOnce(&dyn Archive) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, GameError> {
        let store = Arc::clone(&self.store);
        self.on(&self.reads, self.deadline, move || job(store.as_ref()))
            .await
    }

    /// Takes (or keeps) game `id` to pace for `hold` (see [`Pacing::pace`]); `false`
    /// if another server holds it. Never asked of a store not shared.
    pub async fn pace(&self, id: GameId, hold: Duration) -> Result<bool, GameError> {
        let Some(paced) = &self.pacing else {
            return Ok(true);
        };
        let pacing = Arc::clone(&paced.pacing);
        self.on(&paced.lane, self.deadline, move || pacing.pace(&id, hold))
            .await
    }

    /// Up to `most` shows whose server stopped holding them (see [`Pacing::unpaced`]).
    pub async fn unpaced(&self, most: u32) -> Result<Vec<GameId>, GameError> {
        let Some(paced) = &self.pacing else {
            return Ok(Vec::new());
        };
        let pacing = Arc::clone(&paced.pacing);
        self.on(&paced.lane, self.deadline, move || pacing.unpaced(most))
            .await
    }

    /// Checks the store (see `health`) and tells the health what it found.
    pub async fn check(&self) {
        let store = Arc::clone(&self.store);
        let checked = self
            .on_lane(&self.checks, CHECK_DEADLINE, move || store.checkup())
            .await;
        let outcome = match checked {
            Ok(Ok(())) => Ok(()),
            Ok(Err(error)) => Err(CheckFailed::Answered(error.to_string())),
            Err(error) => Err(CheckFailed::Silent(error.to_string())),
        };
        self.health.checked(outcome);
    }

    /// `job` on a blocking thread once `lane` has room, answered within `deadline`; not
    /// tried while the store is down; an unreachable store met marks it down.
    async fn on<T: Send + 'static>(
        &self,
        lane: &Arc<Semaphore>,
        deadline: Duration,
        job: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, GameError> {
        if let Some(why) = self.health.store_down() {
            return Err(GameError::StoreDown(why));
        }
        match self.on_lane(lane, deadline, job).await? {
            Ok(answer) => Ok(answer),
            Err(error) => {
                self.health.met(&error);
                Err(GameError::Store(error))
            }
        }
    }

    /// `job` on a blocking thread once `lane` has room; the place is held by the thread
    /// until the job returns, even if nobody waits for it any more.
    async fn on_lane<T: Send + 'static>(
        &self,
        lane: &Arc<Semaphore>,
        deadline: Duration,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, GameError> {
        let run = thinking::in_lane(lane, "a store lane", job);
        tokio::time::timeout(deadline, run)
            .await
            .map_err(|_| GameError::StoreSlow(deadline))?
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use tictactoe_core::memory::MemoryStore;

    use super::*;

    fn lane_over(store: Arc<dyn Archive>, threads: usize, deadline: Duration) -> StoreLane {
        StoreLane::new(store, None, threads, deadline, Health::new())
    }

    #[tokio::test]
    async fn a_read_is_answered_from_the_store() {
        // Arrange
        let lane = lane_over(Arc::new(MemoryStore::new()), 1, Duration::from_secs(5));

        // Act
        let kept = lane.read(|store| store.game(&GameId::from_bits(7))).await;

        // Assert
        assert!(matches!(kept, Ok(None)));
    }

    #[tokio::test]
    async fn a_store_that_does_not_answer_is_answered_slow_at_the_deadline() {
        // Arrange: a read that blocks until the test lets it go.
        let lane = lane_over(Arc::new(MemoryStore::new()), 1, Duration::from_millis(100));
        let (release, released) = mpsc::channel::<()>();

        // Act
        let started = std::time::Instant::now();
        let answer = lane
            .read(move |_| {
                let _ = released.recv();
                Ok(())
            })
            .await;

        // Assert
        assert!(matches!(answer, Err(GameError::StoreSlow(_))), "{answer:?}");
        assert!(started.elapsed() < Duration::from_secs(2));
        release.send(()).unwrap();
    }

    #[tokio::test]
    async fn a_read_behind_a_stuck_one_waits_for_its_place_no_longer_than_the_deadline() {
        // Arrange: the only thread stuck.
        let lane = Arc::new(lane_over(
            Arc::new(MemoryStore::new()),
            1,
            Duration::from_millis(100),
        ));
        let (release, released) = mpsc::channel::<()>();
        let stuck = lane.read(move |_| {
            let _ = released.recv();
            Ok(())
        });
        let _ = stuck.await;

        // Act: the stuck thread still holds the lane's only place.
        let behind = lane.read(|_| Ok(())).await;

        // Assert
        assert!(matches!(behind, Err(GameError::StoreSlow(_))), "{behind:?}");
        release.send(()).unwrap();
    }

    #[tokio::test]
    async fn an_unreachable_store_is_not_tried_again_until_a_check_answers() {
        // Arrange: a first read finds the store unreachable.
        let lane = lane_over(Arc::new(MemoryStore::new()), 1, Duration::from_secs(5));
        let first = lane
            .read(|_| -> Result<(), _> {
                Err(StoreError::Unavailable {
                    database: "db".into(),
                    detail: "Connection refused".into(),
                })
            })
            .await;
        let tried = Arc::new(std::sync::atomic::AtomicBool::new(false));

        // Act
        let second = lane
            .read({
                let tried = Arc::clone(&tried);
                move |_| {
                    tried.store(true, std::sync::atomic::Ordering::SeqCst);
                    Ok(())
                }
            })
            .await;
        lane.check().await;
        let after_the_check = lane.read(|_| Ok(())).await;

        // Assert
        assert!(matches!(first, Err(GameError::Store(_))));
        assert!(matches!(second, Err(GameError::StoreDown(_))), "{second:?}");
        assert!(!tried.load(std::sync::atomic::Ordering::SeqCst));
        assert!(after_the_check.is_ok());
    }
}
