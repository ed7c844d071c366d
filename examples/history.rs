//! How fast a history and a review are with a long record: builds a database of
//! 1,000,000 ended games, 100,000 of them Ada's, then measures `history --player Ada
//! --limit 20` in the store and as a whole program, and `replay --review --json` of a
//! 3x3 game. Not a test: run it by hand, on a release build.
//!
//! ```text
//! cargo build --release && cargo run --release --features measure --example history [-- GAMES [PATH]]
//! ```
//!
//! GAMES defaults to 1,000,000 (one in ten Ada's); PATH, where the database is built
//! and kept (to measure a server against it), to a temporary folder deleted at the end.
//! The program measured is `tictactoe` beside this example's folder
//! (`target/release/tictactoe`).
//!
//! The rows are written straight into the tables (`support::write_ended_games`), as
//! the store would write them (the players' keys included).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use rusqlite::{Connection, params};
use tictactoe_core::domain::{Mark, Outcome, PlayerName};
use tictactoe_core::ports::{Ending, GameHistory, GameId, HistoryQuery, PageSize};
use tictactoe_sqlite_store::SqliteStore;

mod support;
use support::{Ended, report, timed};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let games: u64 = match args.next() {
        Some(n) => n.replace('_', "").parse()?,
        None => 1_000_000,
    };
    let folder = tempfile::tempdir()?;
    let path = match args.next() {
        Some(kept) => PathBuf::from(kept),
        None => folder.path().join("history.db"),
    };
    let program = std::env::current_exe()?
        .parent()
        .and_then(Path::parent)
        .map(|release| release.join("tictactoe"))
        .filter(|program| program.exists())
        .ok_or("build the program first: cargo build --release")?;

    println!("building {games} ended games in {}", path.display());
    let started = Instant::now();
    drop(SqliteStore::open(&path)?); // the schema, by the store's own migrations
    build(&Connection::open(&path)?, games)?;
    std::fs::File::open(&path)?.sync_all()?;
    println!(
        "  built in {:.1} s, {:.0} MB",
        started.elapsed().as_secs_f64(),
        std::fs::metadata(&path)?.len() as f64 / 1e6
    );

    let store = SqliteStore::open(&path)?;
    let ada = PlayerName::new("Ada")?;
    let query = |before: Option<GameId>| HistoryQuery {
        player: Some(ada.clone()),
        before,
        limit: PageSize::new(20).expect("20 is a page size"),
    };
    let page = timed("store: Ada's newest 20 games, 200 times", 200, || {
        store.history(&query(None))
    })?;
    assert_eq!(page.games.len(), 20);

    // Deep in her history: a page that starts after her 50,000th game.
    let deep = id_of(games / 2 / 20 * 20);
    let page = timed(
        "store: 20 of Ada's games from half-way back, 200 times",
        200,
        || store.history(&query(Some(deep.clone()))),
    )?;
    assert_eq!(page.games.len(), 20);

    let opponents = timed(
        "store: Ada's 20 most played opponents and her whole record, 50 times",
        50,
        || store.opponents(&ada, 20),
    )?;
    assert_eq!(opponents.most_played.len(), 20);
    assert_eq!(opponents.total.games(), games / 10);

    let run = |args: &[&str]| -> Result<Duration, Box<dyn std::error::Error>> {
        let started = Instant::now();
        let output = Command::new(&program)
            .arg("--db")
            .arg(&path)
            .args(args)
            .output()?;
        let took = started.elapsed();
        if !output.status.success() {
            return Err(format!("{args:?}: {}", String::from_utf8_lossy(&output.stderr)).into());
        }
        Ok(took)
    };
    let mut baseline = Vec::new();
    let mut history = Vec::new();
    for _ in 0..30 {
        baseline.push(run(&["--version"])?);
        history.push(run(&["history", "--player", "Ada", "--limit", "20"])?);
    }
    report(
        "program: tictactoe --version (start-up), 30 times",
        &mut baseline,
    );
    report(
        "program: tictactoe history --player Ada --limit 20, 30 times",
        &mut history,
    );

    // A 3x3 game played to the end, reviewed the first time and read back after.
    let played = Command::new(&program)
        .arg("--db")
        .arg(&path)
        .args([
            "--plain",
            "--seed",
            "7",
            "play",
            "--x",
            "medium",
            "--o",
            "impossible",
        ])
        .output()?;
    assert!(played.status.success());
    let first_review = run(&["replay", "last", "--review", "--json"])?;
    let mut kept = Vec::new();
    for _ in 0..30 {
        kept.push(run(&["replay", "last", "--review", "--json"])?);
    }
    println!(
        "  program: replay last --review --json of a 3x3 game, computed: {:.1} ms",
        first_review.as_secs_f64() * 1000.0
    );
    report("program: the same, the review kept, 30 times", &mut kept);
    Ok(())
}

/// Game `g`'s id, as the program makes them: the time it began (`g` ms past a start),
/// then 80 bits that look random.
fn id_of(g: u64) -> GameId {
    let random = u128::from(g.wrapping_mul(0x9e37_79b9_7f4a_7c15)) << 16 | u128::from(g);
    GameId::new(1_700_000_000_000 + g, random)
}

/// Game `g` began at `g` ms past a start, with an id made from that time; every
/// tenth is Ada's (X on even tenths, O on odd), the rest between two of 100,000 other
/// people. Five moves each, X won. The players' results by opponent are counted as the
/// games are written, and written at the end.
fn build(db: &Connection, games: u64) -> rusqlite::Result<()> {
    let key = |name: &str| PlayerName::new(name).expect("a valid name").key();
    // Each player's results against each opponent, as the store keeps them.
    let mut rivalries: std::collections::HashMap<(String, String), (String, [i64; 3])> =
        std::collections::HashMap::new();
    support::write_ended_games(db, games, |g| {
        let other = |n: u64| format!("Name {:06}", n % 100_000);
        let (x, o) = match g % 20 {
            0 => ("Ada".to_string(), other(g)),
            10 => (other(g), "Ada".to_string()),
            _ => (other(g), other(g * 7919 + 1)),
        };
        // X won: a win for X against O, a loss for O against X.
        for (player, rival, result) in [(&x, &o, 0), (&o, &x, 1)] {
            let row = rivalries
                .entry((key(player), key(rival)))
                .or_insert_with(|| (rival.clone(), [0; 3]));
            row.1[result] += 1;
        }
        Ended {
            id: id_of(g),
            x,
            o,
            started_at: 1_700_000_000_000 + g as i64,
            ending: Ending::Finished(Outcome::Won(Mark::X)),
        }
    })?;
    db.execute_batch("BEGIN")?;
    {
        let mut row = db.prepare(
            "INSERT INTO rivalries (key, rival_key, rival, wins, losses, ties) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for ((player, rival_key), (rival, [wins, losses, ties])) in rivalries {
            row.execute(params![player, rival_key, rival, wins, losses, ties])?;
        }
    }
    db.execute_batch("COMMIT")?;
    db.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")?;
    Ok(())
}
