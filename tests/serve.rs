//! `tictactoe serve`, the binary: where it says it listens, and that Ctrl-C and SIGTERM
//! stop it with status 0 and the games kept; its log lines, its public URL, its
//! metrics' listener.

use std::io::Write;
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

mod common;

async fn post(url: &str, token: Option<&str>, body: serde_json::Value) -> serde_json::Value {
    let mut request = reqwest::Client::new().post(url).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    response.json().await.unwrap_or(serde_json::Value::Null)
}

/// A new game on the server at `address`: Ada (X) against Bob (O).
async fn ada_against_bob(address: &str) -> serde_json::Value {
    post(
        &format!("{address}/api/games"),
        None,
        json!({ "x": "human:Ada", "o": "human:Bob" }),
    )
    .await
}

/// `tictactoe serve --port 0` on a database in `folder`, and the address it printed.
fn serve_binary(folder: &tempfile::TempDir) -> (Child, String) {
    serve_binary_with(folder, &[])
}

/// The same, with `more` flags for `serve`.
fn serve_binary_with(folder: &tempfile::TempDir, more: &[&str]) -> (Child, String) {
    let database = folder.path().join("games.db");
    common::serve(database.to_str().unwrap(), more, Stdio::piped())
}

fn send_signal(child: &Child, signal: &str) -> bool {
    Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap()
        .success()
}

