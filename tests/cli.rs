//! The built program, as people and scripts use it.

use std::fs;
use std::path::{Path, PathBuf};

use predicates::prelude::*;
use serde_json::{Value, json};
use tempfile::TempDir;

use common::{Database, stopped_saying, tictactoe, tictactoe_on};

mod common;

/// What these tests do with a database of their own.
impl Database {
    /// A database with one game counted (see [`Database::one_game_recorded`]), and its
    /// bytes.
    fn with_one_game() -> (Database, Vec<u8>) {
        let db = Database::new();
        db.one_game_recorded();
        let bytes = fs::read(&db.path).unwrap();
        (db, bytes)
    }

    /// A database where Ada (X) beat Bob (O), the moves typed ([`ADA_WINS`]).
    fn where_ada_beat_bob() -> Database {
        let db = Database::new();
        db.play("human:Ada", "human:Bob", ADA_WINS)
            .assert()
            .success();
        db
    }

    /// `play` between `x` and `o` on this database, `typed` being what people type.
    fn play(&self, x: &str, o: &str, typed: impl Into<Vec<u8>>) -> assert_cmd::Command {
        let mut command = self.tictactoe();
        command
            .args(["play", "--x", x, "--o", o])
            .write_stdin(typed);
        command
    }

    /// The scoreboard, as `scores --json` prints it.
    fn scores(&self) -> Value {
        scores_json(&self.path)
    }

    /// One more game counted (Random against itself), and the scoreboard after it.
    fn one_game_recorded(&self) -> Value {
        self.run(&RANDOM_GAME).success();
        self.scores()
    }
}

/// Ada (X) and Bob (O) type these moves: X takes the top row on the fifth.
const ADA_WINS: &str = "1\n4\n2\n5\n3\n";

fn scores_json(scoreboard: &Path) -> Value {
    let output = tictactoe_on(scoreboard)
        .args(["scores", "--json"])
        .output()
        .unwrap();
    assert!(output.status.success());
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn a_computer_game_plays_to_the_end_and_is_recorded_for_both_sides() {
    let db = Database::new();

    db.run(&["play", "--x", "impossible", "--o", "medium", "--seed", "3"])
        .success()
        .stdout(predicate::str::contains(
            "Computer (Impossible, X) vs Computer (Medium, O)",
        ));

    let players = db.scores()["players"].as_array().unwrap().clone();
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
    let db = Database::where_ada_beat_bob();

    let output = db.tictactoe().args(["scores", "--json"]).output().unwrap();

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
        let output = Database::new()
            .tictactoe()
            .args(["play", "--x", "random", "--o", "easy", "--seed", "42"])
            .output()
            .unwrap();
        String::from_utf8(output.stdout).unwrap()
    };

    assert_eq!(run(), run());
}

#[test]
fn a_human_game_fed_through_stdin_survives_every_kind_of_bad_input() {
    let db = Database::new();
    let mut input = b"abc\n0\n10\n-1\n\nh\n".to_vec();
    input.extend(vec![b'7'; 100_000]);
    input.extend(b"\n\xff\xfe\x00\n1\n1\n4\nb1\n5\nc1\n".as_slice());

    db.play("human:Ada", "human:Bob", input)
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

    assert_eq!(db.scores()["players"][0]["wins"], 1);
}

#[test]
fn quitting_mid_game_counts_nothing() {
    let db = Database::new();

    db.play("human", "impossible", "5\nq\n")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Player 1 left. This game is not counted.",
        ));

    assert_eq!(db.scores(), json!({"players": []}));
}

#[test]
fn input_ending_mid_game_stops_cleanly_counts_nothing_and_exits_1() {
    let db = Database::new();

    db.play("human", "impossible", "5\n")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("Input ended"));

    assert_eq!(db.scores(), json!({"players": []}));
}

#[test]
fn a_clock_that_cannot_be_played_on_is_a_usage_error_that_says_how_to_write_one() {
    let db = Database::new();

    db.run(&["play", "--x", "human", "--o", "easy", "--clock", "blitz"])
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "\"blitz\" is not a clock: a clock is written minutes+seconds (3+2) or seconds a \
             move (30s)",
        ));
}

