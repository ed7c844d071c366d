//! What the command line asks for, built into the values the program runs with.
//!
//! `cli.rs` says which flags exist and parses each one alone; this module checks them
//! together (a run longer than the board, two people with one name, a person in a
//! simulation) and resolves defaults (the scoreboard's folder, the seed, the thinking
//! time). `main.rs` then only wires adapters to the result. No adapter is named here.

use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use tictactoe_core::domain::{Geometry, Mark};
use tictactoe_core::play::{Settings, SettingsError};
use tictactoe_core::players::{Level, PlayerSpec};
use tictactoe_core::ports::StoreError;
use tictactoe_players::MinimaxAI;

use crate::cli::{AnalyzeArgs, Cli, Command, PlayArgs, ScoresArgs, ServeArgs, SimulateArgs};

/// Everything a run needs, checked.
#[derive(Debug)]
pub struct Config {
    pub scoreboard: Scoreboard,
    /// Seeds every random choice of the run.
    pub seed: u64,
    /// How long Impossible thinks per move.
    pub think: Duration,
    /// `--plain`: the line-by-line console even on a terminal.
    pub plain: bool,
    pub task: Task,
}

/// Where the scoreboard file is, and how it was chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scoreboard {
    pub path: PathBuf,
    /// Named with `--scoreboard` or `TICTACTOE_SCOREBOARD`, not the platform's default.
    pub chosen: bool,
}

impl Scoreboard {
    /// The command a person runs to move an unreadable file aside: it names the file
    /// whenever the file is not the default one.
    pub fn reset_command(&self) -> String {
        if self.chosen {
            format!(
                "tictactoe scores --reset --scoreboard '{}'",
                self.path.display()
            )
        } else {
            "tictactoe scores --reset".to_string()
        }
    }
}

#[derive(Debug)]
pub enum Task {
    Menu,
    Play(Settings),
    Scores {
        json: bool,
        reset: Option<Confirm>,
    },
    Analyze {
        geometry: Geometry,
        first: Mark,
        json: bool,
        /// Empty: read boards from standard input.
        boards: Vec<String>,
    },
    Simulate {
        levels: [Level; 2],
        geometry: Geometry,
        first: Mark,
        games: u64,
        json: bool,
    },
    /// A web server on `bind`:`port` (port 0: any free one).
    Serve {
        port: u16,
        bind: IpAddr,
    },
}

/// Whether `scores --reset` asks first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirm {
    /// `--yes`: clear without asking.
    Given,
    /// Ask the person at the terminal.
    Ask,
}

/// A command line whose flags parse one by one but not together. `subcommand` names the
/// command whose usage should be shown with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError {
    pub subcommand: &'static str,
    pub message: String,
}

/// Why a run cannot start.
#[derive(Debug)]
pub enum ConfigError {
    Usage(UsageError),
    Store(StoreError),
}

impl Config {
    /// Builds the configuration; `default_folder` is the platform's data folder, if any.
    pub fn build(cli: Cli, default_folder: Option<PathBuf>) -> Result<Config, ConfigError> {
        let scoreboard = match cli.scoreboard.filter(|p| !p.as_os_str().is_empty()) {
            Some(path) => Scoreboard { path, chosen: true },
            None => Scoreboard {
                path: default_folder
                    .ok_or(ConfigError::Store(StoreError::NoLocation))?
                    .join("scores.json"),
                chosen: false,
            },
        };
        let task = match cli.command {
            None => Task::Menu,
            Some(Command::Play(args)) => play(args)?,
            Some(Command::Scores(ScoresArgs { json, reset, yes })) => Task::Scores {
                json,
                reset: reset.then_some(if yes { Confirm::Given } else { Confirm::Ask }),
            },
            Some(Command::Analyze(args)) => analyze(args)?,
            Some(Command::Simulate(args)) => simulate(args)?,
            Some(Command::Serve(ServeArgs { port, bind })) => Task::Serve { port, bind },
        };
        // `analyze` answers the same every time unless told otherwise: seed 0.
        let seed = match (&task, cli.seed) {
            (_, Some(seed)) => seed,
            (Task::Analyze { .. }, None) => 0,
            (_, None) => rand::random(),
        };
        // `analyze` answers exactly unless told how long it may take; every other
        // command gives Impossible a second a move unless told otherwise.
        let think = match (&task, cli.think_ms) {
            (_, Some(ms)) => Duration::from_millis(ms),
            (Task::Analyze { .. }, None) => Duration::MAX,
            (_, None) => MinimaxAI::<rand::rngs::StdRng>::DEFAULT_BUDGET,
        };
        Ok(Config {
            scoreboard,
            seed,
            think,
            plain: cli.plain,
            task,
        })
    }
}

