use std::cell::RefCell;
use std::io::{self, Write};
use std::thread;
use std::time::Duration;

use colored::{ColoredString, Colorize};
use unicode_width::UnicodeWidthStr;

use super::words::{
    aborted, and_list, column_widths, how_it_plays, mode_label, move_label, out_of_time, refused,
    replay_ending, review_words, seat, time_left_words,
};
use crate::menu::Mode;
use crate::ports::{Dialogue, GameView, Notice, Problem, Prompt, Reports};
use tictactoe_core::domain::{
    Analysis, Board, FinishedGame, GameState, Mark, Outcome, PlayerName, Position, Scoreboard,
    Standing, Verdict,
};
use tictactoe_core::play::{Help, Judgement, Replay, Report, Review};
use tictactoe_core::players::{Level, PlayerSpec};
use tictactoe_core::ports::RatingChange;
use tictactoe_core::rules::names_of;
use tictactoe_core::words::{MADE_CASUAL, help_makes_casual};

/// Draws the game as text on any writer: standard output in the game, a buffer in tests.
///
/// With colour on, X and O have their own colours and a winning line is lit up; with it
/// off, a winning line is shown in \[brackets\] so it still stands out. Output errors
/// (a closed pipe) are ignored: there is nobody left to tell.
pub struct ConsoleRenderer<W: Write> {
    out: RefCell<W>,
    /// Warnings (a result that was not saved) go here: standard error by default.
    warnings: RefCell<Box<dyn Write>>,
    colour: bool,
    computer_pause: Duration,
}

impl<W: Write> ConsoleRenderer<W> {
    pub fn new(out: W, colour: bool) -> Self {
        ConsoleRenderer {
            out: RefCell::new(out),
            warnings: RefCell::new(Box::new(io::stderr())),
            colour,
            computer_pause: Duration::ZERO,
        }
    }

    /// Waits this long after each computer move, so people can follow the game.
    pub fn with_computer_pause(mut self, pause: Duration) -> Self {
        self.computer_pause = pause;
        self
    }

    /// Sends warnings to `warnings` instead of standard error.
    pub fn with_warnings(mut self, warnings: impl Write + 'static) -> Self {
        self.warnings = RefCell::new(Box::new(warnings));
        self
    }

    /// The readable form of one `analyze` answer.
    pub fn show_report(&self, report: &Report) {
        match report {
            Report::InProgress {
                board,
                to_move,
                analysis,
                choice,
            } => {
                self.show_board(board, &[]);
                self.write(&format!("{} to move. ", self.mark(*to_move)));
                self.show_analysis(*to_move, analysis);
                self.write(&format!("The Impossible player would play {choice}.\n"));
            }
            Report::Finished { board, outcome } => {
                let line = board.winner().map(|win| win.line);
                self.show_board(board, line.as_ref().map_or(&[], |l| l.cells()));
                self.write(&match outcome {
                    Outcome::Won(mark) => {
                        format!("{} has won: the game is over.\n", self.mark(*mark))
                    }
                    Outcome::Draw => "The board is full: a draw.\n".to_string(),
                });
            }
            Report::Invalid { given, error } => {
                let given = tictactoe_core::domain::excerpt(given);
                self.write(&format!(
                    "{} \"{given}\" is not a position: {error}\n",
                    self.paint("!", |s| s.bright_red().bold())
                ));
            }
        }
    }

    /// A kept game played back line by line: a line on the game, then each move (with,
    /// given a review, what perfect play says of it) and the board after it, the move
    /// lit up; then how it ended and, with a review, where it slipped.
    pub fn show_replay(&self, title: &str, replay: &Replay, review: Option<&Review>) {
        let [x, o] = names_of(replay.settings());
        self.write(&format!(
            "{}\n",
            self.paint(
                &format!(
                    "{title}: {} vs {}, {} first",
                    seat(x.as_str(), Mark::X),
                    seat(o.as_str(), Mark::O),
                    replay.settings().first()
                ),
                |s| s.bold()
            )
        ));
        for played in replay.moves() {
            let reviewed = review.and_then(|review| review.moves.get(played.ply as usize - 1));
            let words = reviewed.map_or(String::new(), |r| format!(": {}", review_words(r)));
            self.write(&format!(
                "\n{}{words}\n",
                move_label(played.ply, played.mark, played.cell)
            ));
            // The move played stands out; a winning move, with the line it made.
            let board = replay.after(played.ply as usize);
            let line = board.board().winner().map(|win| win.line);
            let just_played = [played.cell];
            let lit = line.as_ref().map_or(&just_played[..], |line| line.cells());
            self.show_board(board.board(), lit);
        }
        let end = replay_ending(replay);
        self.write(&format!("{}\n", self.paint(&end, |s| s.bold())));
        if let Some(review) = review {
            for line in slipped(replay, review) {
                self.write(&format!("{line}\n"));
            }
        }
    }

