//! `tictactoe analyze` and `tictactoe simulate`, as scripts use them.

use predicates::prelude::*;
use serde_json::{Value, json};

use common::{Database, json_lines, output_of, run, tictactoe, words};

mod common;

#[test]
fn analyze_answers_each_board_with_one_json_line() {
    let output = output_of("analyze --json xxo/xoo/... XOX/.O./X.. xxxoo....");

    assert!(output.status.success());
    assert_eq!(
        json_lines(&output.stdout),
        [
            json!({"board":"XXOXOO...","status":"in_progress","to_move":"X","value":"win","plies":1,"best_moves":[7],"move":7,"exact":true,"moves_proven":true}),
            json!({"board":"XOX.O.X..","status":"in_progress","to_move":"O","value":"win","plies":1,"best_moves":[8],"move":8,"exact":true,"moves_proven":true}),
            json!({"board":"XXXOO....","status":"x_won"}),
        ]
    );
}

#[test]
fn analyze_keeps_the_documented_key_order() {
    let output = output_of("analyze --json .........");

    let line = String::from_utf8(output.stdout).unwrap();
    assert!(
        line.starts_with(r#"{"board":".........","status":"in_progress","to_move":"X","value":"draw","plies":9,"best_moves":[1,2,3,4,5,6,7,8,9],"move":"#),
        "{line}"
    );
}

#[test]
fn invalid_boards_are_explained_the_others_answered_and_the_exit_is_2() {
    let output = output_of("analyze --json xx x........ xxxooo... abc...... o........");

    assert_eq!(output.status.code(), Some(2));
    let lines = json_lines(&output.stdout);
    assert_eq!(lines.len(), 5);
    assert_eq!(
        lines[0],
        json!({"board":"xx","error":"a 3x3 board has 9 cells, not 2"})
    );
    assert_eq!(lines[1]["status"], "in_progress");
    assert_eq!(
        lines[2],
        json!({"board":"xxxooo...","error":"both X and O have a line"})
    );
    assert!(
        lines[3]["error"]
            .as_str()
            .unwrap()
            .contains("'a' is not a mark")
    );
    assert!(
        lines[4]["error"]
            .as_str()
            .unwrap()
            .contains("cannot happen when X moves first")
    );
}

#[test]
fn first_decides_who_moves_when_the_counts_are_equal() {
    let output = output_of("analyze --json --first o xo.......");

    assert_eq!(json_lines(&output.stdout)[0]["to_move"], "O");
}

#[test]
fn an_empty_board_argument_is_an_invalid_board_like_any_other() {
    for empty in ["", "///"] {
        tictactoe()
            .args(["analyze", "--json", empty])
            .assert()
            .code(2)
            .stdout(predicate::str::contains(
                "\"error\":\"a 3x3 board has 9 cells, not 0\"",
            ));
    }
}

#[test]
fn without_boards_analyze_reads_stdin_one_per_line_skipping_blank_lines() {
    let output = tictactoe()
        .args(["analyze", "--json"])
        .write_stdin("x.. .o. ...\n\n   \nxox/xoo/oxx\n")
        .output()
        .unwrap();

    let lines = json_lines(&output.stdout);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["board"], "X...O....");
    assert_eq!(lines[1], json!({"board":"XOXXOOOXX","status":"draw"}));
}

#[test]
fn the_seed_picks_among_best_moves_and_defaults_to_0() {
    let chosen = |seed: Option<&str>| {
        let mut command = tictactoe();
        command.args(words("analyze --json ........."));
        if let Some(seed) = seed {
            command.args(["--seed", seed]);
        }
        json_lines(&command.output().unwrap().stdout)[0]["move"].clone()
    };

    assert_eq!(chosen(None), chosen(Some("0")));
    let moves: std::collections::HashSet<String> = (0..30)
        .map(|s| chosen(Some(&s.to_string())).to_string())
        .collect();
    assert!(moves.len() > 3, "{moves:?}");
}

#[test]
fn analyze_without_json_draws_the_board_and_gives_the_verdict() {
    run("analyze x../.o./o.x")
        .success()
        .stdout(predicate::str::contains(
            "X to move. X can force a win in 2 moves of its own, this one included.",
        ))
        .stdout(predicate::str::contains("Best move: 3."))
        .stdout(predicate::str::contains(
            "The Impossible player would play 3.",
        ));
}

