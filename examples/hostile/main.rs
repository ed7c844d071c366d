//! Hostile clients against `tictactoe serve`, over loopback, for the figures in
//! docs/web.md ("Hostile clients"). Not a test: run it by hand against a running server.
//!
//! ```text
//! ulimit -n 20000
//! tictactoe --db /tmp/hostile/games.db serve --port 8080 &
//! cargo run --release --features measure --example hostile -- trickle --pid $!
//! cargo run --release --features measure --example hostile -- heads --pid $!
//! cargo run --release --features measure --example hostile -- streams
//! cargo run --release --features measure --example hostile -- stop --pid $!     # stops the server
//! ```
//!
//! * `trickle`: `--connections` (4,100) from 127.0.0.1, each sending one byte of a
//!   request head every `--every` seconds (5), reconnecting a second after the server
//!   closes one; meanwhile a person at 127.0.0.2 plays Impossible, a move every 100 ms,
//!   and the latency of their requests is reported (p50, p99, max), with the server's
//!   memory.
//! * `heads`: `--connections` (4,096) spread over 16 addresses (127.0.0.2 to .17, 256
//!   each: the default share), each sending a head of `--head-bytes` (8,000) without
//!   its end, and holding it; the server's resident memory with all of them open, and
//!   5 s after they close.
//! * `streams`: `--count` (2,100) event streams on one game from 127.0.0.1, then one
//!   from 127.0.0.2: how many of the first were refused (429), and whether the
//!   spectator at the other address got its stream.
//! * `stop`: `--connections` (4,100) trickling as above and `--players` (50) people
//!   mid-game, then SIGTERM to `--pid`: how long the server takes to exit, and its
//!   status as the shell sees it is not visible from here (it is the server's parent's);
//!   `tests/serve.rs` checks that status.
//!
//! Accounts (issue #41), each on a server with a new database:
//!
//! * `sign-in`: signs an account up, then signs it in `--count` (200) times in turn:
//!   the time each sign-in took (Argon2id at its defaults), p50 and p99.
//! * `guessing`: a person at 127.0.0.2 plays Impossible (a move every 60 ms) for
//!   `--seconds` (30) alone, then as long again while `--attackers` (20) clients, each
//!   at an address of its own (127.0.0.10 on), try wrong passwords as fast as they can
//!   (each a name of its own, and Ada's): the person's move latency in both halves, side
//!   by side, and what the attackers were answered (401, 429, 503).
//! * `farm`: an account plays `--games` (60) games against Random with perfect play
//!   (the Impossible level of this program, on this side), signed in: its rating after
//!   each tenth game, and at the end against the strongest level's anchor.
//! * `impersonate`: Ada signs up and plays a rated game; then every impersonation of
//!   issue #41 is sent (her name taken by a guest, a look-alike, 20 resignations of her
//!   seats by another account and by nobody, her puzzles listed and answered by others,
//!   the host of a friend's game acting for the friend, an invite taken twice): each
//!   one's status, and Ada's record and rating before and after.
//! * `hints`: two people play against Impossible, one on 7x7 (4 in a row) from
//!   127.0.0.2 and one on 3x3 from 127.0.0.3, for `--seconds` (30) alone, then as long
//!   again while `--attackers` (20) clients (127.0.0.10 on) each play a 7x7 game of
//!   their own and ask a hint before every move, as fast as they can: the people's move
//!   latency in both halves, what the attackers were answered, and the server's memory
//!   (with `--pid`).
//! * `reviews`: `--games` (20) short 7x7 games (4 in a row) from 127.0.0.10, then each
//!   one's review asked three times; a stranger's 3x3 game and review from 127.0.0.3
//!   right after; then the server's processor use each second for 20 s, and its memory.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;

#[path = "../../crates/web/tests/web_support/client.rs"]
mod api_client;
use tokio::net::{TcpSocket, TcpStream};

#[derive(clap::Parser)]
#[command(name = "hostile")]
struct Options {
    #[command(subcommand)]
    attack: Attack,
    /// The server's address
    #[arg(long, default_value = "127.0.0.1:8080", global = true)]
    server: SocketAddr,
    /// The server's process id, to report its memory (and, for `stop`, to signal it)
    #[arg(long, global = true)]
    pid: Option<u32>,
}

#[derive(clap::Subcommand)]
enum Attack {
    Trickle {
        #[arg(long, default_value_t = 4100)]
        connections: usize,
        #[arg(long, default_value_t = 5)]
        every: u64,
        #[arg(long, default_value_t = 30)]
        seconds: u64,
    },
    Heads {
        #[arg(long, default_value_t = 4096)]
        connections: usize,
        #[arg(long, default_value_t = 8000)]
        head_bytes: usize,
    },
    Streams {
        #[arg(long, default_value_t = 2100)]
        count: usize,
    },
    Stop {
        #[arg(long, default_value_t = 4100)]
        connections: usize,
        #[arg(long, default_value_t = 50)]
        players: usize,
    },
    SignIn {
        #[arg(long, default_value_t = 200)]
        count: usize,
    },
    Guessing {
        #[arg(long, default_value_t = 20)]
        attackers: u8,
        #[arg(long, default_value_t = 30)]
        seconds: u64,
    },
    Farm {
        #[arg(long, default_value_t = 60)]
        games: usize,
    },
    Impersonate,
    Hints {
        #[arg(long, default_value_t = 20)]
        attackers: u8,
        #[arg(long, default_value_t = 30)]
        seconds: u64,
    },
    Reviews {
        #[arg(long, default_value_t = 20)]
        games: usize,
    },
}

