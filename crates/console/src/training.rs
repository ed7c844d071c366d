//! Training on one's own slips, line by line: each open puzzle put to its player in
//! turn ([`train_in_lines`]), an answer read as a cell and judged by the core
//! ([`judge`]), and each answer handed back to be kept. What a puzzle is and when it
//! retires are the core's (`tictactoe_core::ports::training`); this only asks and
//! words.

use std::io::Write;

use colored::Colorize;
use tictactoe_core::domain::{Position, Refusal};
use tictactoe_core::play::MoveReview;
use tictactoe_core::players::Advisor;
use tictactoe_core::rules::{Answered, Fate, Puzzle, judge};

use crate::ports::{Dialogue, GameView, Input, InputHandler, Problem};
use crate::renderer::ConsoleRenderer;
use tictactoe_core::words::{
    TRAINING_HELP, TRY_AGAIN, answer_heading, answer_words, fate_words, in_the_game,
    lit_best_moves, puzzle_prompt, retired_words,
};

/// A puzzle with the line that says where it is from ("Puzzle 1 of 3: game 0190ab12,
/// move 4").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Titled {
    pub title: String,
    pub puzzle: Puzzle,
}

/// How a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Every puzzle was answered.
    Done,
    /// The player typed q.
    Quit,
    /// Input ended before the last answer (end of a pipe, a closed terminal).
    InputClosed,
    /// Ctrl-C on the full screen.
    Interrupted,
}

/// What a session came to: the answers kept, what became of the puzzles, and how it
/// ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trained {
    pub right: u32,
    pub wrong: u32,
    /// The puzzles put in the session, and how many of them retired in it.
    pub puzzles: usize,
    pub retired: usize,
    pub stop: Stop,
}

impl Trained {
    /// A session over `puzzles` puzzles, nothing answered yet.
    pub fn over(puzzles: usize) -> Self {
        Trained {
            right: 0,
            wrong: 0,
            puzzles,
            retired: 0,
            stop: Stop::Done,
        }
    }

    /// Counts an answer kept, and what it made of its puzzle.
    pub fn count(&mut self, right: bool, fate: Fate) {
        if right {
            self.right += 1;
        } else {
            self.wrong += 1;
        }
        if fate == Fate::Retires {
            self.retired += 1;
        }
    }
}

/// Puts each of `puzzles` to the player on `screen`, reading answers from `input`: a
/// cell's number or coordinate, judged by [`judge`] with `advisor`'s perfect play; each
/// answer handed to `keep` (right or not), which says what becomes of the puzzle,
/// before it is told. A right answer says whether the puzzle retires or comes back; a
/// wrong one offers another try on the same position (an empty line shows the answer:
/// what the review said, the best moves lit) before the next puzzle. What is not an
/// answer (not a cell, a taken one) is said, and asked again, and nothing is kept; so
/// is a move whose value the advisor could not prove in its time. `q` stops; so does
/// the end of input, with every answer so far kept. An error from `keep` stops the
/// session with it.
pub fn train_in_lines<W: Write, I: InputHandler, E>(
    screen: &ConsoleRenderer<W>,
    input: &I,
    advisor: &mut dyn Advisor,
    puzzles: &[Titled],
    keep: &mut dyn FnMut(&Puzzle, bool) -> Result<Fate, E>,
) -> Result<Trained, E> {
    let mut trained = Trained::over(puzzles.len());
    'puzzles: for Titled { title, puzzle } in puzzles {
        screen.show_puzzle(title, puzzle);
        // The last wrong answer's review, while the player may try again.
        let mut missed: Option<MoveReview> = None;
        loop {
            screen.write(&match missed {
                None => format!(
                    "Your move [1-{}] (h for help, q to stop): ",
                    puzzle.board.cell_count()
                ),
                Some(_) => format!(
                    "Try again [1-{}], Enter to see the answer (h for help, q to stop): ",
                    puzzle.board.cell_count()
                ),
            });
            let text = match input.read_line() {
                Input::Line(text) => text,
                Input::End => {
                    screen.write("\n");
                    trained.stop = Stop::InputClosed;
                    break 'puzzles;
                }
            };
            match text.trim().to_ascii_lowercase().as_str() {
                "q" | "quit" => {
                    trained.stop = Stop::Quit;
                    break 'puzzles;
                }
                "h" | "help" | "?" => {
                    screen.write(&format!("{TRAINING_HELP}\n"));
                    continue;
                }
                _ => {}
            }
            if let (Some(reviewed), true) = (&missed, text.trim().is_empty()) {
                screen.show_the_answer(puzzle, reviewed);
                continue 'puzzles;
            }
            let answered = puzzle
                .board
                .parse_position(&text)
                .map_err(Problem::Position)
                .and_then(|cell| {
                    judge(puzzle, cell, advisor)
                        .map(|answered| (cell, answered))
                        .map_err(|illegal| Problem::Refused(Refusal::Illegal(illegal)))
                });
            match answered {
                Ok((cell, answered)) => {
                    let Some(right) = answered.kept_as() else {
                        // Not judged: nothing kept, asked again.
                        screen.show_answer(puzzle, cell, &answered);
                        continue;
                    };
                    let fate = keep(puzzle, right)?;
                    trained.count(right, fate);
                    screen.show_answer(puzzle, cell, &answered);
                    match answered {
                        Answered::Wrong { reviewed, .. } => {
                            screen.write(&format!("{TRY_AGAIN}\n"));
                            missed = Some(reviewed);
                        }
                        _ => {
                            screen.write(&format!("{}\n", fate_words(fate)));
                            continue 'puzzles;
                        }
                    }
                }
                Err(problem) => screen.show_problem(&problem),
            }
        }
    }
    screen.show_trained(&trained);
    Ok(trained)
}

