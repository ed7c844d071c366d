//! The words the SQL stores keep, pinned. Databases out there hold these words: they are
//! a persistent format, as the schema is. So every word is written out here, as it is
//! stored, and each store must write exactly it and read it back as its value. A word
//! changed in `tictactoe_store_rows::words` fails these tests; it is then a new format,
//! which needs a migration for the databases that hold the old word, never a silent
//! change.
//!
//! The words are checked at the database, as a person at a SQL prompt sees them: the
//! games a store wrote are read with plain SQL, and words written with plain SQL are
//! read through the store.

use std::time::{Duration, UNIX_EPOCH};
use tempfile::TempDir;

use tictactoe_core::domain::{
    FIRST_MOVE_WITHIN, GameClock, Geometry, Known, Mark, PlayerName, TimeControl,
};
use tictactoe_core::fixtures::{new_game, person};
use tictactoe_core::play::{MoveReview, Replay, Review, Seating, Settings};
use tictactoe_core::players::{Level, PlayerSpec};
use tictactoe_core::ports::{
    Archive, Change, Ending, GameId, NewGame, NewSeek, SeatHolder, SecretLock, SeekId, SeekKind,
    Step, StoreError, Write,
};
use tictactoe_sqlite_store::SqliteStore;
use tictactoe_store_rows::words;

/// Every word a store writes, by what it is the word of, in the order of the core's
/// lists of those values (`PlayerSpec`'s kinds, `Level::ALL`, `Mark::ALL`,
/// `Seating::ALL`, `SeatHolder`'s variants, `Ending::ALL`'s results, then how a clock
/// ended a game, `Known::ALL`, `SeekKind`'s and `TimeControl`'s variants). Never edit
/// a word here without a migration: see the module documentation.
const PINNED: [(&str, &[&str]); 10] = [
    ("kind", &["human", "computer"]),
    ("level", &["random", "easy", "medium", "impossible"]),
    ("mark", &["X", "O"]),
    ("seating", &["together", "apart"]),
    ("holder", &["local", "guest", "invited", "account"]),
    (
        "ending",
        &[
            "draw",
            "X won",
            "O won",
            "X resigned",
            "O resigned",
            "X abandoned",
            "O abandoned",
        ],
    ),
    (
        "clock end",
        &["X timeout", "O timeout", "X aborted", "O aborted"],
    ),
    (
        "known",
        &[
            "win",
            "draw",
            "loss",
            "at_least_draw",
            "at_most_draw",
            "unknown",
        ],
    ),
    ("seek kind", &["lobby", "pool"]),
    ("control", &["increment", "per move"]),
];

/// The pinned words of `kind`.
fn pinned(kind: &str) -> &'static [&'static str] {
    PINNED
        .iter()
        .find(|(pinned, _)| *pinned == kind)
        .map(|(_, words)| *words)
        .unwrap_or_else(|| panic!("no words of {kind}"))
}

#[test]
fn the_stores_vocabulary_is_the_pinned_words() {
    let vocabulary = words::vocabulary();

    let pinned: Vec<(&str, Vec<&str>)> = PINNED
        .iter()
        .map(|(kind, words)| (*kind, words.to_vec()))
        .collect();
    assert_eq!(vocabulary, pinned);
}

// The games that use every word: game `n` (0 to 12) is a computer of level `n % 4` (X)
// against a person (O; unnamed in the even games), with `n % 2` of the marks first and
// of the seatings, ended by the `n`th ending. Game 3 is reviewed, its three moves' six
// values the six `Known`s. The games ended by the clock (7 to 12) are played on one,
// by the `n % 2`th time control.

const GAMES: usize = 13;
const REVIEWED: usize = 3;

/// The first game ended by the clock (`Ending::ALL`'s time-outs and aborts follow the
/// other endings).
const TIMED: usize = 7;

