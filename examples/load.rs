//! A load generator for `tictactoe serve`: many people playing Impossible on 3x3 at
//! once, over loopback. Not a test: run it by hand against a running server.
//!
//! ```text
//! tictactoe --db /tmp/load/games.db serve --port 8080 &
//! cargo run --release --features measure --example load -- http://127.0.0.1:8080 --players 500 --seconds 20 --pid $!
//! ```
//!
//! Against several servers on one PostgreSQL database, name each: every client sends
//! its requests to them in turn, and when one fails to answer (a server killed), sends
//! it to the next, reading the game back there first if a move went unanswered. With
//! `--check-db` (a PostgreSQL URL, or the SQLite file one server keeps), it then checks
//! the database itself: every move answered is kept, once, and every game answered as
//! ended has its ending.
//!
//! ```text
//! cargo run --release --features measure --example load -- http://127.0.0.1:8081 http://127.0.0.1:8082 \
//!     --pause-ms 60 --check-db postgres://tictactoe@127.0.0.1:5432/games
//! ```
//!
//! Each of `--players` clients holds one kept-alive connection, as a browser tab does,
//! and plays game after game on it (create, then its moves, each on the first empty
//! cell) for `--seconds`, then finishes its game in hand. The clients are written on
//! hyper directly and read only the fields they need, so that the generator, which
//! shares the machine's two cores with the server, takes as little of them as it can. At the end it
//! prints moves per second, the latency of the move requests (p50, p99, max), the
//! server's memory (with `--pid`), and checks the scoreboard: every game the clients
//! finished must have been counted exactly once (names "Load 1" to "Load 50").

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1;
use hyper::{Request, header};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::{TcpSocket, TcpStream};

const NAMES: usize = 50;

/// A load generator for `tictactoe serve`: many people playing Impossible on 3x3 at once.
#[derive(clap::Parser)]
#[command(name = "load")]
struct Options {
    /// The servers' addresses: each client's requests go to them in turn
    #[arg(default_value = "http://127.0.0.1:8080", value_name = "URL", num_args = 1..)]
    urls: Vec<String>,
    /// The database the servers keep their games in (a PostgreSQL URL, or an SQLite
    /// file: `sqlite:PATH` or a path), to check afterwards that every move and ending
    /// answered is kept exactly once
    #[arg(long = "check-db", value_name = "URL")]
    check_db: Option<String>,
    /// How many clients play at once, each on its own kept-alive connection
    #[arg(long, default_value_t = 500)]
    players: usize,
    /// How long the clients start new games
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// The server's process id, to report its memory and CPU time
    #[arg(long)]
    pid: Option<u32>,
    /// How long each client waits before each move on average, as a person looking at
    /// the board does (0: as fast as the server answers)
    #[arg(long = "pause-ms", default_value_t = 0, value_name = "MS")]
    pause_ms: u64,
    /// Write every game answered (its id, the moves on its board as last answered, and
    /// whether it was answered as ended) to FILE, one per line, to check later with
    /// `--check-answered`
    #[arg(long = "answered-to", value_name = "FILE")]
    answered_to: Option<std::path::PathBuf>,
    /// Play nothing: check the games listed in FILE (written by `--answered-to`)
    /// against `--check-db`, as after a restart
    #[arg(long = "check-answered", value_name = "FILE", requires = "check_db")]
    check_answered: Option<std::path::PathBuf>,
    /// Play signed in: "Load 1" to "Load 50" are accounts (signed up first, or signed
    /// in if they are), each client plays as one with that account's personal token,
    /// and every game is rated. Without it, every client is a guest and no game is
    /// rated
    #[arg(long = "signed-in")]
    signed_in: bool,
}

fn options() -> Options {
    let mut options = <Options as clap::Parser>::parse();
    for url in &mut options.urls {
        *url = url.trim_end_matches('/').to_string();
    }
    options
}

