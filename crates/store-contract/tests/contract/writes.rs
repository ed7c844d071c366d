//! Every write is kept exactly once: a write the store has is a no-op, and one that
//! contradicts what it has is refused, changing nothing.

use rstest_reuse::apply;

use super::*;

#[apply(stores)]
fn a_retried_begin_is_kept_once(#[case] store: Fresh) {
    store.write(&[begin(&ada_bob(1))]).unwrap();

    let retried = store.write(&[begin(&ada_bob(1))]);

    assert!(retried.is_ok());
    assert_eq!(store.game(&id(1)).unwrap().unwrap().game, ada_bob(1));
}

#[apply(stores)]
fn a_retried_step_is_kept_once(#[case] store: Fresh) {
    ada_moved(&*store, 1);

    let retried = store.write(&[play(1, 1, 5)]);

    assert!(retried.is_ok());
    assert_eq!(steps_of(&*store, 1), 1);
}

#[apply(stores)]
fn a_retried_end_is_kept_once_and_counted_once(#[case] store: Fresh) {
    ada_won(&*store, 1);

    let retried = store.write(&[end(1, won_by(Mark::X))]);

    assert!(retried.is_ok());
    assert_eq!(record_of(&*store, "Ada"), Some(record(1, 0, 0)));
    assert_eq!(record_of(&*store, "Bob"), Some(record(0, 1, 0)));
}

#[apply(stores)]
fn a_whole_game_sent_again_is_kept_once(#[case] store: Fresh) {
    let game = [
        begin(&ada_bob(1)),
        play(1, 1, 5),
        play(1, 2, 1),
        end(1, draw()),
    ];
    store.write(&game).unwrap();

    let retried = store.write(&game);

    assert!(retried.is_ok());
    assert_eq!(steps_of(&*store, 1), 2);
    assert_eq!(record_of(&*store, "Ada"), Some(record(0, 0, 1)));
}

#[apply(stores)]
fn another_change_under_a_kept_step_number_is_a_conflict_and_changes_nothing(#[case] store: Fresh) {
    ada_moved(&*store, 1);

    let other_cell = store.write(&[play(1, 1, 9)]);
    let an_undo = store.write(&[undo(1, 1, 1)]);

    assert_eq!(
        other_cell,
        refused(1, Conflict::AnotherChange { number: 1 })
    );
    assert_eq!(an_undo, refused(1, Conflict::AnotherChange { number: 1 }));
    let steps = store.game(&id(1)).unwrap().unwrap().steps;
    assert_eq!(
        steps,
        [Step {
            number: 1,
            change: Change::Move(cell(5))
        }]
    );
}

#[apply(stores)]
fn a_step_after_a_gap_is_a_conflict(#[case] store: Fresh) {
    ada_moved(&*store, 1);

    let result = store.write(&[play(1, 3, 1)]);

    assert_eq!(result, refused(1, gap(3, 1)));
    assert_eq!(steps_of(&*store, 1), 1);
}

#[apply(stores)]
fn a_step_numbered_zero_is_a_conflict(#[case] store: Fresh) {
    store.write(&[begin(&ada_bob(1))]).unwrap();

    let result = store.write(&[play(1, 0, 5)]);

    assert_eq!(result, refused(1, Conflict::NumberedZero));
}

#[apply(stores)]
fn a_step_after_the_end_is_a_conflict(#[case] store: Fresh) {
    store
        .write(&[begin(&ada_bob(1)), play(1, 1, 5), end(1, won_by(Mark::O))])
        .unwrap();

    let result = store.write(&[play(1, 2, 1)]);

    assert_eq!(result, refused(1, Conflict::Over));
    assert_eq!(steps_of(&*store, 1), 1);
}

#[apply(stores)]
fn a_move_off_the_games_board_is_a_conflict_and_is_not_kept(#[case] store: Fresh) {
    // Arrange: the last cell of a 4 x 4 board, for a 3 x 3 game.
    let off_the_board = Write::Step {
        game: id(1),
        step: Step {
            number: 2,
            change: Change::Move(Geometry::new(4, 3).unwrap().position(15).unwrap()),
        },
    };
    ada_moved(&*store, 1);

    // Act
    let result = store.write(&[off_the_board]);

    // Assert: not kept, and refused naming the move, its cell and the board's size.
    assert_eq!(steps_of(&*store, 1), 1);
    assert_eq!(
        result,
        refused(
            1,
            Conflict::OffBoard {
                number: 2,
                cell: 15,
                size: 3
            }
        )
    );
}

