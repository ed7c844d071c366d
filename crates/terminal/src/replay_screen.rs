//! A kept game played back on the full screen: the board after the move shown, that
//! move lit up, and (with a review) what perfect play says of it beside the list of
//! moves. ← and → step, Home and End go to either end, q or Esc leaves.
//!
//! Plain state and drawing, like the game screen: tested on ratatui's `TestBackend`.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::grid::{CELL_WIDTH, Palette, grid};
use tictactoe_console::words::{move_label, replay_ending, review_words, value_words};
use tictactoe_core::domain::{GameState, GameStatus, Position};
use tictactoe_core::play::{Judgement, Replay, Review};

/// What the runner should do after a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplayFlow {
    Continue,
    /// q or Esc: back to where the replay was opened from.
    Leave,
    /// Ctrl-C.
    Interrupt,
}

/// The replay's own state: which move is shown.
pub struct ReplayScreen<'a> {
    replay: &'a Replay,
    review: Option<&'a Review>,
    title: String,
    /// How many moves are on the board shown: 0 (the empty board) to every move.
    shown: usize,
    palette: Palette,
}

impl<'a> ReplayScreen<'a> {
    /// Opens on the last move, the position the game ended in.
    pub fn new(
        title: String,
        replay: &'a Replay,
        review: Option<&'a Review>,
        colour: bool,
    ) -> Self {
        ReplayScreen {
            replay,
            review,
            title,
            shown: replay.moves().len(),
            palette: Palette { colour },
        }
    }

    /// How many moves are on the board shown.
    pub fn shown(&self) -> usize {
        self.shown
    }

