//! `history` and `replay`, as people and scripts use them: the games listed newest
//! first and paged, a game played back, and the review of every move checked against
//! `analyze`.

use std::path::Path;

use predicates::prelude::*;
use serde_json::Value;

use common::{Database, json_lines, json_lines_of, stopped_saying, tictactoe, tictactoe_on, words};

mod common;

/// Plays one game between `x` and `o` (computers, or people whose moves are `input`).
fn play(database: &Path, x: &str, o: &str, seed: u64, input: &str) {
    tictactoe_on(database)
        .args(words(&format!(
            "--plain --seed {seed} play --x {x} --o {o}"
        )))
        .write_stdin(input)
        .assert()
        .success();
}

/// `history --json` with `args`: the games listed.
fn history_json(database: &Path, args: &[&str]) -> Vec<Value> {
    json_lines_of(
        tictactoe_on(database)
            .args(["history", "--json"])
            .args(args),
    )
}

/// Ada (X, moving first) against Impossible: she plays the first free cell of 1, 2,
/// 3, ... each turn, and loses.
fn ada_loses_to_impossible(database: &Path) {
    play(
        database,
        "human:Ada",
        "impossible",
        1,
        "5\n1\n2\n3\n4\n6\n7\n8\n9\n",
    );
}

#[test]
fn the_history_lists_the_games_newest_first_with_who_played_and_how_it_ended() {
    // Arrange
    let db = Database::new();
    play(&db.path, "random", "random", 1, "");
    ada_loses_to_impossible(&db.path);

    // Act
    let games = history_json(&db.path, &[]);

    // Assert
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["x"], "Ada");
    assert_eq!(games[0]["o"], "Computer (Impossible)");
    assert_eq!(games[0]["result"], "o_won");
    assert_eq!(games[1]["x"], "Computer (Random)");
    assert_eq!(games[0]["id"].as_str().unwrap().len(), 32);
}

#[test]
fn paging_with_before_lists_every_game_exactly_once() {
    // Arrange: seven games.
    let db = Database::new();
    for seed in 0..7 {
        play(&db.path, "random", "easy", seed, "");
    }
    let all: Vec<String> = history_json(&db.path, &["--limit", "100"])
        .iter()
        .map(|game| game["id"].as_str().unwrap().to_owned())
        .collect();

    // Act: pages of three, each after the last id of the page before.
    let mut seen = Vec::new();
    let mut before: Option<String> = None;
    loop {
        let mut args = vec!["--limit", "3"];
        if let Some(id) = &before {
            args.extend(["--before", id]);
        }
        let page = history_json(&db.path, &args);
        if page.is_empty() {
            break;
        }
        before = page
            .last()
            .map(|game| game["id"].as_str().unwrap().to_owned());
        seen.extend(
            page.iter()
                .map(|game| game["id"].as_str().unwrap().to_owned()),
        );
    }

    // Assert
    assert_eq!(all.len(), 7);
    assert_eq!(seen, all);
}

#[test]
fn a_table_page_with_older_games_names_the_command_for_the_next() {
    let db = Database::new();
    for seed in 0..3 {
        play(&db.path, "random", "easy", seed, "");
    }

    db.run(&["history", "--limit", "2", "--player", "Computer (Easy)"])
        .success()
        .stdout(predicate::str::contains(
            "Older games: tictactoe history --player 'Computer (Easy)' --limit 2 --before ",
        ));
}

#[test]
fn replay_last_review_shows_the_move_that_lost_and_the_moves_that_would_have_held() {
    let db = Database::new();
    ada_loses_to_impossible(&db.path);

    db.run(&["replay", "last", "--review"])
        .success()
        .stdout(predicate::str::contains(
            "threw away the draw (a loss left);",
        ))
        .stdout(predicate::str::contains("Where Ada (X) slipped: move "))
        .stdout(predicate::str::contains("Computer (Impossible, O) won."));
}