/// What one client did.
#[derive(Default)]
struct Played {
    games: u64,
    moves: Vec<Duration>,
    /// The latencies of the moves that ended a game (also in `moves`): these wait for
    /// the scoreboard to be written.
    last_moves: Vec<Duration>,
    errors: u64,
    /// The first error seen, to show what went wrong.
    first_error: Option<String>,
    /// Requests sent again to the next server after one did not answer.
    retries: u64,
    /// The longest a client went from a request that failed to one answered.
    longest_outage: Duration,
    /// Each game played, as last answered.
    answered: Vec<Answered>,
    /// Every request, by server (in the order the servers were named).
    asked: Vec<Vec<Asked>>,
    /// When each game's beginning was answered.
    begun_at: Vec<Instant>,
    /// When a request first failed.
    first_failure: Option<Instant>,
}

impl Played {
    fn note_error(&mut self, error: String) {
        self.errors += 1;
        self.first_error.get_or_insert(error);
        self.first_failure.get_or_insert_with(Instant::now);
    }

    /// A request that failed and will be tried again.
    fn note_retry(&mut self, error: String) {
        self.retries += 1;
        self.first_error.get_or_insert(error);
        self.first_failure.get_or_insert_with(Instant::now);
    }
}

#[path = "../crates/web/tests/web_support/client.rs"]
mod api_client;
use api_client::Answer;

/// One client: one kept-alive connection, as a browser tab holds, and requests on it in
/// turn. Reconnects if the server closes it.
struct Connection {
    address: String,
    source: Option<IpAddr>,
    sender: Option<http1::SendRequest<Full<Bytes>>>,
    /// Every request sent on it: how long until its answer (or until it failed), and
    /// the answer's status with whether it said when to come back (`Retry-After`);
    /// `None` for no answer at all.
    asked: Vec<Asked>,
}

/// A game as its client was last answered.
struct Answered {
    id: String,
    /// The moves on its board.
    moves: usize,
    ended: bool,
    /// The client gave up on a move of it (no server answered in time): that move may
    /// have been kept, unanswered, with the computer's reply.
    given_up: bool,
}

/// One request, as its client saw it.
#[derive(Clone, Copy)]
struct Asked {
    took: Duration,
    status: Option<u16>,
    retry_after: bool,
}

impl Connection {
    fn new(address: &str, source: Option<IpAddr>) -> Self {
        Connection {
            address: address.to_string(),
            source,
            sender: None,
            asked: Vec::new(),
        }
    }

    async fn post(
        &mut self,
        path: &str,
        token: Option<&str>,
        body: String,
    ) -> Result<Answer, String> {
        self.send(hyper::Method::POST, path, token, body).await
    }

    async fn get(&mut self, path: &str) -> Result<Answer, String> {
        self.send(hyper::Method::GET, path, None, String::new())
            .await
    }

    async fn send(
        &mut self,
        method: hyper::Method,
        path: &str,
        token: Option<&str>,
        body: String,
    ) -> Result<Answer, String> {
        let started = Instant::now();
        let (answer, status, retry_after) = self.exchange(method, path, token, body).await;
        self.asked.push(Asked {
            took: started.elapsed(),
            status,
            retry_after,
        });
        answer
    }

    /// One request and its answer: the answer read, its status, and whether it said when
    /// to come back.
    async fn exchange(
        &mut self,
        method: hyper::Method,
        path: &str,
        token: Option<&str>,
        body: String,
    ) -> (Result<Answer, String>, Option<u16>, bool) {
        match self.request(method, path, token, body).await {
            Ok((status, retry_after, body)) => {
                let answer = if (200..300).contains(&status) {
                    serde_json::from_slice(&body).map_err(|e| e.to_string())
                } else {
                    Err(hyper::StatusCode::from_u16(status)
                        .map_or_else(|_| status.to_string(), |status| status.to_string()))
                };
                (answer, Some(status), retry_after)
            }
            Err(error) => (Err(error), None, false),
        }
    }

