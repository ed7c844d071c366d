//! One game on the full screen: the board with a cursor, and what the keys ask for.
//!
//! The screen holds only what is about *showing* the game (the cursor, the cells a hint
//! lit up, the last message, an open overlay); the game itself is the [`Match`]. A key
//! becomes a request for the seat whose turn it is, and the answer becomes what is
//! drawn. Nothing here waits: the runner decides when the computer thinks.

use std::time::Duration;

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::grid::{CELL_WIDTH, Palette, grid};
use tictactoe_console::TimeLeft;
use tictactoe_console::words::{aborted, out_of_time, refused, seat, time_left_words};
use tictactoe_core::domain::{
    Analysis, GameState, GameStatus, Geometry, Mark, Position, Refusal, Scoreboard, Verdict,
};
use tictactoe_core::play::{End, Event, Help, Match, Recorder, Recording, Seat};
use tictactoe_core::words::{MADE_CASUAL, help_makes_casual};

/// The narrowest screen the game is drawn on, whatever the board: the records box and
/// the messages need about this much.
const MIN_WIDTH: u16 = 40;

/// What the runner should do after a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Keep going: draw, then wait for the next key (or let the computer think).
    Continue,
    /// The person left the game, for the menu (after confirming, during a game).
    Leave,
    /// The person chose to quit the program.
    Quit,
    /// Ctrl-C: leave at once.
    Interrupt,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Overlay {
    None,
    Help,
    ConfirmLeave,
}

/// The game screen's own state.
pub struct GameScreen {
    cursor: Position,
    geometry: Geometry,
    /// Cells the last hint recommends, until the next move.
    hinted: Vec<Position>,
    /// What the last hint said, or the last refusal, or the last event.
    message: String,
    overlay: Overlay,
    colour: bool,
    /// After the game: the two players' records, if the result was saved.
    records: Option<Scoreboard>,
    /// The digits of a cell's number typed so far, on boards of more than nine cells.
    typed: String,
    /// Help that would make the rated game casual, said so by the last key: the same
    /// key again takes it.
    cautioned: Option<Help>,
    /// Each side's time, in a game on a clock, as the runner last read it.
    time: Option<TimeLeft>,
}

impl GameScreen {
    pub fn new(geometry: Geometry, colour: bool) -> Self {
        GameScreen {
            // The centre cell exists on every board.
            cursor: geometry.centre(),
            geometry,
            hinted: Vec::new(),
            message: String::new(),
            overlay: Overlay::None,
            colour,
            records: None,
            typed: String::new(),
            cautioned: None,
            time: None,
        }
    }

    /// Shows each side's time under the board (a game on a clock): the runner reads the
    /// clock and tells the screen, about every tenth of a second.
    pub fn show_time(&mut self, time: Option<TimeLeft>) {
        self.time = time;
    }

    pub fn cursor(&self) -> Position {
        self.cursor
    }

    /// Shows `text` on the message line until something else happens.
    pub fn note(&mut self, text: &str) {
        self.message = text.to_string();
    }

