//! The composition root: reads the command line, builds the concrete parts, plugs them
//! into the application, and turns the outcome into an exit status. No game logic here.

mod cli;

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::{Duration, Instant};

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use indicatif::{ProgressBar, ProgressDrawTarget};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tictactoe::adapters::{
    ConsoleInput, ConsoleRenderer, JsonFileStore, report_json, scoreboard_json, tally_json,
};
use tictactoe::app::{Analyzer, GameEnd, Report, Session, Settings, analyze_all};
use tictactoe::domain::Geometry;
use tictactoe::players::{MinimaxAI, PlayerSpec, StandardPlayers, computer};
use tictactoe::ports::{Input, InputHandler, Renderer, Reset, ScoreStore, StoreError};

use crate::cli::{AnalyzeArgs, BoardArgs, Cli, Command, PlayArgs, ScoresArgs, SimulateArgs};

/// Exit status for a failure, including a `play` game whose input ended before it did.
const FAILURE: u8 = 1;
/// Exit status for bad usage: clap uses it for bad flags, `analyze` for bad boards.
const USAGE: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("tictactoe: {error}");
            ExitCode::from(FAILURE)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, Box<dyn std::error::Error>> {
    let store = JsonFileStore::new(scoreboard_path(cli.scoreboard)?);
    let seed = cli.seed.unwrap_or_else(rand::random);
    let think = Duration::from_millis(cli.think_ms);
    match cli.command {
        Some(Command::Scores(args)) => scores(&store, &args),
        Some(Command::Play(args)) => play(store, seed, think, args),
        // `move` in the analysis is reproducible by default: seed 0 unless told otherwise.
        Some(Command::Analyze(args)) => Ok(analyze(cli.seed.unwrap_or(0), think, args)),
        Some(Command::Simulate(args)) => simulate(seed, think, args),
        None => {
            let mut session = console_session(store, seed, think);
            session.run()?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

type Screen = ConsoleRenderer<io::Stdout>;
type Keyboard = ConsoleInput<io::StdinLock<'static>>;
type ConsoleSession = Session<Screen, Keyboard, JsonFileStore, StandardPlayers<Keyboard, Screen>>;

fn console_session(store: JsonFileStore, seed: u64, think: Duration) -> ConsoleSession {
    let interactive = io::stdout().is_terminal();
    // colored already honours NO_COLOR, CLICOLOR_FORCE and whether stdout is a terminal.
    let colour = colored::control::SHOULD_COLORIZE.should_colorize();
    let pause = if interactive {
        Duration::from_millis(450)
    } else {
        Duration::ZERO
    };
    let renderer = Rc::new(ConsoleRenderer::new(io::stdout(), colour).with_computer_pause(pause));
    let input = Rc::new(ConsoleInput::new(io::stdin().lock()));
    let players = StandardPlayers::new(Rc::clone(&input), Rc::clone(&renderer), seed, think);
    Session::new(renderer, input, store, players)
}

/// The board shape asked for, or a usage error (exit 2) saying the allowed range.
fn geometry(board: &BoardArgs) -> Geometry {
    board.geometry().unwrap_or_else(|error| {
        Cli::command()
            .error(ErrorKind::ValueValidation, error)
            .exit()
    })
}

fn play(
    store: JsonFileStore,
    seed: u64,
    think: Duration,
    args: PlayArgs,
) -> Result<ExitCode, Box<dyn std::error::Error>> {
    let settings = Settings {
        x: args.x,
        o: args.o,
        first: args.first.into(),
        geometry: geometry(&args.board),
    };
    if let Some(name) = settings.shared_human_name() {
        let message = format!("both players are called {name}: give them different names");
        Cli::command()
            .error(ErrorKind::ArgumentConflict, message)
            .exit();
    }
    let mut session = console_session(store, seed, think);
    Ok(match session.play_one(&settings)? {
        GameEnd::Finished(_) | GameEnd::Abandoned => ExitCode::SUCCESS,
        GameEnd::InputClosed => ExitCode::from(FAILURE),
    })
}

fn scores(
    store: &JsonFileStore,
    args: &ScoresArgs,
) -> Result<ExitCode, Box<dyn std::error::Error>> {
    if args.reset {
        match store.reset()? {
            Reset::Cleared => eprintln!("Scoreboard cleared: {}", store.path().display()),
            Reset::MovedAside(old) => eprintln!(
                "The unreadable scoreboard was moved to {}; a new one was started at {}",
                old.display(),
                store.path().display()
            ),
        }
    }
    let scoreboard = store.load()?;
    if args.json {
        println!("{}", scoreboard_json(&scoreboard));
    } else {
        let colour = colored::control::SHOULD_COLORIZE.should_colorize();
        ConsoleRenderer::new(io::stdout(), colour).show_scoreboard(&scoreboard);
    }
    Ok(ExitCode::SUCCESS)
}

fn analyze(seed: u64, think: Duration, args: AnalyzeArgs) -> ExitCode {
    let mut analyzer = Analyzer::new(geometry(&args.board), args.first.into(), || {
        MinimaxAI::impossible(StdRng::seed_from_u64(seed)).thinking_for(think)
    });
    let renderer = ConsoleRenderer::new(
        io::stdout(),
        colored::control::SHOULD_COLORIZE.should_colorize(),
    );
    let emit = |report: &Report| {
        if args.json {
            println!("{}", report_json(report));
        } else {
            renderer.show_report(report);
        }
    };
    let invalid = if args.boards.is_empty() {
        let input = ConsoleInput::new(io::stdin().lock());
        let lines = std::iter::from_fn(|| match input.read_line() {
            Input::Line(line) => Some(line),
            Input::End => None,
        });
        analyze_all(&mut analyzer, lines, emit)
    } else {
        analyze_all(&mut analyzer, args.boards, emit)
    };
    if invalid > 0 {
        ExitCode::from(USAGE)
    } else {
        ExitCode::SUCCESS
    }
}

fn simulate(
    seed: u64,
    think: Duration,
    args: SimulateArgs,
) -> Result<ExitCode, Box<dyn std::error::Error>> {
    let levels = match (&args.x, &args.o) {
        (PlayerSpec::Computer(x), PlayerSpec::Computer(o)) => [*x, *o],
        _ => {
            let message = "simulate plays computers only: use random, easy, medium or impossible";
            Cli::command()
                .error(ErrorKind::InvalidValue, message)
                .exit()
        }
    };
    let mut seeds = StdRng::seed_from_u64(seed);
    let mut players = levels.map(|level| computer(level, seeds.next_u64(), think));
    // The bar stays hidden unless the run lasts long enough to wonder about.
    let bar = ProgressBar::hidden();
    bar.set_length(args.games);
    let bar_allowed = io::stderr().is_terminal();
    let started = Instant::now();
    let geometry = geometry(&args.board);
    let tally = tictactoe::app::simulate(
        &mut players,
        geometry,
        args.first.into(),
        args.games,
        |done| {
            if done.is_multiple_of(256) {
                if bar_allowed && bar.is_hidden() && started.elapsed() > Duration::from_millis(500)
                {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                }
                bar.set_position(done);
            }
        },
    )?;
    let seconds = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    if args.json {
        println!("{}", tally_json(&tally, seconds));
    } else {
        let [x, o] = [players[0].name(), players[1].name()];
        println!(
            "{} games, {x} (X) vs {o} (O): X won {}, O won {}, {} draws, in {seconds:.3} s.",
            tally.games, tally.x_wins, tally.o_wins, tally.draws
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `--scoreboard` or `TICTACTOE_SCOREBOARD` if given, else the platform's data folder.
fn scoreboard_path(chosen: Option<PathBuf>) -> Result<PathBuf, StoreError> {
    if let Some(path) = chosen.filter(|p| !p.as_os_str().is_empty()) {
        return Ok(path);
    }
    directories::ProjectDirs::from("", "", "tictactoe")
        .map(|dirs| dirs.data_dir().join("scores.json"))
        .ok_or(StoreError::NoLocation)
}
