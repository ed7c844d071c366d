//! Training on one's own slips, full screen: each open puzzle in turn, its board with a
//! cursor (arrows or hjkl, or a cell's number typed), Enter to answer; what
//! the answer was said under the board: after a right one whether the puzzle retires,
//! after a wrong one another try on the same position, or s for the answer (the best
//! moves lit); Enter or n for the next puzzle, q or Esc to stop. The words are the line console's
//! (`tictactoe_console::words`), the judging the core's.
//!
//! Plain state and drawing, like the other screens: tested on ratatui's `TestBackend`.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::grid::{CELL_WIDTH, Palette, grid};
use tictactoe_console::{Stop, Titled, Trained};
use tictactoe_core::domain::{Board, Position};
use tictactoe_core::rules::{Answered, Fate};
use tictactoe_core::words::{
    TRY_AGAIN, answer_heading, answer_words, fate_words, in_the_game, lit_best_moves, puzzle_prompt,
};

/// What the runner should do after a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrainFlow {
    Continue,
    /// Judge this cell as the answer to the puzzle shown (then [`TrainScreen::answered`]).
    Answer(Position),
    /// Every puzzle answered, or q or Esc: the session is over.
    Leave,
    /// Ctrl-C.
    Interrupt,
}

/// The trainer's state: which puzzle is shown, the cursor, and what the last answer was.
pub struct TrainScreen<'a> {
    puzzles: &'a [Titled],
    shown: usize,
    cursor: Position,
    /// The answer given to the puzzle shown, once judged, and what it made of the
    /// puzzle (once kept).
    answer: Option<(Position, Answered)>,
    fate: Option<Fate>,
    /// After a wrong answer: whether the player asked for the answer (s), rather than
    /// trying again.
    revealed: bool,
    /// A cell's number being typed (several digits on a large board).
    typed: String,
    palette: Palette,
    right: u32,
    wrong: u32,
    retired: usize,
}

impl<'a> TrainScreen<'a> {
    /// Opens on the first of `puzzles` (there is at least one), the cursor on its
    /// centre.
    pub fn new(puzzles: &'a [Titled], colour: bool) -> Self {
        TrainScreen {
            puzzles,
            shown: 0,
            cursor: puzzles[0].puzzle.board.centre(),
            answer: None,
            fate: None,
            revealed: false,
            typed: String::new(),
            palette: Palette { colour },
            right: 0,
            wrong: 0,
            retired: 0,
        }
    }

