//! A name is its account's: the attacks of issue #41 replayed against the API, each
//! refused with clear words and leaving the victim's games, record and rating as they
//! were; and what an account does (sign up, in and out, personal tokens).

mod web_support;

use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use web_support::{Answer, PASSWORD, Server, session_cookie};

/// Ada's account signed up on `server`, and a rated game of hers against Random, one
/// move each in: the server, Ada's personal token, and the game.
async fn ada_playing_random() -> (Server, String, String) {
    let server = Server::new();
    let ada = server.account_token("Ada").await;
    let id = ada_playing_random_on(&server, &ada).await;
    (server, ada, id)
}

/// A new server on which Ada has signed up: the server, and her session's cookie.
async fn ada_signed_up() -> (Server, String) {
    let server = Server::new();
    let session = server.sign_up("Ada").await;
    (server, session)
}

/// Ada's rating on 3 x 3 and her record, as the API tells them to anyone.
async fn adas_standing(server: &Server) -> (Value, Value) {
    let page = server.get("/api/players/Ada").await;
    (page.json["ratings"].clone(), page.json["record"].clone())
}

async fn sign_in(server: &Server, name: &str, password: &str) -> Answer {
    server
        .send(
            Method::POST,
            "/api/session",
            None,
            Some(json!({ "name": name, "password": password })),
        )
        .await
}

/// A new game of a guest named `name` against Random on `server`, answered as it is.
async fn guest_against_random(server: &Server, name: &str) -> Answer {
    let request = json!({ "x": format!("human:{name}"), "o": "random" });
    server.create_raw(request, None).await
}

/// `POST /api/tokens` with `request`, sent with the session's cookie `session`: answered
/// as it is.
async fn make_token(server: &Server, session: &str, request: Value) -> Answer {
    let cookie = [("cookie", session)];
    server
        .send_with(Method::POST, "/api/tokens", &cookie, Some(request))
        .await
}

// ---- Nobody plays, resigns or moves as an account but the account ----------------

#[tokio::test]
async fn a_game_under_an_accounts_name_is_refused_to_whoever_is_not_signed_in_as_it() {
    // Arrange
    let (server, _) = ada_signed_up().await;
    let mallory = server.account_token("Mallory").await;

    // Act
    let anonymous = server
        .create_raw(json!({ "x": "human:Ada", "o": "impossible" }), None)
        .await;
    let as_mallory = server
        .create_raw(
            json!({ "x": "human:Ada", "o": "impossible" }),
            Some(&mallory),
        )
        .await;

    // Assert
    for refused in [anonymous, as_mallory] {
        assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
        assert_eq!(
            refused.json["error"],
            "Ada is the name of an account on this server (or looks like one): sign in as it \
             to play under it, or choose a name of your own"
        );
    }
}

#[tokio::test]
async fn a_name_that_looks_like_an_accounts_is_refused_to_a_guest() {
    let (server, _) = ada_signed_up().await;

    // A Cyrillic А.
    let refused = guest_against_random(&server, "\u{410}da").await;

    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
}

#[tokio::test]
async fn a_name_a_guest_played_under_is_refused_from_the_moment_an_account_like_it_signs_up() {
    // Arrange: the server has just found "Z0e" (a zero) to be nobody's; an account
    // then takes "Zoe", which it looks like.
    let server = Server::new();
    let before = guest_against_random(&server, "Z0e").await;
    assert_eq!(before.status, StatusCode::CREATED, "{}", before.text);
    server.sign_up("Zoe").await;

    // Act
    let after = guest_against_random(&server, "Z0e").await;

    // Assert
    assert_eq!(after.status, StatusCode::FORBIDDEN, "{}", after.text);
}

#[tokio::test]
async fn a_guest_cannot_rename_their_seat_to_an_accounts_name() {
    let (server, _) = ada_signed_up().await;
    let game = server
        .create(json!({ "x": "human:Guest", "o": "random" }))
        .await;

    let renamed = server
        .send(
            Method::POST,
            &game.api("/name"),
            Some(game.x_token()),
            Some(json!({ "name": "ADA" })),
        )
        .await;

    assert_eq!(renamed.status, StatusCode::FORBIDDEN, "{}", renamed.text);
}

