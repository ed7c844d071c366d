use std::time::SystemTime;
use tictactoe_core::domain::{
    FIRST_MOVE_WITHIN, GameClock, Geometry, Mark, PlayerName, TimeControl,
};
use tictactoe_core::play::{ComputerError, Journal, Seating, Settings};
use tictactoe_core::players::{ComputerFactory, PlayerSpec, unnamed};

use tictactoe_core::ports::{GameId, GameStore, NewGame, SeatHolder, StoreError};

use crate::clock::{SystemClock, TimeKeeper, WallClock};
use crate::controller::{GameController, GameEnd};
use crate::menu::{self, AfterGame, Mode, Reply};
use crate::ports::{Input, InputHandler, Notice, Problem, Prompt, Renderer};

/// Keeps the beginning of a game played at one keyboard (the console's, the full
/// screen's) in `store`, under a new random id, and gives the recorder for the rest.
/// A `casual` game rates nobody ([`NewGame::casual`]); a game on a `clock` keeps it as
/// it began ([`NewGame::clock`]).
pub fn begin_journal<S: GameStore>(
    store: S,
    settings: &Settings,
    casual: bool,
    clock: Option<GameClock>,
) -> Result<Journal<S>, StoreError> {
    let new = NewGame {
        id: GameId::new(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |since| since.as_millis() as u64),
            rand::random(),
        ),
        settings: settings.clone(),
        // One keyboard: undo takes back the last move, whoever made it.
        seating: Seating::Together,
        // One machine: its database is the person's own.
        seats: [SeatHolder::Local, SeatHolder::Local],
        follows: None,
        casual,
        clock,
    };
    Journal::begin(store, &new)
}

/// A game's clock as it begins at `now`, on `control`, for a game with these
/// settings: each side has [`FIRST_MOVE_WITHIN`] for its first move.
pub fn starting_clock(control: TimeControl, settings: &Settings, now: SystemTime) -> GameClock {
    GameClock::start(control, FIRST_MOVE_WITHIN, settings.first(), now)
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
pub struct Session<'a, R, I, S, F> {
    controller: GameController<'a, R, I>,
    renderer: &'a R,
    input: &'a I,
    store: S,
    computers: F,
    /// Whether its games rate nobody (see [`NewGame::casual`]).
    casual: bool,
    /// The time control of the game it plays (`play --clock`), if any.
    clock: Option<TimeControl>,
    /// Where the time comes from, for a game on a clock.
    wall: &'a dyn WallClock,
}

