//! Ratings per board, kept with each game's end: who a game rates, against whom, what
//! is kept of each change, the board's list, a player's ratings and their history, and
//! a rebuild that gives the same figures to the last bit.

use proptest::prelude::*;
use rstest_reuse::apply;
use tictactoe_core::domain::{Certainty, Rating};
use tictactoe_core::players::Anchor;
use tictactoe_core::ports::{PlayerRating, RatingChange, RatingHistoryQuery, RatingListQuery};
use tictactoe_core::rules::exactly_once::Movers;
use tictactoe_core::rules::rate;

use super::*;

fn classic() -> Geometry {
    Geometry::classic()
}

fn listing(board: Geometry, certainty: Certainty, top: u32) -> RatingListQuery {
    RatingListQuery {
        board,
        certainty,
        top,
    }
}

/// Every rating on `board`, settled and provisional.
fn everyone_on(store: &dyn Archive, board: Geometry) -> Vec<PlayerRating> {
    let mut everyone = store
        .ratings(&listing(board, Certainty::Settled, 1000))
        .unwrap();
    everyone.extend(
        store
            .ratings(&listing(board, Certainty::Provisional, 1000))
            .unwrap(),
    );
    everyone
}

fn computer(level: Level) -> PlayerSpec {
    PlayerSpec::Computer(level)
}

/// Everybody's rating on every board, and every game's change, as the store holds them:
/// what a rebuild must give back.
fn everything(
    store: &dyn Archive,
    names: &[&str],
    games: u128,
) -> (Vec<String>, Vec<RatingChange>) {
    let mut ratings = Vec::new();
    for player in names {
        for held in store.ratings_of(&name(player)).unwrap() {
            ratings.push(format!(
                "{} {}x{}/{} {:?} {:?} {:?} {}",
                held.name,
                held.board.size(),
                held.board.size(),
                held.board.win_length(),
                held.rating.rating().to_bits(),
                held.rating.deviation().to_bits(),
                held.rating.volatility().to_bits(),
                held.games
            ));
        }
    }
    let ids: Vec<GameId> = (1..=games).map(id).collect();
    (ratings, store.rating_changes(&ids).unwrap())
}

#[apply(stores)]
fn a_game_between_people_keeps_each_ones_change_with_the_game(#[case] store: Fresh) {
    people_ended(&*store, 1, ["Ada", "Bob"], won_by(Mark::X));

    let changes = store.rating_changes(&[id(1)]).unwrap();

    let expected = rate(&ada_bob(1), won_by(Mark::X), no_resignation, |_| Ok(None)).unwrap();
    assert_eq!(changes, expected);
    assert_eq!(
        changes[0].after,
        Rating::START
            .after(Rating::START, tictactoe_core::domain::Score::Win)
            .at_most(Anchor::strongest(classic()).rating())
    );
}

/// Who moved: asked only of a resignation.
fn no_resignation() -> Result<Movers, StoreError> {
    panic!("who moved is asked only of a resignation")
}

#[apply(stores)]
fn a_game_resigned_before_each_side_moved_rates_nobody(#[case] store: Fresh) {
    // Arrange: Ada moves; Bob resigns before his first move.
    people_ended(&*store, 1, ["Ada", "Bob"], Ending::Resigned(Mark::O));

    // Act
    let changes = store.rating_changes(&[id(1)]).unwrap();

    // Assert
    assert_eq!(changes, []);
    assert_eq!(store.ratings_of(&name("Ada")).unwrap(), []);
}

#[apply(stores)]
fn a_game_resigned_once_each_side_moved_rates_both(#[case] store: Fresh) {
    // Arrange: Ada 5, Bob 1, then Bob resigns.
    store
        .write(&[
            begin(&ada_bob(1)),
            play(1, 1, 5),
            play(1, 2, 1),
            end(1, Ending::Resigned(Mark::O)),
        ])
        .unwrap();

    // Act
    let changes = store.rating_changes(&[id(1)]).unwrap();

    // Assert
    assert_eq!(changes.len(), 2);
}

#[apply(stores)]
fn a_person_is_rated_against_the_levels_anchor(#[case] store: Fresh) {
    ended(&*store, 1, person("Ada"), computer(Level::Medium), draw());

    let changes = store.rating_changes(&[id(1)]).unwrap();

    let anchor = Level::Medium.anchor(classic()).rating;
    assert_eq!(changes.len(), 1);
    assert_eq!(
        changes[0].after,
        Rating::START.after(anchor, tictactoe_core::domain::Score::Draw)
    );
}

