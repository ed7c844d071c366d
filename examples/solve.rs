//! Solves a board and prints how long it took, the positions searched and the peak
//! memory (Linux): first the value alone, then (with a new solver) the value, every
//! best move and the length.
//!
//!     cargo run --release --features measure --example solve -- 5 5             # 5 x 5, five in a row
//!     cargo run --release --features measure --example solve -- 7 5 --no-book   # proven, not read from the book
//!     cargo run --release --features measure --example solve -- 7 5 --no-book 2 # after X on 2 (cells from 1, X first)
//!
//! `--no-book` makes the second solver prove its answer without the opening book (the
//! first line never reads it). Criterion (benches/) is better for short timings; this
//! is for the long ones, where memory matters as much as time.

use std::time::Instant;

use tictactoe_core::domain::{BitBoard, Board, Geometry, Mark};
use tictactoe_engine::Solver;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let book = !args.iter().any(|a| a == "--no-book");
    let numbers: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let (size, win, moves) = match numbers[..] {
        [size, win, ref moves @ ..] => (size, win, moves.to_vec()),
        [size] => (size, size, Vec::new()),
        _ => (3, 3, Vec::new()),
    };
    let Ok(geometry) = Geometry::new(size, win) else {
        eprintln!("usage: solve SIZE [WIN] [--no-book] [CELL ...], with 3 <= WIN <= SIZE <= 7");
        std::process::exit(2);
    };
    let mut board = BitBoard::new(geometry);
    let mut to_move = Mark::X;
    for &cell in &moves {
        let placed = cell
            .checked_sub(1)
            .and_then(|index| geometry.position(index))
            .map(|position| board.place(position, to_move));
        if !matches!(placed, Some(Ok(()))) {
            eprintln!("cell {cell} is not an empty cell of the board");
            std::process::exit(2);
        }
        to_move = to_move.opponent();
    }
    let started = Instant::now();
    let mut first = Solver::new(geometry);
    let value = first.value(&board, to_move);
    let value_took = started.elapsed();
    println!(
        "{size}x{size}, {win} in a row, {moves:?}: value {value:?} in {value_took:.3?}, {} positions",
        first.positions()
    );
    let started = Instant::now();
    let solver = Solver::new(geometry);
    let mut solver = if book { solver } else { solver.without_book() };
    let analysis = solver.analyze(&board, to_move);
    let elapsed = started.elapsed();
    let peak = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|l| l.starts_with("VmHWM"))
                .map(str::to_owned)
        })
        .unwrap_or_else(|| "VmHWM: unknown".into());
    match analysis {
        Some(a) => println!(
            "{size}x{size}, {win} in a row, {moves:?}{}: {:?} in {} plies, {} best moves; {elapsed:.3?}, {} positions; {peak}",
            if book { "" } else { " without the book" },
            a.verdict,
            a.plies,
            a.best_moves.len(),
            solver.positions()
        ),
        None => println!("nothing to solve"),
    }
}
