//! What the core needs from the outside world: a place to keep games and results
//! ([`GameStore`]). The players' contract (`MoveChooser`, `Advisor`,
//! `ComputerFactory`) is in [`crate::players`]. The core runs on these traits alone;
//! `main.rs` picks the implementations.
//!
//! A store keeps games, not tallies: each game when it begins, each step as it is
//! taken, and how it ended. The scoreboard is a view of the finished games (plus any
//! scoreboard imported from before there were games), kept up to date as each game
//! ends, so reading it never means counting every game again.
//!
//! What a store tells of its games beyond one by id (the history, a player's
//! opponents) is a port of its own, [`GameHistory`], and so is where reviews are kept
//! ([`ReviewStore`]), where the answers to training puzzles are ([`TrainingStore`]),
//! and where accounts, their sessions and their personal tokens are ([`AccountStore`]):
//! a front end that only plays needs none of them. Passwords are made into hashes, and
//! checked, by a port of their own ([`Passwords`]), which no store needs.

mod accounts;
mod conflict;
mod history;
mod passwords;
mod ratings;
mod records;
mod seeks;
mod shared;
mod training;

use std::time::SystemTime;

use thiserror::Error;

use crate::domain::{PlayerName, Scoreboard, Standing};

#[cfg(any(test, feature = "mocks"))]
pub use accounts::MockAccountStore;
pub use accounts::{
    Account, AccountStore, AccountSummary, Added, NewAccount, NewSession, NewToken, TokenId,
    TokenIdError, TokenInfo,
};
pub use conflict::Conflict;
pub use history::{
    Archive, GameHistory, GameSummary, HistoryPage, HistoryQuery, IdPrefix, IdPrefixError,
    Opponents, PageSize, PageSizeError, ReviewStore, Rivalry,
};
#[cfg(any(test, feature = "mocks"))]
pub use history::{MockGameHistory, MockReviewStore};
#[cfg(any(test, feature = "mocks"))]
pub use passwords::MockPasswords;
pub use passwords::{PasswordHash, PasswordHashError, Passwords};
#[cfg(any(test, feature = "mocks"))]
pub use ratings::MockRatingStore;
pub use ratings::{
    PlayerRating, RatingChange, RatingHistoryQuery, RatingListQuery, RatingPoint, RatingStore,
    Rebuilt,
};
pub use records::{
    Change, Ending, GameId, GameIdError, NewGame, SeatHolder, SecretLock, SecretLockError, Step,
    StoredGame, Write,
};
#[cfg(any(test, feature = "mocks"))]
pub use seeks::MockSeekStore;
pub use seeks::{NewSeek, Seek, SeekId, SeekIdError, SeekKind, SeekStore, Taken};
pub use shared::{Following, Hear, Heard, News, NewsFeed, Pacing, Shared};
#[cfg(any(test, feature = "mocks"))]
pub use shared::{MockNewsFeed, MockPacing};
#[cfg(any(test, feature = "mocks"))]
pub use training::MockTrainingStore;
pub use training::{Attempt, TrainingStore, to_the_millisecond};

/// Why a store could not do what it was asked. `database` names the store for people:
/// a file's path, or an address without its password. The advice (what to do about it)
/// is worded by the front ends.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StoreError {
    /// No folder for the database was found, and none was named.
    #[error("there is no folder for the database")]
    NoLocation,
    /// The name given is a folder, not a file.
    #[error("{database} is a folder, not a database file")]
    Folder { database: String },
    /// The file exists but is not a database of this program (or is damaged).
    #[error("{database} cannot be read ({detail}); it was left as it is")]
    Unreadable { database: String, detail: String },
    /// Written by a newer version of the program.
    #[error(
        "{database} was written by a newer version of tictactoe (schema {found}; this one \
         knows up to {known}); it was left as it is"
    )]
    Newer {
        database: String,
        found: i64,
        known: i64,
    },
    /// Another process holds the database's write lock for longer than the store waits.
    #[error("{database} is locked by another process")]
    Locked { database: String },
    /// The database may be read but not written.
    #[error("{database} is read-only")]
    ReadOnly { database: String },
    /// The disk (or a quota) is full.
    #[error("the disk holding {database} is full")]
    Full { database: String },
    /// Any other failure to reach or use the database.
    #[error("cannot use {database}: {detail}")]
    Unavailable { database: String, detail: String },
    /// A step or ending for a game the store has never seen begin.
    #[error("no game {0} was begun")]
    NoSuchGame(GameId),
    /// A write contradicts what is kept: another change under the same step number,
    /// a step after a gap, another ending, or another game under the same id. `detail`
    /// says which (made by [`Conflict::about`]): every store says the same of the same
    /// contradiction.
    #[error("game {game}: {detail}")]
    Conflict { game: GameId, detail: Conflict },
}

/// What [`GameStore::reset`] did. Nothing is deleted: the games stay, and
/// [`GameStore::restore`] counts them again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cleared {
    /// How many rows the scoreboard had.
    pub players: u64,
}

/// What [`GameStore::restore`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Restored {
    /// The scoreboard before the last reset is back, with the games since added.
    Restored { players: u64 },
    /// There was no reset to take back.
    NothingToRestore,
}

