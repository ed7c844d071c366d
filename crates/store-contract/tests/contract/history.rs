//! The ended games, newest first, a page at a time; games found by the start of their
//! id; a player's results against each opponent.

use std::collections::HashSet;

use rstest_reuse::apply;
use tictactoe_core::ports::{GameHistory, HistoryQuery, IdPrefix, PageSize, Rivalry};

use super::*;

fn everybody(limit: u64) -> HistoryQuery {
    HistoryQuery {
        player: None,
        before: None,
        limit: PageSize::new(limit).unwrap(),
    }
}

fn of(player: &str, limit: u64) -> HistoryQuery {
    HistoryQuery {
        player: Some(name(player)),
        ..everybody(limit)
    }
}

/// The ids on a page, as their numbers.
fn ids(page: &[tictactoe_core::ports::GameSummary]) -> Vec<GameId> {
    page.iter().map(|game| game.id.clone()).collect()
}

/// Every page of `query`, cursor after cursor: the ids in the order given.
fn every_page(store: &dyn GameHistory, mut query: HistoryQuery) -> Vec<GameId> {
    let mut seen = Vec::new();
    loop {
        let page = store.history(&query).unwrap();
        assert!(page.games.len() <= query.limit.get() as usize);
        seen.extend(ids(&page.games));
        match page.next {
            Some(next) => query.before = Some(next),
            None => return seen,
        }
    }
}

#[apply(stores)]
fn a_store_without_games_has_an_empty_history(#[case] store: Fresh) {
    let page = store.history(&everybody(20)).unwrap();

    assert!(page.games.is_empty());
    assert_eq!(page.next, None);
}

#[apply(stores)]
fn the_history_lists_the_ended_games_newest_first(#[case] store: Fresh) {
    people_ended(&*store, 1, ["Ada", "Bob"], draw());
    people_ended(&*store, 2, ["Cy", "Bob"], won_by(Mark::X));
    people_ended(&*store, 3, ["Ada", "Cy"], Ending::Abandoned(Mark::O));
    store.write(&[begin(&ada_bob(4))]).unwrap(); // still being played

    let page = store.history(&everybody(20)).unwrap();

    assert_eq!(ids(&page.games), [id(3), id(2), id(1)]);
}

#[apply(stores)]
fn a_summary_tells_who_played_how_it_ended_and_how_many_moves_stand(#[case] store: Fresh) {
    ended_with_an_undo(&*store);

    let summary = store.history(&everybody(1)).unwrap().games.remove(0);

    assert_eq!(summary.settings, ada_bob(1).settings);
    assert_eq!(summary.ending, Ending::Resigned(Mark::X));
    assert_eq!(summary.moves, 2);
    assert!(summary.started <= summary.ended);
}

#[apply(stores)]
fn a_players_history_holds_their_games_on_either_side_under_any_spelling(#[case] store: Fresh) {
    people_ended(&*store, 1, ["Ada", "Bob"], draw());
    people_ended(&*store, 2, ["Bob", "Cy"], draw());
    people_ended(&*store, 3, ["Cy", "ADA"], draw());

    let page = store.history(&of("ada", 20)).unwrap();

    assert_eq!(ids(&page.games), [id(3), id(1)]);
}

#[apply(stores)]
fn a_game_between_two_computers_of_one_level_is_listed_once_for_that_level(#[case] store: Fresh) {
    let impossible = PlayerSpec::Computer(Level::Impossible);
    ended(&*store, 1, impossible.clone(), impossible, draw());

    let page = store.history(&of("Computer (Impossible)", 20)).unwrap();

    assert_eq!(ids(&page.games), [id(1)]);
}

#[apply(stores)]
fn a_page_gives_a_cursor_only_while_older_games_remain(#[case] store: Fresh) {
    for n in 1..=4 {
        ended(&*store, n, person("Ada"), person("Bob"), draw());
    }

    let first = store.history(&everybody(2)).unwrap();
    let second = store
        .history(&HistoryQuery {
            before: first.next.clone(),
            ..everybody(2)
        })
        .unwrap();

    assert_eq!(ids(&first.games), [id(4), id(3)]);
    assert_eq!(first.next, Some(id(3)));
    assert_eq!(ids(&second.games), [id(2), id(1)]);
    assert_eq!(second.next, None);
}

#[apply(stores)]
fn paging_through_a_history_gives_every_ended_game_exactly_once(#[case] store: Fresh) {
    // Arrange: 120 random games in batches (many begun in one millisecond), some not
    // ended.
    let mut random = Seeded(0x005e_ed0f_ba5e);
    let mut batch = Vec::new();
    for n in 1..=120 {
        batch.extend(random_game(&mut random, n).1);
        if n % 8 == 0 {
            store.write(&std::mem::take(&mut batch)).unwrap();
        }
    }
    let kept: Vec<_> = (1..=120)
        .map(|n| store.game(&id(n)).unwrap().unwrap())
        .collect();
    let expected = |player: Option<&str>| -> HashSet<GameId> {
        kept.iter()
            .filter(|game| game.ending.is_some())
            .filter(|game| {
                player.is_none_or(|player| {
                    Mark::ALL.iter().any(|&mark| {
                        game.game.settings.player(mark).name(mark).key() == name(player).key()
                    })
                })
            })
            .map(|game| game.game.id.clone())
            .collect()
    };

    for (player, query) in [(None, everybody(7)), (Some("ada"), of("ada", 3))] {
        // Act
        let seen = every_page(&*store, query);

        // Assert: each game once, and newest first.
        let unique: HashSet<GameId> = seen.iter().cloned().collect();
        assert_eq!(
            unique.len(),
            seen.len(),
            "a game listed twice for {player:?}"
        );
        assert_eq!(unique, expected(player), "for {player:?}");
        let started: Vec<_> = seen
            .iter()
            .map(|game| (store.game(game).unwrap().unwrap().started, game.clone()))
            .collect();
        assert!(
            started.windows(2).all(|pair| pair[0] > pair[1]),
            "for {player:?}"
        );
    }
}

