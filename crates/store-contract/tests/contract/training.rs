//! The answers to training puzzles: an attempt kept reads back as kept, the same
//! attempt kept twice is kept once, and a player's attempts are theirs (names compared
//! by key), oldest first.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rstest_reuse::apply;
use tictactoe_core::ports::Attempt;

use super::*;

/// `player`'s attempt at the puzzle of game `game`, ply `ply`, `ms` milliseconds after
/// a moment in 2023.
fn attempt(player: &str, game: u128, ply: u32, ms: u64, right: bool) -> Attempt {
    Attempt {
        player: name(player),
        game: id(game),
        ply,
        at: moment(ms),
        right,
    }
}

fn moment(ms: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(1_700_000_000_000 + ms)
}

#[apply(stores)]
fn an_attempt_kept_reads_back_as_it_was_kept(#[case] store: Fresh) {
    let kept = attempt("Ada", 1, 4, 0, true);

    store.keep_attempt(&kept).unwrap();

    assert_eq!(store.attempts(&name("Ada")).unwrap(), [kept]);
}

#[apply(stores)]
fn the_same_attempt_kept_twice_is_kept_once(#[case] store: Fresh) {
    let kept = attempt("Ada", 1, 4, 0, false);
    store.keep_attempt(&kept).unwrap();

    store.keep_attempt(&kept).unwrap();

    assert_eq!(store.attempts(&name("Ada")).unwrap(), [kept]);
}

#[apply(stores)]
fn a_players_attempts_are_found_by_name_key_and_no_one_elses(#[case] store: Fresh) {
    // Arrange
    let adas = attempt("Ada", 1, 4, 0, true);
    store.keep_attempt(&adas).unwrap();
    store.keep_attempt(&attempt("Bob", 1, 3, 1, true)).unwrap();

    // Act
    let found = store.attempts(&name("ADA")).unwrap();

    // Assert
    assert_eq!(found, [adas]);
}

#[apply(stores)]
fn attempts_are_read_oldest_first(#[case] store: Fresh) {
    // Arrange: kept newest first.
    let (older, newer) = (
        attempt("Ada", 2, 1, 5, false),
        attempt("Ada", 1, 4, 9, true),
    );
    store.keep_attempt(&newer).unwrap();
    store.keep_attempt(&older).unwrap();

    // Act
    let found = store.attempts(&name("Ada")).unwrap();

    // Assert
    assert_eq!(found, [older, newer]);
}

#[apply(stores)]
fn attempts_of_the_same_millisecond_read_in_the_order_they_were_kept(#[case] store: Fresh) {
    let (first, second) = (
        attempt("Ada", 2, 1, 5, false),
        attempt("Ada", 1, 4, 5, true),
    );
    store.keep_attempt(&first).unwrap();
    store.keep_attempt(&second).unwrap();

    assert_eq!(store.attempts(&name("Ada")).unwrap(), [first, second]);
}

#[apply(stores)]
fn an_attempts_time_is_kept_to_the_millisecond(#[case] store: Fresh) {
    let mut kept = attempt("Ada", 1, 4, 0, true);
    kept.at += Duration::from_micros(999);

    store.keep_attempt(&kept).unwrap();

    assert_eq!(store.attempts(&name("Ada")).unwrap()[0].at, moment(0));
}
