//! Several stores on one file, as a console game and a server in two processes would
//! have: each sees what the others kept, and writes at once are each kept once.

use std::collections::HashMap;
use std::thread;

use super::*;

#[test]
fn two_stores_on_one_file_writing_at_once_keep_every_game_once() {
    let (_folder, path) = new_file();
    let stores = [
        SqliteStore::open(&path).unwrap(),
        SqliteStore::open(&path).unwrap(),
    ];
    let games_each = 40u128;

    thread::scope(|scope| {
        for (s, store) in stores.iter().enumerate() {
            let other = &stores[1 - s];
            scope.spawn(move || {
                for g in 0..games_each {
                    let n = s as u128 * games_each + g + 1;
                    let writes = won_game(n, &format!("X{}", n % 7), &format!("O{}", n % 5));
                    for write in &writes {
                        store.write(std::slice::from_ref(write)).unwrap();
                    }
                    // A retry arriving through the other process: kept once.
                    other.write(&writes).unwrap();
                }
            });
        }
    });

    for n in 1..=2 * games_each {
        for store in &stores {
            let kept = store.game(&id(n)).unwrap().expect("every game");
            assert_eq!(kept.steps.len(), 2, "game {n}");
        }
    }
    let mut expected: HashMap<String, (u64, u64)> = HashMap::new();
    for n in 1..=2 * games_each {
        expected.entry(format!("x{}", n % 7)).or_default().0 += 1;
        expected.entry(format!("o{}", n % 5)).or_default().1 += 1;
    }
    for store in &stores {
        let shown: HashMap<String, (u64, u64)> = store
            .scoreboard(None)
            .unwrap()
            .standings()
            .iter()
            .map(|row| (row.name.key(), (row.record.wins, row.record.losses)))
            .collect();
        assert_eq!(shown, expected);
    }
}

#[test]
fn a_reset_by_one_store_is_seen_by_the_other() {
    let (_folder, path) = new_file();
    let (console, server) = (
        SqliteStore::open(&path).unwrap(),
        SqliteStore::open(&path).unwrap(),
    );
    console.write(&won_game(1, "Ada", "Bob")).unwrap();

    server.reset().unwrap();

    assert!(console.scoreboard(None).unwrap().is_empty());
}

/// This test binary again, to run only `test` (a test ignored unless it is run so),
/// with the file at `path` named in the environment variable `variable`.
fn this_test_binary(test: &str, variable: &str, path: &Path) -> std::process::Command {
    let mut command = std::process::Command::new(std::env::current_exe().unwrap());
    command
        .args([
            "--exact",
            &format!("together::{test}"),
            "--ignored",
            "--quiet",
        ])
        .env(variable, path);
    command
}

/// Run as a child (see [`this_test_binary`]): the store on the file the parent named
/// in `variable`. `None` when run as a test of its own.
fn child_store(variable: &str) -> Option<SqliteStore> {
    let path = std::env::var_os(variable)?;
    Some(SqliteStore::open(Path::new(&path)).unwrap())
}

/// Game `n`, won by `winner` (X) against Bob, kept one write at a time.
fn write_one_by_one(store: &SqliteStore, n: u128, winner: &str) {
    for write in won_game(n, winner, "Bob") {
        store.write(&[write]).unwrap();
    }
}

/// Where [`a_child_process_writes_games`] finds its file, and which games it plays.
const CHILD_FILE: &str = "TICTACTOE_TEST_CHILD_FILE";
const CHILD_GAMES: std::ops::RangeInclusive<u128> = 101..=140;

/// Not a test of its own: the other process of the next test, run by it.
#[test]
#[ignore = "the child process of another_process_writing_at_once_is_waited_for_and_both_are_kept"]
fn a_child_process_writes_games() {
    let Some(store) = child_store(CHILD_FILE) else {
        return;
    };
    for n in CHILD_GAMES {
        write_one_by_one(&store, n, "Child");
    }
}

#[test]
fn another_process_writing_at_once_is_waited_for_and_both_are_kept() {
    let (_folder, path) = new_file();
    let store = SqliteStore::open(&path).unwrap();
    let mut child = this_test_binary("a_child_process_writes_games", CHILD_FILE, &path)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("the test binary runs again as a child");

    for n in 1..=40 {
        write_one_by_one(&store, n, "Parent");
    }
    let status = child.wait().unwrap();

    assert!(status.success(), "the child process failed: {status}");
    let bob = store
        .standings_of(&[PlayerName::new("Bob").unwrap()])
        .unwrap();
    assert_eq!(bob.standings()[0].record.losses, 80);
    assert!(
        CHILD_GAMES
            .clone()
            .all(|n| store.game(&id(n)).unwrap().is_some())
    );
}

/// Where the child of the next test writes, printing each game once its writes are
/// answered.
const KILLED_FILE: &str = "TICTACTOE_TEST_KILLED_FILE";

/// Not a test of its own: the process the next test kills.
#[test]
#[ignore = "the child process of a_write_answered_before_the_process_is_killed_is_kept"]
fn a_child_process_writes_until_it_is_killed() {
    use std::io::Write as _;
    let Some(store) = child_store(KILLED_FILE) else {
        return;
    };
    let mut out = std::io::stdout().lock();
    for n in 1.. {
        write_one_by_one(&store, n, "Ada");
        writeln!(out, "kept {n}").unwrap();
        out.flush().unwrap();
    }
}

#[test]
fn a_write_answered_before_the_process_is_killed_is_kept() {
    use std::io::BufRead as _;
    let (_folder, path) = new_file();
    let mut child = this_test_binary(
        "a_child_process_writes_until_it_is_killed",
        KILLED_FILE,
        &path,
    )
    .arg("--nocapture")
    .stdout(std::process::Stdio::piped())
    .spawn()
    .expect("the test binary runs again as a child");
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let mut answered = 0u128;

    while answered < 25 {
        let line = lines.next().expect("the child goes on").unwrap();
        if let Some(n) = line.strip_prefix("kept ") {
            answered = n.parse().unwrap();
        }
    }
    child.kill().unwrap(); // SIGKILL: no destructor, no last checkpoint
    child.wait().unwrap();
    for line in lines.map_while(Result::ok) {
        if let Some(n) = line.strip_prefix("kept ") {
            answered = n.parse().unwrap();
        }
    }

    let store = SqliteStore::open(&path).unwrap();
    for n in 1..=answered {
        let kept = store.game(&id(n)).unwrap().expect("an answered game");
        assert_eq!(
            (kept.steps.len(), kept.ending.is_some()),
            (2, true),
            "game {n}"
        );
    }
    let ended = (1..)
        .map_while(|n| store.game(&id(n)).unwrap())
        .filter(|game| game.ending.is_some())
        .count() as u64;
    let ada = store
        .standings_of(&[PlayerName::new("Ada").unwrap()])
        .unwrap();
    assert_eq!(
        ada.standings()[0].record.wins,
        ended,
        "every ended game counted once"
    );
}