#[test]
fn simulate_counts_games_and_the_same_seed_gives_the_same_counts() {
    let run = || {
        let output = output_of("simulate --x random --o medium --games 500 --seed 11 --json");
        assert!(output.status.success());
        json_lines(&output.stdout).remove(0)
    };

    let (first, second) = (run(), run());

    let counts = |v: &Value| {
        (
            v["games"].clone(),
            v["x_wins"].clone(),
            v["o_wins"].clone(),
            v["draws"].clone(),
        )
    };
    assert_eq!(counts(&first), counts(&second));
    assert_eq!(first["games"], 500);
    let total: u64 = ["x_wins", "o_wins", "draws"]
        .iter()
        .map(|k| first[k].as_u64().unwrap())
        .sum();
    assert_eq!(total, 500);
    assert!(first["seconds"].is_number());
}

#[test]
fn two_impossible_players_always_draw() {
    let output = output_of("simulate --x impossible --o impossible --games 2000 --json");

    let tally = json_lines(&output.stdout).remove(0);
    assert_eq!(
        (tally["draws"].clone(), tally["games"].clone()),
        (json!(2000), json!(2000))
    );
}

#[test]
fn simulate_without_players_plays_the_perfect_player_against_itself() {
    let output = output_of("simulate --games 200");

    assert!(output.status.success(), "{output:?}");
    let said = String::from_utf8(output.stdout).unwrap();
    assert!(
        said.starts_with(
            "200 games, Computer (Impossible, X) vs Computer (Impossible, O): X won 0, O won 0, \
             200 draws, in "
        ),
        "{said}"
    );
}

#[test]
fn simulates_usage_shows_its_players_as_optional() {
    run("simulate --help")
        .success()
        .stdout(predicate::str::contains("[default: impossible]"))
        .stdout(predicate::str::contains(
            "Usage: tictactoe simulate [OPTIONS]",
        ));
}

/// The old scoreboard setting, left in the environment.
const OLD_SETTING: (&str, &str) = ("TICTACTOE_SCOREBOARD", "/tmp/scores.json");

#[rstest::rstest]
#[case::analyze("analyze --json xx./oo./...", "\"best_moves\":[3]")]
#[case::simulate("simulate --x random --o random --games 10", "10 games")]
fn a_command_that_keeps_no_games_runs_whatever_the_old_scoreboard_setting_says(
    #[case] line: &str,
    #[case] said: &str,
) {
    tictactoe()
        .env(OLD_SETTING.0, OLD_SETTING.1)
        .args(words(line))
        .assert()
        .success()
        .stdout(predicate::str::contains(said));
}

#[test]
fn a_command_that_keeps_games_still_refuses_the_old_scoreboard_setting() {
    tictactoe()
        .env(OLD_SETTING.0, OLD_SETTING.1)
        .arg("scores")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--db PATH"));
}

/// Runs the program with `args`, its standard output a pipe closed before it writes;
/// gives its exit status and what it said on standard error.
fn with_output_closed(args: &[&str]) -> (Option<i32>, String) {
    let mut child = common::program()
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).to_string(),
    )
}

#[rstest::rstest]
#[case::analyze_json(&["analyze", "--json", "xx./oo./...", "........."])]
#[case::analyze_text(&["analyze", "xx./oo./..."])]
#[case::simulate_json(&["simulate", "--x", "easy", "--o", "easy", "--games", "20", "--json"])]
#[case::simulate_text(&["simulate", "--x", "easy", "--o", "easy", "--games", "20"])]
fn output_nobody_reads_ends_the_command_without_a_panic(#[case] args: &[&str]) {
    let (status, said) = with_output_closed(args);

    assert!(matches!(status, Some(0 | 1)), "{status:?}: {said}");
    assert!(!said.contains("panicked"), "{said}");
}

#[test]
fn simulate_refuses_humans_and_never_touches_the_database() {
    let db = Database::new();

    db.tictactoe()
        .args(words("simulate --x human --o easy"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("computers only"));
    db.tictactoe()
        .args(words("simulate --x easy --o easy --games 50"))
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "50 games, Computer (Easy, X) vs Computer (Easy, O)",
        ));

    assert!(!db.path.exists());
}

