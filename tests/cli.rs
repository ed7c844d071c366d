//! The built program, as people and scripts use it.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::{Value, json};
use tempfile::TempDir;

fn tictactoe(scoreboard: &Path) -> Command {
    let mut command = Command::cargo_bin("tictactoe").unwrap();
    command
        .arg("--scoreboard")
        .arg(scoreboard)
        .env_remove("TICTACTOE_SCOREBOARD")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("NO_COLOR");
    command
}

fn scoreboard_in(folder: &TempDir) -> PathBuf {
    folder.path().join("scores.json")
}

fn scores_json(scoreboard: &Path) -> Value {
    let output = tictactoe(scoreboard)
        .args(["scores", "--json"])
        .output()
        .unwrap();
    assert!(output.status.success());
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn a_computer_game_plays_to_the_end_and_is_recorded_for_both_sides() {
    let folder = TempDir::new().unwrap();
    let scoreboard = scoreboard_in(&folder);

    tictactoe(&scoreboard)
        .args(["play", "--x", "impossible", "--o", "medium", "--seed", "3"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Computer (Impossible) (X) vs Computer (Medium) (O)",
        ));

    let players = scores_json(&scoreboard)["players"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(players.len(), 2);
    for player in &players {
        assert_eq!(player["games"], 1, "{player}");
    }
    assert_eq!(
        players
            .iter()
            .map(|p| p["wins"].as_u64().unwrap())
            .sum::<u64>()
            * 2
            + players
                .iter()
                .map(|p| p["ties"].as_u64().unwrap())
                .sum::<u64>(),
        2
    );
}

#[test]
fn scores_json_has_exactly_the_documented_shape() {
    let folder = TempDir::new().unwrap();
    let scoreboard = scoreboard_in(&folder);
    tictactoe(&scoreboard)
        .args(["play", "--x", "human:Ada", "--o", "human:Bob"])
        .write_stdin("1\n4\n2\n5\n3\n")
        .assert()
        .success();

    let output = tictactoe(&scoreboard)
        .args(["scores", "--json"])
        .output()
        .unwrap();

    let expected = json!({"players": [
        {"name": "Ada", "wins": 1, "losses": 0, "ties": 0, "games": 1},
        {"name": "Bob", "wins": 0, "losses": 1, "ties": 0, "games": 1},
    ]});
    assert_eq!(
        serde_json::from_slice::<Value>(&output.stdout).unwrap(),
        expected
    );
}

#[test]
fn the_same_seed_replays_the_same_game() {
    let run = || {
        let folder = TempDir::new().unwrap();
        let output = tictactoe(&scoreboard_in(&folder))
            .args(["play", "--x", "random", "--o", "easy", "--seed", "42"])
            .output()
            .unwrap();
        String::from_utf8(output.stdout).unwrap()
    };

    assert_eq!(run(), run());
}

#[test]
fn a_human_game_fed_through_stdin_survives_every_kind_of_bad_input() {
    let folder = TempDir::new().unwrap();
    let scoreboard = scoreboard_in(&folder);
    let mut input = b"abc\n0\n10\n-1\n\nh\n".to_vec();
    input.extend(vec![b'7'; 100_000]);
    input.extend(b"\n\xff\xfe\x00\n1\n1\n4\nb1\n5\nc1\n".as_slice());

    tictactoe(&scoreboard)
        .args(["play", "--x", "human:Ada", "--o", "human:Bob"])
        .write_stdin(input)
        .assert()
        .success()
        .stdout(predicate::str::contains("\"abc\" is not a cell"))
        .stdout(predicate::str::contains(
            "there is no cell 0: choose 1 to 9",
        ))
        .stdout(predicate::str::contains("there is no cell 10"))
        .stdout(predicate::str::contains("there is no cell -1"))
        .stdout(predicate::str::contains(
            "there is no cell 77777777777777777777…",
        ))
        .stdout(predicate::str::contains("cell 1 is already taken"))
        .stdout(predicate::str::contains("Ada (X) wins!"));

    assert_eq!(scores_json(&scoreboard)["players"][0]["wins"], 1);
}

#[test]
fn quitting_mid_game_records_nothing() {
    let folder = TempDir::new().unwrap();
    let scoreboard = scoreboard_in(&folder);

    tictactoe(&scoreboard)
        .args(["play", "--x", "human", "--o", "impossible"])
        .write_stdin("5\nq\n")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Player X left. This game is not counted.",
        ));

    assert!(!scoreboard.exists());
}

