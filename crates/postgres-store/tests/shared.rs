//! What the PostgreSQL store does beyond the contract every store passes: refusing
//! databases it cannot read, and what servers sharing one database need (races decided
//! by the store, news of each other's writes, pacing). Each test runs on a new database
//! of the test process's own PostgreSQL server, and is skipped (saying so) where
//! PostgreSQL is not installed.

use std::sync::mpsc;
use std::time::{Duration, SystemTime};

use tictactoe_core::domain::{Certainty, Geometry, Mark, Outcome, PlayerName};
use tictactoe_core::fixtures::{new_game, person, settings};
use tictactoe_core::players::{Level, PlayerSpec};
use tictactoe_core::ports::{
    AccountStore, Added, Change, Ending, GameId, GameStore, Heard, NewAccount, NewGame, NewSession,
    News, NewsFeed, Pacing, PasswordHash, PlayerRating, RatingListQuery, RatingStore, SecretLock,
    Step, StoreError, Write,
};
use tictactoe_postgres_store::{Options, PostgresStore};
use tictactoe_test_postgres::database_or_return;

/// A new database's address, or `None` when the test is skipped.
fn database(test: &str) -> Option<String> {
    tictactoe_test_postgres::database_or_skip(test)
}

fn store(url: &str) -> PostgresStore {
    PostgresStore::connect(url, Options::default()).expect("a store")
}

fn sql(url: &str) -> postgres::Client {
    postgres::Client::connect(url, postgres::NoTls).expect("a connection")
}

fn computers(n: u128) -> NewGame {
    new_game(
        n,
        settings(PlayerSpec::Computer(Level::ALL[0]), person("Ada")),
    )
}

fn play(n: u128, number: u32, cell: usize) -> Write {
    Write::Step {
        game: GameId::from_bits(n),
        step: Step {
            number,
            change: Change::Move(Geometry::classic().position(cell).unwrap()),
        },
    }
}

/// The first ten (provisional) ratings on 3 x 3: those the few games here make.
fn classic_ratings(store: &PostgresStore) -> Vec<PlayerRating> {
    store
        .ratings(&RatingListQuery {
            board: Geometry::classic(),
            certainty: Certainty::Provisional,
            top: 10,
        })
        .unwrap()
}

#[test]
fn a_database_of_a_newer_version_is_refused_and_left_as_it_is() {
    let url = database_or_return!();
    drop(store(&url));
    let newer = PostgresStore::SCHEMA_VERSION + 1;
    let count = || -> i64 {
        sql(&url)
            .query_one("SELECT count(*) FROM schema_version", &[])
            .unwrap()
            .get(0)
    };
    let versions_known = count();
    sql(&url)
        .execute(
            "INSERT INTO schema_version (version, applied_at) VALUES ($1, 0)",
            &[&newer],
        )
        .unwrap();

    let opened = PostgresStore::connect(&url, Options::default());

    assert!(
        matches!(opened, Err(StoreError::Newer { found, .. }) if found == newer),
        "{:?}",
        opened.err()
    );
    // The versions it knows, and the newer one: nothing added, nothing taken away.
    assert_eq!(count(), versions_known + 1);
}

