//! The real terminal: raw mode, the alternate screen and the mouse, given back as they
//! were however the program ends (a panic, or a signal: SIGTERM, SIGHUP when the
//! window is closed, SIGQUIT, SIGINT from another program); the event loop; the
//! computer thinking on another thread while the screen counts the seconds.

use std::io::{self, Stdout};
use std::panic;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event as TermEvent, KeyCode, KeyEvent,
    KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::{Frame, Terminal};
use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
use signal_hook::iterator::Signals;

use super::game_screen::{Flow, GameScreen};
use super::menu_form::{FormOutcome, MenuForm};
use super::replay_screen::{ReplayFlow, ReplayScreen};
use super::train_screen::{TrainFlow, TrainScreen};
use tictactoe_console::menu::AfterGame;
use tictactoe_console::words::seat;
use tictactoe_console::{
    Stop, SystemClock, TimeKeeper, Titled, Trained, WallClock, begin_journal, starting_clock,
};
use tictactoe_core::domain::{GameState, Mark, TimeControl};
use tictactoe_core::play::{
    ComputerError, End, Event, Journal, Match, Recorder, Replay, Review, Seat, Settings, review,
};
use tictactoe_core::players::{Advisor, ComputerFactory};
use tictactoe_core::ports::{
    Archive, Ending as Ended, GameHistory, GameId, HistoryQuery, PageSize, ReviewStore,
};
use tictactoe_core::rules::{Fate, Puzzle, judge};

/// Where the full-screen program starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// The menu (`tictactoe`).
    Menu,
    /// A game with these settings (`tictactoe play`), on a clock of this control if
    /// one is given (`--clock`): it, and the games played again from it, are played on
    /// the clock; the menu's games are not.
    Game(Settings, Option<TimeControl>),
}

/// How the full-screen program ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Someone chose to quit.
    Quit,
    /// Ctrl-C.
    Interrupted,
}

/// How long a computer's move stays on screen before the next computer moves.
const COMPUTER_PAUSE: Duration = Duration::from_millis(450);
/// How often the thinking clock is redrawn.
const TICK: Duration = Duration::from_millis(100);

/// Runs the full-screen program until someone quits. The terminal is restored on every
/// way out, a panic included. The menu opens filled in as the last game kept in
/// `store` was (the names typed for it too). `casual` games rate nobody.
pub fn run_full_screen<S: Archive + ?Sized>(
    computers: &mut dyn ComputerFactory,
    store: &S,
    colour: bool,
    start: Start,
    casual: bool,
) -> io::Result<Result<Ending, ComputerError>> {
    let _restore = RawScreen::enter()?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    let (mut next, mut control) = match start {
        Start::Menu => (None, None),
        Start::Game(settings, control) => (Some(settings), control),
    };
    let wall = SystemClock;
    let mut form = last_form(store);
    loop {
        let settings = match next.take() {
            Some(settings) => settings,
            None => match menu(&mut terminal, &mut form)? {
                Some(settings) => settings,
                None => return Ok(Ok(Ending::Quit)),
            },
        };
        // Each game is kept as it is played; one whose beginning cannot be kept is
        // played unsaved, and says so.
        let clock = control.map(|control| starting_clock(control, &settings, wall.now()));
        let (journal, unsaved) = match begin_journal(store, &settings, casual, clock) {
            Ok(journal) => (Some(journal), None),
            Err(error) => (None, Some(error)),
        };
        let mut keeper = TimeKeeper::new(clock);
        if let Some(journal) = &journal {
            keeper = keeper.keeping_in(&store, journal.id().clone());
        }
        // A game that is not kept rates nobody.
        let rates = journal.as_ref().is_some_and(Journal::rates);
        let mut game = settings.start_match(computers, journal).casual(!rates);
        let mut screen = GameScreen::new(settings.geometry(), colour);
        if let Some(error) = unsaved {
            screen.show_events(&game, vec![Event::NotKept(error)]);
        }
        let left = loop {
            match play(&mut terminal, &mut screen, &mut game, (&mut keeper, &wall))? {
                Ok(Left::Review) => {
                    let kept_as = game.recorder().as_ref().map(|journal| journal.id().clone());
                    let seen = (settings.clone(), kept_as);
                    if review_in_place(&mut terminal, store, computers, seen, &game, colour)?
                        == ReplayFlow::Interrupt
                    {
                        return Ok(Ok(Ending::Interrupted));
                    }
                }
                left => break left,
            }
        };
        match left {
            Ok(Left::Review) => unreachable!("a review is shown in the loop above"),
            Ok(Left::Chose(AfterGame::PlayAgain)) => next = Some(settings),
            Ok(Left::Chose(AfterGame::SwapSides)) => next = Some(settings.swapped()),
            Ok(Left::Chose(AfterGame::Menu)) => {
                form = MenuForm::from_settings(&settings);
                control = None;
            }
            Ok(Left::Chose(AfterGame::Quit)) => return Ok(Ok(Ending::Quit)),
            Ok(Left::Interrupted) => return Ok(Ok(Ending::Interrupted)),
            Err(error) => return Ok(Err(error)),
        }
    }
}

