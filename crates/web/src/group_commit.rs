//! Recording many finished games at once. A busy server finishes hundreds of games a
//! second; written one by one, each would wait for its own lock, read, write and flush
//! of the scoreboard file. Instead, finished games are handed over without waiting
//! ([`GroupCommit::submit`]), and one writer thread takes every game handed over while
//! it was writing the last batch and records them together
//! ([`ScoreStore::record_all`]): one write per batch, each game still counted exactly
//! once. The request that finished a game awaits its [`Ticket`] before answering, so a
//! player who sees the result can already find it on the scoreboard, and no thread of
//! the async runtime ever waits for the disk.

use std::io;
use std::sync::{Arc, mpsc};
use std::thread;

use tokio::sync::oneshot;

use tictactoe_core::domain::{FinishedGame, Scoreboard};
use tictactoe_core::ports::{ScoreStore, StoreError};

type Answer = Result<Scoreboard, StoreError>;

struct Job {
    game: FinishedGame,
    answer: oneshot::Sender<Answer>,
}

/// The scoreboard as the server uses it: games recorded in batches on one writer
/// thread, the file read directly.
pub struct GroupCommit {
    store: Arc<dyn ScoreStore + Send + Sync>,
    /// `None` only while dropping, so the writer sees the queue close.
    jobs: Option<mpsc::Sender<Job>>,
    writer: Option<thread::JoinHandle<()>>,
}

/// A game handed to the writer: await [`Ticket::written`] to learn how its batch went.
pub struct Ticket(oneshot::Receiver<Answer>);

impl GroupCommit {
    pub fn new(store: impl ScoreStore + Send + Sync + 'static) -> Self {
        let store: Arc<dyn ScoreStore + Send + Sync> = Arc::new(store);
        let (jobs, queue) = mpsc::channel::<Job>();
        let writer = Arc::clone(&store);
        // The thread ends once the queue is closed and empty (see `Drop`).
        let writer = thread::spawn(move || {
            while let Ok(first) = queue.recv() {
                let mut batch = vec![first];
                batch.extend(queue.try_iter());
                let games: Vec<FinishedGame> = batch.iter().map(|job| job.game.clone()).collect();
                let answer = writer.record_all(&games);
                for job in batch {
                    // A caller that stopped waiting needs no answer.
                    let _ = job.answer.send(copy(&answer));
                }
            }
        });
        GroupCommit {
            store,
            jobs: Some(jobs),
            writer: Some(writer),
        }
    }

    /// Hands `game` to the writer and returns at once.
    pub fn submit(&self, game: FinishedGame) -> Ticket {
        let (answer, answered) = oneshot::channel();
        if let Some(jobs) = &self.jobs {
            // If the writer is gone, `answer` is dropped with the job and the ticket
            // says so.
            let _ = jobs.send(Job { game, answer });
        }
        Ticket(answered)
    }

    /// The scoreboard file as it is now (reads the disk: not on the async runtime).
    pub fn load(&self) -> Result<Scoreboard, StoreError> {
        self.store.load()
    }
}

impl Ticket {
    /// The scoreboard once the game's batch is written, or why it could not be.
    pub async fn written(self) -> Answer {
        self.0.await.map_err(|_| StoreError::Io {
            path: "scoreboard writer".into(),
            source: io::Error::other("the scoreboard's writer thread stopped"),
        })?
    }
}

/// Every game handed over before the drop is written before it returns: a server that
/// stops loses no result.
impl Drop for GroupCommit {
    fn drop(&mut self) {
        drop(self.jobs.take());
        if let Some(writer) = self.writer.take()
            && writer.join().is_err()
        {
            eprintln!(
                "tictactoe serve: the scoreboard's writer thread panicked: \
                 games handed over after its last batch were not recorded"
            );
        }
    }
}

