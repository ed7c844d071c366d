//! The history of ended games, their reviews and the players' pages, through the
//! router in-process, over a store in memory: what each answers, and every refusal.

mod web_support;

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tictactoe_core::ports::SeatHolder;

use axum::http::StatusCode;
use serde_json::{Value, json};
use tictactoe_core::domain::{Analysis, Board, Mark};
use tictactoe_core::memory::MemoryStore;
use tictactoe_core::play::Review;
use tictactoe_core::players::{Advisor, ComputerFactory, Level, MoveChooser};
use tictactoe_core::ports::{GameId, ReviewStore};
use tictactoe_players::StandardComputers;
use web_support::{Server, test_game_limits, two_people};

/// A game between two people, `x` and `o`, that X wins on the top row (5 moves); its id.
async fn won_by_x(server: &Server, x: &str, o: &str) -> String {
    let game = server
        .create(json!({ "x": format!("human:{x}"), "o": format!("human:{o}") }))
        .await;
    server.play_in_turn(&game, &[1, 4, 2, 5, 3]).await;
    game.id
}

/// A game `x` resigns against the computer at `level` before any move; its id.
async fn resigned(server: &Server, x: &str, level: &str) -> String {
    let game = server
        .create(json!({ "x": format!("human:{x}"), "o": level }))
        .await;
    let answer = server.post(&game.id, "resign", game.x.as_deref()).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    game.id
}

/// Ada (X) and Bob (O): X 5, O 2 (an edge: it loses), X 1, O 9, X 7, O 4, X 3 (wins).
async fn ada_beats_bobs_edge_reply(server: &Server) -> String {
    let game = server.create(two_people()).await;
    server.play_in_turn(&game, &[5, 2, 1, 9, 7, 4, 3]).await;
    game.id
}

/// The ids of a history page's games, in its order.
fn ids(page: &Value) -> Vec<String> {
    page["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|game| game["id"].as_str().unwrap().to_owned())
        .collect()
}

// ---- The history ------------------------------------------------------------------

#[tokio::test]
async fn a_games_page_asked_by_the_start_of_its_id_sends_the_browser_on_to_the_whole_id() {
    let server = Server::new();
    let id = won_by_x(&server, "Ada", "Bob").await;

    let answer = server.get(&format!("/games/{}", &id[..9])).await;

    assert_eq!(answer.status, StatusCode::SEE_OTHER);
    assert_eq!(answer.headers["location"], format!("/games/{id}").as_str());
}

#[tokio::test]
async fn a_start_of_an_id_no_game_has_opens_the_page_that_finds_none_not_found() {
    let server = Server::new();
    let id = won_by_x(&server, "Ada", "Bob").await;
    let other = if id.starts_with('f') { "e" } else { "f" };

    let status = game_page_status(&server, other).await;

    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_start_of_an_id_two_games_share_opens_the_page_that_finds_no_game() {
    let server = Server::new();
    let first = won_by_x(&server, "Ada", "Bob").await;
    let second = won_by_x(&server, "Ada", "Bob").await;
    let shared: String = first
        .chars()
        .zip(second.chars())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a)
        .collect();
    assert!(
        !shared.is_empty(),
        "ids made a moment apart share their first digits"
    );

    let status = game_page_status(&server, &shared).await;

    assert_eq!(status, StatusCode::OK);
}

/// The status `/games/{start}` is answered with, its body the game page (whose script
/// then says there is no such game).
async fn game_page_status(server: &Server, start: &str) -> StatusCode {
    let answer = server.get(&format!("/games/{start}")).await;
    assert!(
        answer.text.contains("<title>Tic Tac Toe</title>"),
        "{}",
        answer.text
    );
    answer.status
}

#[tokio::test]
async fn the_history_lists_the_ended_games_newest_first_and_no_game_in_progress() {
    // Arrange: three ended games, a millisecond or more apart, and one in progress.
    let server = Server::new();
    let mut ended = Vec::new();
    for name in ["Ada", "Bob", "Cy"] {
        ended.push(resigned(&server, name, "easy").await);
        tokio::time::sleep(Duration::from_millis(3)).await;
    }
    server
        .create(json!({ "x": "human:Dee", "o": "easy" }))
        .await;

    // Act
    let page = server.get("/api/games").await;

    // Assert
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    ended.reverse();
    assert_eq!(ids(&page.json), ended);
    assert_eq!(page.json["next"], Value::Null);
    assert_eq!(page.json["games"][0]["x"], "Cy");
    assert_eq!(page.json["games"][0]["o"], "Computer (Easy)");
    assert_eq!(page.json["games"][0]["result"], "x_resigned");
}

#[tokio::test]
async fn paging_through_the_history_returns_every_ended_game_exactly_once() {
    // Arrange: seven ended games, several started within one millisecond.
    let server = Server::new();
    let mut ended = HashSet::new();
    for _ in 0..7 {
        ended.insert(resigned(&server, "Ada", "random").await);
    }

    // Act: pages of three, each from the cursor the one before gave.
    let mut seen = Vec::new();
    let mut pages = 0;
    let mut path = "/api/games?limit=3".to_owned();
    loop {
        let page = server.get(&path).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.text);
        pages += 1;
        seen.extend(ids(&page.json));
        match page.json["next"].as_str() {
            Some(next) => path = format!("/api/games?limit=3&before={next}"),
            None => break,
        }
    }

    // Assert
    assert_eq!(pages, 3);
    assert_eq!(seen.len(), 7, "{seen:?}");
    assert_eq!(seen.into_iter().collect::<HashSet<_>>(), ended);
}

