//! The API's document against the server: the committed copy is the one the server
//! serves, every documented operation is a route, no route has a method the document
//! does not list, and what the server answers has the document's shape.

mod web_support;

use std::collections::BTreeSet;
use std::path::PathBuf;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;
use web_support::{Server, two_people};

/// Where the document is kept in the repository.
fn committed() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/openapi.json")
}

/// The document as the server makes it, parsed.
fn document() -> Value {
    serde_json::from_str(&tictactoe_web::openapi()).unwrap()
}

/// Every (method, path) the document lists.
fn operations(document: &Value) -> Vec<(Method, String)> {
    let mut listed = Vec::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            listed.push((method, path.clone()));
        }
    }
    listed
}

/// `path` with its parameters filled in: a game's id, a player's name and a move.
fn concrete(path: &str, game: &str) -> String {
    path.replace("{id}", game)
        .replace("{name}", "Ada")
        .replace("{ply}", "2")
}

#[test]
fn the_committed_document_is_the_one_the_server_serves() {
    // Arrange
    let served = tictactoe_web::openapi();
    if std::env::var_os("TICTACTOE_WRITE_OPENAPI").is_some() {
        std::fs::write(committed(), format!("{served}\n")).unwrap();
    }

    // Act
    let kept = std::fs::read_to_string(committed()).unwrap_or_default();

    // Assert
    assert!(
        kept.trim_end() == served,
        "docs/openapi.json differs from the document the server serves: run \
         `TICTACTOE_WRITE_OPENAPI=1 cargo test -p tictactoe-web --test web_openapi` and \
         commit the change"
    );
}

#[test]
fn the_document_is_openapi_3_1_with_the_seats_bearer_tokens() {
    let document = document();

    assert_eq!(document["openapi"], "3.1.0");
    assert_eq!(
        document["components"]["securitySchemes"]["seat"],
        json!({"type": "http", "scheme": "bearer", "description": document["components"]["securitySchemes"]["seat"]["description"]})
    );
}

#[tokio::test]
async fn every_operation_the_document_lists_is_one_the_server_answers() {
    // Arrange: a game whose id fills the paths.
    let (server, game) = Server::with_game(two_people()).await;

    for (method, path) in operations(&document()) {
        // Act: the head of the answer (an event stream's body never ends), and the
        // body of any other.
        let request = Request::builder()
            .method(method.clone())
            .uri(concrete(&path, &game.id))
            .body(Body::empty())
            .unwrap();
        let answer = server.router().oneshot(request).await.unwrap();
        let status = answer.status();
        let streamed = answer
            .headers()
            .get("content-type")
            .is_some_and(|kind| kind == "text/event-stream");
        let error = if streamed {
            Value::Null
        } else {
            let body = answer.into_body().collect().await.unwrap().to_bytes();
            serde_json::from_slice::<Value>(&body).unwrap_or(Value::Null)["error"].clone()
        };

        // Assert: not the fallbacks' answers for an address or a method the server
        // does not know.
        assert_ne!(error, "there is no such page", "{method} {path}");
        assert_ne!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
    }
}

#[tokio::test]
async fn a_method_the_document_does_not_list_for_a_path_is_refused_405() {
    // Arrange
    let (server, game) = Server::with_game(two_people()).await;
    let document = document();
    let listed: BTreeSet<(String, String)> = operations(&document)
        .into_iter()
        .map(|(method, path)| (method.to_string(), path))
        .collect();
    let paths: BTreeSet<&String> = listed.iter().map(|(_, path)| path).collect();

    for path in paths {
        for method in [
            Method::GET,
            Method::POST,
            Method::PUT,
            Method::PATCH,
            Method::DELETE,
        ] {
            if listed.contains(&(method.to_string(), path.clone())) {
                continue;
            }
            // Act
            let answer = server
                .send(method.clone(), &concrete(path, &game.id), None, None)
                .await;

            // Assert
            assert_eq!(
                answer.status,
                StatusCode::METHOD_NOT_ALLOWED,
                "{method} {path} is answered but not documented"
            );
        }
    }
}

