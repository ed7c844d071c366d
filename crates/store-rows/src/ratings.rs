//! The rows of the ratings' tables, written once for both SQL stores: `ratings` (a
//! person's rating on a board as it stands) and `rating_changes` (what each game's end
//! did to each person in it), and `games.rated_number`, the order the games were rated
//! in. What each column holds, and its checks when read back; the SQL is each store's.
//!
//! A rating is kept as three `REAL`/`double precision` columns: both databases keep an
//! IEEE double exactly, so a rating read back is the one kept, to the last bit.

use tictactoe_core::domain::{PlayerName, Rating};
use tictactoe_core::ports::{GameId, PlayerRating, RatingChange, RatingPoint};

use crate::{rows, words};

/// The columns of `rating_changes` a [`ChangeRow`] holds, in its order.
pub const CHANGE_COLUMNS: &str = "game, mark, name, size, win, before_rating, \
     before_deviation, before_volatility, after_rating, after_deviation, after_volatility";

/// The columns of `ratings` a [`RatingColumns`] holds, in its order.
pub const RATING_COLUMNS: &str = "name, size, win, rating, deviation, volatility, games";

/// A rating's columns: rating, deviation, volatility.
pub fn rating_columns(rating: Rating) -> [f64; 3] {
    [rating.rating(), rating.deviation(), rating.volatility()]
}

/// A rating from its columns.
pub fn rating([rating, deviation, volatility]: [f64; 3]) -> Result<Rating, String> {
    Rating::new(rating, deviation, volatility).map_err(|e| e.to_string())
}

/// A row of `rating_changes` ([`CHANGE_COLUMNS`]), before it is checked. Its `key`
/// column is [`ChangeRow::key`].
#[derive(Debug, Clone, PartialEq)]
pub struct ChangeRow {
    pub game: String,
    pub mark: String,
    pub name: String,
    pub size: i64,
    pub win: i64,
    pub before: [f64; 3],
    pub after: [f64; 3],
}

impl ChangeRow {
    /// The row `change` is kept as.
    pub fn of(change: &RatingChange) -> ChangeRow {
        ChangeRow {
            game: change.game.to_string(),
            mark: words::mark_word(change.mark).to_owned(),
            name: change.player.as_str().to_owned(),
            size: change.board.size() as i64,
            win: change.board.win_length() as i64,
            before: rating_columns(change.before),
            after: rating_columns(change.after),
        }
    }

    /// The name key the row is filed under (the player as the scoreboard compares
    /// names).
    pub fn key(change: &RatingChange) -> String {
        change.player.key()
    }

    /// The change, checked.
    pub fn change(&self) -> Result<RatingChange, String> {
        Ok(RatingChange {
            game: GameId::parse(&self.game).map_err(|e| format!("a rating change's game: {e}"))?,
            mark: words::mark(&self.mark)?,
            player: name(&self.name)?,
            board: rows::geometry(self.size, self.win)?,
            before: rating(self.before)
                .map_err(|e| format!("{}'s rating before: {e}", self.name))?,
            after: rating(self.after).map_err(|e| format!("{}'s rating after: {e}", self.name))?,
        })
    }
}

/// A row of `ratings` ([`RATING_COLUMNS`]), before it is checked.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingColumns {
    pub name: String,
    pub size: i64,
    pub win: i64,
    pub rating: [f64; 3],
    pub games: i64,
}

impl RatingColumns {
    /// The row `held` is kept as; its `key` column is the name's key.
    pub fn of(held: &PlayerRating) -> RatingColumns {
        RatingColumns {
            name: held.name.as_str().to_owned(),
            size: held.board.size() as i64,
            win: held.board.win_length() as i64,
            rating: rating_columns(held.rating),
            games: rows::count_column(held.games),
        }
    }

    /// The rating, checked.
    pub fn player_rating(&self) -> Result<PlayerRating, String> {
        Ok(PlayerRating {
            name: name(&self.name)?,
            board: rows::geometry(self.size, self.win)?,
            rating: rating(self.rating).map_err(|e| format!("{}'s rating: {e}", self.name))?,
            games: rows::count(self.games)?,
        })
    }
}

/// A point of a player's rating over time: their rating after game `game`, which ended
/// at `ended_at` (milliseconds since 1970).
pub fn point(game: &str, ended_at: i64, after: [f64; 3]) -> Result<RatingPoint, String> {
    Ok(RatingPoint {
        game: GameId::parse(game).map_err(|e| format!("a rating change's game: {e}"))?,
        ended: rows::time(ended_at)?,
        rating: rating(after)?,
    })
}

fn name(text: &str) -> Result<PlayerName, String> {
    // `stored`: a name kept under older rules is read back all the same.
    PlayerName::stored(text).map_err(|e| format!("a rated player's name {text:?}: {e}"))
}

#[cfg(test)]
mod tests {
    use tictactoe_core::domain::{Geometry, Mark};

    use super::*;

    fn change() -> RatingChange {
        RatingChange {
            game: GameId::from_bits(7),
            mark: Mark::O,
            player: PlayerName::new("Ada").unwrap(),
            board: Geometry::new(5, 4).unwrap(),
            before: Rating::START,
            after: Rating::new(1_511.000_000_000_2, 290.1, 0.059_999_9).unwrap(),
        }
    }

    #[test]
    fn a_change_reads_back_from_its_row_to_the_last_bit() {
        let row = ChangeRow::of(&change());

        assert_eq!(row.change(), Ok(change()));
    }

    #[test]
    fn a_change_whose_rating_is_no_rating_is_an_error_naming_the_player() {
        let row = ChangeRow {
            after: [f64::NAN, 1.0, 0.06],
            ..ChangeRow::of(&change())
        };

        let error = row.change().unwrap_err();

        assert!(error.contains("Ada's rating after"), "{error}");
    }

    #[test]
    fn a_rating_reads_back_from_its_row() {
        let held = PlayerRating {
            name: PlayerName::new("Bob").unwrap(),
            board: Geometry::classic(),
            rating: Rating::new(1432.5, 80.25, 0.06).unwrap(),
            games: 12,
        };

        assert_eq!(RatingColumns::of(&held).player_rating(), Ok(held));
    }

    #[test]
    fn a_rating_with_a_negative_count_of_games_is_an_error() {
        let row = RatingColumns {
            name: "Bob".to_string(),
            size: 3,
            win: 3,
            rating: [1500.0, 350.0, 0.06],
            games: -1,
        };

        assert!(row.player_rating().is_err());
    }
}