type Screen = Terminal<CrosstermBackend<Stdout>>;

/// The menu as the newest game that ended in `store` was set up; the menu's defaults
/// when there is none (or the store cannot say).
pub(crate) fn last_form<S: GameHistory + ?Sized>(store: &S) -> MenuForm {
    let newest = HistoryQuery {
        player: None,
        before: None,
        limit: PageSize::new(1).expect("1 is a page size"),
    };
    match store.history(&newest) {
        Ok(page) => page
            .games
            .first()
            .map(|game| MenuForm::from_settings(&game.settings))
            .unwrap_or_default(),
        Err(_) => MenuForm::default(),
    }
}

fn menu(terminal: &mut Screen, form: &mut MenuForm) -> io::Result<Option<Settings>> {
    loop {
        let Some(key) = drawn_then_pressed(terminal, |frame| form.draw(frame))? else {
            continue;
        };
        match form.on_key(key) {
            FormOutcome::Continue => {}
            FormOutcome::Start(settings) => return Ok(Some(settings)),
            FormOutcome::Quit => return Ok(None),
        }
    }
}

/// Draws a screen with `draw`, then waits for the next event: the key pressed, or
/// `None` for anything else (a key let go, a resize: the screen is drawn again).
fn drawn_then_pressed(
    terminal: &mut Screen,
    draw: impl FnOnce(&mut Frame),
) -> io::Result<Option<KeyEvent>> {
    terminal.draw(draw)?;
    Ok(match event::read()? {
        TermEvent::Key(key) if key.kind == KeyEventKind::Press => Some(key),
        _ => None,
    })
}

/// How one game on the full screen was left: what the people chose, or Ctrl-C; or,
/// after the game, `v` to review it in place.
enum Left {
    Chose(AfterGame),
    Review,
    Interrupted,
}

/// A kept game played back full screen (`tictactoe replay`) until q or Esc. The
/// terminal is restored on every way out, a panic included.
pub fn run_replay(
    title: String,
    replay: &Replay,
    review: Option<&Review>,
    colour: bool,
) -> io::Result<Ending> {
    let _restore = RawScreen::enter()?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    let mut screen = ReplayScreen::new(title, replay, review, colour);
    Ok(match show_replay(&mut terminal, &mut screen)? {
        ReplayFlow::Interrupt => Ending::Interrupted,
        _ => Ending::Quit,
    })
}

/// Training full screen (`tictactoe train` on a terminal): `puzzles` one at a time
/// until every one is answered, or q or Esc; each answer judged by the core with
/// `advisor`'s perfect play, and handed to `keep` (right or not), which says what
/// becomes of the puzzle, before it is shown.
/// An error from `keep` ends the session and is given back. The terminal is restored on
/// every way out, a panic included.
pub fn run_training<E>(
    puzzles: &[Titled],
    advisor: &mut dyn Advisor,
    colour: bool,
    keep: &mut dyn FnMut(&Puzzle, bool) -> Result<Fate, E>,
) -> io::Result<Result<Trained, E>> {
    if puzzles.is_empty() {
        return Ok(Ok(Trained::over(0)));
    }
    let _restore = RawScreen::enter()?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    let mut screen = TrainScreen::new(puzzles, colour);
    loop {
        let Some(key) = drawn_then_pressed(&mut terminal, |frame| screen.draw(frame))? else {
            continue;
        };
        match screen.on_key(key) {
            TrainFlow::Continue => {}
            TrainFlow::Answer(cell) => {
                let puzzle = &screen.puzzle().puzzle;
                // A taken cell never reaches here: the screen does not answer with it.
                let Ok(answered) = judge(puzzle, cell, advisor) else {
                    continue;
                };
                let fate = match answered.kept_as().map(|right| keep(puzzle, right)) {
                    Some(Err(error)) => return Ok(Err(error)),
                    Some(Ok(fate)) => Some(fate),
                    None => None,
                };
                screen.answered(cell, answered, fate);
            }
            TrainFlow::Leave => return Ok(Ok(screen.trained(Stop::Quit))),
            TrainFlow::Interrupt => return Ok(Ok(screen.trained(Stop::Interrupted))),
        }
    }
}

