//! A board's ratings as people read them ([`BoardRatings`]): the settled people ranked
//! with the computer levels' fixed anchors among them, the provisional people apart.

use crate::domain::{Certainty, Geometry, PlayerName, Rating};
use crate::players::Level;
use crate::ports::{PlayerRating, RatingListQuery, RatingStore, StoreError};
use crate::rules::best_first;

/// A row of a board's ratings as people read them: a person, or a computer level's
/// fixed anchor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatingRow {
    pub name: PlayerName,
    pub rating: Rating,
    /// A person's rated games; for a level, the calibration games its anchor rests on.
    pub games: u64,
    /// The level, for an anchor.
    pub anchor: Option<Level>,
}

/// A board's ratings as people read them: the settled people ranked with the levels'
/// fixed anchors among them, and apart, the people whose rating is still provisional
/// (too few games to rank them: lichess lists only settled ratings on its
/// leaderboards).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardRatings {
    pub board: Geometry,
    /// The first `top` rows, best first: settled people and every level's anchor.
    pub ranked: Vec<RatingRow>,
    /// The first `top` provisional people, best first.
    pub provisional: Vec<RatingRow>,
}

impl BoardRatings {
    /// The first `top` rows of each list, as `store` has them.
    pub fn read(
        store: &(impl RatingStore + ?Sized),
        board: Geometry,
        top: u32,
    ) -> Result<BoardRatings, StoreError> {
        let listed = |certainty| {
            store.ratings(&RatingListQuery {
                board,
                certainty,
                top,
            })
        };
        let settled = listed(Certainty::Settled)?;
        let provisional = listed(Certainty::Provisional)?;
        Ok(BoardRatings {
            board,
            ranked: ranked(board, settled, top as usize),
            provisional: provisional.into_iter().map(RatingRow::person).collect(),
        })
    }
}

impl RatingRow {
    fn person(held: PlayerRating) -> RatingRow {
        RatingRow {
            name: held.name,
            rating: held.rating,
            games: held.games,
            anchor: None,
        }
    }
}

/// The first `top` rows of `board`'s ranking, best first: settled `people` (at least
/// the best `top` of them, in any order) and every level's anchor, by rating, then by
/// name as the scoreboard compares names.
fn ranked(board: Geometry, people: Vec<PlayerRating>, top: usize) -> Vec<RatingRow> {
    let anchors = Level::ALL.map(|level| {
        let anchor = level.anchor(board);
        RatingRow {
            name: PlayerName::computer(&level.to_string()),
            rating: anchor.rating,
            games: anchor.games,
            anchor: Some(level),
        }
    });
    let mut rows: Vec<RatingRow> = people
        .into_iter()
        .filter(|person| person.board == board)
        .map(RatingRow::person)
        .chain(anchors)
        .collect();
    rows.sort_by(|a, b| best_first((&a.rating, &a.name), (&b.rating, &b.name)));
    rows.truncate(top);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::MockRatingStore;

    #[test]
    fn a_board_s_settled_ratings_are_ranked_with_the_levels_anchors_among_them() {
        let board = Geometry::classic();
        let top = Level::ALL
            .map(|level| level.anchor(board).rating.rating())
            .into_iter()
            .fold(f64::MIN, f64::max);
        let store = store_holding(vec![rated_person("Ada", top + 1.0, 60.0)]);

        let listed = BoardRatings::read(&store, board, 3).unwrap();

        assert_eq!(listed.ranked.len(), 3);
        assert_eq!(
            (listed.ranked[0].name.as_str(), listed.ranked[0].anchor),
            ("Ada", None)
        );
        assert_eq!(listed.ranked[1].anchor, Some(Level::Impossible));
    }

    #[test]
    fn a_provisional_rating_is_listed_apart_from_the_ranking_however_high() {
        let board = Geometry::classic();
        let store = store_holding(vec![
            rated_person("Op", 2500.0, 200.0),
            rated_person("Ada", 1400.0, 60.0),
        ]);

        let listed = BoardRatings::read(&store, board, 20).unwrap();

        let ranked: Vec<&str> = listed
            .ranked
            .iter()
            .filter(|row| row.anchor.is_none())
            .map(|row| row.name.as_str())
            .collect();
        let provisional: Vec<&str> = listed
            .provisional
            .iter()
            .map(|row| row.name.as_str())
            .collect();
        assert_eq!((ranked, provisional), (vec!["Ada"], vec!["Op"]));
    }

    /// A stub store holding `people`'s ratings, listing those of the certainty asked.
    fn store_holding(people: Vec<PlayerRating>) -> MockRatingStore {
        let mut store = MockRatingStore::new();
        store.expect_ratings().returning(move |query| {
            Ok(people
                .iter()
                .filter(|held| held.rating.certainty() == query.certainty)
                .cloned()
                .collect())
        });
        store
    }

    fn rated_person(name: &str, rating: f64, deviation: f64) -> PlayerRating {
        PlayerRating {
            name: PlayerName::new(name).unwrap(),
            board: Geometry::classic(),
            rating: Rating::new(rating, deviation, 0.06).unwrap(),
            games: 10,
        }
    }
}
