//! The values tests start from, written once: a person, a classic game's settings, a
//! new game as a store keeps it. Built only for tests (the `mocks` feature, which only
//! dev-dependencies turn on), so each panics on what a test would never pass it.
//!
//! A test about one more thing spells only that thing:
//! `NewGame { follows: Some(earlier), ..new_game(2, settings(person("Ada"), person("Bob"))) }`.

use mockall::predicate::{always, eq};

use crate::domain::{BitBoard, Board, Verdict};
use crate::domain::{Geometry, Mark, Password, PlayerName, Scoreboard};
use crate::play::{Match, MockRecorder, Recorder, Recording, Seat, Seating, Settings};
use crate::players::{MockAdvisor, MockComputerFactory, PlayerSpec};
use crate::ports::{Ending, GameId, NewGame, SeatHolder, SecretLock, StoreError};
use crate::rules::Puzzle;

/// A password the rules take: "correct horse".
pub fn password() -> Password {
    Password::new("correct horse").expect("a password of 13 characters is long enough")
}

/// A person of that name. Panics on a name the rules refuse.
pub fn person(name: &str) -> PlayerSpec {
    PlayerSpec::Human(Some(
        PlayerName::new(name).unwrap_or_else(|e| panic!("{name:?}: {e}")),
    ))
}

/// A classic game (3 x 3, three in a row) between `x` and `o`, X first. Panics on two
/// players who may not sit down together (two people of one name).
pub fn settings(x: PlayerSpec, o: PlayerSpec) -> Settings {
    Settings::new(x, o, Mark::X, Geometry::classic()).unwrap_or_else(|e| panic!("{e}"))
}

/// Game `n` (its id [`GameId::from_bits`]`(n)`) as it begins with `settings`: at one
/// screen, no seat locks, the rematch of no game, rated.
pub fn new_game(n: u128, settings: Settings) -> NewGame {
    NewGame {
        id: GameId::from_bits(n),
        settings,
        seating: Seating::Together,
        seats: [SeatHolder::Local, SeatHolder::Local],
        follows: None,
        casual: false,
        clock: None,
    }
}

/// Game `n` begun with `settings` as everything a game can have: at two screens, X's
/// seat a guest's and O's held open for an invite (each with a fixed lock), the rematch
/// of game `follows`.
pub fn rematch_apart(n: u128, follows: u128, settings: Settings) -> NewGame {
    let lock =
        |digits: &str| SecretLock::parse(&digits.repeat(32)).unwrap_or_else(|e| panic!("{e}"));
    NewGame {
        seating: Seating::Apart,
        seats: [
            SeatHolder::Guest(lock("ab")),
            SeatHolder::Invited(lock("cd")),
        ],
        follows: Some(GameId::from_bits(follows)),
        ..new_game(n, settings)
    }
}

/// Ada (X, moving first) and Bob (O), two people, on 3 x 3: a match whose steps and
/// ending go to `recorder`.
pub fn ada_and_bob<R: Recorder>(recorder: R) -> Match<R> {
    let seat = |name: &str| Seat::Human(PlayerName::new(name).expect("a name"));
    Match::new(
        Geometry::classic(),
        Mark::X,
        [seat("Ada"), seat("Bob")],
        recorder,
    )
}

/// A recorder that keeps every step (a stub: the steps are not the subject), with
/// nothing yet said of the game's end.
pub fn keeping_steps() -> MockRecorder {
    let mut recorder = MockRecorder::new();
    recorder.expect_keep().returning(|_| Ok(()));
    recorder
}

/// A recorder that keeps every step and expects the game to end exactly once, as
/// `ending` (whoever the players were).
pub fn ending_once(ending: Ending) -> MockRecorder {
    let mut recorder = keeping_steps();
    recorder
        .expect_end()
        .with(eq(ending), always())
        .times(1)
        .returning(|_, _| Recording::Saved(Scoreboard::new(), Vec::new()));
    recorder
}

/// A recorder whose store keeps no step (it has no folder to keep them in), with
/// nothing yet said of the game's end.
pub fn failing_steps() -> MockRecorder {
    let mut recorder = MockRecorder::new();
    recorder
        .expect_keep()
        .returning(|_| Err(StoreError::NoLocation));
    recorder
}

/// A factory stub whose advisor is a stub that expects nothing (every match started
/// gets one, and no test using this asks it anything); a test that counts computers
/// adds its own expectation.
pub fn computers() -> MockComputerFactory {
    let mut computers = MockComputerFactory::new();
    computers
        .expect_advisor()
        .returning(|| Box::new(MockAdvisor::new()));
    computers
        .expect_advisor_stopping_when()
        .returning(|_| Box::new(MockAdvisor::new()));
    computers.expect_forget_idle().return_const(());
    computers.expect_memory_in_use().return_const(0_u64);
    computers
}

/// A training puzzle from `game` at move 2 on 3 x 3: X on 5, O to move with a draw,
/// O played 2 (a loss left); 1 and 9 are the best moves.
pub fn o_puzzle_after_x_in_the_centre(game: GameId) -> Puzzle {
    let board = Geometry::classic();
    let cell = |number: usize| board.position(number - 1).expect("on 3 x 3");
    let mut position = BitBoard::new(board);
    position.place(cell(5), Mark::X).expect("an empty board");
    Puzzle {
        game,
        ply: 2,
        board,
        position,
        to_move: Mark::O,
        value: Verdict::Draw,
        left: Verdict::Loss,
        played: cell(2),
        best_moves: vec![cell(1), cell(9)],
    }
}
