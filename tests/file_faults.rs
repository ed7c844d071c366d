//! The database file under faults, end to end: the program itself on real files, a
//! real server, and (where this process may mount one) a small disk that fills.
//! `tictactoe check`; `serve` on a damaged file; a file removed under a server;
//! garbage beside a valid log and a log with no database, refused byte for byte; a
//! game on a full disk.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use predicates::prelude::*;

mod common;
// The store's own fault tests do the same to a file: one copy, theirs.
#[path = "../crates/sqlite-store/tests/sqlite/disk.rs"]
mod disk;

use common::{Database, tictactoe_on};
use disk::{SmallDisk, damage, three};
use tictactoe_sqlite_store::beside;

/// A database at `path` with `games` games of two computers, closed in good order.
fn database_with_games(path: &Path, games: usize) {
    for _ in 0..games {
        tictactoe_on(path)
            .args(["play", "--x", "random", "--o", "random"])
            .assert()
            .success();
    }
}

/// A database of three games with two of its pages (tables' first pages, after the
/// schema's) overwritten.
fn damaged_database() -> Database {
    let db = Database::new();
    database_with_games(&db.path, 3);
    damage(&db.path, 3..=4);
    db
}

/// `serve` on the database at `path`, run to its end (which must come within 60 s: a
/// refusal to start).
fn served_to_its_end(path: &Path) -> assert_cmd::assert::Assert {
    tictactoe_on(path)
        .args(["serve", "--port", "0"])
        .timeout(Duration::from_secs(60))
        .assert()
}

/// A server on the database at `path` that has answered `games` new games: the server,
/// and its address. Its standard error goes to `stderr`.
fn server_with_games(path: &Path, games: usize, stderr: Stdio) -> (Child, String) {
    let (child, address) = common::serve(path.to_str().unwrap(), &[], stderr);
    for _ in 0..games {
        assert_eq!(new_game(&address).0, 201);
    }
    (child, address)
}

fn send_signal(child: &Child, signal: &str) {
    Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
}

/// A new game of two people on the server at `address`: the status, and the
/// `Retry-After` header.
fn new_game(address: &str) -> (u16, Option<String>) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let response = reqwest::Client::new()
            .post(format!("{address}/api/games"))
            .body(r#"{"x": "human:Ada", "o": "human:Bob"}"#)
            .header("content-type", "application/json")
            .send()
            .await
            .unwrap();
        let retry = response
            .headers()
            .get("retry-after")
            .map(|value| value.to_str().unwrap().to_string());
        (response.status().as_u16(), retry)
    })
}

/// The status of `GET address/readyz`.
fn readiness(address: &str) -> u16 {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        reqwest::get(format!("{address}/readyz"))
            .await
            .unwrap()
            .status()
            .as_u16()
    })
}

#[test]
fn check_says_a_whole_database_is_whole_and_exits_0() {
    let db = Database::new();
    database_with_games(&db.path, 3);

    let checked = db.run(&["check"]);

    checked
        .success()
        .stdout(predicate::str::contains("no damage found"));
}

#[test]
fn check_names_what_is_damaged_exits_1_and_leaves_the_file_byte_for_byte() {
    let db = damaged_database();
    let before = three(&db.path);

    let checked = db.run(&["check"]);

    checked
        .code(1)
        .stdout(predicate::str::contains("is damaged"))
        .stdout(predicate::str::contains("Nothing was changed"));
    assert_eq!(three(&db.path), before);
}

#[test]
fn check_on_a_missing_file_makes_nothing() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("typo.db");

    tictactoe_on(&path).arg("check").assert().code(1);

    assert!(!path.exists());
}

#[test]
fn serve_refuses_a_damaged_database_before_serving_and_leaves_it_byte_for_byte() {
    let db = damaged_database();
    let before = three(&db.path);

    let served = served_to_its_end(&db.path);

    served
        .code(1)
        .stdout(predicate::str::contains("Serving").not())
        .stderr(predicate::str::contains("is damaged"))
        .stderr(predicate::str::contains("--allow-damaged"));
    assert_eq!(three(&db.path), before);
}

#[test]
fn serve_with_allow_damaged_serves_a_damaged_database_and_says_so() {
    // Arrange
    let db = damaged_database();

    // Act
    let (child, address) = common::serve(
        db.path.to_str().unwrap(),
        &["--allow-damaged"],
        Stdio::piped(),
    );
    let ready = readiness(&address);
    send_signal(&child, "-INT");
    let output = child.wait_with_output().unwrap();

    // Assert
    let log = String::from_utf8_lossy(&output.stderr);
    assert_eq!(ready, 200);
    assert!(
        log.contains("is damaged") && log.contains("--allow-damaged"),
        "{log}"
    );
}

