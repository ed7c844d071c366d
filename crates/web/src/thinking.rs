//! Where the games' work runs, so that no request waits behind another's slow work.
//!
//! * A 3x3 game's work runs right on the async runtime: every level answers there in
//!   microseconds (Impossible from the shared solver's table), far less than handing
//!   the work to another thread and back would cost. Its writes are handed to the
//!   store's writer without waiting for the disk (see `group_commit`).
//! * A bigger board's work, where Impossible thinks against the clock for up to
//!   `--think-ms`, runs on a blocking thread, at most `heavy` at once. A crowd of 7x7
//!   games then queues behind itself, never in front of a 3x3 move.
//! * Advice on a bigger board (a hint, a training answer judged) has a lane of its
//!   own, at most `advice` threads, with at most [`MOST_WAITING_ADVICE`] waiting
//!   (past them, refused at once): the computer's replies in games never wait behind
//!   someone's hints, and each client has one such request under way at a time
//!   (`budget`), so the queue takes each client's in turn.
//!
//! The store is reached through lanes of its own (`store_lane`).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::Semaphore;

use tictactoe_core::domain::Geometry;

use super::port::GameError;

/// Whose work it is: a game's (a move, the computer's reply) or advice about one (a
/// hint, a training answer judged).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    Play,
    Advice,
}

/// Advice waiting for the advice lane at most; past it, advice is refused at once.
pub const MOST_WAITING_ADVICE: usize = 32;

pub struct Thinking {
    heavy: Arc<Semaphore>,
    advice: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
}

impl Thinking {
    /// At most `heavy` threads for the games on boards above 3x3, and `advice` for
    /// the advice asked on them.
    pub fn new(heavy: usize, advice: usize) -> Self {
        Thinking {
            heavy: Arc::new(Semaphore::new(heavy.max(1))),
            advice: Arc::new(Semaphore::new(advice.max(1))),
            waiting: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Runs advice `work` on the advice lane once it has room; refused
    /// ([`GameError::EngineBusy`]) when too many wait already.
    async fn advise<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, GameError> {
        let waiting = Waiting::enter(&self.waiting).ok_or(GameError::EngineBusy)?;
        let lane = Arc::clone(&self.advice);
        let asked = std::time::Instant::now();
        in_lane(&lane, "the advice lane", move || {
            drop(waiting);
            metrics::histogram!("tictactoe_engine_wait_seconds")
                .record(asked.elapsed().as_secs_f64());
            work()
        })
        .await
    }

    /// Runs `work` for a game on `geometry`: at once on 3x3, else on a blocking thread
    /// once `lane` has room.
    pub async fn run<T: Send + 'static>(
        &self,
        lane: Lane,
        geometry: Geometry,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, GameError> {
        if geometry.size() <= 3 {
            return Ok(work());
        }
        match lane {
            Lane::Play => in_lane(&self.heavy, "the thinking lane", work).await,
            Lane::Advice => self.advise(work).await,
        }
    }
}

/// Runs `job` on a thread of its own (called `named`) at a lower scheduling priority
/// ([`lower_priority`]): work nobody waits for, which the players' requests go before.
pub(crate) async fn at_low_priority<T: Send + 'static>(
    named: &str,
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<T, GameError> {
    let (answer, answered) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name(named.into())
        .spawn(move || {
            lower_priority();
            let _ = answer.send(job());
        })
        .map_err(|error| GameError::Broken(format!("{named} could not start: {error}")))?;
    answered
        .await
        .map_err(|_| GameError::Broken(format!("{named} stopped")))
}

/// Asks the scheduler to run the calling thread after others: a nice value of 10. On
/// Linux a thread's nice value is its own (`setpriority` for the calling "process" sets
/// this thread's only); elsewhere it would set the whole process's, so nothing is
/// asked. A refusal (a container that forbids it) leaves the thread as it was.
pub(crate) fn lower_priority() {
    #[cfg(target_os = "linux")]
    let _ = rustix::process::setpriority_process(None, 10);
}

/// One piece of advice waiting for its lane, counted (and shown as the gauge
/// `tictactoe_engine_waiting`) until it starts or is given up.
struct Waiting(Arc<AtomicUsize>);

impl Waiting {
    fn enter(count: &Arc<AtomicUsize>) -> Option<Waiting> {
        count
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |now| {
                (now < MOST_WAITING_ADVICE).then_some(now + 1)
            })
            .ok()?;
        metrics::gauge!("tictactoe_engine_waiting").increment(1.0);
        Some(Waiting(Arc::clone(count)))
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
        metrics::gauge!("tictactoe_engine_waiting").decrement(1.0);
    }
}

/// Runs `job` on a blocking thread once `lane` has room; the place is held by that
/// thread until the job returns, even if nobody waits for its answer any more, so a
/// lane never has more threads than places. `named` names it in an error (its semaphore
/// closed, the job panicked).
pub(crate) async fn in_lane<T: Send + 'static>(
    lane: &Arc<Semaphore>,
    named: &str,
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<T, GameError> {
    let place = Arc::clone(lane)
        .acquire_owned()
        .await
        .map_err(|_| GameError::Broken(format!("{named} is closed")))?;
    tokio::task::spawn_blocking(move || {
        let answer = job();
        drop(place);
        answer
    })
    .await
    .map_err(|error| GameError::Broken(format!("a job of {named} stopped: {error}")))
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, mpsc};
    use std::time::Duration;