#[cfg(unix)]
#[test]
fn sigterm_stops_the_binary_cleanly_too() {
    let folder = tempfile::TempDir::new().unwrap();
    let (mut child, address) = serve_binary(&folder);

    let sent = send_signal(&child, "-TERM");

    assert!(sent);
    assert!(address.starts_with("http://127.0.0.1:"), "{address}");
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

/// Waits up to `within` for `child` to exit: its status code, or `None` if it has not.
fn exit_within(child: &mut Child, within: Duration) -> Option<Option<i32>> {
    let started = Instant::now();
    while started.elapsed() < within {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status.code());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

#[cfg(unix)]
#[test]
fn sigterm_with_a_client_trickling_a_request_ends_the_server_within_its_grace_period() {
    // Arrange: one second of grace; a client sends a byte of a request head every 100 ms.
    let folder = tempfile::TempDir::new().unwrap();
    let (mut child, address) = serve_binary_with(&folder, &["--grace", "1"]);
    let mut trickler = TcpStream::connect(address.trim_start_matches("http://")).unwrap();
    let trickling = std::thread::spawn(move || {
        for _ in 0..100 {
            if trickler.write_all(b"G").is_err() {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    std::thread::sleep(Duration::from_millis(300));

    // Act
    let sent = send_signal(&child, "-TERM");
    let exited = exit_within(&mut child, Duration::from_secs(3));

    // Assert
    assert!(sent);
    if exited.is_none() {
        let _ = child.kill();
    }
    assert_eq!(
        exited,
        Some(Some(0)),
        "not stopped with status 0 within 3 s"
    );
    drop(trickling);
}

#[test]
fn with_a_public_url_the_binary_answers_that_address_and_its_health_checks_only() {
    // Arrange: people reach it as http://play.example (a proxy's name, say).
    let folder = tempfile::TempDir::new().unwrap();
    let (mut child, address) = serve_binary_with(&folder, &["--public-url", "http://play.example"]);

    // Act: the same request for its own address, and for the public one; a check.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (direct, public, check) = runtime.block_on(async {
        let client = reqwest::Client::new();
        let scores = format!("{address}/api/scores");
        let status = |request: reqwest::RequestBuilder| async move {
            request.send().await.unwrap().status().as_u16()
        };
        (
            status(client.get(&scores)).await,
            status(client.get(&scores).header("host", "play.example")).await,
            status(client.get(format!("{address}/readyz"))).await,
        )
    });
    let _ = child.kill();
    let _ = child.wait();

    // Assert
    assert_eq!(direct, 421);
    assert_eq!(public, 200);
    assert_eq!(check, 200);
}

#[test]
fn the_binary_says_where_it_listens_and_ctrl_c_stops_it_with_status_0_scores_intact() {
    // Arrange: `tictactoe serve` on any free port.
    let folder = tempfile::TempDir::new().unwrap();
    let (child, address) = serve_binary(&folder);

    // Act: one game played to the end, then Ctrl-C.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let game = ada_against_bob(&address).await;
        let id = game["id"].as_str().unwrap();
        for (seat, cell) in [("x", 1), ("o", 4), ("x", 2), ("o", 5), ("x", 3)] {
            let token = game["seats"][seat]["token"].as_str();
            post(
                &format!("{address}/api/games/{id}/moves"),
                token,
                json!({ "cell": cell }),
            )
            .await;
        }
    });
    let interrupted = send_signal(&child, "-INT");
    let output = child.wait_with_output().unwrap();

    // Assert
    assert!(interrupted);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let scores = common::program()
        .args(["scores", "--json", "--db"])
        .arg(folder.path().join("games.db"))
        .output()
        .unwrap();
    let scoreboard = String::from_utf8_lossy(&scores.stdout);
    assert!(scoreboard.contains("\"Ada\""), "{scoreboard}");
}

#[test]
fn a_game_in_progress_survives_a_kill_9_of_the_server_and_continues_with_the_same_links() {
    // Arrange: a game between two people on two screens, two moves in.
    let folder = tempfile::TempDir::new().unwrap();
    let (mut first, address) = serve_binary(&folder);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let game = runtime.block_on(async {
        let game = ada_against_bob(&address).await;
        let id = game["id"].as_str().unwrap();
        for (seat, cell) in [("x", 5), ("o", 1)] {
            let answer = post(
                &format!("{address}/api/games/{id}/moves"),
                game["seats"][seat]["token"].as_str(),
                json!({ "cell": cell }),
            )
            .await;
            assert_eq!(answer["status"], "in_progress", "{answer}");
        }
        game
    });

    // Act: SIGKILL (no chance to clean up), a new server on the same database, and
    // the next move sent with the same token to the same game.
    first.kill().unwrap();
    first.wait().unwrap();
    let (second, address) = serve_binary(&folder);
    let id = game["id"].as_str().unwrap();
    let (kept, next) = runtime.block_on(async {
        let kept: serde_json::Value = reqwest::get(format!("{address}/api/games/{id}"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let next = post(
            &format!("{address}/api/games/{id}/moves"),
            game["seats"]["x"]["token"].as_str(),
            json!({ "cell": 9 }),
        )
        .await;
        (kept, next)
    });
    send_signal(&second, "-INT");

    // Assert: both answered moves were kept, and the game goes on.
    assert_eq!(kept["board"], "O...X....", "{kept}");
    assert_eq!(next["board"], "O...X...X", "{next}");
    assert_eq!(next["status"], "in_progress");
}

/// `serve --log-format json` with `more` flags, its own lines at info, on a database in
/// `folder`: the process and the address it printed.
fn logging_in_json(folder: &tempfile::TempDir, more: &[&str]) -> (Child, String) {
    let database = folder.path().join("games.db");
    let mut child = common::program()
        .env("RUST_LOG", "info")
        .args(["--db", database.to_str().unwrap(), "serve", "--port", "0"])
        .args(["--log-format", "json"])
        .args(more)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let address = line.trim().strip_prefix("Serving Tic Tac Toe on ").unwrap();
    (child, address.to_string())
}

/// The JSON lines a server started by [`logging_in_json`] logged, once stopped (none
/// if its log was taken to be read as it ran).
fn stopped_and_logged(child: Child) -> Vec<serde_json::Value> {
    send_signal(&child, "-TERM");
    let output = child.wait_with_output().unwrap();
    common::json_lines(&output.stderr)
}

#[cfg(unix)]
#[test]
fn each_request_is_one_json_log_line_with_its_request_id_client_route_status_and_game() {
    // Arrange: `serve --log-format json`, its own lines at info.
    let folder = tempfile::TempDir::new().unwrap();
    let (child, address) = logging_in_json(&folder, &[]);

    // Act: a game asked for under the client's own request id, then its first move.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (id, answered_id) = runtime.block_on(async {
        let client = reqwest::Client::new();
        let game: serde_json::Value = client
            .post(format!("{address}/api/games"))
            .json(&json!({ "x": "human:Ada", "o": "human:Bob" }))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let id = game["id"].as_str().unwrap().to_string();
        let moved = client
            .post(format!("{address}/api/games/{id}/moves"))
            .header("x-request-id", "ada-move-1")
            .bearer_auth(game["seats"]["x"]["token"].as_str().unwrap())
            .json(&json!({ "cell": 5 }))
            .send()
            .await
            .unwrap();
        let answered_id = moved.headers()["x-request-id"]
            .to_str()
            .unwrap()
            .to_string();
        (id, answered_id)
    });
    let lines = stopped_and_logged(child);

    // Assert: the move's line, as a log collector reads it.
    let moves: Vec<_> = lines
        .iter()
        .filter(|line| line["route"] == "/api/games/{id}/moves")
        .collect();
    assert_eq!(answered_id, "ada-move-1");
    assert_eq!(moves.len(), 1, "{lines:#?}");
    let line = moves[0];
    assert_eq!(line["level"], "INFO");
    assert_eq!(line["message"], "answered");
    assert_eq!(line["status"], 200);
    assert_eq!(line["span"]["request_id"], "ada-move-1");
    assert_eq!(line["span"]["method"], "POST");
    assert_eq!(line["span"]["client"], "127.0.0.1");
    assert_eq!(line["span"]["game"], id.as_str());
    assert!(line["timestamp"].as_str().unwrap().ends_with('Z'), "{line}");
    assert!(line["ms"].as_f64().unwrap() >= 0.0, "{line}");
}

#[cfg(unix)]
#[test]
fn behind_a_trusted_proxy_a_requests_log_line_names_the_client_it_forwards_for() {
    // Arrange: the server trusts the proxy at 127.0.0.1.
    let folder = tempfile::TempDir::new().unwrap();
    let (child, address) = logging_in_json(&folder, &["--trust-proxy", "127.0.0.1"]);

    // Act: a request the proxy forwards for 203.0.113.9 (its client made up the
    // address on the left).
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        reqwest::Client::new()
            .get(format!("{address}/api/scores"))
            .header("x-forwarded-for", "198.51.100.1, 203.0.113.9")
            .send()
            .await
            .unwrap();
    });
    let lines = stopped_and_logged(child);

    // Assert
    let scores: Vec<_> = lines
        .iter()
        .filter(|line| line["route"] == "/api/scores")
        .collect();
    assert_eq!(scores.len(), 1, "{lines:#?}");
    assert_eq!(scores[0]["span"]["client"], "203.0.113.9");
}

