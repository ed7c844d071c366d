//! What a person can answer at each menu prompt, parsed into types. Pure functions: the
//! session does the asking.

use crate::ports::Problem;
use tictactoe_core::domain::{Geometry, Mark, PlayerName, excerpt};
use tictactoe_core::players::Level;

/// Who plays whom: the first choice of every menu, the line console's and the full
/// screen's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    HumanVsHuman,
    HumanVsComputer,
    ComputerVsComputer,
}

impl Mode {
    /// In the order the menus list them.
    pub const ALL: [Mode; 3] = [
        Mode::HumanVsHuman,
        Mode::HumanVsComputer,
        Mode::ComputerVsComputer,
    ];

    /// Which of X and O (in that order) a person plays, when the person against the
    /// computer plays `side` (which matters only then).
    pub fn humans(self, side: Mark) -> [bool; 2] {
        match self {
            Mode::HumanVsHuman => [true, true],
            Mode::HumanVsComputer => [side == Mark::X, side == Mark::O],
            Mode::ComputerVsComputer => [false, false],
        }
    }
}

/// What to do once a game is over: the choices of every front end's "again?".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterGame {
    /// The same players again, on the same sides.
    PlayAgain,
    /// The same players again, X and O swapped. (The full screen offers it; the line
    /// console's question does not.)
    SwapSides,
    /// Back to the menu, to choose again.
    Menu,
    Quit,
}

/// An answer to any prompt: a value, or one of the words that work everywhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply<T> {
    Value(T),
    Help,
    Quit,
}

/// Reads the words every prompt understands (`q`/`quit`, `h`/`help`), then `parse`.
pub fn reply<T>(
    text: &str,
    parse: impl FnOnce(&str) -> Result<T, Problem>,
) -> Result<Reply<T>, Problem> {
    match text.trim().to_lowercase().as_str() {
        "q" | "quit" => Ok(Reply::Quit),
        "h" | "help" => Ok(Reply::Help),
        _ => parse(text.trim()).map(Reply::Value),
    }
}

fn choice(text: &str, expected: &str) -> Problem {
    Problem::Choice {
        given: excerpt(text),
        expected: expected.to_string(),
    }
}

/// `1`, `2` or `3`; empty picks Human vs Computer.
pub fn mode(text: &str) -> Result<Mode, Problem> {
    match text {
        "1" => Ok(Mode::HumanVsHuman),
        "2" | "" => Ok(Mode::HumanVsComputer),
        "3" => Ok(Mode::ComputerVsComputer),
        _ => Err(choice(text, "1, 2 or 3")),
    }
}

/// `1` to `4` or the level's name; empty picks Impossible.
pub fn level(text: &str) -> Result<Level, Problem> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Level::Impossible);
    }
    let by_number = (1..)
        .zip(Level::ALL)
        .find_map(|(number, level)| (text == number.to_string()).then_some(level));
    by_number
        .or_else(|| Level::from_id(text))
        .ok_or_else(|| choice(text, "1, 2, 3 or 4"))
}

/// Any usable name; empty takes `default`.
pub fn name(text: &str, default: &PlayerName) -> Result<PlayerName, Problem> {
    if text.trim().is_empty() {
        return Ok(default.clone());
    }
    PlayerName::new(text).map_err(Problem::Name)
}

/// A board size from 3 to 7; empty picks 3.
pub fn size(text: &str) -> Result<usize, Problem> {
    match text {
        "" => Ok(3),
        _ => text
            .parse()
            .ok()
            .filter(|n| Geometry::SIZES.contains(n))
            .ok_or_else(|| choice(text, "a size from 3 to 7")),
    }
}

/// The run to win on a `size` board, from 3 to `size`; empty picks `size`.
pub fn win_length(text: &str, size: usize) -> Result<Geometry, Problem> {
    let win = if text.is_empty() {
        Some(size)
    } else {
        text.parse().ok()
    };
    win.and_then(|win| Geometry::new(size, win).ok())
        .ok_or_else(|| choice(text, &format!("a number from 3 to {size}")))
}

/// `x` or `o`; empty picks X: the side a person plays against the computer.
pub fn side(text: &str) -> Result<Mark, Problem> {
    first_mover(text)
}

