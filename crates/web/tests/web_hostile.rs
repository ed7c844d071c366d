//! The server against hostile clients, over real sockets: heads and bodies trickled a
//! byte at a time, heads too large or malformed, one client taking every connection or
//! every event stream, a stop while clients hold connections open. The deadlines are
//! set short through the server's `Limits`, so each test runs in a second or two.
//! (The figures at scale, thousands of connections, come from `examples/hostile/`;
//! see docs/web.md.)

mod web_support;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

use tictactoe_core::memory::MemoryStore;
use tictactoe_core::ports::{GameStore, MockGameStore};
use tictactoe_web::Limits;
use web_support::{Running, Server, games_over, test_game_limits, two_people};

const SECURITY_HEADERS: [&str; 7] = [
    "content-security-policy:",
    "x-content-type-options: nosniff",
    "x-frame-options: deny",
    "referrer-policy: no-referrer",
    "cross-origin-opener-policy: same-origin",
    "cross-origin-resource-policy: same-origin",
    "permissions-policy: accelerometer=(), ",
];

/// A connection to `server` from the loopback address `source` (Linux answers on all
/// of 127.0.0.0/8, so each test can have clients at several addresses).
async fn connect_from(source: &str, server: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket
        .bind(SocketAddr::new(source.parse().unwrap(), 0))
        .unwrap();
    socket.connect(server).await.unwrap()
}

/// A server within `limits`, listening on a loopback port (until the `Running` is
/// dropped), and a connection to it from 127.0.0.1.
async fn connected(limits: Limits) -> (Server, Running, TcpStream) {
    let (server, running) = listening(limits).await;
    let stream = connect_from("127.0.0.1", running.address).await;
    (server, running, stream)
}

/// A server within `limits`, listening on a loopback port (until the `Running` is
/// dropped).
async fn listening(limits: Limits) -> (Server, Running) {
    let server = Server::with_limits(limits);
    let running = server.listen().await;
    (server, running)
}

/// The server's limits, with a second for a request's head to arrive.
fn a_second_for_a_head() -> Limits {
    Limits {
        head_deadline: Duration::from_secs(1),
        ..Limits::default()
    }
}

/// The server's limits, with a share of `connections` for each client.
fn a_share_of(connections: usize) -> Limits {
    Limits {
        connections_per_client: connections,
        ..Limits::default()
    }
}

/// A client whose requests come from `source`.
fn client_from(source: &str) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(source.parse::<IpAddr>().unwrap())
        .build()
        .unwrap()
}

/// What the server sent until it closed the connection, and how long that took;
/// `None` if it was still open after `within`.
async fn until_closed(
    mut reading: impl AsyncReadExt + Unpin,
    within: Duration,
) -> Option<(String, Duration)> {
    let started = Instant::now();
    let mut got = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        match tokio::time::timeout_at((started + within).into(), reading.read(&mut buffer)).await {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => break,
            Ok(Ok(n)) => got.extend_from_slice(&buffer[..n]),
        }
    }
    Some((
        String::from_utf8_lossy(&got).into_owned(),
        started.elapsed(),
    ))
}

/// Writes `bytes` one at a time, `every` apart, until they are all out or the server
/// has closed the connection.
fn trickle(
    mut writing: impl AsyncWriteExt + Unpin + Send + 'static,
    bytes: Vec<u8>,
    every: Duration,
) {
    tokio::spawn(async move {
        for byte in bytes {
            if writing.write_all(&[byte]).await.is_err() {
                break;
            }
            tokio::time::sleep(every).await;
        }
    });
}

/// Asserts that `answer` is a refusal with `status`, dressed as the server's own
/// answers are (the security headers, a JSON error); its JSON.
fn refused_dressed(answer: &str, status: u16) -> serde_json::Value {
    assert!(
        answer.starts_with(&format!("HTTP/1.1 {status} ")),
        "{answer}"
    );
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((answer, ""));
    let head = head.to_ascii_lowercase();
    let json: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
    for header in SECURITY_HEADERS {
        assert!(head.contains(header), "{header} missing from {head}");
    }
    assert!(
        head.contains("content-type: application/json"),
        "not JSON: {head}"
    );
    assert!(json["error"].is_string(), "no error said: {json}");
    json
}

