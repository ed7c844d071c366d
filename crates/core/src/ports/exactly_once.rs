//! The exactly-once rules of [`GameStore::write`] and [`GameStore::write_new`], written
//! once: what a store does with each [`Write`], decided from what it already holds of
//! the game the write names.
//!
//! The deciders are pure: a store reads what it holds (from memory, from a row, from a
//! batch's state), asks [`begin`], [`rematch`], [`step`] or [`end`], and keeps the
//! write only when told [`Decision::Keep`]. A write the store already has is a
//! [`Decision::Skip`] for `write` (a retry after a lost answer) and a conflict for
//! `write_new` (another writer kept it first): [`Repeat`] says which. A write that
//! contradicts what is held is a [`StoreError::Conflict`] whose detail is a
//! [`Conflict`]. Every store (the core's `MemoryStore` and each adapter) asks
//! the same functions, so the rules, and the words, cannot drift apart; the contract
//! suite checks both.
//!
//! [`GameStore::write`]: super::GameStore::write
//! [`GameStore::write_new`]: super::GameStore::write_new
//! [`Write`]: super::Write

use thiserror::Error;

use crate::domain::Geometry;
use crate::play::ResumeError;

use super::{Change, Ending, GameId, NewGame, Step, StoreError};

/// What a write the store already has is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repeat {
    /// The writer's own, sent again after its answer was lost
    /// ([`GameStore::write`](super::GameStore::write)): kept once, so a no-op.
    Retry,
    /// Another writer's, kept first
    /// ([`GameStore::write_new`](super::GameStore::write_new), for writers that share
    /// their games): a [`Conflict::KeptFirst`].
    Race,
}

/// What a store does with a write the rules let through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Keep it: the store does not have it yet.
    Keep,
    /// Keep nothing: the store has it already, and this is a retry.
    Skip,
}

/// Why a write (or a review) contradicts what a store holds: the detail of a
/// [`StoreError::Conflict`], in the words every store gives it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Conflict {
    /// `write_new` of a write the store already has.
    #[error("another writer kept this first")]
    KeptFirst,
    /// Another writer kept the same row in the same moment, and the database refused the
    /// second (what a shared database says when two writers race past each other's
    /// checks): its own words follow.
    #[error("another writer kept this at the same time ({0})")]
    KeptAtOnce(String),
    /// A `Begin` whose id names a game begun otherwise.
    #[error("another game has this id")]
    AnotherGame,
    /// A `Begin` of the rematch of a game that has one (a game has at most one).
    #[error("this game already has a rematch")]
    HasRematch,
    /// A step numbered 0.
    #[error("steps are numbered from 1")]
    NumberedZero,
    /// Another change under a step number already kept.
    #[error("step {number} was another change")]
    AnotherChange { number: u32 },
    /// A step that does not follow the last one kept.
    #[error("step {number} cannot follow step {taken}")]
    Gap { number: u32, taken: u32 },
    /// A step after the game's end.
    #[error("the game is over")]
    Over,
    /// A move to a cell that is not on the game's board.
    #[error("step {number} plays cell {cell}, off the {size} x {size} board")]
    OffBoard {
        number: u32,
        cell: usize,
        size: usize,
    },
    /// Another ending than the one kept.
    #[error("the game ended otherwise")]
    EndedOtherwise,
    /// A review of a game that has not ended.
    #[error("a game is reviewed once it has ended")]
    NotEnded,
    /// A review of a game whose kept steps are not a game.
    #[error("{0}")]
    NotAGame(ResumeError),
    /// A review that does not go through the game's moves, in order.
    #[error("the review is not of this game's moves")]
    NotItsMoves,
}

impl Conflict {
    /// This conflict, about game `game`, as the port's error.
    pub fn about(self, game: &GameId) -> StoreError {
        StoreError::Conflict {
            game: game.clone(),
            detail: self,
        }
    }
}

/// What a store holds of a game that a step names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Steps {
    /// The board the game is played on.
    pub geometry: Geometry,
    /// How many steps it has kept: they are numbered 1 to this, without gaps.
    pub taken: u32,
    /// Whether its ending is kept.
    pub ended: bool,
}

/// A `Begin` of `new`, where the store holds `kept` under its id (`None`: nothing).
pub fn begin(
    new: &NewGame,
    kept: Option<&NewGame>,
    repeat: Repeat,
) -> Result<Decision, StoreError> {
    match kept {
        None => Ok(Decision::Keep),
        Some(kept) if kept == new => again(&new.id, repeat),
        Some(_) => Err(Conflict::AnotherGame.about(&new.id)),
    }
}

