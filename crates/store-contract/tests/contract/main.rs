//! The `GameStore` contract: what every store must do, written once and run against
//! each store through the rstest_reuse template [`stores`]. Each test is one behaviour,
//! as Arrange / Act / Assert, named for what it specifies.
//!
//! * `writes`: every write is kept exactly once; what contradicts it is refused.
//! * `games`: a game reads back exactly as it was kept.
//! * `scoreboard`: the scoreboard is the count of the finished games (and imports);
//!   resets, restores, imports.
//! * `concurrency`: threads writing at once, and retrying each other's writes.
//! * `history`: the ended games newest first, a page at a time; ids by their start; a
//!   player's opponents.
//! * `ratings`: each game's rating change kept with its end; the board's list, a
//!   player's ratings and history; a rebuild gives the same figures to the last bit.
//! * `reviews`: a review is kept once, for an ended game's own moves; one not exact
//!   gives way to one that says more.
//! * `names`: a person's seat takes another name until its first move, kept once.
//! * `casual`: a game a person took help in becomes casual while it is played.
//! * `clocks`: a game's clock as it began and as last kept, each kept once; the games
//!   overdue; endings by the clock, read back exactly and counted as they count.
//! * `seats`: a seat held open for an invite is taken once, by a guest or an account.
//! * `training`: the answers to training puzzles, each kept once, a player's oldest
//!   first.
//! * `accounts`: a name is one account's, and every name that looks like it; sessions
//!   open until they expire; personal tokens; a new password and a removed account
//!   take both with them; two look-alike names added at once, one added.
//! * `seeks`: people looking for an opponent: a seek listed while open and seen lately,
//!   oldest first; one open seek a person; seeks taken into a game all or none.

use std::collections::HashMap;
use std::ops::Deref;

use rstest::rstest;
use rstest_reuse::{self, template};
use tempfile::TempDir;
use tictactoe_core::domain::{Geometry, Mark, Outcome, PlayerName, Position, Record};
use tictactoe_core::fixtures::{self, person};
use tictactoe_core::memory::MemoryStore;
use tictactoe_core::play::{Seating, Settings};
use tictactoe_core::players::{Level, PlayerSpec};
use tictactoe_core::ports::{
    Archive, Change, Conflict, Ending, GameId, GameStore, NewGame, Step, StoreError, Write,
};
use tictactoe_sqlite_store::SqliteStore;

/// A store with nothing in it, and whatever it needs kept alive (a temporary folder).
pub struct Fresh {
    store: Box<dyn Archive>,
    _folder: Option<TempDir>,
}

impl Deref for Fresh {
    type Target = dyn Archive;
    fn deref(&self) -> &Self::Target {
        &*self.store
    }
}

/// The reference: the core's store in memory.
fn memory() -> Fresh {
    Fresh {
        store: Box::new(MemoryStore::new()),
        _folder: None,
    }
}

/// The embedded database, on a new file.
fn sqlite() -> Fresh {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let store = SqliteStore::open(&folder.path().join("games.sqlite3")).expect("a new store");
    Fresh {
        store: Box::new(store),
        _folder: Some(folder),
    }
}

/// PostgreSQL, on a new database of the test process's own server
/// (`tictactoe-test-postgres`). Only where PostgreSQL is installed (the cfg `postgres`,
/// set by `build.rs`): here a server that does not start fails the test.
#[cfg(postgres)]
fn postgres() -> Fresh {
    use tictactoe_postgres_store::{Options, PostgresStore};
    let cluster = tictactoe_test_postgres::Cluster::shared().unwrap_or_else(|why| panic!("{why}"));
    let store =
        PostgresStore::connect(&cluster.new_database(), Options::default()).expect("a new store");
    Fresh {
        store: Box::new(store),
        _folder: None,
    }
}

