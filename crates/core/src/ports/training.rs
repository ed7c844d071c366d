//! Where the answers to training puzzles are kept: each [`Attempt`], through
//! [`TrainingStore`]. The rules (what makes a puzzle, judging an answer, when a puzzle
//! retires) are in `rules::training`; listing a player's puzzles in `play`.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::domain::PlayerName;

use super::{GameId, StoreError};

/// One answer to one puzzle, as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    /// Who answered (compared as the scoreboard compares names).
    pub player: PlayerName,
    /// The puzzle: its game and ply.
    pub game: GameId,
    pub ply: u32,
    /// When. The stores keep it to the millisecond ([`to_the_millisecond`]).
    pub at: SystemTime,
    pub right: bool,
}

impl Attempt {
    /// Whether this is an attempt at the puzzle of `game` and `ply`.
    pub fn at_puzzle(&self, game: &GameId, ply: u32) -> bool {
        self.game == *game && self.ply == ply
    }
}

/// `time` cut to the whole millisecond, as the stores keep it (a time before 1970 is
/// 1970).
pub fn to_the_millisecond(time: SystemTime) -> SystemTime {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let ms = u64::try_from(since.as_millis()).unwrap_or(u64::MAX);
    UNIX_EPOCH
        .checked_add(Duration::from_millis(ms))
        .unwrap_or(UNIX_EPOCH)
}

/// Where the answers to puzzles are kept. Every attempt is kept once: keeping the same
/// attempt again (same player, puzzle and moment, to the millisecond) is a no-op, so a
/// retried write never makes a second.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait TrainingStore: Send + Sync {
    /// Keeps `attempt` (its time to the millisecond); the same attempt kept before is
    /// left as it is.
    fn keep_attempt(&self, attempt: &Attempt) -> Result<(), StoreError>;

    /// `player`'s attempts (names compared as the scoreboard compares them), oldest
    /// first; attempts of the same millisecond in the order they were kept.
    fn attempts(&self, player: &PlayerName) -> Result<Vec<Attempt>, StoreError>;
}

impl<S: TrainingStore + ?Sized> TrainingStore for &S {
    fn keep_attempt(&self, attempt: &Attempt) -> Result<(), StoreError> {
        (**self).keep_attempt(attempt)
    }
    fn attempts(&self, player: &PlayerName) -> Result<Vec<Attempt>, StoreError> {
        (**self).attempts(player)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_is_cut_to_the_millisecond() {
        let time = UNIX_EPOCH + Duration::from_nanos(1_234_567_891);

        assert_eq!(
            to_the_millisecond(time),
            UNIX_EPOCH + Duration::from_millis(1_234)
        );
    }
}