/// Game `n`'s clock: none before [`TIMED`], then a control of each kind in turn.
fn clock(n: usize) -> Option<GameClock> {
    let control = [
        TimeControl::increment(Duration::from_secs(180), Duration::from_secs(2)),
        TimeControl::per_move(Duration::from_secs(30)),
    ][n % 2]
        .clone()
        .expect("a control");
    let at = UNIX_EPOCH + Duration::from_secs(1_800_000_000);
    (n >= TIMED).then(|| GameClock::start(control, FIRST_MOVE_WITHIN, Mark::ALL[n % 2], at))
}

fn game(n: usize) -> NewGame {
    let o = if n.is_multiple_of(2) {
        PlayerSpec::Human(None)
    } else {
        person(&format!("Player {n}"))
    };
    let settings = Settings::new(
        PlayerSpec::Computer(Level::ALL[n % 4]),
        o,
        Mark::ALL[n % 2],
        Geometry::classic(),
    )
    .expect("a computer and a person");
    NewGame {
        seating: Seating::ALL[n % 2],
        clock: clock(n),
        ..new_game(n as u128 + 1, settings)
    }
}

fn id(n: usize) -> GameId {
    game(n).id
}

/// Each game begun, three moves played (cells 1, 2, 3), and ended; then game
/// [`REVIEWED`]'s review.
fn write_every_word(store: &dyn Archive) {
    for n in 0..GAMES {
        let mut writes = vec![Write::Begin(game(n))];
        // Three moves stand on no board's end: only the reviewed game (a resignation)
        // needs them to be a game, and the others' endings are not checked on writing.
        for (number, index) in [(1, 0), (2, 1), (3, 2)] {
            writes.push(Write::Step {
                game: id(n),
                step: Step {
                    number,
                    change: Change::Move(Geometry::classic().position(index).expect("a cell")),
                },
            });
        }
        writes.push(Write::End {
            game: id(n),
            ending: Ending::ALL[n],
        });
        store.write(&writes).expect("the game is kept");
    }
    store
        .keep_review(&id(REVIEWED), &review(store))
        .expect("the review is kept");
}

/// The review of game [`REVIEWED`]: its moves as played, valued by `Known::ALL` in
/// turn (move 1 before and after, then move 2's, then move 3's).
fn review(store: &dyn Archive) -> Review {
    let kept = store.game(&id(REVIEWED)).unwrap().expect("the game");
    let replay = Replay::of(&kept).expect("a game");
    Review {
        moves: replay
            .moves()
            .iter()
            .enumerate()
            .map(|(index, played)| MoveReview {
                ply: played.ply,
                mark: played.mark,
                cell: played.cell,
                before: Known::ALL[2 * index],
                after: Known::ALL[2 * index + 1],
                best_moves: Vec::new(),
            })
            .collect(),
    }
}

/// A database as a person at a SQL prompt has it: text in, text out. Parameters are
/// numbered `$1`, `$2`, ... (SQLite reads them as names, in that order).
trait ByHand {
    fn execute(&mut self, sql: &str, params: &[&str]);
    /// The rows `sql` selects, each column as text (or NULL).
    fn rows(&mut self, sql: &str, params: &[&str]) -> Vec<Vec<Option<String>>>;
}

impl ByHand for rusqlite::Connection {
    fn execute(&mut self, sql: &str, params: &[&str]) {
        rusqlite::Connection::execute(self, sql, rusqlite::params_from_iter(params))
            .expect("the statement");
    }

    fn rows(&mut self, sql: &str, params: &[&str]) -> Vec<Vec<Option<String>>> {
        let mut query = self.prepare(sql).expect("the query");
        let columns = query.column_count();
        query
            .query_map(rusqlite::params_from_iter(params), |row| {
                (0..columns).map(|at| row.get(at)).collect()
            })
            .expect("the rows")
            .collect::<rusqlite::Result<_>>()
            .expect("text columns")
    }
}

impl ByHand for postgres::Client {
    fn execute(&mut self, sql: &str, params: &[&str]) {
        let params: Vec<&(dyn postgres::types::ToSql + Sync)> =
            params.iter().map(|param| param as _).collect();
        postgres::Client::execute(self, sql, &params).expect("the statement");
    }

