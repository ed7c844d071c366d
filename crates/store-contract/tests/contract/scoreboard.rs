//! The scoreboard is the count of the finished games, plus what was imported: a draw is
//! a tie for each player, a win a win and a loss, a resignation a loss for whoever
//! resigned and a win for the other; an abandoned game counts for nobody. Names are
//! compared ignoring letter case.

use rstest_reuse::apply;
use tictactoe_core::domain::{Scoreboard, Standing};
use tictactoe_core::ports::{Cleared, Imported, Restored};

use super::*;

#[apply(stores)]
fn a_draw_counts_a_tie_for_each_player(#[case] store: Fresh) {
    people_ended(&*store, 1, ["Ada", "Bob"], draw());

    assert_eq!(rows(&*store), [row("Ada", 0, 0, 1), row("Bob", 0, 0, 1)]);
}

#[apply(stores)]
fn a_win_counts_a_win_for_the_winner_and_a_loss_for_the_other(#[case] store: Fresh) {
    people_ended(&*store, 1, ["Ada", "Bob"], won_by(Mark::O));

    assert_eq!(rows(&*store), [row("Bob", 1, 0, 0), row("Ada", 0, 1, 0)]);
}

#[apply(stores)]
fn a_resignation_counts_a_loss_for_whoever_resigned_and_a_win_for_the_other(#[case] store: Fresh) {
    people_ended(&*store, 1, ["Ada", "Bob"], Ending::Resigned(Mark::X));

    assert_eq!(rows(&*store), [row("Bob", 1, 0, 0), row("Ada", 0, 1, 0)]);
}

#[apply(stores)]
fn an_abandoned_game_is_kept_but_counted_for_nobody(#[case] store: Fresh) {
    people_ended(&*store, 1, ["Ada", "Bob"], Ending::Abandoned(Mark::O));

    assert!(rows(&*store).is_empty());
    assert_eq!(
        store.game(&id(1)).unwrap().unwrap().ending,
        Some(Ending::Abandoned(Mark::O))
    );
}

#[apply(stores)]
fn a_game_being_played_counts_for_nobody(#[case] store: Fresh) {
    ada_moved(&*store, 1);

    assert!(rows(&*store).is_empty());
}

#[apply(stores)]
fn people_with_the_default_name_and_computers_count_under_their_shown_names(#[case] store: Fresh) {
    ended(
        &*store,
        1,
        PlayerSpec::Human(None),
        PlayerSpec::Computer(Level::Easy),
        won_by(Mark::X),
    );

    assert_eq!(
        rows(&*store),
        [row("Player X", 1, 0, 0), row("Computer (Easy)", 0, 1, 0)]
    );
}

#[apply(stores)]
fn a_name_in_another_case_counts_on_the_same_row_as_first_spelled(#[case] store: Fresh) {
    people_ended(&*store, 1, ["Ada", "Bob"], won_by(Mark::X));

    people_ended(&*store, 2, ["BOB", "ada"], won_by(Mark::O));

    assert_eq!(rows(&*store), [row("Ada", 2, 0, 0), row("Bob", 0, 2, 0)]);
}

#[apply(stores)]
fn the_scoreboard_is_the_count_of_the_games_kept(#[case] store: Fresh) {
    let mut random = Seeded(0x5eed);
    let games = 300;
    for n in 1..=games {
        let (_, writes) = random_game(&mut random, n);
        store.write(&writes).unwrap();
    }

    let board = shown(&*store);

    assert_eq!(board, recounted(&*store, games));
}

#[apply(stores)]
fn rows_are_ranked_by_wins_then_fewest_losses_then_name(#[case] store: Fresh) {
    people_ended(&*store, 1, ["Cy", "Bob"], won_by(Mark::X));
    people_ended(&*store, 2, ["Ada", "Dee"], won_by(Mark::X));
    people_ended(&*store, 3, ["Ada", "Cy"], draw());
    people_ended(&*store, 4, ["Eve", "Flo"], draw());

    let order: Vec<String> = rows(&*store).into_iter().map(|(name, _)| name).collect();

    assert_eq!(order, ["Ada", "Cy", "Eve", "Flo", "Bob", "Dee"]);
}

#[apply(stores)]
fn top_gives_the_first_rows_in_rank_order(#[case] store: Fresh) {
    let mut random = Seeded(7);
    for n in 1..=60 {
        store.write(&random_game(&mut random, n).1).unwrap();
    }
    let whole = store.scoreboard(None).unwrap();

    let top = store.scoreboard(Some(3)).unwrap();

    assert_eq!(top.standings(), &whole.standings()[..3]);
}

#[apply(stores)]
fn top_beyond_the_board_gives_the_whole_board(#[case] store: Fresh) {
    people_ended(&*store, 1, ["Ada", "Bob"], draw());

    let top = store.scoreboard(Some(u64::MAX)).unwrap();

    assert_eq!(top.standings().len(), 2);
}

#[apply(stores)]
fn the_rows_of_some_players_are_theirs_only_in_rank_order(#[case] store: Fresh) {
    people_ended(&*store, 1, ["Ada", "Bob"], won_by(Mark::O));
    people_ended(&*store, 2, ["Cy", "Dee"], draw());

    let picked = store
        .standings_of(&[name("ada"), name("BOB"), name("Nobody")])
        .unwrap();

    assert_eq!(
        picked.standings(),
        [
            Standing {
                name: name("Bob"),
                record: record(1, 0, 0)
            },
            Standing {
                name: name("Ada"),
                record: record(0, 1, 0)
            }
        ]
    );
}

