//! `ratings`, as people and scripts use it: a board's players by rating with the levels'
//! anchors among them, the change said on the result screen and in the history, and a
//! rebuild that gives the same figures.

use std::path::Path;

use predicates::prelude::*;
use serde_json::Value;

use common::{Database, json_lines_of, tictactoe_on, words};

mod common;

/// `ratings --json` with `args`: the rows listed.
fn ratings_json(database: &Path, args: &[&str]) -> Vec<Value> {
    json_lines_of(
        tictactoe_on(database)
            .args(["ratings", "--json"])
            .args(args),
    )
}

fn row<'a>(rows: &'a [Value], name: &str) -> &'a Value {
    rows.iter()
        .find(|row| row["name"] == name)
        .unwrap_or_else(|| panic!("no row for {name} in {rows:?}"))
}

#[test]
fn a_board_without_rated_games_lists_the_four_levels_as_anchors() {
    let db = Database::new();
    db.run(&words("--plain play --x random --o easy")).success();

    let rows = ratings_json(&db.path, &[]);

    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|row| row["anchor"] == true));
    assert_eq!(row(&rows, "Computer (Random)")["rating"], 1000);
}

#[test]
fn a_game_whose_computer_was_seeded_rates_nobody() {
    // Arrange: with --seed the computer's replies are the same every time: a line
    // that beat it once would beat it again, so the game is casual.
    let db = Database::new();
    db.played(
        "--plain --seed 3 play --x human:Ada --o random",
        "5\n1\n2\n3\n4\n6\n7\n8\n9\n",
    );

    // Act
    let rows = ratings_json(&db.path, &[]);

    // Assert: the levels' anchors alone.
    assert!(rows.iter().all(|row| row["anchor"] == true), "{rows:?}");
}

#[test]
fn a_person_who_lost_to_impossible_is_listed_below_1500_provisional() {
    let db = Database::new();
    db.ada_loses_to_impossible();

    let rows = ratings_json(&db.path, &[]);

    let ada = row(&rows, "Ada");
    assert!(ada["rating"].as_i64().unwrap() < 1500, "{ada}");
    assert_eq!(ada["provisional"], true);
    assert_eq!(ada["games"], 1);
    assert_eq!(ada["anchor"], false);
}

#[test]
fn each_row_has_exactly_the_documented_fields() {
    let db = Database::new();
    db.ada_loses_to_impossible();

    let rows = ratings_json(&db.path, &[]);

    let mut keys: Vec<&str> = row(&rows, "Ada")
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "anchor",
            "deviation",
            "games",
            "name",
            "provisional",
            "rating"
        ]
    );
}

#[test]
fn a_rating_on_three_by_three_is_not_listed_on_another_board() {
    let db = Database::new();
    db.ada_loses_to_impossible();

    let rows = ratings_json(&db.path, &["--size", "4", "--win", "3"]);

    assert!(rows.iter().all(|row| row["name"] != "Ada"));
}

#[test]
fn the_result_screen_says_the_change_of_the_person_s_rating() {
    let db = Database::new();

    let printed = db.ada_loses_to_impossible();

    assert!(
        printed.contains("Rating: Ada 1,500 → "),
        "the result screen said:\n{printed}"
    );
}

#[test]
fn a_replay_line_by_line_ends_with_the_change_of_the_person_s_rating() {
    let db = Database::new();
    db.ada_loses_to_impossible();

    let replayed = db.run(&["replay", "last", "--plain"]);

    replayed.success().stdout(predicate::str::ends_with(
        "Rating: Ada 1,500 → 1,350? (−150).\n",
    ));
}

#[test]
fn the_history_says_each_game_s_rating_change() {
    let db = Database::new();
    db.ada_loses_to_impossible();

    db.run(&["history"])
        .success()
        .stdout(predicate::str::contains("Rating").and(predicate::str::contains("Ada 1,500 → ")));
}

