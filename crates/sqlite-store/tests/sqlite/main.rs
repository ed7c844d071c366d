//! What only the SQLite store has to answer for: files (made, damaged, foreign, newer,
//! locked, full, read-only), the schema's migrations, and several stores on one file as
//! several processes would open it. What every store does is the contract suite's
//! (crates/store-contract).

use std::fs;
use std::path::{Path, PathBuf};

use tempfile::TempDir;
use tictactoe_core::domain::{Geometry, Mark, Outcome, PlayerName};
use tictactoe_core::fixtures::{self, person};
use tictactoe_core::players::PlayerSpec;
use tictactoe_core::ports::{Change, Ending, GameId, GameStore, NewGame, Step, StoreError, Write};
use tictactoe_sqlite_store::{Options, SqliteStore};

mod disk;
mod failures;
mod faults;
mod files;
mod migrations;
mod reading;
mod together;

/// A temporary folder and the path of a database file in it (not yet made).
fn new_file() -> (TempDir, PathBuf) {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let path = folder.path().join("games.sqlite3");
    (folder, path)
}

fn id(n: u128) -> GameId {
    GameId::from_bits(n)
}

/// Game `n`, `x` against `o` on the classic board.
fn new_game(n: u128, x: &str, o: &str) -> NewGame {
    fixtures::new_game(n, fixtures::settings(person(x), person(o)))
}

fn play(n: u128, number: u32, index: usize) -> Write {
    Write::Step {
        game: id(n),
        step: Step {
            number,
            change: Change::Move(Geometry::classic().position(index).unwrap()),
        },
    }
}

/// Game `n` played to a win by X: begun, two moves, ended.
fn won_game(n: u128, x: &str, o: &str) -> Vec<Write> {
    vec![
        Write::Begin(new_game(n, x, o)),
        play(n, 1, 4),
        play(n, 2, 0),
        Write::End {
            game: id(n),
            ending: Ending::Finished(Outcome::Won(Mark::X)),
        },
    ]
}

/// A store on `path` that has kept `games` won games between Ada and Bob, still open.
fn store_with_games(path: &Path, games: u128) -> SqliteStore {
    let store = SqliteStore::open(path).unwrap();
    for n in 1..=games {
        store.write(&won_game(n, "Ada", "Bob")).unwrap();
    }
    store
}

/// [`store_with_games`], closed again: the file is left whole, its log folded in.
fn file_with_games(path: &Path, games: u128) {
    drop(store_with_games(path, games));
}

/// A plain SQLite connection to the file, as a person with a SQL prompt has.
fn by_hand(path: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(path).unwrap()
}

fn bytes(path: &Path) -> Vec<u8> {
    fs::read(path).unwrap()
}

/// Opens the database at `path`, which must be refused and leave the file byte for
/// byte as it was: the refusal.
fn refused_untouched(path: &Path) -> StoreError {
    let before = bytes(path);
    let refusal = SqliteStore::open(path)
        .err()
        .expect("the database is refused");
    assert_eq!(bytes(path), before, "the file was changed");
    refusal
}

fn quick() -> Options {
    Options {
        busy_timeout: std::time::Duration::from_millis(100),
        write_patience: std::time::Duration::ZERO,
        ..Options::default()
    }
}
