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

impl Settings {
    /// The name both players would share, if two humans were given the same one
    /// (names are compared ignoring case). Their results would land on one row.
    pub fn shared_human_name(&self) -> Option<PlayerName> {
        let (x, o) = (self.x.name(Mark::X), self.o.name(Mark::O));
        (self.x.is_human() && self.o.is_human() && x.key() == o.key()).then_some(x)
    }
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
        let size = self.ask(&Prompt::Size, menu::size)?;
        let geometry = self.ask(&Prompt::Win { size }, |text| menu::win_length(text, size))?;
        let first = self.ask(&Prompt::FirstMover, menu::first_mover)?;
        Ok(Settings {
            x,
            o,
            first,
            geometry,
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

#[cfg(test)]
mod tests {
    use mockall::predicate::eq;

    use super::*;
    use crate::domain::{Position, Scoreboard};
    use crate::players::{Action, Level, MockPlayer, MockPlayerFactory, Player};
    use crate::ports::{MockInputHandler, MockRenderer, MockScoreStore};
    use crate::test_support::{allow_any_rendering, quiet_renderer, typed};

    fn recording_store(games: usize) -> MockScoreStore {
        let mut store = MockScoreStore::new();
        store
            .expect_record()
            .times(games)
            .returning(|_| Ok(Scoreboard::new()));
        store
    }

    /// A computer stand-in that always plays the first empty cell.
    fn first_empty_cell_player(name: PlayerName) -> Box<dyn Player> {
        let mut player = MockPlayer::new();
        player.expect_name().return_const(name);
        player.expect_is_human().return_const(false);
        player.expect_choose().returning(|game| {
            let first: Option<Position> = game.board().empty_cells().first().copied();
            first.map_or(Action::Quit, Action::Place)
        });
        Box::new(player)
    }

    fn ada() -> PlayerName {
        PlayerName::new("Ada").unwrap()
    }

    fn session(
        input: MockInputHandler,
        renderer: MockRenderer,
        store: MockScoreStore,
        factory: MockPlayerFactory,
    ) -> Session<MockRenderer, MockInputHandler, MockScoreStore, MockPlayerFactory> {
        Session::new(Rc::new(renderer), Rc::new(input), store, factory)
    }

    #[test]
    fn the_menu_creates_exactly_the_players_that_were_chosen() {
        // Arrange: Human vs Computer, named Ada, computer on Medium, O first, one game, then no.
        let mut factory = MockPlayerFactory::new();
        factory
            .expect_create()
            .with(eq(PlayerSpec::Human(Some(ada()))), eq(Mark::X))
            .times(1)
            .returning(|spec, mark| first_empty_cell_player(spec.name(mark)));
        factory
            .expect_create()
            .with(eq(PlayerSpec::Computer(Level::Medium)), eq(Mark::O))
            .times(1)
            .returning(|spec, mark| first_empty_cell_player(spec.name(mark)));
        let input = typed(&["2", "Ada", "3", "", "", "o", "n"]);

        // Act
        let end = session(input, quiet_renderer(), recording_store(1), factory).run();

        // Assert
        assert_eq!(end, Ok(SessionEnd::Quit));
    }

    #[test]
    fn play_again_starts_a_new_game_with_the_same_players() {
        let mut factory = MockPlayerFactory::new();
        factory
            .expect_create()
            .withf(|spec, _| *spec == PlayerSpec::Computer(Level::Impossible))
            .times(6)
            .returning(|spec, mark| first_empty_cell_player(spec.name(mark)));
        let input = typed(&["3", "", "", "", "", "", "y", "", "n"]);

        let end = session(input, quiet_renderer(), recording_store(3), factory).run();

        assert_eq!(end, Ok(SessionEnd::Quit));
    }

    #[test]
    fn end_of_input_at_the_menu_ends_the_session_without_a_game() {
        let mut factory = MockPlayerFactory::new();
        factory.expect_create().never();
        let mut renderer = MockRenderer::new();
        renderer
            .expect_show_notice()
            .with(eq(Notice::InputClosed))
            .times(1)
            .return_const(());
        allow_any_rendering(&mut renderer);

        let end = session(typed(&[]), renderer, recording_store(0), factory).run();

        assert_eq!(end, Ok(SessionEnd::InputClosed));
    }

    #[test]
    fn two_humans_cannot_share_a_name_whatever_its_case() {
        let mut renderer = MockRenderer::new();
        renderer
            .expect_show_problem()
            .withf(|problem| matches!(problem, Problem::NameTaken(name) if name.as_str() == "ADA"))
            .times(1)
            .return_const(());
        allow_any_rendering(&mut renderer);
        let mut factory = MockPlayerFactory::new();
        factory.expect_create().never();

        let end = session(
            typed(&["1", "Ada", "ADA", "q"]),
            renderer,
            recording_store(0),
            factory,
        )
        .run();

        assert_eq!(end, Ok(SessionEnd::Quit));
    }

    #[test]
    fn a_wrong_menu_answer_is_explained_and_asked_again() {
        let mut renderer = MockRenderer::new();
        renderer
            .expect_show_problem()
            .withf(|problem| matches!(problem, Problem::Choice { given, .. } if given == "7"))
            .times(1)
            .return_const(());
        renderer
            .expect_show_prompt()
            .with(eq(Prompt::Mode))
            .times(2)
            .return_const(());
        allow_any_rendering(&mut renderer);
        let mut factory = MockPlayerFactory::new();
        factory.expect_create().never();

        let end = session(typed(&["7", "quit"]), renderer, recording_store(0), factory).run();

        assert_eq!(end, Ok(SessionEnd::Quit));
    }
}
