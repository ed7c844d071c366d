//! How fast the SQLite store is with a long history: builds a database of many players
//! and finished games in a temporary folder, then measures rating every game again
//! (`ratings --rebuild`), what a game costs as it ends with and without rating its
//! players, the top of the ratings and of the scoreboard, and importing a long
//! scoreboard.
//!
//! ```text
//! cargo run --release --features figures --example figures [PLAYERS [GAMES]]
//! ```
//!
//! Both default to 1,000,000. The database is deleted at the end, unless
//! `FIGURES_KEEP=PATH` names where to build and keep it.
//!
//! What it measured, with the machine and the date: docs/performance.md, "Storage"
//! and "Ratings". The disk's `fsync` is most of a game's end (0.10 ms with
//! `synchronous = NORMAL`), and it waits for whatever else the disk has to write: the
//! build is flushed before anything is measured.
//!
//! The database is built quickly by writing the rows straight into the tables
//! (`support::write_ended_games`; the scoreboard's rank index made once at the end).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rusqlite::{Connection, params};
use tictactoe_core::domain::Geometry;
use tictactoe_core::domain::{Mark, Outcome, PlayerName, Record, Scoreboard, Standing};
use tictactoe_core::fixtures::{new_game, person, settings};
use tictactoe_core::play::BoardRatings;
use tictactoe_core::play::Settings;
use tictactoe_core::players::{Level, PlayerSpec};
use tictactoe_core::ports::{
    Change, Ending, GameId, GameStore, RatingStore, Step, StoreError, Write,
};
use tictactoe_sqlite_store::SqliteStore;

