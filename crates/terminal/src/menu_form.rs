//! The menu as a small form: one line per choice, the arrows to move and change, Enter
//! to start. It produces the same [`Settings`] the line-by-line menu does.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use tictactoe_console::menu::Mode;
use tictactoe_console::words::{how_it_plays, mode_label};
use tictactoe_core::domain::{Geometry, Mark, PlayerName};
use tictactoe_core::play::{Settings, SettingsError};
use tictactoe_core::players::{Level, PlayerSpec, default_name, unnamed};

/// One line of the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Mode,
    Side,
    Level(Mark),
    Name(Mark),
    Size,
    Run,
    First,
    Start,
}

/// What a key did to the form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormOutcome {
    Continue,
    Start(Settings),
    Quit,
}

/// The form's answers so far, and which line has the focus.
pub struct MenuForm {
    mode: Mode,
    side: Mark,
    levels: [Level; 2],
    names: [String; 2],
    size: usize,
    win: usize,
    first: Mark,
    focus: usize,
    problem: Option<String>,
}

impl Default for MenuForm {
    fn default() -> Self {
        MenuForm {
            mode: Mode::HumanVsComputer,
            side: Mark::X,
            levels: [Level::Impossible; 2],
            names: [String::new(), String::new()],
            size: 3,
            win: 3,
            first: Mark::X,
            focus: 0,
            problem: None,
        }
    }
}

impl MenuForm {
    /// A form filled in as `settings` were, for going back to the menu after a game.
    pub fn from_settings(settings: &Settings) -> Self {
        let mut form = MenuForm {
            size: settings.geometry().size(),
            win: settings.geometry().win_length(),
            first: settings.first(),
            ..MenuForm::default()
        };
        let humans = Mark::ALL.map(|mark| settings.player(mark).is_human());
        form.mode = match humans {
            [true, true] => Mode::HumanVsHuman,
            [false, false] => Mode::ComputerVsComputer,
            [x_human, _] => {
                form.side = if x_human { Mark::X } else { Mark::O };
                Mode::HumanVsComputer
            }
        };
        for mark in Mark::ALL {
            match settings.player(mark) {
                // A name given for want of one is shown as the default it is, not as
                // one typed.
                PlayerSpec::Human(Some(name))
                    if Mark::ALL
                        .iter()
                        .all(|&any| *name != unnamed(any) && *name != default_name(any)) =>
                {
                    form.names[mark.index()] = name.to_string()
                }
                PlayerSpec::Human(Some(_)) => {}
                PlayerSpec::Human(None) => {}
                PlayerSpec::Computer(level) => form.levels[mark.index()] = *level,
            }
        }
        form
    }

    /// The lines shown for the answers so far: no side unless against the computer, a
    /// level for each computer and a name for each person, no run length on 3 x 3.
    /// Against the computer, the person's name comes first whichever side they play,
    /// so that changing sides moves no line.
    fn fields(&self) -> Vec<Field> {
        let mut fields = vec![Field::Mode];
        match self.mode {
            Mode::HumanVsHuman => fields.extend(Mark::ALL.map(Field::Name)),
            Mode::ComputerVsComputer => fields.extend(Mark::ALL.map(Field::Level)),
            Mode::HumanVsComputer => fields.extend([
                Field::Side,
                Field::Name(self.side),
                Field::Level(self.side.opponent()),
            ]),
        }
        fields.push(Field::Size);
        if self.size > 3 {
            fields.push(Field::Run);
        }
        fields.extend([Field::First, Field::Start]);
        fields
    }

    fn focused(&self) -> Field {
        let fields = self.fields();
        fields[self.focus.min(fields.len() - 1)]
    }

