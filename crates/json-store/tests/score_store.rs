//! The JSON scoreboard file: what it keeps, and what it refuses to destroy.

use std::fs;
use std::path::PathBuf;
use std::sync::Arc;
use std::thread;

use tempfile::TempDir;
use tictactoe_core::domain::{FinishedGame, Mark, Outcome, PlayerName, Record};
use tictactoe_core::ports::{Reset, ScoreStore, StoreError};
use tictactoe_json_store::JsonFileStore;

fn name(text: &str) -> PlayerName {
    PlayerName::stored(text).unwrap()
}

fn ada_beats_bob() -> FinishedGame {
    FinishedGame {
        x: name("Ada"),
        o: name("Bob"),
        outcome: Outcome::Won(Mark::X),
    }
}

fn store_in(folder: &TempDir) -> (JsonFileStore, PathBuf) {
    let path = folder.path().join("nested").join("scores.json");
    (JsonFileStore::new(&path), path)
}

#[test]
fn a_missing_file_is_an_empty_scoreboard() {
    let folder = TempDir::new().unwrap();
    let (store, path) = store_in(&folder);

    assert!(store.load().unwrap().is_empty());
    assert!(!path.exists(), "loading creates nothing");
}

#[test]
fn recorded_games_survive_a_new_store_on_the_same_file() {
    let folder = TempDir::new().unwrap();
    let (store, path) = store_in(&folder);

    store.record(&ada_beats_bob()).unwrap();
    store.record(&ada_beats_bob()).unwrap();
    let reloaded = JsonFileStore::new(&path).load().unwrap();

    assert_eq!(
        reloaded.record_of(&name("Ada")),
        Some(Record {
            wins: 2,
            losses: 0,
            ties: 0
        })
    );
    assert_eq!(
        reloaded.record_of(&name("Bob")),
        Some(Record {
            wins: 0,
            losses: 2,
            ties: 0
        })
    );
}

#[test]
fn the_file_is_versioned_json_people_can_read() {
    let folder = TempDir::new().unwrap();
    let (store, path) = store_in(&folder);

    store.record(&ada_beats_bob()).unwrap();

    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(json["version"], 1);
    assert_eq!(json["players"][0]["name"], "Ada");
    assert_eq!(json["players"][0]["games"], 1);
}

#[test]
fn a_file_that_cannot_be_parsed_is_never_overwritten() {
    let folder = TempDir::new().unwrap();
    let (store, path) = store_in(&folder);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, b"{ this is not json").unwrap();

    let error = store.record(&ada_beats_bob()).unwrap_err();

    assert!(matches!(error, StoreError::Corrupt { .. }));
    assert!(
        error.to_string().contains(&path.display().to_string()),
        "{error}"
    );
    assert!(error.to_string().contains("left as it is"), "{error}");
    assert_eq!(fs::read(&path).unwrap(), b"{ this is not json");
}

#[test]
fn a_file_from_a_newer_version_is_refused_not_mangled() {
    let folder = TempDir::new().unwrap();
    let (store, path) = store_in(&folder);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let newer = br#"{"version": 2, "players": [], "teams": []}"#;
    fs::write(&path, newer).unwrap();

    let error = store.record(&ada_beats_bob()).unwrap_err();

    assert!(
        matches!(
            error,
            StoreError::NewerFormat {
                found: 2,
                supported: 1,
                ..
            }
        ),
        "{error}"
    );
    assert_eq!(fs::read(&path).unwrap(), newer);
}