impl<'a, R, I, S, F> Session<'a, R, I, S, F>
where
    // The menus themselves use the view (welcome, goodbye) and the dialogue; the reports
    // are for the games they start.
    R: Renderer,
    I: InputHandler,
    S: GameStore,
    F: ComputerFactory,
{
    pub fn new(renderer: &'a R, input: &'a I, store: S, computers: F) -> Self {
        Session {
            controller: GameController::new(renderer, input),
            renderer,
            input,
            store,
            computers,
            casual: false,
            clock: None,
            wall: &SystemClock,
        }
    }

    /// The game of [`play_one`](Self::play_one) is played on a clock of `control`
    /// (`play --clock`); the menu's games are not.
    pub fn on_clock(self, control: Option<TimeControl>) -> Self {
        Session {
            clock: control,
            ..self
        }
    }

    /// Reads the time from `wall` rather than the system's clock.
    pub fn reading_time(self, wall: &'a dyn WallClock) -> Self {
        Session {
            controller: self.controller.reading_time(wall),
            wall,
            ..self
        }
    }

    /// Its games rate nobody: their computers' choices were fixed before they began
    /// (`--seed`).
    pub fn casual(self, casual: bool) -> Self {
        Session { casual, ..self }
    }

    /// One game with these settings, no menus: what `tictactoe play` does. The game is
    /// kept in the store as it is played; if even its beginning cannot be kept, the
    /// player is told and the game is played unsaved.
    pub fn play_one(&mut self, settings: &Settings) -> Result<GameEnd, ComputerError> {
        let clock = self
            .clock
            .map(|control| starting_clock(control, settings, self.wall.now()));
        self.play_on(settings, clock)
    }

    /// One game, on `clock` if it has one.
    fn play_on(
        &mut self,
        settings: &Settings,
        clock: Option<GameClock>,
    ) -> Result<GameEnd, ComputerError> {
        let journal = match begin_journal(&self.store, settings, self.casual, clock) {
            Ok(journal) => Some(journal),
            Err(error) => {
                self.renderer.show_notice(&Notice::NotSaved {
                    reason: error.to_string(),
                });
                None
            }
        };
        // A game that is not kept rates nobody.
        let rates = journal.as_ref().is_some_and(Journal::rates);
        let mut keeper = TimeKeeper::new(clock);
        if let Some(journal) = &journal {
            keeper = keeper.keeping_in(&self.store, journal.id().clone());
        }
        let mut game = settings
            .start_match(&mut self.computers, journal)
            .casual(!rates);
        self.controller.play_timed(&mut game, &mut keeper)
    }

    /// The interactive program: menus, games, and "play again?" until someone leaves.
    pub fn run(&mut self) -> Result<SessionEnd, ComputerError> {
        self.renderer.show_notice(&Notice::Welcome);
        let end = self.menu_loop()?;
        if end == SessionEnd::Quit {
            self.renderer.show_notice(&Notice::Goodbye);
        }
        Ok(end)
    }

    fn menu_loop(&mut self) -> Result<SessionEnd, ComputerError> {
        loop {
            let mut settings = match self.choose_settings() {
                Ok(settings) => settings,
                Err(end) => return Ok(end),
            };
            loop {
                // The menu's games are played without a clock.
                match self.play_on(&settings, None)? {
                    GameEnd::Finished(_) | GameEnd::TimedOut { .. } | GameEnd::Aborted { .. } => {}
                    GameEnd::Abandoned => return Ok(SessionEnd::Quit),
                    GameEnd::InputClosed => return Ok(SessionEnd::InputClosed),
                }
                match self.ask(&Prompt::PlayAgain, menu::after_game) {
                    Ok(AfterGame::PlayAgain) => continue,
                    Ok(AfterGame::SwapSides) => settings = settings.swapped(),
                    Ok(AfterGame::Menu) => break,
                    Ok(AfterGame::Quit) => return Ok(SessionEnd::Quit),
                    Err(end) => return Ok(end),
                }
            }
        }
    }

    fn choose_settings(&self) -> Result<Settings, SessionEnd> {
        let mode = self.ask(&Prompt::Mode, menu::mode)?;
        // The side is asked only where it matters: against the computer.
        let side = match mode {
            Mode::HumanVsComputer => self.ask(&Prompt::Side, menu::side)?,
            _ => Mark::X,
        };
        let [x_is_human, o_is_human] = mode.humans(side);
        let x = self.choose_player(Mark::X, x_is_human, None)?;
        let taken = match &x {
            PlayerSpec::Human(name) => name.clone(),
            PlayerSpec::Computer(_) => None,
        };
        let o = self.choose_player(Mark::O, o_is_human, taken.as_ref())?;
        let size = self.ask(&Prompt::Size, menu::size)?;
        // On 3 x 3 there is no choice to ask about: three in a row.
        let geometry = match size {
            3 => Geometry::classic(),
            _ => self.ask(&Prompt::Win { size }, |text| menu::win_length(text, size))?,
        };
        let first = self.ask(&Prompt::FirstMover, menu::first_mover)?;
        // The name prompt has already refused the other player's name.
        Ok(Settings::new(x, o, first, geometry)
            .expect("the name prompt refuses a name the other player has"))
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
        let default = free_default_name(mark, taken);
        let prompt = Prompt::Name {
            mark,
            default: default.clone(),
        };
        // Whatever is typed here is a name, even "q" or "Help": the prompt says so.
        let name = self.ask_literally(&prompt, |text| {
            let name = menu::name(text, &default)?;
            match taken {
                Some(other) if other.key() == name.key() => Err(Problem::NameTaken(name)),
                Some(other) if other.looks_like(&name) => Err(Problem::NameLooksLike {
                    name,
                    other: other.clone(),
                }),
                _ => Ok(name),
            }
        })?;
        Ok(PlayerSpec::Human(Some(name)))
    }

    /// Asks until `parse` accepts an answer; `q` leaves and `h` shows help. `Err` means
    /// the session should end.
    fn ask<T>(
        &self,
        prompt: &Prompt,
        parse: impl Fn(&str) -> Result<T, Problem>,
    ) -> Result<T, SessionEnd> {
        self.ask_with(prompt, |text| menu::reply(text, &parse))
    }

    /// Asks until `parse` accepts an answer, taking every answer as it is typed.
    fn ask_literally<T>(
        &self,
        prompt: &Prompt,
        parse: impl Fn(&str) -> Result<T, Problem>,
    ) -> Result<T, SessionEnd> {
        self.ask_with(prompt, |text| parse(text).map(Reply::Value))
    }

    fn ask_with<T>(
        &self,
        prompt: &Prompt,
        reply: impl Fn(&str) -> Result<Reply<T>, Problem>,
    ) -> Result<T, SessionEnd> {
        let mut explained = false;
        loop {
            // After a problem, the question again, not its whole list of choices.
            if std::mem::take(&mut explained) {
                self.renderer.show_prompt_again(prompt);
            } else {
                self.renderer.show_prompt(prompt);
            }
            let Input::Line(text) = self.input.read_line() else {
                self.renderer.show_notice(&Notice::InputClosed);
                return Err(SessionEnd::InputClosed);
            };
            match reply(&text) {
                Ok(Reply::Value(value)) => return Ok(value),
                Ok(Reply::Help) => self.renderer.show_help(prompt),
                Ok(Reply::Quit) => return Err(SessionEnd::Quit),
                Err(problem) => {
                    self.renderer.show_problem(&problem);
                    explained = true;
                }
            }
        }
    }
}

