//! Wording shared by the console front ends (line by line and full screen).

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use tictactoe_core::domain::{FinishedGame, IllegalMove, Outcome, Refusal};
use tictactoe_core::players::Level;

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

/// "Ada (X) wins!" or "It's a draw."
pub fn result_line(game: &FinishedGame) -> String {
    match game.outcome {
        Outcome::Won(mark) => format!("{} ({mark}) wins!", game.name_of(mark)),
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