impl<W: Write> ConsoleRenderer<W> {
    /// A puzzle put to its player: where it is from and its board's rule, the position,
    /// who is to move and what they had.
    pub fn show_puzzle(&self, title: &str, puzzle: &Puzzle) {
        self.write(&format!("\n{}\n", self.paint(title, |s| s.bold())));
        self.show_board(&puzzle.position, &[]);
        let prompt = puzzle_prompt(self.mark(puzzle.to_move), puzzle.value);
        self.write(&format!("{prompt}\n"));
    }

    /// What answer `cell` to `puzzle` was: right; wrong, with what it leaves; or not
    /// judged, its value not proven in time.
    pub fn show_answer(&self, puzzle: &Puzzle, cell: Position, answered: &Answered) {
        let words = answer_words(cell, puzzle.value, answered);
        match (answer_heading(answered), answered) {
            (Some(heading), Answered::Wrong { .. }) => self.write(&format!(
                "{} {words}\n",
                self.paint(heading, |s| s.bright_red().bold())
            )),
            (Some(heading), _) => self.write(&format!(
                "{} {words}\n",
                self.paint(heading, |s| s.bright_green().bold())
            )),
            (None, _) => self.write(&format!("{words}\n")),
        }
    }

    /// The answer, once the player stops trying: what the review said of the move
    /// played in the game, and the board with the best moves lit.
    pub fn show_the_answer(&self, puzzle: &Puzzle, reviewed: &MoveReview) {
        self.write(&format!("{}\n", in_the_game(reviewed)));
        self.show_board(&puzzle.position, &reviewed.best_moves);
        self.write(&format!("{}\n", lit_best_moves(&reviewed.best_moves)));
    }