#[tokio::test]
async fn a_history_asked_for_a_player_lists_only_their_games_whatever_the_names_case() {
    // Arrange
    let server = Server::new();
    let adas = won_by_x(&server, "Ada", "Bob").await;
    won_by_x(&server, "Cy", "Bob").await;

    // Act
    let page = server.get("/api/games?player=ADA").await;

    // Assert
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert_eq!(ids(&page.json), vec![adas]);
}

#[tokio::test]
async fn twenty_games_make_a_page_when_no_limit_is_given() {
    // Arrange
    let server = Server::new();
    for _ in 0..21 {
        resigned(&server, "Ada", "random").await;
    }

    // Act
    let page = server.get("/api/games").await;

    // Assert
    assert_eq!(ids(&page.json).len(), 20);
    assert!(page.json["next"].is_string());
}

// ---- Reviews ----------------------------------------------------------------------

#[tokio::test]
async fn a_review_is_polled_with_its_progress_and_then_answered_in_the_command_lines_words() {
    // Arrange
    let server = Server::new();
    let id = ada_beats_bobs_edge_reply(&server).await;

    // Act
    let answers = server.poll_review(&id).await;

    // Assert: 202s with the moves done of 7, then the review.
    let (last, polled) = answers.split_last().unwrap();
    assert_eq!(
        polled.first().map(|answer| &answer.json),
        Some(&json!({ "progress": { "done": 0, "total": 7 } }))
    );
    for answer in polled {
        let done = answer.json["progress"]["done"].as_u64().unwrap();
        assert!(done <= 7, "{}", answer.text);
    }
    assert_eq!(last.status, StatusCode::OK, "{}", last.text);
    assert_eq!(last.json["game"], id.as_str());
    assert_eq!(last.json["exact"], true);
    assert_eq!(last.json["moves"].as_array().unwrap().len(), 7);
}

#[tokio::test]
async fn the_review_says_the_edge_reply_threw_away_the_draw_and_the_corners_kept_it() {
    // Arrange
    let server = Server::new();
    let id = ada_beats_bobs_edge_reply(&server).await;

    // Act
    let review = server.poll_review(&id).await.pop().unwrap().json;

    // Assert
    let first = &review["moves"][0];
    assert_eq!(
        (
            &first["mark"],
            &first["cell"],
            &first["before"],
            &first["after"]
        ),
        (&json!("X"), &json!(5), &json!("draw"), &json!("draw"))
    );
    let reply = &review["moves"][1];
    assert_eq!(
        (
            &reply["mark"],
            &reply["cell"],
            &reply["before"],
            &reply["after"]
        ),
        (&json!("O"), &json!(2), &json!("draw"), &json!("loss"))
    );
    let kept_it = reply["best_moves"].as_array().unwrap();
    assert!(!kept_it.is_empty());
    assert!(
        kept_it
            .iter()
            .all(|cell| [1, 3, 7, 9].contains(&cell.as_u64().unwrap())),
        "{kept_it:?}"
    );
    assert_eq!(review["moves"][6]["after"], "win");
}