#[rstest::rstest]
#[case::resign("resign")]
#[case::undo("undo")]
#[case::hint("hint")]
#[tokio::test]
async fn an_accounts_seat_is_refused_to_anyone_else_and_its_game_is_unchanged(
    #[case] action: &str,
) {
    // Arrange: Ada's rated game; Mallory is signed in too.
    let (server, _, id) = ada_playing_random().await;
    let mallory = server.account_token("Mallory").await;
    let before = server.get(&format!("/api/games/{id}")).await.json;

    // Act
    let anonymous = server.post(&id, action, None).await;
    let as_mallory = server.post(&id, action, Some(&mallory)).await;

    // Assert
    assert_eq!(
        anonymous.status,
        StatusCode::UNAUTHORIZED,
        "{}",
        anonymous.text
    );
    assert_eq!(
        as_mallory.status,
        StatusCode::FORBIDDEN,
        "{}",
        as_mallory.text
    );
    assert_eq!(server.get(&format!("/api/games/{id}")).await.json, before);
}

#[tokio::test]
async fn resignations_sent_as_someone_else_change_nothing_of_theirs() {
    // Arrange: Ada has played a rated game; Mallory resigns twenty of her games' seats.
    let (server, ada, id) = ada_playing_random().await;
    server.play(&id, &ada, 5).await;
    server.post(&id, "resign", Some(&ada)).await;
    let before = adas_standing(&server).await;
    let mallory = server.account_token("Mallory").await;

    // Act
    for _ in 0..20 {
        let game = ada_playing_random_on(&server, &ada).await;
        let refused = server.post(&game, "resign", Some(&mallory)).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN);
    }

    // Assert
    assert_eq!(adas_standing(&server).await, before);
}