    async fn request(
        &mut self,
        method: hyper::Method,
        path: &str,
        token: Option<&str>,
        body: String,
    ) -> Result<(u16, bool, Bytes), String> {
        let sender = match &mut self.sender {
            Some(sender) if !sender.is_closed() => sender,
            _ => self
                .sender
                .insert(connect(&self.address, self.source).await?),
        };
        sender.ready().await.map_err(|e| e.to_string())?;
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, &self.address)
            .header(header::CONTENT_TYPE, "application/json");
        if let Some(token) = token {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        let request = request
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| e.to_string())?;
        let response = match sender.send_request(request).await {
            Ok(response) => response,
            Err(error) => {
                // The server is gone or closed the connection: connect anew next time.
                self.sender = None;
                return Err(error.to_string());
            }
        };
        let status = response.status().as_u16();
        let retry_after = response.headers().contains_key(header::RETRY_AFTER);
        let body = response
            .into_body()
            .collect()
            .await
            .map_err(|e| e.to_string())?
            .to_bytes();
        Ok((status, retry_after, body))
    }
}

/// The clients sharing one source address. The server gives each address a share of
/// its connections (256 by default), as it would a house behind one router: on
/// loopback, the clients are spread over 127.0.0.2, 127.0.0.3, ... so that a run
/// measures play, not that share.
const CLIENTS_PER_ADDRESS: usize = 100;

/// Where `player`'s connection comes from: an address of its own group on loopback,
/// or wherever the system picks for a server elsewhere.
fn source_of(address: &str, player: usize) -> Option<IpAddr> {
    let server: SocketAddr = address.parse().ok()?;
    if !server.ip().is_loopback() || !server.is_ipv4() {
        return None;
    }
    let group = u8::try_from(2 + player / CLIENTS_PER_ADDRESS).ok()?;
    Some(IpAddr::from([127, 0, 0, group]))
}

async fn connect(
    address: &str,
    source: Option<IpAddr>,
) -> Result<http1::SendRequest<Full<Bytes>>, String> {
    let stream = match source {
        Some(source) => {
            let server: SocketAddr = address.parse().map_err(|e| format!("{e}"))?;
            let socket = TcpSocket::new_v4().map_err(|e| e.to_string())?;
            socket
                .bind(SocketAddr::new(source, 0))
                .map_err(|e| e.to_string())?;
            socket.connect(server).await
        }
        None => TcpStream::connect(address).await,
    }
    .map_err(|e| e.to_string())?;
    let _ = stream.set_nodelay(true);
    let (sender, connection) = http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| e.to_string())?;
    tokio::spawn(connection);
    Ok(sender)
}

/// A client's connections, one to each server, used in turn: a request that fails is
/// sent to the next server, for up to [`PATIENCE`].
struct Servers {
    connections: Vec<Connection>,
    next: usize,
}

/// How long a client keeps trying the servers before it gives up on a request.
const PATIENCE: Duration = Duration::from_secs(10);

impl Servers {
    fn new(addresses: &[String], player: usize) -> Self {
        Servers {
            connections: addresses
                .iter()
                .map(|address| Connection::new(address, source_of(address, player)))
                .collect(),
            next: player,
        }
    }

    /// The next server's connection.
    fn turn(&mut self) -> &mut Connection {
        self.next = (self.next + 1) % self.connections.len();
        &mut self.connections[self.next]
    }
}

/// Whether a failed request may be sent to another server: the server did not answer,
/// or answered that it could not serve (not a refusal of the request itself).
fn retryable(error: &str) -> bool {
    !(error.starts_with('4'))
}

/// The name client `player` plays under: "Load 1" to "Load 50".
fn name_of(player: usize) -> String {
    format!("Load {}", player % NAMES + 1)
}

