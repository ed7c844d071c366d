//! Reading the scoreboard file of earlier versions, from real files.

use std::fs;

use rstest::rstest;
use tempfile::TempDir;

use tictactoe_core::domain::{PlayerName, Record};
use tictactoe_core::ports::StoreError;
use tictactoe_json_store::read_scoreboard;

fn name(text: &str) -> PlayerName {
    PlayerName::stored(text).unwrap()
}

#[test]
fn a_missing_file_is_no_scoreboard() {
    let folder = TempDir::new().unwrap();

    let read = read_scoreboard(&folder.path().join("scores.json"));

    assert!(matches!(read, Ok(None)));
}

#[test]
fn an_empty_file_is_an_empty_scoreboard() {
    let folder = TempDir::new().unwrap();
    let path = folder.path().join("scores.json");
    fs::write(&path, "").unwrap();

    let read = read_scoreboard(&path).unwrap().unwrap();

    assert!(read.is_empty());
}

#[test]
fn a_file_written_by_an_earlier_version_is_read_row_by_row() {
    // Arrange: the file as version 1 wrote it, "games" included (and not trusted).
    let folder = TempDir::new().unwrap();
    let path = folder.path().join("scores.json");
    fs::write(
        &path,
        r#"{"version": 1, "players": [
            {"name": "Ada", "wins": 3, "losses": 1, "ties": 2, "games": 99},
            {"name": "Computer (Impossible)", "wins": 5, "losses": 0, "ties": 4, "games": 9}
        ]}"#,
    )
    .unwrap();

    // Act
    let read = read_scoreboard(&path).unwrap().unwrap();

    // Assert
    assert_eq!(
        read.record_of(&name("ada")),
        Some(Record {
            wins: 3,
            losses: 1,
            ties: 2
        })
    );
    assert_eq!(read.standings()[0].name, name("Computer (Impossible)"));
}

#[rstest]
#[case::not_json("{ this is not json", "it is not valid JSON (line 1, column 3)")]
#[case::cut_short(r#"{"version": 1, "players": ["#, "it ends too soon")]
#[case::json_of_another_shape(
    r#"{"version": 1, "players": 7}"#,
    "it is JSON, but not a scoreboard"
)]
#[case::no_version(r#"{"players": []}"#, "it has no format version")]
#[case::a_bad_name(
    r#"{"version": 1, "players": [{"name": " ", "wins": 1, "losses": 0, "ties": 0}]}"#,
    "a player name"
)]
fn a_file_that_cannot_be_read_is_described_and_left_as_it_is(
    #[case] contents: &str,
    #[case] detail_starts: &str,
) {
    let folder = TempDir::new().unwrap();
    let path = folder.path().join("scores.json");
    fs::write(&path, contents).unwrap();

    let read = read_scoreboard(&path);

    let Err(StoreError::Unreadable { database, detail }) = read else {
        panic!("expected an unreadable file, got {read:?}");
    };
    assert_eq!(database, path.display().to_string());
    assert!(detail.starts_with(detail_starts), "{detail}");
    assert_eq!(fs::read_to_string(&path).unwrap(), contents);
}

#[test]
fn a_file_from_a_newer_version_is_refused() {
    let folder = TempDir::new().unwrap();
    let path = folder.path().join("scores.json");
    fs::write(&path, r#"{"version": 2, "players": []}"#).unwrap();

    let read = read_scoreboard(&path);

    assert!(matches!(
        read,
        Err(StoreError::Newer {
            found: 2,
            known: 1,
            ..
        })
    ));
}

#[test]
fn a_folder_is_not_a_scoreboard_file() {
    let folder = TempDir::new().unwrap();

    let read = read_scoreboard(folder.path());

    assert!(matches!(read, Err(StoreError::Folder { .. })));
}

#[test]
fn absurd_counts_in_the_file_are_read_without_overflowing() {
    let folder = TempDir::new().unwrap();
    let path = folder.path().join("scores.json");
    let max = u64::MAX;
    fs::write(
        &path,
        format!(
            r#"{{"version": 1, "players": [
                {{"name": "Ada", "wins": {max}, "losses": {max}, "ties": {max}}},
                {{"name": "ADA", "wins": {max}, "losses": 0, "ties": 0}}
            ]}}"#
        ),
    )
    .unwrap();

    let read = read_scoreboard(&path).unwrap().unwrap();

    assert_eq!(read.record_of(&name("Ada")).unwrap().games(), u64::MAX);
}
