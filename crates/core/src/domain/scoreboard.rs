use std::collections::HashMap;
use std::collections::hash_map::Entry;

use super::{Mark, PlayerName};

/// How a finished game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Won(Mark),
    Draw,
}

/// A finished game, as the scoreboard records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedGame {
    pub x: PlayerName,
    pub o: PlayerName,
    pub outcome: Outcome,
}

impl FinishedGame {
    pub fn name_of(&self, mark: Mark) -> &PlayerName {
        match mark {
            Mark::X => &self.x,
            Mark::O => &self.o,
        }
    }
}

/// One player's results. Counts saturate rather than overflow: they may come from a file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Record {
    pub wins: u64,
    pub losses: u64,
    pub ties: u64,
}

impl Record {
    pub fn games(&self) -> u64 {
        self.wins
            .saturating_add(self.losses)
            .saturating_add(self.ties)
    }

    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: Record) {
        self.wins = self.wins.saturating_add(other.wins);
        self.losses = self.losses.saturating_add(other.losses);
        self.ties = self.ties.saturating_add(other.ties);
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    pub name: PlayerName,
    pub record: Record,
}

/// Everyone's results, one row per player (names compared ignoring case).
///
/// Rows are kept ranked: most wins first, then fewest losses, then by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scoreboard {
    standings: Vec<Standing>,
}

impl Scoreboard {
    pub fn new() -> Self {
        Scoreboard::default()
    }

    /// Builds a scoreboard from rows, merging rows that name the same player (the
    /// first row's spelling of the name is kept).
    pub fn from_standings(rows: impl IntoIterator<Item = Standing>) -> Self {
        let mut standings: Vec<Standing> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        for row in rows {
            match index.entry(row.name.key()) {
                Entry::Occupied(at) => standings[*at.get()].record.add(row.record),
                Entry::Vacant(at) => {
                    at.insert(standings.len());
                    standings.push(row);
                }
            }
        }
        let mut board = Scoreboard { standings };
        board.rank();
        board
    }

    /// Counts a finished game for both players: a win and a loss, or a tie each.
    pub fn record(&mut self, game: &FinishedGame) {
        for mark in Mark::ALL {
            let result = match game.outcome {
                Outcome::Draw => Record {
                    ties: 1,
                    ..Record::default()
                },
                Outcome::Won(winner) if winner == mark => Record {
                    wins: 1,
                    ..Record::default()
                },
                Outcome::Won(_) => Record {
                    losses: 1,
                    ..Record::default()
                },
            };
            self.entry(game.name_of(mark)).add(result);
        }
        self.rank();
    }

    /// The rows of the two players of `game` only, in rank order: what is worth showing
    /// after a game, however many players the whole scoreboard has.
    pub fn of_players_in(&self, game: &FinishedGame) -> Scoreboard {
        let (x, o) = (game.x.key(), game.o.key());
        Scoreboard {
            standings: self
                .standings
                .iter()
                .filter(|s| s.name.key() == x || s.name.key() == o)
                .cloned()
                .collect(),
        }
    }

    pub fn standings(&self) -> &[Standing] {
        &self.standings
    }

    pub fn record_of(&self, name: &PlayerName) -> Option<Record> {
        let key = name.key();
        self.standings
            .iter()
            .find(|s| s.name.key() == key)
            .map(|s| s.record)
    }

    pub fn is_empty(&self) -> bool {
        self.standings.is_empty()
    }

    fn entry(&mut self, name: &PlayerName) -> &mut Record {
        let key = name.key();
        let index = match self.standings.iter().position(|s| s.name.key() == key) {
            Some(index) => index,
            None => {
                self.standings.push(Standing {
                    name: name.clone(),
                    record: Record::default(),
                });
                self.standings.len() - 1
            }
        };
        &mut self.standings[index].record
    }