#[test]
fn input_ending_mid_game_stops_cleanly_records_nothing_and_exits_1() {
    let folder = TempDir::new().unwrap();
    let scoreboard = scoreboard_in(&folder);

    tictactoe(&scoreboard)
        .args(["play", "--x", "human", "--o", "impossible"])
        .write_stdin("5\n")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("Input ended"));

    assert!(!scoreboard.exists());
}

#[test]
fn unknown_players_and_flags_are_usage_errors() {
    let folder = TempDir::new().unwrap();
    let scoreboard = scoreboard_in(&folder);

    tictactoe(&scoreboard)
        .args(["play", "--x", "grandmaster", "--o", "easy"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown player \"grandmaster\""));
    tictactoe(&scoreboard)
        .args(["play", "--x", "easy"])
        .assert()
        .code(2);
    tictactoe(&scoreboard)
        .args(["play", "--x", "easy", "--o", "easy", "--first", "z"])
        .assert()
        .code(2);
    tictactoe(&scoreboard)
        .args(["scores", "--frobnicate"])
        .assert()
        .code(2);
}

#[test]
fn an_empty_scoreboard_says_so() {
    let folder = TempDir::new().unwrap();
    let scoreboard = scoreboard_in(&folder);

    tictactoe(&scoreboard)
        .arg("scores")
        .assert()
        .success()
        .stdout("No games recorded yet.\n");
    assert_eq!(scores_json(&scoreboard), json!({"players": []}));
}