/// Whether `value` has the shape `schema` (resolved in `document`) gives it: the types,
/// the required properties, and no property the schema does not name. Returns what
/// differs, at `at`.
fn differences(document: &Value, schema: &Value, value: &Value, at: &str) -> Vec<String> {
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.trim_start_matches("#/components/schemas/");
        return differences(
            document,
            &document["components"]["schemas"][name],
            value,
            at,
        );
    }
    if let Some(choices) = schema["oneOf"].as_array() {
        // One of the choices fits it; if none does, what kept the closest from fitting.
        let mut misfits: Vec<Vec<String>> = choices
            .iter()
            .map(|choice| differences(document, choice, value, at))
            .collect();
        misfits.sort_by_key(Vec::len);
        return misfits
            .into_iter()
            .find(|misfit| misfit.is_empty())
            .unwrap_or_else(|| vec![format!("{at}: fits none of the document's choices")]);
    }
    if let Some(parts) = schema["allOf"].as_array() {
        // Every part's properties, together.
        let mut merged = json!({"type": "object", "properties": {}, "required": []});
        for part in parts {
            let part = match part["$ref"].as_str() {
                Some(reference) => {
                    let name = reference.trim_start_matches("#/components/schemas/");
                    document["components"]["schemas"][name].clone()
                }
                None => part.clone(),
            };
            for (key, property) in part["properties"].as_object().into_iter().flatten() {
                merged["properties"][key] = property.clone();
            }
            for required in part["required"].as_array().into_iter().flatten() {
                merged["required"]
                    .as_array_mut()
                    .unwrap()
                    .push(required.clone());
            }
        }
        return differences(document, &merged, value, at);
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(one) => vec![one.as_str()],
        Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let kind = match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(number) if number.is_u64() || number.is_i64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    if !types.is_empty() && !types.contains(&kind) {
        return vec![format!("{at}: a {kind}, where the document says {types:?}")];
    }
    let mut found = Vec::new();
    match value {
        Value::Object(object) => {
            let properties = schema["properties"].as_object();
            for required in schema["required"].as_array().into_iter().flatten() {
                if !object.contains_key(required.as_str().unwrap()) {
                    found.push(format!("{at}: {required} is missing"));
                }
            }
            for (key, inner) in object {
                match properties.and_then(|properties| properties.get(key)) {
                    Some(property) => {
                        found.extend(differences(
                            document,
                            property,
                            inner,
                            &format!("{at}.{key}"),
                        ));
                    }
                    None if schema["additionalProperties"].is_object() => {
                        found.extend(differences(
                            document,
                            &schema["additionalProperties"],
                            inner,
                            &format!("{at}.{key}"),
                        ))
                    }
                    None => found.push(format!("{at}: {key} is not in the document")),
                }
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                found.extend(differences(
                    document,
                    &schema["items"],
                    item,
                    &format!("{at}[{index}]"),
                ));
            }
        }
        _ => {}
    }
    found
}

/// The schema the document gives `method path`'s answer with `status`.
fn answer_schema(document: &Value, method: &str, path: &str, status: u16) -> Value {
    let content = &document["paths"][path][method]["responses"][status.to_string()]["content"];
    let (_, media) = content.as_object().unwrap().iter().next().unwrap();
    media["schema"].clone()
}

