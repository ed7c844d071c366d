//! Where the time of hard (7,7,5) positions goes: for each position of a `settle`
//! output (lines `pairing seed ply board ...`), the answer of a new solver within a
//! budget (as `settle` asks it, without the players crate), and with `--parts` the
//! questions under it one by one: the null move (could the opponent win even if it
//! moved next?), a win for the side to move, and each move's question (can the
//! opponent then force a win?), with their times and positions.
//!
//!     cargo run --release -p tictactoe-engine --features measure --example anatomy -- games.txt
//!     cargo run --release -p tictactoe-engine --features measure --example anatomy -- games.txt --ms 800 --only-slow
//!     cargo run --release -p tictactoe-engine --features measure --example anatomy -- games.txt --parts --line 17
//!
//! Options: `--ms MS` (the solver's budget, default 800: the 80% of a second that a
//! player gives it), `--unlimited` (no budget), `--only-slow` (only the lines marked
//! `NOT EXACT`), `--line N` (only the N-th position, from 1), `--parts` (with `--null`: the null move alone; `--move N`: that move's question alone), `--no-book`.

use std::time::{Duration, Instant};

use tictactoe_core::domain::{BitBoard, Board, Geometry, Mark, fill_from_layout};
use tictactoe_engine::{Deadline, Solver, SystemClock};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().any(|a| a == name);
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let file = args.first().expect("a settle output file");
    let budget = if flag("--unlimited") {
        Duration::MAX
    } else {
        Duration::from_millis(value("--ms").unwrap_or(800))
    };
    let geometry = Geometry::new(7, 5).unwrap();
    let text = std::fs::read_to_string(file).expect("the positions' file");
    let positions = text.lines().filter_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [_, _, ply, layout, ..] = fields[..] else {
            return None;
        };
        ply.parse::<usize>().ok()?;
        let board = fill_from_layout(BitBoard::new(geometry), layout).ok()?;
        Some((line.to_string(), board))
    });
    let (mut exact, mut count, mut slowest) = (0, 0, Duration::ZERO);
    let clock = SystemClock::new();
    for (number, (line, board)) in positions.enumerate() {
        if value("--line").is_some_and(|n| n != number as u64 + 1) {
            continue;
        }
        if flag("--only-slow") && !line.contains("NOT EXACT") {
            continue;
        }
        let (x, o) = (board.bits(Mark::X), board.bits(Mark::O));
        let to_move = if x.count_ones() == o.count_ones() {
            Mark::X
        } else {
            Mark::O
        };
        let solver = Solver::new(geometry);
        let mut solver = if flag("--no-book") {
            solver.without_book()
        } else {
            solver
        };
        let started = Instant::now();
        let answer = solver.analyze_by(&board, to_move, Deadline::after(&clock, budget));
        let took = started.elapsed();
        let settled = answer.as_ref().is_some_and(|a| a.exact);
        count += 1;
        exact += usize::from(settled);
        slowest = slowest.max(took);
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        println!(
            "{} {} {:.0} ms {} positions {}",
            fields.join(" "),
            if settled { "exact" } else { "NOT EXACT" },
            took.as_secs_f64() * 1000.0,
            solver.positions(),
            answer.map_or_else(
                || "nothing".to_string(),
                |a| format!(
                    "{:?} {} plies, {} best",
                    a.verdict,
                    a.plies,
                    a.best_moves.len()
                )
            )
        );
        if flag("--parts") {
            parts(geometry, &board, to_move, flag("--null"), value("--move"));
        }
    }
    println!("{exact} of {count} exact; slowest {slowest:.3?}");
}

/// The questions under an answer, each asked of a new solver, timed.
fn parts(geometry: Geometry, board: &BitBoard, to_move: Mark, null_only: bool, only: Option<u64>) {
    let ask = |board: &BitBoard, attacker: Mark, mover: Mark| {
        let mut solver = Solver::new(geometry).without_book();
        let started = Instant::now();
        let wins = solver.can_force_win(board, attacker, mover, None);
        (wins, started.elapsed(), solver.positions())
    };
    let opponent = to_move.opponent();
    if let Some(cell) = only {
        let mut after = *board;
        let position = geometry.position(cell as usize - 1).unwrap();
        after.place(position, to_move).unwrap();
        let (wins, took, positions) = ask(&after, opponent, opponent);
        println!(
            "  move {cell:>2}: {opponent:?} wins {wins:?} in {took:.3?}, {positions} positions"
        );
        return;
    }
    let (wins, took, positions) = ask(board, opponent, opponent);
    println!("  null move: {opponent:?} wins {wins:?} in {took:.3?}, {positions} positions");
    if null_only {
        return;
    }
    let (wins, took, positions) = ask(board, to_move, to_move);
    println!("  a win for {to_move:?}: {wins:?} in {took:.3?}, {positions} positions");
    for position in geometry.positions() {
        if board.mark_at(position).is_some() {
            continue;
        }
        let mut after = *board;
        after.place(position, to_move).unwrap();
        let (wins, took, positions) = ask(&after, opponent, opponent);
        println!(
            "  move {:>2}: {opponent:?} wins {wins:?} in {took:.3?}, {positions} positions",
            position.index() + 1
        );
    }
}
