//! What a server needs from a store that several servers share (PostgreSQL), beyond
//! keeping games: news of the changes the other servers keep ([`NewsFeed`]), so that
//! what it holds in memory and shows its spectators stays current, and a say in which
//! server plays a computer-against-computer game ([`Pacing`]), so that exactly one does
//! at a time and another takes over when it dies.
//!
//! Deciding who wins a race needs no port of its own: [`GameStore::write_new`]
//! refuses a step another server kept first.
//!
//! [`GameStore::write_new`]: super::GameStore::write_new

use std::time::Duration;

use super::{GameId, StoreError, Write};

/// One change another server kept, as a shared store tells of it: the [`Write`] that
/// server kept (a game begun, with its rematch link; a step; an ending), which a
/// server hearing it takes as kept already, never to be written again.
pub type News = Write;

/// What a follower of a [`NewsFeed`] hears.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Heard {
    /// What another server kept in one write, in order.
    News(Vec<News>),
    /// The feed was interrupted and is back: news may have been missed, so whatever
    /// the follower holds in memory may be behind the store.
    Missed,
}

/// Following a feed: it goes on until this is dropped.
pub struct Following {
    /// Dropped with the `Following`: whatever stops the feed when it goes.
    _guard: Box<dyn Send>,
}

impl Following {
    /// Following that ends when `guard` is dropped.
    pub fn until_dropped(guard: impl Send + 'static) -> Self {
        Following {
            _guard: Box::new(guard),
        }
    }
}

impl std::fmt::Debug for Following {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Following")
    }
}

/// Where a feed hands what it hears: any `FnMut(Heard) + Send` closure is one. (A
/// trait rather than `dyn FnMut`, which mockall cannot mock.)
pub trait Hear: Send {
    fn hear(&mut self, heard: Heard);
}

impl<F: FnMut(Heard) + Send> Hear for F {
    fn hear(&mut self, heard: Heard) {
        self(heard)
    }
}

/// News of the changes the other servers of a shared store keep, as they keep them.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait NewsFeed: Send + Sync {
    /// Calls `hear` (on a thread of the store's) with each write another server kept,
    /// in the order kept, until the [`Following`] is dropped. A server never hears its
    /// own writes.
    fn follow(&self, hear: Box<dyn Hear>) -> Result<Following, StoreError>;
}

/// Which server plays each computer-against-computer game: one at a time, each holding
/// the game for a while and holding it again before each move; a game whose server
/// stopped holding it (it died) is taken over by another.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait Pacing: Send + Sync {
    /// Holds game `game` for this server for `hold` from now: `true` if this server
    /// now holds it (it was free, its hold had run out, or this server held it), `false`
    /// if another server holds it.
    fn pace(&self, game: &GameId, hold: Duration) -> Result<bool, StoreError>;

    /// Up to `limit` games being paced whose hold has run out and that have not ended:
    /// the games of servers that stopped, for another to take over.
    fn unpaced(&self, limit: u32) -> Result<Vec<GameId>, StoreError>;
}

/// A store several servers share: news of each other's changes, and the pacing of
/// computer-against-computer games.
pub trait Shared: NewsFeed + Pacing {}

impl<S: NewsFeed + Pacing + ?Sized> Shared for S {}
