//! The values tests start from, written once: a person, a classic game's settings, a
//! new game as a store keeps it. Built only for tests (the `mocks` feature, which only
//! dev-dependencies turn on), so each panics on what a test would never pass it.
//!
//! A test about one more thing spells only that thing:
//! `NewGame { follows: Some(earlier), ..new_game(2, settings(person("Ada"), person("Bob"))) }`.

use crate::domain::{Geometry, Mark, PlayerName};
use crate::play::{Seating, Settings};
use crate::players::PlayerSpec;
use crate::ports::{GameId, NewGame};

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
/// screen, no seat locks, the rematch of no game.
pub fn new_game(n: u128, settings: Settings) -> NewGame {
    NewGame {
        id: GameId::from_bits(n),
        settings,
        seating: Seating::Together,
        locks: [None, None],
        follows: None,
        predictable: false,
    }
}
