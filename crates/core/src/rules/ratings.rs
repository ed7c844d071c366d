//! Ratings per board, their rules: which games rate whom ([`rates`], [`rated`]) and
//! by how much ([`rate`]), written once; every store rates by them as each game ends,
//! and again when it rebuilds ([`RatingBook`]). What is kept of each change, and the
//! port that lists and rebuilds the ratings, are in `ports` (`RatingChange`,
//! `RatingStore`); a board's ratings as people read them in `play` (`BoardRatings`).
//!
//! **Who a game rates.** A board is a size and a run ([`Geometry`]): a rating on 3 x 3
//! says nothing of 7 x 7, so each person has one rating per board they played on,
//! starting at [`Anchor::start`]. A game that counted (finished, or resigned once each
//! side had moved) updates the rating of each person in it, against the other side as
//! it stood before the game: a person's rating, or a computer level's
//! [anchor](crate::players::Anchor), which no game ever moves; and no higher than
//! [`Anchor::ceiling`] (nobody outplays perfect play). Games between computers rate
//! nobody, and so do casual games, games with a person who gave no name, and games
//! left before their end.
//!
//! **Kept with the game.** A store rates a game in the transaction that keeps its end,
//! by [`rate`], from the ratings as they stand, and keeps each person's rating before and
//! after with the game. The games are rated in the order their ends were kept, and
//! the store keeps that order: so the ratings are a function of the kept games in
//! order, and [`RatingStore::rebuild_ratings`] (the same rule, over the same games, in
//! the same order: [`RatingBook`]) gives the same figures to the last bit.

use std::cmp::Ordering;
use std::collections::HashMap;

use crate::domain::{Geometry, Mark, PlayerName, Rating, Score};
use crate::players::{Anchor, PlayerSpec, is_placeholder};
use crate::ports::{Ending, NewGame, PlayerRating, RatingChange, SeatHolder, StoreError};

use super::Movers;

/// Whether game `game`, as it stands, would rate its people were it played to its end
/// ([`rates_people`] of its people and their seats). What a front end says before a
/// game (and before help that would make it casual).
pub fn rates(game: &NewGame) -> bool {
    let settings = &game.settings;
    let people = Mark::ALL
        .into_iter()
        .filter(|&mark| settings.player(mark).is_human())
        .map(|mark| (settings.player(mark).name(mark), &game.seats[mark.index()]));
    rates_people(people, game.casual)
}

/// Whether a game whose people are `people` (each one's name and whose their seat is),
/// would rate them: it is not `casual`, a person plays in it, and each person in it is
/// somebody: seated at the machine that keeps the games or signed in as the account of
/// their name ([`SeatHolder::is_somebody`], never a guest), and not under a name a
/// front end gives whoever gave none ([`is_placeholder`]).
pub fn rates_people<'a>(
    people: impl IntoIterator<Item = (PlayerName, &'a SeatHolder)>,
    casual: bool,
) -> bool {
    let mut anybody = false;
    for (name, holder) in people {
        anybody = true;
        if !holder.is_somebody() || is_placeholder(&name) {
            return false;
        }
    }
    anybody && !casual
}

/// The sides game `game` rates if it ended `ending`: each person in it, X first, or
/// nobody (see the module documentation). A game rates nobody when it is casual, when a
/// person in it is nobody in particular (a name a front end gives whoever gave none,
/// [`is_placeholder`]), when it did not count (left before its end, or aborted), or when
/// it was resigned (or lost on time) before each side had moved.
///
/// `movers` says who had moved by the end, from the game's kept steps: it is asked only
/// of a resignation or a time-out (a game played to its end had moves from both sides).
pub fn rated(
    game: &NewGame,
    ending: Ending,
    movers: impl FnOnce() -> Result<Movers, StoreError>,
) -> Result<Vec<(Mark, PlayerName)>, StoreError> {
    let settings = &game.settings;
    if !rates(game) || ending.counted(Mark::X).is_none() {
        return Ok(Vec::new());
    }
    if let Ending::Resigned(_) | Ending::TimedOut { .. } = ending {
        let movers = movers()?;
        if !Mark::ALL.into_iter().all(|mark| movers.has_moved(mark)) {
            return Ok(Vec::new());
        }
    }
    Ok(Mark::ALL
        .into_iter()
        .filter(|&mark| settings.player(mark).is_human())
        .map(|mark| (mark, settings.player(mark).name(mark)))
        .collect())
}