    /// The writer back, for tests to read what was drawn.
    pub fn into_inner(self) -> W {
        self.out.into_inner()
    }

    pub(crate) fn write(&self, text: &str) {
        let mut out = self.out.borrow_mut();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    }

    fn warn(&self, text: &str) {
        let mut warnings = self.warnings.borrow_mut();
        let _ = warnings.write_all(text.as_bytes());
        let _ = warnings.flush();
    }

    pub(crate) fn paint(&self, text: &str, style: fn(ColoredString) -> ColoredString) -> String {
        if self.colour {
            style(text.into()).to_string()
        } else {
            text.to_string()
        }
    }

    pub(crate) fn mark(&self, mark: Mark) -> String {
        match mark {
            Mark::X => self.paint("X", |s| s.bright_cyan().bold()),
            Mark::O => self.paint("O", |s| s.bright_yellow().bold()),
        }
    }

    fn cell(
        &self,
        board: &dyn Board,
        row: usize,
        col: usize,
        width: usize,
        highlight: &[Position],
    ) -> String {
        let geometry = board.geometry();
        let Some(position) = geometry.at(row, col) else {
            return " ".repeat(width);
        };
        let lit = highlight.contains(&position);
        let text = match board.mark_at(position) {
            Some(mark) => mark.to_string(),
            None => position.number().to_string(),
        };
        // Right-aligned with one space after, so numbers line up like a table's.
        let padded = if lit && !self.colour {
            format!("{:>width$}", format!("[{text}]"))
        } else {
            format!("{text:>inner$} ", inner = width - 1)
        };
        match (board.mark_at(position), lit) {
            (Some(_), true) if self.colour => {
                self.paint(&padded, |s| s.black().on_bright_green().bold())
            }
            (Some(mark), _) => padded.replace(&mark.to_string(), &self.mark(mark)),
            (None, _) => self.paint(&padded, |s| s.dimmed()),
        }
    }
}

/// The review's last word, a line for each person who played (for both sides when
/// computers played each other): where they first slipped and on which moves again, or
/// that every move of theirs kept what they had. A computer's slip is not a person's to
/// learn from, so it is not named beside a person's.
fn slipped(replay: &Replay, review: &Review) -> Vec<String> {
    let settings = replay.settings();
    let names = names_of(settings);
    let people: Vec<Mark> = [Mark::X, Mark::O]
        .into_iter()
        .filter(|&mark| matches!(settings.player(mark), PlayerSpec::Human(_)))
        .collect();
    let sides = if people.is_empty() {
        vec![Mark::X, Mark::O]
    } else {
        people
    };
    sides
        .into_iter()
        .map(|mark| {
            let who = seat(names[mark.index()].as_str(), mark);
            let theirs = || review.moves.iter().filter(move |r| r.mark == mark);
            let slips: Vec<_> = theirs()
                .filter(|r| matches!(r.judgement(), Judgement::ThrewAway { .. }))
                .collect();
            match slips.split_first() {
                Some((first, again)) => {
                    let again = match again {
                        [] => String::new(),
                        [one] => format!(" Again at move {}.", one.ply),
                        more => format!(
                            " Again at moves {}.",
                            and_list(more.iter().map(|r| r.ply.to_string()))
                        ),
                    };
                    format!(
                        "Where {who} slipped: move {}, {} at {}: {}.{again}",
                        first.ply,
                        first.mark,
                        first.cell,
                        review_words(first)
                    )
                }
                None if theirs().all(|r| !matches!(r.judgement(), Judgement::Unsettled)) => {
                    format!("{who}: every move kept what they had.")
                }
                None => format!(
                    "{who}: no move proven to throw anything away (some were not proven in \
                     time)."
                ),
            }
        })
        .collect()
}

/// The choices of a menu, one a line, numbered from 1.
fn numbered(choices: impl IntoIterator<Item = String>) -> String {
    choices
        .into_iter()
        .enumerate()
        .map(|(i, choice)| format!("  {}  {choice}\n", i + 1))
        .collect()
}

fn level_menu() -> String {
    numbered(Level::ALL.map(|level| format!("{:<10}  {}", level.to_string(), how_it_plays(level))))
}

