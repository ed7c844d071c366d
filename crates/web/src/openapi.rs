//! The API's document: OpenAPI 3.1, generated from the handlers themselves (each is
//! registered once, for the router and the document, in `server::routes`), served at
//! `GET /api/openapi.json` and committed as `docs/openapi.json` (a test fails when the
//! two drift). Outside tools hold the server to it: CI runs schemathesis against a
//! real server (see docs/web.md).
//!
//! Most answers are the `--json` words of the command line, written by
//! `tictactoe_json` as text; their shapes are described here by schema-only types,
//! which a test compares with what `tictactoe_json` writes.

use serde::Serialize;
use utoipa::openapi::RefOr;
use utoipa::openapi::link::LinkBuilder;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{IntoResponses, Modify, OpenApi, ToSchema};

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
                         browser sends the seat's cookie instead. A signed-in player's \
                         seat is their session (or personal token)",
                    ))
                    .build(),
            ),
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

/// The scoreboard, as `tictactoe scores --json` prints it.
#[derive(ToSchema)]
#[allow(dead_code)] // a schema: never built, only described
pub struct ScoreboardJson {
    /// Ranked: most wins, then fewest losses, then by name.
    players: Vec<ScoreRowJson>,
}

#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ScoreRowJson {
    name: String,
    wins: u64,
    losses: u64,
    ties: u64,
    games: u64,
}

/// A page of ended games, newest first.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct HistoryPageJson {
    games: Vec<GameSummaryJson>,
    /// The last game's id, for `before` on the next page; `null` on the last page.
    #[schema(required)]
    next: Option<String>,
}

/// An ended game, as `tictactoe history --json` prints it.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct GameSummaryJson {
    /// The whole id: 32 hex digits.
    id: String,
    /// When it began: RFC 3339, UTC, to the second.
    started: String,
    /// When it ended.
    ended: String,
    x: String,
    o: String,
    size: u64,
    win: u64,
    /// `X` or `O`.
    first: String,
    /// `x_won`, `o_won`, `draw`, `x_resigned`, `o_resigned`, `x_left` or `o_left`.
    result: String,
    /// The moves on the board at the end.
    moves: u64,
}

/// A game's review by perfect play, as `replay --review --json` words each move.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ReviewJson {
    game: String,
    /// Every value below was proven within the server's thinking time.
    exact: bool,
    moves: Vec<MoveReviewJson>,
}

#[derive(ToSchema)]
#[allow(dead_code)]
pub struct MoveReviewJson {
    ply: u64,
    /// The cell played, numbered from 1.
    cell: u64,
    /// `X` or `O`: who moved.
    mark: String,
    /// The value for the side that moved, before its move: `win`, `draw`, `loss`,
    /// `at_least_draw`, `at_most_draw` or `unknown`.
    before: String,
    /// The value after it.
    after: String,
    /// The moves that would have kept the value before.
    best_moves: Vec<u64>,
    exact: bool,
}

/// A player's record, their results against each opponent and their newest games.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct PlayerPageJson {
    name: String,
    wins: u64,
    losses: u64,
    ties: u64,
    games: u64,
    /// The most played opponents, most played first.
    opponents: Vec<RivalJson>,
    /// How many more opponents there are.
    other_opponents: u64,
    recent: Vec<GameSummaryJson>,
    /// Their Glicko-2 rating on each board they were rated on, by size then run.
    ratings: Vec<BoardRatingJson>,
}

/// A person's rating on one board, and its history.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct BoardRatingJson {
    size: u64,
    win: u64,
    /// Whole points.
    rating: i64,
    deviation: i64,
    /// The deviation is above 110: too few games to say much yet.
    provisional: bool,
    games: u64,
    /// Their rating after each of their last 200 rated games there, oldest first.
    history: Vec<RatingPointJson>,
}

#[derive(ToSchema)]
#[allow(dead_code)]
pub struct RatingPointJson {
    /// The game that made it.
    game: String,
    /// When that game ended: RFC 3339, UTC, to the second.
    ended: String,
    rating: i64,
    deviation: i64,
    /// The deviation then was above 110.
    provisional: bool,
}

/// A board's ratings, as `tictactoe ratings --json` prints its rows.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct RatingsJson {
    size: u64,
    win: u64,
    /// The ranking, best first: people whose rating is settled, and the levels'
    /// anchors.
    ratings: Vec<RatingRowJson>,
    /// Best first, apart from the ranking: people whose rating is still provisional
    /// (too few games to rank them).
    provisional: Vec<RatingRowJson>,
}