/// What game `game`, ended `ending`, does to the ratings of the people in it ([`rated`],
/// `movers` as it asks), given where each person's rating on its board stands now
/// (`current`: `None` for a person never rated there, who starts at
/// [`Anchor::start`]). X's change first. The one rule every store rates by, as each
/// game ends and when it rebuilds.
///
/// A person's rating after the game is Glicko-2's, no higher than
/// [`Anchor::ceiling`]: beating a level lifts a person at most to the next stronger
/// level's anchor, and nobody is rated above the strongest level's, since nobody
/// outplays perfect play.
pub fn rate(
    game: &NewGame,
    ending: Ending,
    movers: impl FnOnce() -> Result<Movers, StoreError>,
    mut current: impl FnMut(&PlayerName) -> Result<Option<Rating>, StoreError>,
) -> Result<Vec<RatingChange>, StoreError> {
    let people = rated(game, ending, movers)?;
    if people.is_empty() {
        return Ok(Vec::new());
    }
    let board = game.settings.geometry();
    let mut standing = [Rating::START; 2];
    for mark in Mark::ALL {
        standing[mark.index()] = match game.settings.player(mark) {
            PlayerSpec::Computer(level) => level.anchor(board).rating,
            person => current(&person.name(mark))?.unwrap_or_else(|| Anchor::start(board)),
        };
    }
    Ok(people
        .into_iter()
        .filter_map(|(mark, player)| {
            let score = score(ending, mark)?;
            let before = standing[mark.index()];
            let opponent = match game.settings.player(mark.opponent()) {
                PlayerSpec::Computer(level) => Some(*level),
                PlayerSpec::Human(_) => None,
            };
            let after = before
                .after(standing[mark.opponent().index()], score)
                .at_most(Anchor::ceiling(board, opponent, before));
            Some(RatingChange {
                game: game.id.clone(),
                mark,
                player,
                board,
                before,
                after,
            })
        })
        .collect())
}

/// How `ending` went for the side of `mark`; `None` if it did not count.
fn score(ending: Ending, mark: Mark) -> Option<Score> {
    let record = ending.counted(mark)?;
    Some(if record.wins > 0 {
        Score::Win
    } else if record.losses > 0 {
        Score::Loss
    } else {
        Score::Draw
    })
}

/// Ratings held in memory, each game rated in turn by [`rate`]: how a store rebuilds
/// its ratings from its games in order, and how the store in memory keeps them.
#[derive(Debug, Clone, Default)]
pub struct RatingBook {
    /// By board and name key.
    ratings: HashMap<(Geometry, String), PlayerRating>,
}

impl RatingBook {
    pub fn new() -> Self {
        RatingBook::default()
    }

    /// Rates game `game`, ended `ending`, against the ratings held (`movers` as
    /// [`rated`] asks), and holds the ratings after it; answers what it changed.
    pub fn rate(
        &mut self,
        game: &NewGame,
        ending: Ending,
        movers: impl FnOnce() -> Result<Movers, StoreError>,
    ) -> Result<Vec<RatingChange>, StoreError> {
        let board = game.settings.geometry();
        let changes = rate(game, ending, movers, |name| {
            Ok(self.get(board, name).map(|held| held.rating))
        })?;
        for change in &changes {
            self.keep(change);
        }
        Ok(changes)
    }

