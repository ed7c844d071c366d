//! Plays Impossible against itself on one board and prints how long each move took: the
//! check that it keeps within its thinking time (`--think-ms`, 10% over at most).
//!
//!     cargo run --release --example think_times -- 7 5 1000   # size, win, budget in ms

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;
use tictactoe::domain::{BitBoard, Game, GameState, GameStatus, Geometry, Mark};
use tictactoe::players::{Action, MinimaxAI, Player};

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
    let mut players =
        [1, 2].map(|seed| MinimaxAI::impossible(StdRng::seed_from_u64(seed)).thinking_for(budget));
    let mut game = Game::<BitBoard>::start(geometry, Mark::X);
    let mut longest = Duration::ZERO;
    while !game.status().is_over() {
        let started = Instant::now();
        let Action::Place(cell) = players[game.to_move().index()].choose(&game) else {
            eprintln!("a computer left the game");
            std::process::exit(1);
        };
        let took = started.elapsed();
        longest = longest.max(took);
        print!("{}:{}ms ", cell.number(), took.as_millis());
        if game.play(cell).is_err() {
            eprintln!("an illegal move");
            std::process::exit(1);
        }
    }
    let result = match game.status() {
        GameStatus::Won(win) => format!("{} wins", win.mark),
        _ => "a draw".to_owned(),
    };
    println!("\n({size},{size},{win}): {result}; longest move {longest:.3?} of {budget:?}");
}
