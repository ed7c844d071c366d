//! The API's document: OpenAPI 3.1, generated from the handlers themselves (each is
//! registered once, for the router and the document, in `server::routes`), served at
//! `GET /api/openapi.json` and committed as `docs/openapi.json` (a test fails when the
//! two drift). Outside tools hold the server to it: CI runs schemathesis against a
//! real server (see docs/web.md).
//!
//! Most answers are the `--json` words of the command line: one type each in
//! `tictactoe_json`, whose schema is derived from it (its `schema` feature); a test
//! holds the server's answers to the document's shapes.

use serde::Serialize;
use utoipa::openapi::RefOr;
use utoipa::openapi::link::LinkBuilder;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{IntoResponses, Modify, OpenApi, ToSchema};

use tictactoe_core::domain::Mark;

use super::caller::{SEEK, seat_cookie};
use super::error::ErrorJson;

/// The document's frame: what the handlers' own annotations do not say.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Tic Tac Toe",
        description = "Play Tic Tac Toe (3x3 to 7x7, any run length) against people or \
                       an unbeatable computer, watch games live, and read the kept games \
                       and their reviews by perfect play. Every refusal is \
                       `{\"error\": \"...\"}` with its status; a 503 says when to come \
                       back (`Retry-After`). A request that would change something, sent \
                       by another site's page through a browser (`Sec-Fetch-Site` or \
                       `Origin` say so), is refused 403 on every route; programs send \
                       neither header and are not. A server told its public address \
                       (`serve --public-url`) refuses a request sent to another with \
                       421, on every route but `/healthz` and `/readyz`.",
        license(name = "MIT")
    ),
    modifiers(&SeatTokens),
    tags(
        (name = "games", description = "Starting and playing games, and following them live"),
        (name = "history", description = "The ended games and their reviews"),
        (name = "players", description = "The scoreboard and each player's results"),
        (name = "accounts", description = "Signing up, in and out; personal tokens for scripts"),
        (name = "lobby", description = "Finding an opponent: seeks in the lobby, quick pairing by rating, TV"),
        (name = "operations", description = "For proxies and operators: liveness and readiness"),
    )
)]
pub struct ApiDoc;

/// Who a request is from: a seat's token or cookie (a guest's), a signed-in session's
/// cookie, or a personal token.
struct SeatTokens;

impl Modify for SeatTokens {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "seat",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "A guest's seat: its token (32 hex digits), as `seats` gave it when \
                         the game (or its rematch) was created or its invite taken; a \
                         browser sends the seat's cookie instead (`seat_x`, `seat_o`). A \
                         signed-in player's seat is their session (or personal token)",
                    ))
                    .build(),
            ),
        );
        for mark in Mark::ALL {
            let description = format!(
                "A guest's seat at {mark}, as a browser holds it: the cookie the server set \
                 with the seat's token (sent only to the game's own routes)"
            );
            components.add_security_scheme(
                seat_cookie(mark),
                SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                    seat_cookie(mark),
                    description.as_str(),
                ))),
            );
        }
        components.add_security_scheme(
            SEEK,
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                SEEK,
                "A guest's seek, as a browser holds it: the cookie the server set with the \
                 seek's token (sent only to the seek's own routes); a program sends the \
                 token as a bearer (`seat`)",
            ))),
        );
        components.add_security_scheme(
            "session",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                "session",
                "A signed-in session, as POST /api/session or POST /api/accounts set it",
            ))),
        );
        components.add_security_scheme(
            "token",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "A personal token (`ttt_` and 32 hex digits), as POST /api/tokens \
                         made it: it acts as its account",
                    ))
                    .build(),
            ),
        );
    }
}

/// `/healthz` and `/readyz` when all is well.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReadyJson {
    /// `ok` (alive) or `ready`.
    status: &'static str,
}

impl ReadyJson {
    pub fn new(status: &'static str) -> Self {
        ReadyJson { status }
    }
}

/// One event of a game's live stream.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct GameEventJson {
    /// Always `game`.
    #[schema(pattern = "^game$")]
    event: String,
    /// The game as `GET /api/games/{id}` answers it, as JSON text.
    data: String,
}

/// One event of the lobby's live stream.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct LobbyEventJson {
    /// Always `lobby`.
    #[schema(pattern = "^lobby$")]
    event: String,
    /// The lobby as `GET /api/lobby` answers it, as JSON text.
    data: String,
}

/// One event of a seek's live stream.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct SeekEventJson {
    /// Always `seek`.
    #[schema(pattern = "^seek$")]
    event: String,
    /// The seek as `GET /api/seeks/{id}` answers it, as JSON text.
    data: String,
}

// ---- The refusals, one set per kind of route ----------------------------------------
//
// A handler's `responses(...)` lists what is its own (its answers, and the refusals
// only it gives) and names these sets for the rest, so that each refusal is described
// once. Never built: they only describe.

/// The refusals of a request about one game (`/api/games/{id}` and below).
#[derive(IntoResponses)]
#[allow(dead_code)]
pub enum GameRefusals {
    /// No such game
    #[response(status = 404)]
    NoSuchGame(ErrorJson),
    /// A bug in the server, or a kept game that is not one
    #[response(status = 500)]
    Bug(ErrorJson),
}

/// The refusals of a request a seat makes with its token.
#[derive(IntoResponses)]
#[allow(dead_code)]
pub enum SeatRefusals {
    /// No seat's token
    #[response(status = 401)]
    NoToken(ErrorJson),
    /// The token is not a person's seat of this game
    #[response(status = 403)]
    NotASeat(ErrorJson),
}