    /// Holds the rating `change` leaves its person with.
    pub fn keep(&mut self, change: &RatingChange) {
        self.ratings
            .entry((change.board, change.player.key()))
            .and_modify(|held| {
                held.rating = change.after;
                held.games = held.games.saturating_add(1);
            })
            .or_insert_with(|| PlayerRating {
                name: change.player.clone(),
                board: change.board,
                rating: change.after,
                games: 1,
            });
    }

    /// `player`'s rating on `board`, if they have one.
    pub fn get(&self, board: Geometry, player: &PlayerName) -> Option<&PlayerRating> {
        self.ratings.get(&(board, player.key()))
    }

    /// Every rating held, in no order.
    pub fn ratings(&self) -> impl Iterator<Item = &PlayerRating> {
        self.ratings.values()
    }

    /// How many ratings are held (a person on a board is one).
    pub fn len(&self) -> usize {
        self.ratings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ratings.is_empty()
    }
}

/// The order ratings are listed in: the higher rating first, then by name key (as
/// [`RatingStore::ratings`](crate::ports::RatingStore::ratings) and the stores' `ORDER BY rating DESC, key` list them).
pub fn best_first(a: (&Rating, &PlayerName), b: (&Rating, &PlayerName)) -> Ordering {
    b.0.rating()
        .total_cmp(&a.0.rating())
        .then_with(|| a.1.key().cmp(&b.1.key()))
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;
    use crate::domain::Outcome;
    use crate::fixtures::{new_game, person, settings};
    use crate::players::{Level, PlayerSpec};
    use crate::ports::{Change, SeatHolder};

    fn computer(level: Level) -> PlayerSpec {
        PlayerSpec::Computer(level)
    }

    fn never_rated(_: &PlayerName) -> Result<Option<Rating>, StoreError> {
        Ok(None)
    }

    /// Who moved in a game where both sides did.
    fn both_moved() -> Result<Movers, StoreError> {
        Ok(moved(&[Mark::X, Mark::O]))
    }

    /// Who moved when X moved first and the moves were made by `marks` in turn.
    fn moved(marks: &[Mark]) -> Movers {
        let mut movers = Movers::new(Mark::X);
        let cells = crate::domain::Geometry::classic();
        for (at, _) in marks.iter().enumerate() {
            movers.take(Change::Move(cells.position(at).unwrap()));
        }
        movers
    }

    /// What `game` ended in a draw does to its people, none of them rated before.
    fn drawn(game: &NewGame) -> Vec<RatingChange> {
        rate(
            game,
            Ending::Finished(Outcome::Draw),
            never_asked,
            never_rated,
        )
        .unwrap()
    }

    /// The strongest anchor on 3 x 3: no person is rated above it.
    fn top() -> f64 {
        Anchor::strongest(crate::domain::Geometry::classic()).rating()
    }

    fn never_asked() -> Result<Movers, StoreError> {
        panic!("who moved is asked only of a resignation")
    }

    #[test]
    fn a_game_between_people_rates_both_from_where_they_stand() {
        let game = new_game(1, settings(person("Ada"), person("Bob")));
        let bob = Rating::new(1300.0, 80.0, 0.06).unwrap();

        let changes = rate(
            &game,
            Ending::Finished(Outcome::Won(Mark::X)),
            never_asked,
            |name| Ok((name.as_str() == "Bob").then_some(bob)),
        )
        .unwrap();

        assert_eq!(changes.len(), 2);
        assert_eq!(
            (changes[0].mark, changes[0].before, changes[0].after),
            (
                Mark::X,
                Rating::START,
                Rating::START.after(bob, Score::Win).at_most(top())
            )
        );
        assert_eq!(
            (changes[1].mark, changes[1].before, changes[1].after),
            (Mark::O, bob, bob.after(Rating::START, Score::Loss))
        );
    }

    #[test]
    fn a_person_is_rated_against_the_levels_anchor_on_the_games_board() {
        let game = new_game(1, settings(person("Ada"), computer(Level::Medium)));
        let anchor = Level::Medium.anchor(game.settings.geometry()).rating;

        let changes = drawn(&game);

        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].after, Rating::START.after(anchor, Score::Draw));
    }

    #[rstest]
    #[case::computers_only(
        settings(computer(Level::Easy), computer(Level::Impossible)),
        Ending::Finished(Outcome::Draw)
    )]
    #[case::left_before_the_end(settings(person("Ada"), person("Bob")), Ending::Abandoned(Mark::O))]
    fn some_games_rate_nobody(#[case] settings: crate::play::Settings, #[case] ending: Ending) {
        let game = new_game(1, settings);

        assert_eq!(rate(&game, ending, both_moved, never_rated).unwrap(), []);
    }

    #[rstest]
    #[case::player_1("Player 1")]
    #[case::player_2_in_other_case("player 2")]
    #[case::player_x_as_kept_before("Player X")]
    fn a_game_with_a_person_who_gave_no_name_rates_nobody(#[case] nameless: &str) {
        let game = new_game(1, settings(person("Ada"), person(nameless)));

        let people = rated(&game, Ending::Finished(Outcome::Draw), never_asked).unwrap();

        assert_eq!(people, []);
    }

    #[rstest]
    #[case::a_guest(SeatHolder::Guest(crate::ports::SecretLock::parse(&"a".repeat(64)).unwrap()))]
    #[case::held_open_for_an_invite(SeatHolder::Invited(crate::ports::SecretLock::parse(&"b".repeat(64)).unwrap()))]
    fn a_game_with_a_seat_nobody_in_particular_holds_rates_nobody(#[case] holder: SeatHolder) {
        let mut game = new_game(1, settings(person("Ada"), person("Bob")));
        game.seats = [SeatHolder::Account, holder];

        let people = rated(&game, Ending::Finished(Outcome::Draw), never_asked).unwrap();

        assert_eq!(people, []);
    }

    #[test]
    fn a_game_of_an_account_against_the_computer_rates_the_account() {
        let mut game = new_game(1, settings(person("Ada"), computer(Level::Easy)));
        game.seats = [SeatHolder::Account, SeatHolder::Local];

        let people = rated(&game, Ending::Finished(Outcome::Draw), never_asked).unwrap();

        assert_eq!(people, [(Mark::X, PlayerName::new("Ada").unwrap())]);
    }

    #[test]
    fn a_casual_game_rates_nobody() {
        let mut game = new_game(1, settings(person("Ada"), computer(Level::Easy)));
        game.casual = true;

        let people = rated(&game, Ending::Finished(Outcome::Draw), never_asked).unwrap();

        assert_eq!(people, []);
    }

    #[test]
    fn a_resigned_game_between_people_who_both_moved_rates_both() {
        let game = new_game(1, settings(person("Ada"), person("Bob")));

        let people = rated(&game, Ending::Resigned(Mark::X), both_moved).unwrap();

        assert_eq!(people.len(), 2);
    }

    #[rstest]
    #[case::before_any_move(&[])]
    #[case::after_the_first_move_only(&[Mark::X])]
    fn a_game_resigned_before_each_side_moved_rates_nobody(#[case] moves: &[Mark]) {
        let game = new_game(1, settings(person("Ada"), person("Bob")));
        let movers = moved(moves);

        let people = rated(&game, Ending::Resigned(Mark::O), || Ok(movers)).unwrap();

        assert_eq!(people, []);
    }

    #[test]
    fn who_moved_that_cannot_be_read_is_an_error_not_a_rated_game() {
        let game = new_game(1, settings(person("Ada"), person("Bob")));

        let people = rated(&game, Ending::Resigned(Mark::O), || {
            Err(StoreError::NoLocation)
        });

        assert_eq!(people, Err(StoreError::NoLocation));
    }

    #[test]
    fn a_newcomer_is_rated_from_the_boards_start() {
        let board = crate::domain::Geometry::new(7, 7).unwrap();
        let seated =
            crate::play::Settings::new(person("Ada"), computer(Level::Random), Mark::X, board);
        let game = new_game(1, seated.unwrap());

        let changes = drawn(&game);

        assert_eq!(changes[0].before, Anchor::start(board));
    }

    #[test]
    fn beating_a_level_again_and_again_stops_at_the_next_stronger_levels_anchor() {
        // Arrange: Ada loses to Medium until she stands below Easy's anchor.
        let mut book = RatingBook::new();
        let board = crate::domain::Geometry::classic();
        for id in 0..10 {
            let game = new_game(id, settings(person("Ada"), computer(Level::Medium)));
            book.rate(&game, Ending::Finished(Outcome::Won(Mark::O)), never_asked)
                .unwrap();
        }
        let ada = PlayerName::new("Ada").unwrap();
        assert!(book.get(board, &ada).unwrap().rating.rating() < 1175.0);

        // Act: 60 wins over Random.
        for id in 10..70 {
            let game = new_game(id, settings(person("Ada"), computer(Level::Random)));
            book.rate(&game, Ending::Finished(Outcome::Won(Mark::X)), never_asked)
                .unwrap();
        }

        // Assert
        assert_eq!(
            book.get(board, &ada).unwrap().rating.rating(),
            Level::Easy.anchor(board).rating.rating()
        );
    }

    #[test]
    fn beating_another_person_again_and_again_stops_at_the_strongest_anchor() {
        let mut book = RatingBook::new();
        let board = crate::domain::Geometry::classic();

        for id in 0..200 {
            let game = new_game(
                id,
                settings(person("Mallory"), person(&format!("Pawn {id}"))),
            );
            book.rate(&game, Ending::Finished(Outcome::Won(Mark::X)), never_asked)
                .unwrap();
        }

        let mallory = book
            .get(board, &PlayerName::new("Mallory").unwrap())
            .unwrap();
        assert_eq!(mallory.rating.rating(), Anchor::strongest(board).rating());
    }

    #[test]
    fn resigning_is_rated_as_a_loss() {
        let game = new_game(1, settings(person("Ada"), computer(Level::Random)));
        let anchor = Level::Random.anchor(game.settings.geometry()).rating;

        let changes = rate(&game, Ending::Resigned(Mark::X), both_moved, never_rated).unwrap();

        assert_eq!(changes[0].after, Rating::START.after(anchor, Score::Loss));
    }

    #[test]
    fn a_rating_that_cannot_be_read_is_an_error_not_a_fresh_start() {
        let game = new_game(1, settings(person("Ada"), person("Bob")));

        let rated = rate(&game, Ending::Finished(Outcome::Draw), never_asked, |_| {
            Err(StoreError::NoLocation)
        });

        assert_eq!(rated, Err(StoreError::NoLocation));
    }

    #[test]
    fn a_book_rates_each_game_from_the_ratings_the_games_before_left() {
        let mut book = RatingBook::new();
        let first = new_game(1, settings(person("Ada"), person("Bob")));
        let second = new_game(2, settings(person("bob"), person("Cy")));

        let after_first = book
            .rate(&first, Ending::Finished(Outcome::Won(Mark::X)), never_asked)
            .unwrap();
        let after_second = book
            .rate(&second, Ending::Finished(Outcome::Draw), never_asked)
            .unwrap();

        assert_eq!(after_second[0].before, after_first[1].after);
        let bob = book.get(Geometry::classic(), &PlayerName::new("BOB").unwrap());
        assert_eq!(
            bob.map(|bob| (bob.name.as_str(), bob.games, bob.rating)),
            Some(("Bob", 2, after_second[0].after))
        );
    }
}