    pub fn on_key(&mut self, key: KeyEvent) -> ReplayFlow {
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            return ReplayFlow::Interrupt;
        }
        let last = self.replay.moves().len();
        match key.code {
            KeyCode::Left | KeyCode::Char('h') => self.shown = self.shown.saturating_sub(1),
            KeyCode::Right | KeyCode::Char('l') => self.shown = (self.shown + 1).min(last),
            KeyCode::Home => self.shown = 0,
            KeyCode::End => self.shown = last,
            KeyCode::Char('q') | KeyCode::Esc => return ReplayFlow::Leave,
            _ => {}
        }
        ReplayFlow::Continue
    }

    pub fn draw(&self, frame: &mut Frame) {
        let area = frame.area();
        let geometry = self.replay.settings().geometry();
        let size = geometry.size() as u16;
        let board_width = size * CELL_WIDTH + (size - 1);
        let board_height = size * 2 - 1;
        let [title, _, body, _, said, keys] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Length(board_height.max(3)),
            Constraint::Length(1),
            Constraint::Min(2),
            Constraint::Length(1),
        ])
        .areas(area);
        // The board where the game screen has it, centred across, so that `v` after a
        // game does not move it; the list of moves to its right.
        let left = body.width.saturating_sub(board_width) / 2;
        let [_, board, _, moves] = Layout::horizontal([
            Constraint::Length(left),
            Constraint::Length(board_width),
            Constraint::Length(3),
            Constraint::Min(0),
        ])
        .areas(body);
        frame.render_widget(
            Paragraph::new(self.title.as_str()).style(self.bold()),
            title,
        );
        frame.render_widget(Paragraph::new(self.board_lines()), board);
        frame.render_widget(Paragraph::new(self.move_list(moves)), moves);
        frame.render_widget(
            Paragraph::new(self.saying()).wrap(Wrap { trim: true }),
            said,
        );
        frame.render_widget(
            Paragraph::new("← → step · Home End either end · q leave").style(self.dim()),
            keys,
        );
    }

    /// What is said under the board: the move shown and its review, or the start, and
    /// how the game ended once at its last move.
    fn saying(&self) -> Vec<Line<'static>> {
        let mut lines = Vec::new();
        match self.shown.checked_sub(1).map(|i| &self.replay.moves()[i]) {
            None => lines.push(Line::from(format!(
                "Before the first move: {} to play.",
                self.replay.settings().first()
            ))),
            Some(played) => {
                let label = move_label(played.ply, played.mark, played.cell);
                let reviewed = self
                    .review
                    .and_then(|review| review.moves.get(played.ply as usize - 1));
                lines.push(match reviewed {
                    Some(reviewed) => {
                        let style = match reviewed.judgement() {
                            Judgement::ThrewAway { .. } => self.paint(Color::LightRed),
                            _ => Style::default(),
                        };
                        Line::from(vec![
                            Span::styled(format!("{label}: "), self.bold()),
                            Span::styled(review_words(reviewed), style),
                        ])
                    }
                    None => Line::styled(label, self.bold()),
                });
                if let Some(reviewed) = reviewed {
                    lines.push(Line::styled(
                        format!(
                            "{} had {} before this move, and {} after it.",
                            reviewed.mark,
                            value_words(reviewed.before),
                            value_words(reviewed.after)
                        ),
                        self.dim(),
                    ));
                }
            }
        }
        if self.shown == self.replay.moves().len() {
            lines.push(Line::styled(self.ending(), self.bold()));
        }
        lines
    }

    fn ending(&self) -> String {
        replay_ending(self.replay)
    }

    /// The moves, the one shown marked, each with a word from the review; as many as fit
    /// around the one shown.
    fn move_list(&self, area: Rect) -> Vec<Line<'static>> {
        let rows = usize::from(area.height).max(1);
        // "  ✗ slipped" where there is room for it, "  ✗" where there is not.
        let roomy = area.width >= 24;
        let moves = self.replay.moves();
        let first = self
            .shown
            .saturating_sub(rows / 2 + 1)
            .min(moves.len().saturating_sub(rows));
        moves
            .iter()
            .skip(first)
            .take(rows)
            .map(|played| {
                let current = played.ply as usize == self.shown;
                let verdict = self
                    .review
                    .and_then(|review| review.moves.get(played.ply as usize - 1))
                    .map(|reviewed| match (reviewed.judgement(), roomy) {
                        (Judgement::Kept(_), _) => "",
                        (Judgement::ThrewAway { .. }, true) => "  ✗ slipped",
                        (Judgement::ThrewAway { .. }, false) => "  ✗",
                        (Judgement::Unsettled, true) => "  ? not proven",
                        (Judgement::Unsettled, false) => "  ?",
                    })
                    .unwrap_or("");
                let text = format!(
                    "{} {:>2}. {} {}{verdict}",
                    if current { "▶" } else { " " },
                    played.ply,
                    played.mark,
                    played.cell
                );
                let style = if current {
                    self.bold().add_modifier(Modifier::REVERSED)
                } else {
                    Style::default()
                };
                Line::styled(text, style)
            })
            .collect()
    }

    fn board_lines(&self) -> Vec<Line<'static>> {
        let game = self.replay.after(self.shown);
        let board = game.board();
        let played: Option<Position> = self
            .shown
            .checked_sub(1)
            .map(|i| self.replay.moves()[i].cell);
        let winning: Vec<Position> = match game.status() {
            GameStatus::Won(win) => win.line.cells().to_vec(),
            _ => Vec::new(),
        };
        grid(self.replay.settings().geometry(), self.palette, |cell| {
            let mark = board.mark_at(cell);
            let just_played = Some(cell) == played;
            let text = match (mark, just_played, self.palette.colour) {
                (Some(mark), true, false) => format!("[{mark}]"),
                (Some(mark), _, _) => mark.to_string(),
                (None, _, _) => cell.number().to_string(),
            };
            let mut style = self.palette.mark(mark);
            if winning.contains(&cell) && self.palette.colour {
                style = style.bg(Color::Green).fg(Color::Black);
            }
            if just_played {
                style = style.add_modifier(Modifier::REVERSED);
            }
            (text, style)
        })
    }

    fn paint(&self, colour: Color) -> Style {
        self.palette.paint(colour)
    }

    fn bold(&self) -> Style {
        self.palette.bold()
    }

    fn dim(&self) -> Style {
        self.palette.dim()
    }
}

#[cfg(test)]
mod tests {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::crossterm::event::KeyEventKind;
    use tictactoe_core::domain::{Geometry, Known, Mark, Verdict};
    use tictactoe_core::fixtures::{person, settings};
    use tictactoe_core::play::MoveReview;
    use tictactoe_core::players::{Level, PlayerSpec};
    use tictactoe_core::ports::Ending;

    use super::*;

    fn cell(number: usize) -> Position {
        Geometry::classic().position(number - 1).unwrap()
    }

