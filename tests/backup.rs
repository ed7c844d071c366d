//! `tictactoe backup --to FILE`: a copy of the database a server is writing, one moment
//! of it, checked as `check` checks a database.
#![cfg(unix)]

use std::collections::BTreeSet;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;

mod common;

/// Games begun (Ada against Easy) and moved in, one after another, through the server
/// at `address` until `stop`: the id of each game the server answered for, once the
/// answer is in.
async fn writing_games(address: String, answered: Arc<Mutex<Vec<String>>>, stop: Arc<AtomicBool>) {
    let client = reqwest::Client::new();
    while !stop.load(Ordering::SeqCst) {
        let begun = client.post(format!("{address}/api/games"));
        let begun = begun.json(&json!({ "x": "human:Ada", "o": "easy" })).send();
        let begun: serde_json::Value = begun.await.unwrap().json().await.unwrap();
        let id = begun["id"].as_str().unwrap().to_string();
        answered.lock().unwrap().push(id.clone());
        let token = begun["seats"]["x"]["token"].as_str().unwrap();
        let move_ = client.post(format!("{address}/api/games/{id}/moves"));
        move_
            .bearer_auth(token)
            .json(&json!({ "cell": 4 }))
            .send()
            .await
            .unwrap();
    }
}

/// The ids of the games in the SQLite file at `path`.
fn games_in(path: &std::path::Path) -> BTreeSet<String> {
    let copy = rusqlite::Connection::open(path).unwrap();
    let mut ids = copy.prepare("SELECT id FROM games").unwrap();
    ids.query_map([], |row| row.get::<_, String>(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn a_backup_taken_while_games_are_written_holds_every_game_answered_before_it_and_checks_whole() {
    // Arrange: a server, and four clients beginning games on it without a pause.
    let folder = tempfile::TempDir::new().unwrap();
    let database = folder.path().join("games.db");
    let copy = folder.path().join("copy.db");
    let (mut server, address) = common::serve(database.to_str().unwrap(), &[], Stdio::null());
    let answered = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let writers: Vec<_> = (0..4)
        .map(|_| {
            runtime.spawn(writing_games(
                address.clone(),
                Arc::clone(&answered),
                Arc::clone(&stop),
            ))
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));

    // Act
    let before: Vec<String> = answered.lock().unwrap().clone();
    let backup = common::tictactoe_on(&database)
        .args(["backup", "--to", copy.to_str().unwrap()])
        .output()
        .unwrap();

    // Assert: the copy said checked, and every game answered before it began is in it.
    stop.store(true, Ordering::SeqCst);
    runtime.block_on(async {
        for writer in writers {
            writer.await.unwrap();
        }
    });
    let _ = server.kill();
    let _ = server.wait();
    let said = String::from_utf8_lossy(&backup.stdout);
    assert!(backup.status.success(), "{said}{backup:?}");
    assert!(said.contains("copy.db: no damage found"), "{said}");
    let kept = games_in(&copy);
    let missing: Vec<_> = before.iter().filter(|id| !kept.contains(*id)).collect();
    assert!(before.len() > 10, "only {} games were begun", before.len());
    assert_eq!(missing, Vec::<&String>::new());
    let checked = common::tictactoe_on(&copy).arg("check").output().unwrap();
    assert!(checked.status.success(), "{checked:?}");
}

#[test]
fn a_backup_refuses_to_write_over_a_file_and_says_how_to() {
    // Arrange
    let database = common::Database::new();
    database.ada_loses_to_impossible();
    let folder = tempfile::TempDir::new().unwrap();
    let copy = folder.path().join("copy.db");
    std::fs::write(&copy, "mine").unwrap();

    // Act
    let refused = database.output(&["backup", "--to", copy.to_str().unwrap()]);

    // Assert
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("is already there: nothing was written"),
        "{said}"
    );
    assert!(said.contains("--overwrite"), "{said}");
    assert_eq!(std::fs::read_to_string(&copy).unwrap(), "mine");
}

#[test]
fn a_backup_of_a_postgresql_database_says_to_use_pg_dump() {
    // Arrange: nothing is reached; the address alone says what it is.
    let folder = tempfile::TempDir::new().unwrap();
    let copy = folder.path().join("copy.dump");

    // Act
    let refused = common::tictactoe()
        .args([
            "--db",
            "postgres://ada:secret@db.invalid/games",
            "backup",
            "--to",
        ])
        .arg(&copy)
        .output()
        .unwrap();

    // Assert
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("pg_dump --format=custom"), "{said}");
    assert!(!said.contains("secret"), "{said}");
    assert!(!copy.exists());
}
