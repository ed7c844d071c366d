//! Times one yes/no question of the proof search: can X (or O, with `ATTACKER=O`) force
//! a win after the given moves (1-based cells, X first)?
//!
//!     cargo run --release --features measure --example prove -- 7 5 25 18    # (7,7,5), X on 25, O on 18
//!     ATTACKER=O cargo run --release --features measure --example prove -- 7 5 2
//!     TO_MOVE=X cargo run --release --features measure --example prove -- 7 5 2  # X to move after X on 2
//!                                                              # (a null move of O)
use std::time::Instant;
use tictactoe_core::domain::{BitBoard, Board, Geometry, Mark};
use tictactoe_engine::Solver;

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let geometry = Geometry::new(args[0], args[1]).unwrap();
    let moves = &args[2..];
    let mut board = BitBoard::new(geometry);
    let mut mark = Mark::X;
    for &m in moves {
        board
            .place(geometry.position(m - 1).unwrap(), mark)
            .unwrap();
        mark = mark.opponent();
    }
    let started = Instant::now();
    let attacker = if std::env::var("ATTACKER").is_ok_and(|a| a == "O") {
        Mark::O
    } else {
        Mark::X
    };
    let to_move = match std::env::var("TO_MOVE").as_deref() {
        Ok("X") => Mark::X,
        Ok("O") => Mark::O,
        _ => mark,
    };
    let wins = Solver::new(geometry).can_force_win(&board, attacker, to_move, None);
    println!(
        "{moves:?}: {attacker:?} wins {wins:?} in {:.3?}",
        started.elapsed()
    );
}