/// "Player 1" for X or "Player 2" for O, unless the other player took it: then the
/// first "Player N" free, so that pressing Enter always gives a name that can be used.
fn free_default_name(mark: Mark, taken: Option<&PlayerName>) -> PlayerName {
    let plain = unnamed(mark);
    let is_free = |name: &PlayerName| {
        taken.is_none_or(|other| other.key() != name.key() && !other.looks_like(name))
    };
    std::iter::once(plain.clone())
        .chain((1..).filter_map(|n: u32| PlayerName::new(&format!("Player {n}")).ok()))
        .find(is_free)
        .unwrap_or(plain)
}

#[cfg(test)]
mod tests {
    use mockall::predicate::eq;

    use super::*;
    use crate::ports::MockInputHandler;
    use crate::test_support::{
        Screen, Shown, allow_rendering_except, at, counting_notices, expect_prompts,
        first_empty_cell, quiet_renderer, typed, typed_at,
    };
    use std::time::Duration;
    use tictactoe_core::fixtures::computers;
    use tictactoe_core::memory::MemoryStore;
    use tictactoe_core::players::{Level, MockComputerFactory, MoveChooser};
    use tictactoe_core::ports::{Ending, GameHistory, HistoryQuery, PageSize};
    use tictactoe_core::ports::{GameStore, MockGameStore};

    /// A computer at `level`, named after it, that always plays the first empty cell.
    fn computer(level: Level) -> Box<dyn MoveChooser> {
        Box::new(first_empty_cell(PlayerSpec::Computer(level).name(Mark::X)))
    }

    /// A factory stub that must make exactly `count` computers, each at `level` (see
    /// [`computer`]).
    fn making(count: usize, level: Level) -> MockComputerFactory {
        let mut factory = computers();
        factory
            .expect_computer()
            .with(eq(level))
            .times(count)
            .returning(computer);
        factory
    }

    /// Runs a whole session: the menus, the games, until someone leaves or input ends.
    fn run(
        input: MockInputHandler,
        screen: Screen,
        store: &MemoryStore,
        factory: MockComputerFactory,
    ) -> Result<SessionEnd, ComputerError> {
        Session::new(&screen, &input, store, factory).run()
    }

    #[test]
    fn the_menu_asks_for_exactly_the_computer_that_was_chosen() {
        // Arrange: Human vs Computer, Ada plays X, computer on Medium, 3 x 3, O first; Ada leaves.
        let factory = making(1, Level::Medium);
        let input = typed(&["2", "x", "Ada", "3", "", "o", "q"]);

        // Act
        let end = run(input, quiet_renderer(), &MemoryStore::new(), factory);

        // Assert
        assert_eq!(end, Ok(SessionEnd::Quit));
    }

