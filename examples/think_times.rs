//! Plays Impossible against itself on one board and prints how long each move took: the
//! check that it keeps within its thinking time (`--think-ms`, 10% over at most).
//!
//!     cargo run --release --example think_times -- 7 5 1000   # size, win, budget in ms
//!
//! Each move prints as `cell:ms`, followed by `~` when its advice was not exact (the
//! moves were proven to keep the value but not all of them, or, at about the whole
//! budget, the Estimator's best guess).

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;
use tictactoe::domain::{BitBoard, Game, GameState, GameStatus, Geometry, Mark};
use tictactoe::players::{Advisor, MinimaxAI, MoveChooser};

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
        let player = &mut players[usize::from(game.to_move() == Mark::O)];
        let started = Instant::now();
        let advice = player.advise(game.board(), game.to_move());
        let position = player
            .choose_move(&game)
            .expect("a move in a game in progress");
        let took = started.elapsed();
        longest = longest.max(took);
        let mark = if advice.is_some_and(|a| a.exact) {
            ""
        } else {
            "~"
        };
        print!("{}:{}ms{mark} ", position.number(), took.as_millis());
        game.play(position).expect("a legal move");
    }
    let result = match game.status() {
        GameStatus::Won(win) => format!("{} wins", win.mark),
        _ => "a draw".to_owned(),
    };
    println!("\n({size},{size},{win}): {result}; longest move {longest:.3?} of {budget:?}");
}