    /// A session's end: how many answers were right and wrong, and how many puzzles
    /// retired and come back.
    pub fn show_trained(&self, trained: &Trained) {
        let answered = trained.right + trained.wrong;
        let how = match trained.stop {
            Stop::Done => "Every puzzle answered",
            Stop::Quit => "Stopped",
            Stop::InputClosed => "Input ended",
            Stop::Interrupted => "Interrupted",
        };
        self.write(&format!(
            "\n{how}: {answered} answered, {} right, {} wrong; every answer is kept. {}\n",
            trained.right,
            trained.wrong,
            retired_words(trained.retired, trained.puzzles - trained.retired)
        ));
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use tictactoe_core::domain::{Analysis, BitBoard, Board, Geometry, Mark, Verdict};
    use tictactoe_core::players::MockAdvisor;
    use tictactoe_core::ports::GameId;

    use super::*;
    use crate::ConsoleInput;

    fn cell(number: usize) -> Position {
        Geometry::classic().position(number - 1).unwrap()
    }

    /// X on 5, O to move: O had a draw, played 2 (a loss left); 1, 3, 7 and 9 were
    /// the best moves.
    fn puzzle() -> Titled {
        let mut position = BitBoard::new(Geometry::classic());
        position.place(cell(5), Mark::X).unwrap();
        Titled {
            title: "Puzzle 1 of 1: game 00000001, move 2".to_string(),
            puzzle: Puzzle {
                game: GameId::from_bits(1),
                ply: 2,
                board: Geometry::classic(),
                position,
                to_move: Mark::O,
                value: Verdict::Draw,
                left: Verdict::Loss,
                played: cell(2),
                best_moves: vec![cell(1), cell(3), cell(7), cell(9)],
            },
        }
    }

    /// An advisor stub: after any answer, X has `verdict` (proven when `exact`).
    fn advisor_saying(verdict: Verdict, exact: bool) -> MockAdvisor {
        let mut advisor = MockAdvisor::new();
        advisor.expect_advise().return_const(Some(Analysis {
            verdict,
            plies: 3,
            best_moves: Vec::new(),
            exact,
            moves_proven: exact,
        }));
        advisor
    }

    /// A session over `puzzles` with `typed` as input: what was shown, the answers
    /// kept (right or not), and what it came to. After an answer that is not one of the
    /// best moves, X is proven to win (O is left a loss).
    fn session(puzzles: &[Titled], typed: &str) -> (String, Vec<bool>, Trained) {
        session_with(&mut advisor_saying(Verdict::Win, true), puzzles, typed)
    }

    /// [`session`], asking `advisor` what an answer leaves.
    fn session_with(
        advisor: &mut dyn Advisor,
        puzzles: &[Titled],
        typed: &str,
    ) -> (String, Vec<bool>, Trained) {
        let screen = ConsoleRenderer::new(Vec::new(), false);
        let input = ConsoleInput::new(typed.as_bytes());
        let kept = RefCell::new(Vec::new());
        let trained = train_in_lines(&screen, &input, advisor, puzzles, &mut |_, right| {
            kept.borrow_mut().push(right);
            Ok::<Fate, ()>(Fate::ComesBack)
        })
        .unwrap();
        let shown = String::from_utf8(screen.into_inner()).unwrap();
        (shown, kept.into_inner(), trained)
    }

    #[test]
    fn a_puzzle_says_who_is_to_move_and_what_they_had() {
        let (shown, _, _) = session(&[puzzle()], "");

        assert!(shown.contains("O to move; O had a draw here."), "{shown}");
    }

    #[test]
    fn a_best_move_is_right_and_kept_as_right() {
        let (shown, kept, trained) = session(&[puzzle()], "7\n");

        assert!(shown.contains("Right: 7 keeps the draw."), "{shown}");
        assert_eq!(kept, [true]);
        assert_eq!((trained.right, trained.stop), (1, Stop::Done));
    }

    #[test]
    fn another_move_that_keeps_the_value_is_right() {
        // O on 8 after X on 5 is not among the puzzle's best moves, and keeps the draw.
        let mut advisor = advisor_saying(Verdict::Draw, true);

        let (shown, kept, _) = session_with(&mut advisor, &[puzzle()], "8\n");

        assert!(shown.contains("Right: 8 keeps the draw."), "{shown}");
        assert_eq!(kept, [true]);
    }

    #[test]
    fn a_move_whose_value_is_not_proven_in_time_is_not_judged_and_asked_again() {
        let mut advisor = advisor_saying(Verdict::Draw, false);

        let (shown, kept, trained) = session_with(&mut advisor, &[puzzle()], "8\n");

        assert!(
            shown.contains("8 was not proven either way in the time allowed: not judged"),
            "{shown}"
        );
        assert_eq!(kept, []);
        assert_eq!(trained.stop, Stop::InputClosed);
    }

    #[test]
    fn a_move_that_gives_the_value_away_is_told_what_it_leaves_and_kept_as_wrong() {
        let (shown, kept, _) = session(&[puzzle()], "4\n");

        assert!(shown.contains("Not that one: 4 leaves a loss."), "{shown}");
        assert!(
            shown.contains("Try again [1-9], Enter to see the answer"),
            "{shown}"
        );
        assert!(!shown.contains("[7]"), "the answer given away: {shown}");
        assert_eq!(kept, [false]);
    }

    #[test]
    fn after_a_wrong_answer_another_try_on_the_same_position_is_judged_and_kept() {
        let (shown, kept, trained) = session(&[puzzle()], "4\n7\n");

        assert!(shown.contains("Right: 7 keeps the draw."), "{shown}");
        assert_eq!(kept, [false, true]);
        assert_eq!(
            (trained.right, trained.wrong, trained.stop),
            (1, 1, Stop::Done)
        );
    }

    #[test]
    fn after_a_wrong_answer_enter_shows_the_answer_in_the_reviews_words_with_the_best_moves_lit() {
        let (shown, kept, trained) = session(&[puzzle()], "4\n\n");

        assert!(
            shown.contains(
                "In the game, Move 2, O at 2: threw away the draw (a loss left); \
                 1, 3, 7 or 9 kept it."
            ),
            "{shown}"
        );
        assert!(shown.contains("[7]"), "the best moves lit: {shown}");
        assert!(shown.contains("The puzzle stays."), "{shown}");
        assert_eq!(kept, [false]);
        assert_eq!(trained.stop, Stop::Done);
    }

    #[rstest::rstest]
    #[case::retires(
        Fate::Retires,
        "Solved twice, apart: the puzzle retires.",
        "1 puzzle retired; 0 come back"
    )]
    #[case::comes_back(
        Fate::ComesBack,
        "It comes back once more",
        "0 puzzles retired; 1 comes back"
    )]
    fn a_right_answer_says_what_becomes_of_the_puzzle_and_the_end_counts_them(
        #[case] fate: Fate,
        #[case] said: &str,
        #[case] counted: &str,
    ) {
        let screen = ConsoleRenderer::new(Vec::new(), false);
        let input = ConsoleInput::new(&b"1\n"[..]);
        let mut advisor = advisor_saying(Verdict::Win, true);

        train_in_lines(&screen, &input, &mut advisor, &[puzzle()], &mut |_, _| {
            Ok::<Fate, ()>(fate)
        })
        .unwrap();

        let shown = String::from_utf8(screen.into_inner()).unwrap();
        assert!(shown.contains(said), "{shown}");
        assert!(shown.contains(counted), "{shown}");
    }

    #[test]
    fn a_taken_cell_is_refused_asked_again_and_not_kept() {
        let (shown, kept, _) = session(&[puzzle()], "5\n1\n");

        assert!(shown.contains("cell 5 is already taken"), "{shown}");
        assert_eq!(kept, [true]);
    }

    #[test]
    fn what_is_not_a_cell_is_refused_and_asked_again() {
        let (shown, kept, _) = session(&[puzzle()], "ten\n12\n");

        assert!(
            shown.contains("there is no cell 12: choose 1 to 9"),
            "{shown}"
        );
        assert_eq!(kept, []);
    }

    #[test]
    fn the_end_of_input_stops_with_the_answers_so_far_kept() {
        let (_, kept, trained) = session(&[puzzle(), puzzle()], "1\n");

        assert_eq!(kept, [true]);
        assert_eq!(trained.stop, Stop::InputClosed);
    }

    #[test]
    fn h_explains_the_training_and_asks_the_same_puzzle_again() {
        let (shown, kept, _) = session(&[puzzle()], "h\n1\n");

        assert!(shown.contains(TRAINING_HELP), "{shown}");
        assert_eq!(kept, [true], "the answer after the help is judged and kept");
    }

    #[test]
    fn q_stops_the_session() {
        let (_, kept, trained) = session(&[puzzle(), puzzle()], "q\n");

        assert_eq!(kept, []);
        assert_eq!(trained.stop, Stop::Quit);
    }

    #[test]
    fn an_answer_that_cannot_be_kept_stops_the_session_with_its_error() {
        let screen = ConsoleRenderer::new(Vec::new(), false);
        let input = ConsoleInput::new(&b"1\n"[..]);

        let mut advisor = advisor_saying(Verdict::Win, true);

        let trained = train_in_lines(&screen, &input, &mut advisor, &[puzzle()], &mut |_, _| {
            Err("full")
        });

        assert_eq!(trained, Err("full"));
    }
}