/// Signs "Load 1" to "Load 50" up at `url` (or in, when they are accounts already),
/// each from an address of its own (the server takes few new accounts from one
/// address), and makes each a personal token: the tokens, in the names' order.
async fn sign_in_everyone(url: &str) -> Result<Vec<String>, String> {
    let mut tokens = Vec::with_capacity(NAMES);
    for account in 0..NAMES {
        let name = name_of(account);
        let from = IpAddr::from([127, 0, 1, u8::try_from(account + 1).unwrap_or(255)]);
        let client = reqwest::Client::builder()
            .cookie_store(true)
            .local_address(url.contains("127.0.0.1").then_some(from))
            .build()
            .map_err(|e| e.to_string())?;
        let account_json = json!({ "name": name, "password": format!("{name} plays on") });
        let sent = |path: &str| {
            client
                .post(format!("{url}{path}"))
                .json(&account_json)
                .send()
        };
        let signed_up = sent("/api/accounts").await.map_err(|e| e.to_string())?;
        if signed_up.status() == reqwest::StatusCode::CONFLICT {
            let signed_in = sent("/api/session").await.map_err(|e| e.to_string())?;
            if !signed_in.status().is_success() {
                return Err(format!("{name} could not sign in: {}", signed_in.status()));
            }
        } else if !signed_up.status().is_success() {
            return Err(format!("{name} could not sign up: {}", signed_up.status()));
        }
        let made: Value = client
            .post(format!("{url}/api/tokens"))
            .json(&json!({}))
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .map_err(|e| e.to_string())?
            .json()
            .await
            .map_err(|e| e.to_string())?;
        let token = made["token"]
            .as_str()
            .ok_or("a token answered without its text")?;
        tokens.push(token.to_string());
    }
    Ok(tokens)
}

/// What a client plays with: a guest's seat (the token each new game gives), or its
/// account's personal token.
fn seat_token(answer: &Answer, account: Option<&str>) -> Option<String> {
    match account {
        Some(token) => Some(token.to_string()),
        None => answer
            .seats
            .as_ref()
            .and_then(|seats| seats.x.as_ref())
            .map(|seat| seat.token.clone()),
    }
}

