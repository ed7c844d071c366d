//! Solves an empty board and prints how long it took and the peak memory (Linux): first
//! the value alone, then (with a new solver) the value, every best move and the length.
//!
//!     cargo run --release --example solve -- 5 5     # 5 x 5, five in a row
//!
//! Criterion (benches/) is better for short timings; this is for the long ones, where
//! memory matters as much as time.

use std::time::Instant;

use tictactoe_core::domain::{BitBoard, Geometry, Mark};
use tictactoe_engine::Solver;

fn main() {
    let numbers: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (size, win) = match numbers[..] {
        [size, win] => (size, win),
        [size] => (size, size),
        _ => (3, 3),
    };
    let Ok(geometry) = Geometry::new(size, win) else {
        eprintln!("usage: solve SIZE [WIN], with 3 <= WIN <= SIZE <= 7");
        std::process::exit(2);
    };
    let started = Instant::now();
    let value = Solver::new(geometry).value(&BitBoard::new(geometry), Mark::X);
    let value_took = started.elapsed();
    println!("{size}x{size}, {win} in a row: value {value:?} in {value_took:.3?}");
    let started = Instant::now();
    let analysis = Solver::new(geometry).analyze(&BitBoard::new(geometry), Mark::X);
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
            "{size}x{size}, {win} in a row: {:?} in {} plies, {} best moves; {elapsed:.3?}; {peak}",
            a.verdict,
            a.plies,
            a.best_moves.len()
        ),
        None => println!("nothing to solve"),
    }
}