fn usage(subcommand: &'static str, message: impl Into<String>) -> ConfigError {
    ConfigError::Usage(UsageError {
        subcommand,
        message: message.into(),
    })
}

fn geometry(
    subcommand: &'static str,
    board: &crate::cli::BoardArgs,
) -> Result<Geometry, ConfigError> {
    board
        .geometry()
        .map_err(|error| usage(subcommand, error.to_string()))
}

fn play(args: PlayArgs) -> Result<Task, ConfigError> {
    let geometry = geometry("play", &args.board)?;
    match Settings::new(args.x, args.o, args.first.into(), geometry) {
        Ok(settings) => Ok(Task::Play(settings)),
        Err(SettingsError::SameName(name)) => Err(usage(
            "play",
            format!("both players are called {name}: give them different names"),
        )),
    }
}

fn analyze(args: AnalyzeArgs) -> Result<Task, ConfigError> {
    Ok(Task::Analyze {
        geometry: geometry("analyze", &args.board)?,
        first: args.first.into(),
        json: args.json,
        boards: args.boards,
    })
}

fn simulate(args: SimulateArgs) -> Result<Task, ConfigError> {
    let levels = match (&args.x, &args.o) {
        (PlayerSpec::Computer(x), PlayerSpec::Computer(o)) => [*x, *o],
        _ => {
            return Err(usage(
                "simulate",
                "simulate plays computers only: use random, easy, medium or impossible",
            ));
        }
    };
    Ok(Task::Simulate {
        levels,
        geometry: geometry("simulate", &args.board)?,
        first: args.first.into(),
        games: args.games,
        json: args.json,
    })
}

