//! Ratings per board, kept by the store with the games: the rule of which games rate
//! whom, written once ([`rate`], [`RatingBook`]); what a store keeps of each game's
//! change ([`RatingChange`]); and the port that lists and rebuilds them
//! ([`RatingStore`]).
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
use std::time::SystemTime;

use crate::domain::{Certainty, Geometry, Mark, PlayerName, Rating, Score};
use crate::players::{Anchor, Level, PlayerSpec, is_placeholder};

use super::exactly_once::Movers;
use super::{Ending, GameId, NewGame, SeatHolder, StoreError};

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
/// [`is_placeholder`]), when it did not count (left before its end), or when it was
/// resigned before each side had moved (given up at the start).
///
/// `movers` says who had moved by the end, from the game's kept steps: it is asked only
/// of a resignation (a game played to its end had moves from both sides).
pub fn rated(
    game: &NewGame,
    ending: Ending,
    movers: impl FnOnce() -> Result<Movers, StoreError>,
) -> Result<Vec<(Mark, PlayerName)>, StoreError> {
    let settings = &game.settings;
    if !rates(game) || ending.counted(Mark::X).is_none() {
        return Ok(Vec::new());
    }
    if let Ending::Resigned(_) = ending {
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

/// The order ratings are listed in: the higher rating first, then by name key (as
/// [`RatingStore::ratings`] and the stores' `ORDER BY rating DESC, key` list them).
pub fn best_first(a: (&Rating, &PlayerName), b: (&Rating, &PlayerName)) -> Ordering {
    b.0.rating()
        .total_cmp(&a.0.rating())
        .then_with(|| a.1.key().cmp(&b.1.key()))
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
    use rstest::rstest;

    use super::*;
    use crate::domain::Outcome;
    use crate::fixtures::{new_game, person, settings};
    use crate::players::PlayerSpec;

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
            movers.take(super::super::Change::Move(cells.position(at).unwrap()));
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