    #[test]
    fn play_again_starts_a_new_game_with_new_computers_of_the_same_levels() {
        // Arrange: Computer vs Computer on Impossible, all defaults; again, again, no.
        // Three games, so six computers and three results.
        let factory = making(6, Level::Impossible);
        let input = typed(&["3", "", "", "", "", "y", "", "n"]);

        let store = MemoryStore::new();

        // Act
        let end = run(input, quiet_renderer(), &store, factory);

        // Assert: three games counted. Both sides are called "Computer (Impossible)", so
        // its one row has both sides' results: six.
        assert_eq!(end, Ok(SessionEnd::Quit));
        let computer = PlayerSpec::Computer(Level::Impossible).name(Mark::X);
        let counted = store
            .scoreboard(None)
            .unwrap()
            .record_of(&computer)
            .unwrap();
        assert_eq!(counted.games(), 6);
    }

    #[test]
    fn end_of_input_at_the_menu_ends_the_session_without_a_game() {
        // Arrange: no computer may be made; input ends at once, said once.
        let mut factory = MockComputerFactory::new();
        factory.expect_computer().never();
        let screen = counting_notices(1, |notice| *notice == Notice::InputClosed, &[]);

        // Act
        let end = run(typed(&[]), screen, &MemoryStore::new(), factory);

        // Assert
        assert_eq!(end, Ok(SessionEnd::InputClosed));
    }

    /// O's name as X's, but for its case, or written with a look-alike letter.
    fn taken(problem: &Problem) -> bool {
        matches!(problem, Problem::NameTaken(name) if name.as_str() == "ADA")
    }

    fn looks_like_ada(problem: &Problem) -> bool {
        matches!(problem, Problem::NameLooksLike { name, other }
            if name.as_str() == "\u{410}da" && other.as_str() == "Ada")
    }

    #[rstest::rstest]
    #[case::the_same_whatever_its_case("ADA", taken)]
    #[case::with_a_cyrillic_a("\u{410}da", looks_like_ada)]
    fn a_second_name_too_like_the_first_is_refused_and_asked_again(
        #[case] second: &str,
        #[case] refused: fn(&Problem) -> bool,
    ) {
        // Arrange: Ada for X, then the second name for O: refused once, then Bob.
        let mut screen = Screen::default();
        screen
            .dialogue
            .expect_show_problem()
            .withf(refused)
            .times(1)
            .return_const(());
        allow_rendering_except(&mut screen, &[Shown::Problem]);
        let input = typed(&["1", "Ada", second, "Bob", "q"]);

        // Act
        let end = run(input, screen, &MemoryStore::new(), computers());

        // Assert
        assert_eq!(end, Ok(SessionEnd::Quit));
    }

    #[test]
    fn a_person_can_play_o_against_the_computer() {
        // Arrange: Human vs Computer, side o: X is the computer (Easy), O is Ada; then
        // leave. The factory is a stub: the computer's name shows which level it made.
        let mut factory = computers();
        factory.expect_computer().returning(computer);
        let screen = counting_notices(
            1,
            |notice| {
                matches!(notice, Notice::GameStarts { x, o, .. }
                if x.as_str() == "Computer (Easy)" && o.as_str() == "Ada")
            },
            &[],
        );
        let input = typed(&["2", "o", "2", "Ada", "", "", "q"]);

        // Act
        let end = run(input, screen, &MemoryStore::new(), factory);

        // Assert
        assert_eq!(end, Ok(SessionEnd::Quit));
    }

    #[test]
    fn enter_for_the_default_name_gives_a_free_one_when_the_other_player_took_it() {
        // Arrange: X is called "Player 2"; O's prompt offers "Player 1", and Enter takes
        // it without a problem (problems are not stubbed: one would fail the test).
        let mut screen = Screen::default();
        expect_prompts(
            &mut screen.dialogue,
            1,
            |prompt| matches!(prompt, Prompt::Name { mark: Mark::O, default } if default.as_str() == "Player 1"),
        );
        allow_rendering_except(&mut screen, &[Shown::Prompt, Shown::Problem]);
        let input = typed(&["1", "Player 2", "", "", "", "q"]);

        // Act
        let end = run(input, screen, &MemoryStore::new(), computers());

        // Assert
        assert_eq!(end, Ok(SessionEnd::Quit));
    }