/// The link from a new game to `first`, the game it is the rematch of, asked once
/// [`begin`] said to keep the new game. `has_rematch` is what the store holds of
/// `first`: `None` if it holds no such game, else whether that game has a rematch
/// already.
pub fn rematch(first: &GameId, has_rematch: Option<bool>) -> Result<(), StoreError> {
    match has_rematch {
        None => Err(StoreError::NoSuchGame(first.clone())),
        Some(true) => Err(Conflict::HasRematch.about(first)),
        Some(false) => Ok(()),
    }
}

/// A `Step` of game `game`, where the store holds `kept` of it (`None`: no such game).
/// `kept_step` reads the change the store holds under a number it has taken: it is
/// asked only for a step numbered like one already kept, so that a store reads a kept
/// step only to tell a retry from a conflict.
pub fn step(
    game: &GameId,
    step: Step,
    kept: Option<Steps>,
    repeat: Repeat,
    kept_step: impl FnOnce(u32) -> Result<Change, StoreError>,
) -> Result<Decision, StoreError> {
    let kept = kept.ok_or_else(|| StoreError::NoSuchGame(game.clone()))?;
    let number = step.number;
    if number == 0 {
        return Err(Conflict::NumberedZero.about(game));
    }
    if number <= kept.taken {
        return if kept_step(number)? == step.change {
            again(game, repeat)
        } else {
            Err(Conflict::AnotherChange { number }.about(game))
        };
    }
    // Checked: `taken` was read from a database, and a row edited by hand may hold the
    // largest number there is.
    if kept.taken.checked_add(1) != Some(number) {
        return Err(Conflict::Gap {
            number,
            taken: kept.taken,
        }
        .about(game));
    }
    if kept.ended {
        return Err(Conflict::Over.about(game));
    }
    if let Change::Move(cell) = step.change
        && kept.geometry.position(cell.index()).is_none()
    {
        return Err(Conflict::OffBoard {
            number,
            cell: cell.index(),
            size: kept.geometry.size(),
        }
        .about(game));
    }
    Ok(Decision::Keep)
}

/// An `End` of game `game` as `ending`, where the store holds `kept` of it: `None` if it
/// holds no such game, else the ending it holds (`None` while the game is played).
pub fn end(
    game: &GameId,
    ending: Ending,
    kept: Option<Option<Ending>>,
    repeat: Repeat,
) -> Result<Decision, StoreError> {
    match kept.ok_or_else(|| StoreError::NoSuchGame(game.clone()))? {
        None => Ok(Decision::Keep),
        Some(kept) if kept == ending => again(game, repeat),
        Some(_) => Err(Conflict::EndedOtherwise.about(game)),
    }
}

