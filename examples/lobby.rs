//! Finding an opponent, measured (issue #45): quick pairing of many people on several
//! servers sharing one PostgreSQL database, and how close to its deadline a game on a
//! clock is ended. Not a test: run it by hand against running servers.
//!
//! ```text
//! # 1,000 signed-in people with ratings spread over 1,100 to 1,900, arriving over
//! # 10 s, each asking one of the two servers in turn for quick pairing:
//! cargo run --release --features measure --example lobby -- pairing \
//!     http://127.0.0.1:8081 http://127.0.0.1:8082 --players 1000 \
//!     --db postgres://tictactoe@127.0.0.1:5433/games
//! # 200 games between guests at 5 s a move, both sides move once and then nobody:
//! # how long after its deadline each is ended (the database's own times):
//! cargo run --release --features measure --example lobby -- clocks \
//!     http://127.0.0.1:8081 http://127.0.0.1:8082 --games 200 \
//!     --db postgres://tictactoe@127.0.0.1:5433/games
//! ```
//!
//! `pairing` signs the people up ("Pair 1", ...; each from an address of its own on
//! loopback, as the server takes few new accounts from one address), gives each a
//! rating on 3 x 3 in the database itself (as if they had played), then has each open
//! a pool seek and follow it (`/api/seeks/{id}/events`, as the page does) until it is
//! taken. It prints the time from asking to being told the game (p50, p99, max), how
//! many were paired, and the rating gap of the pairs (p50, p99, max).
//!
//! `clocks` begins the games (an invite taken by a second guest), plays one move on
//! each side, and then waits: with `--kill PID`, the process of the server that kept
//! the last moves is killed (`kill -9`) at once. Then it reads from the database, for
//! each game, when its time ran out (its clock's last reading) and when the store kept
//! its end, and prints how late the ends were (p50, p99, max) and how many games ended
//! on time.

use std::net::IpAddr;
use std::time::{Duration, Instant, SystemTime};

use serde_json::{Value, json};
use tictactoe_core::domain::PlayerName;

/// Measures finding an opponent on running servers.
#[derive(clap::Parser)]
#[command(name = "lobby")]
enum Command {
    /// Quick pairing of many people: time to be paired, and the rating gaps
    Pairing {
        /// The servers: each person asks them in turn
        #[arg(required = true, num_args = 1..)]
        urls: Vec<String>,
        #[arg(long, default_value_t = 1000)]
        players: usize,
        /// Over how long the people arrive
        #[arg(long = "arrive-over", default_value_t = 10)]
        arrive_over: u64,
        /// The servers' PostgreSQL database, where each person's rating is set
        #[arg(long)]
        db: String,
    },
    /// Games on a clock nobody moves in: how late their ends are
    Clocks {
        #[arg(required = true, num_args = 1..)]
        urls: Vec<String>,
        #[arg(long, default_value_t = 200)]
        games: usize,
        /// Kill (-9) this process, the first server's, once the last moves are made
        #[arg(long)]
        kill: Option<u32>,
        #[arg(long)]
        db: String,
    },
}

fn percentile<T: Copy + Default>(sorted: &[T], fraction: f64) -> T {
    if sorted.is_empty() {
        return T::default();
    }
    let index = ((sorted.len() as f64 * fraction).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[index]
}

fn client_from(address: Option<IpAddr>) -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .local_address(address)
        .build()
        .expect("a client")
}

/// Person `n`'s own address on loopback: the server takes five new accounts an address.
fn address_of(n: usize) -> IpAddr {
    IpAddr::from([127, 0, 2 + (n / 250) as u8, 1 + (n % 250) as u8])
}

async fn post(client: &reqwest::Client, url: &str, bearer: Option<&str>, body: Value) -> Value {
    let mut request = client.post(url).json(&body);
    if let Some(token) = bearer {
        request = request.bearer_auth(token);
    }
    let answer = request.send().await.expect("an answer");
    let status = answer.status();
    let json: Value = answer.json().await.unwrap_or(Value::Null);
    assert!(status.is_success(), "{url}: {status} {json}");
    json
}

/// Signs person `n` up as `name` and makes a personal token: the token.
async fn sign_up(url: &str, n: usize, name: &str) -> String {
    let client = client_from(Some(address_of(n)));
    let account = json!({ "name": name, "password": format!("{name} plays on") });
    let answer = client
        .post(format!("{url}/api/accounts"))
        .json(&account)
        .send()
        .await
        .expect("an answer");
    if answer.status() == reqwest::StatusCode::CONFLICT {
        post(&client, &format!("{url}/api/session"), None, account).await;
    } else {
        assert!(answer.status().is_success(), "{name}: {}", answer.status());
    }
    let made = post(&client, &format!("{url}/api/tokens"), None, json!({})).await;
    made["token"].as_str().expect("a token").to_string()
}