    pub fn on_key(&mut self, key: KeyEvent) -> FormOutcome {
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            return FormOutcome::Quit;
        }
        let field = self.focused();
        let count = self.fields().len();
        match key.code {
            KeyCode::Esc => return FormOutcome::Quit,
            KeyCode::Up | KeyCode::BackTab => {
                self.focus = self.focus.min(count - 1).saturating_sub(1)
            }
            KeyCode::Down | KeyCode::Tab => self.focus = (self.focus + 1).min(count - 1),
            KeyCode::Left => self.change(field, -1),
            KeyCode::Right => self.change(field, 1),
            // Every line has an answer already, so Enter starts from wherever it is pressed.
            KeyCode::Enter => return self.settings(),
            KeyCode::Backspace => {
                if let Field::Name(mark) = field {
                    self.names[mark.index()].pop();
                }
            }
            KeyCode::Char(c) => match field {
                Field::Name(mark) => self.names[mark.index()].push(c),
                _ if c == 'q' => return FormOutcome::Quit,
                _ if c == ' ' => self.change(field, 1),
                _ => {}
            },
            _ => {}
        }
        FormOutcome::Continue
    }

    fn change(&mut self, field: Field, step: isize) {
        fn turn<T: Copy + PartialEq>(all: &[T], now: T, step: isize) -> T {
            let at = all.iter().position(|&x| x == now).unwrap_or(0) as isize;
            all[(at + step).rem_euclid(all.len() as isize) as usize]
        }
        match field {
            Field::Mode => self.mode = turn(&Mode::ALL, self.mode, step),
            Field::Side => {
                // The person and the computer change marks, each with what was chosen
                // for them: the name typed, the level picked.
                self.side = self.side.opponent();
                self.names.swap(0, 1);
                self.levels.swap(0, 1);
            }
            Field::Level(mark) => {
                self.levels[mark.index()] = turn(&Level::ALL, self.levels[mark.index()], step)
            }
            Field::Size => {
                let sizes: Vec<usize> = Geometry::SIZES.collect();
                self.size = turn(&sizes, self.size, step);
                self.win = self.size;
            }
            Field::Run => {
                let runs: Vec<usize> = (3..=self.size).collect();
                self.win = turn(&runs, self.win, step);
            }
            Field::First => self.first = self.first.opponent(),
            Field::Name(_) | Field::Start => {}
        }
    }

    /// The settings the form describes, or the reason it cannot start yet.
    fn settings(&mut self) -> FormOutcome {
        let fields = self.fields();
        let mut specs = Vec::new();
        for mark in Mark::ALL {
            let spec = if fields.contains(&Field::Name(mark)) {
                let typed = self.names[mark.index()].trim();
                if typed.is_empty() {
                    PlayerSpec::Human(Some(unnamed(mark)))
                } else {
                    match PlayerName::new(typed) {
                        Ok(name) => PlayerSpec::Human(Some(name)),
                        Err(error) => {
                            self.problem = Some(format!("The name for {mark}: {error}."));
                            return FormOutcome::Continue;
                        }
                    }
                }
            } else {
                PlayerSpec::Computer(self.levels[mark.index()])
            };
            specs.push(spec);
        }
        let [x, o]: [PlayerSpec; 2] = match specs.try_into() {
            Ok(pair) => pair,
            Err(_) => return FormOutcome::Continue,
        };
        let Ok(geometry) = Geometry::new(self.size, self.win) else {
            return FormOutcome::Continue;
        };
        match Settings::new(x, o, self.first, geometry) {
            Ok(settings) => FormOutcome::Start(settings),
            Err(SettingsError::SameName(name)) => {
                self.problem = Some(format!("Both players are called {name}: change one name."));
                FormOutcome::Continue
            }
            Err(SettingsError::LookAlike(x, o)) => {
                self.problem = Some(format!(
                    "{x} and {o} look alike: change one name so they read differently."
                ));
                FormOutcome::Continue
            }
        }
    }

    pub fn draw(&self, frame: &mut Frame) {
        let area = frame.area();
        let [title, form, problem, keys] = Layout::vertical([
            Constraint::Length(2),
            Constraint::Min(10),
            Constraint::Length(2),
            Constraint::Length(1),
        ])
        .areas(area);
        frame.render_widget(
            Paragraph::new("Tic Tac Toe").style(Style::default().add_modifier(Modifier::BOLD)),
            title,
        );
        let focused = self.focused();
        let mut lines = Vec::new();
        for field in self.fields() {
            let (label, value) = self.line(field, field == focused);
            let text = format!("{label:<18}{value}");
            let style = if field == focused {
                Style::default().add_modifier(Modifier::REVERSED)
            } else {
                Style::default()
            };
            lines.push(Line::styled(text, style));
            if let Field::Level(mark) = field {
                lines.push(Line::from(format!(
                    "{:<18}{}",
                    "",
                    how_it_plays(self.levels[mark.index()])
                )));
            }
        }
        frame.render_widget(Paragraph::new(lines), form);
        if let Some(text) = &self.problem {
            frame.render_widget(Paragraph::new(text.as_str()), problem);
        }
        frame.render_widget(
            Paragraph::new(
                "↑↓ choose a line · ←→ change it · type a name · Enter start · Esc quit",
            ),
            keys,
        );
    }

    /// A line's label and value; `focused`: the line the keys act on (a name being
    /// typed shows where the next letter goes).
    fn line(&self, field: Field, focused: bool) -> (String, String) {
        let choice = |text: String| format!("‹ {text} ›");
        match field {
            Field::Mode => ("Game".into(), choice(mode_label(self.mode).into())),
            Field::Side => ("You play".into(), choice(self.side.to_string())),
            Field::Level(mark) => (
                format!("Computer ({mark})"),
                choice(self.levels[mark.index()].to_string()),
            ),
            Field::Name(mark) => {
                let typed = &self.names[mark.index()];
                let shown = if typed.is_empty() {
                    unnamed(mark).to_string()
                } else {
                    typed.clone()
                };
                let cursor = if focused { "_" } else { "" };
                (format!("Name ({mark})"), format!("{shown}{cursor}"))
            }
            Field::Size => ("Board".into(), choice(format!("{0} x {0}", self.size))),
            Field::Run => ("In a row to win".into(), choice(self.win.to_string())),
            Field::First => ("Moves first".into(), choice(self.first.to_string())),
            Field::Start => ("".into(), "[ Start ]".into()),
        }
    }
}
