//! Keeping many requests' writes at once. A busy server takes thousands of moves a
//! second; written one by one, each would wait for its own transaction and flush.
//! Instead, each request hands its writes over without waiting
//! ([`GroupCommit::submit`]), and one writer thread takes every request's writes handed
//! over while it was writing the last batch and keeps them with one
//! [`GameStore::write_new`]. The request awaits its [`Ticket`] before it answers (and
//! before spectators see the change), so whatever a player was told is kept, and no
//! thread of the async runtime ever waits for the disk.
//!
//! The writes are kept with [`GameStore::write_new`]: a step the store already has is
//! not taken as a retry but refused, since on a store shared by several servers it
//! means another server kept that step first (the store decides the race; the request
//! that lost is told so). Alone on its store, a server never meets one.
//!
//! A batch is kept all or none, so one request's bad write (a conflict, a game the
//! store never saw begin) would fail every request batched with it. When a batch fails
//! for what one of its writes says, each request's writes are therefore written again
//! on their own, and only the requests whose own writes fail are told so: a failed
//! batch kept nothing, so writing again never writes anything twice. When it fails
//! because the store cannot be used (unreachable, its disk full, read-only), every
//! request in it is told at once: writing each again would only wait for the same
//! failure once per request. While the store is known to be down, a batch is not even
//! tried.
//!
//! When the store starts refusing writes for itself (a full disk, a read-only file, a
//! lock held elsewhere), the writer says so once, and once again when writes are kept
//! again, with how long they were refused and how many requests were: not one line
//! per refused request. (A store that cannot be reached at all is the health's to
//! report, in the same way.)

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use tictactoe_core::ports::{Change, GameStore, StoreError, Write};

use super::health::Health;
use super::port::GameError;
use tictactoe_core::sync::lock;

type Answer = Result<(), GameError>;

struct Job {
    writes: Vec<Write>,
    answer: oneshot::Sender<Answer>,
}

/// How much the group commit has done since it started: enough to say how many
/// requests, and writes, each commit carried (`requests / batches`, `writes / batches`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CommitCounts {
    /// Batches kept (each one `GameStore::write_new`, or the requests of a failed one
    /// written again one by one).
    pub batches: u64,
    /// Requests whose writes were kept.
    pub requests: u64,
    /// Writes (`Write` values) kept.
    pub writes: u64,
    /// Batches that failed for one of their writes, whose requests were then written
    /// one by one.
    pub failed_batches: u64,
    /// Requests whose writes were not kept (the store refused them, or could not be
    /// used).
    pub refused: u64,
}

#[derive(Default)]
struct Counters {
    batches: AtomicU64,
    requests: AtomicU64,
    writes: AtomicU64,
    failed_batches: AtomicU64,
    refused: AtomicU64,
}

/// The store's writes, in batches, on one writer thread. [`GroupCommit::close`] (or
/// dropping it) writes everything handed over first.
pub struct GroupCommit {
    /// `None` once closed, so the writer sees the queue close.
    jobs: Mutex<Option<mpsc::Sender<Job>>>,
    writer: Mutex<Option<thread::JoinHandle<()>>>,
    counters: Arc<Counters>,
}

/// A request's writes handed to the writer: await [`Ticket::written`] to learn whether
/// they were kept.
pub struct Ticket(oneshot::Receiver<Answer>);

impl GroupCommit {
    /// The writer of `store`, which asks `health` before each batch and tells it what
    /// the store said.
    pub fn new(store: Arc<dyn GameStore>, health: Health) -> Self {
        let (jobs, queue) = mpsc::channel::<Job>();
        let counters = Arc::new(Counters::default());
        let counting = Arc::clone(&counters);
        // The thread ends once the queue is closed and empty (see `close`).
        let writer = thread::Builder::new()
            .name("tictactoe-writer".into())
            .spawn(move || {
                let mut refusing = Refusing::default();
                while let Ok(first) = queue.recv() {
                    let mut batch = vec![first];
                    batch.extend(queue.try_iter());
                    commit(store.as_ref(), &health, batch, &counting, &mut refusing);
                }
            })
            .expect("the operating system starts the writer thread");
        GroupCommit {
            jobs: Mutex::new(Some(jobs)),
            writer: Mutex::new(Some(writer)),
            counters,
        }
    }