/// What [`GameStore::import`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Imported {
    /// The rows were added to the scoreboard, marked as imported.
    Added { players: u64 },
    /// A scoreboard from this source was imported before: nothing was added again.
    AlreadyImported,
}

/// Where a store hands the rows it streams: any `FnMut(Standing)` closure is one. (A
/// trait rather than `dyn FnMut`, which mockall cannot mock.)
pub trait Rows {
    fn row(&mut self, standing: Standing);
}

impl<F: FnMut(Standing)> Rows for F {
    fn row(&mut self, standing: Standing) {
        self(standing)
    }
}

/// Keeps games and the scoreboard that counts them. See the module documentation.
///
/// Every write is exactly-once by construction: a write the store already has is a
/// no-op ([`Write`]). Implementations are shared between threads (a server's requests)
/// and between processes on one database (a console game beside a server).
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait GameStore: Send + Sync {
    /// Keeps `writes` in order, all or none.
    fn write(&self, writes: &[Write]) -> Result<(), StoreError>;

    /// Keeps `writes` in order, all or none, as changes nobody kept before: a step or
    /// an ending the store already has, or a game already begun, is a
    /// [`StoreError::Conflict`] here, not a no-op. For a writer that shares its games
    /// with others (several servers on one database): to it, a step already kept under
    /// its number means another writer got there first, and the store decides the race.
    fn write_new(&self, writes: &[Write]) -> Result<(), StoreError>;

    /// A game as kept, or `None` if the store has no game of that id.
    fn game(&self, id: &GameId) -> Result<Option<StoredGame>, StoreError>;

    /// The scoreboard's rows in rank order (most wins, then fewest losses, then by
    /// name), the first `top` of them or all, handed to `each` one at a time so that a
    /// long table need not be held whole.
    fn standings(&self, top: Option<u64>, each: &mut dyn Rows) -> Result<(), StoreError>;

    /// The rows of these players only (names compared as the scoreboard compares them),
    /// in rank order: what is shown after a game, however long the table.
    fn standings_of(&self, names: &[PlayerName]) -> Result<Scoreboard, StoreError>;

    /// Clears the scoreboard, keeping every game, so that it can be restored.
    fn reset(&self) -> Result<Cleared, StoreError>;

    /// Takes back the last reset: its rows count again, with everything since.
    fn restore(&self) -> Result<Restored, StoreError>;

    /// Adds a scoreboard kept elsewhere (an older version's file) as imported rows,
    /// once per `source`.
    fn import(&self, source: &str, scoreboard: &Scoreboard) -> Result<Imported, StoreError>;

    /// Whether the store can be used now: a cheap question a server asks often (its
    /// readiness), answered with what stands in the way if it cannot.
    fn checkup(&self) -> Result<(), StoreError>;

    /// What the ends of `games` did to the ratings of the people in them, as kept with
    /// each end ([`rate`](crate::rules::rate)): each game's changes together, X's first, the games in the
    /// order asked. A game that rated nobody, has not ended, or is not kept has none.
    fn rating_changes(&self, games: &[GameId]) -> Result<Vec<RatingChange>, StoreError>;

    /// Games still played whose clock's deadline ([`GameClock::deadline`]) is `now` or
    /// earlier, the longest overdue first, at most `limit`: whoever holds the store
    /// (any of the servers sharing it) ends them.
    ///
    /// [`GameClock::deadline`]: crate::domain::GameClock::deadline
    fn overdue(&self, now: SystemTime, limit: usize) -> Result<Vec<GameId>, StoreError>;

    /// The scoreboard, the first `top` rows or all of it.
    fn scoreboard(&self, top: Option<u64>) -> Result<Scoreboard, StoreError> {
        let mut rows = Vec::new();
        self.standings(top, &mut |row| rows.push(row))?;
        Ok(Scoreboard::from_standings(rows))
    }
}

/// A store shared by reference is still a store: a session lends its store to each game.
impl<S: GameStore + ?Sized> GameStore for &S {
    fn write(&self, writes: &[Write]) -> Result<(), StoreError> {
        (**self).write(writes)
    }
    fn write_new(&self, writes: &[Write]) -> Result<(), StoreError> {
        (**self).write_new(writes)
    }
    fn game(&self, id: &GameId) -> Result<Option<StoredGame>, StoreError> {
        (**self).game(id)
    }
    fn overdue(&self, now: SystemTime, limit: usize) -> Result<Vec<GameId>, StoreError> {
        (**self).overdue(now, limit)
    }
    fn standings(&self, top: Option<u64>, each: &mut dyn Rows) -> Result<(), StoreError> {
        (**self).standings(top, each)
    }
    fn standings_of(&self, names: &[PlayerName]) -> Result<Scoreboard, StoreError> {
        (**self).standings_of(names)
    }
    fn reset(&self) -> Result<Cleared, StoreError> {
        (**self).reset()
    }
    fn restore(&self) -> Result<Restored, StoreError> {
        (**self).restore()
    }
    fn import(&self, source: &str, scoreboard: &Scoreboard) -> Result<Imported, StoreError> {
        (**self).import(source, scoreboard)
    }
    fn checkup(&self) -> Result<(), StoreError> {
        (**self).checkup()
    }
    fn rating_changes(&self, games: &[GameId]) -> Result<Vec<RatingChange>, StoreError> {
        (**self).rating_changes(games)
    }
}
