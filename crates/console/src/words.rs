//! Wording shared by the console front ends (line by line and full screen).

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use std::time::{Duration, SystemTime};

use tictactoe_core::domain::{FinishedGame, Mark, Outcome};
use tictactoe_core::play::Replay;
use tictactoe_core::players::Level;
use tictactoe_core::ports::Ending;
use tictactoe_core::rules::names_of;

use crate::clock::TimeLeft;
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
/// "X left", "X lost on time", "draw, O out of time", "aborted".
pub fn ending_words(ending: Ending) -> String {
    match ending {
        Ending::Finished(Outcome::Won(mark)) => format!("{mark} won"),
        Ending::Finished(Outcome::Draw) => "draw".to_string(),
        Ending::Resigned(mark) => format!("{mark} resigned"),
        Ending::Abandoned(mark) => format!("{mark} left"),
        Ending::TimedOut { side, drawn: false } => format!("{side} lost on time"),
        Ending::TimedOut { side, drawn: true } => format!("draw, {side} out of time"),
        Ending::Aborted(_) => "aborted".to_string(),
    }
}

/// A side that ran out of time, as every console front end says it: "Ada (X) ran out
/// of time: Bob (O) wins.", or, when the other side could no longer complete a line,
/// "Ada (X) ran out of time, but Bob (O) could no longer complete a line: a draw."
/// `side` and `other` are seats ([`seat`]), painted or not.
pub fn out_of_time(side: &str, other: &str, drawn: bool) -> String {
    if drawn {
        format!("{side} ran out of time, but {other} could no longer complete a line: a draw.")
    } else {
        format!("{side} ran out of time: {other} wins.")
    }
}

/// A game aborted because `by` (a seat) made no first move in time: "Bob (O) made no
/// first move in time: the game is aborted, and not counted."
/// How a kept game ended, as its replay says last: "Ada (X) won.", "A draw.", ...
pub fn replay_ending(replay: &Replay) -> String {
    let names = names_of(replay.settings());
    let name = |mark: Mark| seat(names[mark.index()].as_str(), mark);
    match replay.ending() {
        Some(Ending::Finished(Outcome::Won(mark))) => format!("{} won.", name(mark)),
        Some(Ending::Finished(Outcome::Draw)) => "A draw.".to_string(),
        Some(Ending::Resigned(mark)) => format!("{} resigned.", name(mark)),
        Some(Ending::Abandoned(mark)) => format!("{} left the game.", name(mark)),
        Some(Ending::TimedOut { side, drawn }) => {
            out_of_time(&name(side), &name(side.opponent()), drawn)
        }
        Some(Ending::Aborted(mark)) => aborted(&name(mark)),
        None => "The game was not finished.".to_string(),
    }
}

pub fn aborted(by: &str) -> String {
    format!("{by} made no first move in time: the game is aborted, and not counted.")
}

/// A time on a clock: "2:58"; under ten seconds with its tenths, "0:07.4" (cut, not
/// rounded: a clock never shows more than is left).
pub fn clock_time(time: Duration) -> String {
    let seconds = time.as_secs();
    if seconds < 10 {
        format!("0:{seconds:02}.{}", time.subsec_millis() / 100)
    } else {
        format!("{}:{:02}", seconds / 60, seconds % 60)
    }
}

/// Each side's time, as the prompt and the full screen show it: "X 2:58 · O 3:00";
/// before both sides have moved, with how long the first move may still take: "X 3:00
/// · O 3:00 · first move within 0:25".
pub fn time_left_words(time: &TimeLeft) -> String {
    let [x, o] = time.left.map(clock_time);
    let clocks = format!("X {x} · O {o}");
    match time.first_move {
        Some(wait) => format!("{clocks} · first move within {}", clock_time(wait)),
        None => clocks,
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

    #[rstest::rstest]
    #[case::minutes(Duration::from_secs(178), "2:58")]
    #[case::an_hour(Duration::from_secs(3600), "60:00")]
    #[case::ten_seconds(Duration::from_millis(10_900), "0:10")]
    #[case::under_ten_seconds_with_tenths_cut(Duration::from_millis(7_490), "0:07.4")]
    #[case::none_left(Duration::ZERO, "0:00.0")]
    fn a_clock_shows_minutes_and_seconds_and_tenths_at_the_end(
        #[case] time: Duration,
        #[case] shown: &str,
    ) {
        assert_eq!(clock_time(time), shown);
    }

    #[test]
    fn before_the_clocks_run_the_time_left_says_how_long_the_first_move_may_take() {
        let time = TimeLeft {
            left: [Duration::from_secs(180); 2],
            first_move: Some(Duration::from_secs(25)),
        };

        assert_eq!(
            time_left_words(&time),
            "X 3:00 · O 3:00 · first move within 0:25"
        );
    }

    #[rstest::rstest]
    #[case::lost(false, "Ada (X) ran out of time: Bob (O) wins.")]
    #[case::drawn(
        true,
        "Ada (X) ran out of time, but Bob (O) could no longer complete a line: a draw."
    )]
    fn a_side_out_of_time_loses_unless_the_other_could_no_longer_win(
        #[case] drawn: bool,
        #[case] said: &str,
    ) {
        assert_eq!(out_of_time("Ada (X)", "Bob (O)", drawn), said);
    }
}
