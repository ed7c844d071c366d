//! How long the computer thinks. Run with `cargo bench --bench engine`; the figures
//! are in docs/performance.md.

use std::collections::HashSet;
use std::hint::black_box;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use tictactoe_core::domain::{BitBoard, Board, Geometry, Mark, fill_from_layout};
use tictactoe_core::play::simulate;
use tictactoe_core::players::{ComputerFactory, Level};
use tictactoe_engine::Solver;
use tictactoe_players::StandardComputers;

fn impossible_on_the_empty_board(c: &mut Criterion) {
    let board = BitBoard::new(Geometry::classic());
    let mut group = c.benchmark_group("empty 3x3: value and every best move, cold");
    group.bench_function("engine solver", |b| {
        b.iter(|| {
            // A new solver each time: nothing cached from an earlier call.
            let mut solver = Solver::new(Geometry::classic());
            black_box(solver.analyze(black_box(&board), Mark::X))
        })
    });
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("naive minimax (seed-article style)", |b| {
        b.iter(|| black_box(naive::best_moves(black_box(naive::EMPTY), 'X')))
    });
    group.finish();
}

fn impossible_mid_game(c: &mut Criterion) {
    let board = fill_from_layout(BitBoard::new(Geometry::classic()), "x../.o./...").unwrap();
    c.bench_function("3x3 after two moves, cold", |b| {
        b.iter(|| {
            let mut solver = Solver::new(Geometry::classic());
            black_box(solver.analyze(black_box(&board), Mark::X))
        })
    });
}

fn impossible_against_itself(c: &mut Criterion) {
    let mut group = c.benchmark_group("simulate");
    group.throughput(criterion::Throughput::Elements(1000));
    group.bench_function("1000 games, impossible vs impossible", |b| {
        // One factory, so every run's players share its (warm) solver, as in `simulate`.
        let mut computers = StandardComputers::new(1, Duration::from_secs(1));
        b.iter(|| {
            let players = [Level::Impossible; 2].map(|level| computers.computer(level));
            simulate(players, Geometry::classic(), Mark::X, 1000, |_| {}).unwrap()
        })
    });
    group.finish();
}

/// The whole program, as a user runs it: start, read boards, answer, exit.
fn analyze_runs(c: &mut Criterion) {
    let binary = env!("CARGO_BIN_EXE_tictactoe");
    let all_positions = positions::all_in_layouts().join("\n");
    let run = |input: &str, json: bool| {
        let mut command = Command::new(binary);
        command
            .arg("analyze")
            .stdin(Stdio::piped())
            .stdout(Stdio::null());
        if json {
            command.arg("--json");
        }
        let mut child = command.spawn().unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        assert!(child.wait().unwrap().code().is_some());
    };
    let mut group = c.benchmark_group("process");
    group.sample_size(20);
    group.bench_function("tictactoe --version (process start)", |b| {
        b.iter(|| {
            Command::new(binary)
                .arg("--version")
                .stdout(Stdio::null())
                .status()
                .unwrap()
        })
    });
    group.bench_function("tictactoe analyze, one board", |b| {
        b.iter(|| run("x../.o./...\n", true))
    });
    group.bench_function("tictactoe analyze --json, all 5478 positions", |b| {
        b.iter(|| run(&all_positions, true))
    });
    group.finish();
}

fn larger_boards(c: &mut Criterion) {
    let mut group = c.benchmark_group("larger boards, cold");
    let four = Geometry::new(4, 4).unwrap();
    group.bench_function("empty 4x4, four in a row: value and every best move", |b| {
        let board = BitBoard::new(four);
        b.iter(|| Solver::new(four).analyze(black_box(&board), Mark::X))
    });
    // Positions with 10 empty cells, reached by play.
    for (size, win, layout) in [
        (4, 3, "x.o./.xo./o.x./...."),
        (4, 4, "xo../oxx./.o../...."),
        (5, 4, "xo.../.xo../o.x.o/..ox./x...o"),
        (5, 5, "xoxo./oxox./xox../o..../....."),
    ] {
        let geometry = Geometry::new(size, win).unwrap();
        let board = fill_from_layout(BitBoard::new(geometry), layout).unwrap();
        let name = format!(
            "{size}x{size}, {win} in a row, {} empty",
            board.empty_cells().len()
        );
        group.bench_function(name, |b| {
            b.iter(|| Solver::new(geometry).analyze(black_box(&board), Mark::X))
        });
    }
    group.finish();
}

