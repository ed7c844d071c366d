use std::time::Instant;
use tictactoe::domain::{BitBoard, Board, Geometry, Mark, fill_from_layout};
use tictactoe::engine::Solver;
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let g = Geometry::new(args[0].parse().unwrap(), args[1].parse().unwrap()).unwrap();
    let b = fill_from_layout(BitBoard::new(g), &args[2]).unwrap();
    let to_move = if b.count(Mark::X) == b.count(Mark::O) { Mark::X } else { Mark::O };
    let t = Instant::now();
    let a = Solver::new(g).analyze(&b, to_move);
    println!("{:?} {:?}", a.map(|a| (a.verdict, a.plies, a.best_moves.iter().map(|p| p.number()).collect::<Vec<_>>())), t.elapsed());
}