#[test]
fn on_a_clock_the_line_console_shows_each_sides_time_at_the_prompt() {
    let db = Database::new();

    let mut play = db.play("human:Ada", "human:Bob", ADA_WINS);
    play.args(["--clock", "3+2"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "[X 3:00 · O 3:00 · first move within 0:",
        ))
        .stdout(predicate::str::contains("Ada (X) wins!"));
}

#[test]
fn unknown_players_and_flags_are_usage_errors() {
    let db = Database::new();

    db.run(&["play", "--x", "grandmaster", "--o", "easy"])
        .code(2)
        .stderr(predicate::str::contains("unknown player \"grandmaster\""));
    db.run(&["play", "--x", "easy"]).code(2);
    db.run(&["play", "--x", "easy", "--o", "easy", "--first", "z"])
        .code(2);
    db.run(&["scores", "--frobnicate"]).code(2);
}

#[test]
fn a_damaged_database_is_reported_with_what_to_do_and_left_exactly_as_it_was() {
    let db = Database::new();
    fs::write(&db.path, "{ not a database").unwrap();
    let named = db.path.display().to_string();

    for command in [&["scores"][..], &RANDOM_GAME[..]] {
        stopped_saying(db.run(command), &[&named, "cannot be read", "--db PATH"]);
    }

    assert_eq!(fs::read_to_string(&db.path).unwrap(), "{ not a database");
}

/// One game of Random against itself, the same every time: a quick way to record a result.
const RANDOM_GAME: [&str; 7] = ["play", "--x", "random", "--o", "random", "--seed", "9"];
/// A server on any free port: it must stop before it listens when its database is bad.
const SERVE: [&str; 3] = ["serve", "--port", "0"];

#[test]
fn reset_without_a_terminal_to_ask_needs_yes_and_changes_nothing_without_it() {
    let db = Database::new();
    let before = db.one_game_recorded();

    db.run(&["scores", "--reset"])
        .code(2)
        .stderr(predicate::str::contains("add --yes"));

    assert_eq!(db.scores(), before);
}

#[test]
fn reset_clears_the_scoreboard_and_restore_brings_it_back_with_the_games_since() {
    // Arrange: one game counted.
    let (db, _) = Database::with_one_game();

    // Act: reset, one more game, restore.
    db.run(&["scores", "--reset", "--yes", "--json"])
        .success()
        .stdout("{\"players\":[]}\n")
        .stderr(predicate::str::contains("--restore"));
    db.run(&RANDOM_GAME).success();
    db.run(&["scores", "--restore"])
        .success()
        .stderr(predicate::str::contains("restored"));

    // Assert: both games count.
    let players = db.scores()["players"].clone();
    let games: u64 = players
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["games"].as_u64().unwrap())
        .sum();
    assert_eq!(games, 4, "two games, two players each: {players}");
    db.run(&["scores", "--restore"])
        .success()
        .stderr(predicate::str::contains("no reset to take back"));
}

#[test]
fn after_a_reset_an_empty_scoreboard_says_the_games_are_kept() {
    // Arrange: one game counted, then the scoreboard cleared.
    let (db, _) = Database::with_one_game();
    db.run(&["scores", "--reset", "--yes"]).success();

    // Act and assert
    db.run(&["scores"]).success().stdout(
        "No game counts on the scoreboard since it was cleared. Every game is kept: \
         `tictactoe scores --restore` counts them again.\n",
    );
}

#[test]
fn a_scoreboard_of_games_left_unfinished_says_none_was_finished() {
    let db = Database::new();
    db.play("human", "impossible", "5\nq\n").assert().success();

    db.run(&["scores"]).success().stdout(
        "No game has been finished yet: a game left before its end is kept, not counted.\n",
    );
}

#[test]
fn a_command_that_only_reads_a_database_that_is_not_there_says_so_and_makes_nothing() {
    let folder = TempDir::new().unwrap();
    let mistyped = folder.path().join("no such folder").join("gmaes.db");

    for command in [&["scores"][..], &["history"], &["replay", "last"]] {
        tictactoe_on(&mistyped)
            .args(command)
            .assert()
            .code(1)
            .stderr(predicate::str::contains(format!(
                "there is no database at {}",
                mistyped.display()
            )));
    }

    assert!(
        !folder.path().join("no such folder").exists(),
        "nothing was made"
    );
}