#[tokio::test]
async fn the_answers_have_the_shapes_the_document_gives_them() {
    // Arrange: a finished game between two signed-in people, whose review is computed,
    // and an invite taken in another.
    let server = Server::new();
    let document = document();
    let game = server.rated_game("Ada", "Bob").await;
    let (x, o) = (game.x_token(), game.o_token());
    server.play_in_turn(&game, &[1, 4, 2, 5, 3]).await;
    let invited = server
        .send(
            Method::POST,
            "/api/games",
            None,
            Some(json!({ "x": "human:Cy", "o": "human", "invite": "o" })),
        )
        .await;
    let code = invited.json["invite"]["code"].as_str().unwrap();
    let join = format!("/api/games/{}/join", invited.json["id"].as_str().unwrap());
    let joined = server
        .send(Method::POST, &join, None, Some(json!({ "invite": code })))
        .await;
    let signed_up = server
        .send(
            Method::POST,
            "/api/accounts",
            None,
            Some(json!({ "name": "Dee", "password": "correct horse" })),
        )
        .await;
    let token = server
        .send(Method::POST, "/api/tokens", Some(x), Some(json!({})))
        .await;
    let review = server.poll_review(&game.id).await.pop().unwrap();
    let id = &game.id;
    let puzzle = format!("/api/players/Bob/puzzles/{id}/2");
    let body = Some(json!({ "cell": 5 }));
    let session = server
        .send(Method::GET, "/api/session", Some(x), None)
        .await;
    let tokens = server.send(Method::GET, "/api/tokens", Some(x), None).await;
    let looked = server.get(&format!("/api/games/{id}")).await;
    let rating = server.get(&format!("/api/games/{id}/rating")).await;
    let history = server.get("/api/games").await;
    let scores = server.get("/api/scores").await;
    let player = server.get("/api/players/Ada").await;
    let refused_move = server.play(id, x, 9).await;
    let puzzles = server
        .send(Method::GET, "/api/players/Bob/puzzles", Some(o), None)
        .await;
    let answered = server.send(Method::POST, &puzzle, Some(o), body).await;
    let ready = server.get("/readyz").await;
    let clock = json!({ "initial": 60, "increment": 2 });
    let seek_body = json!({ "size": 3, "rated": true, "clock": clock });
    let opened = server
        .send(Method::POST, "/api/seeks", Some(x), Some(seek_body))
        .await;
    let lobby = server.get("/api/lobby").await;
    let seek_path = format!("/api/seeks/{}", opened.json["id"].as_str().unwrap());
    let accepted = server
        .send(Method::POST, &format!("{seek_path}/accept"), Some(o), None)
        .await;
    let seek_looked = server.send(Method::GET, &seek_path, Some(x), None).await;
    let on_clock = server
        .get(&format!(
            "/api/games/{}",
            accepted.json["id"].as_str().unwrap()
        ))
        .await;
    let tv = server.get("/api/tv").await;
    let answers = [
        ("post", "/api/seeks", 201, opened.json),
        ("get", "/api/lobby", 200, lobby.json),
        ("post", "/api/seeks/{id}/accept", 201, accepted.json),
        ("get", "/api/seeks/{id}", 200, seek_looked.json),
        ("get", "/api/games/{id}", 200, on_clock.json),
        ("get", "/api/tv", 200, tv.json),
        ("post", "/api/games", 201, invited.json),
        ("post", "/api/games/{id}/join", 200, joined.json),
        ("post", "/api/accounts", 201, signed_up.json),
        ("get", "/api/session", 200, session.json),
        ("post", "/api/tokens", 201, token.json),
        ("get", "/api/tokens", 200, tokens.json),
        ("get", "/api/games/{id}", 200, looked.json),
        ("get", "/api/games/{id}/review", 200, review.json),
        ("get", "/api/games/{id}/rating", 200, rating.json),
        ("get", "/api/games", 200, history.json),
        ("get", "/api/scores", 200, scores.json),
        ("get", "/api/players/{name}", 200, player.json),
        ("post", "/api/games/{id}/moves", 409, refused_move.json),
        ("get", "/api/players/{name}/puzzles", 200, puzzles.json),
        (
            "post",
            "/api/players/{name}/puzzles/{id}/{ply}",
            200,
            answered.json,
        ),
        ("get", "/readyz", 200, ready.json),
    ];

    for (method, path, status, answer) in answers {
        // Act
        let found = differences(
            &document,
            &answer_schema(&document, method, path, status),
            &answer,
            &format!("{method} {path} {status}"),
        );

        // Assert
        assert!(found.is_empty(), "{found:#?}\n{answer}");
    }
}

/// The value a link's runtime expression `$response.body#/…` names in `answer`.
fn from_answer(expression: &Value, answer: &Value) -> Value {
    let pointer = expression
        .as_str()
        .and_then(|expression| expression.strip_prefix("$response.body#"))
        .expect("an expression into the answer's body");
    answer.pointer(pointer).cloned().unwrap_or(Value::Null)
}

#[tokio::test]
async fn following_a_new_games_links_plays_it_with_the_seats_cookie() {
    // Arrange: a guest's game against the computer, and the document's link from that
    // answer to a move by X's seat.
    let server = Server::new();
    let document = document();
    let created = server
        .create_raw(json!({ "x": "human:Ada", "o": "random" }), None)
        .await;
    let link = &document["paths"]["/api/games"]["post"]["responses"]["201"]["links"]["play_x"];
    let id = from_answer(&link["parameters"]["id"], &created.json);
    let seat = from_answer(&link["parameters"]["cookie.seat_x"], &created.json);

    // Act
    let played = server
        .send_with(
            Method::POST,
            &format!("/api/games/{}/moves", id.as_str().unwrap()),
            &[("cookie", &format!("seat_x={}", seat.as_str().unwrap()))],
            Some(json!({ "cell": 5 })),
        )
        .await;

    // Assert
    assert_eq!(link["operationId"], "play");
    assert_eq!(played.status, StatusCode::OK, "{}", played.text);
}

#[test]
fn every_request_of_a_seat_is_linked_from_each_game_begun_for_each_seat() {
    let document = document();
    let seat_requests = ["play", "undo", "hint", "resign", "rename", "rematch"];

    for begun in ["/api/games", "/api/games/{id}/rematch"] {
        let links = &document["paths"][begun]["post"]["responses"]["201"]["links"];
        for operation in seat_requests {
            for seat in ["x", "o"] {
                let link = &links[format!("{operation}_{seat}")];
                assert_eq!(
                    link["operationId"], operation,
                    "{begun}: {operation}_{seat}"
                );
                assert_eq!(
                    link["parameters"][format!("cookie.seat_{seat}")],
                    format!("$response.body#/seats/{seat}/token"),
                    "{begun}: {operation}_{seat}"
                );
            }
        }
    }
}
