//! HTTP in, calls to a [`GameService`] out: extractors for the body and the seat's
//! token, and one handler per route. Statuses come from [`ApiError`] alone.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::sse::{KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use tictactoe_core::domain::{NameError, PlayerName};
use tictactoe_core::ports::{GameId, HistoryQuery, PageSize};
use tictactoe_json::{history_page_json, player_page_json, review_json, scoreboard_json};

use super::dto::{MoveRequest, NewGame, ProgressJson};
use super::error::ApiError;
use super::events::game_events;
use super::games::Credentials;
use super::service::{GameService, Reviewing};
use super::shares::Client;
use super::token::Token;

type App<G> = State<Arc<G>>;

/// The rows `/api/scores` answers when not told: a page's worth.
pub const DEFAULT_TOP: u64 = 100;
/// The most rows `/api/scores` answers at once.
pub const MAX_TOP: u64 = 1000;
/// The games a page of `/api/games` lists when not told.
pub const DEFAULT_PAGE: u64 = 20;
/// The most games a page of `/api/games` lists.
pub const MAX_PAGE: u64 = 100;

/// A JSON body, whatever its Content-Type says (so `curl -d` works), within the size
/// limit and the time limit; anything else is a 400, a 413 when too large, or a 408
/// when it has not all arrived in time (however it trickles in).
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned, G: GameService> FromRequest<Arc<G>> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, games: &Arc<G>) -> Result<Self, ApiError> {
        let deadline = games.body_deadline();
        let bytes = tokio::time::timeout(deadline, Bytes::from_request(request, games))
            .await
            .map_err(|_| ApiError::SlowBody { deadline })?
            .map_err(|rejection| {
                if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::TooLarge {
                        limit: games.body_limit(),
                    }
                } else {
                    ApiError::BadRequest(rejection.body_text())
                }
            })?;
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|error| {
                ApiError::BadRequest(format!("the body is not the JSON expected: {error}"))
            })
    }
}

/// `Authorization: Bearer TOKEN`, read but not yet checked: the game comes first (an
/// unknown game is a 404 whatever the token).
impl<S: Send + Sync> FromRequestParts<S> for Credentials {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let Some(value) = parts.headers.get(header::AUTHORIZATION) else {
            return Ok(Credentials::Missing);
        };
        let token = value
            .to_str()
            .ok()
            .and_then(bearer)
            .and_then(|hex| Token::parse(hex.trim()));
        Ok(token.map_or(Credentials::Malformed, Credentials::Token))
    }
}

/// The credentials of `Bearer CREDENTIALS`: the scheme's name in any case, as HTTP
/// says (RFC 9110, 11.1), then white space.
fn bearer(header: &str) -> Option<&str> {
    let (scheme, rest) = header.trim_start().split_once([' ', '\t'])?;
    scheme.eq_ignore_ascii_case("bearer").then_some(rest)
}

pub async fn create<G: GameService>(
    State(games): App<G>,
    JsonBody(request): JsonBody<NewGame>,
) -> Result<Response, ApiError> {
    let created = games.create(request).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

pub async fn game<G: GameService>(
    State(games): App<G>,
    Path(id): Path<String>,
    key: Credentials,
) -> Result<Response, ApiError> {
    Ok(Json(&*games.game(&id, key).await?).into_response())
}

pub async fn play<G: GameService>(
    State(games): App<G>,
    Path(id): Path<String>,
    key: Credentials,
    JsonBody(request): JsonBody<MoveRequest>,
) -> Result<Response, ApiError> {
    Ok(Json(&*games.play(&id, key, request.cell).await?).into_response())
}

pub async fn undo<G: GameService>(
    State(games): App<G>,
    Path(id): Path<String>,
    key: Credentials,
) -> Result<Response, ApiError> {
    Ok(Json(&*games.undo(&id, key).await?).into_response())
}

pub async fn resign<G: GameService>(
    State(games): App<G>,
    Path(id): Path<String>,
    key: Credentials,
) -> Result<Response, ApiError> {
    Ok(Json(&*games.resign(&id, key).await?).into_response())
}

pub async fn hint<G: GameService>(
    State(games): App<G>,
    Path(id): Path<String>,
    key: Credentials,
) -> Result<Response, ApiError> {
    Ok(Json(games.hint(&id, key).await?).into_response())
}

pub async fn rematch<G: GameService>(
    State(games): App<G>,
    Path(id): Path<String>,
    key: Credentials,
) -> Result<Response, ApiError> {
    let (created, new) = games.rematch(&id, key).await?;
    let status = if new {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(created)).into_response())
}