#[test]
fn top_zero_is_a_usage_error_not_an_empty_scoreboard() {
    let (db, _) = Database::with_one_game();

    db.run(&["scores", "--top", "0"]).code(2).stdout("");
}

#[test]
fn a_wrong_menu_answer_is_explained_and_only_the_question_asked_again() {
    let db = Database::new();

    let output = db.tictactoe().write_stdin("7\nq\n").output().unwrap();

    let shown = String::from_utf8(output.stdout).unwrap();
    assert!(
        shown.contains("! \"7\" is not one of the choices: type 1, 2 or 3\nYour choice [2]: "),
        "{shown}"
    );
    assert_eq!(shown.matches("Human vs Human").count(), 1, "{shown}");
}

#[test]
fn the_line_console_says_what_can_be_typed_once_then_asks_briefly() {
    let db = Database::new();

    let output = db
        .play("human:Ada", "human:Bob", ADA_WINS)
        .output()
        .unwrap();

    let shown = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        shown.matches("u to undo").count(),
        2,
        "once for each person: {shown}"
    );
    assert_eq!(
        shown.matches("Ada (X), your move [1-9]: ").count(),
        3,
        "{shown}"
    );
}

#[test]
fn serve_on_a_port_in_use_names_the_port_and_how_to_choose_another() {
    // Arrange: the port taken.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();

    Database::new()
        .tictactoe()
        .args(["serve", "--port", &port])
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains(format!("127.0.0.1:{port} is in use"))
                .and(predicate::str::contains("choose another port with --port"))
                .and(predicate::str::contains("--port 0 picks a free one")),
        );
}

#[test]
fn serve_with_its_metrics_on_an_address_in_use_names_it_and_how_to_choose_another() {
    // Arrange: the metrics' address taken.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = taken.local_addr().unwrap().to_string();

    Database::new()
        .tictactoe()
        .args(["serve", "--port", "0", "--metrics", &address])
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains(format!("{address} is in use")).and(predicate::str::contains(
                "choose another address with --metrics",
            )),
        );
}