    /// Handles one key on a person's turn (or after the game).
    pub fn on_key<R: Recorder>(&mut self, game: &mut Match<R>, key: KeyEvent) -> Flow {
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            return Flow::Interrupt;
        }
        match self.overlay {
            Overlay::Help => {
                self.overlay = Overlay::None;
                return Flow::Continue;
            }
            Overlay::ConfirmLeave => {
                self.overlay = Overlay::None;
                let flow = match key.code {
                    KeyCode::Char('y' | 'Y') | KeyCode::Enter => Flow::Leave,
                    KeyCode::Char('q' | 'Q') => Flow::Quit,
                    _ => return Flow::Continue,
                };
                let mark = self.person_to_move(game).unwrap_or(Mark::X);
                if let Ok(events) = game.leave(mark) {
                    self.show_events(game, events);
                }
                return flow;
            }
            Overlay::None => {}
        }
        let typing = matches!(
            key.code,
            KeyCode::Char('0'..='9') | KeyCode::Enter | KeyCode::Backspace
        );
        if !self.typed.is_empty() && !typing {
            // Any other key ends the typing; Esc does only that.
            self.typed.clear();
            self.message.clear();
            if key.code == KeyCode::Esc {
                return Flow::Continue;
            }
        }
        let cautioned = self.cautioned.take();
        match key.code {
            KeyCode::F(1) | KeyCode::Char('H') => self.overlay = Overlay::Help,
            KeyCode::Char('q') | KeyCode::Esc => {
                if game.end().is_some() {
                    return Flow::Quit;
                }
                self.overlay = Overlay::ConfirmLeave;
            }
            KeyCode::Left | KeyCode::Char('h') => self.move_cursor(0, -1),
            KeyCode::Right | KeyCode::Char('l') => self.move_cursor(0, 1),
            KeyCode::Up | KeyCode::Char('k') => self.move_cursor(-1, 0),
            KeyCode::Down | KeyCode::Char('j') => self.move_cursor(1, 0),
            KeyCode::Enter if !self.typed.is_empty() => self.play_typed(game),
            KeyCode::Enter | KeyCode::Char(' ') => self.play(game, self.cursor),
            KeyCode::Char(digit @ '0'..='9') => self.type_digit(game, digit),
            KeyCode::Backspace if !self.typed.is_empty() => {
                self.typed.pop();
                self.message = self.typing_prompt();
            }
            KeyCode::Char('?') => self.hint(game, cautioned),
            KeyCode::Char('u') => self.undo(game, cautioned),
            _ => {}
        }
        Flow::Continue
    }

    /// A click at screen column `x`, row `y`, on a screen of `area`: plays the cell there.
    pub fn on_click<R: Recorder>(&mut self, game: &mut Match<R>, area: Rect, x: u16, y: u16) {
        let (width, height) = self.smallest_screen();
        if self.overlay != Overlay::None || area.width < width || area.height < height {
            return;
        }
        if let Some(cell) = self.cell_at(area, x, y) {
            self.cursor = cell;
            self.play(game, cell);
        }
    }

    /// Shows what the computer's move (or anyone's answer) did.
    pub fn show_events<R: Recorder>(&mut self, game: &Match<R>, events: Vec<Event>) {
        for event in events {
            self.hinted.clear();
            self.message = match event {
                Event::Moved { mark, position, .. } => {
                    format!("{} played {position}.", seat_of(game, mark))
                }
                Event::Undone { positions } => match positions.len() {
                    1 => "The last move was taken back.".to_string(),
                    n => format!("The last {n} moves were taken back."),
                },
                Event::UndoAsked { by } => {
                    format!("{} asks to take back a move.", game.seat(by).name())
                }
                Event::Finished {
                    game: finished,
                    recording,
                    ..
                } => {
                    // The status line says the result; this line only what became of it.
                    match recording {
                        Recording::Saved(scoreboard, changes) => {
                            self.records = Some(scoreboard.of_players_in(&finished));
                            rated(&changes)
                        }
                        Recording::Failed(error) => {
                            format!("The result was not saved: {error}.")
                        }
                        Recording::Queued | Recording::NotRecorded => String::new(),
                    }
                }
                Event::Abandoned { by } => {
                    format!("{} left. This game is not counted.", game.seat(by).name())
                }
                // The status line says who resigned; this line what became of it.
                Event::Resigned { recording, .. } => match recording {
                    // The store answers the two players' rows only.
                    Recording::Saved(records, changes) => {
                        self.records = Some(records);
                        rated(&changes)
                    }
                    Recording::Failed(error) => format!("The result was not saved: {error}."),
                    Recording::Queued | Recording::NotRecorded => String::new(),
                },
                // The status line says who ran out of time; this line what became of it.
                Event::TimedOut { recording, .. } => match recording {
                    Recording::Saved(records, changes) => {
                        self.records = Some(records);
                        rated(&changes)
                    }
                    Recording::Failed(error) => format!("The result was not saved: {error}."),
                    Recording::Queued | Recording::NotRecorded => String::new(),
                },
                // The status line says it all.
                Event::Aborted { .. } => String::new(),
                Event::MadeCasual => self.said_too(MADE_CASUAL),
                Event::NotKept(error) => {
                    let warning = format!("This game is not being saved: {error}.");
                    if self.message.is_empty() {
                        warning
                    } else {
                        format!("{} ({warning})", self.message)
                    }
                }
            };
        }
    }

    /// A digit of a cell's number. On 3 x 3 it plays at once; on larger boards the
    /// number is played as soon as no longer one could follow (on 4 x 4, "2" plays 2,
    /// "1" waits for a second digit or Enter), and the line says what was typed.
    fn type_digit<R: Recorder>(&mut self, game: &mut Match<R>, digit: char) {
        self.typed.push(digit);
        let cells = self.geometry.cell_count();
        let Ok(number) = self.typed.parse::<usize>() else {
            return self.no_such_cell();
        };
        if number == 0 || number > cells {
            return self.no_such_cell();
        }
        if let Some(cell) = self.geometry.position(number - 1) {
            self.cursor = cell;
        }
        if number * 10 > cells {
            self.play_typed(game);
        } else {
            self.message = self.typing_prompt();
        }
    }

    /// "Cell 1…": what was typed, and how to go on.
    fn typing_prompt(&self) -> String {
        if self.typed.is_empty() {
            return String::new();
        }
        format!(
            "Cell {}… type another digit, or Enter to play {}.",
            self.typed, self.typed
        )
    }

    fn no_such_cell(&mut self) {
        self.message = format!(
            "There is no cell {}: the cells are 1 to {}.",
            self.typed,
            self.geometry.cell_count()
        );
        self.typed.clear();
    }

    fn play_typed<R: Recorder>(&mut self, game: &mut Match<R>) {
        let cell = (self.typed.parse::<usize>().ok())
            .and_then(|number| number.checked_sub(1))
            .and_then(|index| self.geometry.position(index));
        match cell {
            Some(cell) => {
                self.typed.clear();
                self.cursor = cell;
                self.play(game, cell);
            }
            None => self.no_such_cell(),
        }
    }

    fn person_to_move<R: Recorder>(&self, game: &Match<R>) -> Option<Mark> {
        let mark = game.game().to_move();
        matches!(game.seat(mark), Seat::Human(_)).then_some(mark)
    }

    /// The person whose turn it is; after the game, or on a computer's turn, nobody.
    fn requester<R: Recorder>(&mut self, game: &Match<R>) -> Option<Mark> {
        if game.end().is_some() {
            self.message = "The game is over: r plays again, v reviews it, q leaves.".to_string();
            return None;
        }
        self.person_to_move(game)
    }

    fn play<R: Recorder>(&mut self, game: &mut Match<R>, cell: Position) {
        let Some(mark) = self.requester(game) else {
            return;
        };
        let answer = game.play(mark, cell);
        self.show_answer(game, answer);
    }

    /// The message as it stands, and `more` after it.
    fn said_too(&self, more: &str) -> String {
        if self.message.is_empty() {
            more.to_string()
        } else {
            format!("{} {more}", self.message)
        }
    }

    /// Whether `help` for the person at `mark` may be given now: help that would make
    /// the rated game casual is said so first (`cautioned`: what the key before said),
    /// and given when its key is pressed again.
    fn may_help<R: Recorder>(
        &mut self,
        game: &Match<R>,
        mark: Mark,
        help: Help,
        cautioned: Option<Help>,
    ) -> bool {
        if !game.makes_casual(mark, help) || cautioned == Some(help) {
            return true;
        }
        let key = match help {
            Help::Hint => '?',
            Help::Undo => 'u',
        };
        self.message = format!("{} Press {key} again to go ahead.", help_makes_casual(help));
        self.cautioned = Some(help);
        false
    }

    fn undo<R: Recorder>(&mut self, game: &mut Match<R>, cautioned: Option<Help>) {
        let Some(mark) = self.requester(game) else {
            return;
        };
        if !self.may_help(game, mark, Help::Undo, cautioned) {
            return;
        }
        let answer = game.undo(mark);
        self.show_answer(game, answer);
    }

    fn hint<R: Recorder>(&mut self, game: &mut Match<R>, cautioned: Option<Help>) {
        let Some(mark) = self.requester(game) else {
            return;
        };
        if !self.may_help(game, mark, Help::Hint, cautioned) {
            return;
        }
        match game.hint(mark) {
            Ok(hinted) => {
                let free = game.game().board().empty_cells().len();
                let everywhere = every_free_cell_draws(&hinted.analysis, free);
                self.message = hint_line(mark, &hinted.analysis, free);
                // Every cell lit says little: the words say it, and the move Impossible
                // would play is lit, if it has one (if not, any: every cell is lit).
                let best = if everywhere && !hinted.preferred.is_empty() {
                    self.message = format!(
                        "{} Impossible would play {} (lit).",
                        self.message,
                        cells_listed(&hinted.preferred)
                    );
                    hinted.preferred
                } else {
                    hinted.analysis.best_moves
                };
                self.show_events(game, hinted.events);
                self.hinted = best;
            }
            Err(refusal) => self.refuse(&refusal),
        }
    }

    /// The events of an answer, or why the request was refused.
    fn show_answer<R: Recorder>(&mut self, game: &Match<R>, answer: Result<Vec<Event>, Refusal>) {
        match answer {
            Ok(events) => self.show_events(game, events),
            Err(refusal) => self.refuse(&refusal),
        }
    }

    fn refuse(&mut self, refusal: &Refusal) {
        self.message = format!("{}.", capitalised(&refused(refusal)));
    }

    fn move_cursor(&mut self, rows: isize, columns: isize) {
        let last = self.geometry.size() as isize - 1;
        let row = self.geometry.row_of(self.cursor) as isize + rows;
        let column = self.geometry.col_of(self.cursor) as isize + columns;
        let (row, column) = (row.clamp(0, last), column.clamp(0, last));
        if let Some(cell) = self.geometry.at(row as usize, column as usize) {
            self.cursor = cell;
        }
    }

    /// Where the board is drawn on a screen of `area`: centred across.
    fn board_area(&self, area: Rect) -> Rect {
        let size = self.geometry.size() as u16;
        let width = size * CELL_WIDTH + (size - 1);
        let [_, rows, _, _, _] = self.layout(area);
        let left = rows.x + rows.width.saturating_sub(width) / 2;
        Rect::new(left, rows.y, width.min(rows.width), rows.height)
    }

    fn cell_at(&self, area: Rect, x: u16, y: u16) -> Option<Position> {
        let board = self.board_area(area);
        let (dx, dy) = (x.checked_sub(board.x)?, y.checked_sub(board.y)?);
        // Columns of cells are CELL_WIDTH wide with a one-column rule between them; rows
        // of cells alternate with rule lines.
        if dx % (CELL_WIDTH + 1) == CELL_WIDTH || dy % 2 == 1 {
            return None;
        }
        let (column, row) = ((dx / (CELL_WIDTH + 1)) as usize, (dy / 2) as usize);
        self.geometry.at(row, column)
    }

    /// Draws the whole screen. `thinking` is how long the computer has been thinking,
    /// while it does.
    pub fn draw<R: Recorder>(
        &self,
        frame: &mut Frame,
        game: &Match<R>,
        thinking: Option<Duration>,
    ) {
        let area = frame.area();
        let (width, height) = self.smallest_screen();
        if area.width < width || area.height < height {
            let text = format!(
                "Make the window at least {width} x {height} to play on this board (it is {} x {}).",
                area.width, area.height
            );
            frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
            return;
        }
        let [title, _, status, message, keys] = self.layout(area);
        if let Some(time) = &self.time {
            self.draw_time(frame, time);
        }
        let geometry = game.game().board().geometry();
        let names = format!("{} vs {}", seat_of(game, Mark::X), seat_of(game, Mark::O));
        let shape = format!(
            "{n} x {n}, {k} in a row",
            n = geometry.size(),
            k = geometry.win_length()
        );
        let heading = format!("{names} · {shape}");
        // Too long for one line (a narrow screen), the board's shape goes on the blank
        // line under the names; names too long for a line are cut between words.
        let heading = if Span::raw(heading.as_str()).width() <= usize::from(title.width) {
            vec![Line::from(heading)]
        } else {
            vec![Line::from(names), Line::from(shape)]
        };
        frame.render_widget(
            Paragraph::new(heading)
                .style(self.bold())
                .wrap(Wrap { trim: true }),
            title,
        );
        frame.render_widget(
            Paragraph::new(self.board_lines(game)),
            self.board_area(area),
        );
        frame.render_widget(
            Paragraph::new(self.status_line(game, thinking)).style(self.bold()),
            status,
        );
        frame.render_widget(
            Paragraph::new(self.message.as_str()).wrap(Wrap { trim: true }),
            message,
        );
        let watching = Mark::ALL
            .iter()
            .all(|&mark| matches!(game.seat(mark), Seat::Computer(_)));
        let footer: &[(u8, &str)] = if game.end().is_some() {
            &AFTER_GAME_KEYS
        } else if watching {
            &WATCHING_KEYS
        } else {
            &GAME_KEYS
        };
        frame.render_widget(
            Paragraph::new(keys_line(footer, usize::from(keys.width))).style(self.dim()),
            keys,
        );
        if let Some(records) = &self.records {
            self.draw_records(frame, area, records);
        }
        match self.overlay {
            Overlay::Help => self.draw_box(frame, area, "Keys", HELP),
            Overlay::ConfirmLeave => self.draw_box(frame, area, "Leave?", LEAVE),
            Overlay::None => {}
        }
    }

    /// The smallest screen (columns, lines) the game is drawn on: the board, the lines
    /// around it (title, status, two of messages, keys), and room for the records box.
    pub fn smallest_screen(&self) -> (u16, u16) {
        let size = self.geometry.size() as u16;
        let board_width = size * CELL_WIDTH + (size - 1);
        let board_height = size * 2 - 1;
        (board_width.max(MIN_WIDTH), board_height + 7)
    }

    /// Draws each side's time on the line under the board, and nothing else: what the
    /// runner redraws while the computer thinks.
    pub fn draw_time(&self, frame: &mut Frame, time: &TimeLeft) {
        let (width, height) = self.smallest_screen();
        if frame.area().width < width || frame.area().height < height {
            return;
        }
        let area = self.time_area(frame.area());
        frame.render_widget(Clear, area);
        frame.render_widget(
            Paragraph::new(time_left_words(time))
                .style(self.bold())
                .alignment(ratatui::layout::Alignment::Center),
            area,
        );
    }

    /// Where each side's time is shown: the line between the board and the status line,
    /// as wide as the screen.
    fn time_area(&self, area: Rect) -> Rect {
        let [_, board, status, _, _] = self.layout(area);
        Rect::new(status.x, board.y + board.height, status.width, 1)
    }

    /// Where the status line is on a screen of `area`.
    fn status_area(&self, area: Rect) -> Rect {
        let [_, _, status, _, _] = self.layout(area);
        status
    }

    /// Title (two lines: the second is blank unless the title is too long for one);
    /// the board; the status line and a message under it; the keys at the bottom.
    fn layout(&self, area: Rect) -> [Rect; 5] {
        let board_height = self.geometry.size() as u16 * 2 - 1;
        let [title, board, _, status, message, _, keys] = Layout::vertical([
            Constraint::Length(2),
            Constraint::Length(board_height),
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Length(2),
            Constraint::Min(0),
            Constraint::Length(1),
        ])
        .areas(area);
        [title, board, status, message, keys]
    }

    /// Redraws only the status line: `thinker` (as [`thinker`](Self::thinker) gave it
    /// when the computer began to think) and the time since.
    pub fn draw_clock(&self, frame: &mut Frame, thinker: &str, elapsed: Duration) {
        let (width, height) = self.smallest_screen();
        if frame.area().width < width || frame.area().height < height {
            return;
        }
        let area = self.status_area(frame.area());
        let text = format!("{thinker} {:.1} s", elapsed.as_secs_f64());
        frame.render_widget(Clear, area);
        frame.render_widget(Paragraph::new(text).style(self.bold()), area);
    }

    /// "Computer (Impossible, O) is thinking…", for the side to move.
    pub fn thinker<R: Recorder>(&self, game: &Match<R>) -> String {
        format!("{} is thinking…", seat_of(game, game.game().to_move()))
    }

    /// What the status line says: whose turn it is, who is thinking and for how long,
    /// or how the game ended.
    fn status_line<R: Recorder>(&self, game: &Match<R>, thinking: Option<Duration>) -> String {
        let state = game.game();
        let mark = state.to_move();
        match state.status() {
            GameStatus::Won(win) => format!("{} wins!", seat_of(game, win.mark)),
            GameStatus::Draw => "A draw.".to_string(),
            GameStatus::InProgress => match (game.end(), game.seat(mark), thinking) {
                (Some(End::Resigned { by }), _, _) => format!(
                    "{} resigned: {} wins.",
                    seat_of(game, *by),
                    seat_of(game, by.opponent())
                ),
                (Some(&End::TimedOut { side, drawn }), _, _) => {
                    out_of_time(&seat_of(game, side), &seat_of(game, side.opponent()), drawn)
                }
                (Some(&End::Aborted { by }), _, _) => aborted(&seat_of(game, by)),
                (Some(_), _, _) => "Game left.".to_string(),
                (None, Seat::Computer(_), Some(elapsed)) => {
                    format!("{} {:.1} s", self.thinker(game), elapsed.as_secs_f64())
                }
                (None, _, _) => format!("{} to move.", seat_of(game, mark)),
            },
        }
    }

    fn board_lines<R: Recorder>(&self, game: &Match<R>) -> Vec<Line<'static>> {
        let state = game.game();
        let board = state.board();
        let winning: Vec<Position> = match state.status() {
            GameStatus::Won(win) => win.line.cells().to_vec(),
            _ => Vec::new(),
        };
        let last = state.moves().last().copied();
        grid(self.geometry, self.palette(), |cell| {
            let mark = board.mark_at(cell);
            let lit = winning.contains(&cell);
            let text = match (mark, lit, self.colour) {
                (Some(mark), true, false) => format!("[{mark}]"),
                (Some(mark), _, _) => mark.to_string(),
                (None, _, _) if self.hinted.contains(&cell) && !self.colour => "*".to_string(),
                (None, _, _) => cell.number().to_string(),
            };
            let mut style = self.palette().mark(mark);
            if lit && self.colour {
                style = style.bg(Color::Green).fg(Color::Black);
            }
            if self.hinted.contains(&cell) && self.colour {
                style = style.bg(Color::Magenta).fg(Color::White);
            }
            if Some(cell) == last {
                style = style.add_modifier(Modifier::UNDERLINED);
            }
            if cell == self.cursor && game.end().is_none() {
                style = style.add_modifier(Modifier::REVERSED);
            }
            (text, style)
        })
    }

    fn draw_records(&self, frame: &mut Frame, area: Rect, records: &Scoreboard) {
        let text = records_text(records);
        let longest = text.lines().map(|line| Span::raw(line).width()).max();
        // The text, and the box's border and a space on either side.
        let width = (longest.unwrap_or(0) as u16 + 4).min(area.width);
        let height = (records.standings().len() as u16 + 3).min(area.height);
        let board = self.board_area(area);
        let top = (board.y + board.height + 5).min(area.height.saturating_sub(height + 1));
        let records_area = Rect::new(
            area.x + area.width.saturating_sub(width) / 2,
            top,
            width,
            height,
        );
        frame.render_widget(Clear, records_area);
        frame.render_widget(
            Paragraph::new(text).block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(" Records ")
                    .padding(ratatui::widgets::Padding::horizontal(1)),
            ),
            records_area,
        );
    }

    /// A box in the middle of the screen: `text` with a space inside each border, as
    /// wide as its longest line (cut between words when the screen is narrower).
    fn draw_box(&self, frame: &mut Frame, area: Rect, title: &str, text: &str) {
        // The borders and a space of padding on either side.
        let inside = usize::from(area.width.saturating_sub(4)).max(1);
        let lines: Vec<String> = text
            .lines()
            .flat_map(|line| wrapped(line, inside))
            .collect();
        let longest = lines
            .iter()
            .map(|line| Span::raw(line.as_str()).width())
            .max();
        let width = (longest.unwrap_or(0) as u16 + 4).min(area.width);
        let height = (lines.len() as u16 + 2).min(area.height);
        let boxed = Rect::new(
            area.x + area.width.saturating_sub(width) / 2,
            area.y + area.height.saturating_sub(height) / 2,
            width,
            height,
        );
        let text: Vec<Line> = lines.into_iter().map(Line::from).collect();
        frame.render_widget(Clear, boxed);
        frame.render_widget(
            Paragraph::new(text).block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(format!(" {title} "))
                    .padding(ratatui::widgets::Padding::horizontal(1)),
            ),
            boxed,
        );
    }

    fn palette(&self) -> Palette {
        Palette {
            colour: self.colour,
        }
    }

    fn dim(&self) -> Style {
        self.palette().dim()
    }

    fn bold(&self) -> Style {
        self.palette().bold()
    }
}