/// Every store, as one case each: a new store joins the contract with one line here.
/// PostgreSQL's case exists only where PostgreSQL is installed; elsewhere
/// [`the_postgresql_cases_are_skipped_without_postgresql`] says so.
#[cfg(postgres)]
#[template]
#[rstest]
#[case::memory(memory())]
#[case::sqlite(sqlite())]
#[case::postgres(postgres())]
fn stores(#[case] store: Fresh) {}

#[cfg(not(postgres))]
#[template]
#[rstest]
#[case::memory(memory())]
#[case::sqlite(sqlite())]
fn stores(#[case] store: Fresh) {}

/// Where PostgreSQL was not installed when the suite was built, its cases do not
/// exist: this says so on every run (and fails where PostgreSQL is required).
#[cfg(not(postgres))]
#[test]
fn the_postgresql_cases_are_skipped_without_postgresql() {
    tictactoe_test_postgres::skip(
        "the store contract's PostgreSQL cases",
        &tictactoe_test_postgres::NotAvailable::NotInstalled,
    );
}

mod accounts;
mod casual;
mod clocks;
mod concurrency;
mod games;
mod history;
mod names;
mod ratings;
mod reviews;
mod scoreboard;
mod seats;
mod seeks;
mod training;
mod writes;

// Helpers that make the tests read like the behaviours they check.

fn id(n: u128) -> GameId {
    GameId::from_bits(n)
}

fn name(text: &str) -> PlayerName {
    PlayerName::stored(text).expect("a valid name")
}

/// A classic game between `x` and `o`, X first, at one screen.
fn new_game(n: u128, x: PlayerSpec, o: PlayerSpec) -> NewGame {
    fixtures::new_game(n, fixtures::settings(x, o))
}

/// Game `n`, Ada (X) against Bob (O).
fn ada_bob(n: u128) -> NewGame {
    new_game(n, person("Ada"), person("Bob"))
}

fn begin(game: &NewGame) -> Write {
    Write::Begin(game.clone())
}

/// Cell `number` (1 to 9) of the classic board.
fn cell(number: usize) -> Position {
    Geometry::classic().position(number - 1).expect("a cell")
}

fn play(n: u128, number: u32, cell_number: usize) -> Write {
    Write::Step {
        game: id(n),
        step: Step {
            number,
            change: Change::Move(cell(cell_number)),
        },
    }
}

fn undo(n: u128, number: u32, moves: u8) -> Write {
    Write::Step {
        game: id(n),
        step: Step {
            number,
            change: Change::Undo { moves },
        },
    }
}

fn end(n: u128, ending: Ending) -> Write {
    Write::End {
        game: id(n),
        ending,
    }
}

fn won_by(mark: Mark) -> Ending {
    Ending::Finished(Outcome::Won(mark))
}

fn draw() -> Ending {
    Ending::Finished(Outcome::Draw)
}

fn record(wins: u64, losses: u64, ties: u64) -> Record {
    Record { wins, losses, ties }
}

/// A row of [`rows`]: `name`'s wins, losses and ties.
fn row(name: &str, wins: u64, losses: u64, ties: u64) -> (String, Record) {
    (name.to_owned(), record(wins, losses, ties))
}

/// The whole scoreboard as (name, record) rows in rank order.
fn rows(store: &dyn GameStore) -> Vec<(String, Record)> {
    store
        .scoreboard(None)
        .expect("the scoreboard")
        .standings()
        .iter()
        .map(|row| (row.name.as_str().to_owned(), row.record))
        .collect()
}

/// One player's record, `None` if they have no row.
fn record_of(store: &dyn GameStore, player: &str) -> Option<Record> {
    store
        .scoreboard(None)
        .expect("the scoreboard")
        .record_of(&name(player))
}

/// Begins and ends game `n` between `x` and `o` in one write (X's first move on 5,
/// then `ending`), later than the game before (the stores count time in milliseconds).
fn ended(store: &dyn GameStore, n: u128, x: PlayerSpec, o: PlayerSpec, ending: Ending) {
    std::thread::sleep(std::time::Duration::from_millis(2));
    store
        .write(&[begin(&new_game(n, x, o)), play(n, 1, 5), end(n, ending)])
        .unwrap();
}

/// [`ended`], between two people of these names (X's, then O's).
fn people_ended(store: &dyn GameStore, n: u128, [x, o]: [&str; 2], ending: Ending) {
    ended(store, n, person(x), person(o), ending);
}

/// Game 1, Ada (X) against Bob (O): X 5, O 2 taken back, O 1, then X resigns.
fn ended_with_an_undo(store: &dyn GameStore) {
    store
        .write(&[
            begin(&ada_bob(1)),
            play(1, 1, 5),
            play(1, 2, 2),
            undo(1, 3, 1),
            play(1, 4, 1),
            end(1, Ending::Resigned(Mark::X)),
        ])
        .unwrap();
}

/// Game `n` between Ada (X) and Bob (O), begun and kept with X's first move on 5.
fn ada_moved(store: &dyn GameStore, n: u128) {
    store.write(&[begin(&ada_bob(n)), play(n, 1, 5)]).unwrap();
}

/// Game `n` between Ada (X) and Bob (O), kept as Ada's win.
fn ada_won(store: &dyn GameStore, n: u128) {
    store
        .write(&[begin(&ada_bob(n)), end(n, won_by(Mark::X))])
        .unwrap();
}

/// How many steps the store holds of game `n` (which it must have).
fn steps_of(store: &dyn GameStore, n: u128) -> usize {
    store.game(&id(n)).unwrap().expect("the game").steps.len()
}

/// The answer of a store that refuses a write to game `n` as `conflict`: the same
/// error, in the same words, from every store.
fn refused(n: u128, conflict: Conflict) -> Result<(), StoreError> {
    Err(conflict.about(&id(n)))
}

/// The conflict of step `number` sent to a game that has kept `taken` steps.
fn gap(number: u32, taken: u32) -> Conflict {
    Conflict::Gap { number, taken }
}

/// Random numbers from a seed: the same games on every run and every store.
struct Seeded(u64);

impl Seeded {
    fn below(&mut self, n: usize) -> usize {
        // xorshift64*: plenty for picking test data.
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }

    fn pick<T: Clone>(&mut self, from: &[T]) -> T {
        from[self.below(from.len())].clone()
    }
}

/// A random game `n`: players from a small pool (people in several letter cases, the
/// default name, computers), a few moves, and a random ending.
fn random_game(random: &mut Seeded, n: u128) -> (NewGame, Vec<Write>) {
    let pool = [
        "Ada", "ADA", "ada", "Bob", "bob", "Cy", "Dee", "Zoë", "ZOË", "Éva", "éva",
    ];
    let spec = |random: &mut Seeded| match random.below(6) {
        0 => PlayerSpec::Human(None),
        1 => PlayerSpec::Computer(random.pick(&Level::ALL)),
        _ => person(random.pick(&pool)),
    };
    let settings = loop {
        if let Ok(settings) = Settings::new(
            spec(random),
            spec(random),
            random.pick(&Mark::ALL),
            Geometry::classic(),
        ) {
            break settings;
        }
    };
    let game = fixtures::new_game(n, settings);
    let mut writes = vec![begin(&game)];
    let moves = random.below(6);
    for number in 1..=moves {
        writes.push(play(n, number as u32, number));
    }
    // Most games end; some are still being played.
    if random.below(8) != 0 {
        writes.push(end(n, random.pick(&Ending::ALL)));
    }
    (game, writes)
}

/// What the games `1..=games` kept say the scoreboard is, by name key: a draw is a tie
/// each, a win a win and a loss, a resignation a loss for whoever resigned and a win for
/// the other (a time-out as a resignation, or a tie each when drawn), an abandoned or
/// aborted game nothing.
fn recounted(store: &dyn GameStore, games: u128) -> HashMap<String, Record> {
    let mut tally: HashMap<String, Record> = HashMap::new();
    for n in 1..=games {
        let kept = store.game(&id(n)).unwrap().expect("every game was kept");
        let Some(ending) = kept.ending else { continue };
        for mark in Mark::ALL {
            let counts = match ending {
                Ending::Finished(Outcome::Draw) | Ending::TimedOut { drawn: true, .. } => {
                    record(0, 0, 1)
                }
                Ending::Finished(Outcome::Won(winner)) if winner == mark => record(1, 0, 0),
                Ending::Finished(Outcome::Won(_)) => record(0, 1, 0),
                Ending::Resigned(loser) | Ending::TimedOut { side: loser, .. } if loser == mark => {
                    record(0, 1, 0)
                }
                Ending::Resigned(_) | Ending::TimedOut { .. } => record(1, 0, 0),
                Ending::Abandoned(_) | Ending::Aborted(_) => continue,
            };
            let name = kept.game.settings.player(mark).name(mark);
            tally.entry(name.key()).or_default().add(counts);
        }
    }
    tally
}

/// The scoreboard by name key.
fn shown(store: &dyn GameStore) -> HashMap<String, Record> {
    let board = store.scoreboard(None).expect("the scoreboard");
    let shown: HashMap<String, Record> = board
        .standings()
        .iter()
        .map(|row| (row.name.key(), row.record))
        .collect();
    assert_eq!(shown.len(), board.standings().len(), "one row per player");
    shown
}