    /// The puzzle shown.
    pub fn puzzle(&self) -> &'a Titled {
        &self.puzzles[self.shown]
    }

    /// How many answers were right and wrong so far.
    pub fn tally(&self) -> (u32, u32) {
        (self.right, self.wrong)
    }

    /// The session as it stands, ended by `stop` (every puzzle answered, whatever
    /// `stop` says, once the last one is judged).
    pub fn trained(&self, stop: Stop) -> Trained {
        let done = self.shown + 1 == self.puzzles.len() && self.judged();
        Trained {
            right: self.right,
            wrong: self.wrong,
            puzzles: self.puzzles.len(),
            retired: self.retired,
            stop: if done && stop == Stop::Quit {
                Stop::Done
            } else {
                stop
            },
        }
    }

    /// What the answer `cell` to the puzzle shown was judged, and what keeping it made
    /// of the puzzle (`fate`: none for an answer not judged). A right answer waits for
    /// Enter before the next puzzle; a wrong one lets the player try again, or ask for
    /// the answer; an answer not judged lets the player answer again.
    pub fn answered(&mut self, cell: Position, answered: Answered, fate: Option<Fate>) {
        match answered {
            Answered::Right => self.right += 1,
            Answered::Wrong { .. } => self.wrong += 1,
            Answered::Unproven => {}
        }
        if fate == Some(Fate::Retires) {
            self.retired += 1;
        }
        self.answer = Some((cell, answered));
        self.fate = fate;
        self.revealed = false;
    }

    /// Whether the puzzle shown is done with: answered right, or its answer shown.
    fn settled(&self) -> bool {
        match self.answer {
            Some((_, Answered::Right)) => true,
            Some((_, Answered::Wrong { .. })) => self.revealed,
            _ => false,
        }
    }

    /// Whether the last answer was wrong, and the player may try again.
    fn trying_again(&self) -> bool {
        matches!(self.answer, Some((_, Answered::Wrong { .. }))) && !self.revealed
    }

    fn judged(&self) -> bool {
        matches!(
            self.answer,
            Some((_, Answered::Right | Answered::Wrong { .. }))
        )
    }

    pub fn on_key(&mut self, key: KeyEvent) -> TrainFlow {
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            return TrainFlow::Interrupt;
        }
        if matches!(key.code, KeyCode::Char('q') | KeyCode::Esc) {
            return TrainFlow::Leave;
        }
        if self.settled() {
            return match key.code {
                KeyCode::Enter | KeyCode::Char('n') | KeyCode::Char(' ') => self.next(),
                _ => TrainFlow::Continue,
            };
        }
        if self.trying_again() && key.code == KeyCode::Char('s') {
            self.revealed = true;
            return TrainFlow::Continue;
        }
        let board = self.puzzle().puzzle.board;
        match key.code {
            KeyCode::Left | KeyCode::Char('h') => self.step(0, -1),
            KeyCode::Right | KeyCode::Char('l') => self.step(0, 1),
            KeyCode::Up | KeyCode::Char('k') => self.step(-1, 0),
            KeyCode::Down | KeyCode::Char('j') => self.step(1, 0),
            KeyCode::Char(digit) if digit.is_ascii_digit() => {
                self.typed.push(digit);
                if let Ok(cell) = board.parse_position(&self.typed) {
                    self.cursor = cell;
                }
                // A number that cannot grow into another cell's is complete.
                if self.typed.len() >= board.cell_count().to_string().len() {
                    self.typed.clear();
                }
            }
            KeyCode::Enter | KeyCode::Char(' ') => {
                self.typed.clear();
                return self.answer_at(self.cursor);
            }
            _ => {}
        }
        TrainFlow::Continue
    }

    fn answer_at(&mut self, cell: Position) -> TrainFlow {
        if self.puzzle().puzzle.position.mark_at(cell).is_some() {
            return TrainFlow::Continue; // a taken cell is no answer
        }
        TrainFlow::Answer(cell)
    }

    fn next(&mut self) -> TrainFlow {
        if self.shown + 1 == self.puzzles.len() {
            return TrainFlow::Leave;
        }
        self.shown += 1;
        self.answer = None;
        self.fate = None;
        self.revealed = false;
        self.cursor = self.puzzle().puzzle.board.centre();
        TrainFlow::Continue
    }

    fn step(&mut self, rows: isize, columns: isize) {
        let board = self.puzzle().puzzle.board;
        let row = board.row_of(self.cursor) as isize + rows;
        let column = board.col_of(self.cursor) as isize + columns;
        if let (Ok(row), Ok(column)) = (usize::try_from(row), usize::try_from(column))
            && let Some(cell) = board.at(row, column)
        {
            self.cursor = cell;
        }
    }

    pub fn draw(&self, frame: &mut Frame) {
        let Titled { title, puzzle } = self.puzzle();
        let size = puzzle.board.size() as u16;
        let board_width = size * CELL_WIDTH + (size - 1);
        let [title_area, _, asked_area, _, body, _, said, keys] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Length(size * 2 - 1),
            Constraint::Length(1),
            Constraint::Min(3),
            Constraint::Length(1),
        ])
        .areas(frame.area());
        let left = body.width.saturating_sub(board_width) / 2;
        let [_, board, _] = Layout::horizontal([
            Constraint::Length(left),
            Constraint::Length(board_width),
            Constraint::Min(0),
        ])
        .areas(body);
        frame.render_widget(
            Paragraph::new(title.as_str()).style(self.palette.bold()),
            title_area,
        );
        frame.render_widget(
            Paragraph::new(puzzle_prompt(puzzle.to_move, puzzle.value)),
            asked_area,
        );
        frame.render_widget(Paragraph::new(self.board_lines()), board);
        frame.render_widget(
            Paragraph::new(self.saying()).wrap(Wrap { trim: true }),
            said,
        );
        let keys_line = if self.settled() {
            "Enter next puzzle · q stop"
        } else if self.trying_again() {
            "arrows or a number move · Enter try again · s show the answer · q stop"
        } else {
            "arrows or a number move · Enter answer · q stop"
        };
        frame.render_widget(Paragraph::new(keys_line).style(self.palette.dim()), keys);
    }

    /// The cells: the marks, the cursor reversed, and after a wrong answer the best
    /// moves lit (shown as `[n]` without colour).
    fn board_lines(&self) -> Vec<Line<'static>> {
        let puzzle = &self.puzzle().puzzle;
        let lit: &[Position] = match &self.answer {
            Some((_, Answered::Wrong { reviewed, .. })) if self.revealed => &reviewed.best_moves,
            _ => &[],
        };
        let colour = self.palette.colour;
        grid(puzzle.board, self.palette, |cell| {
            let mark = puzzle.position.mark_at(cell);
            let lit = lit.contains(&cell);
            let text = match (mark, lit && !colour) {
                (Some(mark), _) => mark.to_string(),
                (None, true) => format!("[{}]", cell.number()),
                (None, false) => cell.number().to_string(),
            };
            let mut style = self.palette.mark(mark);
            if lit && colour {
                style = style.bg(Color::Green).fg(Color::Black);
            }
            if cell == self.cursor && !self.settled() {
                style = style.add_modifier(Modifier::REVERSED);
            }
            (text, style)
        })
    }

    /// Under the board: what the answer was, or the tally so far.
    fn saying(&self) -> Vec<Line<'static>> {
        let puzzle = &self.puzzle().puzzle;
        let Some((cell, answered)) = &self.answer else {
            return vec![Line::styled(
                format!(
                    "{} right, {} wrong so far; every answer is kept.",
                    self.right, self.wrong
                ),
                self.palette.dim(),
            )];
        };
        let colour = match answered {
            Answered::Right => Color::LightGreen,
            _ => Color::LightRed,
        };
        let mut said = Vec::new();
        if let Some(heading) = answer_heading(answered) {
            said.push(Span::styled(
                format!("{heading} "),
                self.palette.paint(colour).add_modifier(Modifier::BOLD),
            ));
        }
        said.push(Span::raw(answer_words(*cell, puzzle.value, answered)));
        let mut lines = vec![Line::from(said)];
        match answered {
            Answered::Wrong { reviewed, .. } if self.revealed => {
                lines.push(Line::raw(in_the_game(reviewed)));
                lines.push(Line::raw(lit_best_moves(&reviewed.best_moves)));
            }
            Answered::Wrong { .. } => lines.push(Line::raw(TRY_AGAIN)),
            _ => {
                if let Some(fate) = self.fate {
                    lines.push(Line::raw(fate_words(fate)));
                }
            }
        }
        lines
    }
}