#[tokio::test]
async fn a_review_once_computed_is_kept_and_answered_at_once_after_a_restart() {
    // Arrange
    let server = Server::new();
    let id = won_by_x(&server, "Ada", "Bob").await;
    let computed = server.poll_review(&id).await.pop().unwrap();
    let server = server.restart();

    // Act
    let answer = server.get(&format!("/api/games/{id}/review")).await;

    // Assert
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.text, computed.text);
    let kept = server.store.review(&GameId::parse(&id).unwrap()).unwrap();
    assert_eq!(kept.map(|review| review.moves.len()), Some(5));
}

#[tokio::test]
async fn the_review_of_a_game_in_progress_is_refused_and_nothing_is_kept() {
    // Arrange
    let server = Server::new();
    let game = server.ada_played(5).await;

    // Act
    let answer = server.get(&game.api("/review")).await;

    // Assert
    assert_eq!(answer.status, StatusCode::CONFLICT, "{}", answer.text);
    assert!(answer.json["error"].is_string());
    let kept = server.store.review(&GameId::parse(&game.id).unwrap());
    assert_eq!(kept.unwrap(), None);
}

/// Standard computers whose advisors are counted and think for `pause` per position,
/// so that a review takes long enough for several pages to poll it meanwhile.
struct SlowAdvice {
    computers: StandardComputers,
    advisors: Arc<AtomicUsize>,
    pause: Duration,
}

struct Slow {
    advisor: Box<dyn Advisor>,
    pause: Duration,
}

impl Advisor for Slow {
    fn advise(&mut self, board: &dyn Board, to_move: Mark) -> Option<Analysis> {
        std::thread::sleep(self.pause);
        self.advisor.advise(board, to_move)
    }
}

impl ComputerFactory for SlowAdvice {
    fn computer(&mut self, level: Level) -> Box<dyn MoveChooser> {
        self.computers.computer(level)
    }

