//! The words a store keeps for the core's values: each column's words written once, as
//! the one `match` that writes them; reading finds the value whose word it is, among
//! every value of its kind (the core's `ALL` lists), so the two directions cannot
//! disagree. Each word is a word people read (`X won`, `at_least_draw`), so a person at
//! a SQL prompt needs no key.
//!
//! These are a persistent format: databases out there hold them. Never change one;
//! a new word (a new level, a new ending) is added, and the test that pins them
//! (`crates/store-contract/tests/vocabulary.rs`) is told of it.

use std::time::Duration;

use tictactoe_core::domain::{Known, Mark, Outcome, PlayerName, TimeControl, Verdict};
use tictactoe_core::play::Seating;
use tictactoe_core::players::{Level, PlayerSpec};
use tictactoe_core::ports::{Ending, SeatHolder, SecretLock, SeekKind};

/// The `x_kind`/`o_kind` word of a person's seat.
pub const HUMAN: &str = "human";
/// The `x_kind`/`o_kind` word of a computer's seat.
pub const COMPUTER: &str = "computer";

/// Every word a store writes, by what it is the word of: what the vocabulary test pins.
pub fn vocabulary() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        ("kind", vec![HUMAN, COMPUTER]),
        ("level", Level::ALL.map(level_word).to_vec()),
        ("mark", Mark::ALL.map(mark_word).to_vec()),
        ("seating", Seating::ALL.map(seating_word).to_vec()),
        ("holder", HOLDERS.to_vec()),
        ("ending", RESULTS.to_vec()),
        ("clock end", CLOCK_ENDS.to_vec()),
        ("known", Known::ALL.map(known_word).to_vec()),
        ("seek kind", SEEK_KINDS.map(seek_kind_word).to_vec()),
        ("control", CONTROLS.to_vec()),
    ]
}

/// The `ending` words, in [`Ending::ALL`]'s order: how a game counts. An ending by the
/// clock is kept as the result it counts as, with how the clock ended it beside it
/// ([`CLOCK_ENDS`]): the column's words were fixed before there were clocks.
pub const RESULTS: [&str; 7] = [
    "draw",
    "X won",
    "O won",
    "X resigned",
    "O resigned",
    "X abandoned",
    "O abandoned",
];

/// The `clock_end` words: which side's time ran out (`X timeout`: X lost on time, or
/// drew against a side that could no longer win) or who did not make a first move in
/// time (`X aborted`).
pub const CLOCK_ENDS: [&str; 4] = ["X timeout", "O timeout", "X aborted", "O aborted"];

/// The words of a clock's time control (`control`, `clock_control`), in
/// [`TimeControl`]'s order: `increment` (a game's time and an increment a move) and
/// `per move` (each move within a time).
pub const CONTROLS: [&str; 2] = ["increment", "per move"];

/// The `x_holder`/`o_holder` words, in [`SeatHolder`]'s order: `local`, `guest`,
/// `invited`, `account`.
pub const HOLDERS: [&str; 4] = ["local", "guest", "invited", "account"];

/// A seat's holder as kept: its word and the lock its secret opens (a guest's, an
/// invite's), in the columns `x_holder` and `x_lock` (or O's).
pub fn holder_columns(holder: &SeatHolder) -> (&'static str, Option<&str>) {
    match holder {
        SeatHolder::Local => (HOLDERS[0], None),
        SeatHolder::Guest(lock) => (HOLDERS[1], Some(lock.as_str())),
        SeatHolder::Invited(lock) => (HOLDERS[2], Some(lock.as_str())),
        SeatHolder::Account => (HOLDERS[3], None),
    }
}

/// A seat's holder from its columns (see [`holder_columns`]). A game kept before
/// holders were (no word) was a guest's seat where it had a lock, and the machine's
/// where it had none.
pub fn holder(mark: Mark, word: Option<&str>, lock: Option<&str>) -> Result<SeatHolder, String> {
    let lock = lock
        .map(SecretLock::parse)
        .transpose()
        .map_err(|e| format!("{mark}'s seat: {e}"))?;
    match (word, lock) {
        (None, None) => Ok(SeatHolder::Local),
        (None, Some(lock)) => Ok(SeatHolder::Guest(lock)),
        (Some(word), lock) => match (HOLDERS.iter().position(|known| *known == word), lock) {
            (Some(0), None) => Ok(SeatHolder::Local),
            (Some(1), Some(lock)) => Ok(SeatHolder::Guest(lock)),
            (Some(2), Some(lock)) => Ok(SeatHolder::Invited(lock)),
            (Some(3), None) => Ok(SeatHolder::Account),
            _ => Err(format!(
                "{mark}'s seat is held as {word:?}, which is no holder with a lock as kept"
            )),
        },
    }
}