    use tokio::sync::oneshot;
    use tokio::time::timeout;

    use super::*;

    #[tokio::test]
    async fn a_small_board_is_not_kept_waiting_by_big_boards_thinking() {
        // Arrange: the only heavy thread busy with a big board's work, which ends only
        // when the test lets it, and another big board queued behind it.
        let thinking = Arc::new(Thinking::new(1, 1));
        let big = Geometry::new(7, 4).unwrap();
        let (started, has_started) = oneshot::channel();
        let (release, released) = mpsc::channel::<()>();
        let busy = tokio::spawn({
            let thinking = Arc::clone(&thinking);
            async move {
                let work = move || {
                    started.send(()).unwrap();
                    released.recv().unwrap();
                };
                thinking.run(Lane::Play, big, work).await
            }
        });
        let queued = tokio::spawn({
            let thinking = Arc::clone(&thinking);
            async move { thinking.run(Lane::Play, big, || ()).await }
        });
        has_started.await.unwrap();

        // Act: had the small board waited for the heavy lane, it would wait forever; the
        // timeout only turns that hang into a failure.
        let answer = timeout(
            Duration::from_secs(30),
            thinking.run(Lane::Play, Geometry::classic(), || 42),
        )
        .await
        .expect("the 3x3 work waited behind the big boards");

        // Assert: answered while both big boards were still held up.
        assert_eq!(answer.unwrap(), 42);
        assert!(!busy.is_finished() && !queued.is_finished());
        release.send(()).unwrap();
        busy.await.unwrap().unwrap();
        queued.await.unwrap().unwrap();
    }

    #[tokio::test] // one thread: the test's own
    async fn a_three_by_three_games_work_runs_at_once_on_the_runtimes_thread() {
        let thinking = Thinking::new(1, 1);
        let runtime_thread = std::thread::current().id();

        let ran_on = thinking
            .run(Lane::Play, Geometry::classic(), || {
                std::thread::current().id()
            })
            .await
            .unwrap();

        assert_eq!(ran_on, runtime_thread);
    }

    #[tokio::test] // one thread: work run on it would stop every other task
    async fn a_bigger_boards_work_runs_off_the_runtime_so_other_tasks_go_on() {
        // Arrange: work that waits for a message another task sends.
        let thinking = Thinking::new(1, 1);
        let (send, receive) = mpsc::channel();
        tokio::spawn(async move { send.send(()) });

        // Act
        let heard = thinking
            .run(Lane::Play, Geometry::new(4, 4).unwrap(), move || {
                receive.recv_timeout(Duration::from_secs(5)).is_ok()
            })
            .await
            .unwrap();

        // Assert: on the runtime's only thread the message could never have come.
        assert!(heard);
    }
}