    /// Hands `writes` (one request's, in order) to the writer and returns at once. An
    /// empty list is answered once everything handed over before it has been written
    /// (or has failed): a way to wait for the writes in flight.
    pub fn submit(&self, writes: Vec<Write>) -> Ticket {
        let (answer, answered) = oneshot::channel();
        if let Some(jobs) = lock(&self.jobs).as_ref() {
            // If the writer is gone, `answer` is dropped with the job and the ticket
            // says so.
            let _ = jobs.send(Job { writes, answer });
        }
        Ticket(answered)
    }

    /// What the writer has done so far.
    pub fn counts(&self) -> CommitCounts {
        let read = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        CommitCounts {
            batches: read(&self.counters.batches),
            requests: read(&self.counters.requests),
            writes: read(&self.counters.writes),
            failed_batches: read(&self.counters.failed_batches),
            refused: read(&self.counters.refused),
        }
    }

    /// Writes everything handed over, then stops the writer: blocks until it has. A
    /// ticket asked for afterwards is answered that the writer stopped.
    pub fn close(&self) {
        drop(lock(&self.jobs).take());
        if let Some(writer) = lock(&self.writer).take()
            && writer.join().is_err()
        {
            tracing::error!(
                "the store's writer thread panicked: writes handed over after its last \
                 batch were not kept"
            );
        }
    }
}

/// Whether a failed batch failed for one of its writes (so that writing each
/// request's alone finds whose), rather than for the store itself.
fn for_a_write(error: &StoreError) -> bool {
    matches!(
        error,
        StoreError::Conflict { .. } | StoreError::NoSuchGame(_) | StoreError::Unreadable { .. }
    )
}

/// Since when, and how many requests, the store has refused to keep writes: the writer
/// says when this starts and when it ends, not at each refusal.
///
/// A disk that is nearly full keeps a small write and refuses the next: writes are
/// said to be kept again only once they have been kept for [`SETTLED`] without a
/// refusal between, so that a store that keeps one write in ten is one refusal, said
/// once, not a line for every change of mind.
#[derive(Default)]
struct Refusing(Option<Refusal>);

struct Refusal {
    since: Instant,
    refused: u64,
    /// The first write kept since the last refusal.
    kept_since: Option<Instant>,
}

/// How long writes must have been kept, without a refusal, to be said to be kept again.
const SETTLED: Duration = Duration::from_secs(1);

impl Refusing {
    /// The store refused a batch of `requests` requests for itself.
    fn refused(&mut self, error: &StoreError, requests: usize) {
        match &mut self.0 {
            Some(refusal) => {
                refusal.refused += requests as u64;
                refusal.kept_since = None;
            }
            None => {
                // An unreachable store is the health's to report (once too).
                if !matches!(error, StoreError::Unavailable { .. }) {
                    tracing::error!(
                        "the store refuses writes: {error}; every change is refused (503) \
                         until it takes them again"
                    );
                }
                self.0 = Some(Refusal {
                    since: Instant::now(),
                    refused: requests as u64,
                    kept_since: None,
                });
            }
        }
    }

    /// The store kept a batch.
    fn kept(&mut self) {
        self.kept_at(Instant::now());
    }

    fn kept_at(&mut self, now: Instant) {
        let Some(refusal) = &mut self.0 else {
            return;
        };
        let kept_since = *refusal.kept_since.get_or_insert(now);
        if now.saturating_duration_since(kept_since) < SETTLED {
            return;
        }
        let refused = refusal.refused;
        tracing::warn!(
            refused,
            "the store keeps writes again, after refusing them for {:.1} s ({refused} \
             requests refused)",
            kept_since
                .saturating_duration_since(refusal.since)
                .as_secs_f64()
        );
        self.0 = None;
    }
}