/// The keys, in lines short enough (36 columns) for the narrowest screen the game is
/// drawn on, inside its box.
const HELP: &str = "\
arrows, hjkl move the cursor
Enter, Space play the cell there
1 to 9       play that cell; on a
             larger board type its
             number (Enter ends it
             when a longer one could
             follow)
click        play the cell clicked
?            light up the best cells
u            undo (against the
             computer: your move and
             its reply)
q, Esc       leave (asks first)
F1, H        this help
Ctrl-C       quit at once
After a game: r plays again, s swaps
sides, v reviews it, m is the menu,
q quits.

Any key closes this help.";

/// What leaving a game in progress asks.
const LEAVE: &str = "\
Leave this game? It will not be counted.

y  leave it: back to the menu
q  leave it and quit Tic Tac Toe
any other key plays on";

/// The keys line of each moment, each key with how much it is needed: on a narrow
/// screen the least needed (the highest number) go first.
const GAME_KEYS: [(u8, &str); 6] = [
    (5, "arrows/hjkl move"),
    (4, "Enter play"),
    (2, "? hint"),
    (3, "u undo"),
    (0, "q leave"),
    (1, "F1 help"),
];
const AFTER_GAME_KEYS: [(u8, &str); 5] = [
    (1, "r play again"),
    (4, "s swap sides"),
    (3, "v review"),
    (2, "m menu"),
    (0, "q quit"),
];
const WATCHING_KEYS: [(u8, &str); 2] = [(0, "q leave"), (1, "Ctrl-C quit at once")];