/// Runs the replay screen until it is left.
fn show_replay(terminal: &mut Screen, screen: &mut ReplayScreen) -> io::Result<ReplayFlow> {
    loop {
        let Some(key) = drawn_then_pressed(terminal, |frame| screen.draw(frame))? else {
            continue;
        };
        match screen.on_key(key) {
            ReplayFlow::Continue => {}
            left => return Ok(left),
        }
    }
}

/// The game just played, reviewed (on another thread, the screen saying how far it
/// has got) and played back; the review kept with the game, when the game was kept.
fn review_in_place<S: ReviewStore + ?Sized, R: Recorder>(
    terminal: &mut Screen,
    store: &S,
    computers: &mut dyn ComputerFactory,
    (settings, kept_as): (Settings, Option<GameId>),
    game: &Match<R>,
    colour: bool,
) -> io::Result<ReplayFlow> {
    let ending = game.end().map(|end| match end {
        End::Finished(finished) => Ended::Finished(finished.outcome),
        End::Resigned { by } => Ended::Resigned(*by),
        End::Abandoned { by } => Ended::Abandoned(*by),
        &End::TimedOut { side, drawn } => Ended::TimedOut { side, drawn },
        End::Aborted { by } => Ended::Aborted(*by),
    });
    // The match played these moves, so they are a game; if not, that is said, not shown.
    let replay = Replay::played(&settings, game.game().moves(), ending)
        .map_err(|error| io::Error::other(format!("the game cannot be reviewed: {error}")))?;
    let mut advisor = computers.advisor();
    let Some(reviewed) = reviewing(terminal, &replay, &mut *advisor)? else {
        return Ok(ReplayFlow::Interrupt);
    };
    if let Some(id) = &kept_as {
        // A review that cannot be kept is still shown, and computed again next time.
        let _ = store.keep_review(id, &reviewed);
    }
    let title = format!("Review · {}", settings_title(&settings));
    let mut screen = ReplayScreen::new(title, &replay, Some(&reviewed), colour);
    show_replay(terminal, &mut screen)
}

fn settings_title(settings: &Settings) -> String {
    let geometry = settings.geometry();
    let [x, o] = tictactoe_core::rules::names_of(settings);
    format!(
        "{} vs {} · {n} x {n}, {k} in a row",
        seat(x.as_str(), Mark::X),
        seat(o.as_str(), Mark::O),
        n = geometry.size(),
        k = geometry.win_length()
    )
}

/// Reviews `replay` on another thread while the screen counts the moves done; `None`
/// on Ctrl-C.
fn reviewing(
    terminal: &mut Screen,
    replay: &Replay,
    advisor: &mut dyn Advisor,
) -> io::Result<Option<Review>> {
    let done = std::sync::atomic::AtomicUsize::new(0);
    let total = replay.moves().len();
    thread::scope(|scope| {
        let worker = scope.spawn(|| {
            review(replay, advisor, &mut |moves, _| {
                done.store(moves, Ordering::Relaxed);
            })
        });
        while !worker.is_finished() {
            let text = format!(
                "Reviewing with perfect play: move {} of {total}…",
                done.load(Ordering::Relaxed)
            );
            terminal.draw(|frame| {
                frame.render_widget(ratatui::widgets::Paragraph::new(text), frame.area())
            })?;
            if interrupted_within(TICK)? {
                return Ok(None);
            }
        }
        match worker.join() {
            Ok(review) => Ok(Some(review)),
            Err(panic) => panic::resume_unwind(panic),
        }
    })
}

