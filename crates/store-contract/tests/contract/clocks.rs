//! Games played on a clock: the clock a game began with and the one last kept read
//! back exactly; each clock is kept once, while the game is played, as of a step kept;
//! the games overdue are those still played whose deadline passed; an ending by the
//! clock reads back as it was and counts as `Ending::counted` says.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rstest_reuse::apply;
use tictactoe_core::domain::{FIRST_MOVE_WITHIN, GameClock, TimeControl};

use super::*;

/// A time with nanoseconds: `seconds` after the clocks' epoch of these tests.
fn at(seconds: u64) -> SystemTime {
    UNIX_EPOCH + Duration::new(1_800_000_000 + seconds, 123_456_789)
}

/// A clock of 3+2 begun at `at(seconds)`, X to move first.
fn started(seconds: u64) -> GameClock {
    let control = TimeControl::increment(Duration::from_secs(180), Duration::from_secs(2))
        .expect("a control");
    GameClock::start(control, FIRST_MOVE_WITHIN, Mark::X, at(seconds))
}

/// `clock` after a move made `seconds` after the clocks' epoch.
fn moved(mut clock: GameClock, seconds: u64) -> GameClock {
    clock.moved(at(seconds));
    clock
}

/// Game `n`, Ada (X) against Bob (O), on a clock begun at `at(seconds)`.
fn on_the_clock(n: u128, seconds: u64) -> NewGame {
    NewGame {
        clock: Some(started(seconds)),
        ..ada_bob(n)
    }
}

fn keep_clock(n: u128, after: u32, clock: GameClock) -> Write {
    Write::Clock {
        game: id(n),
        after,
        clock,
    }
}

/// Game `n`'s clock as last kept.
fn clock_of(store: &dyn GameStore, n: u128) -> Option<GameClock> {
    store.game(&id(n)).unwrap().expect("the game").clock
}

/// Every ending by the clock: a time-out lost and drawn by each side, an abort by each.
fn by_the_clock() -> Vec<Ending> {
    Ending::ALL
        .into_iter()
        .filter(|ending| matches!(ending, Ending::TimedOut { .. } | Ending::Aborted(_)))
        .collect()
}

#[apply(stores)]
fn a_game_begun_with_a_clock_reads_back_with_it_to_the_nanosecond(#[case] store: Fresh) {
    store.write(&[begin(&on_the_clock(1, 0))]).unwrap();

    let kept = store.game(&id(1)).unwrap().expect("the game");

    assert_eq!(kept.game, on_the_clock(1, 0));
    assert_eq!(kept.clock, Some(started(0)));
}

#[apply(stores)]
fn a_game_begun_with_a_clock_is_begun_once_when_retried(#[case] store: Fresh) {
    store.write(&[begin(&on_the_clock(1, 0))]).unwrap();

    let again = store.write(&[begin(&on_the_clock(1, 0))]);

    assert_eq!(again, Ok(()));
}

#[apply(stores)]
fn a_game_begun_without_a_clock_has_none(#[case] store: Fresh) {
    store.write(&[begin(&ada_bob(1))]).unwrap();

    let kept = store.game(&id(1)).unwrap().expect("the game");

    assert_eq!((kept.game.clock, kept.clock), (None, None));
}

#[apply(stores)]
fn a_clock_kept_reads_back_as_the_games_clock_beside_the_one_it_began_with(#[case] store: Fresh) {
    store
        .write(&[begin(&on_the_clock(1, 0)), play(1, 1, 5)])
        .unwrap();

    store
        .write(&[keep_clock(1, 1, moved(started(0), 4))])
        .unwrap();

    let kept = store.game(&id(1)).unwrap().expect("the game");
    assert_eq!(kept.clock, Some(moved(started(0), 4)));
    assert_eq!(kept.game.clock, Some(started(0)));
}

#[apply(stores)]
fn a_retried_clock_is_kept_once(#[case] store: Fresh) {
    let clock = moved(started(0), 4);
    store
        .write(&[
            begin(&on_the_clock(1, 0)),
            play(1, 1, 5),
            keep_clock(1, 1, clock),
        ])
        .unwrap();

    let again = store.write(&[keep_clock(1, 1, clock)]);

    assert_eq!(again, Ok(()));
    assert_eq!(clock_of(&*store, 1), Some(clock));
}