impl<W: Write> GameView for ConsoleRenderer<W> {
    /// The board in a frame, the column letters above it and the row numbers to its
    /// left, outside the frame, so that a row's number never reads as a cell's (on 7 x
    /// 7, row 7 beside cell 43).
    fn show_board(&self, board: &dyn Board, highlight: &[Position]) {
        let size = board.geometry().size();
        let width = board.geometry().cell_count().to_string().len() + 2;
        let margin = " ".repeat(4);
        let letters: Vec<String> = (0..size)
            .map(|col| {
                format!(
                    "{:>inner$} ",
                    char::from(b'a' + col as u8),
                    inner = width - 1
                )
            })
            .collect();
        let mut text = format!(
            "\n{margin} {}\n",
            self.paint(letters.join(" ").trim_end(), |s| s.dimmed())
        );
        let rule = format!("{margin}+{}+\n", vec!["-".repeat(width); size].join("+"));
        text.push_str(&rule);
        for row in 0..size {
            let cells: Vec<String> = (0..size)
                .map(|col| self.cell(board, row, col, width, highlight))
                .collect();
            text.push_str(&format!(
                "{} |{}|\n",
                // Pad before painting: escape codes would count towards the width.
                self.paint(&format!("{:>3}", row + 1), |s| s.dimmed()),
                cells.join("|")
            ));
            text.push_str(&rule);
        }
        text.push('\n');
        self.write(&text);
    }

    fn show_notice(&self, notice: &Notice) {
        let text = match notice {
            Notice::Welcome => format!(
                "{}\nTake turns placing your mark; the first to complete a line of them wins. \
                 At any prompt, h shows help and q leaves.\n\n",
                self.paint("Tic Tac Toe", |s| s.bold())
            ),
            Notice::GameStarts {
                x,
                o,
                first,
                geometry,
            } => format!(
                "\n{} vs {} on {size} x {size}, {} in a row wins. {} moves first.\n",
                seat(x.as_str(), self.mark(Mark::X)),
                seat(o.as_str(), self.mark(Mark::O)),
                geometry.win_length(),
                self.mark(*first),
                size = geometry.size(),
            ),
            Notice::Moved {
                name,
                mark,
                position,
                by_computer,
            } => {
                if *by_computer && !self.computer_pause.is_zero() {
                    thread::sleep(self.computer_pause);
                }
                format!(
                    "{} plays {position}.\n",
                    seat(name.as_str(), self.mark(*mark))
                )
            }
            Notice::Abandoned { by } => format!("{by} left. This game is not counted.\n"),
            Notice::Resigned { by } => format!("{by} resigned, and loses this game.\n"),
            Notice::TimedOut {
                name,
                side,
                other,
                drawn,
            } => format!(
                "{}\n",
                out_of_time(
                    &seat(name.as_str(), self.mark(*side)),
                    &seat(other.as_str(), self.mark(side.opponent())),
                    *drawn
                )
            ),
            Notice::Aborted { name, by } => {
                format!("{}\n", aborted(&seat(name.as_str(), self.mark(*by))))
            }
            // On a line of its own: input usually ends (Ctrl-D) right after a prompt.
            Notice::InputClosed => {
                "\nInput ended, so the program stops here. Nothing unfinished was recorded.\n"
                    .into()
            }
            Notice::NotSaved { reason } => {
                // A warning: on the error stream, so `play ... > log` still shows it.
                self.warn(&format!(
                    "{} this game is not being saved: {reason}\n",
                    self.paint("warning:", |s| s.bright_red().bold())
                ));
                return;
            }
            Notice::Goodbye => "Thanks for playing!\n".into(),
            Notice::Rated { changes } => {
                let said: Vec<String> = changes.iter().map(RatingChange::said).collect();
                format!("Rating: {}.\n", said.join(", "))
            }
            Notice::Undone { moves: 1 } => "The last move was taken back.\n".into(),
            Notice::Undone { moves } => format!("The last {moves} moves were taken back.\n"),
            Notice::UndoAsked { by } => format!(
                "{by} asks to take back their last move; undo (or u) agrees, a move declines.\n"
            ),
            Notice::HelpWarned { help } => {
                let again = match help {
                    Help::Hint => "hint (or ?)",
                    Help::Undo => "undo (or u)",
                };
                format!(
                    "{} Type {again} again to go ahead.\n",
                    help_makes_casual(*help)
                )
            }
            Notice::MadeCasual => format!("{MADE_CASUAL}\n"),
        };
        self.write(&text);
    }
}

