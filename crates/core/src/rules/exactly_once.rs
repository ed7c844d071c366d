//! The exactly-once rules of [`GameStore::write`] and [`GameStore::write_new`], written
//! once: what a store does with each [`Write`], decided from what it already holds of
//! the game the write names.
//!
//! The deciders are pure: a store reads what it holds (from memory, from a row, from a
//! batch's state), asks [`begin`], [`rematch`], [`step`], [`end`] or [`name`], and keeps the
//! write only when told [`Decision::Keep`] (a [`name`] says what to keep: the game's
//! settings with the seat renamed). A write the store already has is a
//! [`Decision::Skip`] for `write` (a retry after a lost answer) and a conflict for
//! `write_new` (another writer kept it first): [`Repeat`] says which. A write that
//! contradicts what is held is a [`StoreError::Conflict`] whose detail is a
//! [`Conflict`]. Every store (the core's `MemoryStore` and each adapter) asks
//! the same functions, so the rules, and the words, cannot drift apart; the contract
//! suite checks both.
//!
//! [`GameStore::write`]: crate::ports::GameStore::write
//! [`GameStore::write_new`]: crate::ports::GameStore::write_new
//! [`Write`]: crate::ports::Write

use crate::domain::{Geometry, Mark, PlayerName};
use crate::play::Settings;

use crate::ports::{Change, Conflict, Ending, GameId, NewGame, SeatHolder, Step, StoreError};

/// What a write the store already has is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repeat {
    /// The writer's own, sent again after its answer was lost
    /// ([`GameStore::write`](crate::ports::GameStore::write)): kept once, so a no-op.
    Retry,
    /// Another writer's, kept first
    /// ([`GameStore::write_new`](crate::ports::GameStore::write_new), for writers that share
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

/// Who has made a move in a game, taken step by step: what a [`name`] is decided
/// against. Moves alternate from the first mover, so a move's mark follows from how
/// many moves stand before it; a move later taken back was made all the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Movers {
    first: Mark,
    /// How many moves stand now.
    standing: u32,
    /// X's, then O's: whether that side has made a move.
    moved: [bool; 2],
}

impl Movers {
    /// A game that `first` moves first in, before any step.
    pub fn new(first: Mark) -> Self {
        Movers {
            first,
            standing: 0,
            moved: [false; 2],
        }
    }

    /// The game after `steps`, taken in order.
    pub fn after(first: Mark, steps: &[Step]) -> Self {
        let mut movers = Movers::new(first);
        for step in steps {
            movers.take(step.change);
        }
        movers
    }

    /// One more change: a move is made by the side whose turn it is.
    pub fn take(&mut self, change: Change) {
        match change {
            Change::Move(_) => {
                let mover = if self.standing.is_multiple_of(2) {
                    self.first
                } else {
                    self.first.opponent()
                };
                self.moved[mover.index()] = true;
                self.standing = self.standing.saturating_add(1);
            }
            Change::Undo { moves } => {
                self.standing = self.standing.saturating_sub(u32::from(moves));
            }
        }
    }

    /// Whether the side of `mark` has made a move.
    pub fn has_moved(&self, mark: Mark) -> bool {
        self.moved[mark.index()]
    }
}

/// What a store holds of a game that a `Name` names.
#[derive(Debug, Clone, Copy)]
pub struct Seats<'a> {
    /// Who plays each side, named as they stand now.
    pub settings: &'a Settings,
    /// Whose each seat is.
    pub holders: &'a [SeatHolder; 2],
    /// Who has made a move.
    pub movers: Movers,
    /// Whether its ending is kept.
    pub ended: bool,
}

/// A `Name` of game `game`, the person at `mark` called `name`, where the store holds
/// `kept` of it (`None`: no such game). A seat's name may change until that seat has
/// made its first move (a move, not an undo), and only a person's seat has one; the
/// same name again is a write the store already has, whenever it comes; the two
/// people's names must stay apart as [`Settings::new`] keeps them; and a game that has
/// ended keeps its names, which the scoreboard has counted.
///
/// `Some`: keep these settings, the game's with the seat renamed. `None`: nothing to
/// keep (the store has this name already, and this is a retry).
pub fn name(
    game: &GameId,
    mark: Mark,
    name: &PlayerName,
    kept: Option<Seats<'_>>,
    repeat: Repeat,
) -> Result<Option<Settings>, StoreError> {
    let kept = kept.ok_or_else(|| StoreError::NoSuchGame(game.clone()))?;
    let seat = kept.settings.player(mark);
    if !seat.is_human() {
        return Err(Conflict::ComputerSeat(mark).about(game));
    }
    if seat.name(mark) == *name {
        return again(game, repeat).map(|_| None);
    }
    if kept.ended {
        return Err(Conflict::Over.about(game));
    }
    if kept.holders[mark.index()] == SeatHolder::Account {
        return Err(Conflict::AccountName(mark).about(game));
    }
    if kept.movers.has_moved(mark) {
        return Err(Conflict::NameFixed(mark).about(game));
    }
    kept.settings
        .renamed(mark, name.clone())
        .map(Some)
        .map_err(|error| Conflict::Names(error).about(game))
}