    fn advisor(&mut self) -> Box<dyn Advisor> {
        self.advisors.fetch_add(1, Ordering::SeqCst);
        Box::new(Slow {
            advisor: self.computers.advisor(),
            pause: self.pause,
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_pages_polling_one_review_share_a_single_computation() {
    // Arrange: a finished game on a server whose advisor takes 30 ms a position.
    let advisors = Arc::new(AtomicUsize::new(0));
    let computers = SlowAdvice {
        computers: StandardComputers::new(7, Duration::from_secs(5)),
        advisors: Arc::clone(&advisors),
        pause: Duration::from_millis(30),
    };
    let server = Arc::new(Server::with_computers(
        Arc::new(MemoryStore::new()),
        Box::new(computers),
        test_game_limits(),
    ));
    let id = won_by_x(&server, "Ada", "Bob").await;
    let before = advisors.load(Ordering::SeqCst);

    // Act: eight pages poll at once until each has the review.
    let pages: Vec<_> = (0..8)
        .map(|_| {
            let server = Arc::clone(&server);
            let id = id.clone();
            tokio::spawn(async move { server.poll_review(&id).await })
        })
        .collect();
    let mut reviews = Vec::new();
    let mut waited = 0;
    for page in pages {
        let answers = page.await.unwrap();
        waited += answers.len() - 1;
        reviews.push(answers.last().unwrap().text.clone());
    }

    // Assert
    assert!(waited >= 8, "the pages were told to wait: {waited} 202s");
    assert_eq!(
        advisors.load(Ordering::SeqCst) - before,
        1,
        "one computation"
    );
    assert!(reviews.iter().all(|review| *review == reviews[0]));
}

/// Standard computers whose reviews hedge: their advisor's every answer is the real one
/// marked not proven (as on (7,7,5) when time runs out), and so is their patient
/// advisor's unless `patient_proves`. Counts the patient advisors asked for; the
/// patient advisor begins once `gate` is open.
struct Hedging {
    computers: StandardComputers,
    patient_proves: bool,
    patients: Arc<AtomicUsize>,
    gate: Arc<AtomicBool>,
}

/// An advisor that waits until `gate` is open (for ten seconds at most) before each
/// answer.
struct Gated {
    advisor: Box<dyn Advisor>,
    gate: Arc<AtomicBool>,
}

impl Advisor for Gated {
    fn advise(&mut self, board: &dyn Board, to_move: Mark) -> Option<Analysis> {
        let started = Instant::now();
        while !self.gate.load(Ordering::SeqCst) && started.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(1));
        }
        self.advisor.advise(board, to_move)
    }
}

struct Hedged(Box<dyn Advisor>);

impl Advisor for Hedged {
    fn advise(&mut self, board: &dyn Board, to_move: Mark) -> Option<Analysis> {
        let analysis = self.0.advise(board, to_move)?;
        Some(Analysis {
            exact: false,
            moves_proven: false,
            ..analysis
        })
    }
}

impl ComputerFactory for Hedging {
    fn computer(&mut self, level: Level) -> Box<dyn MoveChooser> {
        self.computers.computer(level)
    }

    fn advisor(&mut self) -> Box<dyn Advisor> {
        Box::new(Hedged(self.computers.advisor()))
    }

    fn patient_advisor(&mut self, think: Duration, stop: Arc<AtomicBool>) -> Box<dyn Advisor> {
        self.patients.fetch_add(1, Ordering::SeqCst);
        let patient = self.computers.patient_advisor(think, stop);
        let advisor = if self.patient_proves {
            patient
        } else {
            Box::new(Hedged(patient))
        };
        Box::new(Gated {
            advisor,
            gate: Arc::clone(&self.gate),
        })
    }
}

/// A server on a store of its own whose reviews hedge at first (see [`hedging_server_on`]).
fn hedging_server(patient_proves: bool) -> (Server, Arc<AtomicUsize>, Arc<AtomicBool>) {
    hedging_server_on(&Arc::new(MemoryStore::new()), patient_proves)
}

/// A server on `store` whose reviews hedge at first (see [`Hedging`]); the count of its
/// patient advisors, and their gate.
fn hedging_server_on(
    store: &Arc<MemoryStore>,
    patient_proves: bool,
) -> (Server, Arc<AtomicUsize>, Arc<AtomicBool>) {
    let patients = Arc::new(AtomicUsize::new(0));
    let gate = Arc::new(AtomicBool::new(false));
    let computers = Hedging {
        computers: StandardComputers::new(7, Duration::from_secs(5)),
        patient_proves,
        patients: Arc::clone(&patients),
        gate: Arc::clone(&gate),
    };
    let server = Server::with_computers(Arc::clone(store), Box::new(computers), test_game_limits());
    (server, patients, gate)
}

/// Asks for the review of game `id` until it is exact (for up to ten seconds); the
/// review then, and the one kept then.
async fn until_exact(server: &Server, id: &str) -> (Value, Option<Review>) {
    let started = Instant::now();
    loop {
        let answer = server.get(&format!("/api/games/{id}/review")).await;
        if answer.json["exact"] == true {
            let kept = server.store.review(&GameId::parse(id).unwrap()).unwrap();
            return (answer.json, kept);
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the review was never completed: {}",
            answer.text
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_not_exact_is_answered_as_it_is_and_then_completed_and_kept() {
    // Arrange: a server whose reviews hedge in the usual time, and whose patient
    // advisor proves.
    let (server, patients, gate) = hedging_server(true);
    let id = ada_beats_bobs_edge_reply(&server).await;

    // Act: the completion held back until the first answer is in.
    let first = server.poll_review(&id).await.pop().unwrap();
    let kept_first = server.store.review(&GameId::parse(&id).unwrap()).unwrap();
    gate.store(true, Ordering::SeqCst);
    let (completed, kept) = until_exact(&server, &id).await;

    // Assert: first the honest answer, kept, then the whole one, kept in its place, from
    // one completion.
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert_eq!(first.json["exact"], false);
    assert!(kept_first.is_some_and(|review| !review.exact()));
    assert_eq!(completed["moves"].as_array().unwrap().len(), 7);
    assert_eq!(completed["moves"][1]["after"], "loss");
    assert!(kept.is_some_and(|review| review.exact()));
    assert_eq!(patients.load(Ordering::SeqCst), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_kept_not_exact_by_an_earlier_server_is_completed_when_it_is_asked_for() {
    // Arrange: a server that cannot complete the review kept it not exact, and stopped.
    let store = Arc::new(MemoryStore::new());
    let (earlier, _, earlier_gate) = hedging_server_on(&store, false);
    let id = ada_beats_bobs_edge_reply(&earlier).await;
    earlier.poll_review(&id).await;
    earlier_gate.store(true, Ordering::SeqCst);
    earlier.games.close();
    let kept_before = store.review(&GameId::parse(&id).unwrap()).unwrap();
    let (server, patients, gate) = hedging_server_on(&store, true);

    // Act: the completion held back until the first answer is in.
    let at_once = server.get(&format!("/api/games/{id}/review")).await;
    gate.store(true, Ordering::SeqCst);
    let (completed, kept) = until_exact(&server, &id).await;

    // Assert: the kept review at once, as it was; then completed.
    assert!(kept_before.is_some_and(|review| !review.exact()));
    assert_eq!(at_once.status, StatusCode::OK, "{}", at_once.text);
    assert_eq!(at_once.json["exact"], false);
    assert_eq!(completed["moves"][6]["after"], "win");
    assert!(kept.is_some_and(|review| review.exact()));
    assert_eq!(patients.load(Ordering::SeqCst), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_that_cannot_be_completed_stays_as_it_was_and_is_tried_once_per_run() {
    // Arrange: neither advisor proves anything.
    let (server, patients, gate) = hedging_server(false);
    let id = ada_beats_bobs_edge_reply(&server).await;
    let first = server.poll_review(&id).await.pop().unwrap();
    gate.store(true, Ordering::SeqCst);

    // Act: asked for again, once the completion has begun (on a busy machine it may
    // begin late) and has had time to end.
    let started = Instant::now();
    while patients.load(Ordering::SeqCst) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no completion began"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let again = server.get(&format!("/api/games/{id}/review")).await;

    // Assert: the same honest answer; one completion tried, not one per request.
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.text, first.text);
    assert_eq!(again.json["exact"], false);
    assert_eq!(patients.load(Ordering::SeqCst), 1);
}

// ---- Players' pages ---------------------------------------------------------------

#[tokio::test]
async fn a_players_page_has_their_record_against_each_opponent_and_their_newest_games() {
    // Arrange: Ada beats Bob twice and resigns once against Impossible.
    let server = Server::new();
    let mut games = vec![
        won_by_x(&server, "Ada", "Bob").await,
        resigned(&server, "Ada", "impossible").await,
        won_by_x(&server, "Ada", "Bob").await,
    ];
    won_by_x(&server, "Cy", "Bob").await;

    // Act
    let page = server.get("/api/players/Ada").await;

    // Assert
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    let json = &page.json;
    assert_eq!(json["name"], "Ada");
    assert_eq!(
        (
            &json["wins"],
            &json["losses"],
            &json["ties"],
            &json["games"]
        ),
        (&json!(2), &json!(1), &json!(0), &json!(3))
    );
    assert_eq!(
        json["opponents"],
        json!([
            { "opponent": "Bob", "wins": 2, "losses": 0, "ties": 0, "games": 2 },
            { "opponent": "Computer (Impossible)", "wins": 0, "losses": 1, "ties": 0, "games": 1 }
        ])
    );
    let recent: HashSet<_> = json["recent"]
        .as_array()
        .unwrap()
        .iter()
        .map(|game| game["id"].as_str().unwrap().to_owned())
        .collect();
    games.sort();
    let mut recent: Vec<_> = recent.into_iter().collect();
    recent.sort();
    assert_eq!(recent, games);
}

#[tokio::test]
async fn a_players_page_asked_in_another_case_shows_the_name_as_kept() {
    let server = Server::new();
    won_by_x(&server, "Ada", "Bob").await;

    let page = server.get("/api/players/ADA").await;

    assert_eq!(page.json["name"], "Ada");
    assert_eq!(page.json["games"], 1);
}

#[tokio::test]
async fn a_computer_level_has_a_players_page_of_its_own() {
    let server = Server::new();
    resigned(&server, "Ada", "impossible").await;

    let page = server.get("/api/players/Computer%20(Impossible)").await;

    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert_eq!(page.json["wins"], 1);
    assert_eq!(page.json["opponents"][0]["opponent"], "Ada");
}

#[tokio::test]
async fn a_player_without_a_game_kept_is_not_found() {
    let server = Server::new();

    let page = server.get("/api/players/Nobody").await;

    assert_eq!(page.status, StatusCode::NOT_FOUND);
    assert_eq!(
        page.json["error"],
        "there is no player called Nobody on this server: nobody of that name has \
         finished a game here"
    );
}

// ---- What is refused -----------------------------------------------------------------

/// Each request of the history, a review or a player's page that a new server cannot
/// answer: its status, and the words its error starts with (none where the words are
/// not the point).
#[rstest::rstest]
#[case::a_history_of_no_games("/api/games?limit=0", StatusCode::BAD_REQUEST, "")]
#[case::a_history_of_more_than_a_hundred("/api/games?limit=101", StatusCode::BAD_REQUEST, "")]
#[case::a_limit_not_a_number("/api/games?limit=all", StatusCode::BAD_REQUEST, "")]
#[case::a_cursor_that_is_no_id("/api/games?before=yesterday", StatusCode::BAD_REQUEST, "")]
#[case::an_unknown_parameter("/api/games?page=2", StatusCode::BAD_REQUEST, "")]
#[case::a_cursor_naming_no_kept_game(
    "/api/games?before=0000000000000000000000000000002a",
    StatusCode::NOT_FOUND,
    "before names no game kept"
)]
#[case::the_history_of_an_empty_name(
    "/api/games?player=",
    StatusCode::NOT_FOUND,
    "there is no such player: "
)]
#[case::the_history_of_a_name_with_a_control_character(
    "/api/games?player=Ada%07",
    StatusCode::NOT_FOUND,
    "there is no such player: "
)]
#[case::the_review_of_what_is_no_game_id(
    "/api/games/nonsense/review",
    StatusCode::NOT_FOUND,
    "there is no such game"
)]
#[case::the_review_of_an_id_not_kept(
    "/api/games/0000000000000000000000000000002a/review",
    StatusCode::NOT_FOUND,
    "there is no such game"
)]
#[case::the_page_of_a_control_character(
    "/api/players/Ada%07",
    StatusCode::NOT_FOUND,
    "there is no such player: "
)]
#[case::the_page_of_nothing_visible(
    "/api/players/%E2%80%8B",
    StatusCode::NOT_FOUND,
    "there is no such player: "
)]
#[case::the_page_of_a_name_too_long(
    "/api/players/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    StatusCode::NOT_FOUND,
    "there is no such player: "
)]
#[case::the_page_of_what_is_not_utf8(
    "/api/players/%FF",
    StatusCode::NOT_FOUND,
    "there is no such player: "
)]
#[tokio::test]
async fn a_request_that_cannot_be_answered_is_refused_saying_why(
    #[case] path: &str,
    #[case] status: StatusCode,
    #[case] said: &str,
) {
    let server = Server::new();

    let answer = server.get(path).await;

    assert_eq!(answer.status, status, "{}", answer.text);
    let error = answer.json["error"].as_str().expect("an error in words");
    assert!(error.starts_with(said), "{error}");
}