impl<W: Write> Dialogue for ConsoleRenderer<W> {
    fn show_prompt(&self, prompt: &Prompt) {
        let text = match prompt {
            Prompt::Move {
                name,
                mark,
                geometry,
                guide,
                time,
            } => {
                // What can be typed, said once a game; then a short question each move.
                let guide = if *guide {
                    format!(
                        "Type a cell's number (1 to {}) or its coordinate (b2); ? for a hint, \
                         u to undo, h for help, q to leave.\n",
                        geometry.cell_count()
                    )
                } else {
                    String::new()
                };
                // On a clock, each side's time, read as the question is put.
                let time = time.map_or(String::new(), |time| {
                    format!("[{}] ", time_left_words(&time))
                });
                format!(
                    "{guide}{time}{}, your move [1-{}]: ",
                    seat(name.as_str(), self.mark(*mark)),
                    geometry.cell_count()
                )
            }
            Prompt::Mode => format!(
                "{}\n{}Your choice [2]: ",
                self.paint("Choose a game:", |s| s.bold()),
                numbered(Mode::ALL.map(|mode| mode_label(mode).to_string()))
            ),
            Prompt::Level { mark } => format!(
                "{}\n{}Your choice [4]: ",
                self.paint(&format!("Level for the computer playing {mark}:"), |s| s
                    .bold()),
                level_menu()
            ),
            Prompt::Name { mark, default } => {
                format!("Name for the player of {} [{default}]: ", self.mark(*mark))
            }
            Prompt::Side => "Your side, x or o? [x]: ".to_string(),
            Prompt::FirstMover => "Who moves first, x or o? [x]: ".to_string(),
            Prompt::Size => "Board size, 3 to 7 [3]: ".to_string(),
            Prompt::Win { size } => format!("Marks in a row to win, 3 to {size} [{size}]: "),
            Prompt::PlayAgain => {
                "Play again with the same players? y = yes, m = menu, n = quit [y]: ".to_string()
            }
        };
        self.write(&text);
    }

    /// A menu's list is not shown again under the problem just explained: only its
    /// question.
    fn show_prompt_again(&self, prompt: &Prompt) {
        match prompt {
            Prompt::Mode => self.write("Your choice [2]: "),
            Prompt::Level { .. } => self.write("Your choice [4]: "),
            other => self.show_prompt(other),
        }
    }

    fn show_help(&self, prompt: &Prompt) {
        let specific = match prompt {
            Prompt::Move { geometry, .. } => format!(
                "Type the number of an empty cell (1 to {}), or its coordinate: column letter then row \
                 number, so b2 is the second column of the second row.\n\
                 hint (or ?) shows the best moves; undo (or u) takes back the last move \
                 (against the computer, your move and its reply).\n\
                 q leaves (a game left unfinished is kept, not counted).",
                geometry.cell_count()
            ),
            Prompt::Level { .. } => format!(
                "Type a level's number or name, or press Enter for the one in [brackets]:\n{}q leaves.",
                level_menu()
            ),
            _ => "Type one of the choices shown, or press Enter for the one in [brackets].\nq leaves.".to_string(),
        };
        self.write(&format!("{specific}\nh shows this help.\n"));
    }

    fn show_problem(&self, problem: &Problem) {
        let text = match problem {
            Problem::Refused(refusal) => refused(refusal),
            other => other.to_string(),
        };
        self.write(&format!(
            "{} {text}\n",
            self.paint("!", |s| s.bright_red().bold())
        ));
    }
}

impl<W: Write> Reports for ConsoleRenderer<W> {
    fn show_result(&self, game: &FinishedGame) {
        let text = match game.outcome {
            Outcome::Won(mark) => format!(
                "{} wins!",
                seat(game.name_of(mark).as_str(), self.mark(mark))
            ),
            Outcome::Draw => "It's a draw.".to_string(),
        };
        self.write(&format!("{}\n", self.paint(&text, |s| s.bold())));
    }

