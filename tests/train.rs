//! `train`, as people and scripts use it: the open puzzles of a person's reviewed games
//! listed, a right answer kept (and a puzzle solved twice, another between, retired), a
//! wrong one told why and kept, what is not an answer asked again, and the end of
//! input.

use predicates::prelude::*;

use serde_json::Value;

use common::{Database, json_lines};

mod common;

/// Ada's open puzzles, as `train --list --json` gives them.
fn open_puzzles(db: &Database) -> Vec<Value> {
    let output = db.output(&["train", "--player", "Ada", "--list", "--json"]);
    assert!(output.status.success(), "{output:?}");
    json_lines(&output.stdout)
}

/// A right answer to `puzzle`: its first best move.
fn right_answer(puzzle: &Value) -> String {
    puzzle["best_moves"][0].to_string()
}

/// A wrong answer to `puzzle`: an empty cell that is not one of its best moves.
fn wrong_answer(puzzle: &Value) -> String {
    let best: Vec<u64> = puzzle["best_moves"]
        .as_array()
        .expect("best moves")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    let board = puzzle["board"].as_str().expect("a board");
    let cell = board
        .chars()
        .zip(1u64..)
        .find(|&(mark, number)| mark == '.' && !best.contains(&number))
        .map(|(_, number)| number)
        .expect("a move that throws the value away");
    cell.to_string()
}

/// `train --player Ada` answering with `typed`.
fn train(db: &Database, typed: &str) -> assert_cmd::assert::Assert {
    db.tictactoe()
        .args(["train", "--player", "Ada"])
        .write_stdin(typed)
        .assert()
}

/// Ada's one puzzle, answered with what `answer` makes of it: the session, and the
/// database.
fn answered_once(answer: fn(&Value) -> String) -> (assert_cmd::assert::Assert, Database) {
    let db = Database::new();
    db.with_one_slip_of_adas();
    let puzzle = open_puzzles(&db).remove(0);
    let session = train(&db, &format!("{}\n", answer(&puzzle)));
    (session, db)
}

/// Two of Ada's puzzles, the first answered by typing what `typed` makes of it: the
/// session, and the database.
fn the_first_of_two_answered(
    typed: impl Fn(&Value) -> String,
) -> (assert_cmd::assert::Assert, Database) {
    let db = Database::new();
    db.with_one_slip_of_adas();
    db.with_one_slip_of_adas();
    let first = open_puzzles(&db).remove(0);
    let session = train(&db, &typed(&first));
    (session, db)
}

/// Asserts that `session` succeeded and printed each of `said`.
fn succeeded_saying(session: assert_cmd::assert::Assert, said: &[&str]) {
    let printed = String::from_utf8_lossy(&session.success().get_output().stdout).into_owned();
    for words in said {
        assert!(printed.contains(words), "{words:?} not in {printed}");
    }
}

/// How many answers the database keeps.
fn attempts_kept(db: &Database) -> i64 {
    rusqlite::Connection::open(&db.path)
        .unwrap()
        .query_row("SELECT count(*) FROM puzzle_attempts", [], |row| row.get(0))
        .unwrap()
}

#[test]
fn the_open_puzzles_are_listed_as_json_one_object_per_line() {
    let db = Database::new();
    db.with_one_slip_of_adas();

    let puzzles = open_puzzles(&db);

    assert_eq!(puzzles.len(), 1);
    let puzzle = &puzzles[0];
    assert_eq!(puzzle["game"].as_str().map(str::len), Some(32));
    assert_eq!(puzzle["board"].as_str().map(str::len), Some(9));
    assert_eq!(
        (&puzzle["to_move"], &puzzle["value"]),
        (&Value::from("X"), &Value::from("draw"))
    );
    assert!(puzzle["ply"].as_u64().is_some_and(|ply| ply % 2 == 1));
    assert!(!puzzle["best_moves"].as_array().unwrap().is_empty());
}

#[test]
fn a_game_not_reviewed_makes_no_puzzle_and_the_listing_says_so() {
    // Arrange: a game lost, not reviewed.
    let db = Database::new();
    db.ada_loses_to_impossible();

    // Act / Assert
    db.run(&["train", "--player", "Ada", "--list"])
        .success()
        .stdout(predicate::str::contains(
            "No puzzles for Ada on any board: no slip of theirs in a reviewed game is open.",
        ))
        .stderr(predicate::str::contains(
            "1 of Ada's games has no review yet",
        ));
}

#[test]
fn a_player_with_no_ended_game_is_told_that_puzzles_come_from_playing() {
    let db = Database::new();
    db.ada_loses_to_impossible();

    let listed = db.run(&["train", "--player", "Nobody", "--list"]);

    listed.success().stdout(predicate::str::contains(
        "No puzzles for Nobody on any board: no game of theirs has ended here yet. Play one: \
         its slips become puzzles.",
    ));
}

