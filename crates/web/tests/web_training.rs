//! Training over the web API: a player's open puzzles (`GET /api/players/{name}/puzzles`)
//! and an answer judged and kept (`POST /api/players/{name}/puzzles/{id}/{ply}`), on a
//! server whose games, reviews and attempts are in the core's `MemoryStore`.

mod web_support;

use std::time::{Duration, SystemTime};

use axum::http::{Method, StatusCode};
use serde_json::json;
use tictactoe_core::domain::PlayerName;
use tictactoe_core::ports::{Attempt, GameId, TrainingStore};
use web_support::{Answer, Created, Server};

fn bob() -> PlayerName {
    PlayerName::new("Bob").unwrap()
}

/// Bob's answer `cell` to his puzzle of `game` at `ply`, sent as Bob (his personal
/// token: O's in [`Server::bob_slipped`]).
async fn answer(server: &Server, game: &Created, ply: u32, cell: u64) -> Answer {
    answer_as(server, game, game.o_token(), ply, cell).await
}

/// An answer `cell` to Bob's puzzle of `game` at `ply`, sent with `token`.
async fn answer_as(server: &Server, game: &Created, token: &str, ply: u32, cell: u64) -> Answer {
    let path = format!("/api/players/Bob/puzzles/{}/{ply}", game.id);
    server
        .send(
            Method::POST,
            &path,
            Some(token),
            Some(json!({ "cell": cell })),
        )
        .await
}

/// `path` asked with `token` as the bearer.
async fn get_as(server: &Server, path: &str, token: &str) -> Answer {
    server.send(Method::GET, path, Some(token), None).await
}

/// A server on which Bob slipped in a reviewed game (see [`Server::bob_slipped`]): the
/// server, and that game.
async fn bobs_slip() -> (Server, Created) {
    let server = Server::new();
    let game = server.bob_slipped().await;
    (server, game)
}

/// Whether each of Bob's attempts kept was right, oldest first.
fn bobs_attempts(server: &Server) -> Vec<bool> {
    let attempts = server.store.attempts(&bob()).unwrap();
    attempts.iter().map(|attempt| attempt.right).collect()
}