/// Writes one batch, and answers each of its requests.
fn commit(
    store: &dyn GameStore,
    health: &Health,
    mut batch: Vec<Job>,
    counters: &Counters,
    refusing: &mut Refusing,
) {
    // Every request's writes in one list, each request's place in it remembered.
    let mut all = Vec::new();
    let mut spans = Vec::with_capacity(batch.len());
    for job in &mut batch {
        let start = all.len();
        all.append(&mut job.writes);
        spans.push(start..all.len());
    }
    let requests = spans.iter().filter(|span| !span.is_empty()).count();
    if requests == 0 {
        for job in batch {
            let _ = job.answer.send(Ok(()));
        }
        return;
    }
    if let Some(why) = health.store_down() {
        refuse(batch, spans, counters, || GameError::StoreDown(why.clone()));
        return;
    }
    metrics::histogram!("tictactoe_commit_batch_requests").record(requests as f64);
    let started = Instant::now();
    let written = store.write_new(&all);
    metrics::histogram!("tictactoe_store_write_duration_seconds")
        .record(started.elapsed().as_secs_f64());
    match written {
        Ok(()) => {
            refusing.kept();
            kept(counters, requests, &all);
            for job in batch {
                // A caller that stopped waiting needs no answer.
                let _ = job.answer.send(Ok(()));
            }
        }
        Err(error) if requests > 1 && for_a_write(&error) => {
            // Someone's write spoiled the batch: each request alone, so that only the
            // one at fault is told.
            counters.failed_batches.fetch_add(1, Ordering::Relaxed);
            counters.batches.fetch_add(1, Ordering::Relaxed);
            for (job, span) in batch.into_iter().zip(spans) {
                let answer = if span.is_empty() {
                    Ok(())
                } else {
                    match store.write_new(&all[span.clone()]) {
                        Ok(()) => {
                            refusing.kept();
                            count_kept(counters, 1, &all[span]);
                            Ok(())
                        }
                        Err(error) => {
                            store_error(health, &error);
                            counters.refused.fetch_add(1, Ordering::Relaxed);
                            Err(GameError::Store(error))
                        }
                    }
                };
                let _ = job.answer.send(answer);
            }
        }
        Err(error) => {
            store_error(health, &error);
            if !for_a_write(&error) {
                refusing.refused(&error, requests);
            }
            refuse(batch, spans, counters, || GameError::Store(error.clone()));
        }
    }
}

/// A batch kept whole.
fn kept(counters: &Counters, requests: usize, writes: &[Write]) {
    counters.batches.fetch_add(1, Ordering::Relaxed);
    count_kept(counters, requests, writes);
}

fn count_kept(counters: &Counters, requests: usize, writes: &[Write]) {
    counters
        .requests
        .fetch_add(requests as u64, Ordering::Relaxed);
    counters
        .writes
        .fetch_add(writes.len() as u64, Ordering::Relaxed);
    let moves = writes
        .iter()
        .filter(|write| {
            matches!(
                write,
                Write::Step { step, .. } if matches!(step.change, Change::Move(_))
            )
        })
        .count();
    metrics::counter!("tictactoe_moves_total").increment(moves as u64);
}

/// Every request of the batch that wrote something is told `error()`.
fn refuse(
    batch: Vec<Job>,
    spans: Vec<std::ops::Range<usize>>,
    counters: &Counters,
    error: impl Fn() -> GameError,
) {
    for (job, span) in batch.into_iter().zip(spans) {
        let answer = if span.is_empty() {
            Ok(())
        } else {
            counters.refused.fetch_add(1, Ordering::Relaxed);
            Err(error())
        };
        let _ = job.answer.send(answer);
    }
}

/// What the writer met in the store, told to the health and counted.
fn store_error(health: &Health, error: &StoreError) {
    health.met(error);
    metrics::counter!("tictactoe_store_errors_total", "kind" => super::observe::store_error_kind(error))
        .increment(1);
}

impl Ticket {
    /// `Ok` once the request's writes are kept; why not if they could not be.
    pub async fn written(self) -> Answer {
        self.0.await.unwrap_or_else(|_| {
            Err(GameError::Broken(
                "the store's writer stopped before writing this request".into(),
            ))
        })
    }
}