/// Follows seek `id` on `url` until it is taken: its last state.
async fn until_taken(client: &reqwest::Client, url: &str, id: &str, token: &str) -> Value {
    let mut answer = client
        .get(format!("{url}/api/seeks/{id}/events"))
        .bearer_auth(token)
        .send()
        .await
        .expect("a stream");
    let mut text = String::new();
    let mut last = Value::Null;
    while let Ok(Some(chunk)) = answer.chunk().await {
        text.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = text.find("\n\n") {
            let event: String = text.drain(..end + 2).collect();
            if let Some(data) = event.lines().find_map(|line| line.strip_prefix("data:")) {
                last = serde_json::from_str(data.trim()).unwrap_or(Value::Null);
                if last["status"] != "open" {
                    return last;
                }
            }
        }
    }
    last
}

async fn pairing(urls: Vec<String>, players: usize, arrive_over: u64, db: String) {
    println!("signing up {players} people ...");
    let started = Instant::now();
    let mut tokens = Vec::with_capacity(players);
    for chunk in (0..players).collect::<Vec<_>>().chunks(50) {
        let signing = chunk.iter().map(|&n| {
            let url = urls[n % urls.len()].clone();
            tokio::spawn(async move { sign_up(&url, n, &format!("Pair {}", n + 1)).await })
        });
        for signed in signing.collect::<Vec<_>>() {
            tokens.push(signed.await.expect("signed up"));
        }
    }
    println!("signed up in {:.1} s", started.elapsed().as_secs_f64());
    // Ratings spread evenly over 1,100 to 1,900, settled (deviation 60), set in the
    // database as if each had played.
    let ratings: Vec<f64> = (0..players)
        .map(|n| 1100.0 + 800.0 * ((n * 7919) % players) as f64 / players as f64)
        .collect();
    let set = ratings.clone();
    tokio::task::spawn_blocking(move || {
        let mut database = postgres::Client::connect(&db, postgres::NoTls).expect("the database");
        for (n, rating) in set.iter().enumerate() {
            let name = format!("Pair {}", n + 1);
            let key = PlayerName::new(&name).expect("a name").key();
            database
                .execute(
                    "INSERT INTO ratings (size, win, key, name, rating, deviation, volatility, games) \
                     VALUES (3, 3, $1, $2, $3, 60, 0.06, 30) \
                     ON CONFLICT (size, win, key) DO UPDATE SET rating = $3, deviation = 60",
                    &[&key, &name, rating],
                )
                .expect("a rating set");
        }
    })
    .await
    .expect("the ratings set");
    println!("{players} people arrive over {arrive_over} s, each asking for 3+2 on 3 x 3 ...");
    let begun = Instant::now();
    let spread = Duration::from_secs(arrive_over);
    let waits = tokens.into_iter().enumerate().map(|(n, token)| {
        let url = urls[n % urls.len()].clone();
        let arrive = spread.mul_f64(((n * 104_729) % players) as f64 / players as f64);
        tokio::spawn(async move {
            tokio::time::sleep_until((begun + arrive).into()).await;
            let client = client_from(Some(address_of(n)));
            let body =
                json!({ "size": 3, "rated": true, "clock": { "initial": 180, "increment": 2 } });
            let asked = Instant::now();
            let seek = post(&client, &format!("{url}/api/pairing"), Some(&token), body).await;
            let id = seek["id"].as_str().expect("a seek id").to_string();
            let taken = until_taken(&client, &url, &id, &token).await;
            (asked.elapsed(), seek["rating"].as_i64().unwrap_or(0), taken)
        })
    });
    let waits: Vec<_> = waits.collect();
    let mut results = Vec::with_capacity(players);
    for done in waits {
        results.push(done.await.expect("a person"));
    }
    let mut waited: Vec<Duration> = Vec::new();
    let mut games: std::collections::HashMap<String, Vec<i64>> = Default::default();
    for (took, rating, taken) in &results {
        if let Some(game) = taken["game"].as_str() {
            waited.push(*took);
            games.entry(game.to_string()).or_default().push(*rating);
        }
    }
    waited.sort();
    let mut gaps: Vec<i64> = games
        .values()
        .filter(|ratings| ratings.len() == 2)
        .map(|ratings| (ratings[0] - ratings[1]).abs())
        .collect();
    gaps.sort();
    let ms = |d: Duration| d.as_millis();
    println!(
        "paired: {} of {players} people into {} games ({} games with both seen)",
        waited.len(),
        games.len(),
        gaps.len()
    );
    println!(
        "time to be paired: p50 {} ms, p99 {} ms, max {} ms",
        ms(percentile(&waited, 0.5)),
        ms(percentile(&waited, 0.99)),
        ms(waited.last().copied().unwrap_or_default())
    );
    println!(
        "rating gap of the pairs: p50 {}, p99 {}, max {}",
        percentile(&gaps, 0.5),
        percentile(&gaps, 0.99),
        gaps.last().copied().unwrap_or_default()
    );
}