/// A `Casual` of game `game`, where the store holds `kept` of it: `None` if it holds no
/// such game, else whether it is casual already and whether its ending is kept. A game
/// becomes casual only while it is played (its end rated it, or did not, already); a
/// game casual already has this write.
pub fn casual(
    game: &GameId,
    kept: Option<(bool, bool)>,
    repeat: Repeat,
) -> Result<Decision, StoreError> {
    match kept.ok_or_else(|| StoreError::NoSuchGame(game.clone()))? {
        (true, _) => again(game, repeat),
        (false, true) => Err(Conflict::Over.about(game)),
        (false, false) => Ok(Decision::Keep),
    }
}

/// A `Seat` of game `game`: the seat at `mark` taken by `holder`, where the store holds
/// `kept` of it (`None`: no such game): whose each seat is, and whether its ending is
/// kept. Only a seat held open for an invite is taken, by a guest or an account, while
/// the game is played; the same holder again is a write the store already has.
pub fn seat(
    game: &GameId,
    mark: Mark,
    holder: &SeatHolder,
    kept: Option<(&[SeatHolder; 2], bool)>,
    repeat: Repeat,
) -> Result<Decision, StoreError> {
    let (holders, ended) = kept.ok_or_else(|| StoreError::NoSuchGame(game.clone()))?;
    let held = &holders[mark.index()];
    if held == holder {
        return again(game, repeat);
    }
    if ended {
        return Err(Conflict::Over.about(game));
    }
    let takes = matches!(held, SeatHolder::Invited(_))
        && matches!(holder, SeatHolder::Guest(_) | SeatHolder::Account);
    if !takes {
        return Err(Conflict::SeatTaken(mark).about(game));
    }
    Ok(Decision::Keep)
}