#[tokio::test]
async fn a_players_slip_in_a_reviewed_game_is_listed_as_a_puzzle_with_its_title_and_question() {
    // Arrange
    let (server, game) = bobs_slip().await;

    // Act
    let listed = get_as(&server, "/api/players/Bob/puzzles", game.o_token()).await;

    // Assert
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    let puzzle = &listed.json["puzzles"][0];
    assert_eq!(listed.json["puzzles"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        (&puzzle["game"], &puzzle["ply"], &puzzle["board"]),
        (&json!(game.id), &json!(2), &json!("X........"))
    );
    // The answers come with an answer's verdict, not with the puzzle.
    assert_eq!(
        (&puzzle["value"], &puzzle["best_moves"], &puzzle["size"]),
        (&json!("draw"), &json!(null), &json!(3))
    );
    let title = format!(
        "Puzzle 1 of 1: game {}, move 2 (3x3: 3 in a row wins)",
        &game.id[..8]
    );
    assert_eq!(puzzle["title"], title.as_str());
    assert_eq!(
        puzzle["prompt"],
        "O to move; O had a draw here. Find a move that keeps it."
    );
}

#[tokio::test]
async fn a_player_without_a_slip_is_told_in_words_why_there_is_no_puzzle() {
    let (server, game) = bobs_slip().await;

    let listed = get_as(&server, "/api/players/Ada/puzzles", game.x_token()).await;

    assert_eq!(listed.json["puzzles"], json!([]));
    assert_eq!(
        listed.json["notes"],
        json!(["No puzzles for Ada on any board: no slip of theirs in a reviewed game is open."])
    );
}

#[tokio::test]
async fn a_game_not_reviewed_makes_no_puzzle_and_is_counted_and_told() {
    let server = Server::new();
    let game = server.rated_game("Ada", "Bob").await;
    server.play_in_turn(&game, &[1, 4, 2, 5, 3]).await;

    let listed = get_as(&server, "/api/players/Bob/puzzles", game.o_token()).await;

    assert_eq!(
        (&listed.json["puzzles"], &listed.json["unreviewed"]),
        (&json!([]), &json!(1))
    );
    assert_eq!(
        listed.json["notes"][1],
        "1 of Bob's games has no review yet, so no puzzles: a game is reviewed when its \
         page is opened (from the player's page), and its puzzles come then."
    );
}

#[tokio::test]
async fn puzzles_on_another_board_are_not_listed() {
    let (server, game) = bobs_slip().await;

    let listed = get_as(&server, "/api/players/Bob/puzzles?size=4", game.o_token()).await;

    assert_eq!(listed.json["puzzles"], json!([]));
}

#[tokio::test]
async fn a_right_answer_is_kept_as_right_and_answered_200_in_the_consoles_words() {
    // Arrange
    let (server, game) = bobs_slip().await;

    // Act
    let answered = answer(&server, &game, 2, 5).await;

    // Assert
    assert_eq!(answered.status, StatusCode::OK, "{}", answered.text);
    assert_eq!(
        answered.json,
        json!({"judged": "right", "left": "draw", "said": "Right: 5 keeps the draw.",
               "then": "It comes back once more: solve it again another day, or after \
                        another puzzle, and it retires.",
               "answer": null,
               "best_moves": [5]})
    );
    assert_eq!(bobs_attempts(&server), [true]);
}

#[tokio::test]
async fn a_wrong_answer_says_what_it_leaves_and_what_the_review_said_and_is_kept_as_wrong() {
    // Arrange
    let (server, game) = bobs_slip().await;

    // Act: O in the far corner after X's corner loses.
    let answered = answer(&server, &game, 2, 9).await;

    // Assert
    assert_eq!(answered.json["judged"], "wrong");
    assert_eq!(answered.json["left"], "loss");
    assert_eq!(answered.json["said"], "Not that one: 9 leaves a loss.");
    assert_eq!(
        answered.json["then"],
        "Try again on the same position, or see the answer."
    );
    assert_eq!(
        answered.json["answer"],
        "In the game, Move 2, O at 4: threw away the draw (a loss left); 5 kept it. The \
         best moves: 5 (lit). The puzzle stays."
    );
    assert_eq!(bobs_attempts(&server), [false]);
}

#[tokio::test]
async fn a_second_right_answer_a_day_after_the_first_retires_the_puzzle_and_says_so() {
    // Arrange: Bob solved it right yesterday.
    let (server, game) = bobs_slip().await;
    let attempt = Attempt {
        player: bob(),
        game: GameId::parse(&game.id).unwrap(),
        ply: 2,
        at: SystemTime::now() - Duration::from_secs(86_400),
        right: true,
    };
    server.store.keep_attempt(&attempt).unwrap();

    // Act
    let answered = answer(&server, &game, 2, 5).await;

    // Assert
    assert_eq!(
        answered.json["then"],
        "Solved twice, apart: the puzzle retires."
    );
}

#[tokio::test]
async fn an_answer_to_a_puzzle_that_never_was_is_not_found_and_nothing_is_kept() {
    let (server, game) = bobs_slip().await;

    let answered = answer(&server, &game, 3, 5).await;

    assert_eq!(answered.status, StatusCode::NOT_FOUND, "{}", answered.text);
    assert_eq!(bobs_attempts(&server), Vec::<bool>::new());
}

#[tokio::test]
async fn an_answer_to_a_retired_puzzle_is_not_found() {
    // Arrange: Bob solved it right on two days.
    let (server, game) = bobs_slip().await;
    let day = Duration::from_secs(86_400);
    for days_ago in [2, 1] {
        let attempt = Attempt {
            player: bob(),
            game: GameId::parse(&game.id).unwrap(),
            ply: 2,
            at: SystemTime::now() - day * days_ago,
            right: true,
        };
        server.store.keep_attempt(&attempt).unwrap();
    }

    // Act
    let answered = answer(&server, &game, 2, 5).await;

    // Assert
    assert_eq!(answered.status, StatusCode::NOT_FOUND, "{}", answered.text);
}

#[tokio::test]
async fn a_taken_cell_is_a_bad_request_in_the_consoles_words_and_nothing_is_kept() {
    let (server, game) = bobs_slip().await;

    let answered = answer(&server, &game, 2, 1).await;

    assert_eq!(answered.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        answered.json["error"],
        "cell 1 is already taken: choose an empty one"
    );
    assert_eq!(bobs_attempts(&server), Vec::<bool>::new());
}

#[tokio::test]
async fn a_cell_off_the_board_is_a_bad_request_and_nothing_is_kept() {
    let (server, game) = bobs_slip().await;

    let answered = answer(&server, &game, 2, 10).await;

    assert_eq!(
        answered.status,
        StatusCode::BAD_REQUEST,
        "{}",
        answered.text
    );
    assert_eq!(bobs_attempts(&server), Vec::<bool>::new());
}

#[tokio::test]
async fn a_players_puzzles_are_refused_to_whoever_is_not_signed_in() {
    let (server, _) = bobs_slip().await;

    let listed = server.get("/api/players/Bob/puzzles").await;

    assert_eq!(listed.status, StatusCode::UNAUTHORIZED, "{}", listed.text);
}

#[tokio::test]
async fn a_players_puzzles_are_refused_to_another_account() {
    let (server, game) = bobs_slip().await;

    let listed = get_as(&server, "/api/players/Bob/puzzles", game.x_token()).await;

    assert_eq!(listed.status, StatusCode::FORBIDDEN, "{}", listed.text);
    assert_eq!(
        listed.json["error"],
        "this is Bob's: only Bob, signed in, may see or do this"
    );
}

#[tokio::test]
async fn an_answer_from_another_account_is_refused_and_nothing_is_kept() {
    let (server, game) = bobs_slip().await;

    let answered = answer_as(&server, &game, game.x_token(), 2, 9).await;

    assert_eq!(answered.status, StatusCode::FORBIDDEN, "{}", answered.text);
    assert_eq!(bobs_attempts(&server), Vec::<bool>::new());
}

#[tokio::test]
async fn an_answer_from_nobody_signed_in_is_refused_and_nothing_is_kept() {
    let (server, game) = bobs_slip().await;
    let path = format!("/api/players/Bob/puzzles/{}/2", game.id);

    let answered = server
        .send(Method::POST, &path, None, Some(json!({ "cell": 9 })))
        .await;

    assert_eq!(
        answered.status,
        StatusCode::UNAUTHORIZED,
        "{}",
        answered.text
    );
    assert_eq!(bobs_attempts(&server), Vec::<bool>::new());
}