/// One side's columns, kind, name and level: `(human, name or NULL, NULL)` or
/// `(computer, NULL, level)`.
pub fn side_columns(spec: &PlayerSpec) -> (&'static str, Option<&str>, Option<&'static str>) {
    match spec {
        PlayerSpec::Human(name) => (HUMAN, name.as_ref().map(PlayerName::as_str), None),
        PlayerSpec::Computer(level) => (COMPUTER, None, Some(level_word(*level))),
    }
}

/// Who played side `mark`, from its columns (see [`side_columns`]).
pub fn spec(
    mark: Mark,
    kind: &str,
    name: Option<&str>,
    level: Option<&str>,
) -> Result<PlayerSpec, String> {
    match (kind, name, level) {
        (HUMAN, None, None) => Ok(PlayerSpec::Human(None)),
        // `stored`, not `new`: what was kept is read back even if the rules for new
        // names have changed since.
        (HUMAN, Some(name), None) => PlayerName::stored(name)
            .map(|name| PlayerSpec::Human(Some(name)))
            .map_err(|e| format!("{mark}'s name: {e}")),
        (COMPUTER, None, Some(word)) => self::level(word)
            .map(PlayerSpec::Computer)
            .map_err(|e| format!("{mark}'s {e}")),
        _ => Err(format!(
            "{mark}'s player ({kind:?}, {name:?}, {level:?}) is neither a person nor a computer"
        )),
    }
}

/// A computer's level: its id, as the command line names it (`impossible`).
pub fn level_word(level: Level) -> &'static str {
    level.id()
}

/// The level whose word this is (in any letter case, as the command line reads it).
pub fn level(word: &str) -> Result<Level, String> {
    Level::from_id(word).ok_or_else(|| format!("level {word:?} is not a level"))
}

/// A mark: `X` or `O` (`first`, and a reviewed move's `mark`).
pub fn mark_word(mark: Mark) -> &'static str {
    match mark {
        Mark::X => "X",
        Mark::O => "O",
    }
}

pub fn mark(word: &str) -> Result<Mark, String> {
    find(Mark::ALL, mark_word, word).ok_or_else(|| format!("{word:?} is not a mark"))
}

/// Where two people sit: `together` or `apart`.
pub fn seating_word(seating: Seating) -> &'static str {
    match seating {
        Seating::Together => "together",
        Seating::Apart => "apart",
    }
}

pub fn seating(word: &str) -> Result<Seating, String> {
    find(Seating::ALL, seating_word, word).ok_or_else(|| format!("{word:?} is not a seating"))
}

/// How a game ended, as the columns `ending` and `clock_end` keep it: the result it
/// counts as, a whole sentence such as `X won` ([`RESULTS`]), and for an ending by the
/// clock, how the clock ended it ([`CLOCK_ENDS`]). X out of time is `O won` (or `draw`,
/// O no longer able to win) beside `X timeout`; X not moving first in time is
/// `X abandoned` (counted as nothing, as an abandoned game) beside `X aborted`.
pub fn ending_columns(ending: Ending) -> (&'static str, Option<&'static str>) {
    let [
        draw,
        x_won,
        o_won,
        x_resigned,
        o_resigned,
        x_abandoned,
        o_abandoned,
    ] = RESULTS;
    let [x_timeout, o_timeout, x_aborted, o_aborted] = CLOCK_ENDS.map(Some);
    match ending {
        Ending::Finished(Outcome::Draw) => (draw, None),
        Ending::Finished(Outcome::Won(Mark::X)) => (x_won, None),
        Ending::Finished(Outcome::Won(Mark::O)) => (o_won, None),
        Ending::Resigned(Mark::X) => (x_resigned, None),
        Ending::Resigned(Mark::O) => (o_resigned, None),
        Ending::Abandoned(Mark::X) => (x_abandoned, None),
        Ending::Abandoned(Mark::O) => (o_abandoned, None),
        Ending::TimedOut {
            side: Mark::X,
            drawn,
        } => (if drawn { draw } else { o_won }, x_timeout),
        Ending::TimedOut {
            side: Mark::O,
            drawn,
        } => (if drawn { draw } else { x_won }, o_timeout),
        Ending::Aborted(Mark::X) => (x_abandoned, x_aborted),
        Ending::Aborted(Mark::O) => (o_abandoned, o_aborted),
    }
}

