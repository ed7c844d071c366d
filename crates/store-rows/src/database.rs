//! The database a store keeps, as the store's errors name it, and the errors about
//! what a store finds in it that every store words alike.

use std::fmt::Display;

use tictactoe_core::ports::StoreError;

/// The database as people know it: a file's path, or an address without its password.
/// Every error a store returns names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Database(pub String);

impl Database {
    /// What was read back is not what this program writes: `detail` says what.
    pub fn unreadable(&self, detail: impl Into<String>) -> StoreError {
        StoreError::Unreadable {
            database: self.0.clone(),
            detail: detail.into(),
        }
    }

    /// Game `game`, as read back, is not what this program writes: `detail` says what.
    pub fn unreadable_game(&self, game: impl Display, detail: impl Display) -> StoreError {
        self.unreadable(format!("game {game}: {detail}"))
    }

    /// Each of `rows` made a value by `value`, which checks it: the first row that makes
    /// none is unreadable, for the detail `value` gives.
    pub fn values_of<R, T>(
        &self,
        rows: &[R],
        value: impl Fn(&R) -> Result<T, String>,
    ) -> Result<Vec<T>, StoreError> {
        rows.iter()
            .map(|row| value(row).map_err(|detail| self.unreadable(detail)))
            .collect()
    }

    /// Whether this program, which knows the schema up to version `known`, may use a
    /// database of version `found`: one written by a newer version is refused (and the
    /// store leaves it as it is).
    pub fn check_version(&self, found: i64, known: i64) -> Result<(), StoreError> {
        if found > known {
            return Err(StoreError::Newer {
                database: self.0.clone(),
                found,
                known,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn database() -> Database {
        Database("games.db".to_string())
    }

    #[test]
    fn an_unreadable_game_is_named_with_its_database() {
        let error = database().unreadable_game("00ab", "step 3 follows step 1");

        assert_eq!(
            error,
            StoreError::Unreadable {
                database: "games.db".to_string(),
                detail: "game 00ab: step 3 follows step 1".to_string()
            }
        );
    }

    #[test]
    fn a_database_of_a_newer_version_is_refused_and_one_of_this_version_used() {
        assert_eq!(
            database().check_version(5, 4),
            Err(StoreError::Newer {
                database: "games.db".to_string(),
                found: 5,
                known: 4
            })
        );
        assert_eq!(database().check_version(4, 4), Ok(()));
        assert_eq!(database().check_version(0, 4), Ok(()));
    }
}
