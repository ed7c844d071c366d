//! Where the games' work runs: off the async runtime, on a bounded number of threads.
//!
//! Everything that touches a match runs here, because any request may do slow work: a
//! computer thinking (up to `--think-ms` on a big board) or a finished game being
//! written to the scoreboard file. Two lanes keep the slow from starving the quick:
//! games on boards larger than 3x3, where Impossible thinks against the clock, share a
//! few `heavy` permits; 3x3 games, whose moves take microseconds once the shared
//! solver has seen the position, have lanes of their own. A crowd of 7x7 games then
//! queues behind itself, never in front of a 3x3 move.

use tokio::sync::Semaphore;

use crate::domain::Geometry;

use super::error::ApiError;

pub struct Thinking {
    light: Semaphore,
    heavy: Semaphore,
}

impl Thinking {
    /// `heavy` threads at most for boards above 3x3, `light` for 3x3.
    pub fn new(light: usize, heavy: usize) -> Self {
        Thinking {
            light: Semaphore::new(light.max(1)),
            heavy: Semaphore::new(heavy.max(1)),
        }
    }

    /// Runs `work` for a game on `geometry` on a blocking thread, once its lane has room.
    pub async fn run<T: Send + 'static>(
        &self,
        geometry: Geometry,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let lane = if geometry.size() > 3 {
            &self.heavy
        } else {
            &self.light
        };
        // The semaphore is never closed, so acquiring only waits.
        let _permit = lane
            .acquire()
            .await
            .map_err(|_| ApiError::Internal("the thinking pool is closed".into()))?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|error| ApiError::Internal(format!("a game's worker stopped: {error}")))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_small_board_is_not_kept_waiting_by_big_boards_thinking() {
        // Arrange: one heavy thread, kept busy by four slow big-board jobs.
        let thinking = Arc::new(Thinking::new(4, 1));
        let big = Geometry::new(7, 4).unwrap();
        for _ in 0..4 {
            let thinking = Arc::clone(&thinking);
            tokio::spawn(async move {
                thinking
                    .run(big, || std::thread::sleep(Duration::from_millis(300)))
                    .await
            });
        }
        tokio::time::sleep(Duration::from_millis(20)).await;

        // Act
        let started = Instant::now();
        let answer = thinking.run(Geometry::classic(), || 42).await.unwrap();

        // Assert
        assert_eq!(answer, 42);
        assert!(started.elapsed() < Duration::from_millis(200));
    }
}