#[test]
fn replay_review_names_the_persons_slips_and_never_the_computers() {
    // Arrange: Ada (X) against Impossible, reviewed.
    let db = Database::new();
    ada_loses_to_impossible(&db.path);

    // Act / Assert: her slip is named; the computer's moves are not summed up.
    db.run(&["replay", "last", "--review", "--plain"])
        .success()
        .stdout(predicate::str::contains("Where Ada (X) slipped: move "))
        .stdout(predicate::str::contains("Where Computer").not())
        .stdout(predicate::str::contains("Computer (Impossible, O): every move").not());
}

#[test]
fn a_replay_without_colour_brackets_the_winning_line_on_the_last_board() {
    // Arrange: Ada (X) wins on the top row: 1, 2, 3.
    let db = Database::new();
    play(&db.path, "human:Ada", "human:Bob", 1, "1\n4\n2\n5\n3\n");

    // Act
    let output = db.output(&["replay", "last"]);

    // Assert: the last board lights the whole line; the boards before, the move alone.
    let shown = String::from_utf8(output.stdout).unwrap();
    let (before, last) = shown.rsplit_once("Move 5").unwrap();
    assert!(last.contains("  1 |[X]|[X]|[X]|"), "{last}");
    assert!(before.contains("  2 | O |[O]| 6 |"), "{before}");
}

#[test]
fn a_start_shared_by_more_ids_than_are_listed_says_how_many_more() {
    // Arrange: eight games; every id starts with 0 (its time, in hex, comes first).
    let db = Database::new();
    for seed in 0..8 {
        play(&db.path, "random", "random", seed, "");
    }

    // Act
    let replayed = db.run(&["replay", "0"]);

    // Assert
    let said = [
        "more than one game's id starts with 0:",
        "  and 3 more\nGive more of the id.",
    ];
    stopped_saying(replayed, &said);
}

