//! Ready-made doubles and small helpers shared by the unit tests.
//!
//! mockall tries a method's expectations in the order they were set, and passes over
//! one that is used up when a later one also matches. So "a specific expectation with
//! `times(1)` (or `never()`), then a catch-all" does NOT check "exactly once" (or "not
//! at all"): the extra call falls through to the catch-all. A test that counts a call
//! leaves that method out of the catch-alls ([`allow_rendering_except`]), or makes the
//! catch-all refuse what it counts ([`expect_notices`], [`expect_prompts`]).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use crate::clock::MockWallClock;

use crate::ports::{
    Dialogue, GameView, Input, MockDialogue, MockGameView, MockInputHandler, MockReports, Notice,
    Problem, Prompt, Reports,
};
use tictactoe_core::domain::{
    Analysis, Board, FinishedGame, Geometry, Mark, PlayerName, Position, Scoreboard,
};
use tictactoe_core::players::MockComputer;

/// A name that is known to be usable.
pub fn name(text: &str) -> PlayerName {
    PlayerName::new(text).unwrap()
}

/// Cell `number` (1 to 9) of the classic board.
pub fn cell(number: usize) -> Position {
    Geometry::classic().position(number - 1).unwrap()
}

/// A computer stand-in called `name` that always plays the first empty cell.
pub fn first_empty_cell(name: PlayerName) -> MockComputer {
    let mut computer = MockComputer::new();
    computer.expect_name().return_const(name);
    computer
        .expect_choose_move()
        .returning(|game| game.board().empty_cells().first().copied());
    computer
}

/// An input handler that yields `lines` in order, then [`Input::End`]: a returning
/// closure that owns its script.
pub fn typed(lines: &[&str]) -> MockInputHandler {
    let mut script: VecDeque<String> = lines.iter().map(|l| l.to_string()).collect();
    let mut input = MockInputHandler::new();
    input
        .expect_read_line()
        .returning(move || script.pop_front().map_or(Input::End, Input::Line));
    // A script is typed when asked, never ahead: nothing to discard.
    input.expect_discard_typed_ahead().return_const(());
    input
}

/// `seconds` after the clock's epoch: the instants of tests on a clock.
pub fn at(seconds: u64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(seconds)
}

/// Lines typed at given seconds, and a wall clock that reads the second of the last
/// line typed (0 before the first): people on a clock, each answer taking its time. A
/// wall clock stub and an input stub that share a script; then [`Input::End`].
pub fn typed_at(lines: &[(&str, u64)]) -> (MockInputHandler, MockWallClock) {
    let mut script: VecDeque<(String, u64)> = lines
        .iter()
        .map(|(line, second)| (line.to_string(), *second))
        .collect();
    let now = Arc::new(Mutex::new(at(0)));
    let read = Arc::clone(&now);
    let mut input = MockInputHandler::new();
    input
        .expect_read_line()
        .returning(move || match script.pop_front() {
            Some((line, second)) => {
                *now.lock().unwrap() = at(second);
                Input::Line(line)
            }
            None => Input::End,
        });
    input.expect_discard_typed_ahead().return_const(());
    let mut wall = MockWallClock::new();
    wall.expect_now().returning(move || *read.lock().unwrap());
    (input, wall)
}

/// The doubles of the three things the console shows, as one, for the parts that use
/// all three (the game loop and the menus). Each expectation is set on the double of
/// the port it belongs to: `screen.view.expect_show_board()`.
#[derive(Default)]
pub struct Screen {
    pub view: MockGameView,
    pub dialogue: MockDialogue,
    pub reports: MockReports,
}

impl GameView for Screen {
    fn show_board(&self, board: &dyn Board, highlight: &[Position]) {
        self.view.show_board(board, highlight)
    }
    fn show_notice(&self, notice: &Notice) {
        self.view.show_notice(notice)
    }
}

impl Dialogue for Screen {
    fn show_prompt(&self, prompt: &Prompt) {
        self.dialogue.show_prompt(prompt)
    }
    fn show_help(&self, prompt: &Prompt) {
        self.dialogue.show_help(prompt)
    }
    fn show_problem(&self, problem: &Problem) {
        self.dialogue.show_problem(problem)
    }
}