#[test]
fn another_programs_database_is_refused_and_left_as_it_is() {
    let url = database_or_return!();
    sql(&url)
        .batch_execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
        .unwrap();

    let opened = PostgresStore::connect(&url, Options::default());

    assert!(
        matches!(opened, Err(StoreError::Unreadable { .. })),
        "{:?}",
        opened.err()
    );
    let tables: i64 = sql(&url)
        .query_one(
            "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(tables, 1, "only the other program's table");
}

#[test]
fn an_unreachable_server_is_unavailable_and_named_without_its_password() {
    let options = Options {
        connect_timeout: Duration::from_millis(500),
        ..Options::default()
    };

    let opened = PostgresStore::connect("postgres://ada:secret@127.0.0.1:1/games", options);

    match opened {
        Err(StoreError::Unavailable { database, .. }) => {
            assert_eq!(database, "postgres://ada@127.0.0.1:1/games");
        }
        other => panic!("{:?}", other.err()),
    }
}

#[test]
fn two_servers_writing_one_new_step_at_once_one_keeps_it_the_other_conflicts() {
    let url = database_or_return!();
    let (first, second) = (store(&url), store(&url));
    first.write(&[Write::Begin(computers(1))]).unwrap();

    let results: Vec<Result<(), StoreError>> = std::thread::scope(|scope| {
        let a = scope.spawn(|| first.write_new(&[play(1, 1, 4)]));
        let b = scope.spawn(|| second.write_new(&[play(1, 1, 4)]));
        vec![a.join().unwrap(), b.join().unwrap()]
    });

    assert_eq!(results.iter().filter(|result| result.is_ok()).count(), 1);
    assert_eq!(
        results
            .iter()
            .filter(|result| matches!(result, Err(StoreError::Conflict { .. })))
            .count(),
        1,
        "{results:?}"
    );
    assert_eq!(
        first
            .game(&GameId::from_bits(1))
            .unwrap()
            .unwrap()
            .steps
            .len(),
        1
    );
}

#[test]
fn one_servers_writes_are_heard_by_another_and_not_by_itself() {
    let url = database_or_return!();
    let (writer, listener) = (store(&url), store(&url));
    let (to_listener, heard_by_listener) = mpsc::channel();
    let (to_writer, heard_by_writer) = mpsc::channel();
    let _listening = listener
        .follow(Box::new(move |heard: Heard| {
            let _ = to_listener.send(heard);
        }))
        .unwrap();
    let _own = writer
        .follow(Box::new(move |heard: Heard| {
            let _ = to_writer.send(heard);
        }))
        .unwrap();
    let ending = Ending::Finished(Outcome::Won(Mark::X));

    writer
        .write(&[
            Write::Begin(computers(1)),
            play(1, 1, 4),
            Write::End {
                game: GameId::from_bits(1),
                ending,
            },
        ])
        .unwrap();

    let heard = heard_by_listener
        .recv_timeout(Duration::from_secs(5))
        .expect("news within 5 s");
    assert_eq!(
        heard,
        Heard::News(vec![
            News::Begin(computers(1)),
            News::Step {
                game: GameId::from_bits(1),
                step: Step {
                    number: 1,
                    change: Change::Move(Geometry::classic().position(4).unwrap()),
                },
            },
            News::End {
                game: GameId::from_bits(1),
                ending,
            },
        ])
    );
    assert!(
        heard_by_writer
            .recv_timeout(Duration::from_millis(500))
            .is_err(),
        "a server does not hear its own writes"
    );
}

/// What another server hears when one keeps `write` to game 1, Ada (X) against Bob
/// (O) with one move in: `None` without PostgreSQL.
fn heard_by_another(test: &str, write: &Write) -> Option<Heard> {
    let url = database(test)?;
    let (writer, listener) = (store(&url), store(&url));
    let ada_bob = new_game(1, settings(person("Ada"), person("Bob")));
    writer
        .write(&[Write::Begin(ada_bob), play(1, 1, 4)])
        .unwrap();
    let (to_listener, heard_by_listener) = mpsc::channel();
    let _listening = listener
        .follow(Box::new(move |heard: Heard| {
            let _ = to_listener.send(heard);
        }))
        .unwrap();
    writer.write(std::slice::from_ref(write)).unwrap();
    Some(
        heard_by_listener
            .recv_timeout(Duration::from_secs(5))
            .expect("news within 5 s"),
    )
}

#[test]
fn a_name_one_server_keeps_is_heard_by_another() {
    // Arrange: Bob (O) has not moved.
    let renamed = Write::Name {
        game: GameId::from_bits(1),
        mark: Mark::O,
        name: PlayerName::new("Cy").unwrap(),
    };

    // Act
    let heard = heard_by_another("a_name_one_server_keeps_is_heard_by_another", &renamed);

    // Assert
    if let Some(heard) = heard {
        assert_eq!(heard, Heard::News(vec![renamed]));
    }
}

#[test]
fn a_game_one_server_makes_casual_is_heard_casual_by_another() {
    let casual = Write::Casual {
        game: GameId::from_bits(1),
    };

    let heard = heard_by_another(
        "a_game_one_server_makes_casual_is_heard_casual_by_another",
        &casual,
    );

    if let Some(heard) = heard {
        assert_eq!(heard, Heard::News(vec![casual]));
    }
}

#[test]
fn a_game_held_by_one_server_is_taken_by_another_once_its_hold_runs_out() {
    let url = database_or_return!();
    let (first, second) = (store(&url), store(&url));
    first.write(&[Write::Begin(computers(1))]).unwrap();
    let hold = Duration::from_millis(300);

    let first_holds = first.pace(&GameId::from_bits(1), hold).unwrap();
    let second_meanwhile = second.pace(&GameId::from_bits(1), hold).unwrap();
    let unpaced_meanwhile = second.unpaced(10).unwrap();
    std::thread::sleep(hold + Duration::from_millis(100));
    let unpaced_after = second.unpaced(10).unwrap();
    let second_after = second.pace(&GameId::from_bits(1), hold).unwrap();

    assert!(first_holds);
    assert!(!second_meanwhile, "held by the first");
    assert!(unpaced_meanwhile.is_empty());
    assert_eq!(unpaced_after, vec![GameId::from_bits(1)]);
    assert!(second_after, "taken over");
    assert!(
        !first.pace(&GameId::from_bits(1), hold).unwrap(),
        "now the second's"
    );
}

#[test]
fn a_step_numbered_past_any_step_by_hand_makes_the_next_write_unreadable_not_a_panic() {
    let url = database_or_return!();
    let store = store(&url);
    store
        .write(&[Write::Begin(computers(1)), play(1, 1, 4)])
        .unwrap();
    sql(&url)
        .execute(
            "UPDATE steps SET number = $1 WHERE number = 1",
            &[&i64::MAX],
        )
        .unwrap();

    let result = store.write(&[play(1, 2, 0)]);

    assert!(
        matches!(&result, Err(StoreError::Unreadable { detail, .. })
            if detail.contains(GameId::from_bits(1).as_str())),
        "{result:?}"
    );
}

#[test]
fn a_game_never_begun_cannot_be_paced() {
    let url = database_or_return!();
    let store = store(&url);

    let paced = store.pace(&GameId::from_bits(9), Duration::from_secs(1));

    assert!(matches!(paced, Err(StoreError::NoSuchGame(_))), "{paced:?}");
}

#[test]
fn a_follower_whose_connection_was_lost_hears_that_it_may_have_missed_news() {
    let url = database_or_return!();
    let listener = store(&url);
    let (to_listener, heard) = mpsc::channel();
    let _listening = listener
        .follow(Box::new(move |heard: Heard| {
            let _ = to_listener.send(heard);
        }))
        .unwrap();

    let ended: i64 = sql(&url)
        .query_one(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
             WHERE datname = current_database() AND query = 'LISTEN tictactoe_news'",
            &[],
        )
        .unwrap()
        .get(0);

    assert_eq!(ended, 1, "the follower's connection");
    assert_eq!(
        heard.recv_timeout(Duration::from_secs(10)),
        Ok(Heard::Missed)
    );
}

#[test]
fn a_database_that_takes_no_writes_is_read_only_before_anything_is_written() {
    let url = database_or_return!();
    // Arrange: the store's tables made, then the database set to take no writes.
    drop(store(&url));
    let name = url.rsplit('/').next().unwrap().to_string();
    sql(&url)
        .batch_execute(&format!(
            "ALTER DATABASE \"{name}\" SET default_transaction_read_only = on"
        ))
        .unwrap();
    let store = store(&url);

    // Act
    let checked = store.check_writable();
    let written = store.write(&[Write::Begin(computers(1))]);

    // Assert
    assert!(
        matches!(checked, Err(StoreError::ReadOnly { .. })),
        "{checked:?}"
    );
    assert!(
        matches!(written, Err(StoreError::ReadOnly { .. })),
        "{written:?}"
    );
}

#[test]
fn a_database_that_takes_writes_passes_the_check() {
    let url = database_or_return!();

    let checked = store(&url).check_writable();

    assert!(checked.is_ok(), "{checked:?}");
}

/// Game `n` of Ada against Computer (Random), begun, played to a win for X, and ended.
fn a_computer_game_won(n: u128) -> Vec<Write> {
    let mut writes = vec![Write::Begin(computers(n))];
    for (number, cell) in [(1, 0), (2, 3), (3, 1), (4, 4), (5, 2)] {
        writes.push(play(n, number, cell));
    }
    writes.push(Write::End {
        game: GameId::from_bits(n),
        ending: Ending::Finished(Outcome::Won(Mark::X)),
    });
    writes
}

#[test]
fn an_ending_is_kept_at_once_while_another_session_holds_the_computers_scoreboard_row() {
    let url = database_or_return!();
    // Arrange: the computer's rows on the scoreboard and against Ada, folded, then held
    // by a session that stopped in the middle of its transaction.
    let store = store(&url);
    store.write_new(&a_computer_game_won(1)).unwrap();
    store.fold_additions().unwrap();
    let mut frozen = sql(&url);
    let mut holding = frozen.transaction().unwrap();
    let held = holding
        .execute("SELECT * FROM tallies FOR UPDATE", &[])
        .unwrap()
        + holding
            .execute("SELECT * FROM rivalries FOR UPDATE", &[])
            .unwrap();

    // Act
    let started = std::time::Instant::now();
    let kept = store.write_new(&a_computer_game_won(2));
    let took = started.elapsed();
    let board = store.scoreboard(None).unwrap();

    // Assert: kept without waiting for the held rows, and counted.
    assert_eq!(held, 4);
    assert!(kept.is_ok(), "{kept:?}");
    assert!(took < Duration::from_millis(500), "{took:?}");
    let computer = &board.standings()[0];
    assert_eq!(
        (computer.name.as_str(), computer.record.wins),
        ("Computer (Random)", 2)
    );
    holding.rollback().unwrap();
}

#[test]
fn the_scoreboard_and_a_players_opponents_read_the_same_before_and_after_folding() {
    let url = database_or_return!();
    // Arrange: games whose additions are partly folded, partly not.
    let store = store(&url);
    for n in 1..=6 {
        store.write_new(&a_computer_game_won(n)).unwrap();
        if n == 3 {
            store.fold_additions().unwrap();
        }
    }
    let ada = tictactoe_core::domain::PlayerName::new("Ada").unwrap();
    let before = (
        store.scoreboard(None).unwrap(),
        store.scoreboard(Some(1)).unwrap(),
        store.standings_of(std::slice::from_ref(&ada)).unwrap(),
        tictactoe_core::ports::GameHistory::opponents(&store, &ada, 10).unwrap(),
    );

    // Act
    store.fold_additions().unwrap();

    // Assert
    let after = (
        store.scoreboard(None).unwrap(),
        store.scoreboard(Some(1)).unwrap(),
        store.standings_of(std::slice::from_ref(&ada)).unwrap(),
        tictactoe_core::ports::GameHistory::opponents(&store, &ada, 10).unwrap(),
    );
    assert_eq!(before, after);
    assert_eq!(before.0.standings().len(), 2);
    assert_eq!(before.0.standings()[0].record.wins, 6);
    let left: i64 = sql(&url)
        .query_one(
            "SELECT (SELECT count(*) FROM tally_additions) + (SELECT count(*) FROM rivalry_additions)",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(left, 0);
}

#[test]
fn a_pooled_connection_the_database_ended_is_replaced_before_its_call() {
    let url = database_or_return!();
    // Arrange: the store's eight pooled connections opened, then every one of them
    // ended by the database (as a restart ends them: "terminating connection due to
    // administrator command"); only this database's, not those of the tests running
    // beside it on the same server.
    let store = store(&url);
    store.write_new(&a_computer_game_won(1)).unwrap();
    std::thread::scope(|threads| {
        for _ in 0..8 {
            threads.spawn(|| {
                let _ = store.scoreboard(None);
            });
        }
    });
    let ended: i64 = sql(&url)
        .query_one(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
             WHERE application_name = 'tictactoe' AND pid <> pg_backend_pid() \
             AND datname = current_database()",
            &[],
        )
        .unwrap()
        .get(0);
    std::thread::sleep(Duration::from_millis(100));

    // Act
    let checked = store.checkup();
    let read = store.game(&GameId::from_bits(1));
    let written = store.write_new(&a_computer_game_won(2));
    let board = store.scoreboard(None);

    // Assert: no call failed.
    assert!(ended >= 2, "{ended} sessions ended");
    assert!(checked.is_ok(), "{checked:?}");
    assert!(matches!(read, Ok(Some(_))), "{read:?}");
    assert!(written.is_ok(), "{written:?}");
    assert!(board.is_ok(), "{board:?}");
}

/// Game `n` of `x` against `o`, begun and played to X's winning move, not yet ended.
fn a_game_to_its_last_move(n: u128, x: PlayerSpec, o: PlayerSpec) -> Vec<Write> {
    let mut writes = vec![Write::Begin(new_game(n, settings(x, o)))];
    for (number, cell) in [(1, 0), (2, 3), (3, 1), (4, 4), (5, 2)] {
        writes.push(play(n, number, cell));
    }
    writes
}

fn won_by_x(n: u128) -> Write {
    Write::End {
        game: GameId::from_bits(n),
        ending: Ending::Finished(Outcome::Won(Mark::X)),
    }
}

#[test]
fn a_rating_end_waits_only_for_the_people_it_rates() {
    let url = database_or_return!();
    // Arrange: four games at their last move, two of them Ada's; a trigger that holds
    // the end of a game of Ada's inside its transaction for 2 s once it has rated her
    // (as a server that stopped there would), its locks taken.
    let store = store(&url);
    let medium = PlayerSpec::Computer(Level::ALL[2]);
    for (n, x, o) in [
        (1, person("Ada"), person("Bob")),
        (2, person("Cy"), person("Dee")),
        (3, person("Eve"), medium),
        (4, person("Fay"), person("Ada")),
    ] {
        store.write_new(&a_game_to_its_last_move(n, x, o)).unwrap();
    }
    let ada = PlayerName::new("Ada").unwrap();
    sql(&url)
        .batch_execute(&format!(
            "CREATE FUNCTION stop_at_ada() RETURNS trigger AS $$ BEGIN \
             IF NEW.key = '{}' THEN PERFORM pg_sleep(2); END IF; RETURN NEW; END $$ \
             LANGUAGE plpgsql; \
             CREATE TRIGGER stop_at_ada BEFORE INSERT ON rating_changes \
             FOR EACH ROW EXECUTE FUNCTION stop_at_ada();",
            ada.key()
        ))
        .unwrap();
    let (class, adas_lock) = tictactoe_postgres_store::person_lock(Geometry::classic(), &ada);
    let stopped = std::thread::spawn({
        let store = PostgresStore::connect(&url, Options::default()).unwrap();
        move || store.write_new(&[won_by_x(1)])
    });
    let mut watching = sql(&url);
    while watching
        .query(
            "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted \
             AND classid::bigint = $1::int::bigint & 4294967295 \
             AND objid::bigint = $2::int::bigint & 4294967295 AND objsubid = 2",
            &[&class, &adas_lock],
        )
        .unwrap()
        .is_empty()
    {
        std::thread::sleep(Duration::from_millis(10));
    }

    // Act: while the end of game 1 holds Ada's lock, the ends of games of others, and of
    // Ada's other game; then Ada's other game again once game 1 has ended.
    let started = std::time::Instant::now();
    let others = store.write_new(&[won_by_x(2)]);
    let with_a_level = store.write_new(&[won_by_x(3)]);
    let took = started.elapsed();
    let adas_while_held = store.write_new(&[won_by_x(4)]);
    let first = stopped.join().unwrap();
    let adas_after = store.write_new(&[won_by_x(4)]);
    sql(&url)
        .batch_execute("DROP TRIGGER stop_at_ada ON rating_changes")
        .unwrap();
    let ratings = classic_ratings(&store);
    let rebuilt = store.rebuild_ratings().unwrap();

    // Assert: the games of other people were rated without waiting for Ada's; her other
    // game waited for her lock, gave up after lock_timeout (1 s), and was rated once
    // game 1 had ended; a rebuild, rating the games in their numbers' order (game 1's
    // number taken first, committed last), gives the same figures to the last bit.
    assert!(others.is_ok(), "{others:?}");
    assert!(with_a_level.is_ok(), "{with_a_level:?}");
    assert!(took < Duration::from_millis(500), "{took:?}");
    assert!(adas_while_held.is_err(), "{adas_while_held:?}");
    assert!(first.is_ok(), "{first:?}");
    assert!(adas_after.is_ok(), "{adas_after:?}");
    let games: Vec<(&str, u64)> = ratings
        .iter()
        .map(|rating| (rating.name.as_str(), rating.games))
        .collect();
    for (name, played) in [
        ("Ada", 2),
        ("Bob", 1),
        ("Cy", 1),
        ("Dee", 1),
        ("Eve", 1),
        ("Fay", 1),
    ] {
        assert!(games.contains(&(name, played)), "{name}: {games:?}");
    }
    assert_eq!(rebuilt.games, 4);
    assert_eq!(classic_ratings(&store), ratings);
}

#[test]
fn a_rebuild_rates_games_kept_before_ratings_first_and_a_second_rebuild_changes_nothing() {
    let url = database_or_return!();
    // Arrange: three of Ada's games ended and rated; the third's number taken away, as
    // a game kept before ratings has none.
    let store = store(&url);
    for (n, o) in [(1, "Bob"), (2, "Cy"), (3, "Dee")] {
        let mut writes = a_game_to_its_last_move(n, person("Ada"), person(o));
        writes.push(won_by_x(n));
        store.write_new(&writes).unwrap();
    }
    let mut client = sql(&url);
    let third = GameId::from_bits(3).to_string();
    client
        .execute(
            "UPDATE games SET rated_number = NULL WHERE id = $1",
            &[&third],
        )
        .unwrap();
    let order = |client: &mut postgres::Client| -> Vec<String> {
        client
            .query(
                "SELECT id FROM games WHERE rated_number IS NOT NULL ORDER BY rated_number",
                &[],
            )
            .unwrap()
            .iter()
            .map(|row| row.get(0))
            .collect()
    };

    // Act
    let first = store.rebuild_ratings().unwrap();
    let ratings = classic_ratings(&store);
    let numbered = order(&mut client);
    let second = store.rebuild_ratings().unwrap();

    // Assert: the game without a number was rated first and numbered so; the second
    // rebuild read the same order and gave the same figures to the last bit.
    assert_eq!((first.games, second.games), (3, 3));
    let ids: Vec<String> = [3, 1, 2].map(|n| GameId::from_bits(n).to_string()).to_vec();
    assert_eq!(numbered, ids);
    assert_eq!(order(&mut client), ids);
    assert_eq!(classic_ratings(&store), ratings);
}

/// Ada's account as signed up, with a password's hash (the store only keeps it).
fn adas_account(name: &str) -> NewAccount {
    NewAccount {
        name: PlayerName::new(name).unwrap(),
        password: PasswordHash::parse("$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA").unwrap(),
    }
}

#[test]
fn a_session_opened_on_one_server_opens_the_account_on_another() {
    let url = database_or_return!();
    // Arrange: Ada signs up and in on the first server.
    let (first, second) = (store(&url), store(&url));
    first.add_account(&adas_account("Ada")).unwrap();
    let lock = SecretLock::parse(&"ab".repeat(32)).unwrap();
    let now = SystemTime::now();
    let opened = first.open_session(&NewSession {
        lock: lock.clone(),
        account: PlayerName::new("Ada").unwrap(),
        expires: now + Duration::from_secs(3_600),
    });

    // Act
    let on_the_second = second.session(&lock, now);

    // Assert
    assert_eq!(opened, Ok(true));
    assert_eq!(on_the_second, Ok(Some(PlayerName::new("Ada").unwrap())));
}

#[test]
fn two_servers_adding_look_alike_names_at_once_add_exactly_one() {
    let url = database_or_return!();
    let (first, second) = (store(&url), store(&url));
    let start = std::sync::Barrier::new(2);

    // Act: Ada on one, Аda (a Cyrillic А) on the other, let go at once.
    let answers = std::thread::scope(|scope| {
        let adding = [(&first, "Ada"), (&second, "\u{410}da")].map(|(store, name)| {
            let start = &start;
            scope.spawn(move || {
                start.wait();
                store.add_account(&adas_account(name))
            })
        });
        adding.map(|thread| thread.join().unwrap())
    });

    // Assert: one added, the other told who has the name.
    let added = answers
        .iter()
        .filter(|answer| **answer == Ok(Added::Added))
        .count();
    let taken = answers
        .iter()
        .filter(|answer| matches!(answer, Ok(Added::Taken { .. })))
        .count();
    assert_eq!((added, taken), (1, 1), "{answers:?}");
    assert_eq!(first.accounts(SystemTime::now()).unwrap().len(), 1);
}

#[test]
fn an_account_whose_password_was_edited_into_no_hash_is_unreadable_not_a_panic() {
    let url = database_or_return!();
    let store = store(&url);
    store.add_account(&adas_account("Ada")).unwrap();
    sql(&url)
        .execute("UPDATE accounts SET password = 'hunter2'", &[])
        .unwrap();

    let read = store.account(&PlayerName::new("Ada").unwrap());

    assert!(
        matches!(&read, Err(StoreError::Unreadable { detail, .. }) if detail.contains("password")),
        "{read:?}"
    );
}