    fn rows(&mut self, sql: &str, params: &[&str]) -> Vec<Vec<Option<String>>> {
        let params: Vec<&(dyn postgres::types::ToSql + Sync)> =
            params.iter().map(|param| param as _).collect();
        self.query(sql, &params)
            .expect("the rows")
            .iter()
            .map(|row| (0..row.len()).map(|at| row.get(at)).collect())
            .collect()
    }
}

/// A store, a plain connection to its database, and what they need kept alive.
struct Database {
    store: Box<dyn Archive>,
    by_hand: Box<dyn ByHand>,
    _folder: Option<TempDir>,
}

fn sqlite() -> Database {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let path = folder.path().join("games.sqlite3");
    let store = SqliteStore::open(&path).expect("a new store");
    Database {
        store: Box::new(store),
        by_hand: Box::new(rusqlite::Connection::open(&path).expect("a connection")),
        _folder: Some(folder),
    }
}

#[cfg(postgres)]
fn postgres() -> Database {
    use tictactoe_postgres_store::{Options, PostgresStore};
    let cluster = tictactoe_test_postgres::Cluster::shared().unwrap_or_else(|why| panic!("{why}"));
    let url = cluster.new_database();
    let store = PostgresStore::connect(&url, Options::default()).expect("a new store");
    let by_hand = postgres::Client::connect(&url, postgres::NoTls).expect("a connection");
    Database {
        store: Box::new(store),
        by_hand: Box::new(by_hand),
        _folder: None,
    }
}

#[cfg(not(postgres))]
#[test]
fn the_postgresql_cases_are_skipped_without_postgresql() {
    tictactoe_test_postgres::skip(
        "the stored vocabulary's PostgreSQL cases",
        &tictactoe_test_postgres::NotAvailable::NotInstalled,
    );
}

/// Game `n`'s words as kept: X's kind and level, O's kind, the first mover, the seating,
/// the ending, how the clock ended it, its clock's control and turn as it began.
const GAME_WORDS: &str = "SELECT x_kind, x_level, o_kind, first, seating, ending, clock_end, \
     clock_control, clock_turn FROM games WHERE id = $1";

/// The pinned words game `n` is kept with, in [`GAME_WORDS`]'s order.
fn pinned_game_words(n: usize) -> Vec<Option<String>> {
    let word = |kind: &str, at: usize| Some(pinned(kind)[at].to_string());
    vec![
        word("kind", 1),
        word("level", n % 4),
        word("kind", 0),
        word("mark", n % 2),
        word("seating", n % 2),
        // The games ended by the clock count as a result: X's time-out O's win, O's
        // X's, both drawn, X's and O's aborts their abandoned games.
        word("ending", [n, 2, 1, 0, 0, 5, 6][n.saturating_sub(TIMED - 1)]),
        (n >= TIMED).then(|| pinned("clock end")[[0, 1, 0, 1, 2, 3][n - TIMED]].to_string()),
        (n >= TIMED).then(|| pinned("control")[n % 2].to_string()),
        (n >= TIMED).then(|| pinned("mark")[n % 2].to_string()),
    ]
}

/// The reviewed game's moves' words as kept: each move's mark, and its values.
const REVIEW_WORDS: &str = "SELECT mark, before, after FROM reviews WHERE game = $1 ORDER BY ply";

/// The pinned words of the review, in [`REVIEW_WORDS`]'s order: the reviewed game is
/// odd, so O moves first.
fn pinned_review_words() -> Vec<Vec<Option<String>>> {
    let word = |kind: &str, at: usize| Some(pinned(kind)[at].to_string());
    (0..3)
        .map(|index| {
            vec![
                word("mark", (index + 1) % 2),
                word("known", 2 * index),
                word("known", 2 * index + 1),
            ]
        })
        .collect()
}

fn writes_exactly_the_pinned_words(mut database: Database) {
    write_every_word(&*database.store);

    let games: Vec<_> = (0..GAMES)
        .map(|n| {
            database
                .by_hand
                .rows(GAME_WORDS, &[id(n).as_str()])
                .remove(0)
        })
        .collect();
    let review = database
        .by_hand
        .rows(REVIEW_WORDS, &[id(REVIEWED).as_str()]);

    let expected: Vec<_> = (0..GAMES).map(pinned_game_words).collect();
    assert_eq!(games, expected);
    assert_eq!(review, pinned_review_words());
}

