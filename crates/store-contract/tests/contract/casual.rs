//! A game a person took help in (a hint, a move taken back against the computer) becomes
//! casual while it is played: kept once, read back, and its end rates nobody; a game
//! that has ended stays as rated as it ended.

use rstest_reuse::apply;

use super::*;

/// Game `n` rates nobody from now on.
fn casual(n: u128) -> Write {
    Write::Casual { game: id(n) }
}

/// Whether the store holds game `n` as casual.
fn is_casual(store: &dyn GameStore, n: u128) -> bool {
    store.game(&id(n)).unwrap().expect("the game").game.casual
}

#[apply(stores)]
fn a_game_made_casual_while_it_is_played_reads_back_casual(#[case] store: Fresh) {
    // Arrange
    ada_moved(&*store, 1);

    // Act
    let made = store.write(&[casual(1)]);

    // Assert
    assert!(made.is_ok());
    assert!(is_casual(&*store, 1));
}

#[apply(stores)]
fn a_game_made_casual_rates_nobody_at_its_end(#[case] store: Fresh) {
    // Arrange: Ada 5, Bob 1, the game made casual, then Bob resigns.
    store
        .write(&[begin(&ada_bob(1)), play(1, 1, 5), play(1, 2, 1), casual(1)])
        .unwrap();

    // Act
    store.write(&[end(1, Ending::Resigned(Mark::O))]).unwrap();

    // Assert
    assert_eq!(store.rating_changes(&[id(1)]).unwrap(), []);
}

#[apply(stores)]
fn a_game_made_casual_in_the_write_that_ends_it_rates_nobody(#[case] store: Fresh) {
    store
        .write(&[begin(&ada_bob(1)), play(1, 1, 5), play(1, 2, 1)])
        .unwrap();

    store
        .write(&[casual(1), end(1, Ending::Resigned(Mark::O))])
        .unwrap();

    assert_eq!(store.rating_changes(&[id(1)]).unwrap(), []);
}

#[apply(stores)]
fn a_retried_casual_is_kept_once(#[case] store: Fresh) {
    ada_moved(&*store, 1);
    store.write(&[casual(1)]).unwrap();

    let retried = store.write(&[casual(1)]);

    assert!(retried.is_ok());
    assert!(is_casual(&*store, 1));
}

#[apply(stores)]
fn a_casual_another_writer_kept_first_is_a_conflict_for_write_new(#[case] store: Fresh) {
    ada_moved(&*store, 1);
    store.write(&[casual(1)]).unwrap();

    let raced = store.write_new(&[casual(1)]);

    assert_eq!(raced, refused(1, Conflict::KeptFirst));
}

#[apply(stores)]
fn a_game_that_has_ended_cannot_be_made_casual(#[case] store: Fresh) {
    ada_won(&*store, 1);

    let refused_now = store.write(&[casual(1)]);

    assert_eq!(refused_now, refused(1, Conflict::Over));
    assert!(!is_casual(&*store, 1));
}

#[apply(stores)]
fn a_game_never_begun_cannot_be_made_casual(#[case] store: Fresh) {
    let refused_now = store.write(&[casual(1)]);

    assert_eq!(refused_now, Err(StoreError::NoSuchGame(id(1))));
}
