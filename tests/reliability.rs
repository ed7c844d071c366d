//! Trying to break the two things users rely on: the games kept, and input handling.
//! Each test says how hard it tries; docs/reliability.md has the numbers.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command as Process, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::Value;
use tempfile::TempDir;

mod common;

fn spawn_menu(scoreboard: &Path, input: &[u8]) -> std::process::Child {
    let mut child = common::program()
        .env("TICTACTOE_DB", scoreboard)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from a thread so a child that stops reading cannot block the test.
    thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    child
}

/// Games recorded per player name, read the way a user would.
fn games_by_name(scoreboard: &Path) -> Vec<(String, u64)> {
    let output = common::tictactoe()
        .args(["scores", "--json", "--db"])
        .arg(scoreboard)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let mut rows: Vec<(String, u64)> = json["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["games"].as_u64().unwrap(),
            )
        })
        .collect();
    rows.sort();
    rows
}

/// The menu answers for Computer (Easy) vs Computer (Random) on the classic board, then
/// `again` more games.
fn easy_vs_random_games(again: usize) -> Vec<u8> {
    // Mode 3, Easy, Random, 3 x 3 (no run to ask about), X first.
    let mut input = b"3\n2\n1\n\n\n".to_vec();
    input.extend(b"y\n".repeat(again));
    input.extend(b"n\n");
    input
}

#[test]
fn thirty_two_processes_recording_at_once_are_all_counted() {
    let folder = TempDir::new().unwrap();
    let scoreboard = folder.path().join("games.db");
    let per_process = 21;

    let children: Vec<_> = (0..32)
        .map(|_| spawn_menu(&scoreboard, &easy_vs_random_games(per_process - 1)))
        .collect();
    for child in children {
        let ended = child.wait_with_output().unwrap();
        assert!(
            ended.status.success(),
            "{}",
            String::from_utf8_lossy(&ended.stderr)
        );
    }

    let expected = 32 * per_process as u64;
    assert_eq!(
        games_by_name(&scoreboard),
        [
            ("Computer (Easy)".to_string(), expected),
            ("Computer (Random)".to_string(), expected)
        ]
    );
}

/// The games saved in `scoreboard`: none while no writer has made the file (`scores`
/// refuses a path with no database rather than make one).
fn games_saved(scoreboard: &std::path::Path) -> u64 {
    if !scoreboard.exists() {
        return 0;
    }
    games_by_name(scoreboard)
        .iter()
        .map(|(_, games)| games)
        .sum()
}

#[test]
fn writers_killed_at_random_moments_never_leave_an_unreadable_file_or_lose_a_saved_game() {
    let folder = TempDir::new().unwrap();
    let scoreboard = folder.path().join("games.db");
    let mut rng = StdRng::seed_from_u64(5);
    let mut saved = 0;

    for _ in 0..40 {
        let mut writer = spawn_menu(&scoreboard, &easy_vs_random_games(10_000));
        thread::sleep(Duration::from_micros(rng.random_range(500..30_000)));
        writer.kill().unwrap(); // SIGKILL: no chance to clean up.
        writer.wait().unwrap();

        let now = games_saved(&scoreboard);
        assert!(now >= saved, "saved games went from {saved} to {now}");
        saved = now;
    }

    // A last writer killed only once it has saved a game, however slowly it starts on
    // a loaded machine: the kills above may all have come before any save.
    let mut writer = spawn_menu(&scoreboard, &easy_vs_random_games(10_000));
    let started = std::time::Instant::now();
    while games_saved(&scoreboard) <= saved && started.elapsed() < Duration::from_secs(30) {
        thread::sleep(Duration::from_millis(20));
    }
    writer.kill().unwrap();
    writer.wait().unwrap();
    let last = games_saved(&scoreboard);

    eprintln!("saved after 41 kills: {last}");
    assert!(last >= saved, "saved games went from {saved} to {last}");
    assert!(
        last > 0,
        "the writers should have saved something before being killed"
    );
}