/// The ending whose columns these are (see [`ending_columns`]): a result and a clock's
/// end that contradict each other (`X won` beside `X timeout`) are no ending.
pub fn ending(word: &str, clock_end: Option<&str>) -> Result<Ending, String> {
    if !RESULTS.contains(&word) {
        return Err(format!("{word:?} is not an ending"));
    }
    Ending::ALL
        .into_iter()
        .find(|ending| ending_columns(*ending) == (word, clock_end))
        .ok_or_else(|| match clock_end {
            Some(clock) if CLOCK_ENDS.contains(&clock) => {
                format!("{word:?} by the clock's {clock:?} is not an ending")
            }
            Some(clock) => format!("{clock:?} is not a clock's end"),
            None => format!("{word:?} is not an ending"),
        })
}

/// A time control's word ([`CONTROLS`]).
pub fn control_word(control: TimeControl) -> &'static str {
    match control {
        TimeControl::Increment { .. } => CONTROLS[0],
        TimeControl::PerMove(_) => CONTROLS[1],
    }
}

/// What a review knew of a position's value (`before`, `after`): the words of
/// `analyze --json`.
pub fn known_word(known: Known) -> &'static str {
    match known {
        Known::Exactly(Verdict::Win) => "win",
        Known::Exactly(Verdict::Draw) => "draw",
        Known::Exactly(Verdict::Loss) => "loss",
        Known::AtLeastDraw => "at_least_draw",
        Known::AtMostDraw => "at_most_draw",
        Known::Nothing => "unknown",
    }
}

pub fn known(word: &str) -> Result<Known, String> {
    find(Known::ALL, known_word, word).ok_or_else(|| format!("{word:?} is not a value"))
}

/// Every [`SeekKind`], in the order of its variants (the core has no list of them).
pub const SEEK_KINDS: [SeekKind; 2] = [SeekKind::Lobby, SeekKind::Pool];

/// Where a seek waits (a seek's `kind`): `lobby` or `pool`.
pub fn seek_kind_word(kind: SeekKind) -> &'static str {
    match kind {
        SeekKind::Lobby => "lobby",
        SeekKind::Pool => "pool",
    }
}

pub fn seek_kind(word: &str) -> Result<SeekKind, String> {
    find(SEEK_KINDS, seek_kind_word, word).ok_or_else(|| format!("{word:?} is not a seek's kind"))
}

/// A time control as kept: its word, each side's time as the game begins
/// ([`TimeControl::initial`]: the game's time, or a move's) and the increment (none for
/// a time per move), in milliseconds, in the columns `control`, `initial_ms` and
/// `increment_ms`. A time is cut to the whole millisecond.
pub fn control_columns(control: TimeControl) -> (&'static str, i64, Option<i64>) {
    let ms = |time: Duration| i64::try_from(time.as_millis()).unwrap_or(i64::MAX);
    match control {
        TimeControl::Increment { initial, increment } => {
            (CONTROLS[0], ms(initial), Some(ms(increment)))
        }
        TimeControl::PerMove(limit) => (CONTROLS[1], ms(limit), None),
    }
}

/// A time control from its columns (see [`control_columns`]), within the bounds
/// [`TimeControl::increment`] and [`TimeControl::per_move`] set.
pub fn control(
    word: &str,
    initial_ms: i64,
    increment_ms: Option<i64>,
) -> Result<TimeControl, String> {
    let ms = |value: i64| {
        u64::try_from(value)
            .map(Duration::from_millis)
            .map_err(|_| format!("a time control of {value} ms"))
    };
    let control = match (
        CONTROLS.iter().position(|known| *known == word),
        increment_ms,
    ) {
        (Some(0), Some(increment)) => TimeControl::increment(ms(initial_ms)?, ms(increment)?),
        (Some(1), None) => TimeControl::per_move(ms(initial_ms)?),
        _ => {
            return Err(format!(
                "a time control {word:?} with an increment of {increment_ms:?} ms is no \
                 time control"
            ));
        }
    };
    control.map_err(|e| format!("a time control of {initial_ms} ms and {increment_ms:?} ms: {e}"))
}