#[test]
fn absurd_counts_in_the_file_do_not_crash_the_next_game() {
    let folder = TempDir::new().unwrap();
    let (store, path) = store_in(&folder);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let max = u64::MAX;
    fs::write(
        &path,
        format!(r#"{{"version":1,"players":[{{"name":"Ada","wins":{max},"losses":0,"ties":0}}]}}"#),
    )
    .unwrap();

    let scoreboard = store.record(&ada_beats_bob()).unwrap();

    assert_eq!(
        scoreboard.record_of(&name("Ada")).map(|r| r.wins),
        Some(u64::MAX)
    );
}

#[test]
fn reset_moves_an_unreadable_file_aside_and_starts_fresh() {
    let folder = TempDir::new().unwrap();
    let (store, path) = store_in(&folder);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, b"garbage").unwrap();

    let Reset::MovedAside(aside) = store.reset().unwrap() else {
        panic!("expected the file to be moved aside")
    };

    assert_eq!(fs::read(&aside).unwrap(), b"garbage");
    assert_eq!(aside.parent(), path.parent(), "kept next to the scoreboard");
    assert!(
        aside
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("scores.json.unreadable-")
    );
    assert!(store.load().unwrap().is_empty());
}

#[test]
fn reset_clears_a_readable_scoreboard() {
    let folder = TempDir::new().unwrap();
    let (store, _) = store_in(&folder);
    store.record(&ada_beats_bob()).unwrap();

    let kept = match store.reset().unwrap() {
        Reset::Cleared { kept: Some(kept) } => kept,
        other => panic!("expected the old file kept, got {other:?}"),
    };
    assert_eq!(
        JsonFileStore::new(&kept).load().unwrap().standings().len(),
        2
    );
    assert!(store.load().unwrap().is_empty());
}

#[test]
fn a_folder_that_cannot_be_created_is_an_error_naming_the_path() {
    let folder = TempDir::new().unwrap();
    let file = folder.path().join("a-file");
    fs::write(&file, b"").unwrap();
    let store = JsonFileStore::new(file.join("scores.json"));

    let error = store.record(&ada_beats_bob()).unwrap_err();

    assert!(matches!(error, StoreError::Io { .. }));
    assert!(error.to_string().contains("a-file"), "{error}");
}

#[test]
fn games_recorded_at_the_same_moment_are_all_counted() {
    // Separate stores on one file, as separate processes would have; the lock is taken
    // on a separate open file each time, so threads contend exactly as processes do.
    let folder = TempDir::new().unwrap();
    let (_, path) = store_in(&folder);
    let path = Arc::new(path);
    let writers: Vec<_> = (0..8)
        .map(|_| {
            let path = Arc::clone(&path);
            thread::spawn(move || {
                let store = JsonFileStore::new(path.as_path());
                for _ in 0..25 {
                    store.record(&ada_beats_bob()).unwrap();
                }
            })
        })
        .collect();
    for writer in writers {
        writer.join().unwrap();
    }

    let scoreboard = JsonFileStore::new(path.as_path()).load().unwrap();

    assert_eq!(
        scoreboard.record_of(&name("Ada")).map(|r| r.wins),
        Some(200)
    );
    assert_eq!(
        scoreboard.record_of(&name("Bob")).map(|r| r.losses),
        Some(200)
    );
}

#[test]
fn games_recorded_together_are_all_counted_in_one_write() {
    let folder = TempDir::new().unwrap();
    let (store, path) = store_in(&folder);
    let draw = FinishedGame {
        outcome: Outcome::Draw,
        ..ada_beats_bob()
    };

    let answered = store
        .record_all(&[ada_beats_bob(), draw, ada_beats_bob()])
        .unwrap();

    let expected = Some(Record {
        wins: 2,
        losses: 0,
        ties: 1,
    });
    assert_eq!(answered.record_of(&name("Ada")), expected);
    assert_eq!(
        JsonFileStore::new(&path)
            .load()
            .unwrap()
            .record_of(&name("Ada")),
        expected
    );
}

#[test]
fn json_that_is_not_a_scoreboard_is_described_in_a_readers_words() {
    let folder = TempDir::new().unwrap();
    let (store, path) = store_in(&folder);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, b"[]").unwrap();

    let error = store.load().unwrap_err().to_string();

    assert!(
        error.contains("it is JSON, but not a scoreboard (line 1, column"),
        "{error}"
    );
    assert!(
        !error.contains("VersionOnly") && !error.contains("struct"),
        "{error}"
    );
}