/// Waits up to `within` for `ready` to hold.
fn eventually(within: Duration, mut ready: impl FnMut() -> bool) -> bool {
    let started = Instant::now();
    while started.elapsed() < within {
        if ready() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// What a serving `child` did about `fault` done to its file: whether `/readyz` turned
/// 503 within 3 s, how a new game was answered then, and, once it was stopped, the
/// lines of its log that said its file is no longer at its path, with the whole log.
/// The server is stopped once it has said so (or after 5 s): on a busy machine its
/// first check may only find the store silent, and the cause comes with the next.
fn server_after(
    mut child: Child,
    address: &str,
    fault: impl FnOnce(),
) -> (bool, (u16, Option<String>), Vec<String>, String) {
    let (lines, heard) = std::sync::mpsc::channel();
    let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let reader = std::thread::spawn(move || {
        use std::io::BufRead;
        for line in stderr.lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    fault();
    let unready = eventually(Duration::from_secs(3), || readiness(address) == 503);
    let refused = new_game(address);
    let mut log = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while !log.iter().any(|line: &String| said_moved(line)) {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match heard.recv_timeout(left) {
            Ok(line) => log.push(line),
            Err(_) => break,
        }
    }
    send_signal(&child, "-INT");
    child.wait().unwrap();
    reader.join().unwrap();
    log.extend(heard.try_iter());
    let said = log
        .iter()
        .filter(|line| said_moved(line))
        .cloned()
        .collect();
    (unready, refused, said, log.join("\n"))
}

/// Whether a line of the server's log says its file is no longer at its path.
fn said_moved(line: &str) -> bool {
    line.contains("ERROR") && line.contains("no longer the file")
}

#[test]
fn a_file_removed_under_a_server_stops_its_writes_with_503_once_said_and_no_game_is_lost() {
    // Arrange: a server that has answered a game.
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("games.db");
    let (child, address) = server_with_games(&path, 1, Stdio::piped());

    // Act: the file removed; then a write, and the server stopped.
    let (unready, refused, said, log) =
        server_after(child, &address, || fs::remove_file(&path).unwrap());

    // Assert: not ready, the write refused with Retry-After, said once naming the
    // path, and the answered game back at the path for the next start.
    assert!(unready, "still ready with its file removed");
    assert_eq!(refused, (503, Some("1".to_string())));
    assert_eq!(said.len(), 1, "{log}");
    assert!(said[0].contains(path.to_str().unwrap()), "{log}");
    let games = tictactoe_on(&path)
        .args(["history", "--json"])
        .assert()
        .success();
    drop(games);
    let kept = rusqlite::Connection::open(&path)
        .unwrap()
        .query_row("SELECT count(*) FROM games", [], |row| row.get::<_, i64>(0))
        .unwrap();
    assert_eq!(kept, 1);
}

/// How many games the database at `path` holds, read without changing it.
fn games_in(path: &Path) -> i64 {
    rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .unwrap()
        .query_row("SELECT count(*) FROM games", [], |row| row.get(0))
        .unwrap()
}

/// The files in `folder` whose names start with `prefix`.
fn named(folder: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with(prefix))
        })
        .collect();
    found.sort();
    found
}

#[test]
fn a_file_replaced_under_a_server_stops_its_writes_and_its_games_are_saved_beside_the_other_file() {
    // Arrange: a server that has answered three games; another database, made apart.
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("games.db");
    let (child, address) = server_with_games(&path, 3, Stdio::piped());
    let other = folder.path().join("other.db");
    database_with_games(&other, 1);
    let others = fs::read(&other).unwrap();

    // Act: the other file moved over the server's; a write; the server stopped.
    let (unready, refused, said, log) =
        server_after(child, &address, || fs::rename(&other, &path).unwrap());

    // Assert: refused and said once, naming the path; the other file left byte for
    // byte, with no log of the server's beside it; the three games in the copy.
    assert!(unready, "still ready with its file replaced");
    assert_eq!(refused, (503, Some("1".to_string())));
    assert_eq!(said.len(), 1, "{log}");
    assert!(
        said[0].contains(path.to_str().unwrap()) && said[0].contains("replaced"),
        "{log}"
    );
    assert_eq!(fs::read(&path).unwrap(), others);
    assert!(!beside(&path, "-wal").exists());
    let saved = named(folder.path(), "games.db.saved-");
    assert_eq!(saved.len(), 1, "{saved:?}");
    assert!(said[0].contains(saved[0].to_str().unwrap()), "{log}");
    assert_eq!(games_in(&saved[0]), 3);
}

#[test]
fn a_console_command_on_the_path_of_a_file_removed_under_a_server_makes_no_second_database() {
    // Arrange: a server that has answered three games.
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("games.db");
    let (child, address) = server_with_games(&path, 3, Stdio::null());

    // Act: the file removed, and a console game on the path at once (before, or
    // after, the server finds it gone); another once the server has.
    fs::remove_file(&path).unwrap();
    let game = ["play", "--x", "random", "--o", "random"];
    let at_once = tictactoe_on(&path).args(game).output().unwrap();
    let unready = eventually(Duration::from_secs(3), || readiness(&address) == 503);
    let after = tictactoe_on(&path).args(game).output().unwrap();
    send_signal(&child, "-INT");
    child.wait_with_output().unwrap();

    // Assert: the game at once was refused for the server's log lying there with no
    // database, or played into the copy put back; never into a new database at the
    // path. The server's three games, and each console game played, at the path.
    assert!(unready);
    let said = String::from_utf8_lossy(&at_once.stderr);
    assert!(
        at_once.status.success() || said.contains("log of one lies beside it"),
        "{said}"
    );
    let said = String::from_utf8_lossy(&after.stderr);
    assert!(after.status.success(), "{said}");
    let played = if at_once.status.success() { 2 } else { 1 };
    assert_eq!(games_in(&path), 3 + played);
    assert_eq!(named(folder.path(), "games.db.saved-").len(), 1);
}

/// A server's database at `path` killed with SIGKILL after answering a game: its newest
/// pages are in its log.
fn database_with_a_live_log(path: &Path) {
    let (mut child, _) = server_with_games(path, 5, Stdio::null());
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(fs::metadata(beside(path, "-wal")).unwrap().len() > 0);
}

#[test]
fn garbage_beside_a_valid_log_stops_every_command_and_all_three_files_are_left_byte_for_byte() {
    // Arrange: 100,000 bytes of garbage where a database was, its log beside it.
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("games.db");
    database_with_a_live_log(&path);
    fs::write(&path, b"not a database, ".repeat(6250)).unwrap();
    let before = three(&path);

    // Act
    let scores = tictactoe_on(&path).args(["scores", "--json"]).assert();
    let check = tictactoe_on(&path).arg("check").assert();
    let serve = served_to_its_end(&path);

    // Assert
    scores
        .code(1)
        .stderr(predicate::str::contains("it was left as it is"));
    check.code(1);
    serve.code(1);
    assert_eq!(three(&path), before);
}

#[test]
fn a_log_with_no_database_beside_it_stops_a_command_and_no_second_database_is_made() {
    // Arrange: a live database's log and index, its file removed.
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("games.db");
    database_with_a_live_log(&path);
    fs::remove_file(&path).unwrap();
    let before = three(&path);

    // Act
    let played = tictactoe_on(&path)
        .args(["play", "--x", "random", "--o", "random"])
        .assert();

    // Assert
    played.code(1).stderr(predicate::str::contains("log"));
    assert!(!path.exists());
    assert_eq!(three(&path), before);
}

#[test]
fn a_game_on_a_full_disk_says_so_before_the_first_move() {
    let Some(disk) = SmallDisk::mount_or_skip("1m") else {
        return;
    };
    let path = disk.path().join("games.db");
    database_with_games(&path, 1);
    disk.fill();

    let played = tictactoe_on(&path)
        .args(["play", "--x", "human:Ada", "--o", "random"])
        .write_stdin("5\n1\n9\n")
        .assert();

    played
        .code(1)
        .stderr(predicate::str::contains("is full"))
        .stdout(predicate::str::contains("your move").not());
}

#[test]
fn check_on_postgresql_reads_what_is_cheap_and_names_an_invalid_index_and_serve_refuses_it() {
    // Arrange: a PostgreSQL database of this program, with one game.
    let url = tictactoe_test_postgres::database_or_return!();
    let database = Path::new(&url);
    database_with_games(database, 1);

    // Act: checked whole; then one of its indexes left invalid (as a failed CREATE
    // INDEX CONCURRENTLY leaves it), checked again, and served.
    let whole = tictactoe_on(database).arg("check").assert();
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let index: String = client
        .query_one(
            "SELECT c.relname::text FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid \
             JOIN pg_class t ON t.oid = i.indrelid WHERE t.relname = 'games' ORDER BY 1 LIMIT 1",
            &[],
        )
        .unwrap()
        .get(0);
    client
        .execute(
            "UPDATE pg_index SET indisvalid = false WHERE indexrelid = $1::text::regclass",
            &[&index],
        )
        .unwrap();
    let damaged = tictactoe_on(database).arg("check").assert();
    let served = served_to_its_end(database);

    // Assert
    whole
        .success()
        .stdout(predicate::str::contains("no damage found"));
    damaged
        .code(1)
        .stdout(predicate::str::contains(format!("REINDEX INDEX {index}")));
    served
        .code(1)
        .stdout(predicate::str::contains("Serving").not())
        .stderr(predicate::str::contains("--allow-damaged"));
}
