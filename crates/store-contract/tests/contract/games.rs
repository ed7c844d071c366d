//! A game reads back exactly as it was kept.

use rstest_reuse::apply;
use tictactoe_core::ports::{SeatHolder, SecretLock};

use super::*;

/// A game with everything a game can have: a person with the default name against a
/// computer, a larger board, O first, two screens, seat locks, and a game it follows.
fn everything(n: u128, follows: u128) -> NewGame {
    let settings = Settings::new(
        PlayerSpec::Human(None),
        PlayerSpec::Computer(Level::Impossible),
        Mark::O,
        Geometry::new(5, 4).unwrap(),
    )
    .unwrap();
    NewGame {
        seating: Seating::Apart,
        seats: [
            SeatHolder::Guest(SecretLock::parse(&"ab".repeat(32)).unwrap()),
            SeatHolder::Local,
        ],
        follows: Some(id(follows)),
        ..fixtures::new_game(n, settings)
    }
}

#[apply(stores)]
fn a_game_reads_back_exactly_as_it_was_kept(#[case] store: Fresh) {
    let game = everything(2, 1);
    let last_cell = Geometry::new(5, 4).unwrap().position(24).unwrap();
    let steps = [
        Change::Move(last_cell),
        Change::Move(cell(1)),
        Change::Undo { moves: 2 },
        Change::Move(cell(3)),
    ]
    .into_iter()
    .zip(1..)
    .map(|(change, number)| Step { number, change })
    .collect::<Vec<_>>();
    store.write(&[begin(&ada_bob(1))]).unwrap();
    let mut writes = vec![begin(&game)];
    writes.extend(steps.iter().map(|&step| Write::Step { game: id(2), step }));
    writes.push(end(2, Ending::Resigned(Mark::X)));

    store.write(&writes).unwrap();

    let kept = store.game(&id(2)).unwrap().expect("the game");
    assert_eq!(kept.game, game);
    assert_eq!(kept.steps, steps);
    assert_eq!(kept.ending, Some(Ending::Resigned(Mark::X)));
    assert_eq!(kept.rematch, None);
    let ended = kept.ended.expect("an end time");
    assert!(kept.started <= ended);
}

#[apply(stores)]
fn whose_each_seat_is_reads_back_as_kept(#[case] store: Fresh) {
    // Arrange: one game for each holder, on X.
    let holders = [
        SeatHolder::Local,
        SeatHolder::Guest(SecretLock::parse(&"cd".repeat(32)).unwrap()),
        SeatHolder::Invited(SecretLock::parse(&"ef".repeat(32)).unwrap()),
        SeatHolder::Account,
    ];
    let games: Vec<NewGame> = (1..)
        .zip(&holders)
        .map(|(n, holder)| NewGame {
            seats: [holder.clone(), SeatHolder::Local],
            ..ada_bob(n)
        })
        .collect();

    // Act
    store
        .write(&games.iter().map(begin).collect::<Vec<_>>())
        .unwrap();

    // Assert
    for (n, holder) in (1..).zip(&holders) {
        let kept = store.game(&id(n)).unwrap().expect("the game");
        assert_eq!(kept.game.seats, [holder.clone(), SeatHolder::Local]);
    }
}

#[apply(stores)]
fn two_named_people_read_back_with_their_names_as_given(#[case] store: Fresh) {
    let game = new_game(1, person("Zoë O'Brien"), person("Bob  the   Builder"));

    store.write(&[begin(&game)]).unwrap();

    assert_eq!(store.game(&id(1)).unwrap().unwrap().game, game);
}

#[apply(stores)]
fn two_computers_read_back_with_their_levels(#[case] store: Fresh) {
    let game = new_game(
        1,
        PlayerSpec::Computer(Level::Random),
        PlayerSpec::Computer(Level::Medium),
    );

    store.write(&[begin(&game)]).unwrap();

    assert_eq!(store.game(&id(1)).unwrap().unwrap().game, game);
}

#[apply(stores)]
fn the_earlier_game_names_its_rematch(#[case] store: Fresh) {
    store.write(&[begin(&ada_bob(1))]).unwrap();

    store.write(&[begin(&everything(2, 1))]).unwrap();

    let earlier = store.game(&id(1)).unwrap().unwrap();
    assert_eq!(earlier.rematch, Some(id(2)));
}

#[apply(stores)]
fn a_second_rematch_of_one_game_is_a_conflict(#[case] store: Fresh) {
    store
        .write(&[begin(&ada_bob(1)), begin(&everything(2, 1))])
        .unwrap();

    let result = store.write(&[begin(&everything(3, 1))]);

    assert_eq!(result, refused(1, Conflict::HasRematch));
    assert_eq!(store.game(&id(3)).unwrap(), None);
    assert_eq!(store.game(&id(1)).unwrap().unwrap().rematch, Some(id(2)));
}

#[apply(stores)]
fn a_game_being_played_has_no_ending_yet(#[case] store: Fresh) {
    ada_moved(&*store, 1);

    let kept = store.game(&id(1)).unwrap().unwrap();

    assert_eq!(kept.ending, None);
    assert_eq!(kept.ended, None);
    assert_eq!(kept.rematch, None);
}

#[apply(stores)]
fn an_unknown_game_reads_back_as_none(#[case] store: Fresh) {
    store.write(&[begin(&ada_bob(1))]).unwrap();

    assert_eq!(store.game(&id(2)).unwrap(), None);
}