    #[rstest::rstest]
    #[case::q("q")]
    #[case::quit("Quit")]
    #[case::help("h")]
    fn at_the_name_prompt_every_word_is_a_name(#[case] typed_name: &'static str) {
        // Arrange: the game starts with X named as typed.
        let screen = counting_notices(
            1,
            move |notice| matches!(notice, Notice::GameStarts { x, .. } if x.as_str() == typed_name),
            &[],
        );
        let input = typed(&["1", typed_name, "Bob", "", "", "q"]);

        // Act
        let end = run(input, screen, &MemoryStore::new(), computers());

        // Assert
        assert_eq!(end, Ok(SessionEnd::Quit));
    }

    #[test]
    fn on_three_by_three_the_run_to_win_is_not_asked() {
        // Arrange: prompts are counted, not stubbed: none may be for the run to win, and
        // the catch-all for the others refuses it too, so asking for it fails the test.
        let mut screen = Screen::default();
        expect_prompts(&mut screen.dialogue, 0, |prompt| {
            matches!(prompt, Prompt::Win { .. })
        });
        allow_rendering_except(&mut screen, &[Shown::Prompt]);
        let input = typed(&["1", "", "", "3", "", "q"]);

        // Act
        let end = run(input, screen, &MemoryStore::new(), computers());

        // Assert
        assert_eq!(end, Ok(SessionEnd::Quit));
    }

    #[test]
    fn a_wrong_menu_answer_is_explained_and_asked_again() {
        // Arrange: "7" is not a mode: explained once, and the mode asked twice in all.
        let mut screen = Screen::default();
        screen
            .dialogue
            .expect_show_problem()
            .withf(|problem| matches!(problem, Problem::Choice { given, .. } if given == "7"))
            .times(1)
            .return_const(());
        screen
            .dialogue
            .expect_show_prompt()
            .with(eq(Prompt::Mode))
            .times(2)
            .return_const(());
        allow_rendering_except(&mut screen, &[Shown::Problem, Shown::Prompt]);

        // Act
        let end = run(
            typed(&["7", "quit"]),
            screen,
            &MemoryStore::new(),
            MockComputerFactory::new(),
        );

        // Assert
        assert_eq!(end, Ok(SessionEnd::Quit));
    }

    #[test]
    fn a_game_whose_beginning_cannot_be_saved_is_said_so_and_played_unsaved() {
        // Arrange: a store that fails every write (a stub); the warning comes once.
        let mut store = MockGameStore::new();
        store
            .expect_write()
            .times(1)
            .returning(|_| Err(StoreError::NoLocation));
        let screen = counting_notices(1, |notice| matches!(notice, Notice::NotSaved { .. }), &[]);
        let input = typed(&["1", "4", "2", "5", "3"]);
        let two_people = two_people_unnamed();

        // Act
        let end = Session::new(&screen, &input, store, computers()).play_one(&two_people);

        // Assert
        assert!(matches!(end, Ok(GameEnd::Finished(_))));
    }

    /// Two people who gave no name, on 3 x 3, X first.
    fn two_people_unnamed() -> Settings {
        Settings::new(
            PlayerSpec::Human(None),
            PlayerSpec::Human(None),
            Mark::X,
            Geometry::classic(),
        )
        .unwrap()
    }

    #[test]
    fn play_on_a_clock_keeps_the_clock_with_the_game_and_its_loss_on_time() {
        // Arrange: Ada and Bob on 3+2; Ada's third move comes at 300 s, too late.
        let store = MemoryStore::new();
        let (input, wall) = typed_at(&[("1", 1), ("5", 2), ("9", 300)]);
        let screen = quiet_renderer();
        let two_people = two_people_unnamed();

        // Act
        let end = Session::new(&screen, &input, &store, computers())
            .on_clock(Some("3+2".parse().unwrap()))
            .reading_time(&wall)
            .play_one(&two_people);

        // Assert: ended on time, kept so, with the clock's last reading: X's time spent.
        assert_eq!(
            end,
            Ok(GameEnd::TimedOut {
                side: Mark::X,
                drawn: false
            })
        );
        let newest = HistoryQuery {
            player: None,
            before: None,
            limit: PageSize::new(1).unwrap(),
        };
        let kept = store.history(&newest).unwrap().games.remove(0);
        assert_eq!(
            kept.ending,
            Ending::TimedOut {
                side: Mark::X,
                drawn: false
            }
        );
        let clock = store.game(&kept.id).unwrap().unwrap().clock.unwrap();
        assert_eq!(
            clock.left_at(at(300)),
            [Duration::ZERO, Duration::from_secs(180)]
        );
    }
}
