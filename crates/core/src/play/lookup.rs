//! Finding a kept game as a person names it: `last`, or the start of its id
//! ([`find_game`]); and the shortest start of an id that names its game alone
//! ([`short_id`]), for lists that people copy ids from.

use thiserror::Error;

use crate::ports::{
    GameHistory, GameId, HistoryQuery, IdPrefix, IdPrefixError, PageSize, StoreError,
};

/// A game as a person names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameRef {
    /// The game that ended last (the newest in the history).
    Last,
    /// The game whose id starts this way.
    Prefix(IdPrefix),
}

impl GameRef {
    /// `last` (in any case), or the start of an id.
    pub fn parse(text: &str) -> Result<GameRef, IdPrefixError> {
        if text.eq_ignore_ascii_case("last") {
            Ok(GameRef::Last)
        } else {
            IdPrefix::parse(text).map(GameRef::Prefix)
        }
    }
}

/// Why no one game was found.
#[derive(Debug, Error)]
pub enum FindError {
    /// `last`, and no game has ended yet.
    #[error("no game has ended yet")]
    NoGames,
    #[error("no game's id starts with {0}")]
    NotFound(IdPrefix),
    /// More than one game's id starts this way; `ids` are the first few of them, and
    /// `more` how many others there are (`None`: more than could be counted).
    #[error("more than one game's id starts with {prefix}")]
    Ambiguous {
        prefix: IdPrefix,
        ids: Vec<GameId>,
        more: Option<usize>,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// How many ids an ambiguous prefix reports.
const AMBIGUOUS_SHOWN: usize = 5;

/// How many ids an ambiguous prefix counts, at most: past it, "and more".
const AMBIGUOUS_COUNTED: u32 = 1000;

/// The one game `which` names.
pub fn find_game(history: &dyn GameHistory, which: &GameRef) -> Result<GameId, FindError> {
    match which {
        GameRef::Last => {
            let newest = history.history(&HistoryQuery {
                player: None,
                before: None,
                limit: PageSize::new(1).expect("1 is a page size"),
            })?;
            newest
                .games
                .into_iter()
                .next()
                .map(|game| game.id)
                .ok_or(FindError::NoGames)
        }
        GameRef::Prefix(prefix) => {
            // One more than counted, to tell "1000 in all" from "more than that".
            let mut ids = history.games_starting(prefix, AMBIGUOUS_COUNTED + 1)?;
            match ids.len() {
                0 => Err(FindError::NotFound(prefix.clone())),
                1 => Ok(ids.remove(0)),
                all => {
                    let more = (all <= AMBIGUOUS_COUNTED as usize)
                        .then(|| all.saturating_sub(AMBIGUOUS_SHOWN));
                    ids.truncate(AMBIGUOUS_SHOWN);
                    Err(FindError::Ambiguous {
                        prefix: prefix.clone(),
                        ids,
                        more,
                    })
                }
            }
        }
    }
}

/// The shortest start of `id`, at least `least` digits, that no other kept game's id
/// begins with: what a list shows, so that it can be typed back. Found by halving
/// (a start that names one game only is still one when longer): five look-ups for an
/// id of 32 digits.
pub fn short_id(
    history: &dyn GameHistory,
    id: &GameId,
    least: usize,
) -> Result<String, StoreError> {
    let digits = id.as_str();
    let names_one = |length: usize| -> Result<bool, StoreError> {
        let prefix = IdPrefix::parse(&digits[..length]).expect("the start of an id is a prefix");
        Ok(history.games_starting(&prefix, 2)?.len() <= 1)
    };
    // The answer is in low..=high: the whole id always names its game.
    let (mut low, mut high) = (least.clamp(1, digits.len()), digits.len());
    while low < high {
        let middle = (low + high) / 2;
        if names_one(middle)? {
            high = middle;
        } else {
            low = middle + 1;
        }
    }
    Ok(digits[..low].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::{HistoryPage, MockGameHistory};

    /// A history whose ids starting with any prefix asked about are `ids` (the start of
    /// each, padded with zeros).
    fn starting(ids: &[&str]) -> MockGameHistory {
        let ids: Vec<GameId> = ids.iter().map(|start| id(start)).collect();
        let mut history = MockGameHistory::new();
        history
            .expect_games_starting()
            .returning(move |_, _| Ok(ids.clone()));
        history
    }

    fn id(text: &str) -> GameId {
        GameId::parse(&format!("{text:0<32}")).unwrap()
    }

    fn prefix(text: &str) -> IdPrefix {
        IdPrefix::parse(text).unwrap()
    }

    #[test]
    fn last_in_any_case_names_the_newest_game() {
        assert_eq!(GameRef::parse("LAST"), Ok(GameRef::Last));
        assert_eq!(GameRef::parse("0a1"), Ok(GameRef::Prefix(prefix("0a1"))));
        assert!(GameRef::parse("latest").is_err());
    }

    #[test]
    fn last_is_the_first_game_of_the_history() {
        let mut history = MockGameHistory::new();
        history
            .expect_history()
            .withf(|query| query.limit.get() == 1 && query.player.is_none())
            .returning(|_| {
                Ok(HistoryPage {
                    games: Vec::new(),
                    next: None,
                })
            });

        let found = find_game(&history, &GameRef::Last);

        assert!(matches!(found, Err(FindError::NoGames)));
    }

    #[test]
    fn a_prefix_that_starts_one_id_names_that_game() {
        let history = starting(&["ab1"]);

        let found = find_game(&history, &GameRef::Prefix(prefix("ab")));

        assert_eq!(found.unwrap(), id("ab1"));
    }

    #[test]
    fn a_prefix_that_starts_several_ids_is_ambiguous_and_says_which() {
        let history = starting(&["ab1", "ab2"]);

        let found = find_game(&history, &GameRef::Prefix(prefix("ab")));

        assert!(
            matches!(found, Err(FindError::Ambiguous { ids, .. }) if ids == [id("ab1"), id("ab2")])
        );
    }

    #[test]
    fn a_prefix_that_starts_many_ids_shows_five_and_counts_the_others() {
        let mut history = MockGameHistory::new();
        history
            .expect_games_starting()
            .returning(|_, limit| Ok((1..=8.min(limit)).map(|n| id(&format!("ab{n}"))).collect()));

        let found = find_game(&history, &GameRef::Prefix(prefix("ab")));

        assert!(
            matches!(&found, Err(FindError::Ambiguous { ids, more: Some(3), .. }) if ids.len() == 5),
            "{found:?}"
        );
    }

    #[test]
    fn a_prefix_that_starts_more_ids_than_are_counted_says_there_are_more() {
        let mut history = MockGameHistory::new();
        history
            .expect_games_starting()
            .returning(|_, limit| Ok((0..limit).map(|n| id(&format!("ab{n:x}"))).collect()));

        let found = find_game(&history, &GameRef::Prefix(prefix("ab")));

        assert!(
            matches!(&found, Err(FindError::Ambiguous { ids, more: None, .. }) if ids.len() == 5),
            "{found:?}"
        );
    }

    #[test]
    fn a_prefix_that_starts_no_id_is_not_found() {
        let history = starting(&[]);

        let found = find_game(&history, &GameRef::Prefix(prefix("ab")));

        assert!(matches!(found, Err(FindError::NotFound(p)) if p == prefix("ab")));
    }

    #[test]
    fn a_short_id_is_the_shortest_start_no_other_game_shares() {
        // Arrange: another game's id shares the first 9 digits.
        let mine = id("0123456789");
        let mut history = MockGameHistory::new();
        history.expect_games_starting().returning(|prefix, _| {
            Ok(if prefix.as_str().len() <= 9 {
                vec![id("0123456780"), id("0123456789")]
            } else {
                vec![id("0123456789")]
            })
        });

        // Act
        let short = short_id(&history, &mine, 8).unwrap();

        // Assert
        assert_eq!(short, "0123456789");
    }

    #[test]
    fn a_short_id_is_never_shorter_than_asked() {
        let history = starting(&["ab"]);

        assert_eq!(short_id(&history, &id("ab"), 8).unwrap(), "ab000000");
    }
}