// ---- What the answers do not tell --------------------------------------------------

#[tokio::test]
async fn no_history_review_or_players_page_tells_a_seats_token_or_lock() {
    // Arrange
    let (server, game) = Server::with_game(two_people()).await;
    let (x, o) = (game.x_token(), game.o_token());
    server.play_in_turn(&game, &[1, 4, 2, 5, 3]).await;
    let locks: Vec<String> = server
        .kept(&game.id)
        .game
        .seats
        .iter()
        .filter_map(|holder| match holder {
            SeatHolder::Guest(lock) | SeatHolder::Invited(lock) => Some(lock.as_str().to_owned()),
            SeatHolder::Local | SeatHolder::Account => None,
        })
        .collect();

    // Act
    let answers = [
        server.get("/api/games").await.text,
        server.poll_review(&game.id).await.pop().unwrap().text,
        server.get("/api/players/Ada").await.text,
    ];

    // Assert
    assert_eq!(locks.len(), 2);
    for answer in answers {
        for secret in [x, o].into_iter().chain(locks.iter().map(String::as_str)) {
            assert!(!answer.contains(secret), "{answer}");
        }
        assert!(
            !answer.contains("token") && !answer.contains("lock"),
            "{answer}"
        );
    }
}
// ---- The pages ----------------------------------------------------------------------

#[rstest::rstest]
#[case::a_players_page("/players/Ada", "/assets/players.js")]
#[case::a_games_page("/games/0000000000000000000000000000002a", "/assets/replay.js")]
#[tokio::test]
async fn the_new_pages_are_served_with_the_policy_and_their_own_script(
    #[case] path: &str,
    #[case] script: &str,
) {
    let server = Server::new();

    let page = server.get(path).await;
    let code = server.get(script).await;

    assert_eq!(page.status, StatusCode::OK);
    let policy = page.headers["content-security-policy"].to_str().unwrap();
    assert!(policy.contains("script-src 'self'"));
    assert!(!policy.contains("unsafe-inline"));
    assert!(page.text.contains(&format!("<script src=\"{script}\"")));
    assert!(!page.text.contains("<script>"), "no inline script");
    assert_eq!(code.status, StatusCode::OK);
    assert_eq!(
        code.headers["content-type"],
        "text/javascript; charset=utf-8"
    );
}