/// `serve --metrics 127.0.0.1:0` with `more` flags: the process, its public address and
/// its metrics' (from its log, which is read on until the process ends).
fn serving_metrics(folder: &tempfile::TempDir, more: &[&str]) -> (Child, String, String) {
    let (mut child, address) =
        logging_in_json(folder, &[&["--metrics", "127.0.0.1:0"], more].concat());
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(child.stderr.take().unwrap()));
    let metrics = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|line| {
            let line: serde_json::Value = serde_json::from_str(&line).ok()?;
            let message = line["message"].as_str()?;
            Some(message.strip_prefix("metrics on ")?.to_string())
        })
        .expect("the metrics' address in the log");
    std::thread::spawn(move || lines.for_each(drop));
    (child, address, metrics)
}

#[cfg(unix)]
#[test]
fn the_metrics_listener_serves_prometheus_text_with_the_headers_every_answer_carries() {
    // Arrange: one request counted.
    let folder = tempfile::TempDir::new().unwrap();
    let (child, address, metrics) = serving_metrics(&folder, &[]);
    let runtime = tokio::runtime::Runtime::new().unwrap();

    // Act
    let answer = runtime.block_on(async {
        reqwest::get(format!("{address}/api/scores")).await.unwrap();
        reqwest::get(metrics).await.unwrap()
    });
    stopped_and_logged(child);

    // Assert
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.headers()["x-content-type-options"], "nosniff");
    assert_eq!(
        answer.headers()["cross-origin-resource-policy"],
        "same-origin"
    );
    let text = runtime.block_on(answer.text()).unwrap();
    assert!(text.contains("tictactoe_http_requests_total{"), "{text}");
}