/// Whether to colour the output: `CLICOLOR_FORCE` (set, not empty, not `0`) forces it;
/// otherwise `NO_COLOR` (set and not empty) or `TERM=dumb` turn it off; otherwise only a
/// terminal gets colour. `var` reads the environment.
pub fn colour_wanted(var: impl Fn(&str) -> Option<String>, stdout_is_terminal: bool) -> bool {
    let set = |name: &str| var(name).is_some_and(|value| !value.is_empty());
    if set("CLICOLOR_FORCE") && var("CLICOLOR_FORCE").as_deref() != Some("0") {
        return true;
    }
    if set("NO_COLOR") || var("TERM").as_deref() == Some("dumb") {
        return false;
    }
    stdout_is_terminal
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, FromArgMatches};

    use super::*;

    /// The command line as typed, and nothing else: flags that may also come from the
    /// environment (`TICTACTOE_SCOREBOARD`) read none here, so these tests pass whatever
    /// the person running them has set.
    fn parse(args: &[&str]) -> Cli {
        let command = Cli::command().mut_args(|arg| arg.env(None));
        let matches = command
            .try_get_matches_from(std::iter::once("tictactoe").chain(args.iter().copied()))
            .expect("flags that parse");
        Cli::from_arg_matches(&matches).expect("flags that parse")
    }

    fn build(args: &[&str]) -> Result<Config, ConfigError> {
        Config::build(parse(args), Some(PathBuf::from("/data")))
    }

    fn usage_error(args: &[&str]) -> UsageError {
        match build(args) {
            Err(ConfigError::Usage(error)) => error,
            other => panic!("expected a usage error, got {other:?}"),
        }
    }

    #[test]
    fn the_default_scoreboard_is_in_the_data_folder_and_reset_plainly() {
        let config = build(&["scores"]).unwrap();

        assert_eq!(config.scoreboard.path, PathBuf::from("/data/scores.json"));
        assert_eq!(
            config.scoreboard.reset_command(),
            "tictactoe scores --reset"
        );
    }

    #[test]
    fn a_chosen_scoreboard_is_named_in_the_command_that_resets_it() {
        let config = build(&["--scoreboard", "/tmp/s.json", "scores"]).unwrap();

        assert_eq!(
            config.scoreboard.reset_command(),
            "tictactoe scores --reset --scoreboard '/tmp/s.json'"
        );
    }

    #[test]
    fn without_a_data_folder_or_a_choice_there_is_no_scoreboard() {
        let cli = parse(&["scores"]);

        let result = Config::build(cli, None);

        assert!(matches!(
            result,
            Err(ConfigError::Store(StoreError::NoLocation))
        ));
    }

    #[test]
    fn a_run_longer_than_the_board_is_a_usage_error_of_that_command() {
        let error = usage_error(&["analyze", "--size", "4", "--win", "5"]);

        assert_eq!(error.subcommand, "analyze");
        assert!(
            error
                .message
                .contains("from 3 to the board size (4), not 5")
        );
    }

    #[test]
    fn two_people_with_one_name_whatever_its_case_cannot_play() {
        let error = usage_error(&["play", "--x", "human:Ada", "--o", "human:ADA"]);

        assert_eq!(error.subcommand, "play");
    }

    #[test]
    fn a_simulation_refuses_people() {
        let error = usage_error(&["simulate", "--x", "human", "--o", "easy"]);

        assert_eq!(error.subcommand, "simulate");
    }

    #[test]
    fn a_server_listens_on_loopback_port_8080_unless_told_otherwise() {
        let config = build(&["serve"]).unwrap();

        assert!(matches!(
            config.task,
            Task::Serve { port: 8080, bind } if bind.is_loopback()
        ));
        assert!(matches!(
            build(&["serve", "--bind", "0.0.0.0", "--port", "0"]).unwrap().task,
            Task::Serve { port: 0, bind } if bind.is_unspecified()
        ));
    }

    #[test]
    fn analyze_is_reproducible_unless_given_a_seed() {
        assert_eq!(build(&["analyze", "x........"]).unwrap().seed, 0);
        assert_eq!(build(&["--seed", "9", "analyze"]).unwrap().seed, 9);
    }

    #[rstest::rstest]
    #[case::a_terminal(&[], true, true)]
    #[case::a_pipe(&[], false, false)]
    #[case::no_color(&[("NO_COLOR", "1")], true, false)]
    #[case::no_color_set_but_empty(&[("NO_COLOR", "")], true, true)]
    #[case::a_dumb_terminal(&[("TERM", "dumb")], true, false)]
    #[case::forced_into_a_pipe(&[("CLICOLOR_FORCE", "1")], false, true)]
    #[case::forced_beats_no_color(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")], false, true)]
    #[case::force_zero_forces_nothing(&[("CLICOLOR_FORCE", "0")], false, false)]
    fn colour_follows_the_usual_conventions(
        #[case] environment: &[(&str, &str)],
        #[case] terminal: bool,
        #[case] expected: bool,
    ) {
        let var = |name: &str| {
            environment
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| value.to_string())
        };

        assert_eq!(colour_wanted(var, terminal), expected);
    }

    #[test]
    fn analyze_has_no_time_limit_unless_given_one() {
        assert_eq!(
            build(&["analyze", "x........"]).unwrap().think,
            Duration::MAX
        );
        assert_eq!(
            build(&["--think-ms", "50", "analyze", "x........"])
                .unwrap()
                .think,
            Duration::from_millis(50)
        );
    }

    #[test]
    fn thinking_time_defaults_to_a_second() {
        assert_eq!(
            build(&["scores"]).unwrap().think,
            Duration::from_millis(1000)
        );
        assert_eq!(
            build(&["--think-ms", "50", "scores"]).unwrap().think,
            Duration::from_millis(50)
        );
    }
}