/// One game between two guests at 5 s a move, begun on `url` and played one move each
/// there: its id.
async fn clocked_game(url: &str, n: usize) -> String {
    let host = client_from(Some(address_of(2 * n)));
    let friend = client_from(Some(address_of(2 * n + 1)));
    let request = json!({ "x": "human", "o": "human", "invite": "o", "clock": { "per_move": 5 } });
    let begun = post(&host, &format!("{url}/api/games"), None, request).await;
    let id = begun["id"].as_str().expect("an id").to_string();
    let x = begun["seats"]["x"]["token"]
        .as_str()
        .expect("X's token")
        .to_string();
    let code = begun["invite"]["code"].as_str().expect("a code");
    let joined = post(
        &friend,
        &format!("{url}/api/games/{id}/join"),
        None,
        json!({ "invite": code }),
    )
    .await;
    let o = joined["seats"]["o"]["token"]
        .as_str()
        .expect("O's token")
        .to_string();
    let moves = format!("{url}/api/games/{id}/moves");
    post(&host, &moves, Some(&x), json!({ "cell": 1 })).await;
    post(&friend, &moves, Some(&o), json!({ "cell": 5 })).await;
    id
}

async fn clocks(urls: Vec<String>, games: usize, kill: Option<u32>, db: String) {
    println!("{games} games at 5 s a move, one move each side, then nobody moves ...");
    let url = urls[0].clone();
    let begun = (0..games).map(|n| {
        let url = url.clone();
        tokio::spawn(async move { clocked_game(&url, n).await })
    });
    let begun: Vec<_> = begun.collect();
    let mut ids = Vec::with_capacity(games);
    for id in begun {
        ids.push(id.await.expect("a game"));
    }
    let last_move = SystemTime::now();
    if let Some(pid) = kill {
        let killed = std::process::Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status();
        println!("killed {pid} (-9): {killed:?}");
    }
    // Every deadline is 5 s after its last move; the ends are looked for 10 s after.
    tokio::time::sleep(Duration::from_secs(15)).await;
    let rows = tokio::task::spawn_blocking(move || {
        let mut database = postgres::Client::connect(&db, postgres::NoTls).expect("the database");
        database
            .query(
                "SELECT g.id, g.ended_at, g.clock_end, c.since_ns, c.x_left_ns, c.o_left_ns, c.turn \
                 FROM games g JOIN clocks c ON c.game = g.id WHERE g.id = ANY($1)",
                &[&ids],
            )
            .expect("the games")
    })
    .await
    .expect("the games read");
    let mut late: Vec<i64> = Vec::new();
    let mut on_time = 0;
    for row in &rows {
        let ended_ms: Option<i64> = row.get(1);
        let clock_end: Option<String> = row.get(2);
        let since: i64 = row.get(3);
        let left: i64 = if row.get::<_, String>(6) == "X" {
            row.get(4)
        } else {
            row.get(5)
        };
        let deadline_ms = (since + left) / 1_000_000;
        if let Some(ended) = ended_ms {
            late.push(ended - deadline_ms);
            if clock_end.is_some_and(|end| end.ends_with("timeout")) {
                on_time += 1;
            }
        }
    }
    late.sort();
    println!(
        "ended on time: {on_time} of {games} (last move {:.1} s before the check)",
        last_move.elapsed().unwrap_or_default().as_secs_f64()
    );
    println!(
        "end after the deadline: p50 {} ms, p99 {} ms, max {} ms (min {} ms)",
        percentile(&late, 0.5),
        percentile(&late, 0.99),
        late.last().copied().unwrap_or_default(),
        late.first().copied().unwrap_or_default()
    );
}

#[tokio::main]
async fn main() {
    match <Command as clap::Parser>::parse() {
        Command::Pairing {
            urls,
            players,
            arrive_over,
            db,
        } => pairing(urls, players, arrive_over, db).await,
        Command::Clocks {
            urls,
            games,
            kill,
            db,
        } => clocks(urls, games, kill, db).await,
    }
}