async fn play_games(
    addresses: Arc<Vec<String>>,
    player: usize,
    until: Instant,
    pause: Duration,
    account: Option<String>,
) -> Played {
    let mut played = Played::default();
    let mut servers = Servers::new(&addresses, player);
    let new_game =
        json!({ "x": format!("human:{}", name_of(player)), "o": "impossible" }).to_string();
    while Instant::now() < until {
        let game = match servers
            .turn()
            .post("/api/games", account.as_deref(), new_game.clone())
            .await
        {
            Ok(answer) => match seat_token(&answer, account.as_deref()) {
                Some(token) => {
                    played.begun_at.push(Instant::now());
                    (answer.id, answer.board, answer.status, token)
                }
                None => {
                    played.note_error("a new game without a seat for X".into());
                    continue;
                }
            },
            Err(error) if retryable(&error) => {
                // A game begun but not answered is not the client's: the next server
                // is asked for another.
                played.note_retry(error);
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
            Err(error) => {
                played.note_error(error);
                continue;
            }
        };
        let (id, mut board, mut status, token) = game;
        let mut given_up = false;
        let moves = format!("/api/games/{id}/moves");
        let this_game = format!("/api/games/{id}");
        while status == "in_progress" {
            let Some(cell) = board.find('.').map(|index| index + 1) else {
                break;
            };
            if !pause.is_zero() {
                // People do not click in step: each pause is drawn from half to one and
                // a half times the mean, so that 500 clients do not arrive as one burst.
                let millis = pause.as_secs_f64() * 1000.0;
                let drawn = rand::random_range(millis * 0.5..millis * 1.5);
                tokio::time::sleep(Duration::from_secs_f64(drawn / 1000.0)).await;
            }
            let started = Instant::now();
            let body = format!("{{\"cell\":{cell}}}");
            let mut failed_at: Option<Instant> = None;
            let after = loop {
                let connection = servers.turn();
                let answer = match failed_at {
                    None => connection.post(&moves, Some(&token), body.clone()).await,
                    // After a failure the move may have been kept unanswered: read the
                    // game back first, and play only if the move is not there.
                    Some(_) => match connection.get(&this_game).await {
                        Ok(game) if game.board != board => Ok(game),
                        Ok(_) => connection.post(&moves, Some(&token), body.clone()).await,
                        Err(error) => Err(error),
                    },
                };
                match answer {
                    Ok(after) => {
                        if let Some(failed) = failed_at {
                            played.longest_outage = played.longest_outage.max(failed.elapsed());
                        }
                        break Some(after);
                    }
                    Err(error) if retryable(&error) && started.elapsed() < PATIENCE => {
                        failed_at.get_or_insert_with(Instant::now);
                        played.note_retry(error);
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                    Err(error) => {
                        played.note_error(error);
                        break None;
                    }
                }
            };
            let Some(after) = after else {
                given_up = true;
                break;
            };
            let took = started.elapsed();
            played.moves.push(took);
            if after.status != "in_progress" {
                played.last_moves.push(took);
            }
            board = after.board;
            status = after.status;
        }
        let moves_on_board = board.chars().filter(|c| *c != '.').count();
        played.answered.push(Answered {
            id,
            moves: moves_on_board,
            ended: status != "in_progress",
            given_up,
        });
        if status != "in_progress" {
            played.games += 1;
        }
    }
    played.asked = servers
        .connections
        .into_iter()
        .map(|connection| connection.asked)
        .collect();
    played
}

/// Checks the games the clients played against the database at `url`: for each, the
/// steps kept are the moves last answered (no more, no fewer), and it has an ending if
/// and only if it was answered as ended; except that a game whose client gave up on a
/// move may also have that move and the reply kept (two steps more, and an ending), as
/// a server may have kept it without its answer reaching the client. Returns the
/// problems found, how many given-up moves were kept so, and how many of those ended
/// their game (counted on the scoreboard, though no client saw the end).
fn check_database(url: &str, answered: &[Answered]) -> Result<(Vec<String>, usize, u64), String> {
    let ids: Vec<&str> = answered.iter().map(|game| game.id.as_str()).collect();
    let kept = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        kept_in_postgres(url, &ids)?
    } else {
        kept_in_sqlite(url.strip_prefix("sqlite:").unwrap_or(url), &ids)?
    };
    let mut problems = Vec::new();
    let (mut kept_unanswered, mut ended_unanswered) = (0, 0);
    for game in answered {
        let (id, moves, ended) = (&game.id, game.moves as i64, game.ended);
        let Some(&(kept_end, steps)) = kept.get(id) else {
            problems.push(format!("game {id}: answered, not in the database"));
            continue;
        };
        let unanswered = game.given_up && steps > moves;
        if unanswered {
            kept_unanswered += 1;
            if kept_end && !ended {
                ended_unanswered += 1;
            }
        }
        let steps_right = steps == moves || (game.given_up && steps > moves && steps <= moves + 2);
        if !steps_right {
            problems.push(format!("game {id}: {moves} moves answered, {steps} kept"));
        }
        if kept_end != ended && !(unanswered && kept_end) {
            problems.push(format!(
                "game {id}: answered as {}, kept as {}",
                if ended { "ended" } else { "going on" },
                if kept_end { "ended" } else { "going on" }
            ));
        }
    }
    Ok((problems, kept_unanswered, ended_unanswered))
}

/// Whether each of the games `ids` has ended, and how many steps it has, in the
/// PostgreSQL database at `url`.
fn kept_in_postgres(url: &str, ids: &[&str]) -> Result<HashMap<String, (bool, i64)>, String> {
    let mut client =
        postgres::Client::connect(url, postgres::NoTls).map_err(|error| error.to_string())?;
    let rows = client
        .query(
            "SELECT g.id, g.ending IS NOT NULL, \
                    (SELECT count(*) FROM steps s WHERE s.game = g.id) \
             FROM games g WHERE g.id = ANY($1)",
            &[&ids],
        )
        .map_err(|error| error.to_string())?;
    Ok(rows
        .iter()
        .map(|row| (row.get(0), (row.get(1), row.get(2))))
        .collect())
}

/// The same, in the SQLite file at `path` (opened read-only, beside the server).
fn kept_in_sqlite(path: &str, ids: &[&str]) -> Result<HashMap<String, (bool, i64)>, String> {
    let file =
        rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(|error| error.to_string())?;
    let mut query = file
        .prepare(
            "SELECT g.ending IS NOT NULL, (SELECT count(*) FROM steps s WHERE s.game = g.id) \
             FROM games g WHERE g.id = ?1",
        )
        .map_err(|error| error.to_string())?;
    let mut kept = HashMap::new();
    for id in ids {
        let found = query.query_row([id], |row| Ok((row.get(0)?, row.get(1)?)));
        match found {
            Ok(row) => {
                kept.insert(id.to_string(), row);
            }
            Err(rusqlite::Error::QueryReturnedNoRows) => {}
            Err(error) => return Err(error.to_string()),
        }
    }
    Ok(kept)
}

/// Games counted per player name on the server's scoreboard.
async fn scoreboard(client: &reqwest::Client, url: &str) -> HashMap<String, u64> {
    scoreboard_from(client, url)
        .await
        .unwrap_or_else(|error| panic!("the scoreboard of {url}: {error}"))
}

/// The scoreboard, or why the server did not give it (one of several may be dead).
async fn scoreboard_from(
    client: &reqwest::Client,
    url: &str,
) -> Result<HashMap<String, u64>, reqwest::Error> {
    let scores: Value = client
        // The most the API gives: on a database with more players than that, count
        // with `tictactoe --db DB scores --json` instead.
        .get(format!("{url}/api/scores?top=1000"))
        .send()
        .await?
        .json()
        .await?;
    Ok(api_client::games_by_name(&scores))
}

fn load_games(board: &HashMap<String, u64>) -> u64 {
    api_client::games_of_players_named(board, "Load ")
}

fn memory(pid: u32) -> String {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .filter(|line| line.starts_with("VmRSS") || line.starts_with("VmHWM"))
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join(", ")
}

/// CPU time used by process `pid` ("self" for this one), in seconds.
fn cpu_seconds(pid: &str) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name, which is in parentheses: utime is the 12th, stime the 13th.
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    let ticks: f64 = [11, 12]
        .iter()
        .filter_map(|&i| fields.get(i)?.parse::<f64>().ok())
        .sum();
    ticks / 100.0
}

