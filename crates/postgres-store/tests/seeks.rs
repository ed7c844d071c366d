//! Seeks taken by servers sharing one database: two servers (each its own store on the
//! same database) taking the same seek at once never both take it. Each test runs on a
//! new database of the test process's own PostgreSQL server, and is skipped (saying
//! so) where PostgreSQL is not installed.

use std::sync::{Arc, Barrier};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tictactoe_core::domain::{Geometry, Mark, PlayerName, TimeControl};
use tictactoe_core::ports::{GameId, NewSeek, SeatHolder, SeekId, SeekKind, SeekStore};
use tictactoe_postgres_store::{Options, PostgresStore};
use tictactoe_test_postgres::database_or_return;

/// How many times two servers race for seeks: each race is one chance to both win.
const RACES: u128 = 30;

fn store(url: &str) -> PostgresStore {
    PostgresStore::connect(url, Options::default()).expect("a store")
}

fn moment(ms: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(1_700_000_000_000 + ms)
}

/// Seek `n`, in the pool, of an account of its own.
fn seek(n: u128) -> NewSeek {
    NewSeek {
        id: SeekId::from_bits(n),
        kind: SeekKind::Pool,
        owner: PlayerName::new(&format!("Player {n}")).expect("a name"),
        holder: SeatHolder::Account,
        board: Geometry::classic(),
        control: TimeControl::per_move(Duration::from_secs(30)).expect("a time control"),
        rated: true,
        rating: 1500,
        at: moment(n as u64),
    }
}

/// Two servers, each taking its seeks into a game of its own at the same moment (as
/// near as two threads can): whether each took them.
fn race(
    servers: &[Arc<PostgresStore>; 2],
    taking: [Vec<(SeekId, Mark)>; 2],
    games: [GameId; 2],
) -> [bool; 2] {
    let start = Arc::new(Barrier::new(2));
    let takers: Vec<_> = (0..2)
        .map(|at| {
            let (server, start) = (Arc::clone(&servers[at]), Arc::clone(&start));
            let (taking, game) = (taking[at].clone(), games[at].clone());
            std::thread::spawn(move || {
                start.wait();
                server
                    .take_seeks(&taking, &game, moment(1_000))
                    .expect("an answer")
            })
        })
        .collect();
    let mut took = takers
        .into_iter()
        .map(|taker| taker.join().expect("a taker"));
    [took.next().unwrap(), took.next().unwrap()]
}

#[test]
fn two_servers_taking_the_same_seek_at_once_never_both_take_it() {
    let url = database_or_return!();
    // Arrange
    let servers = [Arc::new(store(&url)), Arc::new(store(&url))];
    for n in 1..=RACES {
        servers[0].open_seek(&seek(n)).unwrap();
    }

    for n in 1..=RACES {
        // Act
        let (first, second) = (GameId::from_bits(2 * n), GameId::from_bits(2 * n + 1));
        let took = race(
            &servers,
            [
                vec![(SeekId::from_bits(n), Mark::X)],
                vec![(SeekId::from_bits(n), Mark::O)],
            ],
            [first.clone(), second.clone()],
        );

        // Assert: one took it, into its own game.
        let winner = match took {
            [true, false] => first,
            [false, true] => second,
            both_or_neither => panic!("race {n}: {both_or_neither:?}"),
        };
        let kept = servers[1].seek(&SeekId::from_bits(n)).unwrap().unwrap();
        assert_eq!(kept.taken.map(|taken| taken.game), Some(winner));
    }
}

#[test]
fn two_servers_taking_seeks_that_overlap_at_once_never_both_take_them_and_the_loser_takes_none() {
    let url = database_or_return!();
    // Arrange: three seeks a race; one server takes the first two, the other the last
    // two (the seek in the middle is both's).
    let servers = [Arc::new(store(&url)), Arc::new(store(&url))];
    for n in 1..=3 * RACES {
        servers[0].open_seek(&seek(n)).unwrap();
    }

    for race_number in 0..RACES {
        // Act
        let [a, b, c] = [1, 2, 3].map(|at| SeekId::from_bits(3 * race_number + at));
        let took = race(
            &servers,
            [
                vec![(a.clone(), Mark::X), (b.clone(), Mark::O)],
                vec![(c.clone(), Mark::X), (b.clone(), Mark::O)],
            ],
            [
                GameId::from_bits(2 * race_number + 1),
                GameId::from_bits(2 * race_number + 2),
            ],
        );

        // Assert: exactly one took its two (the first to lock the middle seek); the
        // other's own seek is still open.
        let loser_alone = match took {
            [true, false] => &c,
            [false, true] => &a,
            both_or_neither => panic!("race {race_number}: {both_or_neither:?}"),
        };
        let kept = servers[1].seek(loser_alone).unwrap().unwrap();
        assert!(kept.is_open(), "race {race_number}: {kept:?}");
    }
}