#[apply(stores)]
fn another_ending_is_a_conflict_and_the_first_stands(#[case] store: Fresh) {
    ada_won(&*store, 1);

    let result = store.write(&[end(1, won_by(Mark::O))]);

    assert_eq!(result, refused(1, Conflict::EndedOtherwise));
    let kept = store.game(&id(1)).unwrap().unwrap();
    assert_eq!(kept.ending, Some(won_by(Mark::X)));
    assert_eq!(record_of(&*store, "Ada"), Some(record(1, 0, 0)));
}

#[apply(stores)]
fn another_game_under_a_kept_id_is_a_conflict(#[case] store: Fresh) {
    store.write(&[begin(&ada_bob(1))]).unwrap();
    let impostor = new_game(1, person("Cy"), person("Dee"));

    let result = store.write(&[begin(&impostor)]);

    assert_eq!(result, refused(1, Conflict::AnotherGame));
    assert_eq!(store.game(&id(1)).unwrap().unwrap().game, ada_bob(1));
}

#[apply(stores)]
fn a_step_for_an_unknown_game_is_no_such_game(#[case] store: Fresh) {
    let result = store.write(&[play(7, 1, 5)]);

    assert!(
        matches!(&result, Err(StoreError::NoSuchGame(game)) if *game == id(7)),
        "{result:?}"
    );
}

#[apply(stores)]
fn an_end_for_an_unknown_game_is_no_such_game(#[case] store: Fresh) {
    let result = store.write(&[end(7, draw())]);

    assert!(
        matches!(&result, Err(StoreError::NoSuchGame(game)) if *game == id(7)),
        "{result:?}"
    );
    assert!(rows(&*store).is_empty());
}

#[apply(stores)]
fn a_rematch_of_an_unknown_game_is_no_such_game(#[case] store: Fresh) {
    let rematch = NewGame {
        follows: Some(id(7)),
        ..ada_bob(2)
    };

    let result = store.write(&[begin(&rematch)]);

    assert!(
        matches!(&result, Err(StoreError::NoSuchGame(game)) if *game == id(7)),
        "{result:?}"
    );
    assert_eq!(store.game(&id(2)).unwrap(), None);
}

#[apply(stores)]
fn a_batch_with_one_bad_write_keeps_none_of_it(#[case] store: Fresh) {
    store.write(&[begin(&ada_bob(1))]).unwrap();

    let result = store.write(&[
        begin(&ada_bob(2)),
        play(1, 1, 5),
        end(2, won_by(Mark::X)),
        play(1, 3, 1), // a gap: refused, and with it the whole batch
    ]);

    assert_eq!(result, refused(1, gap(3, 1)));
    assert_eq!(store.game(&id(2)).unwrap(), None);
    assert!(store.game(&id(1)).unwrap().unwrap().steps.is_empty());
    assert!(rows(&*store).is_empty());
}

// `write_new`: a writer that shares its games with others (several servers) is told
// when another writer kept a change first, instead of having its write taken as a retry.

#[apply(stores)]
fn a_new_step_is_kept_by_write_new(#[case] store: Fresh) {
    store.write(&[begin(&ada_bob(1))]).unwrap();

    let kept = store.write_new(&[play(1, 1, 5), play(1, 2, 1)]);

    assert!(kept.is_ok());
    assert_eq!(steps_of(&*store, 1), 2);
}

#[apply(stores)]
fn a_step_already_kept_is_a_conflict_for_write_new_even_when_it_is_the_same(#[case] store: Fresh) {
    ada_moved(&*store, 1);

    let second = store.write_new(&[play(1, 1, 5)]);

    assert_eq!(second, refused(1, Conflict::KeptFirst));
    assert_eq!(steps_of(&*store, 1), 1);
}

#[apply(stores)]
fn an_ending_already_kept_is_a_conflict_for_write_new_and_is_counted_once(#[case] store: Fresh) {
    ada_won(&*store, 1);

    let second = store.write_new(&[end(1, won_by(Mark::X))]);

    assert_eq!(second, refused(1, Conflict::KeptFirst));
    assert_eq!(record_of(&*store, "Ada"), Some(record(1, 0, 0)));
}

#[apply(stores)]
fn a_game_already_begun_is_a_conflict_for_write_new(#[case] store: Fresh) {
    store.write(&[begin(&ada_bob(1))]).unwrap();

    let second = store.write_new(&[begin(&ada_bob(1))]);

    assert_eq!(second, refused(1, Conflict::KeptFirst));
}

#[apply(stores)]
fn a_write_new_refused_part_way_keeps_none_of_its_writes(#[case] store: Fresh) {
    ada_moved(&*store, 1);

    let result = store.write_new(&[begin(&ada_bob(2)), play(1, 1, 5)]);

    assert_eq!(result, refused(1, Conflict::KeptFirst));
    assert!(store.game(&id(2)).unwrap().is_none());
}