fn reads_every_pinned_word_as_its_value(mut database: Database) {
    // Arrange: the games written, then every word written again by hand, as pinned.
    write_every_word(&*database.store);
    let expected: Vec<_> = (0..GAMES)
        .map(|n| database.store.game(&id(n)).unwrap().expect("the game"))
        .collect();
    let expected_review = review(&*database.store);
    for n in 0..GAMES {
        let words = pinned_game_words(n);
        let words: Vec<&str> = words.iter().flatten().map(String::as_str).collect();
        let sql = if n >= TIMED {
            "UPDATE games SET x_kind = $2, x_level = $3, o_kind = $4, first = $5, \
             seating = $6, ending = $7, clock_end = $8, clock_control = $9, clock_turn = $10 \
             WHERE id = $1"
        } else {
            "UPDATE games SET x_kind = $2, x_level = $3, o_kind = $4, first = $5, \
             seating = $6, ending = $7 WHERE id = $1"
        };
        database
            .by_hand
            .execute(sql, &[&[id(n).as_str()], &words[..]].concat());
    }
    for (index, words) in pinned_review_words().iter().enumerate() {
        let words: Vec<&str> = words.iter().flatten().map(String::as_str).collect();
        database.by_hand.execute(
            &format!(
                "UPDATE reviews SET mark = $2, before = $3, after = $4 \
                 WHERE game = $1 AND ply = {}",
                index + 1
            ),
            &[&[id(REVIEWED).as_str()], &words[..]].concat(),
        );
    }

    let games: Vec<_> = (0..GAMES)
        .map(|n| database.store.game(&id(n)).unwrap().expect("the game"))
        .collect();
    let review = database.store.review(&id(REVIEWED)).unwrap();

    assert_eq!(games, expected);
    assert_eq!(review, Some(expected_review));
}

#[test]
fn the_sqlite_store_writes_exactly_the_pinned_words() {
    writes_exactly_the_pinned_words(sqlite());
}

#[test]
fn the_sqlite_store_reads_every_pinned_word_as_its_value() {
    reads_every_pinned_word_as_its_value(sqlite());
}

#[cfg(postgres)]
#[test]
fn the_postgresql_store_writes_exactly_the_pinned_words() {
    writes_exactly_the_pinned_words(postgres());
}

#[cfg(postgres)]
#[test]
fn the_postgresql_store_reads_every_pinned_word_as_its_value() {
    reads_every_pinned_word_as_its_value(postgres());
}

// The seeks that use every seek's word: seek `n` (0 or 1) is of the `n`th kind and the
// `n`th time control, an account's (0) or a guest's (1), and taken into a game at the
// `n`th mark.

const SEEKS: usize = 2;

fn seek(n: usize) -> NewSeek {
    let holder = match n {
        0 => SeatHolder::Account,
        _ => SeatHolder::Guest(SecretLock::parse(&"cd".repeat(32)).expect("a lock")),
    };
    let control = match n {
        0 => TimeControl::increment(Duration::from_secs(180), Duration::from_secs(2)),
        _ => TimeControl::per_move(Duration::from_secs(30)),
    };
    NewSeek {
        id: SeekId::from_bits(n as u128 + 1),
        kind: [SeekKind::Lobby, SeekKind::Pool][n],
        owner: PlayerName::new(&format!("Player {n}")).expect("a name"),
        holder,
        board: Geometry::classic(),
        control: control.expect("a time control"),
        rated: n == 0,
        rating: 1500,
        at: UNIX_EPOCH + Duration::from_millis(1_700_000_000_000),
    }
}

/// Each seek opened, then taken into a game of its own.
fn write_every_seek_word(store: &dyn Archive) {
    for n in 0..SEEKS {
        store.open_seek(&seek(n)).expect("the seek is kept");
        let taken = store.take_seeks(
            &[(seek(n).id, Mark::ALL[n])],
            &GameId::from_bits(100 + n as u128),
            UNIX_EPOCH + Duration::from_millis(1_700_000_000_010),
        );
        assert_eq!(taken, Ok(true));
    }
}