/// As many of `keys` as fit in `width` columns, in their order, the least needed left
/// out first: never a key cut in two.
fn keys_line(keys: &[(u8, &str)], width: usize) -> String {
    let mut kept: Vec<(u8, &str)> = keys.to_vec();
    loop {
        let line = kept
            .iter()
            .map(|(_, key)| *key)
            .collect::<Vec<_>>()
            .join(" · ");
        if Span::raw(line.as_str()).width() <= width || kept.len() <= 1 {
            return line;
        }
        let least = kept
            .iter()
            .enumerate()
            .max_by_key(|(_, (need, _))| *need)
            .map_or(0, |(at, _)| at);
        kept.remove(least);
    }
}

/// `line` as it is if it fits in `width` columns, else cut between words into lines
/// that do.
fn wrapped(line: &str, width: usize) -> Vec<String> {
    if Span::raw(line).width() <= width {
        return vec![line.to_string()];
    }
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in line.split_whitespace() {
        if current.is_empty() {
            current.push_str(word);
        } else if Span::raw(current.as_str()).width() + 1 + Span::raw(word).width() <= width {
            current.push(' ');
            current.push_str(word);
        } else {
            lines.push(std::mem::replace(&mut current, word.to_string()));
        }
    }
    lines.push(current);
    lines
}