/// The value among `all` whose word is `word`.
fn find<T: Copy, const N: usize>(
    all: [T; N],
    word_of: fn(T) -> &'static str,
    word: &str,
) -> Option<T> {
    all.into_iter().find(|value| word_of(*value) == word)
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use tictactoe_core::fixtures::person;

    use super::*;

    #[test]
    fn every_value_reads_back_from_its_word() {
        assert!(
            Level::ALL
                .into_iter()
                .all(|v| level(level_word(v)) == Ok(v))
        );
        assert!(Mark::ALL.into_iter().all(|v| mark(mark_word(v)) == Ok(v)));
        assert!(
            Seating::ALL
                .into_iter()
                .all(|v| seating(seating_word(v)) == Ok(v))
        );
        assert!(Ending::ALL.into_iter().all(|v| {
            let (word, clock_end) = ending_columns(v);
            ending(word, clock_end) == Ok(v)
        }));
        assert!(
            Known::ALL
                .into_iter()
                .all(|v| known(known_word(v)) == Ok(v))
        );
        assert!(
            SEEK_KINDS
                .into_iter()
                .all(|v| seek_kind(seek_kind_word(v)) == Ok(v))
        );
    }

    #[rstest::rstest]
    #[case::three_minutes_and_two_seconds_a_move(TimeControl::increment(
        Duration::from_secs(180),
        Duration::from_secs(2)
    ))]
    #[case::no_increment(TimeControl::increment(Duration::from_millis(5_500), Duration::ZERO))]
    #[case::thirty_seconds_a_move(TimeControl::per_move(Duration::from_secs(30)))]
    fn a_time_control_reads_back_from_its_columns(
        #[case] made: Result<TimeControl, tictactoe_core::domain::TimeControlError>,
    ) {
        let made = made.expect("a time control");
        let (word, initial, increment) = control_columns(made);

        assert_eq!(control(word, initial, increment), Ok(made));
    }

    #[rstest::rstest]
    #[case::an_increment_without_one("increment", 60_000, None)]
    #[case::a_time_per_move_with_an_increment("per move", 60_000, Some(0))]
    #[case::no_such_control("hourglass", 60_000, None)]
    #[case::a_negative_time("per move", -1, None)]
    #[case::a_negative_increment("increment", 60_000, Some(-1))]
    #[case::shorter_than_the_shortest("per move", 4_999, None)]
    #[case::a_game_longer_than_the_longest("increment", 3 * 3_600_000 + 1, Some(0))]
    #[case::a_move_longer_than_the_longest("per move", 24 * 3_600_000 + 1, None)]
    fn columns_that_are_no_time_control_are_an_error_that_says_so(
        #[case] word: &str,
        #[case] initial: i64,
        #[case] increment: Option<i64>,
    ) {
        let read = control(word, initial, increment);

        crate::assert_unreadable_naming(&read, "time control");
    }

    #[test]
    fn no_two_values_of_a_kind_share_a_word() {
        for (kind, words) in vocabulary() {
            let distinct: HashSet<&str> = words.iter().copied().collect();

            assert_eq!(distinct.len(), words.len(), "{kind}: {words:?}");
        }
    }

    #[test]
    fn a_word_that_is_no_value_is_an_error_that_quotes_it() {
        assert_eq!(
            ending("X lost", None),
            Err("\"X lost\" is not an ending".to_string())
        );
        assert_eq!(mark("x"), Err("\"x\" is not a mark".to_string()));
    }

    #[test]
    fn no_two_endings_share_their_columns() {
        let columns: HashSet<_> = Ending::ALL.into_iter().map(ending_columns).collect();

        assert_eq!(columns.len(), Ending::ALL.len());
    }

    #[rstest::rstest]
    #[case::a_win_by_the_side_out_of_time("X won", Some("X timeout"))]
    #[case::a_time_out_aborted("X abandoned", Some("O aborted"))]
    #[case::a_resignation_by_the_clock("O resigned", Some("O timeout"))]
    #[case::no_clock_end_at_all("draw", Some("flag"))]
    fn columns_of_a_result_and_a_clock_that_contradict_each_other_are_an_error(
        #[case] word: &str,
        #[case] clock_end: Option<&str>,
    ) {
        let read = ending(word, clock_end);

        assert!(read.is_err(), "{read:?}");
    }

    #[rstest::rstest]
    #[case::a_named_person(person("Ada"))]
    #[case::a_person_unnamed(PlayerSpec::Human(None))]
    #[case::a_computer(PlayerSpec::Computer(Level::Medium))]
    fn a_side_reads_back_from_its_columns(#[case] side: PlayerSpec) {
        let (kind, name, level) = side_columns(&side);

        assert_eq!(spec(Mark::O, kind, name, level), Ok(side));
    }

    #[rstest::rstest]
    #[case::a_computer_with_a_name(COMPUTER, Some("Ada"), Some("easy"))]
    #[case::a_person_with_a_level(HUMAN, Some("Ada"), Some("easy"))]
    #[case::no_kind("robot", None, Some("easy"))]
    fn columns_that_are_neither_a_person_nor_a_computer_are_an_error(
        #[case] kind: &str,
        #[case] name: Option<&str>,
        #[case] level: Option<&str>,
    ) {
        let read = spec(Mark::X, kind, name, level);

        assert!(
            read.as_ref()
                .is_err_and(|e| e.contains("neither a person nor a computer")),
            "{read:?}"
        );
    }
}