    fn show_analysis(&self, to_move: Mark, analysis: &Analysis) {
        let mark = self.mark(to_move);
        // `plies` counts both sides' moves to the end; a person counts their own.
        let plies = analysis.plies;
        let own = |count: usize| match count {
            1 => "1 move".to_string(),
            n => format!("{n} moves"),
        };
        let (verdict, label) = match analysis.verdict {
            Verdict::Win if plies == 1 => (format!("{mark} wins with this move."), "Winning move"),
            Verdict::Win => (
                format!(
                    "{mark} can force a win in {} of its own, this one included.",
                    own(plies.div_ceil(2))
                ),
                "Best move",
            ),
            Verdict::Draw if !analysis.exact && analysis.moves_proven => (
                "Proven not to lose; whether a win is there was not settled in the time allowed."
                    .to_string(),
                "Safe move",
            ),
            Verdict::Draw if !analysis.exact => (
                "Not proven in the time allowed: the search found no forced win for either side."
                    .to_string(),
                "Best move found",
            ),
            Verdict::Draw => (
                "With best play from both sides this is a draw.".to_string(),
                "Best move",
            ),
            // The other side wins at its next move, whatever is played.
            Verdict::Loss if plies <= 2 => (
                format!(
                    "{mark} loses against perfect play: whatever {mark} plays, {} can win \
                     with its next move.",
                    self.mark(to_move.opponent())
                ),
                "Move left",
            ),
            Verdict::Loss => (
                format!(
                    "{mark} loses against perfect play: every move loses. These put the loss \
                     off longest: {mark} makes {}, this one included.",
                    own(plies / 2)
                ),
                "Longest-lasting move",
            ),
        };
        let best: Vec<String> = analysis
            .best_moves
            .iter()
            .map(ToString::to_string)
            .collect();
        // "Best move", "Best moves"; "Best move found", "Best moves found"; "Move left",
        // "Moves left".
        let label = match best.len() {
            1 => label.to_string(),
            _ => label
                .replacen("Move", "Moves", 1)
                .replacen(" move", " moves", 1),
        };
        self.write(&format!("{verdict}\n{label}: {}.\n", best.join(", ")));
    }

    fn show_scoreboard(&self, scoreboard: &Scoreboard) {
        let mut table = ScoreTable::new(Vec::new(), self.colour);
        for row in scoreboard.standings() {
            table.row(row);
        }
        self.write(&String::from_utf8_lossy(&table.finish()));
    }
}

/// The scoreboard as a table, written as its rows arrive, so that a table of a million
/// players never has to be held whole. Each column is as wide as its widest entry on
/// screen (a name's width is what the terminal gives it: two columns for 李, one for ë,
/// two for 🎉), measured over the first [`ScoreTable::SIZED_BY`] rows: a table no
/// longer than that comes out exactly sized; a longer one is sized by its first rows,
/// with room for the longest name, and streams the rest.
pub struct ScoreTable<W: Write> {
    out: W,
    colour: bool,
    /// Rows held until the columns are sized.
    held: Vec<[String; 5]>,
    widths: Option<[usize; 5]>,
}

impl<W: Write> ScoreTable<W> {
    /// How many rows size the columns.
    pub const SIZED_BY: usize = 1000;

    pub fn new(out: W, colour: bool) -> Self {
        ScoreTable {
            out,
            colour,
            held: Vec::new(),
            widths: None,
        }
    }

    /// Adds a row (rows come in rank order). Output errors are ignored, as everywhere
    /// in the console: a closed pipe has nobody left to tell.
    pub fn row(&mut self, standing: &Standing) {
        let r = standing.record;
        let row = [
            standing.name.to_string(),
            r.wins.to_string(),
            r.losses.to_string(),
            r.ties.to_string(),
            r.games().to_string(),
        ];
        match self.widths {
            Some(widths) => self.write_row(&row, widths),
            None => {
                self.held.push(row);
                if self.held.len() == Self::SIZED_BY {
                    // Longer than this: leave room for any name that may follow.
                    self.size_and_flush(PlayerName::MAX_CHARS);
                }
            }
        }
    }

    /// Whether no row has come yet.
    pub fn is_empty(&self) -> bool {
        self.widths.is_none() && self.held.is_empty()
    }

    /// Writes what is held and gives the output back; a table without rows says "No
    /// games recorded yet."
    pub fn finish(self) -> W {
        self.finish_or("No games recorded yet.")
    }

    /// As [`finish`](Self::finish), a table without rows saying `empty` instead: what
    /// the caller knows of why it is empty.
    pub fn finish_or(mut self, empty: &str) -> W {
        if self.widths.is_none() {
            if self.held.is_empty() {
                let _ = writeln!(self.out, "{empty}");
                return self.out;
            }
            self.size_and_flush(0);
        }
        let _ = self.out.flush();
        self.out
    }