/// The refusals of a request that checks a password.
#[derive(IntoResponses)]
#[allow(dead_code)]
pub enum AccountRefusals {
    /// Too many tries, for this name or from this address (see Retry-After)
    #[response(status = 429)]
    Throttled(ErrorJson),
}

/// The refusals of a request that asks the computer to think (a hint, a review, a
/// training answer): each client's share of its thinking.
#[derive(IntoResponses)]
#[allow(dead_code)]
pub enum ThinkingRefusals {
    /// This client's (or account's) share of the computer's thinking is spent for now,
    /// or another of its hints, reviews or answers is under way (see Retry-After)
    #[response(status = 429)]
    OverBudget(ErrorJson),
}

/// The refusals of a request with a JSON body.
#[derive(IntoResponses)]
#[allow(dead_code)]
pub enum BodyRefusals {
    /// The body did not arrive in time
    #[response(status = 408)]
    SlowBody(ErrorJson),
    /// The body is too large
    #[response(status = 413)]
    TooLarge(ErrorJson),
    /// The body is not labelled `Content-Type: application/json`
    #[response(status = 415)]
    NotJson(ErrorJson),
}

/// The refusal of a request the store answers, when it cannot.
#[derive(IntoResponses)]
#[allow(dead_code)]
pub enum StoreRefusals {
    #[response(
        status = 503,
        description = "The store of games cannot be used just now, or did not answer in time (see Retry-After)"
    )]
    Store(ErrorJson),
}

/// One link from a game begun to an operation on it.
struct GameLink {
    name: String,
    operation: &'static str,
    /// Each parameter's name (with its place: `cookie.seat_x`) and runtime expression.
    parameters: Vec<(String, String)>,
    body: Option<serde_json::Value>,
    description: String,
}

/// Links every game begun (a 201: a new game, or a rematch) to what can be done with it
/// next: by its id; by its X player's name; with the invite's code, the seat it holds
/// open; and, for each guest's seat the answer gives a token (`seats.x`, `seats.o`),
/// the seat's own requests with that token in the seat's cookie, as a browser sends it
/// (a program may send it as a bearer token instead, but a signed-in client's own
/// token would take that header's place). So a client that follows the links plays
/// the games it makes.
pub fn link_begun_games(document: &mut utoipa::openapi::OpenApi) {
    let id = || ("id".to_string(), "$response.body#/id".to_string());
    let by_id = [
        ("game", "The game"),
        ("events", "The game, live"),
        ("review", "The review, once the game is over"),
    ]
    .map(|(operation, description)| GameLink {
        name: operation.to_string(),
        operation,
        parameters: vec![id()],
        body: None,
        description: description.to_string(),
    });
    let by_seat = [
        ("play", "A move"),
        ("undo", "A move taken back"),
        ("hint", "A hint"),
        ("resign", "The game given up"),
        ("rename", "The person's name, chosen until their first move"),
        ("rematch", "The next game, once this one is over"),
    ]
    .into_iter()
    .flat_map(|(operation, description)| {
        Mark::ALL.map(|mark| {
            let seat = mark.to_string().to_lowercase();
            GameLink {
                name: format!("{operation}_{seat}"),
                operation,
                parameters: vec![
                    id(),
                    (
                        format!("cookie.{}", seat_cookie(mark)),
                        format!("$response.body#/seats/{seat}/token"),
                    ),
                ],
                body: None,
                description: format!("{description}, by {mark}'s seat with its cookie"),
            }
        })
    });
    let others = [
        GameLink {
            name: "join".to_string(),
            operation: "join",
            parameters: vec![id()],
            body: Some(serde_json::json!({ "invite": "$response.body#/invite/code" })),
            description: "The seat held open, with the invite's code".to_string(),
        },
        GameLink {
            name: "x".to_string(),
            operation: "player",
            parameters: vec![(
                "name".to_string(),
                "$response.body#/players/x/name".to_string(),
            )],
            body: None,
            description: "X's page, once a game of theirs has ended".to_string(),
        },
    ];
    let links: Vec<GameLink> = by_id.into_iter().chain(by_seat).chain(others).collect();
    // The games' routes only: an account or a token made (also a 201) is no game.
    let begun = document
        .paths
        .paths
        .iter_mut()
        .filter(|(path, _)| path.starts_with("/api/games"))
        .filter_map(|(_, item)| item.post.as_mut())
        .filter_map(|operation| operation.responses.responses.get_mut("201"));
    for response in begun {
        let RefOr::T(response) = response else {
            continue;
        };
        for link in &links {
            let built = link
                .parameters
                .iter()
                .fold(
                    LinkBuilder::new().operation_id(link.operation),
                    |built, (parameter, value)| built.parameter(parameter.as_str(), value.as_str()),
                )
                .request_body(link.body.clone())
                .description(link.description.as_str())
                .build();
            response.links.insert(link.name.clone(), RefOr::T(built));
        }
    }
}

/// Links a player's open puzzles to answering the first of them, by its game and move.
pub fn link_puzzles(document: &mut utoipa::openapi::OpenApi) {
    let listed = document
        .paths
        .paths
        .get_mut("/api/players/{name}/puzzles")
        .and_then(|item| item.get.as_mut())
        .and_then(|operation| operation.responses.responses.get_mut("200"));
    let Some(RefOr::T(response)) = listed else {
        return;
    };
    let link = LinkBuilder::new()
        .operation_id("answer_puzzle")
        .parameter("name", "$request.path.name")
        .parameter("id", "$response.body#/puzzles/0/game")
        .parameter("ply", "$response.body#/puzzles/0/ply")
        .description("An answer to the first puzzle")
        .build();
    response
        .links
        .insert("answer_first".to_string(), RefOr::T(link));
}
