//! The composition root: reads the command line, builds the concrete parts, plugs them
//! into the application, and turns the outcome into an exit status. No game logic here.

mod cli;

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::Duration;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use tictactoe::adapters::{ConsoleInput, ConsoleRenderer, JsonFileStore, scoreboard_json};
use tictactoe::app::{GameEnd, Session, Settings};
use tictactoe::domain::Geometry;
use tictactoe::players::StandardPlayers;
use tictactoe::ports::{Renderer, Reset, ScoreStore, StoreError};

use crate::cli::{Cli, Command, PlayArgs, ScoresArgs};

/// Exit status when a game asked for on the command line could not finish because its
/// input ended. (Usage errors exit 2, through clap.)
const FAILURE: u8 = 1;

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
    match cli.command {
        Some(Command::Scores(args)) => scores(&store, &args),
        Some(Command::Play(args)) => play(store, seed, args),
        None => {
            let mut session = console_session(store, seed);
            session.run()?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

type Screen = ConsoleRenderer<io::Stdout>;
type Keyboard = ConsoleInput<io::StdinLock<'static>>;
type ConsoleSession = Session<Screen, Keyboard, JsonFileStore, StandardPlayers<Keyboard, Screen>>;

fn console_session(store: JsonFileStore, seed: u64) -> ConsoleSession {
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
    let players = StandardPlayers::new(Rc::clone(&input), Rc::clone(&renderer), seed);
    Session::new(renderer, input, store, players)
}

fn play(
    store: JsonFileStore,
    seed: u64,
    args: PlayArgs,
) -> Result<ExitCode, Box<dyn std::error::Error>> {
    let settings = Settings {
        x: args.x,
        o: args.o,
        first: args.first.into(),
        geometry: Geometry::classic(),
    };
    if let Some(name) = settings.shared_human_name() {
        let message = format!("both players are called {name}: give them different names");
        Cli::command()
            .error(ErrorKind::ArgumentConflict, message)
            .exit();
    }
    let mut session = console_session(store, seed);
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

/// `--scoreboard` or `TICTACTOE_SCOREBOARD` if given, else the platform's data folder.
fn scoreboard_path(chosen: Option<PathBuf>) -> Result<PathBuf, StoreError> {
    if let Some(path) = chosen.filter(|p| !p.as_os_str().is_empty()) {
        return Ok(path);
    }
    directories::ProjectDirs::from("", "", "tictactoe")
        .map(|dirs| dirs.data_dir().join("scores.json"))
        .ok_or(StoreError::NoLocation)
}
