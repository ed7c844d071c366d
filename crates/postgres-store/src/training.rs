//! The answers to training puzzles (`migrations/0006_puzzle_attempts.sql`): the
//! [`TrainingStore`] port on `puzzle_attempts`. The rows are
//! `tictactoe_store_rows::training`'s.

use tictactoe_core::domain::PlayerName;
use tictactoe_core::ports::{Attempt, StoreError, TrainingStore};
use tictactoe_store_rows::training::{ATTEMPT_COLUMNS, AttemptRow};

use crate::PostgresStore;

impl TrainingStore for PostgresStore {
    fn keep_attempt(&self, attempt: &Attempt) -> Result<(), StoreError> {
        let row = AttemptRow::of(attempt);
        let key = attempt.player.key();
        self.execute_one(
            &format!(
                "INSERT INTO puzzle_attempts (key, {ATTEMPT_COLUMNS}) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING"
            ),
            &[&key, &row.name, &row.game, &row.ply, &row.at, &row.right],
        )?;
        Ok(())
    }

    fn attempts(&self, player: &PlayerName) -> Result<Vec<Attempt>, StoreError> {
        self.read_values(
            &format!(
                "SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE key = $1 ORDER BY at, number"
            ),
            &[&player.key()],
            AttemptRow::attempt,
        )
    }
}
