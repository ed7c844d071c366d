//! Kills `tictactoe serve` with SIGKILL at random moments while clients play on it and
//! console games write to the same database, restarts it each time, and checks that
//! nothing answered was lost or counted twice. Not a test: a measurement, run by hand
//! (docs/reliability.md has today's figures).
//!
//! ```text
//! cargo build --release --bin tictactoe --features measure --example crash
//! ./target/release/examples/crash --kills 20 --players 100
//! ```
//!
//! Each client plays Impossible on 3x3 game after game, each move on the first empty
//! cell, and remembers the last board the server answered. When the server is gone it
//! retries until a new one answers, then reads its game back (`GET /api/games/ID`) and
//! checks that every mark of the last answered board is there: a move that was
//! answered must have been kept. (A move that was kept but whose answer was lost may be
//! there too; the client then plays on from the board as the server has it.) Meanwhile
//! `--console` processes play `tictactoe play --x easy --o random` in a loop on the
//! same database file. At the end every game is read back, and the scoreboard must
//! count each finished game exactly once: the clients' (names "Crash 1" to "Crash 20")
//! and the console's (Computer (Easy)).

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;

const NAMES: usize = 20;

/// Kills the server at random moments under load, restarting it each time.
#[derive(clap::Parser)]
#[command(name = "crash")]
struct Options {
    /// The program to run
    #[arg(long, default_value = "target/release/tictactoe")]
    binary: PathBuf,
    /// The database (a new temporary one by default)
    #[arg(long)]
    db: Option<PathBuf>,
    /// How many times the server is killed
    #[arg(long, default_value_t = 20)]
    kills: u32,
    /// How many clients play at once
    #[arg(long, default_value_t = 100)]
    players: usize,
    /// How many console games play at once beside the server
    #[arg(long, default_value_t = 2)]
    console: usize,
    /// The port the server listens on (the same after each restart)
    #[arg(long, default_value_t = 8097)]
    port: u16,
    /// The longest a server lives before it is killed, in milliseconds (each life is
    /// drawn between a tenth of this and all of it)
    #[arg(long = "life-ms", default_value_t = 3000)]
    life_ms: u64,
}

#[path = "../crates/web/tests/web_support/client.rs"]
mod api_client;
use api_client::Answer;

/// What a client saw.
#[derive(Default)]
struct Seen {
    /// Every game it started: id, and the last board answered for it.
    games: Vec<(String, String)>,
    finished: u64,
    moves: u64,
    /// Moves answered whose marks were missing when the game was read back.
    lost: u64,
    /// Boards read back that did not extend the last answered board.
    contradictions: Vec<String>,
    retries: u64,
}

enum Sent {
    Answered(Answer),
    /// The server answered with an error status (a refusal, or 503).
    Refused(u16),
    /// No answer: the server is away.
    Away,
}

async fn send(request: reqwest::RequestBuilder) -> Sent {
    match request.timeout(Duration::from_secs(10)).send().await {
        Err(_) => Sent::Away,
        Ok(response) => {
            let status = response.status();
            let body = response.text().await.unwrap_or_default();
            if status.is_success() {
                match serde_json::from_str(&body) {
                    Ok(answer) => Sent::Answered(answer),
                    Err(_) => Sent::Away,
                }
            } else {
                Sent::Refused(status.as_u16())
            }
        }
    }
}

/// Whether `now` keeps every mark of `answered`.
fn extends(answered: &str, now: &str) -> bool {
    answered.len() == now.len()
        && answered
            .chars()
            .zip(now.chars())
            .all(|(a, n)| a == '.' || a == n)
}

