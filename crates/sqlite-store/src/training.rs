//! The answers to training puzzles (schema version 6): the [`TrainingStore`] port on
//! `puzzle_attempts`. The rows are `tictactoe_store_rows::training`'s.

use rusqlite::params;
use tictactoe_core::domain::PlayerName;
use tictactoe_core::ports::{Attempt, StoreError, TrainingStore};
use tictactoe_store_rows::training::{ATTEMPT_COLUMNS, AttemptRow};

use crate::{Sql, SqliteStore};

impl TrainingStore for SqliteStore {
    fn keep_attempt(&self, attempt: &Attempt) -> Result<(), StoreError> {
        let database = &self.database;
        let row = AttemptRow::of(attempt);
        self.in_write(|transaction| {
            transaction
                .prepare_cached(&format!(
                    "INSERT INTO puzzle_attempts (key, {ATTEMPT_COLUMNS}) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING"
                ))
                .db(database)?
                .execute(params![
                    attempt.player.key(),
                    row.name,
                    row.game,
                    row.ply,
                    row.at,
                    row.right
                ])
                .db(database)?;
            Ok(())
        })
    }

    fn attempts(&self, player: &PlayerName) -> Result<Vec<Attempt>, StoreError> {
        self.read_values(
            &format!(
                "SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE key = ?1 ORDER BY at, number"
            ),
            [player.key()],
            AttemptRow::attempt,
        )
    }
}
