//! Writes the opening book of (7,7,5) (`src/engine/book/7x7x5.txt`), the board whose
//! first moves cannot be proven within a second: the empty board's full analysis; for
//! each first move of X a reply of O proven to keep the draw; and after that reply,
//! where O could not force a win even if it moved next, every move of X.
//!
//!     cargo run --release --example book > src/engine/book/7x7x5.txt
//!
//! Every entry is proven by the solver here, with `Solver::can_force_win` (which never
//! reads the book): X cannot force a win on the empty board and after each reply, and
//! again (O cannot force a win with O to move) for X's second moves.
//! Takes about a minute or two on the 2-core machine of docs/performance.md.

use std::time::{Duration, Instant};

use tictactoe::domain::{BitBoard, Board, Geometry, Mark, layout_of};
use tictactoe::engine::{Deadline, Solver, SystemClock};

fn main() {
    let geometry = Geometry::new(7, 5).expect("a board the menu offers");
    let mut solver = Solver::new(geometry);
    let clock = SystemClock::new();
    let started = Instant::now();
    println!("# The opening book of (7,7,5): written by `cargo run --release --example book`.");
    println!("# Each line: a position (X moved first; the side to move follows from the");
    println!("# counts), its value for the side to move, whether the moves listed are every");
    println!("# move that keeps it (exact) or some of them (some), and those moves (1-based).");
    // The empty board, proven from scratch (not by `Solver::analyze`, which reads this
    // book): X cannot force a win, and so neither can O moving first (the same
    // question with the colours swapped), so no first move of X lets O win: every
    // move keeps the draw.
    let empty = BitBoard::new(geometry);
    let x_wins = solver.can_force_win(&empty, Mark::X, Mark::X, None);
    assert_eq!(x_wins, Some(false), "(7,7,5) is a draw");
    let every: Vec<String> = empty
        .empty_cells()
        .iter()
        .map(|p| p.number().to_string())
        .collect();
    println!("{} draw exact {}", layout_of(&empty), every.join(","));
    eprintln!("empty board: a draw, in {:.1?}", started.elapsed());
    let centre = geometry.centre();
    let mut replies: Vec<_> = geometry.positions().collect();
    let distance = |p| {
        let (r, c) = (geometry.row_of(p) as i32, geometry.col_of(p) as i32);
        let (cr, cc) = (
            geometry.row_of(centre) as i32,
            geometry.col_of(centre) as i32,
        );
        (r - cr).pow(2) + (c - cc).pow(2)
    };
    for first in geometry.positions() {
        let mut board = BitBoard::new(geometry);
        board.place(first, Mark::X).expect("an empty cell");
        // Next to X's mark first, then nearest the centre.
        replies.sort_by_key(|&p| {
            let near = (geometry.row_of(p) as i32 - geometry.row_of(first) as i32)
                .abs()
                .max((geometry.col_of(p) as i32 - geometry.col_of(first) as i32).abs());
            (near > 1, distance(p), p.index())
        });
        let reply = replies
            .iter()
            .copied()
            .filter(|&r| r != first)
            .find(|&reply| {
                let mut after = board;
                after.place(reply, Mark::O).expect("an empty cell");
                let deadline = Deadline::after(&clock, Duration::from_secs(20));
                solver.can_force_win(&after, Mark::X, Mark::X, Some(&deadline)) == Some(false)
            });
        let Some(reply) = reply else {
            eprintln!("no reply proven after X on {}", first.number());
            continue;
        };
        println!("{} draw some {}", layout_of(&board), reply.number());
        // X's second move: if O could not force a win even moving next, no move of X
        // lets it, and X has no win (the reply was proven to hold): every move keeps
        // the draw.
        board.place(reply, Mark::O).expect("an empty cell");
        let deadline = Deadline::after(&clock, Duration::from_secs(60));
        if solver.can_force_win(&board, Mark::O, Mark::O, Some(&deadline)) == Some(false) {
            let every: Vec<String> = board
                .empty_cells()
                .iter()
                .map(|p| p.number().to_string())
                .collect();
            println!("{} draw exact {}", layout_of(&board), every.join(","));
        } else {
            eprintln!(
                "X's moves after X on {} and O on {} not proven",
                first.number(),
                reply.number()
            );
        }
        eprintln!("X on {}: {:.1?}", first.number(), started.elapsed());
    }
}