fn percentile(sorted: &[Duration], fraction: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let index = ((sorted.len() as f64 * fraction).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[index]
}

/// The games listed in `file` (see `--answered-to`).
fn read_answered(file: &std::path::Path) -> Vec<Answered> {
    let text =
        std::fs::read_to_string(file).unwrap_or_else(|error| panic!("{}: {error}", file.display()));
    text.lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            Some(Answered {
                id: fields.next()?.to_string(),
                moves: fields.next()?.parse().ok()?,
                ended: fields.next()? == "ended",
                given_up: fields.next() == Some("given-up"),
            })
        })
        .collect()
}

/// Checks the answered games and says what it found.
fn report_check(database: &str, answered: &[Answered]) -> u64 {
    let games = answered.len();
    match check_database(database, answered) {
        Ok((problems, unanswered, ended)) if problems.is_empty() => {
            println!(
                "database: all {games} games as answered: every move answered kept once, \
                 every ending answered kept ({unanswered} moves a client gave up on were \
                 kept, with the reply, unanswered; {ended} of them ended their game)"
            );
            ended
        }
        Ok((problems, _, _)) => {
            println!("database: {} problems in {games} games:", problems.len());
            for problem in problems.iter().take(20) {
                println!("  {problem}");
            }
            0
        }
        Err(error) => {
            println!("database: could not check: {error}");
            0
        }
    }
}

