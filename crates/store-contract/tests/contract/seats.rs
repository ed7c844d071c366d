//! Whose a seat is: a seat held open for an invite is taken once, by a guest or an
//! account, while the game is played; its end rates the game as the seats then stand;
//! an account's seat keeps the account's name.

use rstest_reuse::apply;
use tictactoe_core::ports::{SeatHolder, SecretLock};

use super::*;

fn lock(digits: &str) -> SecretLock {
    SecretLock::parse(&digits.repeat(32)).unwrap()
}

/// Game `n`, Ada (X, an account's seat) against Bob (O, held open for an invite).
fn invited(n: u128) -> NewGame {
    NewGame {
        seats: [SeatHolder::Account, SeatHolder::Invited(lock("ab"))],
        ..ada_bob(n)
    }
}

/// The seat at `mark` of game `n` taken by `holder`.
fn take(n: u128, mark: Mark, holder: SeatHolder) -> Write {
    Write::Seat {
        game: id(n),
        mark,
        holder,
    }
}

fn seats_of(store: &dyn GameStore, n: u128) -> [SeatHolder; 2] {
    store.game(&id(n)).unwrap().expect("the game").game.seats
}

#[apply(stores)]
fn a_seat_held_open_is_taken_by_whoever_brings_the_invite(#[case] store: Fresh) {
    // Arrange: game 1's O is taken by an account, game 2's by a guest.
    let takers = [SeatHolder::Account, SeatHolder::Guest(lock("cd"))];
    store
        .write(&[begin(&invited(1)), begin(&invited(2))])
        .unwrap();

    // Act
    for (n, taker) in (1..).zip(&takers) {
        store.write(&[take(n, Mark::O, taker.clone())]).unwrap();
    }

    // Assert
    for (n, taker) in (1..).zip(takers) {
        assert_eq!(seats_of(&*store, n), [SeatHolder::Account, taker]);
    }
}

#[apply(stores)]
fn a_seat_is_taken_once(#[case] store: Fresh) {
    store.write(&[begin(&invited(1))]).unwrap();
    store
        .write(&[take(1, Mark::O, SeatHolder::Guest(lock("cd")))])
        .unwrap();

    let second = store.write(&[take(1, Mark::O, SeatHolder::Account)]);

    assert_eq!(second, refused(1, Conflict::SeatTaken(Mark::O)));
    assert_eq!(
        seats_of(&*store, 1)[Mark::O.index()],
        SeatHolder::Guest(lock("cd"))
    );
}

#[apply(stores)]
fn a_retried_seat_is_kept_once_and_a_raced_one_is_a_conflict(#[case] store: Fresh) {
    store.write(&[begin(&invited(1))]).unwrap();
    store
        .write(&[take(1, Mark::O, SeatHolder::Account)])
        .unwrap();

    let retried = store.write(&[take(1, Mark::O, SeatHolder::Account)]);
    let raced = store.write_new(&[take(1, Mark::O, SeatHolder::Account)]);

    assert_eq!(retried, Ok(()));
    assert_eq!(raced, refused(1, Conflict::KeptFirst));
}

#[apply(stores)]
fn a_game_rates_its_people_once_an_account_has_taken_the_open_seat(#[case] store: Fresh) {
    // Arrange: Bob's account takes O; Ada 5, Bob 1; Bob resigns.
    store
        .write(&[
            begin(&invited(1)),
            take(1, Mark::O, SeatHolder::Account),
            play(1, 1, 5),
            play(1, 2, 1),
        ])
        .unwrap();

    // Act
    store.write(&[end(1, Ending::Resigned(Mark::O))]).unwrap();

    // Assert
    assert_eq!(store.rating_changes(&[id(1)]).unwrap().len(), 2);
}

#[apply(stores)]
fn a_game_whose_open_seat_a_guest_took_rates_nobody(#[case] store: Fresh) {
    store
        .write(&[
            begin(&invited(1)),
            take(1, Mark::O, SeatHolder::Guest(lock("cd"))),
            play(1, 1, 5),
            play(1, 2, 1),
        ])
        .unwrap();

    store.write(&[end(1, Ending::Resigned(Mark::O))]).unwrap();

    assert_eq!(store.rating_changes(&[id(1)]).unwrap(), []);
}

#[apply(stores)]
fn an_accounts_seat_keeps_the_accounts_name(#[case] store: Fresh) {
    store.write(&[begin(&invited(1))]).unwrap();

    let renamed = store.write(&[Write::Name {
        game: id(1),
        mark: Mark::X,
        name: name("Cy"),
    }]);

    assert_eq!(renamed, refused(1, Conflict::AccountName(Mark::X)));
}

#[apply(stores)]
fn a_seat_of_a_game_that_has_ended_is_not_taken(#[case] store: Fresh) {
    store
        .write(&[begin(&invited(1)), end(1, Ending::Resigned(Mark::X))])
        .unwrap();

    let taken = store.write(&[take(1, Mark::O, SeatHolder::Account)]);

    assert_eq!(taken, refused(1, Conflict::Over));
}