#[derive(ToSchema)]
#[allow(dead_code)]
pub struct RatingRowJson {
    name: String,
    /// Whole points.
    rating: i64,
    deviation: i64,
    /// A person's rating whose deviation is above 110 (an anchor never is).
    provisional: bool,
    /// A person's rated games; a level's calibration games.
    games: u64,
    /// A computer level's fixed rating, never moved by a game.
    anchor: bool,
}

/// What an ended game did to ratings.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct RatingChangesJson {
    /// X's first; empty when the game rated nobody.
    changes: Vec<RatingChangeJson>,
}

#[derive(ToSchema)]
#[allow(dead_code)]
pub struct RatingChangeJson {
    player: String,
    /// The side they played: `X` or `O`.
    #[schema(pattern = "^[XO]$")]
    mark: String,
    /// Whole points, before the game.
    before: i64,
    /// Whole points, after the game.
    after: i64,
    /// `after - before`.
    change: i64,
    /// Whether the rating after the game is still provisional.
    provisional: bool,
}

/// A player's open training puzzles, for the training page.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct TrainingJson {
    /// Newest game first, each game's in the order played.
    puzzles: Vec<TrainingPuzzleJson>,
    /// The player's moves whose review is not exact (no puzzle is made of them).
    not_exact: u64,
    /// The player's ended games with no review kept (no puzzles either).
    unreviewed: u64,
    /// Why there are no puzzles, and what kept more moves from being puzzles, in words.
    notes: Vec<String>,
}

/// One puzzle: what `tictactoe train --list --json` prints, with its board, title and
/// question.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct TrainingPuzzleJson {
    /// The game it is from: 32 hex digits.
    game: String,
    /// The move that threw a value away (1 for the game's first).
    ply: u64,
    /// The cells before that move, row by row: `X`, `O` or `.`.
    board: String,
    /// `X` or `O`: the player's side.
    to_move: String,
    /// What the player had there: `win` or `draw`. (The moves that keep it come with
    /// the verdict of an answer, not here.)
    value: String,
    size: u64,
    win: u64,
    /// "Puzzle 1 of 3: game 0190ab12, move 4 (4x4: 3 in a row wins)".
    title: String,
    /// "X to move; X had a draw here. Find a move that keeps it."
    prompt: String,
}

/// An answer to a puzzle, judged.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct PuzzleAnswerJson {
    /// `right`, `wrong`, or `unproven` (not judged in time: nothing kept).
    judged: String,
    /// What the answer leaves the player: `win`, `draw` or `loss` (null when not
    /// judged).
    left: Option<String>,
    /// The verdict in words, as the console says it.
    said: String,
    /// What comes next, in words: after a right answer, whether the puzzle retires or
    /// comes back; after a wrong one, another try or the answer (null when not judged).
    then: Option<String>,
    /// After a wrong answer, what to show once the player stops trying: what the review
    /// said of the move played in the game, and the best moves (null otherwise).
    answer: Option<String>,
    /// The puzzle's best moves, numbered from 1 (lit once the answer is shown).
    best_moves: Vec<u64>,
}

#[derive(ToSchema)]
#[allow(dead_code)]
pub struct RivalJson {
    opponent: String,
    wins: u64,
    losses: u64,
    ties: u64,
    games: u64,
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

/// Links every game begun (a 201: a new game, or a rematch) to what can be done with it
/// next, by its id or its X player's name.
pub fn link_begun_games(document: &mut utoipa::openapi::OpenApi) {
    let by_id = [
        ("game", "The game"),
        ("events", "The game, live"),
        ("play", "A move, with a seat's token"),
        ("undo", "A move taken back, with a seat's token"),
        ("hint", "A hint, with a seat's token"),
        ("resign", "The game given up, with a seat's token"),
        (
            "rename",
            "A person's name, chosen until their first move, with a seat's token",
        ),
        ("rematch", "The next game, once this one is over"),
        ("review", "The review, once the game is over"),
    ];
    let links = by_id
        .map(|(operation, description)| {
            (
                operation,
                operation,
                "id",
                "$response.body#/id",
                description,
            )
        })
        .into_iter()
        .chain([(
            "x",
            "player",
            "name",
            "$response.body#/players/x/name",
            "X's page, once a game of theirs has ended",
        )]);
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
        for (name, operation, parameter, value, description) in links.clone() {
            let link = LinkBuilder::new()
                .operation_id(operation)
                .parameter(parameter, value)
                .description(description)
                .build();
            response.links.insert(name.to_string(), RefOr::T(link));
        }
    }
}