/// What the server wrote before it closed a connection: it must have closed it within
/// 2.5 s of its 1 s deadline's start (room for a loaded machine), not at the test's
/// 4 s patience.
fn closed_by_the_deadline(closed: Option<(String, Duration)>) -> String {
    let (answer, after) = closed.expect("still open 4 s after a 1 s deadline");
    assert!(
        after < Duration::from_millis(2500),
        "closed only after {after:?}"
    );
    answer
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_head_trickled_a_byte_at_a_time_is_cut_off_at_the_head_deadline() {
    // Arrange: a 1 s deadline; 60 bytes of head at one every 100 ms would take 6 s.
    let (_server, _running, stream) = connected(a_second_for_a_head()).await;
    let (reading, writing) = stream.into_split();
    let head = format!(
        "GET /api/scores HTTP/1.1\r\nHost: x\r\nX-Pad: {}\r\n\r\n",
        "a".repeat(20)
    );

    // Act
    trickle(writing, head.into_bytes(), Duration::from_millis(100));
    let closed = until_closed(reading, Duration::from_secs(4)).await;

    // Assert
    let answer = closed_by_the_deadline(closed);
    assert!(
        !answer.contains("200 OK"),
        "the trickled request was answered"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_sends_nothing_is_closed_at_the_head_deadline() {
    // Arrange
    let (_server, _running, stream) = connected(a_second_for_a_head()).await;

    // Act
    let closed = until_closed(stream, Duration::from_secs(4)).await;

    // Assert
    closed_by_the_deadline(closed);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_trickled_a_byte_at_a_time_is_answered_408_at_the_body_deadline_and_closed() {
    // Arrange: a 1 s deadline for a 60-byte body sent at one byte every 100 ms.
    let (server, _running, mut stream) = connected(Limits {
        body_deadline: Duration::from_secs(1),
        ..Limits::default()
    })
    .await;
    let body = format!(
        r#"{{"x":"human:Ada","o":"human:Bob","pad":"{}"}}"#,
        "b".repeat(18)
    );
    stream
        .write_all(
            format!(
                "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
                 Content-Length: {}\r\n\r\n",
                body.len()
            )
            .as_bytes(),
        )
        .await
        .unwrap();
    let (reading, writing) = stream.into_split();

    // Act
    trickle(writing, body.into_bytes(), Duration::from_millis(100));
    let closed = until_closed(reading, Duration::from_secs(4)).await;

    // Assert
    let answer = closed_by_the_deadline(closed);
    refused_dressed(&answer, 408);
    assert_eq!(
        server.games.held(),
        0,
        "a game was made from a body that never came"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_head_larger_than_the_server_takes_is_a_431_with_the_security_headers_and_a_reason() {
    // Arrange
    let (_server, _running, mut stream) = connected(Limits {
        head_bytes: 8 * 1024,
        ..Limits::default()
    })
    .await;
    let head = format!(
        "GET /api/scores HTTP/1.1\r\nHost: x\r\nX-Pad: {}\r\n\r\n",
        "a".repeat(9 * 1024)
    );

    // Act
    stream.write_all(head.as_bytes()).await.unwrap();
    let (answer, _) = until_closed(stream, Duration::from_secs(4)).await.unwrap();

    // Assert
    let json = refused_dressed(&answer, 431);
    assert!(
        json["error"].as_str().unwrap().contains("8192 bytes"),
        "{json}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_head_just_inside_the_limit_is_served() {
    // Arrange: a browser with a few cookies of other sites on this host sends about this.
    let (_server, _running, mut stream) = connected(Limits::default()).await;
    let head = format!(
        "GET /api/scores HTTP/1.1\r\nHost: x\r\nConnection: close\r\nCookie: {}\r\n\r\n",
        "c".repeat(6 * 1024)
    );

    // Act
    stream.write_all(head.as_bytes()).await.unwrap();
    let (answer, _) = until_closed(stream, Duration::from_secs(4)).await.unwrap();

    // Assert
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_request_line_is_a_400_with_the_security_headers_and_a_reason() {
    // Arrange
    let (_server, _running, mut stream) = connected(Limits::default()).await;

    // Act
    stream.write_all(b"GARBAGE\x01 LINE\r\n\r\n").await.unwrap();
    let (answer, _) = until_closed(stream, Duration::from_secs(4)).await.unwrap();

    // Assert
    refused_dressed(&answer, 400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_client_past_its_share_of_connections_is_refused_while_another_client_is_served() {
    // Arrange: 127.0.0.1 holds its whole share of 4, idle.
    let (_server, running) = listening(a_share_of(4)).await;
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(connect_from("127.0.0.1", running.address).await);
    }
    // The server counts a connection once it accepts it: give it the moment it needs.
    tokio::time::sleep(Duration::from_millis(200)).await;

    // Act
    let fifth = connect_from("127.0.0.1", running.address).await;
    let refused = until_closed(fifth, Duration::from_secs(2)).await;
    let other = client_from("127.0.0.2")
        .get(running.url("/api/scores"))
        .send()
        .await
        .unwrap();

    // Assert
    let (answer, _) = refused.expect("a fifth connection from the same address was kept");
    refused_dressed(&answer, 429);
    assert_eq!(other.status(), StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_given_back_makes_room_in_its_clients_share() {
    // Arrange
    let (_server, running) = listening(a_share_of(1)).await;
    let client = client_from("127.0.0.1");
    let first = client.get(running.url("/api/scores")).send().await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);

    // Act: a new client (no pooled connection) after the first one is dropped.
    drop(client);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let again = client_from("127.0.0.1")
        .get(running.url("/api/scores"))
        .send()
        .await
        .unwrap();

    // Assert
    assert_eq!(again.status(), StatusCode::OK);
}

/// An event stream opened from `client`, with `forwarded` as its `X-Forwarded-For`.
async fn stream_of(
    client: &reqwest::Client,
    url: &str,
    forwarded: Option<&str>,
) -> reqwest::Response {
    let mut request = client.get(url);
    if let Some(forwarded) = forwarded {
        request = request.header("x-forwarded-for", forwarded);
    }
    request.send().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_client_past_its_share_of_event_streams_gets_429_while_another_gets_its_stream() {
    // Arrange: 127.0.0.1 follows a game twice, its whole share.
    let server = Server::with_limits(Limits {
        streams_per_client: 2,
        ..Limits::default()
    });
    let game = server.create(two_people()).await;
    let running = server.listen().await;
    let url = running.url(&game.api("/events"));
    let greedy = client_from("127.0.0.1");
    let _first = stream_of(&greedy, &url, None).await;
    let _second = stream_of(&greedy, &url, None).await;

    // Act
    let third = stream_of(&greedy, &url, None).await;
    let spectator = stream_of(&client_from("127.0.0.2"), &url, None).await;

    // Assert
    assert_eq!(third.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(third.headers().contains_key("retry-after"));
    assert_eq!(spectator.status(), StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trusted_proxys_clients_are_counted_by_the_address_it_forwards_and_nobody_elses_is_believed()
 {
    // Arrange: 127.0.0.1 is the proxy; one stream each.
    let server = Server::with_limits(Limits {
        streams_per_client: 1,
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..Limits::default()
    });
    let game = server.create(two_people()).await;
    let running = server.listen().await;
    let url = running.url(&game.api("/events"));
    let proxy = client_from("127.0.0.1");
    let stranger = client_from("127.0.0.3");
    let _ada = stream_of(&proxy, &url, Some("203.0.113.1")).await;
    let _own = stream_of(&stranger, &url, Some("203.0.113.7")).await;

    // Act
    let ada_again = stream_of(&proxy, &url, Some("203.0.113.1")).await;
    let bob = stream_of(&proxy, &url, Some("203.0.113.2")).await;
    let stranger_again = stream_of(&stranger, &url, Some("203.0.113.8")).await;

    // Assert
    assert_eq!(ada_again.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(bob.status(), StatusCode::OK);
    assert_eq!(
        stranger_again.status(),
        StatusCode::TOO_MANY_REQUESTS,
        "an untrusted client's X-Forwarded-For was believed"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_ends_within_the_grace_period_whatever_clients_trickle() {
    // Arrange: a client trickling a head, under a head deadline far off, and another
    // holding an event stream.
    let server = Server::with_limits(Limits {
        grace: Duration::from_secs(1),
        head_deadline: Duration::from_secs(60),
        idle_connection: Duration::from_secs(60),
        ..Limits::default()
    });
    let game = server.create(two_people()).await;
    let mut running = server.listen().await;
    let stream = connect_from("127.0.0.1", running.address).await;
    let (_reading, writing) = stream.into_split();
    trickle(writing, vec![b'G'; 600], Duration::from_millis(100));
    let _events = client_from("127.0.0.2")
        .get(running.url(&game.api("/events")))
        .send()
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;

    // Act
    let asked = Instant::now();
    running.stop();
    let finished = tokio::time::timeout(Duration::from_secs(4), &mut running.finished).await;

    // Assert
    assert!(
        finished.is_ok(),
        "still serving 4 s after a stop with 1 s of grace"
    );
    assert!(finished.unwrap().unwrap().is_ok());
    assert!(
        asked.elapsed() < Duration::from_millis(2000),
        "stopped only after {:?}",
        asked.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_finished_while_the_server_stops_is_answered_and_kept() {
    // Arrange: a store that takes 300 ms over each write; Ada (X) one move from a win.
    let store = Arc::new(MemoryStore::new());
    let mut slow = MockGameStore::new();
    let inner = Arc::clone(&store);
    slow.expect_write_new().returning(move |writes| {
        std::thread::sleep(Duration::from_millis(300));
        inner.write_new(writes)
    });
    let limits = Limits {
        grace: Duration::from_secs(3),
        ..Limits::default()
    };
    let server = Server::of(
        games_over(Arc::new(slow), test_game_limits()),
        store,
        limits,
    );
    let game = server.create(two_people()).await;
    let mut running = server.listen().await;
    let client = client_from("127.0.0.1");
    let moves = running.url(&game.api("/moves"));
    let play = |token: &Option<String>, cell: u8| {
        client
            .post(&moves)
            .bearer_auth(token.as_deref().unwrap())
            .json(&serde_json::json!({ "cell": cell }))
            .send()
    };
    for (token, cell) in [(&game.x, 1), (&game.o, 4), (&game.x, 2), (&game.o, 5)] {
        assert_eq!(play(token, cell).await.unwrap().status(), StatusCode::OK);
    }

    // Act: the winning move, and the stop while its write is under way.
    let winning = tokio::spawn(play(&game.x, 3));
    tokio::time::sleep(Duration::from_millis(100)).await;
    running.stop();
    let answer = winning.await.unwrap().unwrap();
    let finished = tokio::time::timeout(Duration::from_secs(5), &mut running.finished).await;

    // Assert
    assert_eq!(answer.status(), StatusCode::OK);
    assert!(finished.is_ok(), "the server did not stop");
    let kept = server.kept(&game.id);
    assert!(kept.ending.is_some(), "the win was answered but not kept");
}

/// The game `request` made by `client` on `running`: the answer's JSON.
async fn made_by(
    client: &reqwest::Client,
    running: &Running,
    request: serde_json::Value,
) -> serde_json::Value {
    let answer = client
        .post(running.url("/api/games"))
        .json(&request)
        .send()
        .await
        .unwrap();
    answer.json().await.unwrap()
}

/// A new game of a guest against Easy on 3x3, made by `client`: its hint's address and
/// the seat's token.
async fn a_game_to_hint_in(client: &reqwest::Client, running: &Running) -> (String, String) {
    let request = serde_json::json!({ "x": "human:Guest", "o": "easy" });
    let made = made_by(client, running, request).await;
    let id = made["id"].as_str().unwrap();
    let token = made["seats"]["x"]["token"].as_str().unwrap();
    (
        running.url(&format!("/api/games/{id}/hint")),
        token.to_string(),
    )
}

/// A hint asked at `url` with the seat's `token`.
async fn hint(client: &reqwest::Client, url: &str, token: &str) -> reqwest::Response {
    client.post(url).bearer_auth(token).send().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_over_its_share_of_the_computers_thinking_is_refused_429_while_another_is_served()
{
    // Arrange: a share of a microsecond, which one hint spends, refilled never (as
    // good as); 127.0.0.1 has had its hint.
    let server = Server::with_game_limits(tictactoe_web::GameLimits {
        budget: tictactoe_web::Budget {
            burst: Duration::from_micros(1),
            refill: 1e-9,
        },
        ..test_game_limits()
    });
    let running = server.listen().await;
    let (spender, other) = (client_from("127.0.0.1"), client_from("127.0.0.2"));
    let (spent_hint, spent_seat) = a_game_to_hint_in(&spender, &running).await;
    let (other_hint, other_seat) = a_game_to_hint_in(&other, &running).await;
    let first = hint(&spender, &spent_hint, &spent_seat).await;
    assert_eq!(first.status(), StatusCode::OK);

    // Act
    let again = hint(&spender, &spent_hint, &spent_seat).await;
    let served = hint(&other, &other_hint, &other_seat).await;

    // Assert
    assert_eq!(again.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(again.headers().contains_key("retry-after"));
    let said: serde_json::Value = again.json().await.unwrap();
    assert!(
        said["error"]
            .as_str()
            .unwrap()
            .starts_with("you have used your share of the computer's thinking for now"),
        "{said}"
    );
    assert_eq!(served.status(), StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_whose_client_went_away_stops_thinking_and_frees_the_game() {
    // Arrange: a computer that may think for ten minutes a hint, and a 7x7 game (4 in
    // a row) after X on 6, where O's hint takes longer than that to prove.
    let store = Arc::new(MemoryStore::new());
    let computers = tictactoe_players::StandardComputers::new(7, Duration::from_secs(600));
    let server = Server::with_computers(store, Box::new(computers), test_game_limits());
    let running = server.listen().await;
    let client = reqwest::Client::new();
    let request = serde_json::json!({"x": "human:Ada", "o": "human:Bob", "size": 7, "win": 4});
    let made = made_by(&client, &running, request).await;
    let id = made["id"].as_str().unwrap();
    let seat = |mark: &str| made["seats"][mark]["token"].as_str().unwrap().to_string();
    let moves = running.url(&format!("/api/games/{id}/moves"));
    let played = client
        .post(&moves)
        .bearer_auth(seat("x"))
        .json(&serde_json::json!({ "cell": 6 }))
        .send()
        .await
        .unwrap();
    assert_eq!(played.status(), StatusCode::OK);

    // Act: O asks a hint and gives up on it after half a second; then O moves, which
    // waits for the game's turn that the hint's thinking holds.
    let given_up = client
        .post(running.url(&format!("/api/games/{id}/hint")))
        .bearer_auth(seat("o"))
        .timeout(Duration::from_millis(500))
        .send()
        .await;
    let started = Instant::now();
    let moved = tokio::time::timeout(
        Duration::from_secs(60),
        client
            .post(&moves)
            .bearer_auth(seat("o"))
            .json(&serde_json::json!({ "cell": 24 }))
            .send(),
    )
    .await;

    // Assert: the hint was cut, not thought about for its ten minutes.
    assert!(given_up.is_err(), "the hint was answered: {given_up:?}");
    let moved = moved.expect("the move waited a minute: the hint went on thinking");
    assert_eq!(moved.unwrap().status(), StatusCode::OK);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}