#[apply(stores)]
fn a_cursor_naming_no_kept_game_is_refused(#[case] store: Fresh) {
    let result = store.history(&HistoryQuery {
        before: Some(id(99)),
        ..everybody(20)
    });

    assert!(matches!(result, Err(StoreError::NoSuchGame(game)) if game == id(99)));
}

#[apply(stores)]
fn games_are_found_by_the_start_of_their_id_in_id_order(#[case] store: Fresh) {
    for bits in [0xab1 << 116, 0xab2 << 116, 0xac0 << 116] {
        store
            .write(&[begin(&new_game(bits, person("Ada"), person("Bob")))])
            .unwrap();
    }

    let found = |prefix: &str, limit| {
        store
            .games_starting(&IdPrefix::parse(prefix).unwrap(), limit)
            .unwrap()
    };

    assert_eq!(found("AB", 5), [id(0xab1 << 116), id(0xab2 << 116)]);
    assert_eq!(found("ab", 1), [id(0xab1 << 116)]);
    assert_eq!(found("ac", 5), [id(0xac0 << 116)]);
    assert!(found("ad", 5).is_empty());
}

#[apply(stores)]
fn a_players_results_are_counted_against_each_opponent_from_their_side(#[case] store: Fresh) {
    // Arrange: Ada beats Bob twice (once when he resigns) and draws once; loses to
    // Impossible; leaves a game against Cy (not counted).
    let impossible = PlayerSpec::Computer(Level::Impossible);
    people_ended(&*store, 1, ["Ada", "Bob"], won_by(Mark::X));
    people_ended(&*store, 2, ["bob", "ADA"], Ending::Resigned(Mark::X));
    people_ended(&*store, 3, ["Ada", "Bob"], draw());
    ended(&*store, 4, impossible, person("Ada"), won_by(Mark::X));
    people_ended(&*store, 5, ["Ada", "Cy"], Ending::Abandoned(Mark::X));

    // Act
    let opponents = store.opponents(&name("ada"), 10).unwrap();

    // Assert
    let shown: Vec<(String, Record)> = opponents
        .most_played
        .into_iter()
        .map(|Rivalry { opponent, record }| (opponent.as_str().to_owned(), record))
        .collect();
    assert_eq!(
        shown,
        [
            ("Bob".to_owned(), record(2, 0, 1)),
            ("Computer (Impossible)".to_owned(), record(0, 1, 0)),
        ]
    );
    assert_eq!(opponents.total, record(2, 1, 1));
    assert_eq!(opponents.others, 0);
}

#[apply(stores)]
fn the_most_played_opponents_are_listed_and_the_others_counted(#[case] store: Fresh) {
    // Arrange: Ada plays Cy three times, Bob twice, Dee once.
    let mut n = 0;
    for (rival, games) in [("Bob", 2), ("Cy", 3), ("Dee", 1)] {
        for _ in 0..games {
            n += 1;
            ended(&*store, n, person("Ada"), person(rival), draw());
        }
    }

    // Act
    let opponents = store.opponents(&name("Ada"), 2).unwrap();

    // Assert
    let listed: Vec<&str> = opponents
        .most_played
        .iter()
        .map(|rival| rival.opponent.as_str())
        .collect();
    assert_eq!(listed, ["Cy", "Bob"]);
    assert_eq!(opponents.others, 1);
    assert_eq!(opponents.total, record(0, 0, 6));
}

#[apply(stores)]
fn each_players_record_against_everybody_is_the_count_of_their_games(#[case] store: Fresh) {
    // Arrange: 150 seeded random games, some resigned, left or not over.
    let mut random = Seeded(0x0bad_cafe);
    for n in 1..=150 {
        store.write(&random_game(&mut random, n).1).unwrap();
    }
    let recount = recounted(&*store, 150);

    for (key, counted) in &recount {
        // Act
        let opponents = store.opponents(&name(key), 1000).unwrap();

        // Assert
        assert_eq!(opponents.total, *counted, "{key}");
        let mut listed = Record::default();
        for rival in &opponents.most_played {
            listed.add(rival.record);
        }
        assert_eq!(listed, *counted, "{key}");
    }
}

#[apply(stores)]
fn a_computer_that_played_itself_has_both_sides_against_itself(#[case] store: Fresh) {
    let impossible = PlayerSpec::Computer(Level::Impossible);
    ended(&*store, 1, impossible.clone(), impossible, won_by(Mark::O));

    let opponents = store.opponents(&name("Computer (Impossible)"), 10).unwrap();

    assert_eq!(opponents.total, record(1, 1, 0));
    assert_eq!(opponents.most_played.len(), 1);
}

#[apply(stores)]
fn a_player_without_counted_games_has_no_opponents(#[case] store: Fresh) {
    people_ended(&*store, 1, ["Ada", "Bob"], draw());

    let opponents = store.opponents(&name("Dee"), 10).unwrap();

    assert!(opponents.most_played.is_empty());
    assert_eq!(opponents.total, record(0, 0, 0));
    assert_eq!(opponents.others, 0);
}