#[test]
fn serve_with_a_public_url_that_is_no_address_says_what_to_give_and_does_not_start() {
    Database::new()
        .tictactoe()
        .args(["serve", "--port", "0", "--public-url", "play.example/games"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("--public-url \"play.example/games\" is not an http")
                .and(predicate::str::contains("https://play.example")),
        );
}

#[test]
fn serve_goes_on_serving_when_nobody_reads_where_it_listens() {
    // Arrange: a free port; the server's standard output a pipe closed at once.
    let db = Database::new();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut server = common::program()
        .arg("--db")
        .arg(&db.path)
        .args(["serve", "--port", &port.to_string()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    drop(server.stdout.take());

    // Act: wait until it answers, or ends.
    let started = std::time::Instant::now();
    let answered = loop {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            break true;
        }
        if server.try_wait().unwrap().is_some()
            || started.elapsed() > std::time::Duration::from_secs(20)
        {
            break false;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let still_running = server.try_wait().unwrap().is_none();
    let _ = server.kill();
    let _ = server.wait();

    // Assert
    assert!(answered && still_running, "the server stopped");
}

#[test]
fn top_shows_only_the_first_rows() {
    let db = Database::where_ada_beat_bob();

    let output = db
        .tictactoe()
        .args(["scores", "--json", "--top", "1"])
        .output()
        .unwrap();

    let top: Value = serde_json::from_slice(&output.stdout).unwrap();
    let ada = json!({"name": "Ada", "wins": 1, "losses": 0, "ties": 0, "games": 1});
    assert_eq!(top, json!({"players": [ada]}));
}

#[test]
fn a_folder_named_as_the_database_is_refused_and_left_alone() {
    let folder = TempDir::new().unwrap();

    for command in [&["scores"][..], &RANDOM_GAME[..]] {
        stopped_saying(
            tictactoe_on(folder.path()).args(command).assert(),
            &["is a folder", "Name a file, such as"],
        );
    }

    assert_eq!(fs::read_dir(folder.path()).unwrap().count(), 0);
}

/// The database the advice names: the text between "Name a file, such as " and the
/// full stop that ends the line.
fn named_in_advice(stderr: &[u8]) -> PathBuf {
    let stderr = String::from_utf8_lossy(stderr);
    let advice = stderr
        .lines()
        .find_map(|line| line.strip_prefix("Name a file, such as "))
        .unwrap_or_else(|| panic!("no advice naming a file: {stderr}"));
    PathBuf::from(advice.strip_suffix('.').unwrap())
}

#[test]
fn the_advice_for_a_folder_works_when_followed() {
    // Arrange: a folder given as the database, and the advice the program gives.
    let folder = TempDir::new().unwrap();
    let refused = tictactoe_on(folder.path())
        .args(RANDOM_GAME)
        .output()
        .unwrap();
    let advised = named_in_advice(&refused.stderr);

    // Act: the same game, with the database the advice named.
    let followed = tictactoe_on(&advised).args(RANDOM_GAME).assert();

    // Assert
    followed.success();
    assert_eq!(advised.parent(), Some(folder.path()));
    assert_ne!(
        scores_json(&advised)["players"],
        json!([]),
        "the game was kept"
    );
}

#[test]
fn the_advice_for_an_unreadable_database_works_when_followed() {
    // Arrange: a file that is not a database, refused with "move it away".
    let db = Database::new();
    let (folder, path) = (&db.folder, &db.path);
    fs::write(path, "not a database, but somebody's file").unwrap();
    tictactoe_on(path)
        .args(RANDOM_GAME)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("move it away"));

    // Act: the advice followed; the file kept elsewhere.
    let kept = folder.path().join("games.db.unreadable");
    fs::rename(path, &kept).unwrap();
    let followed = tictactoe_on(path).args(RANDOM_GAME).assert();

    // Assert
    followed.success();
    assert_eq!(
        fs::read_to_string(&kept).unwrap(),
        "not a database, but somebody's file"
    );
}

#[test]
fn an_empty_file_is_a_new_empty_database() {
    let db = Database::new();
    fs::write(&db.path, "").unwrap();

    db.run(&["scores"])
        .success()
        .stdout("No games recorded yet.\n");
    db.run(&RANDOM_GAME).success().stderr("");

    assert_eq!(db.scores()["players"].as_array().unwrap().len(), 1);
}

#[test]
fn the_database_can_come_from_the_environment() {
    let db = Database::new();

    tictactoe()
        .env("TICTACTOE_DB", format!("sqlite:{}", db.path.display()))
        .args(RANDOM_GAME)
        .assert()
        .success();

    // Random played itself: its one row has both sides of the game.
    assert_eq!(db.scores()["players"][0]["games"], 2);
}

#[test]
fn the_old_scoreboard_setting_is_refused_with_what_to_use_instead() {
    let folder = TempDir::new().unwrap();

    tictactoe()
        .env("TICTACTOE_SCOREBOARD", folder.path().join("scores.json"))
        .args(RANDOM_GAME)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("--db PATH").and(predicate::str::contains("scores --import")),
        );

    assert_eq!(fs::read_dir(folder.path()).unwrap().count(), 0);
}

/// A scoreboard file as an earlier version wrote it.
const EARLIER_SCORES: &str = r#"{"version": 1, "players": [
    {"name": "Ada", "wins": 3, "losses": 1, "ties": 2, "games": 6}
]}"#;

#[test]
fn an_earlier_scoreboard_file_is_imported_once_and_kept_as_it_was() {
    // Arrange
    let db = Database::new();
    let old = db.folder.path().join("old.json");
    fs::write(&old, EARLIER_SCORES).unwrap();
    let import = ["scores", "--json", "--import", old.to_str().unwrap()];

    // Act
    let first = db.tictactoe().args(import).assert().success();
    let again = db.tictactoe().args(import).assert().success();

    // Assert
    first.stderr(predicate::str::contains("Imported 1 players"));
    again.stderr(predicate::str::contains("imported before"));
    let ada = json!({"name": "Ada", "wins": 3, "losses": 1, "ties": 2, "games": 6});
    assert_eq!(db.scores(), json!({"players": [ada]}));
    assert_eq!(fs::read_to_string(&old).unwrap(), EARLIER_SCORES);
}