/// Seek `n`'s words as kept: its kind, its holder, its time control, its mark.
const SEEK_WORDS: &str = "SELECT kind, holder, control, taken_mark FROM seeks WHERE id = $1";

/// The pinned words seek `n` is kept with, in [`SEEK_WORDS`]'s order.
fn pinned_seek_words(n: usize) -> Vec<Option<String>> {
    let word = |kind: &str, at: usize| Some(pinned(kind)[at].to_string());
    vec![
        word("seek kind", n),
        word("holder", [3, 1][n]),
        word("control", n),
        word("mark", n),
    ]
}

fn writes_exactly_the_pinned_seek_words(mut database: Database) {
    write_every_seek_word(&*database.store);

    let seeks: Vec<_> = (0..SEEKS)
        .map(|n| {
            database
                .by_hand
                .rows(SEEK_WORDS, &[seek(n).id.as_str()])
                .remove(0)
        })
        .collect();

    let expected: Vec<_> = (0..SEEKS).map(pinned_seek_words).collect();
    assert_eq!(seeks, expected);
}

fn reads_every_pinned_seek_word_as_its_value(mut database: Database) {
    // Arrange: the seeks written, then every word written again by hand, as pinned.
    write_every_seek_word(&*database.store);
    let expected: Vec<_> = (0..SEEKS)
        .map(|n| database.store.seek(&seek(n).id).unwrap().expect("the seek"))
        .collect();
    for n in 0..SEEKS {
        let words = pinned_seek_words(n);
        let words: Vec<&str> = words.iter().flatten().map(String::as_str).collect();
        database.by_hand.execute(
            "UPDATE seeks SET kind = $2, holder = $3, control = $4, taken_mark = $5 \
             WHERE id = $1",
            &[&[seek(n).id.as_str()], &words[..]].concat(),
        );
    }

    let seeks: Vec<_> = (0..SEEKS)
        .map(|n| database.store.seek(&seek(n).id).unwrap().expect("the seek"))
        .collect();

    assert_eq!(seeks, expected);
}

/// A time control the core refuses (shorter than the shortest), written by hand where
/// the table takes it: the seek is unreadable, and the store says which and why.
fn reads_a_seek_on_no_time_control_as_unreadable(mut database: Database) {
    database
        .store
        .open_seek(&seek(1))
        .expect("the seek is kept");
    database.by_hand.execute(
        "UPDATE seeks SET initial_ms = 1 WHERE id = $1",
        &[seek(1).id.as_str()],
    );

    let read = database.store.seek(&seek(1).id);

    assert!(
        matches!(&read, Err(StoreError::Unreadable { detail, .. })
            if detail.contains(seek(1).id.as_str()) && detail.contains("time control")),
        "{read:?}"
    );
}

#[test]
fn the_sqlite_store_writes_exactly_the_pinned_seek_words() {
    writes_exactly_the_pinned_seek_words(sqlite());
}

#[test]
fn the_sqlite_store_reads_every_pinned_seek_word_as_its_value() {
    reads_every_pinned_seek_word_as_its_value(sqlite());
}

#[test]
fn the_sqlite_store_reads_a_seek_on_no_time_control_as_unreadable() {
    reads_a_seek_on_no_time_control_as_unreadable(sqlite());
}

#[cfg(postgres)]
#[test]
fn the_postgresql_store_writes_exactly_the_pinned_seek_words() {
    writes_exactly_the_pinned_seek_words(postgres());
}

#[cfg(postgres)]
#[test]
fn the_postgresql_store_reads_every_pinned_seek_word_as_its_value() {
    reads_every_pinned_seek_word_as_its_value(postgres());
}

#[cfg(postgres)]
#[test]
fn the_postgresql_store_reads_a_seek_on_no_time_control_as_unreadable() {
    reads_a_seek_on_no_time_control_as_unreadable(postgres());
}
