//! Finding an opponent: seeks, kept in the store so that every server sharing it sees the
//! same lobby and pool. A seek is a person's wish to play a game on a board and a clock:
//! shown in the lobby for anyone to accept ([`SeekKind::Lobby`]), or waiting in the pool
//! to be paired by rating ([`SeekKind::Pool`], see [`pair`](crate::rules::pair)). Either
//! way it ends taken into a game (both seats' holders known, each in their own seat),
//! closed by its owner, or forgotten once its owner shows no sign of life.

use std::fmt;
use std::time::SystemTime;

use thiserror::Error;

use crate::domain::{Geometry, Mark, PlayerName, TimeControl};

use super::records::hex_digits;
use super::{GameId, SeatHolder, StoreError};

/// A seek's name in a store and in URLs: 32 lowercase hex digits (128 random bits).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SeekId(String);

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("a seek id is 32 hex digits")]
pub struct SeekIdError;

impl SeekId {
    pub fn from_bits(bits: u128) -> Self {
        SeekId(format!("{bits:032x}"))
    }

    pub fn parse(text: &str) -> Result<Self, SeekIdError> {
        hex_digits(text, 32).map(SeekId).ok_or(SeekIdError)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SeekId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Where a seek waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SeekKind {
    /// Shown in the lobby, for anyone to accept.
    Lobby,
    /// In the quick-pairing pool, paired by rating by the servers.
    Pool,
}

/// A seek as its owner opens it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSeek {
    pub id: SeekId,
    pub kind: SeekKind,
    /// The name its owner plays under: an account's, or a guest's.
    pub owner: PlayerName,
    /// Whose seat the owner's will be: [`SeatHolder::Account`] (the account the name
    /// is), or [`SeatHolder::Guest`] with the lock of the secret the owner holds.
    pub holder: SeatHolder,
    pub board: Geometry,
    pub control: TimeControl,
    /// A rated game (only an account's seek is).
    pub rated: bool,
    /// The owner's rating on the board when the seek was opened, in whole points.
    pub rating: i64,
    /// When it was opened.
    pub at: SystemTime,
}

/// A seek taken into a game: the game, the owner's mark in it, and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taken {
    pub game: GameId,
    pub mark: Mark,
    pub at: SystemTime,
}

/// A seek as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seek {
    pub seek: NewSeek,
    /// When its owner last showed a sign of life (opened it, or had its page or stream
    /// open).
    pub seen: SystemTime,
    /// The game it was taken into, once it was.
    pub taken: Option<Taken>,
    /// Closed by its owner (or by their opening another seek) before anyone took it.
    pub closed: bool,
}

impl Seek {
    /// Neither taken nor closed.
    pub fn is_open(&self) -> bool {
        self.taken.is_none() && !self.closed
    }
}

/// Keeping seeks, for every server sharing the store.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait SeekStore: Send + Sync {
    /// Keeps `seek`, open, and closes every other seek its owner has open (a person
    /// waits for one game at a time). Opening the same seek again is a no-op.
    fn open_seek(&self, seek: &NewSeek) -> Result<(), StoreError>;

    /// The open seeks of `kind` whose owner was seen at `seen_since` or later, oldest
    /// first.
    fn open_seeks(&self, kind: SeekKind, seen_since: SystemTime) -> Result<Vec<Seek>, StoreError>;

    /// A seek, open or not: `None` if the store has none of that id.
    fn seek(&self, id: &SeekId) -> Result<Option<Seek>, StoreError>;

    /// The owner of seek `id` showed a sign of life at `at`: `false` if it is not open.
    fn seek_seen(&self, id: &SeekId, at: SystemTime) -> Result<bool, StoreError>;

    /// Closes seek `id` if it is open: `false` if it was not (taken, closed, or none).
    fn close_seek(&self, id: &SeekId) -> Result<bool, StoreError>;

    /// Takes the seeks `taking` into game `game`, each owner at its mark, at `at`: all
    /// of them, or none if any is no longer open (`false`), so two servers (or two
    /// people) taking the same seek at once never both have it.
    fn take_seeks(
        &self,
        taking: &[(SeekId, Mark)],
        game: &GameId,
        at: SystemTime,
    ) -> Result<bool, StoreError>;

    /// The seeks taken into games at `since` or later, newest first: who met whom,
    /// at what ratings (what TV chooses from).
    fn taken_since(&self, since: SystemTime) -> Result<Vec<Seek>, StoreError>;

    /// `by` (an account) blocks `whom`: they are never paired, and neither accepts the
    /// other's seek. `false` if `by` blocked `whom` already (names compared by key).
    fn block(&self, by: &PlayerName, whom: &PlayerName) -> Result<bool, StoreError>;

    /// `by` no longer blocks `whom`: `false` if they did not.
    fn unblock(&self, by: &PlayerName, whom: &PlayerName) -> Result<bool, StoreError>;

    /// Whom `by` blocks, as they were named when blocked, in the order blocked.
    fn blocked_by(&self, by: &PlayerName) -> Result<Vec<PlayerName>, StoreError>;

    /// The blocks among the people of name keys `keys`: each as (who blocks, whom),
    /// by key.
    fn blocks_among(&self, keys: &[String]) -> Result<Vec<(String, String)>, StoreError>;
}