#[apply(stores)]
fn games_between_computers_and_games_left_rate_nobody(#[case] store: Fresh) {
    ended(
        &*store,
        1,
        computer(Level::Easy),
        computer(Level::Random),
        won_by(Mark::X),
    );
    people_ended(&*store, 2, ["Ada", "Bob"], Ending::Abandoned(Mark::X));

    let changes = store.rating_changes(&[id(1), id(2)]).unwrap();

    assert_eq!(changes, []);
    assert_eq!(everyone_on(&*store, classic()), []);
}

#[apply(stores)]
fn a_casual_game_is_kept_as_casual_and_rates_nobody(#[case] store: Fresh) {
    let casual = NewGame {
        casual: true,
        ..new_game(1, person("Ada"), computer(Level::Easy))
    };
    store
        .write(&[begin(&casual), play(1, 1, 5), end(1, won_by(Mark::X))])
        .unwrap();

    let kept = store.game(&id(1)).unwrap().unwrap();
    let changes = store.rating_changes(&[id(1)]).unwrap();

    assert!(kept.game.casual);
    assert_eq!(changes, []);
    assert_eq!(store.ratings_of(&name("Ada")).unwrap(), []);
}

#[apply(stores)]
fn a_rebuild_rates_no_casual_game(#[case] store: Fresh) {
    let casual = NewGame {
        casual: true,
        ..ada_bob(1)
    };
    store
        .write(&[begin(&casual), play(1, 1, 5), end(1, won_by(Mark::X))])
        .unwrap();

    let rebuilt = store.rebuild_ratings().unwrap();

    assert_eq!((rebuilt.games, rebuilt.ratings), (0, 0));
    assert_eq!(everyone_on(&*store, classic()), []);
}

#[apply(stores)]
fn each_game_is_rated_from_the_ratings_the_games_before_it_left(#[case] store: Fresh) {
    people_ended(&*store, 1, ["Ada", "Bob"], won_by(Mark::X));
    people_ended(&*store, 2, ["bob", "Cy"], draw());

    let changes = store.rating_changes(&[id(1), id(2)]).unwrap();

    assert_eq!(changes[2].before, changes[1].after);
}

#[apply(stores)]
fn a_boards_ratings_are_listed_best_first_with_how_many_games_made_each(#[case] store: Fresh) {
    people_ended(&*store, 1, ["Ada", "Bob"], won_by(Mark::X));
    people_ended(&*store, 2, ["Ada", "Cy"], won_by(Mark::X));

    let listed = store
        .ratings(&listing(classic(), Certainty::Provisional, 20))
        .unwrap();

    let rows: Vec<(&str, u64)> = listed
        .iter()
        .map(|held| (held.name.as_str(), held.games))
        .collect();
    assert_eq!(rows[0], ("Ada", 2));
    assert_eq!(rows.len(), 3);
    assert!(listed[1].rating.rating() >= listed[2].rating.rating());
}

#[apply(stores)]
fn settled_ratings_are_listed_apart_from_provisional_ones(#[case] store: Fresh) {
    let ada_settled = |store: &dyn Archive| {
        store
            .ratings_of(&name("Ada"))
            .unwrap()
            .first()
            .is_some_and(|held| !held.rating.provisional())
    };
    let mut n = 0;
    while !ada_settled(&*store) && n < 100 {
        n += 1;
        let ending = if n % 2 == 0 { won_by(Mark::X) } else { draw() };
        people_ended(&*store, n, ["Ada", "Bob"], ending);
    }
    people_ended(&*store, n + 1, ["Cy", "Di"], won_by(Mark::X));

    let settled = store
        .ratings(&listing(classic(), Certainty::Settled, 20))
        .unwrap();
    let provisional = store
        .ratings(&listing(classic(), Certainty::Provisional, 20))
        .unwrap();

    let names = |held: &[PlayerRating]| -> Vec<String> {
        held.iter()
            .map(|held| held.name.as_str().to_string())
            .collect()
    };
    assert_eq!(names(&settled), ["Ada", "Bob"]);
    assert_eq!(names(&provisional), ["Cy", "Di"]);
}

#[apply(stores)]
fn a_rating_on_one_board_is_not_a_rating_on_another(#[case] store: Fresh) {
    let big = Geometry::new(5, 4).unwrap();
    let game = NewGame {
        settings: Settings::new(person("Ada"), person("Bob"), Mark::X, big).unwrap(),
        ..ada_bob(1)
    };
    store
        .write(&[begin(&game), end(1, won_by(Mark::X))])
        .unwrap();

    assert_eq!(everyone_on(&*store, classic()), []);
    let ada = store.ratings_of(&name("ADA")).unwrap();
    assert_eq!(ada.len(), 1);
    assert_eq!(ada[0].board, big);
}

