//! Refusals as each kind of client gets them: a browser loading a page the server does
//! not have gets a small page, a program the API's JSON; both carry the right status
//! and the headers every answer carries. And the edge's own refusals, before any
//! handler: a body not labelled JSON, a write from another site's page, a request for
//! another address than the public one.

mod web_support;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use serde_json::Value;
use tictactoe_web::{Limits, PublicUrl};
use web_support::{Answer, Server, two_people};

/// What Chromium sends when it loads a page.
const BROWSER: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/// `method` `path` asked of a new server, accepting `accept`.
async fn ask(method: Method, path: &str, accept: Option<&str>) -> Answer {
    let mut request = Request::builder().method(method).uri(path);
    if let Some(accept) = accept {
        request = request.header(header::ACCEPT, accept);
    }
    Server::new()
        .answer(request.body(Body::empty()).unwrap())
        .await
}

/// Asserts that `answer` is a page for a browser, with `status`, saying `said`, with a
/// way back, and the headers every answer carries.
fn assert_page(answer: &Answer, status: StatusCode, said: &str) {
    assert_eq!(answer.status, status);
    assert_eq!(
        answer.headers[header::CONTENT_TYPE],
        "text/html; charset=utf-8"
    );
    assert!(
        answer.text.contains(said),
        "{said:?} not in {}",
        answer.text
    );
    assert!(
        answer.text.contains("<a href=\"/\">"),
        "a way back: {}",
        answer.text
    );
    assert_security_headers(answer);
}