#[apply(stores)]
fn a_clock_overtaken_by_a_later_one_is_kept_as_nothing(#[case] store: Fresh) {
    let later = moved(moved(started(0), 4), 9);
    store
        .write(&[
            begin(&on_the_clock(1, 0)),
            play(1, 1, 5),
            play(1, 2, 1),
            keep_clock(1, 2, later),
        ])
        .unwrap();

    let overtaken = store.write(&[keep_clock(1, 1, moved(started(0), 4))]);

    assert_eq!(overtaken, Ok(()));
    assert_eq!(clock_of(&*store, 1), Some(later));
}

#[apply(stores)]
fn a_clock_ahead_of_the_steps_kept_is_a_conflict(#[case] store: Fresh) {
    store
        .write(&[begin(&on_the_clock(1, 0)), play(1, 1, 5)])
        .unwrap();

    let ahead = store.write(&[keep_clock(1, 2, moved(started(0), 4))]);

    assert_eq!(
        ahead,
        refused(1, Conflict::ClockAhead { after: 2, taken: 1 })
    );
    assert_eq!(clock_of(&*store, 1), Some(started(0)));
}

#[apply(stores)]
fn a_clock_for_a_game_begun_without_one_is_a_conflict(#[case] store: Fresh) {
    store.write(&[begin(&ada_bob(1))]).unwrap();

    let clock = store.write(&[keep_clock(1, 0, started(0))]);

    assert_eq!(clock, refused(1, Conflict::NoClock));
    assert_eq!(clock_of(&*store, 1), None);
}

#[apply(stores)]
fn a_clock_for_no_game_is_refused(#[case] store: Fresh) {
    let clock = store.write(&[keep_clock(1, 0, started(0))]);

    assert_eq!(clock, Err(StoreError::NoSuchGame(id(1))));
}

#[apply(stores)]
fn the_games_overdue_are_those_whose_deadline_passed_the_longest_overdue_first(
    #[case] store: Fresh,
) {
    // Arrange: X's first move awaited for 30 s in each game, from 20 s (game 1), 0 s
    // (game 2), 10 s (game 3) and 100 s (game 4, not overdue); game 5 has no clock.
    for (n, seconds) in [(1, 20), (2, 0), (3, 10), (4, 100)] {
        store.write(&[begin(&on_the_clock(n, seconds))]).unwrap();
    }
    store.write(&[begin(&ada_bob(5))]).unwrap();

    // Act
    let overdue = store.overdue(at(60), 10).unwrap();

    // Assert
    assert_eq!(overdue, [id(2), id(3), id(1)]);
}

#[apply(stores)]
fn a_game_is_overdue_at_its_deadline_not_before(#[case] store: Fresh) {
    store.write(&[begin(&on_the_clock(1, 0))]).unwrap();
    let deadline = started(0).deadline();

    let before = store
        .overdue(deadline - Duration::from_nanos(1), 10)
        .unwrap();
    let then = store.overdue(deadline, 10).unwrap();

    assert_eq!((before, then), (vec![], vec![id(1)]));
}

#[apply(stores)]
fn at_most_the_limit_of_games_overdue_is_listed(#[case] store: Fresh) {
    for (n, seconds) in [(1, 20), (2, 0), (3, 10)] {
        store.write(&[begin(&on_the_clock(n, seconds))]).unwrap();
    }

    let overdue = store.overdue(at(60), 2).unwrap();

    assert_eq!(overdue, [id(2), id(3)]);
}

#[apply(stores)]
fn a_clock_kept_after_a_move_moves_the_games_deadline(#[case] store: Fresh) {
    // Arrange: X moved at 20 s: O's first move is awaited until 50 s.
    store
        .write(&[begin(&on_the_clock(1, 0)), play(1, 1, 5)])
        .unwrap();

    // Act
    store
        .write(&[keep_clock(1, 1, moved(started(0), 20))])
        .unwrap();

    // Assert
    assert_eq!(store.overdue(at(40), 10).unwrap(), []);
    assert_eq!(store.overdue(at(50), 10).unwrap(), [id(1)]);
}

#[apply(stores)]
fn an_ended_game_is_not_overdue_and_keeps_no_more_clocks(#[case] store: Fresh) {
    // Arrange: game 1 aborted, X not having moved in time.
    store.write(&[begin(&on_the_clock(1, 0))]).unwrap();

    // Act
    store.write(&[end(1, Ending::Aborted(Mark::X))]).unwrap();
    let after_the_end = store.write(&[keep_clock(1, 0, moved(started(0), 45))]);

    // Assert
    assert_eq!(store.overdue(at(1000), 10).unwrap(), []);
    assert_eq!(after_the_end, Ok(()));
    assert_eq!(clock_of(&*store, 1), Some(started(0)));
}