#[apply(stores)]
fn a_reset_clears_the_board_and_keeps_the_games(#[case] store: Fresh) {
    people_ended(&*store, 1, ["Ada", "Bob"], draw());

    let cleared = store.reset().unwrap();

    assert_eq!(cleared, Cleared { players: 2 });
    assert!(rows(&*store).is_empty());
    assert!(store.game(&id(1)).unwrap().is_some());
}

#[apply(stores)]
fn games_after_a_reset_count_on_the_new_board(#[case] store: Fresh) {
    people_ended(&*store, 1, ["Ada", "Bob"], draw());
    store.reset().unwrap();

    people_ended(&*store, 2, ["Ada", "Cy"], won_by(Mark::X));

    assert_eq!(rows(&*store), [row("Ada", 1, 0, 0), row("Cy", 0, 1, 0)]);
}

#[apply(stores)]
fn a_restore_brings_back_the_board_with_the_games_since(#[case] store: Fresh) {
    people_ended(&*store, 1, ["Ada", "Bob"], draw());
    store.reset().unwrap();
    people_ended(&*store, 2, ["ADA", "Cy"], won_by(Mark::X));

    let restored = store.restore().unwrap();

    assert_eq!(restored, Restored::Restored { players: 3 });
    assert_eq!(
        rows(&*store),
        [row("Ada", 1, 0, 1), row("Bob", 0, 0, 1), row("Cy", 0, 1, 0)]
    );
}

/// Ada and Bob's draw, the board reset, then Cy and Dee's draw: two players on the
/// board set aside, two on the board shown.
fn draws_on_two_boards(store: &dyn GameStore) {
    people_ended(store, 1, ["Ada", "Bob"], draw());
    store.reset().unwrap();
    people_ended(store, 2, ["Cy", "Dee"], draw());
}

#[apply(stores)]
fn restores_take_back_resets_the_last_first(#[case] store: Fresh) {
    draws_on_two_boards(&*store);
    store.reset().unwrap();

    store.restore().unwrap();
    let after_one = rows(&*store).len();
    store.restore().unwrap();
    let after_two = rows(&*store).len();

    assert_eq!((after_one, after_two), (2, 4));
}

#[apply(stores)]
fn a_reset_after_a_restore_starts_an_empty_board_again(#[case] store: Fresh) {
    draws_on_two_boards(&*store);
    store.restore().unwrap();

    let cleared = store.reset().unwrap();

    assert_eq!(cleared, Cleared { players: 4 });
    assert!(rows(&*store).is_empty());
}

#[apply(stores)]
fn a_restore_with_no_reset_to_take_back_says_so(#[case] store: Fresh) {
    people_ended(&*store, 1, ["Ada", "Bob"], draw());

    let restored = store.restore().unwrap();

    assert_eq!(restored, Restored::NothingToRestore);
    assert_eq!(rows(&*store).len(), 2);
}

fn old_file() -> Scoreboard {
    Scoreboard::from_standings([
        Standing {
            name: name("Ada"),
            record: record(3, 1, 0),
        },
        Standing {
            name: name("Old Timer"),
            record: record(0, 2, 5),
        },
    ])
}

#[apply(stores)]
fn an_import_adds_its_rows_to_the_games(#[case] store: Fresh) {
    people_ended(&*store, 1, ["ada", "Bob"], won_by(Mark::X));

    let imported = store.import("scores.json", &old_file()).unwrap();

    assert_eq!(imported, Imported::Added { players: 2 });
    assert_eq!(
        rows(&*store),
        [
            row("ada", 4, 1, 0),
            row("Bob", 0, 1, 0),
            row("Old Timer", 0, 2, 5)
        ]
    );
}

#[apply(stores)]
fn a_source_is_imported_once(#[case] store: Fresh) {
    store.import("scores.json", &old_file()).unwrap();

    let again = store.import("scores.json", &old_file()).unwrap();

    assert_eq!(again, Imported::AlreadyImported);
    assert_eq!(record_of(&*store, "Ada"), Some(record(3, 1, 0)));
}

#[apply(stores)]
fn another_source_is_imported_too(#[case] store: Fresh) {
    store.import("scores.json", &old_file()).unwrap();

    let other = store.import("backup/scores.json", &old_file()).unwrap();

    assert_eq!(other, Imported::Added { players: 2 });
    assert_eq!(record_of(&*store, "Ada"), Some(record(6, 2, 0)));
}

#[apply(stores)]
fn imported_rows_are_cleared_and_restored_like_any_other(#[case] store: Fresh) {
    store.import("scores.json", &old_file()).unwrap();

    let cleared = store.reset().unwrap();
    let restored = store.restore().unwrap();

    assert_eq!(cleared, Cleared { players: 2 });
    assert_eq!(restored, Restored::Restored { players: 2 });
    assert_eq!(record_of(&*store, "Old Timer"), Some(record(0, 2, 5)));
}

/// Counts stop at the largest a store can hold (at least 2^63 - 1) rather than wrap or
/// fail: a count that large can only come from an imported file.
#[apply(stores)]
fn counts_saturate_instead_of_overflowing(#[case] store: Fresh) {
    let huge = Scoreboard::from_standings([Standing {
        name: name("Ada"),
        record: record(u64::MAX / 2, 0, 0),
    }]);
    store.import("a", &huge).unwrap();
    store.import("b", &huge).unwrap();

    people_ended(&*store, 1, ["Ada", "Bob"], won_by(Mark::X));

    let wins = record_of(&*store, "Ada").unwrap().wins;
    assert!(wins >= i64::MAX as u64, "{wins}");
}