/// Everything handed over before the drop is written before it returns: a server that
/// stops loses no write it accepted.
impl Drop for GroupCommit {
    fn drop(&mut self) {
        self.close();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::time::Duration;

    use mockall::predicate::function;
    use tictactoe_core::domain::Geometry;
    use tictactoe_core::fixtures::{new_game, settings};
    use tictactoe_core::memory::MemoryStore;
    use tictactoe_core::play::Seating;
    use tictactoe_core::players::PlayerSpec;
    use tictactoe_core::ports::{Change, GameId, MockGameStore, NewGame, Step, StoredGame};

    use super::*;
    use crate::health::{CheckFailed, Health};
    use crate::logged::logged;

    fn id(n: u128) -> GameId {
        GameId::from_bits(n)
    }

    fn begin(n: u128) -> Write {
        let settings = settings(PlayerSpec::Human(None), PlayerSpec::Human(None));
        Write::Begin(NewGame {
            seating: Seating::Apart,
            ..new_game(n, settings)
        })
    }

    /// Game `n`'s step `number`: a move on the cell of the same index.
    fn step(n: u128, number: u32) -> Write {
        let cell = Geometry::classic().position(number as usize - 1).unwrap();
        Write::Step {
            game: id(n),
            step: Step {
                number,
                change: Change::Move(cell),
            },
        }
    }

    fn kept(store: &MemoryStore, n: u128) -> Option<StoredGame> {
        store.game(&id(n)).unwrap()
    }

    /// A real store behind a mock that takes `pause` over each write and tells `seen`
    /// how many writes each call carried.
    fn slow_counting(store: Arc<MemoryStore>, pause: Duration) -> (MockGameStore, Seen) {
        let seen = Seen::default();
        let mut mock = MockGameStore::new();
        let sizes = Arc::clone(&seen.0);
        mock.expect_write_new().returning(move |writes| {
            thread::sleep(pause);
            sizes.lock().unwrap().push(writes.len());
            store.write_new(writes)
        });
        (mock, seen)
    }

    #[derive(Default, Clone)]
    struct Seen(Arc<Mutex<Vec<usize>>>);

    impl Seen {
        fn calls(&self) -> Vec<usize> {
            self.0.lock().unwrap().clone()
        }
    }

    #[tokio::test]
    async fn requests_arriving_together_are_kept_each_once_in_fewer_writes() {
        // Arrange: a store whose writes take 20 ms.
        let store = Arc::new(MemoryStore::new());
        let (mock, seen) = slow_counting(Arc::clone(&store), Duration::from_millis(20));
        let commit = GroupCommit::new(Arc::new(mock), Health::new());

        // Act: 40 games begin at once; each request waits for its own ticket.
        let tickets: Vec<Ticket> = (0..40).map(|n| commit.submit(vec![begin(n)])).collect();
        let mut answered = 0;
        for ticket in tickets {
            answered += usize::from(ticket.written().await.is_ok());
        }

        // Assert
        let calls = seen.calls();
        assert_eq!(answered, 40);
        assert!((0..40).all(|n| kept(&store, n).is_some()));
        assert_eq!(calls.iter().sum::<usize>(), 40);
        assert!(calls.len() < 40, "{} writes for 40 requests", calls.len());
    }

    #[tokio::test]
    async fn a_request_is_answered_only_once_its_writes_are_in_the_store() {
        // Arrange: a store that keeps nothing until the test lets it.
        let store = Arc::new(MemoryStore::new());
        let (release, released) = mpsc::channel::<()>();
        let released = Mutex::new(released);
        let mut mock = MockGameStore::new();
        let inner = Arc::clone(&store);
        mock.expect_write_new().returning(move |writes| {
            let _ = released.lock().unwrap().recv();
            inner.write_new(writes)
        });
        let commit = GroupCommit::new(Arc::new(mock), Health::new());

        // Act: had `submit` waited for the write, it would never return.
        let ticket = commit.submit(vec![begin(1)]);
        let mut written = Box::pin(ticket.written());
        let early = tokio::time::timeout(Duration::from_millis(50), &mut written).await;
        release.send(()).unwrap();
        let answer = written.await;

        // Assert: no answer while the write was held up; then kept, then answered.
        assert!(early.is_err(), "answered before the write: {early:?}");
        assert!(answer.is_ok());
        assert!(kept(&store, 1).is_some());
    }

    #[tokio::test]
    async fn a_request_whose_write_fails_fails_alone_and_the_others_in_its_batch_are_kept() {
        // Arrange: game 1 begun; then, in one batch (the store is held up until all
        // three are handed over), a step of game 1, a step of a game never begun, and
        // a new game.
        let store = Arc::new(MemoryStore::new());
        store.write(&[begin(1)]).unwrap();
        let (release, released) = mpsc::channel::<()>();
        let released = Mutex::new(Some(released));
        let mut mock = MockGameStore::new();
        let inner = Arc::clone(&store);
        mock.expect_write_new().returning(move |writes| {
            if let Some(released) = released.lock().unwrap().take() {
                let _ = released.recv();
            }
            inner.write_new(writes)
        });
        let commit = GroupCommit::new(Arc::new(mock), Health::new());
        let warm_up = commit.submit(Vec::from([step(1, 1)]));

        // Act
        let good = commit.submit(vec![step(1, 2)]);
        let bad = commit.submit(vec![step(99, 1)]);
        let other = commit.submit(vec![begin(2)]);
        release.send(()).unwrap();
        let answers = (
            warm_up.written().await,
            good.written().await,
            bad.written().await,
            other.written().await,
        );

        // Assert
        assert!(answers.0.is_ok() && answers.1.is_ok() && answers.3.is_ok());
        assert!(
            matches!(answers.2, Err(GameError::Store(StoreError::NoSuchGame(game))) if game == id(99))
        );
        assert_eq!(kept(&store, 1).unwrap().steps.len(), 2);
        assert!(kept(&store, 2).is_some());
        assert_eq!(commit.counts().failed_batches, 1);
    }

    #[tokio::test]
    async fn a_store_that_fails_tells_every_request_that_wrote() {
        // Arrange: a mock, since a failing store is an interaction: every write fails.
        let mut store = MockGameStore::new();
        store.expect_write_new().returning(|_| {
            Err(StoreError::Full {
                database: "games.db".into(),
            })
        });
        let commit = GroupCommit::new(Arc::new(store), Health::new());

        // Act
        let answers = [
            commit.submit(vec![begin(1)]).written().await,
            commit.submit(vec![begin(2)]).written().await,
        ];

        // Assert
        for answer in answers {
            assert!(
                matches!(answer, Err(GameError::Store(StoreError::Full { .. }))),
                "{answer:?}"
            );
        }
    }

    #[test]
    fn everything_handed_over_is_written_before_the_group_commit_is_dropped() {
        // Arrange
        let store = Arc::new(MemoryStore::new());
        let (mock, _) = slow_counting(Arc::clone(&store), Duration::from_millis(10));
        let commit = GroupCommit::new(Arc::new(mock), Health::new());
        for n in 0..5 {
            drop(commit.submit(vec![begin(n)]));
        }

        // Act
        drop(commit);

        // Assert
        assert!((0..5).all(|n| kept(&store, n).is_some()));
    }

    #[tokio::test]
    async fn an_empty_request_waits_for_the_writes_handed_over_before_it_and_writes_nothing() {
        // Arrange: a store that must be asked exactly once, for game 1's beginning.
        let store = Arc::new(MemoryStore::new());
        let inner = Arc::clone(&store);
        let mut mock = MockGameStore::new();
        mock.expect_write_new()
            .with(function(|writes: &[Write]| writes.len() == 1))
            .times(1)
            .returning(move |writes| {
                thread::sleep(Duration::from_millis(20));
                inner.write_new(writes)
            });
        let commit = GroupCommit::new(Arc::new(mock), Health::new());
        let first = commit.submit(vec![begin(1)]);

        // Act
        let settled = commit.submit(Vec::new()).written().await;

        // Assert: by then game 1 is kept.
        assert!(settled.is_ok());
        assert!(kept(&store, 1).is_some());
        assert!(first.written().await.is_ok());
    }

    #[tokio::test]
    async fn the_counts_say_how_many_requests_and_writes_each_batch_carried() {
        // Arrange
        let store = Arc::new(MemoryStore::new());
        let commit = GroupCommit::new(store, Health::new());

        // Act: one request of two writes, then one of one.
        commit
            .submit(vec![begin(1), step(1, 1)])
            .written()
            .await
            .unwrap();
        commit.submit(vec![step(1, 2)]).written().await.unwrap();

        // Assert
        assert_eq!(
            commit.counts(),
            CommitCounts {
                batches: 2,
                requests: 2,
                writes: 3,
                failed_batches: 0,
                refused: 0,
            }
        );
    }

    /// A store whose every write fails as unreachable, after `pause`, counting calls.
    fn unreachable_after(pause: Duration, calls: Arc<Mutex<usize>>) -> MockGameStore {
        let mut store = MockGameStore::new();
        store.expect_write_new().returning(move |_| {
            *calls.lock().unwrap() += 1;
            thread::sleep(pause);
            Err(StoreError::Unavailable {
                database: "postgres://db/games".into(),
                detail: "Connection refused".into(),
            })
        });
        store
    }

    #[tokio::test]
    async fn a_batch_the_store_cannot_take_fails_every_request_in_it_at_once() {
        // Arrange: the writer held up by a first request, so that the next three are
        // handed over together.
        let calls = Arc::new(Mutex::new(0));
        let store = unreachable_after(Duration::from_millis(50), Arc::clone(&calls));
        let commit = GroupCommit::new(Arc::new(store), Health::new());
        let first = commit.submit(vec![begin(1)]);

        // Act
        let rest: Vec<Ticket> = (2..5).map(|n| commit.submit(vec![begin(n)])).collect();
        let first = first.written().await;
        let mut answers = Vec::new();
        for ticket in rest {
            answers.push(ticket.written().await);
        }

        // Assert: two writes in all (the first request's, then the batch's), not one
        // per request; every request told.
        assert!(first.is_err());
        assert!(answers.iter().all(|answer| matches!(
            answer,
            Err(GameError::Store(StoreError::Unavailable { .. })) | Err(GameError::StoreDown(_))
        )));
        assert!(
            *calls.lock().unwrap() <= 2,
            "{} writes",
            calls.lock().unwrap()
        );
        assert_eq!(commit.counts().refused, 4);
    }

    #[tokio::test]
    async fn while_the_store_is_down_a_batch_is_not_tried() {
        // Arrange
        let calls = Arc::new(Mutex::new(0));
        let store = unreachable_after(Duration::ZERO, Arc::clone(&calls));
        let health = Health::new();
        health.checked(Err(CheckFailed::Answered("connection refused".into())));
        let commit = GroupCommit::new(Arc::new(store), health);

        // Act
        let answer = commit.submit(vec![begin(1)]).written().await;

        // Assert
        assert!(matches!(answer, Err(GameError::StoreDown(_))), "{answer:?}");
        assert_eq!(*calls.lock().unwrap(), 0);
    }

    #[tokio::test]
    async fn a_store_found_unreachable_by_a_write_is_down_for_the_next() {
        // Arrange
        let calls = Arc::new(Mutex::new(0));
        let store = unreachable_after(Duration::ZERO, Arc::clone(&calls));
        let health = Health::new();
        let commit = GroupCommit::new(Arc::new(store), health.clone());

        // Act
        let _ = commit.submit(vec![begin(1)]).written().await;

        // Assert
        assert!(health.store_down().is_some());
    }

    #[test]
    fn refusals_are_said_once_when_they_start_and_once_when_writes_are_kept_again() {
        // Arrange
        let full = StoreError::Full {
            database: "/data/games.db".into(),
        };
        let mut refusing = Refusing::default();

        // Act: 1,000 batches refused; one kept and the next refused (a disk nearly
        // full); then writes kept for longer than SETTLED.
        let lines = logged(|| {
            for _ in 0..1_000 {
                refusing.refused(&full, 3);
            }
            let kept = Instant::now();
            refusing.kept_at(kept);
            refusing.refused(&full, 1);
            refusing.kept_at(kept + Duration::from_millis(100));
            refusing.kept_at(kept + Duration::from_millis(500));
            refusing.kept_at(kept + Duration::from_millis(100) + SETTLED);
            refusing.kept_at(kept + Duration::from_millis(200) + SETTLED);
        });

        // Assert
        assert_eq!(lines.len(), 2, "{lines:#?}");
        assert!(lines[0].contains("ERROR") && lines[0].contains("/data/games.db is full"));
        assert!(lines[1].contains("WARN") && lines[1].contains("3001 requests refused"));
    }

    #[test]
    fn an_unreachable_store_is_left_to_the_health_to_report() {
        let mut refusing = Refusing::default();
        let unreachable = StoreError::Unavailable {
            database: "postgres://db/games".into(),
            detail: "Connection refused".into(),
        };

        let lines = logged(|| refusing.refused(&unreachable, 1));

        assert!(lines.is_empty(), "{lines:#?}");
    }
}
