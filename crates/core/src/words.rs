//! Words people read that more than one front end says: a move's review, a value, a
//! refusal, and training's puzzles and answers. The line console and the full screen
//! (through `tictactoe_console::words`, which re-exports these) and the web API say
//! them alike; each paints or places them as it likes.

use std::fmt::Display;

use crate::domain::{Geometry, IllegalMove, Known, Mark, Position, Refusal, Verdict};
use crate::play::Help;
use crate::play::{Judgement, MoveReview};
use crate::ports::GameId;
use crate::rules::{Answered, Fate};

/// What `help` would do to a rated game, said before it is done (every front end).
pub fn help_makes_casual(help: Help) -> &'static str {
    match help {
        Help::Hint => "A hint makes this rated game casual: it will rate nobody.",
        Help::Undo => {
            "Taking back a move against the computer makes this rated game casual: it will \
             rate nobody."
        }
    }
}

/// What help just did to a rated game.
pub const MADE_CASUAL: &str = "This game is casual now: it rates nobody.";

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
    listed(cells.iter().map(ToString::to_string), "or")
}

/// "3", "3 and 7", "1, 3 and 7".
pub fn and_list(items: impl IntoIterator<Item = String>) -> String {
    listed(items, "and")
}

/// `items` as a sentence lists them, the last two joined by `joined` ("or", "and").
fn listed(items: impl IntoIterator<Item = String>, joined: &str) -> String {
    let items: Vec<String> = items.into_iter().collect();
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} {joined} {last}", rest.join(", ")),
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

/// Where a puzzle is from, and its board's rule: "Puzzle 1 of 3: game 0190ab12, move 4
/// (4x4: 3 in a row wins)", its game named by `short` (a short form of its id).
pub fn puzzle_title(number: usize, total: usize, short: &str, ply: u32, board: Geometry) -> String {
    format!(
        "Puzzle {number} of {total}: game {short}, move {ply} ({})",
        board_rule(board)
    )
}

/// A board and how many in a row win on it: "4x4: 3 in a row wins".
pub fn board_rule(board: Geometry) -> String {
    let size = board.size();
    format!("{size}x{size}: {} in a row wins", board.win_length())
}

/// What a puzzle asks: "O to move; O had a draw here. Find a move that keeps it."
/// `mark` may be painted.
pub fn puzzle_prompt(mark: impl Display, had: Verdict) -> String {
    format!(
        "{mark} to move; {mark} had {} here. Find a move that keeps it.",
        value_words(Known::Exactly(had))
    )
}

/// The verdict on an answer, before its words: "Right:", "Not that one:", or nothing
/// when it was not judged.
pub fn answer_heading(answered: &Answered) -> Option<&'static str> {
    match answered {
        Answered::Right => Some("Right:"),
        Answered::Wrong { .. } => Some("Not that one:"),
        Answered::Unproven => None,
    }
}

/// What answer `cell` to a puzzle where the player `had` a value was, after its
/// heading ([`answer_heading`]): "7 keeps the draw."; "4 leaves a loss." (what the
/// review said is [`in_the_game`], once the player stops trying); or that it was not
/// proven in time and nothing is kept.
pub fn answer_words(cell: Position, had: Verdict, answered: &Answered) -> String {
    match answered {
        Answered::Unproven => format!(
            "{cell} was not proven either way in the time allowed: not judged, nothing \
             kept. Try a move again."
        ),
        Answered::Right => format!("{cell} keeps {}.", the_value(had)),
        Answered::Wrong { left, .. } => {
            format!("{cell} leaves {}.", value_words(Known::Exactly(*left)))
        }
    }
}

/// What the review said of the move played in the game, said once the player has the
/// answer: "In the game, Move 2, O at 2: threw away the draw (a loss left); 1, 3, 7 or
/// 9 kept it."
pub fn in_the_game(reviewed: &MoveReview) -> String {
    format!(
        "In the game, {}: {}.",
        move_label(reviewed.ply, reviewed.mark, reviewed.cell),
        review_words(reviewed)
    )
}

/// What training asks and how, for a player who asks for help at its prompt.
pub const TRAINING_HELP: &str = "Each puzzle is a position from one of your games where \
your move gave away what you had (a win, or a draw). Type the number of a cell that keeps \
it: any such move is right, not only the best. After a wrong answer, try again, or press \
Enter to see the answer. A puzzle solved twice, apart, retires. q stops; every answer so \
far is kept.";

/// Offered after a wrong answer, before the answer is shown.
pub const TRY_AGAIN: &str = "Try again on the same position, or see the answer.";

