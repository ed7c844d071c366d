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

/// Keeps each of `attempts` in turn, and reads back `player`'s.
fn kept(store: &Fresh, attempts: &[&Attempt], player: &str) -> Vec<Attempt> {
    for attempt in attempts {
        store.keep_attempt(attempt).unwrap();
    }
    store.attempts(&name(player)).unwrap()
}

#[apply(stores)]
fn an_attempt_kept_reads_back_as_it_was_kept(#[case] store: Fresh) {
    let attempt = attempt("Ada", 1, 4, 0, true);

    assert_eq!(kept(&store, &[&attempt], "Ada"), [attempt]);
}

#[apply(stores)]
fn the_same_attempt_kept_twice_is_kept_once(#[case] store: Fresh) {
    let attempt = attempt("Ada", 1, 4, 0, false);

    assert_eq!(kept(&store, &[&attempt, &attempt], "Ada"), [attempt]);
}

#[apply(stores)]
fn a_players_attempts_are_found_by_name_key_and_no_one_elses(#[case] store: Fresh) {
    let (adas, bobs) = (attempt("Ada", 1, 4, 0, true), attempt("Bob", 1, 3, 1, true));

    assert_eq!(kept(&store, &[&adas, &bobs], "ADA"), [adas]);
}

#[apply(stores)]
fn attempts_are_read_oldest_first(#[case] store: Fresh) {
    let (older, newer) = (
        attempt("Ada", 2, 1, 5, false),
        attempt("Ada", 1, 4, 9, true),
    );

    assert_eq!(kept(&store, &[&newer, &older], "Ada"), [older, newer]);
}

#[apply(stores)]
fn attempts_of_the_same_millisecond_read_in_the_order_they_were_kept(#[case] store: Fresh) {
    let same_millisecond = 5;
    let (first, second) = (
        attempt("Ada", 2, 1, same_millisecond, false),
        attempt("Ada", 1, 4, same_millisecond, true),
    );

    assert_eq!(kept(&store, &[&first, &second], "Ada"), [first, second]);
}

#[apply(stores)]
fn an_attempts_time_is_kept_to_the_millisecond(#[case] store: Fresh) {
    let mut attempt = attempt("Ada", 1, 4, 0, true);
    attempt.at += Duration::from_micros(999);

    assert_eq!(kept(&store, &[&attempt], "Ada")[0].at, moment(0));
}