#[test]
fn a_damaged_scoreboard_is_reported_left_alone_and_does_not_stop_play() {
    let folder = TempDir::new().unwrap();
    let scoreboard = scoreboard_in(&folder);
    fs::write(&scoreboard, "{ not json").unwrap();
    let named = scoreboard.display().to_string();

    // The way out names this very file, which was chosen with --scoreboard.
    let fix = format!("tictactoe scores --reset --scoreboard '{named}'");

    tictactoe(&scoreboard)
        .arg("scores")
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains(named.as_str()).and(predicate::str::contains(fix.as_str())),
        );
    tictactoe(&scoreboard)
        .args(["play", "--x", "easy", "--o", "easy", "--seed", "1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("warning").not())
        .stderr(
            predicate::str::contains("warning: the result was not saved")
                .and(predicate::str::contains(named.as_str()))
                .and(predicate::str::contains(fix.as_str())),
        );

    assert_eq!(fs::read_to_string(&scoreboard).unwrap(), "{ not json");
}

#[test]
fn reset_moves_a_damaged_scoreboard_aside_and_says_where() {
    let folder = TempDir::new().unwrap();
    let scoreboard = scoreboard_in(&folder);
    fs::write(&scoreboard, "{ not json").unwrap();

    tictactoe(&scoreboard)
        .args(["scores", "--reset", "--yes"])
        .assert()
        .success()
        .stderr(predicate::str::contains("scores.json.unreadable-"));

    assert_eq!(scores_json(&scoreboard), json!({"players": []}));
}

/// One game of Random against itself, the same every time: a quick way to record a result.
const RANDOM_GAME: [&str; 7] = ["play", "--x", "random", "--o", "random", "--seed", "9"];

/// A scoreboard holding one recorded game, and its bytes.
fn one_game_recorded(scoreboard: &Path) -> Vec<u8> {
    tictactoe(scoreboard).args(RANDOM_GAME).assert().success();
    fs::read(scoreboard).unwrap()
}

#[test]
fn reset_without_a_terminal_to_ask_needs_yes_and_changes_nothing_without_it() {
    let folder = TempDir::new().unwrap();
    let scoreboard = scoreboard_in(&folder);
    let before = one_game_recorded(&scoreboard);

    tictactoe(&scoreboard)
        .args(["scores", "--reset"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("add --yes"));

    assert_eq!(fs::read(&scoreboard).unwrap(), before);
}

#[test]
fn reset_keeps_the_old_scores_in_a_file_beside_the_new_one() {
    let folder = TempDir::new().unwrap();
    let scoreboard = scoreboard_in(&folder);
    let before = one_game_recorded(&scoreboard);

    tictactoe(&scoreboard)
        .args(["scores", "--reset", "--yes", "--json"])
        .assert()
        .success()
        .stdout("{\"players\":[]}\n")
        .stderr(predicate::str::contains("the old one is kept as"));

    let kept: Vec<_> = fs::read_dir(folder.path())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.to_string_lossy().contains(".before-reset-"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(fs::read(&kept[0]).unwrap(), before);
}

#[test]
fn a_folder_named_as_the_scoreboard_is_refused_and_left_alone() {
    let folder = TempDir::new().unwrap();

    tictactoe(folder.path())
        .arg("scores")
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "is a folder: the scoreboard must be a file",
        ));
    tictactoe(folder.path())
        .args(RANDOM_GAME)
        .assert()
        .success()
        .stderr(predicate::str::contains("is a folder"));

    let lock_beside_it = PathBuf::from(format!("{}.lock", folder.path().display()));
    assert!(!lock_beside_it.exists());
}

#[test]
fn an_empty_file_is_a_new_empty_scoreboard() {
    let folder = TempDir::new().unwrap();
    let scoreboard = scoreboard_in(&folder);
    fs::write(&scoreboard, "").unwrap();

    tictactoe(&scoreboard)
        .arg("scores")
        .assert()
        .success()
        .stdout("No games recorded yet.\n");
    tictactoe(&scoreboard)
        .args(RANDOM_GAME)
        .assert()
        .success()
        .stderr("");

    assert_eq!(
        scores_json(&scoreboard)["players"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn the_scoreboard_location_can_come_from_the_environment() {
    let folder = TempDir::new().unwrap();
    let scoreboard = scoreboard_in(&folder);

    Command::cargo_bin("tictactoe")
        .unwrap()
        .env("TICTACTOE_SCOREBOARD", &scoreboard)
        .args(RANDOM_GAME)
        .assert()
        .success();

    assert!(scoreboard.exists());
}

#[test]
fn colour_is_off_when_piped_or_with_no_color_and_on_when_forced() {
    let folder = TempDir::new().unwrap();
    let scoreboard = scoreboard_in(&folder);
    let game = ["play", "--x", "impossible", "--o", "random", "--seed", "4"];
    let escape = predicate::str::contains("\u{1b}[");

    tictactoe(&scoreboard)
        .args(game)
        .assert()
        .stdout(escape.clone().not());
    tictactoe(&scoreboard)
        .env("NO_COLOR", "1")
        .args(game)
        .assert()
        .stdout(escape.clone().not());
    tictactoe(&scoreboard)
        .env("CLICOLOR_FORCE", "1")
        .args(game)
        .assert()
        .stdout(escape.and(predicate::str::contains("[X]").not()));
}

#[test]
fn the_menu_plays_a_game_against_the_computer_then_quits() {
    let folder = TempDir::new().unwrap();
    let scoreboard = scoreboard_in(&folder);
    // Human vs Computer, Ada plays X, Impossible, 3 x 3, X first (all defaults); then
    // Ada tries every cell in turn (taken ones are refused), and finally declines
    // another game.
    let input = "2\n\nAda\n\n\n\n1\n2\n3\n4\n5\n6\n7\n8\n9\nn\n";

    tictactoe(&scoreboard)
        .write_stdin(input)
        .assert()
        .success()
        .stdout(predicate::str::contains("Choose a game:"))
        .stdout(predicate::str::contains(
            "Ada (X) vs Computer (Impossible) (O)",
        ))
        .stdout(predicate::str::contains("Thanks for playing!"));

    let players = scores_json(&scoreboard)["players"].clone();
    let ada = players
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Ada")
        .unwrap()
        .clone();
    assert_eq!(
        (ada["games"].clone(), ada["wins"].clone()),
        (json!(1), json!(0)),
        "Impossible never loses"
    );
}

#[test]
fn input_ending_at_the_menu_leaves_cleanly() {
    let folder = TempDir::new().unwrap();

    tictactoe(&scoreboard_in(&folder))
        .write_stdin("")
        .assert()
        .success()
        .stdout(predicate::str::contains("Input ended"));
}