/// The empty board of every size and run the menu offers beyond 3 x 3, cold: value and
/// every best move. (7,7,5) is left out: it is not proven in minutes yet.
fn every_empty_board(c: &mut Criterion) {
    let mut group = c.benchmark_group("empty boards, cold");
    group.sample_size(10);
    for (size, win) in [
        (4, 3),
        (4, 4),
        (5, 3),
        (5, 4),
        (5, 5),
        (6, 3),
        (6, 4),
        (6, 5),
        (6, 6),
        (7, 3),
        (7, 4),
        (7, 6),
        (7, 7),
    ] {
        let geometry = Geometry::new(size, win).unwrap();
        let board = BitBoard::new(geometry);
        group.bench_function(format!("({size},{size},{win})"), |b| {
            b.iter(|| Solver::new(geometry).analyze(black_box(&board), Mark::X))
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    every_empty_board,
    impossible_on_the_empty_board,
    impossible_mid_game,
    impossible_against_itself,
    analyze_runs,
    larger_boards
);
criterion_main!(benches);

/// Every position reachable from the empty board, X first, as layouts.
mod positions {
    use std::collections::HashSet;

    pub fn all_in_layouts() -> Vec<String> {
        fn walk(cells: [u8; 9], x_to_move: bool, seen: &mut HashSet<[u8; 9]>) {
            if !seen.insert(cells) || super::naive::winner(&cells.map(char::from)).is_some() {
                return;
            }
            for i in 0..9 {
                if cells[i] == b'.' {
                    let mut next = cells;
                    next[i] = if x_to_move { b'X' } else { b'O' };
                    walk(next, !x_to_move, seen);
                }
            }
        }
        let mut seen = HashSet::new();
        walk([b'.'; 9], true, &mut seen);
        seen.into_iter()
            .map(|c| String::from_utf8(c.to_vec()).unwrap())
            .collect()
    }
}

/// Minimax the way the seed articles write it: the board copied at every node, lines
/// checked as sets, no pruning, no table. Kept only to measure against.
mod naive {
    use super::HashSet;

    pub const EMPTY: [char; 9] = ['.'; 9];

    pub fn winner(board: &[char; 9]) -> Option<char> {
        let lines: [HashSet<usize>; 8] = [
            HashSet::from([0, 1, 2]),
            HashSet::from([3, 4, 5]),
            HashSet::from([6, 7, 8]),
            HashSet::from([0, 3, 6]),
            HashSet::from([1, 4, 7]),
            HashSet::from([2, 5, 8]),
            HashSet::from([0, 4, 8]),
            HashSet::from([2, 4, 6]),
        ];
        ['X', 'O'].into_iter().find(|&mark| {
            let cells: HashSet<usize> = (0..9).filter(|&i| board[i] == mark).collect();
            lines.iter().any(|line| line.is_subset(&cells))
        })
    }

    /// Score for `mark` after playing `cell`: wins count more the sooner they come.
    fn minimax(board: [char; 9], cell: usize, mark: char) -> i32 {
        let mut next = board;
        next[cell] = mark;
        let empty: Vec<usize> = (0..9).filter(|&i| next[i] == '.').collect();
        if winner(&next) == Some(mark) {
            return empty.len() as i32 + 1;
        }
        if empty.is_empty() {
            return 0;
        }
        let other = if mark == 'X' { 'O' } else { 'X' };
        -empty
            .iter()
            .map(|&reply| minimax(next, reply, other))
            .max()
            .unwrap()
    }

    pub fn best_moves(board: [char; 9], mark: char) -> Vec<usize> {
        let scores: Vec<(usize, i32)> = (0..9)
            .filter(|&i| board[i] == '.')
            .map(|i| (i, minimax(board, i, mark)))
            .collect();
        let best = scores.iter().map(|&(_, s)| s).max().unwrap();
        scores
            .into_iter()
            .filter(|&(_, s)| s == best)
            .map(|(i, _)| i)
            .collect()
    }
}