#[tokio::main]
async fn main() {
    let options = options();
    if let (Some(file), Some(database)) = (&options.check_answered, &options.check_db) {
        let _ = report_check(database, &read_answered(file));
        return;
    }
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(options.players)
        .build()
        .unwrap();
    let url = options.urls[0].clone();
    let before = scoreboard(&client, &url).await;
    if let Some(pid) = options.pid {
        println!("server memory before: {}", memory(pid));
    }

    let addresses = Arc::new(
        options
            .urls
            .iter()
            .map(|url| url.trim_start_matches("http://").to_string())
            .collect::<Vec<_>>(),
    );
    let tokens = if options.signed_in {
        match sign_in_everyone(&url).await {
            Ok(tokens) => tokens,
            Err(error) => {
                eprintln!("load: the accounts could not be made ready: {error}");
                std::process::exit(1);
            }
        }
    } else {
        Vec::new()
    };
    let server_cpu = options.pid.map(|pid| cpu_seconds(&pid.to_string()));
    let own_cpu = cpu_seconds("self");
    let started = Instant::now();
    let until = started + Duration::from_secs(options.seconds);
    let clients: Vec<_> = (0..options.players)
        .map(|player| {
            tokio::spawn(play_games(
                Arc::clone(&addresses),
                player,
                until,
                Duration::from_millis(options.pause_ms),
                tokens.get(player % NAMES).cloned(),
            ))
        })
        .collect();
    let mut total = Played::default();
    for client in clients {
        let played = client.await.unwrap();
        total.games += played.games;
        total.errors += played.errors;
        if total.first_error.is_none() {
            total.first_error = played.first_error;
        }
        total.moves.extend(played.moves);
        total.last_moves.extend(played.last_moves);
        total.retries += played.retries;
        total.longest_outage = total.longest_outage.max(played.longest_outage);
        total.answered.extend(played.answered);
        total.asked.resize_with(played.asked.len(), Vec::new);
        for (server, asked) in played.asked.into_iter().enumerate() {
            total.asked[server].extend(asked);
        }
        total.begun_at.extend(played.begun_at);
        total.first_failure = match (total.first_failure, played.first_failure) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
    let elapsed = started.elapsed().as_secs_f64();

    let mut after = HashMap::new();
    for url in &options.urls {
        // The first server that answers: one of them may have been killed.
        if let Ok(board) = scoreboard_from(&client, url).await {
            after = board;
            break;
        }
    }
    let counted = load_games(&after).saturating_sub(load_games(&before));
    total.moves.sort();
    total.last_moves.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("players at once: {}", options.players);
    println!("games finished: {} in {elapsed:.1} s", total.games);
    println!(
        "moves: {} ({:.0} moves/s)",
        total.moves.len(),
        total.moves.len() as f64 / elapsed
    );
    println!(
        "move latency: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        ms(percentile(&total.moves, 0.50)),
        ms(percentile(&total.moves, 0.99)),
        ms(percentile(&total.moves, 1.0)),
    );
    println!(
        "  of which the {} moves that ended a game (written to the scoreboard first): \
         p50 {:.2} ms, p99 {:.2} ms",
        total.last_moves.len(),
        ms(percentile(&total.last_moves, 0.50)),
        ms(percentile(&total.last_moves, 0.99)),
    );
    match &total.first_error {
        Some(error) => println!(
            "errors: {} given up, {} sent again to the next server (the first: {error})",
            total.errors, total.retries
        ),
        None => println!("errors: 0"),
    }
    if total.retries > 0 {
        println!(
            "longest a client waited from a failed request to an answer: {:.0} ms",
            ms(total.longest_outage)
        );
    }
    for (server, asked) in total.asked.iter().enumerate() {
        let mut answered: Vec<Duration> = asked
            .iter()
            .filter(|asked| asked.status.is_some())
            .map(|asked| asked.took)
            .collect();
        answered.sort();
        let unavailable = asked.iter().filter(|a| a.status == Some(503)).count();
        let unsaid = asked
            .iter()
            .filter(|a| a.status == Some(503) && !a.retry_after)
            .count();
        let slow = answered
            .iter()
            .filter(|took| **took > Duration::from_secs(2))
            .count();
        println!(
            "server {}: {} requests answered (p50 {:.2} ms, p99 {:.2} ms, max {:.0} ms; {slow} \
             over 2 s), {} not answered; {unavailable} answered 503 ({unsaid} without \
             Retry-After)",
            options.urls[server],
            answered.len(),
            ms(percentile(&answered, 0.50)),
            ms(percentile(&answered, 0.99)),
            ms(percentile(&answered, 1.0)),
            asked.len() - answered.len(),
        );
    }
    if let Some(first) = total.first_failure {
        let before = total.begun_at.iter().filter(|at| **at < first).count();
        println!(
            "first failed request {:.2} s in; games begun (kept) before it: {before}, in all: {}",
            first.duration_since(started).as_secs_f64(),
            total.begun_at.len()
        );
    }
    if let Some(file) = &options.answered_to {
        let lines: String = total
            .answered
            .iter()
            .map(|game| {
                format!(
                    "{} {} {}{}\n",
                    game.id,
                    game.moves,
                    if game.ended { "ended" } else { "going" },
                    if game.given_up { " given-up" } else { "" }
                )
            })
            .collect();
        std::fs::write(file, lines).unwrap_or_else(|error| panic!("{}: {error}", file.display()));
        println!("answered games written to {}", file.display());
    }
    // Games a server ended with a move whose answer its client gave up on: counted on
    // the scoreboard, not among the games the clients finished.
    let mut ended_unseen = 0;
    if let Some(database) = options.check_db.clone() {
        let answered = std::mem::take(&mut total.answered);
        ended_unseen = tokio::task::spawn_blocking(move || report_check(&database, &answered))
            .await
            .unwrap();
    }
    if let (Some(pid), Some(before)) = (options.pid, server_cpu) {
        let used = cpu_seconds(&pid.to_string()) - before;
        println!(
            "server CPU: {used:.1} s in {elapsed:.1} s ({:.0}% of one core)",
            used / elapsed * 100.0
        );
    }
    let used = cpu_seconds("self") - own_cpu;
    println!(
        "load generator CPU: {used:.1} s ({:.0}% of one core)",
        used / elapsed * 100.0
    );
    if let Some(pid) = options.pid {
        println!("server memory after: {}", memory(pid));
    }
    println!(
        "scoreboard: {counted} games counted for {} finished{}: {}",
        total.games,
        if ended_unseen > 0 {
            format!(" and {ended_unseen} ended unseen")
        } else {
            String::new()
        },
        if counted == total.games + ended_unseen {
            "exactly once each"
        } else if load_games(&after) == 0 {
            "the load's players are not in the top 1,000: count them with `tictactoe scores --json`"
        } else {
            "MISMATCH"
        }
    );
    for name in before
        .keys()
        .chain(after.keys())
        .filter(|n| !n.starts_with("Load "))
        .collect::<std::collections::BTreeSet<_>>()
    {
        let delta = after
            .get(name)
            .copied()
            .unwrap_or(0)
            .saturating_sub(before.get(name).copied().unwrap_or(0));
        if delta > 0 {
            println!("  also counted meanwhile: {name} +{delta}");
        }
    }
}