#[test]
fn the_default_database_takes_in_the_earlier_scoreboard_of_its_folder_once() {
    // Arrange: the platform's data folder (XDG_DATA_HOME on Linux) holds an earlier
    // version's scores.json, and no database yet.
    let home = TempDir::new().unwrap();
    let data = home.path().join("tictactoe");
    fs::create_dir_all(&data).unwrap();
    fs::write(data.join("scores.json"), EARLIER_SCORES).unwrap();
    let scores = || {
        let mut command = tictactoe();
        command
            .env("XDG_DATA_HOME", home.path())
            .args(["scores", "--json"]);
        command
    };

    // Act
    let first = scores().assert().success();
    let again = scores().assert().success();

    // Assert: imported on the first start only, the file untouched.
    first.stderr(predicate::str::contains("imported"));
    again.stderr("");
    let output = scores().output().unwrap();
    let shown: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(shown["players"][0]["games"], 6);
    assert!(data.join("tictactoe.db").exists());
    assert_eq!(
        fs::read_to_string(data.join("scores.json")).unwrap(),
        EARLIER_SCORES
    );
}

#[test]
fn colour_is_off_when_piped_or_with_no_color_and_on_when_forced() {
    let db = Database::new();
    let game = ["play", "--x", "impossible", "--o", "random", "--seed", "4"];
    let escape = predicate::str::contains("\u{1b}[");

    db.tictactoe()
        .args(game)
        .assert()
        .stdout(escape.clone().not());
    db.tictactoe()
        .env("NO_COLOR", "1")
        .args(game)
        .assert()
        .stdout(escape.clone().not());
    db.tictactoe()
        .env("CLICOLOR_FORCE", "1")
        .args(game)
        .assert()
        .stdout(escape.and(predicate::str::contains("[X]").not()));
}

#[test]
fn the_menu_plays_a_game_against_the_computer_then_quits() {
    let db = Database::new();
    // Human vs Computer, Ada plays X, Impossible, 3 x 3, X first (all defaults); then
    // Ada tries every cell in turn (taken ones are refused), and finally declines
    // another game.
    let input = "2\n\nAda\n\n\n\n1\n2\n3\n4\n5\n6\n7\n8\n9\nn\n";

    db.tictactoe()
        .write_stdin(input)
        .assert()
        .success()
        .stdout(predicate::str::contains("Choose a game:"))
        .stdout(predicate::str::contains(
            "Ada (X) vs Computer (Impossible, O)",
        ))
        .stdout(predicate::str::contains("Thanks for playing!"));

    let players = db.scores()["players"].clone();
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
    Database::new()
        .tictactoe()
        .write_stdin("")
        .assert()
        .success()
        .stdout(predicate::str::contains("Input ended"));
}

#[test]
fn a_truncated_database_stops_every_command_and_is_left_as_it_was() {
    let (db, bytes) = Database::with_one_game();
    let path = &db.path;
    let cut = &bytes[..bytes.len() / 2];
    fs::write(path, cut).unwrap();

    for command in [&["scores"][..], &RANDOM_GAME[..], &SERVE[..]] {
        let run = tictactoe_on(path)
            .args(command)
            .timeout(std::time::Duration::from_secs(30))
            .assert();
        stopped_saying(run, &["cannot be read", "move it away"]);
    }

    assert_eq!(fs::read(path).unwrap(), cut);
}

#[test]
fn a_database_from_a_newer_version_is_refused_with_what_to_do_and_left_alone() {
    let (db, _) = Database::with_one_game();
    let path = &db.path;
    rusqlite::Connection::open(path)
        .unwrap()
        .pragma_update(None, "user_version", 99)
        .unwrap();
    let before = fs::read(path).unwrap();

    stopped_saying(
        tictactoe_on(path).args(RANDOM_GAME).assert(),
        &["newer version of tictactoe", "Use the newer tictactoe"],
    );

    assert_eq!(fs::read(path).unwrap(), before);
}

#[test]
fn a_database_another_program_holds_stops_a_game_before_it_starts() {
    // Arrange: another connection holds the write lock for longer than the program
    // waits (10 s).
    let (db, _) = Database::with_one_game();
    let path = &db.path;
    let holder = rusqlite::Connection::open(path).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let before = scores_json(path);

    // Act
    let assert = tictactoe_on(path).args(RANDOM_GAME).assert();

    // Assert: no game was played, and what was kept is unchanged.
    stopped_saying(assert, &["is locked by another process", "try again"]);
    holder.execute_batch("ROLLBACK").unwrap();
    assert_eq!(scores_json(path), before);
}