#[test]
fn a_game_named_by_the_start_of_its_id_is_played_back_move_by_move() {
    // Arrange
    let db = Database::new();
    play(&db.path, "impossible", "random", 4, "");
    let id = history_json(&db.path, &[])[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();

    // Act
    let output = tictactoe_on(&db.path)
        .args(["replay", &id[..20], "--json"])
        .output()
        .unwrap();

    // Assert: each move one more mark on the board.
    assert!(output.status.success(), "{output:?}");
    let moves = json_lines(&output.stdout);
    for (ply, played) in moves.iter().enumerate() {
        let board = played["board"].as_str().unwrap();
        assert_eq!(played["ply"], ply + 1);
        assert_eq!(board.chars().filter(|c| *c != '.').count(), ply + 1);
    }
}

#[test]
fn a_start_of_an_id_that_names_no_game_is_said_plainly() {
    let db = Database::new();
    play(&db.path, "random", "random", 1, "");

    stopped_saying(
        db.run(&["replay", "fffff"]),
        &["no game's id starts with fffff"],
    );
}

#[test]
fn replay_last_before_any_game_has_ended_says_so() {
    // Arrange: a new database (an empty file is one).
    let db = Database::new();
    std::fs::write(&db.path, "").unwrap();

    stopped_saying(db.run(&["replay", "last"]), &["no game has ended yet"]);
}

#[test]
fn a_history_page_size_out_of_range_is_a_usage_error() {
    let db = Database::new();

    db.run(&["history", "--limit", "0"])
        .code(2)
        .stderr(predicate::str::contains("a page holds 1 to 1000 games"));
}

/// `analyze --json`'s value of each layout, for the side to move there (`status` for
/// a finished board).
fn analyzed(layouts: &[String]) -> Vec<Value> {
    json_lines_of(tictactoe().args(["analyze", "--json"]).args(layouts))
}

/// The value for the side that has just moved, from `analyze`'s report of the position
/// its move made (where the other side is to move, or the game is over).
fn for_the_mover(report: &Value, mover: &str) -> String {
    match report["status"].as_str().unwrap() {
        "draw" => "draw".to_string(),
        "x_won" => if mover == "X" { "win" } else { "loss" }.to_string(),
        "o_won" => if mover == "O" { "win" } else { "loss" }.to_string(),
        _ => match report["value"].as_str().unwrap() {
            "win" => "loss",
            "loss" => "win",
            "at_least_draw" => "at_most_draw",
            other => other,
        }
        .to_string(),
    }
}

#[test]
fn every_reviewed_move_has_the_values_analyze_gives_the_positions_before_and_after_it() {
    // Arrange: random 3x3 games of every kind of player, X first.
    let db = Database::new();
    let levels = ["random", "easy", "medium", "impossible"];
    for seed in 0..12 {
        let (x, o) = (levels[seed % 4], levels[(seed / 4 + seed) % 4]);
        play(&db.path, x, o, seed as u64, "");
    }

    for game in history_json(&db.path, &[]) {
        let id = game["id"].as_str().unwrap();
        // Act
        let positions = db.output(&["replay", id, "--json"]);
        let review = db.output(&["replay", id, "--review", "--json"]);
        assert!(review.status.success(), "{review:?}");
        let review = json_lines(&review.stdout);

        // Assert
        let mut layouts = vec![".........".to_string()];
        layouts.extend(
            json_lines(&positions.stdout)
                .iter()
                .map(|played| played["board"].as_str().unwrap().to_owned()),
        );
        let reports = analyzed(&layouts);
        assert_eq!(review.len(), layouts.len() - 1);
        for (index, reviewed) in review.iter().enumerate() {
            let mover = reviewed["mark"].as_str().unwrap();
            assert_eq!(
                reviewed["before"], reports[index]["value"],
                "game {id}, {reviewed}"
            );
            assert_eq!(
                reviewed["best_moves"], reports[index]["best_moves"],
                "game {id}"
            );
            assert_eq!(
                reviewed["after"].as_str().unwrap(),
                for_the_mover(&reports[index + 1], mover),
                "game {id}, {reviewed}"
            );
            assert_eq!(reviewed["exact"], true);
        }
    }
}

#[test]
fn a_review_is_computed_once_and_kept_with_the_game() {
    // Arrange
    let db = Database::new();
    ada_loses_to_impossible(&db.path);

    // Act
    let first = db.output(&["replay", "last", "--review", "--json"]);
    let again = db.output(&["replay", "last", "--review", "--json"]);

    // Assert: one kept row per move, read back the second time.
    let moves = json_lines(&first.stdout).len();
    let kept: i64 = rusqlite::Connection::open(&db.path)
        .unwrap()
        .query_row("SELECT count(*) FROM reviews", [], |row| row.get(0))
        .unwrap();
    assert_eq!(kept as usize, moves);
    assert_eq!(again.stdout, first.stdout);
}

#[test]
fn a_history_told_the_server_names_each_game_by_its_address_there() {
    let db = Database::new();
    ada_loses_to_impossible(&db.path);
    let id = history_json(&db.path, &[])[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();

    let listed = tictactoe_on(&db.path)
        .args(["history", "--server", "https://Play.Example/"])
        .assert()
        .success();

    let printed = String::from_utf8_lossy(&listed.get_output().stdout).into_owned();
    let address = printed
        .split_whitespace()
        .find(|word| word.starts_with("https://"))
        .expect(&printed);
    let start = address
        .strip_prefix("https://play.example/games/")
        .expect(address);
    assert!(
        id.starts_with(start) && start.len() >= 8,
        "{address} for {id}"
    );
}

#[test]
fn a_replay_told_the_server_says_the_games_address_there() {
    let db = Database::new();
    ada_loses_to_impossible(&db.path);

    let replayed = tictactoe_on(&db.path)
        .args([
            "replay",
            "last",
            "--plain",
            "--server",
            "http://192.0.2.7:8080",
        ])
        .assert();

    replayed.success().stdout(predicate::str::starts_with(
        "Game http://192.0.2.7:8080/games/",
    ));
}

#[test]
fn a_server_that_is_no_web_address_is_refused_in_words() {
    let db = Database::new();

    tictactoe_on(&db.path)
        .args(["history", "--server", "play.example"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--server \"play.example\" is not an http:// or https:// address",
        ));
}
