//! A person's seat may take another name until that seat's first move (as the one
//! invited to a game on the web does): kept once, counted at the game's end under the
//! name chosen, and refused once the seat has moved, for a computer's seat, or when it
//! is the other person's.

use rstest_reuse::apply;
use tictactoe_core::play::SettingsError;
use tictactoe_core::ports::{HistoryQuery, PageSize};

use super::*;

/// The person at `mark` of game `n` called `text` from now on.
fn rename(n: u128, mark: Mark, text: &str) -> Write {
    Write::Name {
        game: id(n),
        mark,
        name: name(text),
    }
}

/// The name the store holds for the player at `mark` of game `n`.
fn name_of(store: &dyn GameStore, n: u128, mark: Mark) -> String {
    let kept = store.game(&id(n)).unwrap().expect("the game");
    kept.game
        .settings
        .player(mark)
        .name(mark)
        .as_str()
        .to_owned()
}

#[apply(stores)]
fn a_name_chosen_before_the_seats_first_move_is_kept(#[case] store: Fresh) {
    // Arrange: Ada (X) has moved; Bob (O) has not.
    ada_moved(&*store, 1);

    // Act
    let renamed = store.write(&[rename(1, Mark::O, "Cy")]);

    // Assert
    assert!(renamed.is_ok());
    assert_eq!(name_of(&*store, 1, Mark::O), "Cy");
    assert_eq!(name_of(&*store, 1, Mark::X), "Ada");
}

#[apply(stores)]
fn a_retried_name_is_kept_once(#[case] store: Fresh) {
    ada_moved(&*store, 1);
    store.write(&[rename(1, Mark::O, "Cy")]).unwrap();

    let retried = store.write(&[rename(1, Mark::O, "Cy")]);

    assert!(retried.is_ok());
    assert_eq!(name_of(&*store, 1, Mark::O), "Cy");
}

#[apply(stores)]
fn the_game_ended_after_a_name_is_chosen_is_counted_under_that_name(#[case] store: Fresh) {
    ada_moved(&*store, 1);
    store.write(&[rename(1, Mark::O, "Cy")]).unwrap();

    store.write(&[end(1, Ending::Resigned(Mark::X))]).unwrap();

    assert_eq!(rows(&*store), [row("Cy", 1, 0, 0), row("Ada", 0, 1, 0)]);
}

#[apply(stores)]
fn the_history_and_the_other_players_opponents_name_the_name_chosen(#[case] store: Fresh) {
    // Arrange
    ada_moved(&*store, 1);
    store.write(&[rename(1, Mark::O, "Cy")]).unwrap();
    store.write(&[end(1, Ending::Resigned(Mark::X))]).unwrap();

    // Act
    let cys_games = store
        .history(&HistoryQuery {
            player: Some(name("Cy")),
            before: None,
            limit: PageSize::new(10).unwrap(),
        })
        .unwrap();
    let adas_opponents = store.opponents(&name("Ada"), 10).unwrap();

    // Assert
    let listed: Vec<GameId> = cys_games.games.iter().map(|game| game.id.clone()).collect();
    assert_eq!(listed, [id(1)]);
    let rivals: Vec<(String, Record)> = adas_opponents
        .most_played
        .iter()
        .map(|rival| (rival.opponent.as_str().to_owned(), rival.record))
        .collect();
    assert_eq!(rivals, [row("Cy", 0, 1, 0)]);
}

#[apply(stores)]
fn a_name_and_the_ending_in_one_write_count_the_name(#[case] store: Fresh) {
    ada_moved(&*store, 1);

    store
        .write(&[rename(1, Mark::O, "Cy"), end(1, Ending::Resigned(Mark::X))])
        .unwrap();

    assert_eq!(record_of(&*store, "Cy"), Some(record(1, 0, 0)));
    assert_eq!(record_of(&*store, "Bob"), None);
}

#[apply(stores)]
fn another_name_after_the_seats_first_move_is_a_conflict_and_changes_nothing(#[case] store: Fresh) {
    // Arrange: Ada's move taken back still counts as her first.
    ada_moved(&*store, 1);
    store.write(&[undo(1, 2, 1)]).unwrap();

    let renamed = store.write(&[rename(1, Mark::X, "Cy")]);

    assert_eq!(renamed, refused(1, Conflict::NameFixed(Mark::X)));
    assert_eq!(name_of(&*store, 1, Mark::X), "Ada");
}

#[apply(stores)]
fn the_other_persons_name_is_a_conflict(#[case] store: Fresh) {
    ada_moved(&*store, 1);

    let renamed = store.write(&[rename(1, Mark::O, "ADA")]);

    assert_eq!(
        renamed,
        refused(1, Conflict::Names(SettingsError::SameName(name("Ada"))))
    );
    assert_eq!(name_of(&*store, 1, Mark::O), "Bob");
}

#[apply(stores)]
fn a_name_for_the_computers_seat_is_a_conflict(#[case] store: Fresh) {
    let game = new_game(1, person("Ada"), PlayerSpec::Computer(Level::Easy));
    store.write(&[begin(&game)]).unwrap();

    let renamed = store.write(&[rename(1, Mark::O, "Cy")]);

    assert_eq!(renamed, refused(1, Conflict::ComputerSeat(Mark::O)));
}

#[apply(stores)]
fn another_name_after_the_end_is_a_conflict(#[case] store: Fresh) {
    ada_won(&*store, 1);

    let renamed = store.write(&[rename(1, Mark::O, "Cy")]);

    assert_eq!(renamed, refused(1, Conflict::Over));
    assert_eq!(record_of(&*store, "Bob"), Some(record(0, 1, 0)));
}

#[apply(stores)]
fn a_name_for_a_game_never_begun_is_no_such_game(#[case] store: Fresh) {
    let renamed = store.write(&[rename(1, Mark::O, "Cy")]);

    assert_eq!(renamed, Err(StoreError::NoSuchGame(id(1))));
}
