//! Plays Impossible against itself on one board and prints how long each move took: the
//! check that it keeps within its thinking time (`--think-ms`, 10% over at most).
//!
//!     cargo run --release --example think_times -- 7 5 1000   # size, win, budget in ms

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;
use tictactoe::app::{Event, Match, Seat, Unrecorded};
use tictactoe::domain::{GameState, GameStatus, Geometry, Mark};
use tictactoe::players::MinimaxAI;

fn main() {
    let numbers: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (size, win, budget) = match numbers[..] {
        [size, win, budget] => (size as usize, win as usize, budget),
        [size, win] => (size as usize, win as usize, 1000),
        _ => (5, 4, 1000),
    };
    let Ok(geometry) = Geometry::new(size, win) else {
        eprintln!("usage: think_times SIZE WIN [BUDGET_MS], with 3 <= WIN <= SIZE <= 7");
        std::process::exit(2);
    };
    let budget = Duration::from_millis(budget);
    let seats = [1, 2].map(|seed| {
        Seat::Computer(Box::new(
            MinimaxAI::impossible(StdRng::seed_from_u64(seed)).thinking_for(budget),
        ))
    });
    let mut game = Match::new(geometry, Mark::X, seats, Unrecorded);
    let mut longest = Duration::ZERO;
    while game.end().is_none() {
        let started = Instant::now();
        let events = match game.advance() {
            Ok(events) => events,
            Err(error) => {
                eprintln!("{error}");
                std::process::exit(1);
            }
        };
        let took = started.elapsed();
        longest = longest.max(took);
        for event in events {
            if let Event::Moved { position, .. } = event {
                print!("{}:{}ms ", position.number(), took.as_millis());
            }
        }
    }
    let result = match game.game().status() {
        GameStatus::Won(win) => format!("{} wins", win.mark),
        _ => "a draw".to_owned(),
    };
    println!("\n({size},{size},{win}): {result}; longest move {longest:.3?} of {budget:?}");
}