async fn client_loop(
    url: Arc<String>,
    player: usize,
    stop: Arc<AtomicBool>,
    answered_moves: Arc<AtomicU64>,
) -> Seen {
    let client = reqwest::Client::new();
    let mut seen = Seen::default();
    let name = format!("human:Crash {}", player % NAMES + 1);
    'games: while !stop.load(Ordering::Relaxed) {
        let created = match send(
            client
                .post(format!("{url}/api/games"))
                .json(&json!({"x": name, "o": "impossible"})),
        )
        .await
        {
            Sent::Answered(answer) => answer,
            Sent::Refused(_) | Sent::Away => {
                seen.retries += 1;
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Some(seat) = created.seats.clone().and_then(|seats| seats.x) else {
            continue;
        };
        let (id, token) = (created.id.clone(), seat.token);
        seen.games.push((id.clone(), created.board.clone()));
        let index = seen.games.len() - 1;
        let mut board = created.board;
        let mut status = created.status;
        while status == "in_progress" {
            let Some(cell) = board.find('.').map(|i| i + 1) else {
                break;
            };
            match send(
                client
                    .post(format!("{url}/api/games/{id}/moves"))
                    .bearer_auth(&token)
                    .json(&json!({ "cell": cell })),
            )
            .await
            {
                Sent::Answered(answer) => {
                    seen.moves += 1;
                    answered_moves.fetch_add(1, Ordering::Relaxed);
                    board = answer.board;
                    status = answer.status;
                    seen.games[index].1 = board.clone();
                }
                Sent::Refused(_) | Sent::Away => {
                    // Away, or refused (a 409 for a cell the lost answer's move already
                    // took, a 503 while the store recovers): read the game back once a
                    // server answers, check it, and play on from there.
                    seen.retries += 1;
                    let back = loop {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        match send(client.get(format!("{url}/api/games/{id}"))).await {
                            Sent::Answered(answer) => break answer,
                            Sent::Refused(404) => {
                                seen.contradictions.push(format!("{id}: forgotten (404)"));
                                continue 'games;
                            }
                            _ if stop.load(Ordering::Relaxed) => break 'games,
                            _ => seen.retries += 1,
                        }
                    };
                    if !extends(&board, &back.board) {
                        seen.lost += board.chars().filter(|&c| c != '.').count() as u64
                            - back.board.chars().filter(|&c| c != '.').count() as u64;
                        seen.contradictions
                            .push(format!("{id}: answered {board}, kept {}", back.board));
                    }
                    board = back.board;
                    status = back.status;
                    seen.games[index].1 = board.clone();
                }
            }
        }
        if status != "in_progress" {
            seen.finished += 1;
        }
    }
    seen
}

fn start_server(options: &Options, db: &PathBuf) -> Child {
    let mut child = Command::new(&options.binary)
        .arg("--db")
        .arg(db)
        .args(["--think-ms", "50", "serve", "--port"])
        .arg(options.port.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the tictactoe binary (build it with cargo build --release)");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.starts_with("Serving"), "the server said: {line}");
    child
}

#[tokio::main]
async fn main() {
    let options = <Options as clap::Parser>::parse();
    let folder = tempfile::TempDir::new().unwrap();
    let db = options
        .db
        .clone()
        .unwrap_or_else(|| folder.path().join("crash.db"));
    let url = Arc::new(format!("http://127.0.0.1:{}", options.port));
    let stop = Arc::new(AtomicBool::new(false));
    let answered = Arc::new(AtomicU64::new(0));

    let mut server = start_server(&options, &db);
    let clients: Vec<_> = (0..options.players)
        .map(|player| {
            tokio::spawn(client_loop(
                Arc::clone(&url),
                player,
                Arc::clone(&stop),
                Arc::clone(&answered),
            ))
        })
        .collect();
    let console_games = Arc::new(AtomicU64::new(0));
    let console_failures = Arc::new(AtomicU64::new(0));
    let consoles: Vec<_> = (0..options.console)
        .map(|_| {
            let (binary, db, stop) = (options.binary.clone(), db.clone(), Arc::clone(&stop));
            let (games, failures) = (Arc::clone(&console_games), Arc::clone(&console_failures));
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let status = Command::new(&binary)
                        .arg("--db")
                        .arg(&db)
                        .args(["play", "--x", "easy", "--o", "random"])
                        .stdout(Stdio::null())
                        .stderr(Stdio::null())
                        .status()
                        .unwrap();
                    if status.success() {
                        games.fetch_add(1, Ordering::Relaxed);
                    } else {
                        failures.fetch_add(1, Ordering::Relaxed);
                    }
                }
            })
        })
        .collect();

    let started = Instant::now();
    let mut restart_times = Vec::new();
    for kill in 1..=options.kills {
        let life = rand::random_range(options.life_ms / 10..=options.life_ms);
        tokio::time::sleep(Duration::from_millis(life)).await;
        let before = answered.load(Ordering::Relaxed);
        server.kill().unwrap(); // SIGKILL
        server.wait().unwrap();
        let restarting = Instant::now();
        server = start_server(&options, &db);
        restart_times.push(restarting.elapsed());
        println!(
            "kill {kill}: after {life} ms of life; {before} moves answered so far; \
             restarted in {:.0} ms",
            restarting.elapsed().as_secs_f64() * 1000.0
        );
    }
    // A last stretch of play on the last server, then everyone stops.
    tokio::time::sleep(Duration::from_secs(1)).await;
    stop.store(true, Ordering::Relaxed);
    let mut total = Seen::default();
    for client in clients {
        let seen = client.await.unwrap();
        total.games.extend(seen.games);
        total.finished += seen.finished;
        total.moves += seen.moves;
        total.lost += seen.lost;
        total.retries += seen.retries;
        total.contradictions.extend(seen.contradictions);
    }
    for console in consoles {
        console.join().unwrap();
    }

    // Every game, read back from the last server: readable, and extending what was
    // last answered.
    let client = reqwest::Client::new();
    let mut unreadable = 0;
    for (id, board) in &total.games {
        match send(client.get(format!("{url}/api/games/{id}"))).await {
            Sent::Answered(answer) if extends(board, &answer.board) => {}
            Sent::Answered(answer) => total.contradictions.push(format!(
                "{id}: answered {board}, read back {}",
                answer.board
            )),
            _ => unreadable += 1,
        }
    }
    let scores = api_client::json_answer(client.get(format!("{url}/api/scores"))).await;
    let counted = api_client::games_by_name(&scores);
    let crash_games = api_client::games_of_players_named(&counted, "Crash ");
    let easy_games = counted.get("Computer (Easy)").copied().unwrap_or(0);
    server.kill().unwrap();
    server.wait().unwrap();

    let seconds = started.elapsed().as_secs_f64();
    let ms = |d: &Duration| d.as_secs_f64() * 1000.0;
    restart_times.sort();
    println!("kills: {} in {seconds:.1} s", options.kills);
    println!(
        "restart to listening: median {:.0} ms, max {:.0} ms",
        restart_times.get(restart_times.len() / 2).map_or(0.0, ms),
        restart_times.last().map_or(0.0, ms)
    );
    println!(
        "clients: {} games started, {} finished, {} moves answered, {} retries",
        total.games.len(),
        total.finished,
        total.moves,
        total.retries
    );
    println!(
        "answered moves lost: {}; games read back that contradict an answer: {}; \
         unreadable games: {unreadable}",
        total.lost,
        total.contradictions.len()
    );
    for contradiction in total.contradictions.iter().take(10) {
        println!("  {contradiction}");
    }
    println!(
        "scoreboard: {crash_games} games counted for {} finished by the clients: {}",
        total.finished,
        if crash_games == total.finished {
            "exactly once each"
        } else {
            "MISMATCH"
        }
    );
    println!(
        "console: {} games finished ({} runs failed), {easy_games} counted: {}",
        console_games.load(Ordering::Relaxed),
        console_failures.load(Ordering::Relaxed),
        if easy_games == console_games.load(Ordering::Relaxed) {
            "exactly once each"
        } else {
            "MISMATCH"
        }
    );
}