#[apply(stores)]
fn a_players_rating_history_is_their_rating_after_each_game_oldest_first(#[case] store: Fresh) {
    people_ended(&*store, 1, ["Ada", "Bob"], won_by(Mark::X));
    people_ended(&*store, 2, ["Cy", "Bob"], draw());
    people_ended(&*store, 3, ["Bob", "Ada"], won_by(Mark::X));

    let points = store
        .rating_history(&RatingHistoryQuery {
            player: name("Ada"),
            board: classic(),
            last: 10,
        })
        .unwrap();

    let changes = store.rating_changes(&[id(1), id(3)]).unwrap();
    let games: Vec<GameId> = points.iter().map(|point| point.game.clone()).collect();
    assert_eq!(games, [id(1), id(3)]);
    assert_eq!(points[0].rating, changes[0].after);
    assert_eq!(points[1].rating, changes[3].after);
}

#[apply(stores)]
fn a_rating_history_keeps_the_latest_points_when_limited(#[case] store: Fresh) {
    for n in 1..=3 {
        people_ended(&*store, n, ["Ada", "Bob"], draw());
    }

    let points = store
        .rating_history(&RatingHistoryQuery {
            player: name("Ada"),
            board: classic(),
            last: 2,
        })
        .unwrap();

    let games: Vec<GameId> = points.iter().map(|point| point.game.clone()).collect();
    assert_eq!(games, [id(2), id(3)]);
}

#[apply(stores)]
fn an_end_kept_twice_is_rated_once(#[case] store: Fresh) {
    people_ended(&*store, 1, ["Ada", "Bob"], won_by(Mark::X));

    store.write(&[end(1, won_by(Mark::X))]).unwrap();

    assert_eq!(store.rating_changes(&[id(1)]).unwrap().len(), 2);
    assert_eq!(store.ratings_of(&name("Ada")).unwrap()[0].games, 1);
}

#[apply(stores)]
fn a_rebuild_gives_the_same_figures_to_the_last_bit(#[case] store: Fresh) {
    let names = ["Ada", "Bob", "Cy", "Dee"];
    let mut seeded = Seeded(7);
    let games = 30;
    for n in 1..=games {
        let x = names[seeded.below(names.len())];
        let o = match seeded.below(3) {
            0 => computer(Level::ALL[seeded.below(4)]),
            _ => person(names.iter().find(|o| **o != x).copied().unwrap_or("Eve")),
        };
        let ending = [
            won_by(Mark::X),
            won_by(Mark::O),
            draw(),
            Ending::Resigned(Mark::O),
        ][seeded.below(4)];
        store
            .write(&[
                begin(&new_game(n, person(x), o)),
                play(n, 1, 5),
                play(n, 2, 1),
                end(n, ending),
            ])
            .unwrap();
    }
    let before = everything(&*store, &names, games);

    let rebuilt = store.rebuild_ratings().unwrap();

    assert_eq!(everything(&*store, &names, games), before);
    assert_eq!(rebuilt.games, games as u64);
}

/// One game of the property: X's and O's player (an index into [`PEOPLE`], or a level
/// past them), the board, the ending.
#[derive(Debug, Clone)]
struct Played {
    x: usize,
    o: usize,
    board: Geometry,
    ending: Ending,
}

const PEOPLE: [&str; 3] = ["Ada", "Bob", "Cy"];

fn spec(index: usize) -> PlayerSpec {
    match PEOPLE.get(index) {
        Some(player) => person(player),
        None => computer(Level::ALL[(index - PEOPLE.len()) % 4]),
    }
}

fn played() -> impl Strategy<Value = Played> {
    (
        0..PEOPLE.len() + 4,
        0..PEOPLE.len() + 4,
        prop::sample::select(vec![classic(), Geometry::new(4, 3).unwrap()]),
        prop::sample::select(Ending::ALL.to_vec()),
    )
        .prop_map(|(x, o, board, ending)| Played {
            x,
            o,
            board,
            ending,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Whatever games were kept, in whatever order, rebuilding the ratings from them
    /// gives back every rating and every change to the last bit (memory and SQLite;
    /// PostgreSQL runs the seeded case above).
    #[test]
    fn rebuilding_the_ratings_from_the_games_gives_them_back_to_the_last_bit(
        games in prop::collection::vec(played(), 1..25),
    ) {
        for store in [memory(), sqlite()] {
            for (n, game) in games.iter().enumerate() {
                let n = n as u128 + 1;
                // Two people of one name cannot sit down together: that game is not played.
                let Ok(settings) = Settings::new(spec(game.x), spec(game.o), Mark::X, game.board)
                else {
                    continue;
                };
                let new = NewGame { settings, ..ada_bob(n) };
                store.write(&[begin(&new), end(n, game.ending)]).unwrap();
            }
            let before = everything(&*store, &PEOPLE, games.len() as u128);

            store.rebuild_ratings().unwrap();

            prop_assert_eq!(everything(&*store, &PEOPLE, games.len() as u128), before);
        }
    }
}
