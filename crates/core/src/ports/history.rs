//! What a store tells of the games it keeps, beyond one game by id: the ended games,
//! newest first, a page at a time ([`GameHistory::history`]); the games whose id starts
//! a certain way ([`GameHistory::games_starting`]); a player's results against each
//! opponent ([`GameHistory::opponents`]). And the reviews of ended games, computed once
//! and kept ([`ReviewStore`]).

use std::fmt;
use std::time::SystemTime;

use thiserror::Error;

use crate::domain::{PlayerName, Record};
use crate::play::{Review, Settings};

use super::{Ending, GameId, StoreError};

/// One ended game, as a history lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSummary {
    pub id: GameId,
    /// Who played each side, the board and the first mover.
    pub settings: Settings,
    pub started: SystemTime,
    pub ended: SystemTime,
    pub ending: Ending,
    /// The moves on the board when it ended (moves taken back are not counted).
    pub moves: u32,
}

/// How many games one page of a history holds: 1 to [`PageSize::MAX`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct PageSize(u32);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("a page holds 1 to {} games", PageSize::MAX)]
pub struct PageSizeError;

impl PageSize {
    pub const MAX: u32 = 1000;

    /// The largest page: [`PageSize::MAX`] games.
    pub const LARGEST: PageSize = PageSize(PageSize::MAX);

    pub fn new(games: u64) -> Result<PageSize, PageSizeError> {
        match u32::try_from(games) {
            Ok(games @ 1..=PageSize::MAX) => Ok(PageSize(games)),
            _ => Err(PageSizeError),
        }
    }

    pub fn get(self) -> u32 {
        self.0
    }
}

/// Which ended games to list, newest first (by when they began; games that began in
/// the same millisecond by id, the larger first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryQuery {
    /// Only the games this player played (names compared as the scoreboard compares
    /// them); `None` for everybody's.
    pub player: Option<PlayerName>,
    /// Only the games older than this one (the cursor a page gives for the next one).
    pub before: Option<GameId>,
    pub limit: PageSize,
}

/// One page of a history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryPage {
    pub games: Vec<GameSummary>,
    /// Where the next page starts (pass it as [`HistoryQuery::before`]): the last game
    /// of this page, when older games remain; `None` when this page is the last.
    pub next: Option<GameId>,
}

/// The start of a game id, as a person types it: 1 to 32 hex digits.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IdPrefix(String);

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("a game id (or the start of one) is 1 to 32 hex digits")]
pub struct IdPrefixError;

impl IdPrefix {
    /// Reads the start of an id (upper-case hex is read as lower).
    pub fn parse(text: &str) -> Result<IdPrefix, IdPrefixError> {
        if (1..=32).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_hexdigit()) {
            Ok(IdPrefix(text.to_ascii_lowercase()))
        } else {
            Err(IdPrefixError)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn matches(&self, id: &GameId) -> bool {
        id.as_str().starts_with(&self.0)
    }
}

impl fmt::Display for IdPrefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A player's results against one opponent, from the player's side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rivalry {
    /// The opponent's name as first kept (a computer level is an opponent of its own:
    /// `Computer (Impossible)`).
    pub opponent: PlayerName,
    pub record: Record,
}

/// A player's results by opponent: the most played first, and the whole record.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Opponents {
    /// At most the number asked for: most games first, then by the opponent's name (as
    /// the scoreboard compares names).
    pub most_played: Vec<Rivalry>,
    /// How many opponents there are beyond those.
    pub others: u64,
    /// The player's record over every counted game, against everybody.
    pub total: Record,
}

/// The games a store keeps, listed and looked up. See the module documentation.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait GameHistory: Send + Sync {
    /// The ended games (finished, resigned or abandoned) that `query` asks for, newest
    /// first. A `before` that names no kept game is [`StoreError::NoSuchGame`].
    fn history(&self, query: &HistoryQuery) -> Result<HistoryPage, StoreError>;

    /// The ids of the kept games (ended or not) that start with `prefix`, in id order,
    /// at most `limit` of them: two are enough to tell that a prefix is ambiguous.
    fn games_starting(&self, prefix: &IdPrefix, limit: u32) -> Result<Vec<GameId>, StoreError>;

    /// `player`'s results in the games that counted (finished or resigned), by
    /// opponent: the `limit` most played, and the whole record. Empty for a player the
    /// store has no counted game of. Every game ever kept counts here (a reset of the
    /// scoreboard does not clear it).
    fn opponents(&self, player: &PlayerName, limit: u32) -> Result<Opponents, StoreError>;
}

