//! Wording shared by the console front ends (line by line and full screen).

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use std::time::SystemTime;

use tictactoe_core::domain::{
    FinishedGame, IllegalMove, Known, Mark, Outcome, Position, Refusal, Verdict,
};
use tictactoe_core::play::{Judgement, MoveReview};
use tictactoe_core::players::Level;
use tictactoe_core::ports::{Answered, Ending, Puzzle};

use crate::menu::Mode;

/// A mode as the menus name it.
pub fn mode_label(mode: Mode) -> &'static str {
    match mode {
        Mode::HumanVsHuman => "Human vs Human",
        Mode::HumanVsComputer => "Human vs Computer",
        Mode::ComputerVsComputer => "Computer vs Computer",
    }
}

/// A refusal, in people's words.
pub fn refused(refusal: &Refusal) -> String {
    match refusal {
        Refusal::Illegal(IllegalMove::Occupied(cell)) => {
            format!("cell {cell} is already taken: choose an empty one")
        }
        Refusal::Illegal(IllegalMove::OffBoard(cell)) => {
            format!("there is no cell {cell} on this board")
        }
        Refusal::NotYourTurn(mark) => format!("it is not {mark}'s turn"),
        Refusal::ComputerSeat(mark) => format!("the computer plays {mark}"),
        Refusal::GameOver => "the game is over".to_string(),
        Refusal::NothingToUndo => "there is no move of yours to take back yet".to_string(),
        Refusal::NoHints => "there are no hints in this game".to_string(),
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

/// A board's shape in few words: "3x3", or "7x7, 5 in a row" when the run is shorter.
pub fn shape(size: usize, win: usize) -> String {
    if size == win {
        format!("{size}x{size}")
    } else {
        format!("{size}x{size}, {win} in a row")
    }
}

/// What is known of a position's value for one side: "a win", "a draw", "a loss", "at
/// least a draw", "at most a draw", "nothing proven".
pub fn value_words(known: Known) -> &'static str {
    match known {
        Known::Exactly(Verdict::Win) => "a win",
        Known::Exactly(Verdict::Draw) => "a draw",
        Known::Exactly(Verdict::Loss) => "a loss",
        Known::AtLeastDraw => "at least a draw",
        Known::AtMostDraw => "at most a draw",
        Known::Nothing => "nothing proven",
    }
}

/// What a side had, as a move keeps it or throws it away: "the win", "the draw",
/// "nothing" (a loss).
pub fn the_value(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Win => "the win",
        Verdict::Draw => "the draw",
        Verdict::Loss => "nothing",
    }
}

/// "3", "3 or 7", "1, 3 or 7".
pub fn cells_or(cells: &[Position]) -> String {
    let numbers: Vec<String> = cells.iter().map(ToString::to_string).collect();
    match numbers.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// "Move 4, O at 3": which move a review line is about.
pub fn move_label(ply: u32, mark: Mark, cell: Position) -> String {
    format!("Move {ply}, {mark} at {cell}")
}

/// What perfect play says of a move: "kept the draw", "threw away the win (a draw
/// left); 3 or 7 kept it", "the game was already lost", or, where the analysis did
/// not settle it in time, what it did find.
pub fn review_words(reviewed: &MoveReview) -> String {
    match reviewed.judgement() {
        Judgement::Kept(Verdict::Win) => "kept the win".to_string(),
        Judgement::Kept(Verdict::Draw) => "kept the draw".to_string(),
        Judgement::Kept(Verdict::Loss) => "the game was already lost".to_string(),
        Judgement::ThrewAway { had, left } => {
            let had = the_value(had);
            let kept = if reviewed.best_moves.is_empty() {
                String::new()
            } else {
                format!("; {} kept it", cells_or(&reviewed.best_moves))
            };
            format!(
                "threw away {had} ({} left){kept}",
                value_words(Known::Exactly(left))
            )
        }
        Judgement::Unsettled => format!(
            "not proven in time: {} before, {} after",
            value_words(reviewed.before),
            value_words(reviewed.after)
        ),
    }
}

/// What a training puzzle asks: "O to move; O had a draw here. Find a move that keeps
/// it."
pub fn asked(puzzle: &Puzzle) -> String {
    format!(
        "{mark} to move; {mark} had {} here. Find a move that keeps it.",
        value_words(Known::Exactly(puzzle.value)),
        mark = puzzle.to_move
    )
}

/// What an answer to a puzzle was, in three parts a front end may style apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerWords {
    /// "Right:", "Not that one:" or "Not judged:".
    pub verdict: &'static str,
    /// "7 keeps the draw."; "3 leaves a loss. In the game, Move 5, X at 3: threw away
    /// the draw (a loss left); 4, 6, 7 or 9 kept it."; or why it was not judged.
    pub what: String,
    /// After a wrong answer: "The best moves: 4, 6, 7 or 9 (lit). The puzzle stays."
    pub then: String,
}

/// What answer `cell` to `puzzle` was, in words.
pub fn answer_words(puzzle: &Puzzle, cell: Position, answered: &Answered) -> AnswerWords {
    match answered {
        Answered::Right => AnswerWords {
            verdict: "Right:",
            what: format!("{cell} keeps {}.", the_value(puzzle.value)),
            then: String::new(),
        },
        Answered::Wrong { left, reviewed } => AnswerWords {
            verdict: "Not that one:",
            what: format!(
                "{cell} leaves {}. In the game, {}: {}.",
                value_words(Known::Exactly(*left)),
                move_label(reviewed.ply, reviewed.mark, reviewed.cell),
                review_words(reviewed)
            ),
            then: format!(
                "The best moves: {} (lit). The puzzle stays.",
                cells_or(&reviewed.best_moves)
            ),
        },
        Answered::Unproven => AnswerWords {
            verdict: "Not judged:",
            what: format!(
                "{cell} was not proven either way in the time allowed; nothing kept. Try a \
                 move again."
            ),
            then: String::new(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
