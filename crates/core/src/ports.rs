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