fn assert_security_headers(answer: &Answer) {
    assert!(answer.headers.contains_key(header::CONTENT_SECURITY_POLICY));
    assert_eq!(answer.headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    assert_eq!(answer.headers[header::X_FRAME_OPTIONS], "DENY");
    assert_eq!(answer.headers[header::REFERRER_POLICY], "no-referrer");
    assert_eq!(answer.headers["cross-origin-opener-policy"], "same-origin");
    assert_eq!(
        answer.headers["cross-origin-resource-policy"],
        "same-origin"
    );
    let permissions = answer.headers["permissions-policy"].to_str().unwrap();
    for off in [
        "camera=()",
        "microphone=()",
        "geolocation=()",
        "payment=()",
        "usb=()",
    ] {
        assert!(permissions.contains(off), "{off} not in {permissions}");
    }
}

#[tokio::test]
async fn a_page_an_asset_and_an_api_answer_carry_the_headers_every_answer_carries() {
    // Arrange
    let server = Server::new();

    for path in ["/", "/assets/app.js", "/api/scores", "/healthz"] {
        // Act
        let answer = server.get(path).await;

        // Assert
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        assert_security_headers(&answer);
    }
}

#[tokio::test]
async fn a_browser_loading_an_unknown_page_gets_a_page_saying_so() {
    // Act
    let answer = ask(Method::GET, "/no/such/page", Some(BROWSER)).await;

    // Assert
    assert_page(&answer, StatusCode::NOT_FOUND, "There is no such page.");
}

#[tokio::test]
async fn a_program_asking_for_an_unknown_path_gets_json() {
    for path in ["/no/such/page", "/api/nothing"] {
        // Act
        let answer = ask(Method::GET, path, None).await;

        // Assert
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(answer.headers[header::CONTENT_TYPE], "application/json");
        let json: Value = serde_json::from_str(&answer.text).unwrap();
        assert_eq!(json["error"], "there is no such page", "{path}");
        assert_security_headers(&answer);
    }
}

#[tokio::test]
async fn a_method_a_path_does_not_take_is_a_405_with_a_json_error_and_the_methods_it_takes() {
    // Act: moves are posted, never fetched.
    let answer = ask(
        Method::GET,
        "/api/games/abc/moves",
        Some("application/json"),
    )
    .await;

    // Assert
    assert_eq!(answer.status, StatusCode::METHOD_NOT_ALLOWED);
    let json: Value = serde_json::from_str(&answer.text).unwrap();
    assert_eq!(json["error"], "this address does not take a GET request");
    assert_eq!(answer.headers[header::ALLOW], "POST");
    assert_security_headers(&answer);
}

#[tokio::test]
async fn a_browser_posting_to_a_page_gets_a_page_for_the_405() {
    // Act
    let answer = ask(Method::POST, "/scores", Some(BROWSER)).await;

    // Assert
    assert_page(
        &answer,
        StatusCode::METHOD_NOT_ALLOWED,
        "This address does not take a POST request.",
    );
}

#[tokio::test]
async fn every_route_that_takes_a_json_body_refuses_one_not_labelled_json_with_a_415() {
    // Arrange: a game, for the routes under it; each body as a form or a script on
    // another site's page could send it without asking: labelled text/plain.
    let server = Server::new();
    let game = server.create(two_people()).await;
    let puzzle = format!("/api/players/Bob/puzzles/{}/2", game.id);
    let routes = [
        ("/api/games".to_string(), r#"{"x":"human:Ada","o":"easy"}"#),
        (game.api("/moves"), r#"{"cell":5}"#),
        (game.api("/name"), r#"{"name":"Cy"}"#),
        (puzzle, r#"{"cell":5}"#),
    ];

    for (path, body) in routes {
        // Act
        let request = Request::post(&path)
            .header(header::CONTENT_TYPE, "text/plain")
            .header(header::AUTHORIZATION, format!("Bearer {}", game.x_token()))
            .body(Body::from(body))
            .unwrap();
        let answer = server.answer(request).await;

        // Assert
        assert_eq!(answer.status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{path}");
        let json: Value = serde_json::from_str(&answer.text).unwrap();
        assert_eq!(
            json["error"],
            "the body must be JSON, sent with Content-Type: application/json (this \
             request's was text/plain)",
            "{path}"
        );
        assert_security_headers(&answer);
    }
    let after = server.get(&game.api("")).await;
    assert_eq!(after.json["board"], ".........", "a move went through");
}

/// A new game asked of a new server, for the host `play.example`, with `headers` too:
/// the server and its answer.
async fn new_game_with(headers: &[(&str, &str)]) -> (Server, Answer) {
    let server = Server::new();
    let mut request = Request::post("/api/games")
        .header(header::HOST, "play.example")
        .header(header::CONTENT_TYPE, "application/json");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let body = Body::from(r#"{"x":"human:Ada","o":"easy"}"#);
    let answer = server.answer(request.body(body).unwrap()).await;
    (server, answer)
}

#[rstest::rstest]
#[case::another_site(&[("sec-fetch-site", "cross-site")])]
#[case::another_origin_of_this_site(&[("sec-fetch-site", "same-site")])]
#[case::an_old_browser_on_another_site(&[("origin", "https://evil.example")])]
#[case::an_old_browser_on_another_port(&[("origin", "http://play.example:8081")])]
#[case::an_opaque_origin(&[("origin", "null")])]
#[case::another_site_whatever_its_origin_says(&[
    ("sec-fetch-site", "cross-site"),
    ("origin", "http://play.example"),
])]
#[tokio::test]
async fn a_write_from_another_sites_page_is_refused_403_before_anything_is_made(
    #[case] headers: &[(&str, &str)],
) {
    // Act
    let (server, answer) = new_game_with(headers).await;

    // Assert
    assert_eq!(answer.status, StatusCode::FORBIDDEN, "{}", answer.text);
    let json: Value = serde_json::from_str(&answer.text).unwrap();
    assert_eq!(
        json["error"],
        "this request came from another site's page: changes are taken only from this \
         server's own pages, or from programs"
    );
    assert_security_headers(&answer);
    assert_eq!(server.games.held(), 0, "a game was made");
}

#[rstest::rstest]
#[case::this_servers_page(&[("sec-fetch-site", "same-origin"), ("origin", "http://play.example")])]
#[case::an_old_browser_on_this_servers_page(&[("origin", "http://play.example")])]
#[case::the_person_themselves(&[("sec-fetch-site", "none")])]
#[case::a_program(&[])]
#[tokio::test]
async fn a_write_from_this_servers_own_page_or_a_program_is_taken(
    #[case] headers: &[(&str, &str)],
) {
    // Act
    let (_server, answer) = new_game_with(headers).await;

    // Assert
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
}

#[tokio::test]
async fn a_resignation_from_another_sites_page_is_refused_and_the_game_goes_on() {
    // Arrange: a request with no body, as a form elsewhere could send it.
    let server = Server::new();
    let game = server.create(two_people()).await;
    let request = Request::post(game.api("/resign"))
        .header(header::AUTHORIZATION, format!("Bearer {}", game.x_token()))
        .header("sec-fetch-site", "cross-site")
        .body(Body::empty())
        .unwrap();

    // Act
    let answer = server.answer(request).await;

    // Assert
    assert_eq!(answer.status, StatusCode::FORBIDDEN);
    let after = server.get(&game.api("")).await;
    assert_eq!(after.json["status"], "in_progress");
}

#[tokio::test]
async fn another_sites_link_still_opens_a_page_and_a_game() {
    // Arrange
    let server = Server::new();
    let game = server.create(two_people()).await;

    for path in ["/".to_string(), format!("/games/{}", game.id), game.api("")] {
        // Act
        let request = Request::get(&path)
            .header("sec-fetch-site", "cross-site")
            .body(Body::empty())
            .unwrap();
        let answer = server.answer(request).await;

        // Assert
        assert_eq!(answer.status, StatusCode::OK, "{path}");
    }
}

/// A server told that people reach it at `https://play.example`.
fn at_play_example() -> Server {
    Server::with_limits(Limits {
        public_url: Some(PublicUrl::new(true, "play.example", 443)),
        ..Limits::default()
    })
}

/// A GET of `path` sent to `host` (no `Host` at all when `None`).
async fn get_at(server: &Server, path: &str, host: Option<&str>) -> Answer {
    let mut request = Request::get(path);
    if let Some(host) = host {
        request = request.header(header::HOST, host);
    }
    server.answer(request.body(Body::empty()).unwrap()).await
}

#[rstest::rstest]
#[case::another_name(Some("evil.example"))]
#[case::the_servers_own_address(Some("127.0.0.1:8080"))]
#[case::the_public_name_on_another_port(Some("play.example:8443"))]
#[case::no_host(None)]
#[tokio::test]
async fn a_request_for_another_address_than_the_public_one_is_a_421(#[case] host: Option<&str>) {
    // Arrange
    let server = at_play_example();

    // Act
    let answer = get_at(&server, "/api/scores", host).await;

    // Assert
    assert_eq!(answer.status, StatusCode::MISDIRECTED_REQUEST);
    let json: Value = serde_json::from_str(&answer.text).unwrap();
    assert_eq!(
        json["error"],
        "this server answers for https://play.example only, and this request was sent to \
         another address"
    );
    assert_security_headers(&answer);
}

#[rstest::rstest]
#[case::as_given("play.example")]
#[case::in_capitals_with_its_port("PLAY.EXAMPLE:443")]
#[tokio::test]
async fn a_request_for_the_public_address_is_served(#[case] host: &str) {
    // Arrange
    let server = at_play_example();

    // Act
    let answer = get_at(&server, "/api/scores", Some(host)).await;

    // Assert
    assert_eq!(answer.status, StatusCode::OK);
}

#[tokio::test]
async fn a_load_balancers_health_checks_are_answered_whatever_address_they_name() {
    // Arrange
    let server = at_play_example();

    for path in ["/healthz", "/readyz"] {
        // Act
        let answer = get_at(&server, path, Some("10.0.0.5:8080")).await;

        // Assert
        assert_eq!(answer.status, StatusCode::OK, "{path}");
    }
}

#[tokio::test]
async fn a_write_from_an_old_browser_on_the_public_address_is_taken() {
    // Arrange: no Sec-Fetch-Site; the Origin is the public address's.
    let server = at_play_example();
    let request = Request::post("/api/games")
        .header(header::HOST, "play.example")
        .header("origin", "https://play.example")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(r#"{"x":"human:Ada","o":"easy"}"#))
        .unwrap();

    // Act
    let answer = server.answer(request).await;

    // Assert
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
}