#[test]
fn sizes_and_runs_out_of_range_are_usage_errors_that_say_the_range() {
    run("analyze --size 8 .........")
        .code(2)
        .stderr(predicate::str::contains(
            "board size must be from 3 to 7, not 8",
        ));
    run("play --x easy --o easy --size 4 --win 5")
        .code(2)
        .stderr(predicate::str::contains(
            "the run to win must be from 3 to the board size (4), not 5",
        ));
    run("simulate --x easy --o easy --win 2").code(2);
}

#[test]
fn analyze_proves_4x4_and_says_so() {
    let output = output_of("analyze --json --size 4 xo../.x../..o./....");

    let answer = json_lines(&output.stdout).remove(0);
    assert_eq!(answer["exact"], true);
    assert_eq!(answer["board"], "XO...X....O.....");
    assert_eq!(answer["to_move"], "X");
}

#[rstest::rstest]
#[case::four_on_5x5("5", "4")]
#[case::five_on_6x6("6", "5")]
#[case::four_on_6x6("6", "4")]
fn analyze_without_a_time_limit_proves_an_empty_board(#[case] size: &str, #[case] win: &str) {
    let empty = ".".repeat(size.parse::<usize>().unwrap().pow(2));

    let output = tictactoe()
        .args(["analyze", "--json", "--size", size, "--win", win, &empty])
        .output()
        .unwrap();

    let answer = json_lines(&output.stdout).remove(0);
    assert_eq!(answer["exact"], true, "{answer}");
}

#[test]
fn without_time_to_prove_analyze_estimates_and_its_move_is_one_of_its_best() {
    let output = tictactoe()
        .args(words("analyze --json --size 7 --win 5 --think-ms 30"))
        // X in two corners and O in the other two: a (7,7,5) position the opening book
        // does not hold (it answers every position of one or two moves in full).
        .arg(format!("x{0}x{1}o{0}o", ".".repeat(5), ".".repeat(35)))
        .output()
        .unwrap();

    let answer = json_lines(&output.stdout).remove(0);
    assert_eq!(answer["exact"], false);
    let best: Vec<u64> = answer["best_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_u64().unwrap())
        .collect();
    assert!(best.contains(&answer["move"].as_u64().unwrap()), "{answer}");
}

/// A (7,7,5) position the opening book does not hold: a win for X in 19 plies, by cell
/// 24 alone, which takes about two minutes to prove here.
const HARD: &str = "........................XX......O.........O......";

/// `analyze` of [`HARD`] on (7,7,5), with `options`.
fn analyze_hard(options: &[&str]) -> std::process::Output {
    tictactoe()
        .args(words("analyze --size 7 --win 5"))
        .args(options)
        .arg(HARD)
        .output()
        .unwrap()
}

#[test]
fn a_value_cut_short_by_the_time_limit_never_reads_as_exact() {
    // Act: one second, where the exact answer takes minutes.
    let output = analyze_hard(&["--json", "--think-ms", "1000"]);

    // Assert: a win if it was proven in time; otherwise a bound or nothing, with no
    // length of the game claimed; never a draw (or a loss), which would be false.
    let answer = json_lines(&output.stdout).remove(0);
    let value = answer["value"].as_str().unwrap();
    assert!(
        ["win", "at_least_draw", "unknown"].contains(&value),
        "{answer}"
    );
    if value != "win" {
        assert_eq!(answer["exact"], false, "{answer}");
        assert!(answer.get("plies").is_none(), "{answer}");
    }
}

#[test]
fn on_a_pipe_a_long_analysis_shows_no_progress() {
    let output = analyze_hard(&["--think-ms", "500"]);

    assert!(output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

#[test]
fn a_run_shorter_than_the_board_wins() {
    let output = output_of("analyze --json --size 5 --win 3 xxx../oo.../...../...../.....");

    assert_eq!(
        json_lines(&output.stdout)[0],
        json!({"board": "XXX..OO..................", "status": "x_won"})
    );
}

#[test]
fn a_human_game_on_4x4_is_played_through_stdin() {
    let db = Database::new();

    db.tictactoe()
        .args(words("play --x human:Ada --o human:Bob --size 4"))
        .write_stdin("1\n5\n2\n6\nc1\n7\nd1\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("Ada (X), your move [1-16]: "))
        .stdout(predicate::str::contains("Ada (X) wins!"));
}

#[test]
fn simulate_plays_larger_boards() {
    let output = output_of("simulate --x medium --o easy --size 5 --win 4 --games 50 --json");

    assert!(output.status.success());
    assert_eq!(json_lines(&output.stdout)[0]["games"], 50);
}