/// One game on the screen, on the clock `keeper` keeps (told the time by `wall`), if
/// it has one: then the screen wakes up every [`TICK`] to redraw the clocks, and ends
/// the game at a side's deadline.
fn play<R: Recorder + Sync>(
    terminal: &mut Screen,
    screen: &mut GameScreen,
    game: &mut Match<R>,
    (keeper, wall): (&mut TimeKeeper, &dyn WallClock),
) -> io::Result<Result<Left, ComputerError>> {
    let watching = [Mark::X, Mark::O]
        .iter()
        .all(|&mark| matches!(game.seat(mark), Seat::Computer(_)));
    loop {
        let ended = keeper.judge(game, wall.now());
        if !ended.is_empty() {
            screen.show_events(game, ended);
        }
        screen.show_time(keeper.time_left(wall.now()));
        let computer_to_move =
            game.end().is_none() && matches!(game.seat(game.game().to_move()), Seat::Computer(_));
        if computer_to_move {
            let events = match think(terminal, screen, game, (&*keeper, wall))? {
                Some(Ok(events)) => events,
                Some(Err(error)) => return Ok(Err(error)),
                None => return Ok(Ok(Left::Interrupted)),
            };
            // Charged when it comes: a computer's move is usually at once.
            keeper.follow(game, wall.now());
            screen.show_events(game, events);
            // Two computers: a pause between moves, so that people can follow.
            if watching
                && game.end().is_none()
                && let Some(leaving) = pause(terminal, screen, game)?
            {
                return Ok(Ok(leaving));
            }
            continue;
        }
        terminal.draw(|frame| screen.draw(frame, game, None))?;
        let area = terminal.get_frame().area();
        // On a clock, no key for a tick: the clocks are drawn again, and judged.
        if keeper.ticking(game) && !event::poll(TICK)? {
            continue;
        }
        let event = event::read()?;
        // A key after the deadline is too late: the game ends on time instead.
        let ended = keeper.judge(game, wall.now());
        if !ended.is_empty() {
            screen.show_events(game, ended);
            continue;
        }
        match event {
            TermEvent::Key(key) if key.kind == KeyEventKind::Press => {
                if game.end().is_some() {
                    match key.code {
                        KeyCode::Char('r') | KeyCode::Enter => {
                            return Ok(Ok(Left::Chose(AfterGame::PlayAgain)));
                        }
                        KeyCode::Char('s') => return Ok(Ok(Left::Chose(AfterGame::SwapSides))),
                        KeyCode::Char('m') => return Ok(Ok(Left::Chose(AfterGame::Menu))),
                        KeyCode::Char('v') => return Ok(Ok(Left::Review)),
                        _ => {}
                    }
                }
                if key.code == KeyCode::Char('?') && game.end().is_none() {
                    // On a large board the hint takes up to the thinking time: say so first.
                    screen.note("Looking for the best moves…");
                    terminal.draw(|frame| screen.draw(frame, game, None))?;
                }
                let flow = screen.on_key(game, key);
                keeper.follow(game, wall.now());
                if let Some(left) = left_by(flow) {
                    return Ok(Ok(left));
                }
            }
            TermEvent::Mouse(mouse) if mouse.kind == MouseEventKind::Down(MouseButton::Left) => {
                screen.on_click(game, area, mouse.column, mouse.row);
                keeper.follow(game, wall.now());
            }
            _ => {}
        }
    }
}

/// The computer whose turn it is thinks on another thread; meanwhile the screen shows
/// the seconds passing (and, on a clock, each side's time) and every key is dropped,
/// but Ctrl-C (`None`).
fn think<R: Recorder + Sync>(
    terminal: &mut Screen,
    screen: &GameScreen,
    game: &mut Match<R>,
    (keeper, wall): (&TimeKeeper, &dyn WallClock),
) -> io::Result<Option<Result<Vec<tictactoe_core::play::Event>, ComputerError>>> {
    let started = Instant::now();
    // While the match is busy on the other thread, the screen is what it was when
    // thinking began, with the clock on the status line moving on.
    let shown = terminal
        .draw(|frame| screen.draw(frame, game, Some(Duration::ZERO)))?
        .buffer
        .clone();
    let thinker = screen.thinker(game);
    let answer = thread::scope(|scope| -> io::Result<_> {
        let worker = scope.spawn(|| game.advance());
        while !worker.is_finished() {
            let elapsed = started.elapsed();
            terminal.draw(|frame| {
                *frame.buffer_mut() = shown.clone();
                screen.draw_clock(frame, &thinker, elapsed);
                if let Some(time) = keeper.time_left(wall.now()) {
                    screen.draw_time(frame, &time);
                }
            })?;
            if interrupted_within(TICK)? {
                return Ok(None);
            }
        }
        Ok(Some(worker.join()))
    })?;
    Ok(match answer {
        None => None,
        Some(Ok(result)) => Some(result),
        // The thinking thread panicked: report it as the panic it was.
        Some(Err(panic)) => panic::resume_unwind(panic),
    })
}