/// A write the store already has.
fn again(game: &GameId, repeat: Repeat) -> Result<Decision, StoreError> {
    match repeat {
        Repeat::Retry => Ok(Decision::Skip),
        Repeat::Race => Err(Conflict::KeptFirst.about(game)),
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;
    use crate::domain::{Mark, Outcome};
    use crate::fixtures::{new_game, person, settings};

    fn ada_bob(n: u128) -> NewGame {
        new_game(n, settings(person("Ada"), person("Bob")))
    }

    fn game() -> GameId {
        GameId::from_bits(1)
    }

    fn cell(index: usize) -> Change {
        Change::Move(Geometry::new(4, 3).unwrap().position(index).unwrap())
    }

    fn numbered(number: u32, change: Change) -> Step {
        Step { number, change }
    }

    /// A 3 x 3 game that has kept `taken` steps (each a move to cell 0).
    fn playing(taken: u32) -> Option<Steps> {
        Some(Steps {
            geometry: Geometry::classic(),
            taken,
            ended: false,
        })
    }

    fn kept_cell_0(_: u32) -> Result<Change, StoreError> {
        Ok(cell(0))
    }

    fn never_read(number: u32) -> Result<Change, StoreError> {
        panic!("step {number} was read")
    }

    fn detail(result: Result<Decision, StoreError>) -> String {
        match result {
            Err(StoreError::Conflict { detail, .. }) => detail.to_string(),
            other => panic!("not a conflict: {other:?}"),
        }
    }

    #[test]
    fn a_new_game_is_kept() {
        assert_eq!(begin(&ada_bob(1), None, Repeat::Retry), Ok(Decision::Keep));
    }

    #[rstest]
    #[case::retried(Repeat::Retry, Ok(Decision::Skip))]
    #[case::raced(Repeat::Race, Err(Conflict::KeptFirst.about(&game())))]
    fn the_same_game_again_is_skipped_when_retried_and_a_conflict_when_raced(
        #[case] repeat: Repeat,
        #[case] expected: Result<Decision, StoreError>,
    ) {
        assert_eq!(begin(&ada_bob(1), Some(&ada_bob(1)), repeat), expected);
    }

    #[test]
    fn another_game_under_a_kept_id_is_a_conflict() {
        let impostor = new_game(1, settings(person("Cy"), person("Dee")));

        let decided = begin(&impostor, Some(&ada_bob(1)), Repeat::Retry);

        assert_eq!(detail(decided), "another game has this id");
    }

    #[rstest]
    #[case::unknown(None, Err(StoreError::NoSuchGame(game())))]
    #[case::taken(Some(true), Err(Conflict::HasRematch.about(&game())))]
    #[case::free(Some(false), Ok(()))]
    fn a_rematch_links_to_a_known_game_without_one(
        #[case] has_rematch: Option<bool>,
        #[case] expected: Result<(), StoreError>,
    ) {
        assert_eq!(rematch(&game(), has_rematch), expected);
    }

    #[test]
    fn the_next_step_is_kept_without_reading_a_kept_one() {
        let decided = step(
            &game(),
            numbered(3, cell(4)),
            playing(2),
            Repeat::Retry,
            never_read,
        );

        assert_eq!(decided, Ok(Decision::Keep));
    }

    #[test]
    fn a_step_of_a_game_never_begun_is_no_such_game() {
        let decided = step(
            &game(),
            numbered(1, cell(0)),
            None,
            Repeat::Retry,
            never_read,
        );

        assert_eq!(decided, Err(StoreError::NoSuchGame(game())));
    }

    #[rstest]
    #[case::retried(Repeat::Retry, Ok(Decision::Skip))]
    #[case::raced(Repeat::Race, Err(Conflict::KeptFirst.about(&game())))]
    fn a_step_kept_again_is_skipped_when_retried_and_a_conflict_when_raced(
        #[case] repeat: Repeat,
        #[case] expected: Result<Decision, StoreError>,
    ) {
        let decided = step(
            &game(),
            numbered(2, cell(0)),
            playing(3),
            repeat,
            kept_cell_0,
        );

        assert_eq!(decided, expected);
    }

    #[rstest]
    #[case::zero(numbered(0, cell(0)), playing(3), "steps are numbered from 1")]
    #[case::another_cell(numbered(2, cell(8)), playing(3), "step 2 was another change")]
    #[case::an_undo(numbered(1, Change::Undo { moves: 1 }), playing(3), "step 1 was another change")]
    #[case::a_gap(numbered(5, cell(0)), playing(3), "step 5 cannot follow step 3")]
    #[case::after_the_end(numbered(4, cell(0)), Some(Steps { ended: true, ..playing(3).unwrap() }), "the game is over")]
    #[case::off_the_board(
        numbered(4, cell(15)),
        playing(3),
        "step 4 plays cell 15, off the 3 x 3 board"
    )]
    fn a_step_that_contradicts_the_game_is_a_conflict_in_words_every_store_gives(
        #[case] write: Step,
        #[case] kept: Option<Steps>,
        #[case] words: &str,
    ) {
        let decided = step(&game(), write, kept, Repeat::Retry, kept_cell_0);

        assert_eq!(detail(decided), words);
    }

    #[test]
    fn a_game_holding_the_largest_step_number_refuses_more_steps_without_overflowing() {
        let decided = step(
            &game(),
            numbered(u32::MAX, cell(4)),
            playing(u32::MAX - 2),
            Repeat::Retry,
            never_read,
        );

        assert_eq!(
            detail(decided),
            format!("step {} cannot follow step {}", u32::MAX, u32::MAX - 2)
        );
    }

    #[test]
    fn an_end_is_kept_once() {
        let ending = Ending::Finished(Outcome::Draw);

        assert_eq!(
            end(&game(), ending, Some(None), Repeat::Retry),
            Ok(Decision::Keep)
        );
        assert_eq!(
            end(&game(), ending, Some(Some(ending)), Repeat::Retry),
            Ok(Decision::Skip)
        );
        assert_eq!(
            end(&game(), ending, Some(Some(ending)), Repeat::Race),
            Err(Conflict::KeptFirst.about(&game()))
        );
    }

    #[test]
    fn another_ending_is_a_conflict() {
        let decided = end(
            &game(),
            Ending::Resigned(Mark::O),
            Some(Some(Ending::Resigned(Mark::X))),
            Repeat::Retry,
        );

        assert_eq!(detail(decided), "the game ended otherwise");
    }

    #[test]
    fn an_end_of_a_game_never_begun_is_no_such_game() {
        let decided = end(&game(), Ending::Abandoned(Mark::X), None, Repeat::Retry);

        assert_eq!(decided, Err(StoreError::NoSuchGame(game())));
    }
}