    fn rank(&mut self) {
        self.standings.sort_by(|a, b| {
            b.record
                .wins
                .cmp(&a.record.wins)
                .then(a.record.losses.cmp(&b.record.losses))
                .then_with(|| a.name.key().cmp(&b.name.key()))
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(text: &str) -> PlayerName {
        PlayerName::stored(text).unwrap()
    }

    fn game(x: &str, o: &str, outcome: Outcome) -> FinishedGame {
        FinishedGame {
            x: name(x),
            o: name(o),
            outcome,
        }
    }

    #[test]
    fn a_win_counts_a_win_for_the_winner_and_a_loss_for_the_loser() {
        let mut board = Scoreboard::new();

        board.record(&game("Ada", "Bob", Outcome::Won(Mark::O)));

        assert_eq!(
            board.record_of(&name("Bob")),
            Some(Record {
                wins: 1,
                losses: 0,
                ties: 0
            })
        );
        assert_eq!(
            board.record_of(&name("Ada")),
            Some(Record {
                wins: 0,
                losses: 1,
                ties: 0
            })
        );
    }

    #[test]
    fn after_a_game_only_its_two_players_rows_are_picked_in_rank_order() {
        let mut board = Scoreboard::new();
        board.record(&game("Cy", "Dee", Outcome::Draw));
        board.record(&game("Ada", "Bob", Outcome::Won(Mark::O)));
        let latest = game("ada", "Bob", Outcome::Won(Mark::O));

        let picked = board.of_players_in(&latest);

        let names: Vec<&str> = picked.standings().iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["Bob", "Ada"]);
    }

    #[test]
    fn a_draw_counts_a_tie_for_both() {
        let mut board = Scoreboard::new();

        board.record(&game("Ada", "Bob", Outcome::Draw));

        for player in ["Ada", "Bob"] {
            assert_eq!(board.record_of(&name(player)).map(|r| r.ties), Some(1));
        }
    }

    #[test]
    fn the_same_name_in_another_case_adds_to_the_same_row() {
        let mut board = Scoreboard::new();

        board.record(&game("Ada", "Bob", Outcome::Won(Mark::X)));
        board.record(&game("ADA", "Bob", Outcome::Won(Mark::X)));

        assert_eq!(board.standings().len(), 2);
        assert_eq!(
            board.standings()[0].name.as_str(),
            "Ada",
            "the first spelling is kept"
        );
        assert_eq!(board.standings()[0].record.wins, 2);
    }

    #[test]
    fn rows_are_ranked_by_wins_then_fewest_losses_then_name() {
        let mut board = Scoreboard::new();

        board.record(&game("Cy", "Bob", Outcome::Won(Mark::X)));
        board.record(&game("Ada", "Dee", Outcome::Won(Mark::X)));
        board.record(&game("Ada", "Cy", Outcome::Draw));

        let order: Vec<&str> = board.standings().iter().map(|s| s.name.as_str()).collect();
        assert_eq!(order, ["Ada", "Cy", "Bob", "Dee"]);
    }

    #[test]
    fn counts_saturate_instead_of_overflowing() {
        let full = Standing {
            name: name("Ada"),
            record: Record {
                wins: u64::MAX,
                ..Record::default()
            },
        };
        let mut board = Scoreboard::from_standings([full]);

        board.record(&game("Ada", "Bob", Outcome::Won(Mark::X)));

        assert_eq!(
            board.record_of(&name("Ada")).map(|r| r.wins),
            Some(u64::MAX)
        );
    }

    #[test]
    fn a_record_counts_every_game_played() {
        let record = Record {
            wins: 2,
            losses: 1,
            ties: 3,
        };

        assert_eq!(record.games(), 6);
    }

    #[test]
    fn a_scoreboard_is_empty_until_a_game_is_recorded() {
        let mut scoreboard = Scoreboard::new();
        let empty_before = scoreboard.is_empty();

        scoreboard.record(&game("Ada", "Bob", Outcome::Draw));

        assert!(empty_before);
        assert!(!scoreboard.is_empty());
    }
}