/// The two players' records after a game, in the console's words, in columns that
/// line up whatever the names' lengths (names of up to [`NAME_COLUMN`] wide whole).
pub(crate) fn records_text(records: &Scoreboard) -> String {
    let names: Vec<String> = records
        .standings()
        .iter()
        .map(|standing| tictactoe_console::words::clip(standing.name.as_str(), NAME_COLUMN))
        .collect();
    let name_width = names
        .iter()
        .map(|name| Span::raw(name.as_str()).width())
        .chain([Span::raw("Player").width()])
        .max()
        .unwrap_or(0);
    let row = |name: &str, [wins, losses, ties]: [String; 3]| {
        let pad = name_width - Span::raw(name).width();
        format!("{name}{:pad$}  {wins:>4}  {losses:>6}  {ties:>4}", "")
    };
    let mut lines = vec![row("Player", ["Wins", "Losses", "Ties"].map(String::from))];
    for (name, standing) in names.iter().zip(records.standings()) {
        let r = standing.record;
        lines.push(row(name, [r.wins, r.losses, r.ties].map(|n| n.to_string())));
    }
    lines.join("\n")
}

/// The widest name the records box shows whole: "Computer (Impossible)" and more.
const NAME_COLUMN: usize = 30;

/// The most cells a hint names one by one; past it, it counts them (they are lit up on
/// the board), so that the line fits: on 7 x 7 nearly every cell can be best.
const HINT_CELLS_NAMED: usize = 6;

