//! What the measuring examples (`figures`, `history`) share: many ended games written
//! straight into a store's SQLite file, and a line of times.
//!
//! The rows go straight into the tables (in big transactions, `synchronous = OFF`), as
//! the store writes them (its words, the players' name keys), not through the store:
//! the store's way, one durable transaction per write, is what the examples measure,
//! not what builds a million games.

use std::time::{Duration, Instant};

use rusqlite::{Connection, params};
use tictactoe_core::domain::{Mark, PlayerName};
use tictactoe_core::play::Seating;
use tictactoe_core::ports::{Ending, GameId};
use tictactoe_store_rows::words;

/// One ended game to write: two people on 3 x 3 at one screen, X first, five moves
/// (X 5, O 1, X 3, O 7, X 9), begun at `started_at` (milliseconds since 1970) and
/// ended a minute later.
pub struct Ended {
    pub id: GameId,
    pub x: String,
    pub o: String,
    pub started_at: i64,
    pub ending: Ending,
}

/// Writes `games` ended games, game `g` the one `game(g)` says, into the store's file
/// `db` (made by the store, so its schema is the store's own).
pub fn write_ended_games(
    db: &Connection,
    games: u64,
    mut game: impl FnMut(u64) -> Ended,
) -> rusqlite::Result<()> {
    db.pragma_update(None, "synchronous", "OFF")?;
    db.pragma_update(None, "cache_size", -400_000)?; // 400 MB
    let key = |name: &str| PlayerName::new(name).expect("a valid name").key();
    let chunk = 100_000;
    let mut from = 0;
    while from < games {
        db.execute_batch("BEGIN")?;
        {
            let mut row = db.prepare(
                "INSERT INTO games (id, x_kind, x_name, o_kind, o_name, size, win, first, \
                 seating, started_at, ended_at, ending, x_key, o_key) \
                 VALUES (?1, ?8, ?2, ?8, ?3, 3, 3, ?9, ?10, ?4, ?5, ?11, ?6, ?7)",
            )?;
            let mut step =
                db.prepare("INSERT INTO steps (game, number, cell) VALUES (?1, ?2, ?3)")?;
            for g in from..(from + chunk).min(games) {
                let game = game(g);
                row.execute(params![
                    game.id.as_str(),
                    game.x,
                    game.o,
                    game.started_at,
                    game.started_at + 60_000,
                    key(&game.x),
                    key(&game.o),
                    words::HUMAN,
                    words::mark_word(Mark::X),
                    words::seating_word(Seating::Together),
                    words::ending_columns(game.ending).0,
                ])?;
                for (number, cell) in [(1, 4), (2, 0), (3, 2), (4, 6), (5, 8)] {
                    step.execute(params![game.id.as_str(), number, cell])?;
                }
            }
        }
        db.execute_batch("COMMIT")?;
        from += chunk;
    }
    Ok(())
}

/// Runs `run` `runs` times and reports how long each took; the last run's answer.
pub fn timed<T, E>(what: &str, runs: usize, mut run: impl FnMut() -> Result<T, E>) -> Result<T, E> {
    let mut times = Vec::with_capacity(runs);
    let mut last = None;
    for _ in 0..runs {
        let started = Instant::now();
        let answer = run()?;
        times.push(started.elapsed());
        last = Some(answer);
    }
    report(what, &mut times);
    Ok(last.expect("at least one run"))
}

/// Prints the median, the 90th and 99th percentiles and the slowest of `times`.
pub fn report(what: &str, times: &mut [Duration]) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let percentile = |p: usize| times[(times.len() * p).div_ceil(100).max(1) - 1];
    println!(
        "  {what}: median {:.2} ms, 90th percentile {:.2} ms, p99 {:.2} ms, slowest {:.2} ms",
        ms(times[times.len() / 2]),
        ms(percentile(90)),
        ms(percentile(99)),
        ms(times[times.len() - 1])
    );
}
