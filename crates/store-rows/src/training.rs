//! The rows of `puzzle_attempts`, written once for both SQL stores: each answer to a
//! training puzzle ([`Attempt`]), what each column holds and its checks when read back;
//! the SQL is each store's.
//!
//! An attempt is filed under its player's name key, its puzzle (game and ply) and its
//! time in milliseconds since 1970; a unique index on the four makes the same attempt
//! kept again a no-op.

use tictactoe_core::domain::PlayerName;
use tictactoe_core::ports::{Attempt, GameId};

use crate::rows;

/// The columns of `puzzle_attempts` an [`AttemptRow`] holds, in its order.
pub const ATTEMPT_COLUMNS: &str = "name, game, ply, at, right_answer";

/// A row of `puzzle_attempts` ([`ATTEMPT_COLUMNS`]), before it is checked. Its `key`
/// column is the player's name key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptRow {
    pub name: String,
    pub game: String,
    pub ply: i64,
    /// Milliseconds since 1970.
    pub at: i64,
    pub right: bool,
}

impl AttemptRow {
    /// The row `attempt` is kept as (its time to the millisecond).
    pub fn of(attempt: &Attempt) -> AttemptRow {
        AttemptRow {
            name: attempt.player.as_str().to_owned(),
            game: attempt.game.to_string(),
            ply: i64::from(attempt.ply),
            at: rows::time_column(attempt.at),
            right: attempt.right,
        }
    }

    /// The attempt, checked.
    pub fn attempt(&self) -> Result<Attempt, String> {
        Ok(Attempt {
            // `stored`: a name kept under older rules is read back all the same.
            player: PlayerName::stored(&self.name)
                .map_err(|e| format!("a puzzle attempt's player {:?}: {e}", self.name))?,
            game: GameId::parse(&self.game).map_err(|e| format!("a puzzle attempt's game: {e}"))?,
            ply: u32::try_from(self.ply)
                .ok()
                .filter(|&ply| ply >= 1)
                .ok_or_else(|| format!("a puzzle attempt at ply {}", self.ply))?,
            at: rows::time(self.at)?,
            right: self.right,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use super::*;

    fn attempt() -> Attempt {
        Attempt {
            player: PlayerName::new("Ada").unwrap(),
            game: GameId::from_bits(7),
            ply: 4,
            at: UNIX_EPOCH + Duration::from_millis(1_700_000_000_123),
            right: true,
        }
    }

    #[test]
    fn an_attempt_reads_back_from_its_row_as_it_was_kept() {
        let row = AttemptRow::of(&attempt());

        assert_eq!(row.attempt(), Ok(attempt()));
    }

    #[rstest::rstest]
    #[case::at_no_ply(AttemptRow { ply: 0, ..AttemptRow::of(&attempt()) }, "at ply 0")]
    #[case::of_no_game(AttemptRow { game: "seven".into(), ..AttemptRow::of(&attempt()) }, "game")]
    #[case::after_the_year_9999(AttemptRow { at: i64::MAX, ..AttemptRow::of(&attempt()) }, "time")]
    fn a_row_that_is_no_attempt_is_unreadable_and_says_which_column(
        #[case] row: AttemptRow,
        #[case] column: &str,
    ) {
        let read = row.attempt();

        crate::assert_unreadable_naming(&read, column);
    }
}