/// "25", "1 or 3": cells as a hint names them.
fn cells_listed(cells: &[Position]) -> String {
    let named: Vec<String> = cells.iter().map(ToString::to_string).collect();
    match named.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Whether every one of the `free` cells is proven to keep the draw: a hint then says
/// so in words, and lights nothing (on 7 x 7 the whole board would be lit).
fn every_free_cell_draws(analysis: &Analysis, free: usize) -> bool {
    analysis.exact
        && analysis.verdict == Verdict::Draw
        && free > 1
        && analysis.best_moves.len() == free
}

/// One line for a hint: who stands how, counted in the player's own moves; `free`
/// cells are left on the board.
fn hint_line(mark: Mark, analysis: &Analysis, free: usize) -> String {
    if every_free_cell_draws(analysis, free) {
        return "A draw with best play: every free cell keeps it, so any move will do.".to_string();
    }
    let cells = if analysis.best_moves.len() <= HINT_CELLS_NAMED {
        let cells: Vec<String> = analysis
            .best_moves
            .iter()
            .map(ToString::to_string)
            .collect();
        cells.join(", ")
    } else {
        format!("any of the {} lit cells", analysis.best_moves.len())
    };
    match analysis.verdict {
        Verdict::Win if analysis.plies == 1 => format!("{mark} wins with {cells}."),
        Verdict::Win => format!(
            "{mark} can force a win in {} moves of its own: play {cells}.",
            analysis.plies.div_ceil(2)
        ),
        Verdict::Draw if analysis.exact => format!("A draw with best play: {cells} keep it."),
        Verdict::Draw if analysis.moves_proven => {
            format!("Proven not to lose: {cells}; a win was not ruled out in time.")
        }
        Verdict::Draw => format!("Not proven in time; the best found: {cells}."),
        Verdict::Loss => {
            format!("Every move loses against perfect play; {cells} hold out longest.")
        }
    }
}

/// "Ada (X)", "Computer (Impossible, O)": who plays `mark` in `game`.
fn seat_of<R: Recorder>(game: &Match<R>, mark: Mark) -> String {
    seat(game.seat(mark).name().as_str(), mark)
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// What a game did to the ratings of the people in it, as the line under the board says
/// it: "Rating: Ada 1,512 → 1,498 (−14)." (nothing for a game that rated nobody).
fn rated(changes: &[tictactoe_core::ports::RatingChange]) -> String {
    if changes.is_empty() {
        return String::new();
    }
    let said: Vec<String> = changes.iter().map(|change| change.said()).collect();
    format!("Rating: {}.", said.join(", "))
}

#[cfg(test)]
mod hint_line_tests {
    use super::*;
    use tictactoe_core::domain::Geometry;

    fn draw(exact: bool, moves_proven: bool) -> Analysis {
        let geometry = Geometry::new(7, 5).unwrap();
        Analysis {
            verdict: Verdict::Draw,
            plies: 46,
            best_moves: vec![geometry.position(17).unwrap()],
            exact,
            moves_proven,
        }
    }

    #[test]
    fn a_proven_draw_says_which_moves_keep_it() {
        let line = hint_line(Mark::X, &draw(true, true), 9);

        assert_eq!(line, "A draw with best play: 18 keep it.");
    }

    #[test]
    fn moves_proven_in_time_are_called_safe_and_no_more() {
        let line = hint_line(Mark::X, &draw(false, true), 9);

        assert_eq!(
            line,
            "Proven not to lose: 18; a win was not ruled out in time."
        );
    }

    #[test]
    fn a_draw_every_free_cell_keeps_is_said_in_words() {
        let geometry = Geometry::new(7, 5).unwrap();
        let everywhere = Analysis {
            best_moves: geometry.positions().collect(),
            ..draw(true, true)
        };

        let line = hint_line(Mark::X, &everywhere, 49);

        assert_eq!(
            line,
            "A draw with best play: every free cell keeps it, so any move will do."
        );
    }

    #[test]
    fn an_estimate_says_it_is_not_proven() {
        let line = hint_line(Mark::X, &draw(false, false), 9);

        assert_eq!(line, "Not proven in time; the best found: 18.");
    }
}