pub async fn events<G: GameService>(
    State(games): App<G>,
    Path(id): Path<String>,
    client: Client,
) -> Result<Response, ApiError> {
    let watching = games.watch(&id, client).await?;
    Ok(Sse::new(game_events(watching))
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// `?top=N`, 1 to [`MAX_TOP`].
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoresQuery {
    top: Option<u64>,
}

/// The first `top` rows (default [`DEFAULT_TOP`]) in the shape `tictactoe scores --json`
/// prints.
pub async fn scores<G: GameService>(
    State(games): App<G>,
    query: Result<Query<ScoresQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|rejection| ApiError::BadRequest(rejection.body_text()))?;
    let top = query.top.unwrap_or(DEFAULT_TOP);
    if !(1..=MAX_TOP).contains(&top) {
        return Err(ApiError::BadRequest(format!(
            "top is the number of rows to show: 1 to {MAX_TOP}"
        )));
    }
    let scoreboard = games.scores(top).await?;
    Ok(json_text(StatusCode::OK, scoreboard_json(&scoreboard)))
}

/// `?player=NAME&limit=N&before=ID`, each optional.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistoryParams {
    player: Option<String>,
    limit: Option<u64>,
    before: Option<String>,
}

/// A page of the ended games, newest first, in the words the command line prints: a
/// player's only if `player` is given, [`DEFAULT_PAGE`] of them unless `limit` says
/// (1 to [`MAX_PAGE`]), older than the game `before` names (a page's `next`).
pub async fn history<G: GameService>(
    State(games): App<G>,
    query: Result<Query<HistoryParams>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(params) = query.map_err(|rejection| ApiError::BadRequest(rejection.body_text()))?;
    let limit = params.limit.unwrap_or(DEFAULT_PAGE);
    let limit = PageSize::new(limit)
        .ok()
        .filter(|_| limit <= MAX_PAGE)
        .ok_or_else(|| {
            ApiError::BadRequest(format!(
                "limit is the number of games to list: 1 to {MAX_PAGE}"
            ))
        })?;
    let player = params.player.as_deref().map(player_name).transpose()?;
    let before = params
        .before
        .as_deref()
        .map(|id| {
            GameId::parse(id).map_err(|_| {
                ApiError::BadRequest(
                    "before is a game's id (32 hex digits), as a page's next gives it".into(),
                )
            })
        })
        .transpose()?;
    let page = games
        .history(HistoryQuery {
            player,
            before,
            limit,
        })
        .await?;
    Ok(json_text(
        StatusCode::OK,
        history_page_json(&page.games, page.next.as_ref()),
    ))
}

/// The review of an ended game in the words of `replay --review --json` (200), or,
/// while it is computed, how far it has come (202): poll again.
pub async fn review<G: GameService>(
    State(games): App<G>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    Ok(match games.review(&id).await? {
        Reviewing::Done { game, review } => json_text(StatusCode::OK, review_json(&game, &review)),
        Reviewing::Computing { done, total } => {
            (StatusCode::ACCEPTED, Json(ProgressJson::new(done, total))).into_response()
        }
    })
}

/// A player's page: their record against each opponent and their newest games.
pub async fn player<G: GameService>(
    State(games): App<G>,
    name: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let Path(name) = name.map_err(|rejection| ApiError::BadRequest(rejection.body_text()))?;
    let page = games.player(player_name(&name)?).await?;
    Ok(json_text(
        StatusCode::OK,
        player_page_json(&page.name, &page.opponents, &page.recent),
    ))
}