#[test]
fn training_reviews_the_games_not_reviewed_yet_and_puts_their_slips_with_the_boards_rule() {
    // Arrange: a game lost, not reviewed: playing is all Ada did.
    let db = Database::new();
    db.ada_loses_to_impossible();

    // Act: q at the first puzzle.
    let session = train(&db, "q\n");

    // Assert: reviewed, said so, and her slip put to her with how many in a row win.
    session
        .success()
        .stderr(predicate::str::contains(
            "Reviewing 1 game of Ada's not reviewed yet",
        ))
        .stdout(predicate::str::contains("Puzzle 1 of 1: game "))
        .stdout(predicate::str::contains("(3x3: 3 in a row wins)"));
    assert_eq!(open_puzzles(&db).len(), 1);
}

/// Right (solved once) or wrong, an answer is said, kept, and leaves the puzzle open.
#[rstest::rstest]
#[case::a_right_answer_is_said_and_kept_and_the_puzzle_comes_back_once_more(
    right_answer,
    &[
        "X to move; X had a draw here.",
        "Right: ",
        "It comes back once more",
        "0 puzzles retired; 1 comes back next time.",
    ],
)]
#[case::a_wrong_answer_is_told_what_it_leaves_and_kept_and_another_try_is_offered(
    wrong_answer,
    &["Not that one: ", "leaves a loss.", "Try again [1-9]"],
)]
fn one_answer_is_said_and_kept_and_the_puzzle_stays(
    #[case] answer: fn(&Value) -> String,
    #[case] said: &[&str],
) {
    let (answered, db) = answered_once(answer);

    succeeded_saying(answered, said);
    assert_eq!(attempts_kept(&db), 1);
    assert_eq!(open_puzzles(&db).len(), 1);
}

#[test]
fn after_a_wrong_answer_enter_shows_the_reviews_words_and_the_next_puzzle_follows() {
    // Arrange / Act: two puzzles; a wrong answer to the first, then Enter for the
    // answer; input ends at the second.
    let (session, db) = the_first_of_two_answered(|first| format!("{}\n\n", wrong_answer(first)));

    // Assert
    succeeded_saying(
        session,
        &[
            "In the game, Move ",
            "threw away the draw (a loss left);",
            "The puzzle stays.",
            "Puzzle 2 of 2",
        ],
    );
    assert_eq!(attempts_kept(&db), 1);
}

#[test]
fn a_puzzle_solved_twice_with_another_puzzle_between_retires() {
    // Arrange: two puzzles, both solved in one session (the newer game's first).
    let db = Database::new();
    db.with_one_slip_of_adas();
    db.with_one_slip_of_adas();
    let puzzles = open_puzzles(&db);
    assert_eq!(puzzles.len(), 2);
    let both = format!(
        "{}\n{}\n",
        right_answer(&puzzles[0]),
        right_answer(&puzzles[1])
    );
    train(&db, &both).success();

    // Act: the first solved again (the other was tried between), then input ends.
    let session = train(&db, &format!("{}\n", right_answer(&puzzles[0])));
    succeeded_saying(
        session,
        &[
            "Solved twice, apart: the puzzle retires.",
            "1 puzzle retired; 1 comes back next time.",
        ],
    );

    // Assert: only the other is left.
    let open = open_puzzles(&db);
    assert_eq!(open.len(), 1);
    assert_eq!(open[0]["game"], puzzles[1]["game"]);
}

#[test]
fn what_is_not_an_answer_is_refused_asked_again_and_nothing_is_kept() {
    // Arrange: 5 is Ada's own first move, always taken.
    let db = Database::new();
    db.with_one_slip_of_adas();

    // Act
    let answered = train(&db, "ten\n5\n42\n");

    // Assert
    succeeded_saying(
        answered,
        &[
            "\"ten\" is not a cell",
            "cell 5 is already taken",
            "there is no cell 42: choose 1 to 9",
        ],
    );
    assert_eq!(attempts_kept(&db), 0);
}

#[test]
fn the_end_of_input_stops_cleanly_with_the_answers_so_far_kept() {
    // Arrange / Act: two puzzles; only the first answered.
    let (answered, db) = the_first_of_two_answered(|first| format!("{}\n", right_answer(first)));

    // Assert
    succeeded_saying(
        answered,
        &["Input ended: 1 answered, 1 right, 0 wrong; every answer is kept."],
    );
    assert_eq!(attempts_kept(&db), 1);
}

#[test]
fn training_without_a_player_is_a_usage_error() {
    let db = Database::new();

    db.run(&["train"])
        .code(2)
        .stderr(predicate::str::contains("--player <NAME>"));
}