/// One batch's answer for each of its games (errors hold an `io::Error`, not `Clone`).
fn copy(answer: &Answer) -> Answer {
    match answer {
        Ok(scoreboard) => Ok(scoreboard.clone()),
        Err(StoreError::Io { path, source }) => Err(StoreError::Io {
            path: path.clone(),
            source: io::Error::new(source.kind(), source.to_string()),
        }),
        Err(StoreError::Corrupt { path, detail }) => Err(StoreError::Corrupt {
            path: path.clone(),
            detail: detail.clone(),
        }),
        Err(StoreError::NewerFormat {
            path,
            found,
            supported,
        }) => Err(StoreError::NewerFormat {
            path: path.clone(),
            found: *found,
            supported: *supported,
        }),
        Err(StoreError::NoLocation) => Err(StoreError::NoLocation),
        Err(StoreError::Folder { path }) => Err(StoreError::Folder { path: path.clone() }),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::time::Duration;

    use super::*;
    use tictactoe_core::domain::{Mark, Outcome, PlayerName};
    use tictactoe_core::ports::MockScoreStore;

    fn game(x: &str) -> FinishedGame {
        FinishedGame {
            x: PlayerName::new(x).unwrap(),
            o: PlayerName::new("Bob").unwrap(),
            outcome: Outcome::Won(Mark::X),
        }
    }

    /// A store whose writes take 20 ms and count (games, writes) into `seen`.
    fn slow_counting_store(seen: &Arc<Mutex<(usize, usize)>>) -> MockScoreStore {
        let seen = Arc::clone(seen);
        let mut store = MockScoreStore::new();
        store.expect_record_all().returning(move |games| {
            thread::sleep(Duration::from_millis(20));
            let mut seen = seen.lock().unwrap();
            seen.0 += games.len();
            seen.1 += 1;
            Ok(Scoreboard::new())
        });
        store.expect_record().never();
        store
    }

    #[tokio::test]
    async fn games_finishing_together_are_each_recorded_once_in_fewer_writes() {
        // Arrange
        let seen = Arc::new(Mutex::new((0, 0)));
        let commit = GroupCommit::new(slow_counting_store(&seen));

        // Act: 40 games finish at once; each waits for its own write.
        let tickets: Vec<Ticket> = (0..40)
            .map(|n| commit.submit(game(&format!("P{n}"))))
            .collect();
        let mut answered = 0;
        for ticket in tickets {
            answered += usize::from(ticket.written().await.is_ok());
        }

        // Assert
        let (games, writes) = *seen.lock().unwrap();
        assert_eq!(answered, 40);
        assert_eq!(games, 40);
        assert!(writes < 40, "{writes} writes for 40 games");
    }

    #[tokio::test]
    async fn handing_over_a_game_does_not_wait_for_the_disk() {
        // Arrange: a store whose write cannot end until the test lets it.
        let (release, released) = mpsc::channel::<()>();
        let released = Mutex::new(released);
        let mut store = MockScoreStore::new();
        store.expect_record_all().returning(move |_| {
            let _ = released.lock().unwrap().recv();
            Ok(Scoreboard::new())
        });
        let commit = GroupCommit::new(store);

        // Act: had `submit` waited for the write, it would never return.
        let ticket = commit.submit(game("Ada"));
        release.send(()).unwrap();

        // Assert
        assert!(ticket.written().await.is_ok());
    }

    #[test]
    fn every_game_handed_over_is_written_before_the_group_commit_is_dropped() {
        // Arrange
        let seen = Arc::new(Mutex::new((0, 0)));
        let commit = GroupCommit::new(slow_counting_store(&seen));
        for n in 0..5 {
            drop(commit.submit(game(&format!("P{n}"))));
        }

        // Act
        drop(commit);

        // Assert
        assert_eq!(seen.lock().unwrap().0, 5);
    }

    #[tokio::test]
    async fn a_failed_write_is_every_waiting_games_error() {
        let mut store = MockScoreStore::new();
        store
            .expect_record_all()
            .returning(|_| Err(StoreError::NoLocation));
        let commit = GroupCommit::new(store);

        let answer = commit.submit(game("Ada")).written().await;

        assert!(matches!(answer, Err(StoreError::NoLocation)));
    }
}