#[test]
fn a_read_only_database_shows_its_scores_but_stops_a_game_before_it_starts() {
    let (db, bytes) = Database::with_one_game();
    let path = &db.path;
    let before = scores_json(path);
    // Root may write whatever the permissions say; `chattr +i` stops root too.
    let immutable = std::process::Command::new("chattr")
        .arg("+i")
        .arg(path)
        .status()
        .is_ok_and(|status| status.success());
    if !immutable {
        let mut permissions = fs::metadata(path).unwrap().permissions();
        permissions.set_readonly(true);
        fs::set_permissions(path, permissions).unwrap();
        if fs::OpenOptions::new().append(true).open(path).is_ok() {
            println!(
                "SKIPPED: cannot make a file read-only here (neither chattr +i nor permissions)"
            );
            return;
        }
    }

    let shown = tictactoe_on(path)
        .args(["scores", "--json"])
        .output()
        .unwrap();
    let played = tictactoe_on(path).args(RANDOM_GAME).output().unwrap();

    if immutable {
        let _ = std::process::Command::new("chattr")
            .arg("-i")
            .arg(path)
            .status();
    }
    assert_eq!(
        serde_json::from_slice::<Value>(&shown.stdout).unwrap(),
        before
    );
    assert_eq!(played.status.code(), Some(1));
    assert!(played.stdout.is_empty());
    let said = String::from_utf8_lossy(&played.stderr);
    assert!(
        said.contains("is read-only") && said.contains("writable"),
        "{said}"
    );
    assert_eq!(fs::read(path).unwrap(), bytes);
}

/// A password the accounts' tests give (long enough).
const PASSWORD: &str = "correct horse battery";

/// What the accounts' tests do with a database of their own.
impl Database {
    /// `accounts ARGS` on this database, `stdin` its standard input (a pipe, so the
    /// password is its first line).
    fn accounts(&self, args: &[&str], stdin: &str) -> assert_cmd::assert::Assert {
        self.tictactoe()
            .arg("accounts")
            .args(args)
            .write_stdin(stdin)
            .assert()
    }

    /// `accounts add NAME` with [`PASSWORD`], which must succeed.
    fn with_account(&self, name: &str) {
        self.accounts(&["add", name], &format!("{PASSWORD}\n"))
            .success();
    }

    /// `accounts list --json`: one object per account.
    fn account_list(&self) -> Vec<Value> {
        common::json_lines_of(self.tictactoe().args(["accounts", "list", "--json"]))
    }

    /// The names `accounts list --json` gives, in its order.
    fn account_names(&self) -> Vec<String> {
        self.account_list()
            .iter()
            .map(|account| account["name"].as_str().unwrap().to_string())
            .collect()
    }
}

#[test]
fn an_account_added_is_listed_with_when_it_was_made_and_no_sessions_or_tokens() {
    let db = Database::new();

    db.accounts(&["add", "Ada"], &format!("{PASSWORD}\n"))
        .success()
        .stdout("Added the account Ada.\n");

    db.run(&["accounts", "list"]).success().stdout(
        predicate::str::is_match(
            r"^Name +Created +Sessions +Tokens\nAda +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ +0 +0\n$",
        )
        .unwrap(),
    );
}

#[test]
fn accounts_list_json_has_exactly_the_documented_shape() {
    let db = Database::new();
    db.with_account("Ada");

    let accounts = db.account_list();

    assert_eq!(accounts.len(), 1, "{accounts:?}");
    let keys: Vec<&str> = accounts[0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["created", "name", "sessions", "tokens"]);
    assert_eq!(
        (
            &accounts[0]["name"],
            &accounts[0]["sessions"],
            &accounts[0]["tokens"]
        ),
        (&json!("Ada"), &json!(0), &json!(0))
    );
    let created = accounts[0]["created"].as_str().unwrap();
    assert!(
        created.len() == 20 && created.ends_with('Z'),
        "not RFC 3339 in UTC to the second: {created}"
    );
}

#[test]
fn an_empty_list_of_accounts_says_so() {
    let db = Database::new();
    db.run(&RANDOM_GAME).success();

    db.run(&["accounts", "list"])
        .success()
        .stdout("No accounts yet: `tictactoe accounts add NAME` adds one.\n");
}