    /// Ada (X) against Impossible: X 1, O 5, X 9, O 3 (O won later; the moves are all
    /// a replay needs).
    fn replay() -> Replay {
        let settings = settings(person("Ada"), PlayerSpec::Computer(Level::Impossible));
        Replay::played(
            &settings,
            &[cell(1), cell(5), cell(9), cell(3)],
            Some(Ending::Resigned(Mark::X)),
        )
        .unwrap()
    }

    /// `replay`'s screen, titled "Game", with no review and no colour.
    fn unreviewed(replay: &Replay) -> ReplayScreen<'_> {
        ReplayScreen::new("Game".into(), replay, None, false)
    }

    /// Asserts that `screen`, drawn, shows each of `texts`.
    fn shows(screen: &ReplayScreen, texts: &[&str]) {
        let drawn = screen_text(screen);
        for text in texts {
            assert!(drawn.contains(text), "{text:?} not in:\n{drawn}");
        }
    }

    fn press(code: KeyCode) -> KeyEvent {
        KeyEvent {
            kind: KeyEventKind::Press,
            ..KeyEvent::new(code, KeyModifiers::NONE)
        }
    }

    fn screen_text(screen: &ReplayScreen) -> String {
        let mut terminal = Terminal::new(TestBackend::new(90, 14)).unwrap();
        terminal.draw(|frame| screen.draw(frame)).unwrap();
        let buffer = terminal.backend().buffer().clone();
        (0..buffer.area.height)
            .map(|y| {
                (0..buffer.area.width)
                    .map(|x| buffer[(x, y)].symbol().to_string())
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn a_replay_opens_on_the_position_the_game_ended_in() {
        let replay = replay();

        let screen = ReplayScreen::new("Game 0190".into(), &replay, None, false);

        assert_eq!(screen.shown(), 4);
        shows(&screen, &["Move 4, O at 3", "Ada (X) resigned."]);
    }

    #[test]
    fn the_arrows_step_and_home_and_end_go_to_either_end_without_going_past_them() {
        let replay = replay();
        let mut screen = unreviewed(&replay);
        let mut shown = Vec::new();

        for key in [
            KeyCode::Left,
            KeyCode::Home,
            KeyCode::Left,
            KeyCode::Right,
            KeyCode::End,
            KeyCode::Right,
        ] {
            assert_eq!(screen.on_key(press(key)), ReplayFlow::Continue);
            shown.push(screen.shown());
        }

        assert_eq!(shown, [3, 0, 0, 1, 4, 4]);
    }

    #[test]
    fn the_move_shown_is_lit_up_on_the_board() {
        let replay = replay();
        let mut screen = unreviewed(&replay);

        screen.on_key(press(KeyCode::Home));
        screen.on_key(press(KeyCode::Right));

        shows(&screen, &["[X]", "Move 1, X at 1"]);
    }

    #[test]
    fn a_reviewed_move_that_threw_the_draw_away_says_which_moves_kept_it() {
        // Arrange: X's 9 (move 3) threw the draw away; 2, 4, 6 or 8 kept it.
        let replay = replay();
        let mut moves: Vec<MoveReview> = replay
            .moves()
            .iter()
            .map(|played| MoveReview {
                ply: played.ply,
                mark: played.mark,
                cell: played.cell,
                before: Known::Exactly(Verdict::Draw),
                after: Known::Exactly(Verdict::Draw),
                best_moves: vec![],
            })
            .collect();
        moves[2].after = Known::Exactly(Verdict::Loss);
        moves[2].best_moves = vec![cell(2), cell(4), cell(6), cell(8)];
        let review = Review { moves };
        let mut screen = ReplayScreen::new("Game".into(), &replay, Some(&review), false);

        // Act
        screen.on_key(press(KeyCode::Left));

        // Assert
        let text = screen_text(&screen);
        assert!(
            text.contains(
                "Move 3, X at 9: threw away the draw (a loss left); 2, 4, 6 or 8 kept it"
            ),
            "{text}"
        );
        assert!(text.contains("3. X 9  ✗ slipped"), "{text}");
    }

    #[test]
    fn q_leaves_the_replay() {
        let replay = replay();
        let mut screen = unreviewed(&replay);

        assert_eq!(screen.on_key(press(KeyCode::Char('q'))), ReplayFlow::Leave);
    }
}
