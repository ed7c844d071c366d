//! How long the computer thinks. Run with `cargo bench`; figures go in docs/performance.md.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tictactoe::domain::{BitBoard, Geometry, Mark, fill_from_layout};
use tictactoe::engine::Solver;

fn impossible_on_the_empty_board(c: &mut Criterion) {
    let board = BitBoard::new(Geometry::classic());
    c.bench_function("solver: empty 3x3, cold, value and every best move", |b| {
        b.iter(|| {
            // A new solver each time: nothing cached from an earlier call.
            let mut solver = Solver::new(Geometry::classic());
            black_box(solver.analyze(black_box(&board), Mark::X))
        })
    });
}

fn impossible_mid_game(c: &mut Criterion) {
    let board = fill_from_layout(BitBoard::new(Geometry::classic()), "x../.o./...").unwrap();
    c.bench_function("solver: 3x3 after two moves, cold", |b| {
        b.iter(|| {
            let mut solver = Solver::new(Geometry::classic());
            black_box(solver.analyze(black_box(&board), Mark::X))
        })
    });
}

criterion_group!(benches, impossible_on_the_empty_board, impossible_mid_game);
criterion_main!(benches);