#[test]
fn a_name_added_from_standard_input_cannot_be_added_again_in_any_case() {
    let db = Database::new();
    db.with_account("Ada");

    let again = db.accounts(&["add", "ADA"], &format!("{PASSWORD}\n"));

    stopped_saying(
        again,
        &["Ada is taken: choose a name that reads differently"],
    );
    assert_eq!(db.account_names(), ["Ada"]);
}

#[test]
fn a_name_that_looks_like_an_accounts_is_refused() {
    let db = Database::new();
    db.with_account("Ada");

    // A Cyrillic А.
    let look_alike = db.accounts(&["add", "\u{410}da"], &format!("{PASSWORD}\n"));

    stopped_saying(look_alike, &["Ada is taken"]);
    assert_eq!(db.account_names(), ["Ada"]);
}

#[test]
fn the_operator_can_give_a_name_that_has_kept_games_to_its_player() {
    // Arrange: Ada played (and beat Bob) before she had an account.
    let db = Database::where_ada_beat_bob();

    // Act
    let added = db.accounts(&["add", "Ada"], &format!("{PASSWORD}\n"));

    // Assert
    added
        .success()
        .stdout("Added the account Ada: the games kept under that name are its own now.\n");
    assert_eq!(db.account_names(), ["Ada"]);
    assert_eq!(db.scores()["players"][0]["name"], "Ada", "her games stay");
}

#[rstest::rstest]
#[case::too_short("1234567\n", "a password needs at least 8 characters")]
#[case::none_given("", "no password was given")]
fn a_password_refused_is_said_why_and_nothing_is_added(#[case] stdin: &str, #[case] why: &str) {
    let db = Database::new();

    let refused = db.accounts(&["add", "Ada"], stdin);

    stopped_saying(refused, &[why]);
    assert!(db.account_names().is_empty());
}

#[test]
fn the_password_is_the_first_line_with_its_spaces() {
    // Arrange: a password that is eight characters only with its spaces.
    let db = Database::new();

    // Act
    let added = db.accounts(&["add", "Ada"], "  pass  \nnot read\n");

    // Assert
    added.success();
    assert_eq!(db.account_names(), ["Ada"]);
}

#[test]
fn reset_password_gives_an_account_a_new_password_and_says_its_sessions_and_tokens_ended() {
    let db = Database::new();
    db.with_account("Ada");

    db.accounts(&["reset-password", "ada"], "another password\n")
        .success()
        .stdout(
            "Ada has a new password: every session of the account was ended and every \
             personal token of it revoked.\n",
        );
}

#[test]
fn reset_password_of_a_name_no_account_has_fails_before_asking_for_a_password() {
    let db = Database::new();

    // Nothing on standard input: had it been read, "no password was given".
    let unknown = db.accounts(&["reset-password", "Bob"], "");

    stopped_saying(
        unknown,
        &["there is no account called Bob", "tictactoe accounts list"],
    );
}

#[test]
fn an_account_removed_is_no_longer_listed_and_its_name_can_be_added_again() {
    // Arrange
    let db = Database::new();
    db.with_account("Ada");

    // Act
    let removed = db.accounts(&["remove", "ada"], "");

    // Assert
    removed.success().stdout(
        "Removed the account Ada, with its sessions and personal tokens. Its games stay, and \
         the name Ada is free again.\n",
    );
    db.run(&["accounts", "list"])
        .success()
        .stdout(predicate::str::starts_with("No accounts yet"));
    db.with_account("Ada");
    assert_eq!(db.account_names(), ["Ada"]);
}

#[test]
fn removing_an_account_leaves_its_games_as_they_were() {
    let db = Database::where_ada_beat_bob();
    db.with_account("Ada");
    let before = db.scores();

    db.accounts(&["remove", "Ada"], "").success();

    assert_eq!(db.scores(), before);
}

#[test]
fn removing_a_name_no_account_has_fails() {
    let db = Database::new();

    let unknown = db.accounts(&["remove", "Ada"], "");

    stopped_saying(unknown, &["there is no account called Ada"]);
}