/// Lets a computer's move be seen before the other computer moves. Keys are dropped,
/// but for Ctrl-C and q (which asks first): `Some` says how the program is left.
fn pause<R: Recorder>(
    terminal: &mut Screen,
    screen: &mut GameScreen,
    game: &mut Match<R>,
) -> io::Result<Option<Left>> {
    terminal.draw(|frame| screen.draw(frame, game, None))?;
    let until = Instant::now() + COMPUTER_PAUSE;
    while let Some(left) = until.checked_duration_since(Instant::now()) {
        if !event::poll(left)? {
            break;
        }
        if let TermEvent::Key(key) = event::read()? {
            if is_interrupt(key.code, key.modifiers) {
                return Ok(Some(Left::Interrupted));
            }
            if matches!(key.code, KeyCode::Char('q') | KeyCode::Esc) {
                // Nobody's turn to wait for, so the question is asked now.
                screen.on_key(game, key);
                terminal.draw(|frame| screen.draw(frame, game, None))?;
                let answer = loop {
                    if let TermEvent::Key(answer) = event::read()?
                        && answer.kind == KeyEventKind::Press
                    {
                        break answer;
                    }
                };
                return Ok(left_by(screen.on_key(game, answer)));
            }
        }
    }
    Ok(None)
}

/// How a key left the game, if it did: a game left goes back to the menu; quitting
/// (asked for in so many words) ends the program.
fn left_by(flow: Flow) -> Option<Left> {
    match flow {
        Flow::Continue => None,
        Flow::Leave => Some(Left::Chose(AfterGame::Menu)),
        Flow::Quit => Some(Left::Chose(AfterGame::Quit)),
        Flow::Interrupt => Some(Left::Interrupted),
    }
}

/// Waits up to `wait` for a key; true if it was Ctrl-C. Any other key is dropped.
fn interrupted_within(wait: Duration) -> io::Result<bool> {
    if event::poll(wait)?
        && let TermEvent::Key(key) = event::read()?
    {
        return Ok(is_interrupt(key.code, key.modifiers));
    }
    Ok(false)
}

fn is_interrupt(code: KeyCode, modifiers: KeyModifiers) -> bool {
    modifiers.contains(KeyModifiers::CONTROL) && code == KeyCode::Char('c')
}

/// Raw mode, the alternate screen and mouse reporting, for as long as it lives; the
/// terminal as it was when it is dropped, when the program panics, or when a signal
/// that ends it arrives.
struct RawScreen;

/// The signals that end the program: each gives the terminal back first, then ends it
/// with the status a shell gives a program a signal ended (128 + the signal's number).
/// Nothing more is written to the store: a game in play stays unfinished, counted
/// nowhere, with the moves kept so far (as after a kill -9).
const ENDING_SIGNALS: [i32; 4] = [SIGTERM, SIGHUP, SIGQUIT, SIGINT];

/// Whether the terminal is in the program's hands (between entering and dropping a
/// [`RawScreen`]): a signal then gives it back before the program ends.
static ACTIVE: AtomicBool = AtomicBool::new(false);

impl RawScreen {
    fn enter() -> io::Result<Self> {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        watch_signals()?;
        ACTIVE.store(true, Ordering::SeqCst);
        enable_raw_mode()?;
        // Cleared with a plain escape code: ratatui's own clear asks the terminal where
        // the cursor is, which not every terminal answers.
        execute!(
            io::stdout(),
            EnterAlternateScreen,
            EnableMouseCapture,
            Clear(ClearType::All)
        )?;
        Ok(RawScreen)
    }
}

impl Drop for RawScreen {
    fn drop(&mut self) {
        restore();
    }
}

/// A thread that waits for the signals that end the program, for the rest of its life
/// (signal-hook's iterator: the handler itself only wakes the thread, so the work is
/// done outside the signal handler). Started once.
fn watch_signals() -> io::Result<()> {
    static WATCHING: AtomicBool = AtomicBool::new(false);
    if WATCHING.swap(true, Ordering::SeqCst) {
        return Ok(());
    }
    let mut signals = Signals::new(ENDING_SIGNALS)?;
    thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                if ACTIVE.load(Ordering::SeqCst) {
                    // Whatever the game was drawing, these sequences come after it.
                    let _lock = io::stdout().lock();
                    restore();
                }
                std::process::exit(128 + signal);
            }
        })?;
    Ok(())
}

fn restore() {
    ACTIVE.store(false, Ordering::SeqCst);
    let _ = execute!(
        io::stdout(),
        DisableMouseCapture,
        LeaveAlternateScreen,
        ratatui::crossterm::cursor::Show
    );
    let _ = disable_raw_mode();
}
