//! What the core needs from the outside world: a place to keep results
//! ([`ScoreStore`]). The players' contract (`MoveChooser`, `Advisor`,
//! `ComputerFactory`) is in [`crate::players`]. The core runs on these traits alone;
//! `main.rs` picks the implementations.

use std::io;
use std::path::PathBuf;

use thiserror::Error;

use crate::domain::{FinishedGame, Scoreboard};

/// What `reset` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reset {
    /// The scores were cleared; the old file, if it held any, is kept under `kept`.
    Cleared { kept: Option<PathBuf> },
    /// The old file could not be read, so it was kept under this name and a new one begun.
    MovedAside(PathBuf),
}

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("cannot use the scoreboard file {path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    /// The file is not a scoreboard. `reset` moves it aside; front ends say how.
    #[error("the scoreboard file {path} cannot be read ({detail}); it was left as it is")]
    Corrupt { path: PathBuf, detail: String },
    #[error(
        "the scoreboard file {path} was written by a newer version of tictactoe (format {found}; \
         this one reads up to {supported}); it was left as it is"
    )]
    NewerFormat {
        path: PathBuf,
        found: u64,
        supported: u64,
    },
    #[error(
        "there is no folder for the scoreboard: set TICTACTOE_SCOREBOARD or pass --scoreboard PATH"
    )]
    NoLocation,
    #[error("{} is a folder: the scoreboard must be a file, such as {}", path.display(), path.join("scores.json").display())]
    Folder { path: PathBuf },
}

/// Keeps the scoreboard between runs.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait ScoreStore {
    fn load(&self) -> Result<Scoreboard, StoreError>;
    /// Adds one finished game and returns the scoreboard with it counted.
    fn record(&self, game: &FinishedGame) -> Result<Scoreboard, StoreError>;
    fn reset(&self) -> Result<Reset, StoreError>;

    /// Adds several finished games, in one write where the store can (a server records
    /// the games that finished together this way). A store that overrides this counts
    /// all of them or, on an error, none; this default records them one by one, so an
    /// error may come after some were counted.
    fn record_all(&self, games: &[FinishedGame]) -> Result<Scoreboard, StoreError> {
        let mut counted = None;
        for game in games {
            counted = Some(self.record(game)?);
        }
        counted.map_or_else(|| self.load(), Ok)
    }
}

/// A store shared by reference is still a store: a session lends its store to each game.
impl<S: ScoreStore + ?Sized> ScoreStore for &S {
    fn load(&self) -> Result<Scoreboard, StoreError> {
        (**self).load()
    }
    fn record(&self, game: &FinishedGame) -> Result<Scoreboard, StoreError> {
        (**self).record(game)
    }
    fn reset(&self) -> Result<Reset, StoreError> {
        (**self).reset()
    }
    fn record_all(&self, games: &[FinishedGame]) -> Result<Scoreboard, StoreError> {
        (**self).record_all(games)
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use super::*;
    use crate::domain::{Mark, Outcome, PlayerName};

    /// A fake: a working store that keeps its scoreboard in memory. (A `MockScoreStore`
    /// would not do here: mockall mocks `record_all` too, and its default is the subject.)
    #[derive(Default)]
    struct InMemory(RefCell<Scoreboard>);

    impl ScoreStore for InMemory {
        fn load(&self) -> Result<Scoreboard, StoreError> {
            Ok(self.0.borrow().clone())
        }
        fn record(&self, game: &FinishedGame) -> Result<Scoreboard, StoreError> {
            self.0.borrow_mut().record(game);
            self.load()
        }
        fn reset(&self) -> Result<Reset, StoreError> {
            self.0.replace(Scoreboard::new());
            Ok(Reset::Cleared { kept: None })
        }
    }

    fn ada_beats(o: &str) -> FinishedGame {
        FinishedGame {
            x: PlayerName::new("Ada").unwrap(),
            o: PlayerName::new(o).unwrap(),
            outcome: Outcome::Won(Mark::X),
        }
    }

    fn wins_of_ada(scoreboard: &Scoreboard) -> u64 {
        let ada = PlayerName::new("Ada").unwrap();
        scoreboard.record_of(&ada).map_or(0, |record| record.wins)
    }

    #[test]
    fn by_default_recording_several_games_counts_each_and_answers_the_last_scoreboard() {
        let store = InMemory::default();

        let counted = store.record_all(&[ada_beats("Bob"), ada_beats("Cy")]);

        assert_eq!(wins_of_ada(&counted.unwrap()), 2);
        assert_eq!(wins_of_ada(&store.load().unwrap()), 2);
    }

    #[test]
    fn by_default_recording_no_games_answers_the_scoreboard_as_it_is() {
        let store = InMemory::default();
        store.record(&ada_beats("Bob")).unwrap();

        let counted = store.record_all(&[]);

        assert_eq!(wins_of_ada(&counted.unwrap()), 1);
    }

    #[test]
    fn a_store_lent_by_reference_is_the_same_store() {
        let store = InMemory::default();
        let lent: &InMemory = &store;

        ScoreStore::record(&lent, &ada_beats("Bob")).unwrap();
        let all = ScoreStore::record_all(&lent, &[ada_beats("Cy")]).unwrap();
        let loaded = ScoreStore::load(&lent).unwrap();
        let reset = ScoreStore::reset(&lent).unwrap();

        assert_eq!(wins_of_ada(&all), 2);
        assert_eq!(wins_of_ada(&loaded), 2);
        assert_eq!(reset, Reset::Cleared { kept: None });
        assert!(store.load().unwrap().is_empty());
    }
}