/// `x` or `o`; empty picks X.
pub fn first_mover(text: &str) -> Result<Mark, Problem> {
    match text.to_lowercase().as_str() {
        "x" | "" => Ok(Mark::X),
        "o" => Ok(Mark::O),
        _ => Err(choice(text, "x or o")),
    }
}

/// `y` (or empty) plays again, `m` goes to the menu, `n` quits.
pub fn after_game(text: &str) -> Result<AfterGame, Problem> {
    match text.to_lowercase().as_str() {
        "y" | "yes" | "" => Ok(AfterGame::PlayAgain),
        "m" | "menu" => Ok(AfterGame::Menu),
        "n" | "no" => Ok(AfterGame::Quit),
        _ => Err(choice(text, "y, m or n")),
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    #[rstest]
    #[case::quit("q")]
    #[case::quit_word("QUIT")]
    #[case::padded("  q  ")]
    fn quit_works_at_every_prompt(#[case] text: &str) {
        assert_eq!(reply(text, mode), Ok(Reply::Quit));
        assert_eq!(reply(text, level), Ok(Reply::Quit));
        assert_eq!(reply(text, first_mover), Ok(Reply::Quit));
    }

    #[test]
    fn help_works_at_every_prompt() {
        assert_eq!(reply("help", after_game), Ok(Reply::Help));
        assert_eq!(reply("h", mode), Ok(Reply::Help));
    }

    #[rstest]
    #[case::one("1", Mode::HumanVsHuman)]
    #[case::two("2", Mode::HumanVsComputer)]
    #[case::three("3", Mode::ComputerVsComputer)]
    #[case::default("", Mode::HumanVsComputer)]
    fn modes_are_chosen_by_number(#[case] text: &str, #[case] expected: Mode) {
        assert_eq!(reply(text, mode), Ok(Reply::Value(expected)));
    }

    #[rstest]
    #[case::zero("0")]
    #[case::four("4")]
    #[case::word("chess")]
    #[case::huge(&"9".repeat(100_000))]
    fn other_mode_answers_list_the_choices(#[case] text: &str) {
        let Err(Problem::Choice { expected, given }) = reply(text, mode) else {
            panic!("expected a choice problem")
        };
        assert_eq!(expected, "1, 2 or 3");
        assert!(given.chars().count() <= 21);
    }

    #[rstest]
    #[case::random_by_number("1", Level::Random)]
    #[case::random_by_name("random", Level::Random)]
    #[case::by_number("3", Level::Medium)]
    #[case::by_name("Easy", Level::Easy)]
    #[case::default("", Level::Impossible)]
    fn levels_are_chosen_by_number_or_name(#[case] text: &str, #[case] expected: Level) {
        assert_eq!(level(text), Ok(expected));
    }

    #[test]
    fn an_empty_name_takes_the_default() {
        let default = PlayerName::new("Player X").unwrap();

        assert_eq!(name("", &default), Ok(default.clone()));
    }

    #[test]
    fn an_unusable_name_says_why() {
        let default = PlayerName::new("Player X").unwrap();

        assert!(matches!(name("Computer", &default), Err(Problem::Name(_))));
    }

    #[rstest]
    #[case::default("", 3)]
    #[case::largest("7", 7)]
    fn sizes_go_from_3_to_7(#[case] text: &str, #[case] expected: usize) {
        assert_eq!(size(text), Ok(expected));
    }

    #[rstest]
    #[case::too_small("2")]
    #[case::too_large("8")]
    #[case::word("big")]
    fn other_sizes_are_refused(#[case] text: &str) {
        assert!(matches!(size(text), Err(Problem::Choice { .. })));
    }

    #[test]
    fn the_run_to_win_defaults_to_the_size_and_cannot_exceed_it() {
        assert_eq!(win_length("", 5).map(|g| g.win_length()), Ok(5));
        assert_eq!(win_length("4", 5).map(|g| g.win_length()), Ok(4));
        assert!(
            matches!(win_length("6", 5), Err(Problem::Choice { expected, .. }) if expected == "a number from 3 to 5")
        );
    }

    #[rstest]
    #[case::again("y", AfterGame::PlayAgain)]
    #[case::default("", AfterGame::PlayAgain)]
    #[case::menu("m", AfterGame::Menu)]
    #[case::no("n", AfterGame::Quit)]
    fn after_a_game_people_choose_what_next(#[case] text: &str, #[case] expected: AfterGame) {
        assert_eq!(after_game(text), Ok(expected));
    }
}