/// What becomes of a puzzle after a right answer: it retires, or comes back once more.
pub fn fate_words(fate: Fate) -> &'static str {
    match fate {
        Fate::Retires => "Solved twice, apart: the puzzle retires.",
        Fate::ComesBack => {
            "It comes back once more: solve it again another day, or after another \
             puzzle, and it retires."
        }
    }
}

/// How a session left its puzzles: "1 puzzle retired; 2 come back next time."
pub fn retired_words(retired: usize, back: usize) -> String {
    let puzzles = if retired == 1 { "puzzle" } else { "puzzles" };
    let come = if back == 1 { "comes" } else { "come" };
    format!("{retired} {puzzles} retired; {back} {come} back next time.")
}

/// Said after a wrong answer, under the board drawn again: "The best moves: 1, 3, 7 or
/// 9 (lit). The puzzle stays."
pub fn lit_best_moves(best: &[Position]) -> String {
    format!(
        "The best moves: {} (lit). The puzzle stays.",
        cells_or(best)
    )
}

/// An answer with its heading, as one line: "Right: 7 keeps the draw."; "Not that
/// one: 4 leaves a loss." (what the review said is [`in_the_game`], once the player
/// stops trying).
pub fn answer_line(cell: Position, had: Verdict, answered: &Answered) -> String {
    let words = answer_words(cell, had, answered);
    match answer_heading(answered) {
        Some(heading) => format!("{heading} {words}"),
        None => words,
    }
}

/// When a player has no open puzzle: "No puzzles for Ada on 3x3: no slip of theirs in
/// a reviewed game is open." `board` says where ("on 3x3", "on any board"); with no
/// ended game of theirs there (`played` false), it says so and how puzzles come.
pub fn no_puzzles(player: impl Display, board: &str, played: bool) -> String {
    if played {
        format!("No puzzles for {player} {board}: no slip of theirs in a reviewed game is open.")
    } else {
        format!(
            "No puzzles for {player} {board}: no game of theirs has ended here yet. Play one: \
             its slips become puzzles."
        )
    }
}

/// How many of a player's moves were not made puzzles because their review is not
/// exact ("3 of Ada's moves were not made puzzles: ..."), if any.
pub fn not_exact_words(player: impl Display, not_exact: u64) -> Option<String> {
    (not_exact > 0).then(|| {
        let (were, their) = if not_exact == 1 {
            ("was", "its")
        } else {
            ("were", "their")
        };
        format!(
            "{not_exact} of {player}'s moves {were} not made puzzles: {their} review is not \
             exact yet (a position too hard to prove in the time it was given)."
        )
    })
}

/// How many of a player's games have no review, so no puzzles, if any; `how` says how
/// one is reviewed (`tictactoe replay ID --review` at the console, the game's review
/// on the web).
pub fn unreviewed_words(player: impl Display, unreviewed: &[GameId], how: &str) -> Option<String> {
    (!unreviewed.is_empty()).then(|| {
        let has = if unreviewed.len() == 1 { "has" } else { "have" };
        format!(
            "{} of {player}'s games {has} no review yet, so no puzzles: {how}.",
            unreviewed.len()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_puzzles_title_says_how_many_in_a_row_win_on_its_board() {
        let board = Geometry::new(4, 3).unwrap();

        let title = puzzle_title(1, 2, "0190ab12", 4, board);

        assert_eq!(
            title,
            "Puzzle 1 of 2: game 0190ab12, move 4 (4x4: 3 in a row wins)"
        );
    }

    #[rstest::rstest]
    #[case::one(1, "1 of Ada's games has no review yet, so no puzzles: review it.")]
    #[case::two(2, "2 of Ada's games have no review yet, so no puzzles: review it.")]
    fn games_without_a_review_are_counted_in_words_that_agree(
        #[case] count: u128,
        #[case] said: &str,
    ) {
        let games: Vec<GameId> = (1..=count).map(GameId::from_bits).collect();

        assert_eq!(
            unreviewed_words("Ada", &games, "review it").as_deref(),
            Some(said)
        );
    }

    #[rstest::rstest]
    #[case::one(1, "1 of Ada's moves was not made puzzles: its review")]
    #[case::two(2, "2 of Ada's moves were not made puzzles: their review")]
    fn moves_not_exact_are_counted_in_words_that_agree(#[case] count: u64, #[case] said: &str) {
        let words = not_exact_words("Ada", count).unwrap_or_default();

        assert!(words.starts_with(said), "{words}");
    }
}