#[test]
fn the_table_marks_a_provisional_rating_and_the_anchors() {
    let db = Database::new();
    db.ada_loses_to_impossible();

    db.run(&["ratings"]).success().stdout(
        predicate::str::is_match(r"Ada\s+1,\d\d\d\?")
            .unwrap()
            .and(predicate::str::contains("anchor")),
    );
}

#[test]
fn the_table_lists_a_provisional_rating_apart_below_the_ranking() {
    let db = Database::new();
    db.ada_loses_to_impossible();

    let printed = db.run(&["ratings"]).success().get_output().stdout.clone();

    let printed = String::from_utf8(printed).unwrap();
    let (ranking, provisional) = printed.split_once("\nProvisional (?)").expect(&printed);
    assert!(!ranking.contains("Ada"), "{printed}");
    assert!(ranking.contains("Computer (Random)"), "{printed}");
    assert!(provisional.contains("Ada"), "{printed}");
}

#[test]
fn a_rebuild_gives_the_same_ratings() {
    let db = Database::new();
    db.ada_loses_to_impossible();
    db.ada_loses_to_impossible();
    let before = ratings_json(&db.path, &[]);

    let after = ratings_json(&db.path, &["--rebuild", "--yes"]);

    assert_eq!(after, before);
}

#[test]
fn a_rebuild_not_from_a_terminal_needs_yes() {
    let db = Database::new();
    db.ada_loses_to_impossible();

    db.run(&["ratings", "--rebuild"])
        .failure()
        .stderr(predicate::str::contains("--yes"));
}

#[test]
fn ratings_of_one_player_list_a_row_per_board_they_were_rated_on() {
    // Arrange: Ada rated on 3x3 and on 4x4.
    let db = Database::new();
    db.ada_loses_to_impossible();
    db.played(
        "--plain play --x human:Ada --o random --size 4",
        "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n",
    );

    // Act
    let rows = ratings_json(&db.path, &["--player", "ada"]);

    // Assert
    let boards: Vec<(&Value, &Value)> =
        rows.iter().map(|row| (&row["size"], &row["win"])).collect();
    assert_eq!(
        boards,
        [
            (&Value::from(3), &Value::from(3)),
            (&Value::from(4), &Value::from(4))
        ]
    );
    assert!(
        rows.iter()
            .all(|row| row["name"] == "Ada" && row["games"] == 1),
        "{rows:?}"
    );
    db.run(&["ratings", "--player", "Ada"])
        .success()
        .stdout(predicate::str::contains("Ratings of Ada, one per board"))
        .stdout(predicate::str::contains("4x4"));
}

#[test]
fn ratings_top_zero_is_refused_in_words_not_a_raw_range() {
    let db = Database::new();

    db.run(&["ratings", "--top", "0"])
        .code(2)
        .stderr(predicate::str::contains(
            "0 rows would list nobody: give 1 or more",
        ))
        .stderr(predicate::str::contains("1..").not());
}

#[test]
fn history_json_carries_each_games_rating_change_and_whether_it_was_casual() {
    // Arrange: a rated game, then a casual one (--seed).
    let db = Database::new();
    db.ada_loses_to_impossible();
    db.played(
        "--plain --seed 3 play --x human:Ada --o random",
        "5\n1\n2\n3\n4\n6\n7\n8\n9\n",
    );

    // Act: newest first.
    let games = json_lines_of(tictactoe_on(&db.path).args(["history", "--json"]));

    // Assert
    let (casual, rated) = (&games[0], &games[1]);
    assert_eq!(
        (&casual["casual"], &casual["rating"]),
        (&Value::from(true), &serde_json::json!([]))
    );
    assert_eq!(rated["casual"], false);
    let change = &rated["rating"][0];
    assert_eq!(
        (&change["player"], &change["mark"], &change["before"]),
        (&Value::from("Ada"), &Value::from("X"), &Value::from(1500))
    );
    assert_eq!(
        change["change"].as_i64(),
        Some(change["after"].as_i64().unwrap() - 1500)
    );
    assert!(change["change"].as_i64().unwrap() < 0, "{change}");
}