#[cfg(unix)]
#[test]
fn a_connection_to_the_metrics_listener_that_sends_nothing_is_closed_at_the_head_deadline() {
    // Arrange: a second for a request's head, as on the public port.
    let folder = tempfile::TempDir::new().unwrap();
    let (child, _, metrics) = serving_metrics(&folder, &["--head-timeout", "1"]);
    let at = metrics
        .strip_prefix("http://")
        .and_then(|rest| rest.strip_suffix("/metrics"))
        .unwrap();
    let mut silent = TcpStream::connect(at).unwrap();
    silent
        .set_read_timeout(Some(Duration::from_secs(4)))
        .unwrap();

    // Act
    let started = Instant::now();
    let read = std::io::Read::read(&mut silent, &mut [0u8; 64]);
    let after = started.elapsed();
    stopped_and_logged(child);

    // Assert: closed by the server within 2.5 s of a 1 s deadline, not read on until
    // the test's 4 s patience ran out.
    assert!(
        after < Duration::from_millis(2500),
        "{read:?} only after {after:?}"
    );
}

/// The series docs/web.md's metrics table lists, each with its labels' names: its
/// rows' first cells, `name{label, label}`.
fn documented_series() -> Vec<(String, Vec<String>)> {
    let web = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/web.md")).unwrap();
    let table = web
        .split("### Metrics")
        .nth(1)
        .unwrap()
        .split("\n### ")
        .next()
        .unwrap();
    table
        .lines()
        .filter_map(|row| row.strip_prefix("| `")?.split('`').next())
        .map(|cell| {
            let (name, labels) = cell.split_once('{').unwrap_or((cell, ""));
            let labels = labels
                .trim_end_matches('}')
                .split(", ")
                .filter(|l| !l.is_empty());
            (name.to_string(), labels.map(str::to_string).collect())
        })
        .collect()
}

#[cfg(target_os = "linux")]
#[test]
fn a_fresh_servers_metrics_list_every_documented_series_but_the_requests_own() {
    // Arrange: no request yet but the scrape's own, on the metrics' listener.
    let folder = tempfile::TempDir::new().unwrap();
    let (child, _, metrics) = serving_metrics(&folder, &[]);
    let documented = documented_series();

    // Act
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let text =
        runtime.block_on(async { reqwest::get(metrics).await.unwrap().text().await.unwrap() });
    stopped_and_logged(child);

    // Assert: every series, bar those labelled by a request's route, is a sample.
    assert!(documented.len() >= 15, "{documented:?}");
    let missing: Vec<_> = documented
        .iter()
        .filter(|(_, labels)| !labels.iter().any(|label| label == "route"))
        .filter(|(name, _)| {
            !text.lines().any(|line| {
                [
                    name.clone(),
                    format!("{name}_count"),
                    format!("{name}_bucket"),
                ]
                .iter()
                .any(|sample| {
                    line.starts_with(&format!("{sample} "))
                        || line.starts_with(&format!("{sample}{{"))
                })
            })
        })
        .collect();
    assert_eq!(missing, Vec::<&(String, Vec<String>)>::new(), "{text}");
    assert!(
        text.contains(&format!(
            "tictactoe_build_info{{version=\"{}\"}} 1",
            env!("CARGO_PKG_VERSION")
        )),
        "{text}"
    );
}

#[test]
fn listening_on_every_address_it_names_one_people_can_use_first() {
    // Arrange
    let folder = tempfile::TempDir::new().unwrap();

    // Act
    let (mut child, address) = serve_binary_with(&folder, &["--bind", "0.0.0.0"]);

    // Assert: the loopback address, which answers, not 0.0.0.0.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let health = runtime.block_on(async { reqwest::get(format!("{address}/healthz")).await });
    let _ = child.kill();
    let _ = child.wait();
    assert!(address.starts_with("http://127.0.0.1:"), "{address}");
    assert_eq!(health.unwrap().status(), 200);
}