#[test]
fn the_password_is_never_printed_nor_kept_in_clear() {
    // Arrange
    let db = Database::new();
    let new_password = "a second password";

    // Act: every command that reads or shows an account, and a refusal.
    let outputs = [
        db.output_with(&["accounts", "add", "Ada"], PASSWORD),
        db.output_with(&["accounts", "add", "Ada"], PASSWORD),
        db.output_with(&["accounts", "reset-password", "Ada"], new_password),
        db.output(&["accounts", "list"]),
        db.output(&["accounts", "list", "--json"]),
    ];

    // Assert
    for output in &outputs {
        for said in [&output.stdout, &output.stderr] {
            let said = String::from_utf8_lossy(said);
            assert!(
                !said.contains(PASSWORD) && !said.contains(new_password),
                "{said}"
            );
        }
    }
    for file in fs::read_dir(db.folder.path()).unwrap() {
        let bytes = fs::read(file.unwrap().path()).unwrap();
        let kept = String::from_utf8_lossy(&bytes);
        assert!(
            !kept.contains(PASSWORD) && !kept.contains(new_password),
            "a password kept in clear"
        );
    }
}

impl Database {
    /// The program on this database run with `args`, `password` and a newline on its
    /// standard input.
    fn output_with(&self, args: &[&str], password: &str) -> std::process::Output {
        self.tictactoe()
            .args(args)
            .write_stdin(format!("{password}\n"))
            .output()
            .unwrap()
    }
}

#[test]
fn a_list_of_accounts_of_a_database_that_is_not_there_makes_none() {
    let folder = TempDir::new().unwrap();
    let mistyped = folder.path().join("gmaes.db");

    tictactoe_on(&mistyped)
        .args(["accounts", "list"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("there is no database at"));

    assert!(!mistyped.exists());
}

#[test]
fn adding_an_account_to_a_database_from_a_newer_version_is_refused_as_every_command_is() {
    let (db, _) = Database::with_one_game();
    rusqlite::Connection::open(&db.path)
        .unwrap()
        .pragma_update(None, "user_version", 99)
        .unwrap();
    let before = fs::read(&db.path).unwrap();

    let refused = db.accounts(&["add", "Ada"], &format!("{PASSWORD}\n"));

    stopped_saying(
        refused,
        &["newer version of tictactoe", "Use the newer tictactoe"],
    );
    assert_eq!(fs::read(&db.path).unwrap(), before);
}

#[cfg(unix)]
#[test]
fn at_a_terminal_the_password_is_typed_twice_unseen_and_the_terminal_given_back() {
    use expectrl::Expect;

    // Arrange: the program in a pseudo-terminal, inside a shell that prints the
    // terminal's settings before and after it.
    let db = Database::new();
    let mut command = std::process::Command::new("sh");
    command
        .arg("-c")
        .arg(r#"stty -g; "$0" "$@"; echo "exit=$?"; stty -g"#)
        .arg(common::BINARY)
        .arg("--db")
        .arg(&db.path)
        .args(["accounts", "add", "Ada"]);
    common::without_settings(&mut command);
    let mut session = expectrl::Session::spawn(command).expect("a pseudo-terminal");
    session.set_expect_timeout(Some(std::time::Duration::from_secs(20)));
    let mut shown = Vec::new();

    // Act: the password typed at each prompt.
    for prompt in ["New password for Ada: ", "The same password again: "] {
        let seen = session.expect(prompt).unwrap();
        shown.extend_from_slice(seen.as_bytes());
        session.send_line(PASSWORD).unwrap();
    }
    shown.extend_from_slice(session.expect(expectrl::Eof).unwrap().as_bytes());

    // Assert
    let shown = String::from_utf8_lossy(&shown);
    assert!(
        shown.contains("Added the account Ada.") && shown.contains("exit=0"),
        "{shown}"
    );
    assert!(!shown.contains(PASSWORD), "the password was shown: {shown}");
    let settings: Vec<&str> = shown
        .lines()
        .map(str::trim)
        .filter(|line| {
            // What `stty -g` prints: hex fields between colons.
            line.split(':').count() > 10
                && line
                    .split(':')
                    .all(|field| !field.is_empty() && field.chars().all(|c| c.is_ascii_hexdigit()))
        })
        .collect();
    assert_eq!(settings.len(), 2, "{shown}");
    assert_eq!(
        settings[0], settings[1],
        "the terminal is not given back as it was"
    );
    assert_eq!(db.account_names(), ["Ada"]);
}