#[test]
fn a_database_that_cannot_be_made_stops_the_game_before_it_starts_and_says_why() {
    let folder = TempDir::new().unwrap();
    let file = folder.path().join("not-a-folder");
    fs::write(&file, "").unwrap();

    common::tictactoe()
        .args(["play", "--x", "easy", "--o", "easy", "--seed", "3", "--db"])
        .arg(file.join("games.db"))
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicates::str::contains("not-a-folder"));

    assert_eq!(fs::read(&file).unwrap(), b"");
}

#[test]
fn ctrl_c_during_a_game_ends_it_and_records_nothing() {
    let folder = TempDir::new().unwrap();
    let scoreboard = folder.path().join("games.db");
    let mut child = common::program()
        .args(["play", "--x", "human", "--o", "impossible"])
        .env("TICTACTOE_DB", &scoreboard)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"5\n").unwrap();
    thread::sleep(Duration::from_millis(200));

    Process::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let status = child.wait().unwrap();

    assert!(!status.success(), "{status:?}");
    assert!(
        games_by_name(&scoreboard).is_empty(),
        "an unfinished game counts nothing"
    );
}

/// Random bytes for one answer stream: printable and not, huge lines, NULs, invalid UTF-8.
fn garbage(rng: &mut StdRng) -> Vec<u8> {
    let mut bytes = Vec::new();
    for _ in 0..rng.random_range(1..20) {
        match rng.random_range(0..4) {
            0 => bytes.extend((0..rng.random_range(0..50)).map(|_| rng.random::<u8>())),
            1 => bytes.extend(vec![b'9'; rng.random_range(1_000..200_000)]),
            2 => bytes.extend((0..rng.random_range(0..10)).map(|_| rng.random_range(b' '..=b'~'))),
            _ => bytes.extend([0xff, 0xfe, 0x00, b'\r']),
        }
        bytes.push(b'\n');
    }
    if rng.random() {
        bytes.pop(); // sometimes the stream ends mid-line
    }
    bytes
}

#[test]
fn random_bytes_at_every_prompt_end_cleanly_and_never_panic() {
    // Valid answers that lead to each prompt; the garbage follows, then input ends.
    let prompts: [(&str, &[&str], &[u8]); 10] = [
        ("menu", &[], b""),
        ("first name", &[], b"1\n"),
        ("second name", &[], b"1\nAda\n"),
        ("level", &[], b"3\n"),
        ("side", &[], b"2\n"),
        ("board size", &[], b"2\n\nAda\n4\n"),
        ("run to win", &[], b"2\n\nAda\n4\n5\n"),
        ("who moves first", &[], b"2\n\nAda\n4\n\n"),
        (
            "a move",
            &["play", "--x", "human", "--o", "random", "--size", "4"],
            b"",
        ),
        ("play again", &[], b"3\n1\n1\n\n\n"),
    ];
    let mut rng = StdRng::seed_from_u64(2026);
    let folder = TempDir::new().unwrap();
    let mut runs = 0;
    for (prompt, args, prefix) in prompts {
        for _ in 0..25 {
            let mut input = prefix.to_vec();
            input.extend(garbage(&mut rng));
            let started = Instant::now();

            let output = common::tictactoe()
                .args(args)
                .env("TICTACTOE_DB", folder.path().join("games.db"))
                .write_stdin(input)
                .timeout(Duration::from_secs(20))
                .output()
                .unwrap();

            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(
                matches!(output.status.code(), Some(0 | 1)),
                "at the {prompt} prompt: {:?} {stderr}",
                output.status
            );
            assert!(
                !stderr.contains("panicked"),
                "at the {prompt} prompt: {stderr}"
            );
            assert!(started.elapsed() < Duration::from_secs(20));
            runs += 1;
        }
    }
    assert_eq!(runs, 250);
}
