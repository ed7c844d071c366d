//! Wording shared by the console front ends (line by line and full screen).

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use std::time::SystemTime;

use tictactoe_core::domain::{FinishedGame, Outcome};
use tictactoe_core::players::Level;
use tictactoe_core::ports::Ending;

use crate::menu::Mode;

/// The words the web API says too, written once in the core.
pub use tictactoe_core::words::{
    and_list, cells_or, move_label, refused, review_words, shape, the_value, value_words,
};

/// A mode as the menus name it.
pub fn mode_label(mode: Mode) -> &'static str {
    match mode {
        Mode::HumanVsHuman => "Human vs Human",
        Mode::HumanVsComputer => "Human vs Computer",
        Mode::ComputerVsComputer => "Computer vs Computer",
    }
}

/// One line on each level, for people choosing one.
pub fn how_it_plays(level: Level) -> &'static str {
    match level {
        Level::Random => "plays any empty cell",
        Level::Easy => "takes a win it can see, otherwise plays at random",
        Level::Medium => "wins when it can and blocks a single threat, but falls for a fork",
        Level::Impossible => "plays perfectly: it never loses",
    }
}

/// A player and the mark they play, in one pair of brackets: "Ada (X)"; a name that
/// ends in brackets of its own takes the mark inside them, "Computer (Impossible, O)",
/// rather than a second pair. `mark` may be painted.
pub fn seat(name: &str, mark: impl std::fmt::Display) -> String {
    match name.strip_suffix(')') {
        Some(inner) if inner.contains('(') => format!("{inner}, {mark})"),
        _ => format!("{name} ({mark})"),
    }
}

/// "Ada (X) wins!" or "It's a draw."
pub fn result_line(game: &FinishedGame) -> String {
    match game.outcome {
        Outcome::Won(mark) => format!("{} wins!", seat(game.name_of(mark).as_str(), mark)),
        Outcome::Draw => "It's a draw.".to_string(),
    }
}

/// `text` cut to at most `width` columns on screen, with "…" where it was cut.
pub fn clip(text: &str, width: usize) -> String {
    if UnicodeWidthStr::width(text) <= width {
        return text.to_string();
    }
    let mut clipped = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        used += w;
        clipped.push(c);
    }
    clipped.push('…');
    clipped
}

/// The width on screen of each column of a table of `rows` under `header`: its widest
/// entry.
pub fn column_widths<const N: usize>(header: &[String; N], rows: &[[String; N]]) -> [usize; N] {
    let mut widths = [0; N];
    for (column, width) in widths.iter_mut().enumerate() {
        *width = rows
            .iter()
            .chain([header])
            .map(|row| UnicodeWidthStr::width(row[column].as_str()))
            .max()
            .unwrap_or(0);
    }
    widths
}

/// How a kept game ended, in a history's words: "X won", "draw", "O resigned",
/// "X abandoned".
pub fn ending_words(ending: Ending) -> String {
    match ending {
        Ending::Finished(Outcome::Won(mark)) => format!("{mark} won"),
        Ending::Finished(Outcome::Draw) => "draw".to_string(),
        Ending::Resigned(mark) => format!("{mark} resigned"),
        Ending::Abandoned(mark) => format!("{mark} left"),
    }
}

/// A moment as people read it in a history: `2026-11-24 14:05` (UTC).
pub fn when(time: SystemTime) -> String {
    let stamp = humantime::format_rfc3339_seconds(time).to_string();
    // "2026-11-24T14:05:09Z": the date, a space, the hour and minute.
    match (stamp.get(..10), stamp.get(11..16)) {
        (Some(date), Some(clock)) => format!("{date} {clock}"),
        _ => stamp,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictactoe_core::domain::Mark;

    #[rstest::rstest]
    #[case::a_person("Ada", Mark::X, "Ada (X)")]
    #[case::a_computer("Computer (Impossible)", Mark::O, "Computer (Impossible, O)")]
    #[case::brackets_not_at_the_end("Bob (the second) Jr", Mark::X, "Bob (the second) Jr (X)")]
    #[case::a_closing_bracket_alone("Smile :)", Mark::O, "Smile :) (O)")]
    fn a_seat_names_its_player_and_mark_in_one_pair_of_brackets(
        #[case] name: &str,
        #[case] mark: Mark,
        #[case] said: &str,
    ) {
        assert_eq!(seat(name, mark), said);
    }
}
