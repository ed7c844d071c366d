//! Recording many finished games at once. A busy server finishes hundreds of games a
//! second; written one by one, each would wait for its own lock, read, write and flush
//! of the scoreboard file. Instead, one writer thread takes every game that finished
//! while it was writing the last batch and records them together
//! ([`ScoreStore::record_all`]): one write per batch, each game still counted exactly
//! once, and each caller answered only once its game is safely on disk.

use std::io;
use std::sync::mpsc;
use std::thread;

use crate::domain::{FinishedGame, Scoreboard};
use crate::ports::{Reset, ScoreStore, StoreError};

type Answer = Result<Scoreboard, StoreError>;

struct Job {
    game: FinishedGame,
    answer: mpsc::SyncSender<Answer>,
}

/// A [`ScoreStore`] that batches `record` onto one writer thread; loading and
/// resetting go straight to the store underneath.
pub struct GroupCommit<S> {
    store: std::sync::Arc<S>,
    jobs: mpsc::Sender<Job>,
}

impl<S: ScoreStore + Send + Sync + 'static> GroupCommit<S> {
    pub fn new(store: S) -> Self {
        let store = std::sync::Arc::new(store);
        let (jobs, queue) = mpsc::channel::<Job>();
        let writer = std::sync::Arc::clone(&store);
        // The thread ends when the last sender (this value) is dropped.
        thread::spawn(move || {
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
        GroupCommit { store, jobs }
    }
}

impl<S: ScoreStore> ScoreStore for GroupCommit<S> {
    fn load(&self) -> Result<Scoreboard, StoreError> {
        self.store.load()
    }

    /// Waits until the game is written, with the others that finished meanwhile.
    fn record(&self, game: &FinishedGame) -> Result<Scoreboard, StoreError> {
        let (answer, answered) = mpsc::sync_channel(1);
        let job = Job {
            game: game.clone(),
            answer,
        };
        let gone = || StoreError::Io {
            path: "scoreboard writer".into(),
            source: io::Error::other("the scoreboard's writer thread stopped"),
        };
        self.jobs.send(job).map_err(|_| gone())?;
        answered.recv().map_err(|_| gone())?
    }

    fn reset(&self) -> Result<Reset, StoreError> {
        self.store.reset()
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
    use std::sync::Arc;

    use super::*;
    use crate::domain::{Mark, Outcome, PlayerName};
    use crate::ports::MockScoreStore;

    fn game(x: &str) -> FinishedGame {
        FinishedGame {
            x: PlayerName::new(x).unwrap(),
            o: PlayerName::new("Bob").unwrap(),
            outcome: Outcome::Won(Mark::X),
        }
    }

    #[test]
    fn games_finishing_together_are_each_recorded_once_in_fewer_writes() {
        // Arrange: a store that counts the games and the writes it is given.
        let written = Arc::new(std::sync::Mutex::new((0, 0)));
        let mut store = MockScoreStore::new();
        let seen = Arc::clone(&written);
        store.expect_record_all().returning(move |games| {
            std::thread::sleep(std::time::Duration::from_millis(20));
            let mut seen = seen.lock().unwrap();
            seen.0 += games.len();
            seen.1 += 1;
            Ok(Scoreboard::new())
        });
        store.expect_record().never();
        let commit = Arc::new(GroupCommit::new(store));

        // Act: 40 games finish at once on 40 threads.
        let threads: Vec<_> = (0..40)
            .map(|n| {
                let commit = Arc::clone(&commit);
                thread::spawn(move || commit.record(&game(&format!("P{n}"))).is_ok())
            })
            .collect();
        let answered = threads.into_iter().all(|t| t.join().unwrap());

        // Assert
        let (games, writes) = *written.lock().unwrap();
        assert!(answered);
        assert_eq!(games, 40);
        assert!(writes < 40, "{writes} writes for 40 games");
    }

    #[test]
    fn a_failed_write_is_every_waiting_games_error() {
        let mut store = MockScoreStore::new();
        store
            .expect_record_all()
            .returning(|_| Err(StoreError::NoLocation));
        let commit = GroupCommit::new(store);

        let answer = commit.record(&game("Ada"));

        assert!(matches!(answer, Err(StoreError::NoLocation)));
    }
}
