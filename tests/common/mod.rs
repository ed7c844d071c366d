//! What the end-to-end tests share: the built program, started without the caller's
//! settings, and `tictactoe serve` started on a free port.
//!
//! Each test file is a test binary of its own that includes this module (`mod common;`)
//! and uses what it needs of it.

// A helper that one test binary does not use is not dead: another uses it.
#![allow(dead_code)]

use std::ffi::OsString;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use tempfile::TempDir;

/// The built program.
pub const BINARY: &str = env!("CARGO_BIN_EXE_tictactoe");

/// The program, ready to be given arguments, without the caller's settings: none of
/// the `TICTACTOE_*` variables of the environment the tests run in (a
/// `TICTACTOE_SCOREBOARD` or `TICTACTOE_DB` left set would change what the program
/// does, and what a test checks), and colour neither forced on nor off
/// (`CLICOLOR_FORCE`, `NO_COLOR`). A test that means to set one sets it after.
pub fn program() -> Command {
    let mut command = Command::new(BINARY);
    without_settings(&mut command);
    command
}

/// `command` (the program, or a shell that starts it) without the caller's settings
/// (see [`program`]).
pub fn without_settings(command: &mut Command) -> &mut Command {
    for name in settings_in_the_environment() {
        command.env_remove(name);
    }
    command
}

/// The variables of this process's environment that the program reads as settings.
fn settings_in_the_environment() -> Vec<OsString> {
    std::env::vars_os()
        .map(|(name, _)| name)
        .filter(|name| {
            name.to_str().is_some_and(|name| {
                name.starts_with("TICTACTOE_") || name == "CLICOLOR_FORCE" || name == "NO_COLOR"
            })
        })
        .collect()
}

/// [`program`] as an `assert_cmd` command, to check what it prints and how it exits.
pub fn tictactoe() -> assert_cmd::Command {
    assert_cmd::Command::from_std(program())
}

/// [`tictactoe`] on the database at `database` (`--db`).
pub fn tictactoe_on(database: &Path) -> assert_cmd::Command {
    let mut command = tictactoe();
    command.arg("--db").arg(database);
    command
}

/// The words of `line`, split at its spaces: a command line's arguments written as one
/// (`words("play --x human:Ada --o human:Bob --size 4")`), none of them holding a space.
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// The program run with the arguments of `line` ([`words`]) to its end: what it printed
/// and how it exited.
pub fn output_of(line: &str) -> std::process::Output {
    tictactoe().args(words(line)).output().unwrap()
}

/// The program run with the arguments of `line` ([`words`]), to assert on.
pub fn run(line: &str) -> assert_cmd::assert::Assert {
    tictactoe().args(words(line)).assert()
}

/// Each line of `output` (a command's standard output) as JSON.
pub fn json_lines(output: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// What `command` printed, each line as JSON; it must succeed.
pub fn json_lines_of(command: &mut assert_cmd::Command) -> Vec<serde_json::Value> {
    let output = command.output().unwrap();
    assert!(output.status.success(), "{output:?}");
    json_lines(&output.stdout)
}

/// Asserts that `run` is the program stopped before it did anything: it exits 1, prints
/// nothing on standard output, and says each of `words` on standard error.
pub fn stopped_saying(run: assert_cmd::assert::Assert, words: &[&str]) {
    let said = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    run.code(1).stdout("");
    for word in words {
        assert!(said.contains(word), "{word:?} not in {said:?}");
    }
}

/// A database of a test's own: `games.db` in a temporary folder, removed with it (the
/// file is made by the first command that writes).
pub struct Database {
    pub folder: TempDir,
    pub path: PathBuf,
}

impl Database {
    pub fn new() -> Self {
        let folder = TempDir::new().unwrap();
        let path = folder.path().join("games.db");
        Database { folder, path }
    }

    /// [`tictactoe`] on this database.
    pub fn tictactoe(&self) -> assert_cmd::Command {
        tictactoe_on(&self.path)
    }

    /// Ada (X, moving first) loses to Impossible on 3 x 3, line by line: she plays the
    /// first free cell of 5, 1, 2, 3, ... each turn, and so throws the draw away once.
    /// What the console printed.
    pub fn ada_loses_to_impossible(&self) -> String {
        let output = self
            .tictactoe()
            .args(words("--plain play --x human:Ada --o impossible"))
            .write_stdin("5\n1\n2\n3\n4\n6\n7\n8\n9\n")
            .output()
            .expect("the program runs");
        assert!(output.status.success(), "{output:?}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// [`Database::ada_loses_to_impossible`], and the game reviewed: one training
    /// puzzle of hers.
    pub fn with_one_slip_of_adas(&self) {
        self.ada_loses_to_impossible();
        self.run(&["replay", "last", "--review"]).success();
    }

    /// The program on this database, run with the words of `command` and `typed` as
    /// what the person types, to a successful end.
    pub fn played(&self, command: &str, typed: &str) {
        self.tictactoe()
            .args(words(command))
            .write_stdin(typed)
            .assert()
            .success();
    }

    /// The program on this database, run with `args`, to assert on.
    pub fn run(&self, args: &[&str]) -> assert_cmd::assert::Assert {
        self.tictactoe().args(args).assert()
    }

    /// The program on this database, run with `args` to its end: what it printed and
    /// how it exited.
    pub fn output(&self, args: &[&str]) -> std::process::Output {
        self.tictactoe().args(args).output().unwrap()
    }
}

/// `tictactoe --db DATABASE serve --port 0`, with `more` of `serve`'s flags, started:
/// the server, and the address it said it serves on (read from the first line it
/// prints, so the server is listening once this returns). Its standard error goes to
/// `stderr`.
pub fn serve(database: &str, more: &[&str], stderr: Stdio) -> (Child, String) {
    let mut child = program()
        .args(["--db", database, "serve", "--port", "0"])
        .args(more)
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("the program starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("its output"))
        .read_line(&mut line)
        .expect("its first line");
    let address = line
        .trim()
        .strip_prefix("Serving Tic Tac Toe on ")
        .unwrap_or_else(|| panic!("the server did not start: {line:?}"))
        .to_string();
    (child, address)
}