/// Where the reviews of ended games are kept, so that each is computed once.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait ReviewStore: Send + Sync {
    /// The review kept for `game`, if any.
    fn review(&self, game: &GameId) -> Result<Option<Review>, StoreError>;

    /// Keeps `review` as `game`'s. A game that already has a review keeps it (this is a
    /// no-op), unless the review kept is not exact and `review` says more
    /// ([`Review::improves_on`]): then `review` takes its place, whole (so a review
    /// computed in a hurry is completed later; an exact one is never replaced). A game
    /// the store has not seen begin is [`StoreError::NoSuchGame`]; a game that has not
    /// ended, or whose moves the review does not follow, is a [`StoreError::Conflict`].
    fn keep_review(&self, game: &GameId, review: &Review) -> Result<(), StoreError>;
}

/// A store that keeps games, lists them, keeps their reviews, rates their players,
/// keeps their answers to training puzzles, keeps their accounts and the seeks of
/// those looking for an opponent: all seven ports in one, for the front ends that show past games (`main.rs` hands them one store).
pub trait Archive:
    super::GameStore
    + GameHistory
    + ReviewStore
    + super::RatingStore
    + super::TrainingStore
    + super::AccountStore
    + super::SeekStore
{
}

impl<S> Archive for S where
    S: super::GameStore
        + GameHistory
        + ReviewStore
        + super::RatingStore
        + super::TrainingStore
        + super::AccountStore
        + super::SeekStore
        + ?Sized
{
}

impl<S: GameHistory + ?Sized> GameHistory for &S {
    fn history(&self, query: &HistoryQuery) -> Result<HistoryPage, StoreError> {
        (**self).history(query)
    }
    fn games_starting(&self, prefix: &IdPrefix, limit: u32) -> Result<Vec<GameId>, StoreError> {
        (**self).games_starting(prefix, limit)
    }
    fn opponents(&self, player: &PlayerName, limit: u32) -> Result<Opponents, StoreError> {
        (**self).opponents(player, limit)
    }
}

impl<S: ReviewStore + ?Sized> ReviewStore for &S {
    fn review(&self, game: &GameId) -> Result<Option<Review>, StoreError> {
        (**self).review(game)
    }
    fn keep_review(&self, game: &GameId, review: &Review) -> Result<(), StoreError> {
        (**self).keep_review(game, review)
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    #[rstest]
    #[case::none(0)]
    #[case::too_many(1001)]
    #[case::far_too_many(u64::MAX)]
    fn a_page_holds_one_to_a_thousand_games(#[case] games: u64) {
        assert_eq!(PageSize::new(games), Err(PageSizeError));
    }

    #[rstest]
    #[case::one(1)]
    #[case::the_most(1000)]
    fn a_page_size_in_range_is_kept(#[case] games: u64) {
        assert_eq!(PageSize::new(games).map(PageSize::get), Ok(games as u32));
    }

    #[rstest]
    #[case::empty("")]
    #[case::not_hex("0g")]
    #[case::longer_than_an_id("000000000000000000000000000000000")]
    fn text_that_cannot_start_an_id_is_no_prefix(#[case] text: &str) {
        assert_eq!(IdPrefix::parse(text), Err(IdPrefixError));
    }

    #[test]
    fn a_prefix_is_shown_as_read_in_lower_case() {
        assert_eq!(IdPrefix::parse("00AB").unwrap().to_string(), "00ab");
    }

    #[test]
    fn a_prefix_matches_the_ids_that_start_with_it_whatever_its_case() {
        let prefix = IdPrefix::parse("00AB").unwrap();

        assert!(prefix.matches(&GameId::parse(&format!("00ab{}", "0".repeat(28))).unwrap()));
        assert!(!prefix.matches(&GameId::parse(&format!("00ac{}", "0".repeat(28))).unwrap()));
    }
}