async fn connect_from(source: IpAddr, server: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(source, 0))?;
    socket.connect(server).await
}

fn loopback(last: u8) -> IpAddr {
    IpAddr::from([127, 0, 0, last])
}

/// `count` clients at 127.0.0.1, each sending a byte of a head every `every`, and
/// connecting again a second after the server closes it. Counts the connections made.
fn spawn_tricklers(server: SocketAddr, count: usize, every: Duration) -> Arc<AtomicUsize> {
    let made = Arc::new(AtomicUsize::new(0));
    for _ in 0..count {
        let made = Arc::clone(&made);
        tokio::spawn(async move {
            loop {
                if let Ok(mut stream) = connect_from(loopback(1), server).await {
                    made.fetch_add(1, Ordering::Relaxed);
                    while stream.write_all(b"G").await.is_ok() {
                        tokio::time::sleep(every).await;
                    }
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
    }
    made
}

/// A person at `source` playing Impossible, game after game, a move every `pause`:
/// the time each request took, until `until`.
async fn person(
    server: SocketAddr,
    source: IpAddr,
    pause: Duration,
    until: Instant,
) -> (Vec<Duration>, usize) {
    let setup = json!({"x": "human:Visitor", "o": "impossible"});
    person_playing(server, source, setup, pause, until).await
}

/// A person at `source` playing games of `setup` (the first free cell each move,
/// after `pause`) until `until`: how long each request took, and how many failed.
async fn person_playing(
    server: SocketAddr,
    source: IpAddr,
    setup: Value,
    pause: Duration,
    until: Instant,
) -> (Vec<Duration>, usize) {
    let client = reqwest::Client::builder()
        .local_address(source)
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let base = format!("http://{server}");
    let (mut took, mut failed) = (Vec::new(), 0);
    while Instant::now() < until {
        let started = Instant::now();
        let created = client
            .post(format!("{base}/api/games"))
            .json(&setup)
            .send()
            .await;
        let Ok(created) = created else {
            failed += 1;
            tokio::time::sleep(pause).await;
            continue;
        };
        took.push(started.elapsed());
        let game: Value = created.json().await.unwrap_or_default();
        let (Some(id), Some(token)) = (game["id"].as_str(), game["seats"]["x"]["token"].as_str())
        else {
            failed += 1;
            continue;
        };
        let mut board = game["board"].as_str().unwrap_or_default().to_string();
        while let Some(cell) = board.find('.').map(|i| i + 1) {
            tokio::time::sleep(pause).await;
            let started = Instant::now();
            let answer = client
                .post(format!("{base}/api/games/{id}/moves"))
                .bearer_auth(token)
                .json(&json!({ "cell": cell }))
                .send()
                .await;
            match answer {
                Ok(answer) if answer.status().is_success() => {
                    took.push(started.elapsed());
                    let after: Value = answer.json().await.unwrap_or_default();
                    if after["status"] != "in_progress" {
                        break;
                    }
                    board = after["board"].as_str().unwrap_or_default().to_string();
                }
                _ => {
                    failed += 1;
                    break;
                }
            }
        }
    }
    (took, failed)
}

/// `took`'s count, p50, p99 and max, sorted first.
fn summary(took: &mut [Duration]) -> String {
    took.sort_unstable();
    format!(
        "{} requests: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        took.len(),
        percentile(took, 0.5).as_secs_f64() * 1000.0,
        percentile(took, 0.99).as_secs_f64() * 1000.0,
        took.last().copied().unwrap_or_default().as_secs_f64() * 1000.0
    )
}

fn percentile(sorted: &[Duration], fraction: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let index = ((sorted.len() as f64 * fraction).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[index]
}

/// The server's resident memory now and at its peak, from /proc.
fn memory(pid: Option<u32>) -> String {
    let Some(pid) = pid else {
        return "memory: give --pid".into();
    };
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|line| line.starts_with(name))
            .map(|line| line[name.len()..].trim().to_string())
            .unwrap_or_else(|| "?".into())
    };
    format!("resident {} (peak {})", field("VmRSS:"), field("VmHWM:"))
}

async fn trickle(options: &Options, connections: usize, every: u64, seconds: u64) {
    let made = spawn_tricklers(options.server, connections, Duration::from_secs(every));
    tokio::time::sleep(Duration::from_secs(2)).await;
    println!(
        "tricklers connected so far: {}",
        made.load(Ordering::Relaxed)
    );
    let until = Instant::now() + Duration::from_secs(seconds);
    let (mut took, failed) = person(
        options.server,
        loopback(2),
        Duration::from_millis(100),
        until,
    )
    .await;
    took.sort();
    println!(
        "a person at 127.0.0.2 over {seconds} s: {} requests, {failed} failed; p50 {:?}, p99 {:?}, max {:?}",
        took.len(),
        percentile(&took, 0.5),
        percentile(&took, 0.99),
        took.last().copied().unwrap_or_default()
    );
    println!(
        "trickling connections made in all: {}; server {}",
        made.load(Ordering::Relaxed),
        memory(options.pid)
    );
}

async fn heads(options: &Options, connections: usize, head_bytes: usize) {
    let head = format!(
        "GET /api/scores HTTP/1.1\r\nHost: x\r\nX-Pad: {}\r\n",
        "a".repeat(head_bytes.saturating_sub(50))
    );
    println!("server before: {}", memory(options.pid));
    let started = Instant::now();
    let mut held = Vec::new();
    for n in 0..connections {
        let source = loopback(2 + u8::try_from(n / 256 % 200).unwrap_or(0));
        match connect_from(source, options.server).await {
            Ok(mut stream) => {
                if stream.write_all(head.as_bytes()).await.is_ok() {
                    held.push(stream);
                }
            }
            Err(error) => println!("connection {n}: {error}"),
        }
    }
    println!(
        "{} connections holding a {}-byte head, opened in {:?}",
        held.len(),
        head.len(),
        started.elapsed()
    );
    tokio::time::sleep(Duration::from_secs(2)).await;
    println!("server with them open: {}", memory(options.pid));
    drop(held);
    tokio::time::sleep(Duration::from_secs(5)).await;
    println!("server 5 s after they closed: {}", memory(options.pid));
}

async fn streams(options: &Options, count: usize) {
    let base = format!("http://{}", options.server);
    let game = api_client::json_answer(
        reqwest::Client::new()
            .post(format!("{base}/api/games"))
            .json(&json!({"x": "human:Ada", "o": "human:Bob"})),
    )
    .await;
    let url = format!("{base}/api/games/{}/events", game["id"].as_str().unwrap());
    let greedy = reqwest::Client::builder()
        .local_address(loopback(1))
        .pool_max_idle_per_host(0)
        .build()
        .unwrap();
    let (mut open, mut refused, mut other) = (Vec::new(), 0, 0);
    for _ in 0..count {
        match greedy.get(&url).send().await {
            Ok(answer) if answer.status() == 200 => open.push(answer),
            Ok(answer) if answer.status() == 429 => refused += 1,
            _ => other += 1,
        }
    }
    let spectator = reqwest::Client::builder()
        .local_address(loopback(2))
        .build()
        .unwrap()
        .get(&url)
        .send()
        .await
        .map(|answer| answer.status().as_u16());
    println!(
        "{count} streams asked from 127.0.0.1: {} open, {refused} refused with 429, {other} otherwise; \
         a spectator at 127.0.0.2: {spectator:?}",
        open.len()
    );
}

async fn stop(options: &Options, connections: usize, players: usize) {
    let Some(pid) = options.pid else {
        println!("stop needs --pid");
        return;
    };
    let made = spawn_tricklers(options.server, connections, Duration::from_secs(5));
    let until = Instant::now() + Duration::from_secs(3600);
    for n in 0..players {
        let source = loopback(2 + u8::try_from(n % 50).unwrap_or(0));
        tokio::spawn(person(
            options.server,
            source,
            Duration::from_millis(300),
            until,
        ));
    }
    tokio::time::sleep(Duration::from_secs(5)).await;
    println!(
        "{} trickling connections made, {players} people playing; SIGTERM",
        made.load(Ordering::Relaxed)
    );
    let signalled = Instant::now();
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status();
    while std::path::Path::new(&format!("/proc/{pid}/stat")).exists()
        && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .unwrap_or_default()
            .contains(") Z ")
    {
        if signalled.elapsed() > Duration::from_secs(60) {
            println!("still running 60 s after SIGTERM");
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    println!("the server exited {:?} after SIGTERM", signalled.elapsed());
}

#[tokio::main]
async fn main() {
    let options = <Options as clap::Parser>::parse();
    match options.attack {
        Attack::Trickle {
            connections,
            every,
            seconds,
        } => trickle(&options, connections, every, seconds).await,
        Attack::Heads {
            connections,
            head_bytes,
        } => heads(&options, connections, head_bytes).await,
        Attack::Streams { count } => streams(&options, count).await,
        Attack::Stop {
            connections,
            players,
        } => stop(&options, connections, players).await,
        Attack::SignIn { count } => accounts::sign_in(options.server, count).await,
        Attack::Guessing { attackers, seconds } => {
            accounts::guessing(options.server, attackers, seconds).await
        }
        Attack::Farm { games } => accounts::farm(options.server, games).await,
        Attack::Impersonate => accounts::impersonate(options.server).await,
        Attack::Reviews { games } => engine::reviews(options.server, options.pid, games).await,
        Attack::Hints { attackers, seconds } => {
            engine::hints(options.server, options.pid, attackers, seconds).await
        }
    }
}

/// The accounts' attacks: see the module documentation.
mod accounts;
/// The attacks on the computer's thinking: see the module documentation.
mod engine;