#[apply(stores)]
fn every_ending_by_the_clock_reads_back_as_it_was_kept(#[case] store: Fresh) {
    let endings = by_the_clock();
    for (n, ending) in (1..).zip(&endings) {
        store
            .write(&[begin(&on_the_clock(n, 0)), play(n, 1, 5), end(n, *ending)])
            .unwrap();
    }

    let read: Vec<Option<Ending>> = (1..=endings.len() as u128)
        .map(|n| store.game(&id(n)).unwrap().expect("the game").ending)
        .collect();

    assert_eq!(read, endings.into_iter().map(Some).collect::<Vec<_>>());
}

#[apply(stores)]
fn endings_by_the_clock_count_on_the_scoreboard_as_ending_counted_says(#[case] store: Fresh) {
    // Arrange: Ada (X) and Bob (O) play one game to each ending by the clock.
    let endings = by_the_clock();
    let mut expected = [Record::default(); 2];
    for ending in &endings {
        for mark in Mark::ALL {
            if let Some(counted) = ending.counted(mark) {
                expected[mark.index()].add(counted);
            }
        }
    }

    // Act
    for (n, ending) in (1..).zip(&endings) {
        people_ended(&*store, n, ["Ada", "Bob"], *ending);
    }

    // Assert: each side lost on time once, won once and drew twice; no abort counted.
    assert_eq!(expected, [record(1, 1, 2), record(1, 1, 2)]);
    assert_eq!(record_of(&*store, "Ada"), Some(expected[0]));
    assert_eq!(record_of(&*store, "Bob"), Some(expected[1]));
}

/// Game 1, on the clock, ended `ending` once X (Ada) and O (Bob) have moved once each.
fn ended_after_a_move_each(store: &dyn Archive, ending: Ending) {
    store
        .write(&[
            begin(&on_the_clock(1, 0)),
            play(1, 1, 5),
            play(1, 2, 1),
            end(1, ending),
        ])
        .unwrap();
}

#[apply(stores)]
fn a_game_lost_on_time_once_each_side_moved_rates_both(#[case] store: Fresh) {
    ended_after_a_move_each(
        &*store,
        Ending::TimedOut {
            side: Mark::X,
            drawn: false,
        },
    );

    let changes = store.rating_changes(&[id(1)]).unwrap();

    // Assert: rated as a resignation, X's loss.
    let x = changes.iter().find(|change| change.mark == Mark::X);
    assert_eq!(changes.len(), 2);
    assert!(
        x.is_some_and(|x| x.after.rating() < x.before.rating()),
        "{changes:?}"
    );
}

#[apply(stores)]
fn a_game_lost_on_time_before_each_side_moved_rates_nobody(#[case] store: Fresh) {
    // Ada moves; Bob's time runs out before his first move counts.
    people_ended(
        &*store,
        1,
        ["Ada", "Bob"],
        Ending::TimedOut {
            side: Mark::O,
            drawn: false,
        },
    );

    let changes = store.rating_changes(&[id(1)]).unwrap();

    assert_eq!(changes, []);
}

#[apply(stores)]
fn an_aborted_game_rates_nobody(#[case] store: Fresh) {
    ended_after_a_move_each(&*store, Ending::Aborted(Mark::X));

    let changes = store.rating_changes(&[id(1)]).unwrap();

    assert_eq!(changes, []);
    assert_eq!(store.ratings_of(&name("Ada")).unwrap(), []);
}

#[apply(stores)]
fn a_rebuild_rates_the_games_lost_on_time_as_they_were_rated(#[case] store: Fresh) {
    // Arrange: one time-out once each side moved (rated), one before (not rated).
    ended_after_a_move_each(
        &*store,
        Ending::TimedOut {
            side: Mark::X,
            drawn: true,
        },
    );
    people_ended(
        &*store,
        2,
        ["Ada", "Bob"],
        Ending::TimedOut {
            side: Mark::O,
            drawn: false,
        },
    );
    let before = store.rating_changes(&[id(1), id(2)]).unwrap();

    // Act
    let rebuilt = store.rebuild_ratings().unwrap();

    // Assert
    assert_eq!(rebuilt.games, 1);
    assert_eq!(store.rating_changes(&[id(1), id(2)]).unwrap(), before);
}