/// A player's name as a client sends it to look a player up: a person's name, checked
/// as when they sit down, or a computer's (`Computer (Impossible)`), whose results
/// are kept like anyone's.
fn player_name(raw: &str) -> Result<PlayerName, ApiError> {
    PlayerName::new(raw)
        .or_else(|error| match error {
            NameError::Reserved => PlayerName::stored(raw),
            error => Err(error),
        })
        .map_err(|error| ApiError::BadRequest(format!("that is not a player's name: {error}")))
}

/// JSON written by `tictactoe_json`, answered as it is.
fn json_text(status: StatusCode, json: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], json).into_response()
}

/// Any path the server does not know: a page for a browser, JSON for a program.
pub async fn not_found(headers: HeaderMap) -> Response {
    ApiError::NotFound.for_client(&headers)
}

/// A known path asked with a method it does not take (GET for a move, say).
pub async fn method_not_allowed(method: Method, headers: HeaderMap) -> Response {
    ApiError::MethodNotAllowed {
        method: method.to_string(),
    }
    .for_client(&headers)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use axum::body::Body;
    use axum::http::Method;
    use http_body_util::BodyExt;
    use serde_json::{Value, json};
    use tower::ServiceExt;

    use tictactoe_core::domain::{Mark, Refusal};
    use tictactoe_core::ports::Opponents;

    use super::*;
    use crate::dto::{CreatedJson, GameJson, PlayerJson, Players};
    use crate::server::routes;
    use crate::service::MockGameService;

    #[rstest::rstest]
    #[case::as_written("Bearer abc", Some("abc"))]
    #[case::lower_case("bearer abc", Some("abc"))]
    #[case::upper_case("BEARER abc", Some("abc"))]
    #[case::a_tab("Bearer\tabc", Some("abc"))]
    #[case::another_scheme("Basic abc", None)]
    #[case::no_credentials("Bearer", None)]
    #[case::a_longer_name("Bearerx abc", None)]
    fn the_bearer_scheme_is_read_in_any_case(
        #[case] header: &str,
        #[case] credentials: Option<&str>,
    ) {
        assert_eq!(bearer(header), credentials);
    }

    /// A service the router can be built on: only the body limit and deadline answered.
    fn service() -> MockGameService {
        let mut service = MockGameService::new();
        service.expect_body_limit().return_const(4096_usize);
        service
            .expect_body_deadline()
            .return_const(Duration::from_secs(10));
        service
    }

    /// A game as the service might answer it: the contents do not matter here.
    fn a_view() -> Arc<GameJson> {
        let person = |name: &str| PlayerJson {
            name: name.into(),
            kind: "human",
            level: None,
        };
        Arc::new(GameJson {
            id: "g1".into(),
            size: 3,
            win: 3,
            first: "X",
            board: "....X....".into(),
            status: "in_progress",
            to_move: Some("O"),
            players: Players {
                x: person("Ada"),
                o: person("Bob"),
            },
            moves: vec![5],
            line: None,
            undo_asked_by: None,
            rematch: None,
            joined: vec!["X"],
        })
    }

    /// `path` got through the router on `service`: the status and the body.
    async fn get(service: MockGameService, path: &str) -> (StatusCode, String) {
        let request = Request::get(path).body(Body::empty()).unwrap();
        let response = routes(Arc::new(service)).oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8(bytes.to_vec()).unwrap())
    }

    /// `body` POSTed to `path` through the router on `service`, with `token` as the
    /// bearer if given: the status and the JSON answered.
    async fn post(
        service: MockGameService,
        path: &str,
        token: Option<&Token>,
        body: &str,
    ) -> (StatusCode, Value) {
        let mut request = Request::builder().method(Method::POST).uri(path);
        if let Some(token) = token {
            let bearer = format!("Bearer {}", token.to_hex());
            request = request.header(header::AUTHORIZATION, bearer);
        }
        let request = request.body(Body::from(body.to_owned())).unwrap();
        let response = routes(Arc::new(service)).oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    #[tokio::test]
    async fn a_move_asks_the_service_for_the_cell_as_the_seat_the_bearer_token_names() {
        // Arrange
        let token = Token::random();
        let expected = token.clone();
        let mut service = service();
        service
            .expect_play()
            .withf(move |id, key, cell| {
                id == "g1"
                    && *cell == 5
                    && matches!(key, Credentials::Token(given) if given.matches(&expected))
            })
            .times(1)
            .returning(|_, _, _| Box::pin(async { Ok(a_view()) }));

        // Act
        let (status, body) = post(
            service,
            "/api/games/g1/moves",
            Some(&token),
            r#"{"cell":5}"#,
        )
        .await;

        // Assert: the mock checked the call; the answer is the service's game.
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body["moves"], json!([5]));
    }

    #[tokio::test]
    async fn a_move_without_a_token_reaches_the_service_as_missing_credentials() {
        // Arrange
        let mut service = service();
        service
            .expect_play()
            .withf(|_, key, _| matches!(key, Credentials::Missing))
            .times(1)
            .returning(|_, _, _| Box::pin(async { Err(ApiError::NoToken) }));

        // Act
        let (status, _) = post(service, "/api/games/g1/moves", None, r#"{"cell":5}"#).await;

        // Assert
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }

    #[tokio::test]
    async fn the_services_refusal_is_a_conflict_with_its_words_as_the_error() {
        // Arrange: a stub; the call itself is not what this test is about.
        let refusal = Refusal::NotYourTurn(Mark::O);
        let mut service = service();
        service
            .expect_play()
            .returning(move |_, _, _| Box::pin(async move { Err(ApiError::Refused(refusal)) }));

        // Act
        let (status, body) = post(
            service,
            "/api/games/g1/moves",
            Some(&Token::random()),
            r#"{"cell":5}"#,
        )
        .await;

        // Assert
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(body, json!({ "error": "it is not O's turn" }));
    }

    #[tokio::test]
    async fn a_malformed_move_is_a_bad_request_that_never_reaches_the_service() {
        // Arrange
        let mut service = service();
        service.expect_play().never();

        // Act
        let (status, body) = post(
            service,
            "/api/games/g1/moves",
            Some(&Token::random()),
            r#"{"cell":"five"}"#,
        )
        .await;

        // Assert
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let error = body["error"].as_str().unwrap();
        assert!(
            error.starts_with("the body is not the JSON expected"),
            "{error}"
        );
    }

    #[tokio::test]
    async fn a_new_game_is_created_with_201_and_the_players_as_written() {
        // Arrange
        let mut service = service();
        service
            .expect_create()
            .withf(|request| request.x == "human:Ada" && request.o == "impossible")
            .times(1)
            .returning(|_| {
                Box::pin(async {
                    Ok(CreatedJson {
                        game: a_view().as_ref().clone(),
                        seats: Default::default(),
                    })
                })
            });

        // Act
        let (status, body) = post(
            service,
            "/api/games",
            None,
            r#"{"x":"human:Ada","o":"impossible"}"#,
        )
        .await;

        // Assert
        assert_eq!(status, StatusCode::CREATED);
        assert_eq!(body["id"], "g1");
    }

    #[tokio::test]
    async fn a_rematch_asked_before_is_answered_200_not_201() {
        // Arrange: a stub saying the rematch already existed.
        let mut service = service();
        service.expect_rematch().returning(|_, _| {
            Box::pin(async {
                let created = CreatedJson {
                    game: a_view().as_ref().clone(),
                    seats: Default::default(),
                };
                Ok((created, false))
            })
        });

        // Act
        let (status, _) = post(service, "/api/games/g1/rematch", Some(&Token::random()), "").await;

        // Assert
        assert_eq!(status, StatusCode::OK);
    }

    #[rstest::rstest]
    #[case::by_default("/api/scores", DEFAULT_TOP)]
    #[case::when_asked_for("/api/scores?top=5", 5)]
    #[case::at_most("/api/scores?top=1000", MAX_TOP)]
    #[tokio::test]
    async fn the_scores_are_asked_of_the_service_for_the_top_rows(
        #[case] path: &str,
        #[case] top: u64,
    ) {
        // Arrange
        let mut service = service();
        service
            .expect_scores()
            .with(mockall::predicate::eq(top))
            .times(1)
            .returning(|_| Box::pin(async { Ok(tictactoe_core::domain::Scoreboard::new()) }));

        // Act
        let (status, body) = get(service, path).await;

        // Assert
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body, r#"{"players":[]}"#);
    }

    /// A summary of an ended game, for a history the service answers.
    fn a_summary(bits: u128) -> tictactoe_core::ports::GameSummary {
        use tictactoe_core::domain::{Geometry, Outcome};
        use tictactoe_core::play::Settings;
        use tictactoe_core::players::{Level, PlayerSpec};
        use tictactoe_core::ports::{Ending, GameSummary};
        let settings = Settings::new(
            PlayerSpec::Human(Some(PlayerName::new("Ada").unwrap())),
            PlayerSpec::Computer(Level::Easy),
            Mark::X,
            Geometry::classic(),
        )
        .unwrap();
        GameSummary {
            id: GameId::from_bits(bits),
            settings,
            started: std::time::SystemTime::UNIX_EPOCH,
            ended: std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(60),
            ending: Ending::Finished(Outcome::Won(Mark::X)),
            moves: 5,
        }
    }

    #[tokio::test]
    async fn the_history_is_asked_of_the_service_with_the_player_the_limit_and_the_cursor() {
        // Arrange
        let before = GameId::from_bits(9);
        let expected = before.clone();
        let mut service = service();
        service
            .expect_history()
            .withf(move |query| {
                query.player.as_ref().map(PlayerName::as_str) == Some("Ada")
                    && query.limit.get() == 5
                    && query.before.as_ref() == Some(&expected)
            })
            .times(1)
            .returning(|_| {
                Box::pin(async {
                    Ok(tictactoe_core::ports::HistoryPage {
                        games: vec![a_summary(8)],
                        next: Some(GameId::from_bits(8)),
                    })
                })
            });

        // Act
        let (status, body) = get(
            service,
            &format!("/api/games?player=Ada&limit=5&before={before}"),
        )
        .await;

        // Assert: the page in the words of the command line.
        assert_eq!(status, StatusCode::OK);
        let page = &a_summary(8);
        assert_eq!(
            body,
            history_page_json(std::slice::from_ref(page), Some(&page.id))
        );
    }

    #[tokio::test]
    async fn the_history_asks_for_everybodys_newest_twenty_games_when_told_nothing() {
        // Arrange
        let mut service = service();
        service
            .expect_history()
            .withf(|query| {
                query.player.is_none()
                    && query.before.is_none()
                    && u64::from(query.limit.get()) == DEFAULT_PAGE
            })
            .times(1)
            .returning(|_| {
                Box::pin(async {
                    Ok(tictactoe_core::ports::HistoryPage {
                        games: Vec::new(),
                        next: None,
                    })
                })
            });

        // Act
        let (status, body) = get(service, "/api/games").await;

        // Assert
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body, r#"{"games":[],"next":null}"#);
    }

    #[rstest::rstest]
    #[case::no_games("/api/games?limit=0")]
    #[case::too_many("/api/games?limit=101")]
    #[case::a_cursor_that_is_no_id("/api/games?before=xyz")]
    #[case::no_name("/api/games?player=%20")]
    #[tokio::test]
    async fn a_history_with_an_impossible_limit_cursor_or_name_never_reaches_the_service(
        #[case] path: &str,
    ) {
        // Arrange
        let mut service = service();
        service.expect_history().never();

        // Act
        let (status, body) = get(service, path).await;

        // Assert
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body.starts_with(r#"{"error":"#), "{body}");
    }

    #[tokio::test]
    async fn a_cursor_the_store_does_not_know_is_a_bad_request() {
        // Arrange
        let mut service = service();
        service.expect_history().returning(|query| {
            let before = query.before.clone().unwrap();
            Box::pin(async move { Err(ApiError::NoSuchCursor(before)) })
        });

        // Act
        let (status, _) = get(
            service,
            &format!("/api/games?before={}", GameId::from_bits(3)),
        )
        .await;

        // Assert
        assert_eq!(status, StatusCode::BAD_REQUEST);
    }

    #[tokio::test]
    async fn a_review_being_computed_is_answered_202_with_how_far_it_has_come() {
        // Arrange
        let mut service = service();
        service
            .expect_review()
            .withf(|id| id == "g1")
            .times(1)
            .returning(|_| Box::pin(async { Ok(Reviewing::Computing { done: 3, total: 7 }) }));

        // Act
        let (status, body) = get(service, "/api/games/g1/review").await;

        // Assert
        assert_eq!(status, StatusCode::ACCEPTED);
        assert_eq!(body, r#"{"progress":{"done":3,"total":7}}"#);
    }

    #[tokio::test]
    async fn a_review_computed_is_answered_200_in_the_command_lines_words() {
        // Arrange
        use tictactoe_core::domain::{Geometry, Known, Verdict};
        use tictactoe_core::play::{MoveReview, Review};
        let center = Geometry::classic().position(4).unwrap();
        let review = Review {
            moves: vec![MoveReview {
                ply: 1,
                mark: Mark::X,
                cell: center,
                before: Known::Exactly(Verdict::Draw),
                after: Known::Exactly(Verdict::Draw),
                best_moves: vec![center],
            }],
        };
        let answered = review.clone();
        let mut service = service();
        service.expect_review().returning(move |_| {
            let review = answered.clone();
            Box::pin(async move {
                Ok(Reviewing::Done {
                    game: GameId::from_bits(1),
                    review,
                })
            })
        });

        // Act
        let (status, body) = get(service, "/api/games/g1/review").await;

        // Assert
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body, review_json(&GameId::from_bits(1), &review));
    }

    #[tokio::test]
    async fn a_players_page_is_asked_of_the_service_for_the_name_in_the_path_decoded() {
        // Arrange
        let mut service = service();
        service
            .expect_player()
            .withf(|name| name.as_str() == "Ada Lovelace")
            .times(1)
            .returning(|name| {
                Box::pin(async move {
                    Ok(crate::service::PlayerPage {
                        name,
                        opponents: Opponents::default(),
                        recent: vec![a_summary(4)],
                    })
                })
            });

        // Act
        let (status, body) = get(service, "/api/players/Ada%20Lovelace").await;

        // Assert
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            body,
            player_page_json(
                &PlayerName::new("Ada Lovelace").unwrap(),
                &Opponents::default(),
                &[a_summary(4)]
            )
        );
    }

    #[tokio::test]
    async fn a_computers_name_is_a_players_page_too() {
        // Arrange
        let mut service = service();
        service
            .expect_player()
            .withf(|name| name.as_str() == "Computer (Easy)")
            .times(1)
            .returning(|name| {
                Box::pin(async move {
                    Ok(crate::service::PlayerPage {
                        name,
                        opponents: Opponents::default(),
                        recent: Vec::new(),
                    })
                })
            });

        // Act
        let (status, _) = get(service, "/api/players/Computer%20(Easy)").await;

        // Assert
        assert_eq!(status, StatusCode::OK);
    }

    #[rstest::rstest]
    #[case::a_control_character("/api/players/a%1Bb")]
    #[case::a_right_to_left_mark("/api/players/%E2%80%AEAda")]
    #[case::not_utf8("/api/players/%C3")]
    #[tokio::test]
    async fn a_players_page_for_what_is_not_a_name_never_reaches_the_service(#[case] path: &str) {
        // Arrange
        let mut service = service();
        service.expect_player().never();

        // Act
        let (status, body) = get(service, path).await;

        // Assert
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body.starts_with(r#"{"error":"#), "{body}");
    }

    #[rstest::rstest]
    #[case::none("/api/scores?top=0")]
    #[case::too_many("/api/scores?top=1001")]
    #[case::not_a_number("/api/scores?top=all")]
    #[case::unknown("/api/scores?limit=5")]
    #[tokio::test]
    async fn scores_asked_for_an_impossible_number_of_rows_are_a_bad_request(#[case] path: &str) {
        // Arrange
        let mut service = service();
        service.expect_scores().never();

        // Act
        let (status, body) = get(service, path).await;

        // Assert
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body.starts_with(r#"{"error":"#), "{body}");
    }
}
