//! Ratings per board, as the store keeps them with the games: what each game did to
//! each person's rating ([`RatingChange`]), a rating as it stands ([`PlayerRating`]),
//! and the port that lists and rebuilds them ([`RatingStore`]). Which games rate whom,
//! and by how much, is the rule in `rules::ratings`, which every store rates by.

use std::time::SystemTime;

use crate::domain::{Certainty, Geometry, Mark, PlayerName, Rating};

use super::{GameId, StoreError};

/// What one game did to one person's rating.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatingChange {
    pub game: GameId,
    /// The side the person played.
    pub mark: Mark,
    pub player: PlayerName,
    pub board: Geometry,
    pub before: Rating,
    pub after: Rating,
}

impl RatingChange {
    /// The change as a result screen says it: `Ada 1,512 → 1,498 (−14)`, with a `?`
    /// after the rating it left when that one is provisional (`Ada 1,500 → 1,086?
    /// (−414)`), the change in whole points as shown, with its sign.
    pub fn said(&self) -> String {
        let change = self.after.points() - self.before.points();
        let change = match change.signum() {
            0 => "±0".to_string(),
            1 => format!("+{change}"),
            _ => format!("−{}", change.unsigned_abs()),
        };
        format!(
            "{} {} → {} ({change})",
            self.player,
            self.before.shown().trim_end_matches('?'),
            self.after.shown()
        )
    }
}

/// A person's rating on one board, as it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerRating {
    /// The name as first rated on this board.
    pub name: PlayerName,
    pub board: Geometry,
    pub rating: Rating,
    /// How many games rated it.
    pub games: u64,
}

/// A person's rating after one of their games: a point of their rating over time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatingPoint {
    pub game: GameId,
    /// When the game ended.
    pub ended: SystemTime,
    pub rating: Rating,
}

/// What [`RatingStore::rebuild_ratings`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rebuilt {
    /// The games that rated someone.
    pub games: u64,
    /// The ratings there are now (a person on a board is one).
    pub ratings: u64,
    /// Ended games that could not be read as games today (kept by an early version
    /// under rules since tightened, such as two players whose names are now one
    /// player's), passed over: they rate nobody.
    pub unreadable: u64,
}

/// Which ratings [`RatingStore::ratings`] lists: the best `top` of those on `board`
/// that are settled, or provisional.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatingListQuery {
    pub board: Geometry,
    pub certainty: Certainty,
    pub top: u32,
}

/// Whose rating over time [`RatingStore::rating_history`] reads: one person's on one
/// board, the last `last` points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatingHistoryQuery {
    pub player: PlayerName,
    pub board: Geometry,
    pub last: u32,
}

/// Ratings listed, looked back on and rebuilt. Each game's change is kept by
/// [`GameStore::write`](super::GameStore::write) with the game's end, and read back by
/// [`GameStore::rating_changes`](super::GameStore::rating_changes); see the module
/// documentation.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait RatingStore: Send + Sync {
    /// The best `query.top` people's ratings on `query.board` that are settled, or
    /// provisional, as `query.certainty` asks ([`Rating::provisional`]), best first (by
    /// rating, then by name key).
    fn ratings(&self, query: &RatingListQuery) -> Result<Vec<PlayerRating>, StoreError>;

    /// `player`'s rating on each board they were rated on (names compared as the
    /// scoreboard compares them), the boards in order of size, then run.
    fn ratings_of(&self, player: &PlayerName) -> Result<Vec<PlayerRating>, StoreError>;

    /// `query.player`'s rating on `query.board` after each of their rated games there,
    /// oldest first: the last `query.last` of them.
    fn rating_history(&self, query: &RatingHistoryQuery) -> Result<Vec<RatingPoint>, StoreError>;

    /// Forgets every rating and each game's change, and rates every ended game again,
    /// in the order their ends were kept, by the same rule. With the same games and
    /// anchors it gives back the same figures to the last bit; after a change of the
    /// anchors, the ratings they make.
    fn rebuild_ratings(&self) -> Result<Rebuilt, StoreError>;
}

impl<S: RatingStore + ?Sized> RatingStore for &S {
    fn ratings(&self, query: &RatingListQuery) -> Result<Vec<PlayerRating>, StoreError> {
        (**self).ratings(query)
    }
    fn ratings_of(&self, player: &PlayerName) -> Result<Vec<PlayerRating>, StoreError> {
        (**self).ratings_of(player)
    }
    fn rating_history(&self, query: &RatingHistoryQuery) -> Result<Vec<RatingPoint>, StoreError> {
        (**self).rating_history(query)
    }
    fn rebuild_ratings(&self) -> Result<Rebuilt, StoreError> {
        (**self).rebuild_ratings()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_is_said_as_the_person_s_rating_before_and_after() {
        let change = RatingChange {
            game: GameId::from_bits(1),
            mark: Mark::X,
            player: PlayerName::new("Ada").unwrap(),
            board: Geometry::classic(),
            before: Rating::new(1512.2, 60.0, 0.06).unwrap(),
            after: Rating::new(1497.9, 59.0, 0.06).unwrap(),
        };

        assert_eq!(change.said(), "Ada 1,512 → 1,498 (−14)");
    }
}