impl Reports for Screen {
    fn show_result(&self, game: &FinishedGame) {
        self.reports.show_result(game)
    }
    fn show_analysis(&self, to_move: Mark, analysis: &Analysis) {
        self.reports.show_analysis(to_move, analysis)
    }
    fn show_scoreboard(&self, scoreboard: &Scoreboard) {
        self.reports.show_scoreboard(scoreboard)
    }
}

/// The methods of the [`Screen`], to name the ones a test counts itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    Board,
    Notice,
    Prompt,
    Help,
    Problem,
    Result,
    Analysis,
    Scoreboard,
}

impl Shown {
    /// Every method, once.
    pub const ALL: [Shown; 8] = [
        Shown::Board,
        Shown::Notice,
        Shown::Prompt,
        Shown::Help,
        Shown::Problem,
        Shown::Result,
        Shown::Analysis,
        Shown::Scoreboard,
    ];
}

/// Stubs every other method of the screen to accept any call: the ones in `counted` are
/// left for the test's own expectations, which are then the only ones that can match.
pub fn allow_rendering_except(screen: &mut Screen, counted: &[Shown]) {
    for method in Shown::ALL
        .into_iter()
        .filter(|method| !counted.contains(method))
    {
        match method {
            Shown::Board => _ = screen.view.expect_show_board().return_const(()),
            Shown::Notice => _ = screen.view.expect_show_notice().return_const(()),
            Shown::Prompt => _ = screen.dialogue.expect_show_prompt().return_const(()),
            Shown::Help => _ = screen.dialogue.expect_show_help().return_const(()),
            Shown::Problem => _ = screen.dialogue.expect_show_problem().return_const(()),
            Shown::Result => _ = screen.reports.expect_show_result().return_const(()),
            Shown::Analysis => _ = screen.reports.expect_show_analysis().return_const(()),
            Shown::Scoreboard => _ = screen.reports.expect_show_scoreboard().return_const(()),
        }
    }
}

/// A screen that accepts anything: a stub, for tests whose subject is elsewhere.
pub fn quiet_renderer() -> Screen {
    let mut screen = Screen::default();
    allow_rendering_except(&mut screen, &[]);
    screen
}

/// Expects exactly `times` notices that `counted` picks, and stubs every other notice:
/// the catch-all refuses the counted ones, so one too many fails the test.
pub fn expect_notices<P>(view: &mut MockGameView, times: usize, counted: P)
where
    P: Fn(&Notice) -> bool + Clone + Send + 'static,
{
    let others = counted.clone();
    view.expect_show_notice()
        .withf(counted)
        .times(times)
        .return_const(());
    view.expect_show_notice()
        .withf(move |notice| !others(notice))
        .return_const(());
}

/// A screen that expects exactly `times` notices that `counted` picks (as
/// [`expect_notices`]) and accepts every other call, save the methods in `refused`:
/// those have no expectation at all, so any call of one fails the test.
pub fn counting_notices<P>(times: usize, counted: P, refused: &[Shown]) -> Screen
where
    P: Fn(&Notice) -> bool + Clone + Send + 'static,
{
    let mut screen = Screen::default();
    expect_notices(&mut screen.view, times, counted);
    let left_to_the_test: Vec<Shown> = std::iter::once(Shown::Notice)
        .chain(refused.iter().copied())
        .collect();
    allow_rendering_except(&mut screen, &left_to_the_test);
    screen
}

/// As [`expect_notices`], for the prompts.
pub fn expect_prompts<P>(dialogue: &mut MockDialogue, times: usize, counted: P)
where
    P: Fn(&Prompt) -> bool + Clone + Send + 'static,
{
    let others = counted.clone();
    dialogue
        .expect_show_prompt()
        .withf(counted)
        .times(times)
        .return_const(());
    dialogue
        .expect_show_prompt()
        .withf(move |prompt| !others(prompt))
        .return_const(());
}
