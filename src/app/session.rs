use std::rc::Rc;

use super::controller::{GameController, GameEnd, PlayError};
use super::menu::{self, AfterGame, Mode, Reply};
use crate::domain::{BitBoard, Game, Geometry, Mark, PlayerName};
use crate::players::{PlayerFactory, PlayerSpec, spec::default_name};
use crate::ports::{Input, InputHandler, Notice, Problem, Prompt, Renderer, ScoreStore};

/// Everything needed to start a game; "play again" reuses it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub x: PlayerSpec,
    pub o: PlayerSpec,
    pub first: Mark,
    pub geometry: Geometry,
}

/// Why a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionEnd {
    /// Someone chose to leave.
    Quit,
    /// Input ended.
    InputClosed,
}

/// The menus around the games: choose who plays, play, offer another game.
pub struct Session<R, I, S, F> {
    controller: GameController<R, S>,
    renderer: Rc<R>,
    input: Rc<I>,
    players: F,
}

impl<R, I, S, F> Session<R, I, S, F>
where
    R: Renderer,
    I: InputHandler,
    S: ScoreStore,
    F: PlayerFactory,
{
    pub fn new(renderer: Rc<R>, input: Rc<I>, store: S, players: F) -> Self {
        Session {
            controller: GameController::new(Rc::clone(&renderer), store),
            renderer,
            input,
            players,
        }
    }

    /// One game with these settings, no menus: what `tictactoe play` does.
    pub fn play_one(&mut self, settings: &Settings) -> Result<GameEnd, PlayError> {
        let mut players = [
            self.players.create(&settings.x, Mark::X),
            self.players.create(&settings.o, Mark::O),
        ];
        let mut game = Game::<BitBoard>::start(settings.geometry, settings.first);
        self.controller.play(&mut game, &mut players)
    }

    /// The interactive program: menus, games, and "play again?" until someone leaves.
    pub fn run(&mut self) -> Result<SessionEnd, PlayError> {
        self.renderer.show_notice(&Notice::Welcome);
        let end = self.menu_loop()?;
        if end == SessionEnd::Quit {
            self.renderer.show_notice(&Notice::Goodbye);
        }
        Ok(end)
    }

    fn menu_loop(&mut self) -> Result<SessionEnd, PlayError> {
        loop {
            let settings = match self.choose_settings() {
                Ok(settings) => settings,
                Err(end) => return Ok(end),
            };
            loop {
                match self.play_one(&settings)? {
                    GameEnd::Finished(_) => {}
                    GameEnd::Abandoned => return Ok(SessionEnd::Quit),
                    GameEnd::InputClosed => return Ok(SessionEnd::InputClosed),
                }
                match self.ask(&Prompt::PlayAgain, menu::after_game) {
                    Ok(AfterGame::PlayAgain) => continue,
                    Ok(AfterGame::Menu) => break,
                    Ok(AfterGame::Quit) => return Ok(SessionEnd::Quit),
                    Err(end) => return Ok(end),
                }
            }
        }
    }

    fn choose_settings(&self) -> Result<Settings, SessionEnd> {
        let (x_is_human, o_is_human) = match self.ask(&Prompt::Mode, menu::mode)? {
            Mode::HumanVsHuman => (true, true),
            Mode::HumanVsComputer => (true, false),
            Mode::ComputerVsComputer => (false, false),
        };
        let x = self.choose_player(Mark::X, x_is_human, None)?;
        let taken = match &x {
            PlayerSpec::Human(name) => name.clone(),
            PlayerSpec::Computer(_) => None,
        };
        let o = self.choose_player(Mark::O, o_is_human, taken.as_ref())?;
        let first = self.ask(&Prompt::FirstMover, menu::first_mover)?;
        Ok(Settings {
            x,
            o,
            first,
            geometry: Geometry::classic(),
        })
    }

    fn choose_player(
        &self,
        mark: Mark,
        human: bool,
        taken: Option<&PlayerName>,
    ) -> Result<PlayerSpec, SessionEnd> {
        if !human {
            let level = self.ask(&Prompt::Level { mark }, menu::level)?;
            return Ok(PlayerSpec::Computer(level));
        }
        let default = default_name(mark);
        let prompt = Prompt::Name {
            mark,
            default: default.clone(),
        };
        let name = self.ask(&prompt, |text| {
            let name = menu::name(text, &default)?;
            match taken {
                Some(other) if other.key() == name.key() => Err(Problem::NameTaken(name)),
                _ => Ok(name),
            }
        })?;
        Ok(PlayerSpec::Human(Some(name)))
    }

    /// Asks until `parse` accepts an answer. `Err` means the session should end.
    fn ask<T>(
        &self,
        prompt: &Prompt,
        parse: impl Fn(&str) -> Result<T, Problem>,
    ) -> Result<T, SessionEnd> {
        loop {
            self.renderer.show_prompt(prompt);
            let Input::Line(text) = self.input.read_line() else {
                self.renderer.show_notice(&Notice::InputClosed);
                return Err(SessionEnd::InputClosed);
            };
            match menu::reply(&text, &parse) {
                Ok(Reply::Value(value)) => return Ok(value),
                Ok(Reply::Help) => self.renderer.show_help(prompt),
                Ok(Reply::Quit) => return Err(SessionEnd::Quit),
                Err(problem) => self.renderer.show_problem(&problem),
            }
        }
    }
}