    fn size_and_flush(&mut self, least_name_width: usize) {
        let header = ["Player", "Wins", "Losses", "Ties", "Games"].map(String::from);
        let mut widths = column_widths(&header, &self.held);
        widths[0] = widths[0].max(least_name_width);
        self.widths = Some(widths);
        let header = self.line(&header, widths);
        let header = if self.colour {
            header.bold().to_string()
        } else {
            header
        };
        let _ = writeln!(self.out, "{header}");
        for row in std::mem::take(&mut self.held) {
            self.write_row(&row, widths);
        }
    }

    fn write_row(&mut self, row: &[String; 5], widths: [usize; 5]) {
        let line = self.line(row, widths);
        let _ = writeln!(self.out, "{line}");
    }

    fn line(&self, row: &[String; 5], widths: [usize; 5]) -> String {
        let name_width = row[0].width();
        let name = format!(
            "{}{}",
            row[0],
            " ".repeat(widths[0].saturating_sub(name_width))
        );
        let numbers: Vec<String> = (1..5)
            .map(|c| format!("{:>w$}", row[c], w = widths[c]))
            .collect();
        format!("{name}  {}", numbers.join("  "))
    }
}

#[cfg(test)]
mod tests {
    use std::io;

    use super::*;
    use tictactoe_core::domain::{BitBoard, Geometry, MockBoard};

    // `std::io::Write` is not ours, so `mock!` writes its double from the signatures.
    mockall::mock! {
        Terminal {}
        impl Write for Terminal {
            fn write(&mut self, bytes: &[u8]) -> io::Result<usize>;
            fn flush(&mut self) -> io::Result<()>;
        }
    }

    #[test]
    fn a_terminal_that_cannot_be_written_to_is_given_up_on_not_retried_or_panicked_over() {
        // Arrange: every write fails as a closed pipe does. Each piece of text is tried
        // once (`times(1)`) and the renderer goes on: there is nobody left to tell.
        let mut terminal = MockTerminal::new();
        terminal
            .expect_write()
            .times(2)
            .returning(|_| Err(io::Error::from(io::ErrorKind::BrokenPipe)));
        terminal.expect_flush().times(2).returning(|| Ok(()));
        let renderer = ConsoleRenderer::new(terminal, false);

        // Act: two things to show, so two writes, and no panic.
        renderer.show_board(&BitBoard::new(Geometry::classic()), &[]);
        renderer.show_notice(&Notice::Goodbye);

        // Assert: the expectations are checked when the mock is dropped.
        drop(renderer.into_inner());
    }

    #[test]
    fn a_write_that_takes_only_part_of_the_text_is_given_the_rest() {
        // "Than" goes first (`return_once`: an answer given once), then exactly the rest.
        let mut terminal = MockTerminal::new();
        let mut seq = mockall::Sequence::new();
        terminal
            .expect_write()
            .times(1)
            .in_sequence(&mut seq)
            .return_once(|_| Ok(4));
        terminal
            .expect_write()
            .withf(|rest: &[u8]| rest == b"ks for playing!\n")
            .times(1)
            .in_sequence(&mut seq)
            .returning(|rest| Ok(rest.len()));
        terminal.expect_flush().returning(|| Ok(()));
        let renderer = ConsoleRenderer::new(terminal, false);

        renderer.show_notice(&Notice::Goodbye);

        drop(renderer.into_inner());
    }

    #[test]
    fn the_board_drawn_is_the_marks_the_board_reports() {
        // Arrange: a stub of the `Board` trait, nothing like a real board inside: its
        // shape, X on cell 1 and O on cell 9. Only what drawing needs is answered: a call
        // to `place` or `remove` would fail the test, as drawing only reads.
        let geometry = Geometry::classic();
        let (first, last) = (geometry.position(0), geometry.position(8));
        let mut board = MockBoard::new();
        board.expect_geometry().return_const(geometry);
        board
            .expect_mark_at()
            .returning(move |cell| match Some(cell) {
                p if p == first => Some(Mark::X),
                p if p == last => Some(Mark::O),
                _ => None,
            });
        let renderer = ConsoleRenderer::new(Vec::new(), false);

        // Act
        renderer.show_board(&board, &[]);

        // Assert: the top row starts with X, the bottom row ends with O, and the cells
        // the board calls empty show their numbers.
        let text = String::from_utf8(renderer.into_inner()).unwrap();
        let rows: Vec<&str> = text.lines().filter(|l| l.contains('|')).collect();
        assert_eq!(
            rows,
            [
                "  1 | X | 2 | 3 |",
                "  2 | 4 | 5 | 6 |",
                "  3 | 7 | 8 | O |"
            ]
        );
    }
}