/// Another rated game of Ada's against Random on `server`, with her token `ada`: its id.
async fn ada_playing_random_on(server: &Server, ada: &str) -> String {
    let begun = server
        .create_raw(json!({ "x": "human:Ada", "o": "random" }), Some(ada))
        .await;
    begun.json["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_game_resigned_before_each_side_moved_rates_nobody() {
    let (server, ada, id) = ada_playing_random().await;

    let resigned = server.post(&id, "resign", Some(&ada)).await;

    assert_eq!(resigned.json["status"], "x_resigned");
    assert_eq!(adas_standing(&server).await.0, json!([]));
}

#[tokio::test]
async fn a_game_against_the_computer_with_a_hint_taken_rates_nobody() {
    // Arrange: Ada asks a hint (the game turns casual), plays and resigns.
    let (server, ada, id) = ada_playing_random().await;
    let hinted = server.post(&id, "hint", Some(&ada)).await;
    server.play(&id, &ada, 5).await;

    // Act
    server.post(&id, "resign", Some(&ada)).await;

    // Assert
    assert_eq!(hinted.status, StatusCode::OK, "{}", hinted.text);
    assert_eq!(
        server.get(&format!("/api/games/{id}")).await.json["rated"],
        false
    );
    assert_eq!(adas_standing(&server).await.0, json!([]));
}

// ---- Seats bound to people: the invite --------------------------------------------

#[tokio::test]
async fn the_host_of_a_game_with_a_friend_holds_no_seat_of_the_friends() {
    // Arrange: Ada invites a friend to O, and moves.
    let server = Server::new();
    let ada = server.account_token("Ada").await;
    let begun = server
        .send(
            Method::POST,
            "/api/games",
            Some(&ada),
            Some(json!({ "x": "human:Ada", "o": "human:Bob", "invite": "o" })),
        )
        .await;
    let id = begun.json["id"].as_str().unwrap().to_string();
    server.play(&id, &ada, 5).await;

    // Act: Ada, holding X, tries to play O's move and to resign O's seat.
    let moved = server.play(&id, &ada, 1).await;
    let looked = server
        .send(Method::GET, &format!("/api/games/{id}"), Some(&ada), None)
        .await;

    // Assert
    assert!(begun.json["seats"].get("o").is_none(), "{}", begun.text);
    assert_eq!(moved.status, StatusCode::CONFLICT, "{}", moved.text);
    assert_eq!(looked.json["yours"], json!(["X"]));
}

#[tokio::test]
async fn an_invite_is_taken_once_and_the_second_bringer_is_refused() {
    let (server, begun) =
        Server::with_game(json!({ "x": "human:Cy", "o": "human", "invite": "o" })).await;
    let code = begun.game["invite"]["code"].clone();
    let join = begun.api("/join");

    let first = server
        .send(Method::POST, &join, None, Some(json!({ "invite": code })))
        .await;
    let second = server
        .send(Method::POST, &join, None, Some(json!({ "invite": code })))
        .await;

    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert_eq!(second.status, StatusCode::FORBIDDEN, "{}", second.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signed_in_friend_taking_an_invite_twice_at_once_is_seated_once_and_answered_twice() {
    // Arrange: Cy invites Bob, who is signed in.
    let server = Server::new();
    let bob = server.account_token("Bob").await;
    let begun = server
        .create(json!({ "x": "human:Cy", "o": "human:Bob", "invite": "o" }))
        .await;
    let invite = Some(json!({ "invite": begun.game["invite"]["code"].clone() }));
    let join = begun.api("/join");

    // Act: a double click.
    let (first, second) = tokio::join!(
        server.send(Method::POST, &join, Some(&bob), invite.clone()),
        server.send(Method::POST, &join, Some(&bob), invite.clone()),
    );

    // Assert
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert_eq!(second.status, StatusCode::OK, "{}", second.text);
    assert_eq!(second.json["players"]["o"]["name"], "Bob");
}

#[tokio::test]
async fn a_guest_taking_an_invite_held_under_an_accounts_name_plays_as_nobody_in_particular() {
    // Arrange: the host guesses the friend is Ada, who has an account.
    let (server, _) = ada_signed_up().await;
    let begun = server
        .create(json!({ "x": "human:Cy", "o": "human:Ada", "invite": "o" }))
        .await;
    let code = begun.game["invite"]["code"].clone();

    // Act: a guest takes it.
    let joined = server
        .send(
            Method::POST,
            &begun.api("/join"),
            None,
            Some(json!({ "invite": code })),
        )
        .await;

    // Assert
    assert_eq!(joined.status, StatusCode::OK, "{}", joined.text);
    assert_eq!(joined.json["players"]["o"]["name"], "Player 2");
}

// ---- Accounts -----------------------------------------------------------------------

#[tokio::test]
async fn a_name_an_account_has_is_taken_and_so_is_one_that_looks_like_it() {
    let (server, _) = ada_signed_up().await;

    let answers = [
        server.try_sign_up("ada").await,
        server.try_sign_up("\u{410}da").await,
    ];

    for answer in answers {
        assert_eq!(answer.status, StatusCode::CONFLICT, "{}", answer.text);
        assert_eq!(
            answer.json["error"],
            "Ada is taken: choose a name that reads differently"
        );
    }
}

#[tokio::test]
async fn a_name_with_games_kept_from_before_is_not_a_newcomers_to_take() {
    // Arrange: a guest played as Zoe.
    let (server, game) = Server::with_game(json!({ "x": "human:Zoe", "o": "random" })).await;
    server.post(&game.id, "resign", Some(game.x_token())).await;

    // Act
    let taken = server.try_sign_up("Zoe").await;

    // Assert
    assert_eq!(taken.status, StatusCode::CONFLICT, "{}", taken.text);
    assert!(
        taken.json["error"]
            .as_str()
            .unwrap()
            .contains("ask whoever runs this server to give it to you"),
        "{}",
        taken.text
    );
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_name_are_refused_in_the_same_words() {
    let (server, _) = ada_signed_up().await;

    let wrong = sign_in(&server, "Ada", "not the password").await;
    let unknown = sign_in(&server, "Nobody", "not the password").await;

    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert_eq!((wrong.status, &wrong.json), (unknown.status, &unknown.json));
}

#[tokio::test]
async fn the_right_password_signs_in_and_the_session_says_who() {
    let (server, _) = ada_signed_up().await;

    let signed_in = sign_in(&server, "ADA", PASSWORD).await;
    let cookie = session_cookie(&signed_in);
    let who = server
        .send_with(Method::GET, "/api/session", &[("cookie", &cookie)], None)
        .await;

    assert_eq!(signed_in.status, StatusCode::OK);
    assert_eq!(who.json, json!({ "name": "Ada" }));
}

#[tokio::test]
async fn too_many_wrong_passwords_for_a_name_are_refused_429_and_so_is_the_right_one_until_the_wait_is_over()
 {
    // Arrange: five wrong passwords for Ada.
    let (server, _) = ada_signed_up().await;
    for _ in 0..5 {
        let wrong = sign_in(&server, "Ada", "a wrong guess").await;
        assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    }

    // Act
    let right = sign_in(&server, "Ada", PASSWORD).await;

    // Assert
    assert_eq!(
        right.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        right.text
    );
    let wait: u64 = right.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=900).contains(&wait), "{wait}");
}

#[tokio::test]
async fn a_refusal_for_too_many_tries_is_held_for_a_second_so_a_guessing_script_slows_to_a_try_a_second()
 {
    // Arrange: a client that used up its tries at Ada.
    let (server, _) = ada_signed_up().await;
    for _ in 0..5 {
        sign_in(&server, "Ada", "a wrong guess").await;
    }

    // Act
    let asked = std::time::Instant::now();
    let refused = sign_in(&server, "Ada", "one more guess").await;
    let held = asked.elapsed();

    // Assert
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(held >= std::time::Duration::from_millis(990), "{held:?}");
}

#[tokio::test]
async fn signing_out_ends_the_session_on_the_server() {
    let (server, cookie) = ada_signed_up().await;

    let out = server
        .send_with(Method::DELETE, "/api/session", &[("cookie", &cookie)], None)
        .await;
    let who = server
        .send_with(Method::GET, "/api/session", &[("cookie", &cookie)], None)
        .await;

    assert_eq!(out.status, StatusCode::NO_CONTENT);
    assert_eq!(who.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_personal_token_acts_as_its_account_until_it_is_revoked() {
    // Arrange
    let (server, session) = ada_signed_up().await;
    let made = make_token(&server, &session, json!({ "label": "my laptop" })).await;
    let (token, id) = (
        made.json["token"].as_str().unwrap().to_string(),
        made.json["id"].as_str().unwrap().to_string(),
    );
    let before = server
        .send(Method::GET, "/api/session", Some(&token), None)
        .await;

    // Act
    let revoked = server
        .send_with(
            Method::DELETE,
            &format!("/api/tokens/{id}"),
            &[("cookie", &session)],
            None,
        )
        .await;
    let after = server
        .send(Method::GET, "/api/session", Some(&token), None)
        .await;

    // Assert
    assert!(token.starts_with("ttt_"), "{token}");
    assert_eq!(before.json, json!({ "name": "Ada" }));
    assert_eq!(revoked.status, StatusCode::NO_CONTENT);
    assert_eq!(after.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_token_asked_for_with_a_json_array_instead_of_an_object_is_refused_400() {
    // Arrange
    let (server, session) = ada_signed_up().await;

    // Act: `[]`, which serde would read as a request with every field left out.
    let made = make_token(&server, &session, json!([])).await;

    // Assert
    assert_eq!(made.status, StatusCode::BAD_REQUEST, "{}", made.text);
    assert_eq!(
        made.json["error"],
        "the body is not the JSON expected: an object, {…}"
    );
}

#[tokio::test]
async fn a_token_list_never_shows_a_tokens_secret() {
    let (server, session) = ada_signed_up().await;
    let made = make_token(&server, &session, json!({})).await;

    let listed = server
        .send_with(Method::GET, "/api/tokens", &[("cookie", &session)], None)
        .await;

    let secret = made.json["token"].as_str().unwrap();
    assert_eq!(listed.json["tokens"].as_array().map(Vec::len), Some(1));
    assert!(
        !listed.text.contains(&secret["ttt_".len()..]),
        "{}",
        listed.text
    );
}