mod support;
use support::{Ended, report, timed};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args()
        .skip(1)
        .map(|a| a.replace('_', "").parse::<u64>());
    let players = args.next().transpose()?.unwrap_or(1_000_000);
    let games = args.next().transpose()?.unwrap_or(1_000_000);
    let folder = tempfile::tempdir()?;
    // FIGURES_KEEP=PATH builds the database there and keeps it, to measure a program
    // against it (`tictactoe --db PATH serve`, `scores --top 20`).
    let path = match std::env::var_os("FIGURES_KEEP") {
        Some(kept) => std::path::PathBuf::from(kept),
        None => folder.path().join("figures.sqlite3"),
    };

    println!(
        "building {players} players and {games} finished games in {}",
        path.display()
    );
    let started = Instant::now();
    drop(SqliteStore::open(&path)?); // the schema, by the store's own migrations
    build(&Connection::open(&path)?, players, games)?;
    // Built without waiting for the disk: wait now, once, so that the first durable
    // write measured does not pay for the whole build.
    std::fs::File::open(&path)?.sync_all()?;
    let size = std::fs::metadata(&path)?.len();
    println!(
        "  built in {:.1} s, {:.0} MB",
        started.elapsed().as_secs_f64(),
        size as f64 / 1e6
    );

    let store = SqliteStore::open(&path)?;

    // Every game rated again from the kept games, as `tictactoe ratings --rebuild`
    // does: a rating for each of the players, a change for each side of each game.
    let started = Instant::now();
    let rebuilt = store.rebuild_ratings()?;
    println!(
        "  ratings --rebuild: {} games rated, {} ratings, in {:.1} s",
        rebuilt.games,
        rebuilt.ratings,
        started.elapsed().as_secs_f64()
    );

    // One more finished game: the End write (one durable transaction, its tallies and
    // its ratings with it) and the two players' rows, as a front end shows them after
    // the game. Side by side, in turn: two people (the End rates both) and two
    // computers (an End that rates nobody: what an end cost before ratings).
    let (mut rated_ends, mut unrated_ends) = (Vec::new(), Vec::new());
    for n in 0..200u64 {
        let people = (player(n * 7 % players), player((n * 13 + 1) % players));
        let game = u128::from(games + 1 + 2 * n);
        rated_ends.push(timed_end(
            &store,
            game,
            person(&people.0),
            person(&people.1),
        )?);
        let computers = (
            PlayerSpec::Computer(Level::Easy),
            PlayerSpec::Computer(Level::Medium),
        );
        unrated_ends.push(timed_end(&store, game + 1, computers.0, computers.1)?);
    }
    report(
        "a game between two people ends (End + standings_of), 200 games",
        &mut rated_ends,
    );
    report(
        "a game between two computers ends (rates nobody), 200 games",
        &mut unrated_ends,
    );

    timed(
        "the 3 x 3 ratings (the first 20 ranked and 20 provisional), 20 times",
        20,
        || BoardRatings::read(&store, Geometry::classic(), 20),
    )?;
    let top = timed("scoreboard(Some(20)), 20 times", 20, || {
        store.scoreboard(Some(20))
    })?;
    assert_eq!(top.standings().len(), 20);

    let started = Instant::now();
    let mut streamed = 0u64;
    store.standings(None, &mut |_row: Standing| streamed += 1)?;
    println!(
        "  the whole scoreboard streamed ({streamed} rows): {:.2} s",
        started.elapsed().as_secs_f64()
    );

    // A server's load: games ending in one thread while two others read players' rows
    // (what each request after a move shows), for three seconds.
    let stop = AtomicBool::new(false);
    let (mut writes, reads) = std::thread::scope(|scope| {
        let readers: Vec<_> = (0..2u64)
            .map(|r| {
                let (store, stop) = (&store, &stop);
                scope.spawn(move || {
                    let mut count = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        let who = name(&player((count * 31 + r) % players));
                        store.standings_of(&[who]).expect("a read");
                        count += 1;
                    }
                    count
                })
            })
            .collect();
        let mut writes = Vec::new();
        let until = Instant::now() + Duration::from_secs(3);
        let mut n = 0u64;
        while Instant::now() < until {
            let number = u128::from(games + 1_000 + n);
            let (x, o) = (player(n * 3 % players), player((n * 5 + 2) % players));
            let mut game = begun(number, &x, &o);
            game.push(Write::End {
                game: GameId::from_bits(number),
                ending: Ending::Finished(Outcome::Draw),
            });
            let started = Instant::now();
            for write in game {
                store.write(&[write]).expect("a write");
            }
            writes.push(started.elapsed());
            n += 1;
        }
        stop.store(true, Ordering::Relaxed);
        let reads: u64 = readers
            .into_iter()
            .map(|r| r.join().expect("a reader"))
            .sum();
        (writes, reads)
    });
    println!(
        "  for 3 s, one thread playing whole games (7 writes each) beside two reading: \
         {} games, {reads} reads ({:.0} a second)",
        writes.len(),
        reads as f64 / 3.0
    );
    report(
        "    a whole game's 7 writes, under those reads",
        &mut writes,
    );

    let imported = Scoreboard::from_standings((0..players).map(|n| Standing {
        name: name(&format!("Old {n:07}")),
        record: Record {
            wins: n % 17,
            losses: n % 11,
            ties: n % 5,
        },
    }));
    let started = Instant::now();
    store.import("figures: an old scoreboard", &imported)?;
    println!(
        "  import of a {}-row scoreboard: {:.2} s",
        imported.standings().len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn player(n: u64) -> String {
    format!("Name {n:07}")
}

fn name(text: &str) -> PlayerName {
    PlayerName::new(text).expect("a valid name")
}

/// How long game `n` between `x` and `o`, begun and five moves in, takes to end (X
/// wins) and to show its players' rows.
fn timed_end(
    store: &SqliteStore,
    n: u128,
    x: PlayerSpec,
    o: PlayerSpec,
) -> Result<Duration, StoreError> {
    let names = [x.name(Mark::X), o.name(Mark::O)];
    store.write(&begun_by(n, settings(x, o)))?;
    let started = Instant::now();
    store.write(&[Write::End {
        game: GameId::from_bits(n),
        ending: Ending::Finished(Outcome::Won(Mark::X)),
    }])?;
    let rows = store.standings_of(&names)?;
    let took = started.elapsed();
    assert_eq!(rows.standings().len(), 2);
    Ok(took)
}

/// Game `n` (its id `GameId::from_bits(n)`) begun between `x` and `o`, and five moves.
fn begun(n: u128, x: &str, o: &str) -> Vec<Write> {
    begun_by(n, settings(person(x), person(o)))
}

/// Game `n` begun with `settings`, and five moves.
fn begun_by(n: u128, settings: Settings) -> Vec<Write> {
    let new = new_game(n, settings);
    let id = new.id.clone();
    let mut writes = vec![Write::Begin(new)];
    for (number, cell) in [(1, 4), (2, 0), (3, 2), (4, 6), (5, 8)] {
        writes.push(Write::Step {
            game: id.clone(),
            step: Step {
                number,
                change: Change::Move(Geometry::classic().position(cell).expect("a cell")),
            },
        });
    }
    writes
}

/// Fills the tables: game `g` is player `g % players` (X) against player
/// `(g * 7919 + 1) % players` (O), five moves, X won (every third one a draw); the
/// tallies are exactly what those games count.
fn build(db: &Connection, players: u64, games: u64) -> rusqlite::Result<()> {
    let rank_index: String = db.query_row(
        "SELECT sql FROM sqlite_schema WHERE name = 'tallies_by_rank'",
        [],
        |row| row.get(0),
    )?;
    db.execute_batch("DROP INDEX tallies_by_rank")?;
    let mut tally = vec![[0i64; 3]; players as usize];
    support::write_ended_games(db, games, |g| {
        let (x, o) = (g % players, (g * 7919 + 1) % players);
        let (x_column, o_column) = if g % 3 == 0 { (2, 2) } else { (0, 1) };
        tally[x as usize][x_column] += 1;
        tally[o as usize][o_column] += 1;
        Ended {
            id: GameId::from_bits(u128::from(g)),
            x: player(x),
            o: player(o),
            started_at: 1_700_000_000_000 + g as i64,
            ending: Ending::Finished(if g % 3 == 0 {
                Outcome::Draw
            } else {
                Outcome::Won(Mark::X)
            }),
        }
    })?;
    db.execute_batch("BEGIN")?;
    {
        let mut row = db.prepare(
            "INSERT INTO tallies (epoch, key, name, wins, losses, ties) \
             VALUES (0, ?1, ?2, ?3, ?4, ?5)",
        )?;
        for (n, [wins, losses, ties]) in tally.iter().enumerate() {
            let name = player(n as u64);
            row.execute(params![name.to_lowercase(), name, wins, losses, ties])?;
        }
    }
    db.execute_batch("COMMIT")?;
    db.execute_batch(&rank_index)?;
    db.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")?;
    Ok(())
}