/// A `Clock` of game `game` as of its first `after` steps, where the store holds `kept`
/// of it (`None`: no such game): its steps and whether it has a clock, and as of which
/// step its clock was last kept. A clock is kept while the game is played, as of the
/// last step kept or a later reading of the same step (a turn's time charged when moves
/// are taken back, say); one as of an earlier step is a write overtaken, kept as
/// nothing, and once the game is over nothing more is kept of its clock.
pub fn clock(
    game: &GameId,
    after: u32,
    kept: Option<(Steps, Option<u32>)>,
) -> Result<Decision, StoreError> {
    let (steps, clock_after) = kept.ok_or_else(|| StoreError::NoSuchGame(game.clone()))?;
    let Some(clock_after) = clock_after else {
        return Err(Conflict::NoClock.about(game));
    };
    if after > steps.taken {
        return Err(Conflict::ClockAhead {
            after,
            taken: steps.taken,
        }
        .about(game));
    }
    if steps.ended || after < steps.taken || after < clock_after {
        return Ok(Decision::Skip);
    }
    Ok(Decision::Keep)
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
    use crate::domain::Outcome;
    use crate::fixtures::{new_game, person, settings};
    use crate::players::{Level, PlayerSpec};
    use crate::ports::SecretLock;

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

    // Names: a person's seat may change its name until that seat's first move.

    fn name(text: &str) -> PlayerName {
        PlayerName::new(text).unwrap()
    }

    /// What a store holds of a game of `settings` after `changes`, ended or not.
    fn seats<'a>(settings: &'a Settings, changes: &[Change], ended: bool) -> Option<Seats<'a>> {
        let mut movers = Movers::new(settings.first());
        for change in changes {
            movers.take(*change);
        }
        Some(Seats {
            settings,
            holders: &LOCAL,
            movers,
            ended,
        })
    }

    /// Both seats at the machine.
    const LOCAL: [SeatHolder; 2] = [SeatHolder::Local, SeatHolder::Local];

    #[test]
    fn a_new_name_for_a_person_who_has_not_moved_is_kept_with_the_other_seat_as_it_was() {
        let ada_bob = settings(person("Ada"), person("Bob"));

        let decided = name_seat(Mark::O, "Cy", seats(&ada_bob, &[cell(0)], false));

        assert_eq!(decided, Ok(Some(settings(person("Ada"), person("Cy")))));
    }

    fn name_seat(
        mark: Mark,
        text: &str,
        kept: Option<Seats<'_>>,
    ) -> Result<Option<Settings>, StoreError> {
        super::name(&game(), mark, &name(text), kept, Repeat::Retry)
    }

    #[rstest]
    #[case::retried(Repeat::Retry, Ok(None))]
    #[case::raced(Repeat::Race, Err(Conflict::KeptFirst.about(&game())))]
    fn the_same_name_again_is_skipped_when_retried_and_a_conflict_when_raced_even_after_moving(
        #[case] repeat: Repeat,
        #[case] expected: Result<Option<Settings>, StoreError>,
    ) {
        let ada_bob = settings(person("Ada"), person("Bob"));
        let kept = seats(&ada_bob, &[cell(0), cell(1)], true);

        let decided = super::name(&game(), Mark::O, &name("Bob"), kept, repeat);

        assert_eq!(decided, expected);
    }

    #[rstest]
    #[case::the_computers_seat(Mark::O, "Cy", &[], false, "the computer plays O: it has no name to choose")]
    #[case::after_the_seats_first_move(Mark::X, "Cy", &[cell(0)], false, "X has moved: its name stays as it is")]
    #[case::after_a_move_taken_back(Mark::X, "Cy", &[cell(0), Change::Undo { moves: 1 }], false, "X has moved: its name stays as it is")]
    #[case::after_the_end(Mark::X, "Cy", &[], true, "the game is over")]
    fn a_name_the_seat_cannot_take_now_is_a_conflict_in_words_every_store_gives(
        #[case] mark: Mark,
        #[case] text: &str,
        #[case] changes: &[Change],
        #[case] ended: bool,
        #[case] words: &str,
    ) {
        let against_the_computer = settings(person("Ada"), PlayerSpec::Computer(Level::Easy));

        let decided = name_seat(mark, text, seats(&against_the_computer, changes, ended));

        assert_eq!(conflict_words(decided), words);
    }

    #[rstest]
    #[case::the_others_name_in_another_case("ada", "both players are called Ada")]
    #[case::one_that_looks_like_it("\u{410}da", "the two names look alike: Ada and \u{410}da")]
    fn the_other_persons_name_or_one_like_it_is_a_conflict(
        #[case] text: &str,
        #[case] words: &str,
    ) {
        let ada_bob = settings(person("Ada"), person("Bob"));

        let decided = name_seat(Mark::O, text, seats(&ada_bob, &[cell(0)], false));

        assert_eq!(conflict_words(decided), words);
    }

    #[test]
    fn an_accounts_seat_keeps_the_accounts_name() {
        let ada_bob = settings(person("Ada"), person("Bob"));
        let holders = [SeatHolder::Account, SeatHolder::Account];
        let kept = Seats {
            holders: &holders,
            ..seats(&ada_bob, &[], false).unwrap()
        };

        let decided = name_seat(Mark::O, "Cy", Some(kept));

        assert_eq!(
            conflict_words(decided),
            "O is an account's seat: its name is the account's"
        );
    }

    #[test]
    fn a_name_for_a_game_never_begun_is_no_such_game() {
        assert_eq!(
            name_seat(Mark::X, "Cy", None),
            Err(StoreError::NoSuchGame(game()))
        );
    }

    fn conflict_words(result: Result<Option<Settings>, StoreError>) -> String {
        match result {
            Err(StoreError::Conflict { detail, .. }) => detail.to_string(),
            other => panic!("not a conflict: {other:?}"),
        }
    }

    #[rstest]
    #[case::nobody_yet(&[], [false, false])]
    #[case::the_first_mover(&[cell(0)], [false, true])]
    #[case::both(&[cell(0), cell(1)], [true, true])]
    #[case::the_first_mover_twice_after_an_undo(&[cell(0), Change::Undo { moves: 1 }, cell(2)], [false, true])]
    #[case::the_reply_after_two_taken_back(&[cell(0), cell(1), Change::Undo { moves: 2 }], [true, true])]
    fn who_has_moved_follows_from_the_first_mover_and_the_moves_standing(
        #[case] changes: &[Change],
        #[case] moved: [bool; 2],
    ) {
        let steps: Vec<Step> = changes
            .iter()
            .zip(1..)
            .map(|(change, number)| numbered(number, *change))
            .collect();

        let movers = Movers::after(Mark::O, &steps);

        assert_eq!(Mark::ALL.map(|mark| movers.has_moved(mark)), moved);
    }

    // Seats: a seat held open for an invite is taken once, while the game is played.

    fn lock(digit: char) -> SecretLock {
        SecretLock::parse(&digit.to_string().repeat(64)).unwrap()
    }

    /// Whose each seat is: X a guest's, O held open for an invite.
    fn invited() -> [SeatHolder; 2] {
        [SeatHolder::Guest(lock('a')), SeatHolder::Invited(lock('b'))]
    }

    #[rstest]
    #[case::by_a_guest(SeatHolder::Guest(lock('c')))]
    #[case::by_an_account(SeatHolder::Account)]
    fn a_seat_held_open_for_an_invite_is_taken(#[case] holder: SeatHolder) {
        let decided = seat(
            &game(),
            Mark::O,
            &holder,
            Some((&invited(), false)),
            Repeat::Retry,
        );

        assert_eq!(decided, Ok(Decision::Keep));
    }

    #[rstest]
    #[case::retried(Repeat::Retry, Ok(Decision::Skip))]
    #[case::raced(Repeat::Race, Err(Conflict::KeptFirst.about(&game())))]
    fn the_same_holder_again_is_skipped_when_retried_and_a_conflict_when_raced(
        #[case] repeat: Repeat,
        #[case] expected: Result<Decision, StoreError>,
    ) {
        let taken = [SeatHolder::Guest(lock('a')), SeatHolder::Account];

        let decided = seat(
            &game(),
            Mark::O,
            &SeatHolder::Account,
            Some((&taken, false)),
            repeat,
        );

        assert_eq!(decided, expected);
    }

    #[rstest]
    #[case::taken_by_another_already(Mark::O, SeatHolder::Guest(lock('c')), [SeatHolder::Local, SeatHolder::Account], "the seat of O is not open to take")]
    #[case::a_guests_seat(
        Mark::X,
        SeatHolder::Account,
        invited(),
        "the seat of X is not open to take"
    )]
    #[case::held_open_for_another_invite(
        Mark::O,
        SeatHolder::Invited(lock('c')),
        invited(),
        "the seat of O is not open to take"
    )]
    fn a_seat_not_held_open_is_not_taken(
        #[case] mark: Mark,
        #[case] holder: SeatHolder,
        #[case] holders: [SeatHolder; 2],
        #[case] words: &str,
    ) {
        let decided = seat(
            &game(),
            mark,
            &holder,
            Some((&holders, false)),
            Repeat::Retry,
        );

        assert_eq!(detail(decided), words);
    }

    #[test]
    fn a_seat_is_not_taken_after_the_end() {
        let decided = seat(
            &game(),
            Mark::O,
            &SeatHolder::Account,
            Some((&invited(), true)),
            Repeat::Retry,
        );

        assert_eq!(detail(decided), "the game is over");
    }

    #[test]
    fn a_seat_of_a_game_never_begun_is_no_such_game() {
        let decided = seat(&game(), Mark::O, &SeatHolder::Account, None, Repeat::Retry);

        assert_eq!(decided, Err(StoreError::NoSuchGame(game())));
    }

    #[test]
    fn an_end_of_a_game_never_begun_is_no_such_game() {
        let decided = end(&game(), Ending::Abandoned(Mark::X), None, Repeat::Retry);

        assert_eq!(decided, Err(StoreError::NoSuchGame(game())));
    }

    #[test]
    fn a_clock_as_of_the_last_step_kept_is_kept() {
        let decided = clock(&game(), 4, playing(4).map(|steps| (steps, Some(2))));

        assert_eq!(decided, Ok(Decision::Keep));
    }

    #[rstest]
    #[case::an_earlier_step(3, playing(4), Some(2))]
    #[case::older_than_the_kept(2, playing(2), Some(3))]
    #[case::after_the_end(4, Some(Steps { geometry: Geometry::classic(), taken: 4, ended: true }), Some(4))]
    fn a_clock_overtaken_or_of_an_ended_game_is_kept_as_nothing(
        #[case] after: u32,
        #[case] steps: Option<Steps>,
        #[case] clock_after: Option<u32>,
    ) {
        let decided = clock(&game(), after, steps.map(|steps| (steps, clock_after)));

        assert_eq!(decided, Ok(Decision::Skip));
    }

    #[test]
    fn a_clock_ahead_of_the_steps_kept_is_a_conflict() {
        let decided = clock(&game(), 5, playing(4).map(|steps| (steps, Some(4))));

        assert_eq!(
            decided,
            Err(Conflict::ClockAhead { after: 5, taken: 4 }.about(&game()))
        );
    }

    #[test]
    fn a_clock_for_a_game_begun_without_one_is_a_conflict() {
        let decided = clock(&game(), 0, playing(0).map(|steps| (steps, None)));

        assert_eq!(decided, Err(Conflict::NoClock.about(&game())));
    }

    #[test]
    fn a_clock_for_no_game_is_refused() {
        assert_eq!(clock(&game(), 0, None), Err(StoreError::NoSuchGame(game())));
    }
}
