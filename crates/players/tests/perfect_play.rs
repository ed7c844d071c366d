//! Proof that the engine plays perfectly on 3 x 3, by comparison with a solver simple
//! enough to check by eye. The reference shares nothing with the engine but the board
//! type it is handed: plain arrays, the eight lines written out, full-width minimax.

use std::collections::{HashMap, HashSet};

use rand::SeedableRng;
use rand::rngs::StdRng;
use tictactoe_core::domain::{BitBoard, Game, Geometry, Mark, Verdict, fill_from_layout};
use tictactoe_core::players::MoveChooser;
use tictactoe_engine::Solver;
use tictactoe_players::MinimaxAI;

mod support;
use support::layout;

type Cells = [Option<Mark>; 9];

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

fn has_line(cells: &Cells, mark: Mark) -> bool {
    LINES
        .iter()
        .any(|line| line.iter().all(|&i| cells[i] == Some(mark)))
}

/// The result for the side to move, and how many moves the game lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Value {
    verdict: Verdict,
    plies: usize,
}

impl Value {
    /// Higher is better for the side to move: a win soon, then a draw, then a loss late.
    fn rank(self) -> (u8, isize) {
        match self.verdict {
            Verdict::Win => (2, -(self.plies as isize)),
            Verdict::Draw => (1, 0),
            Verdict::Loss => (0, self.plies as isize),
        }
    }
}

struct Reference {
    memo: HashMap<(Cells, Mark), (Value, Vec<usize>)>,
}

impl Reference {
    /// The value of the position and every move (0-based) that achieves it.
    fn solve(&mut self, cells: Cells, to_move: Mark) -> (Value, Vec<usize>) {
        if let Some(known) = self.memo.get(&(cells, to_move)) {
            return known.clone();
        }
        let mut scored = Vec::new();
        for cell in (0..9).filter(|&i| cells[i].is_none()) {
            let mut next = cells;
            next[cell] = Some(to_move);
            let value = if has_line(&next, to_move) {
                Value {
                    verdict: Verdict::Win,
                    plies: 1,
                }
            } else if next.iter().all(Option::is_some) {
                Value {
                    verdict: Verdict::Draw,
                    plies: 1,
                }
            } else {
                let (reply, _) = self.solve(next, to_move.opponent());
                let verdict = match reply.verdict {
                    Verdict::Win => Verdict::Loss,
                    Verdict::Draw => Verdict::Draw,
                    Verdict::Loss => Verdict::Win,
                };
                Value {
                    verdict,
                    plies: reply.plies + 1,
                }
            };
            scored.push((cell, value));
        }
        let best = scored
            .iter()
            .map(|(_, v)| *v)
            .max_by_key(|v| v.rank())
            .expect("a move");
        let moves = scored
            .iter()
            .filter(|(_, v)| v.rank() == best.rank())
            .map(|(c, _)| *c)
            .collect();
        self.memo.insert((cells, to_move), (best, moves));
        self.memo[&(cells, to_move)].clone()
    }
}

/// Every position reachable from the empty board with X moving first.
fn reachable() -> HashSet<Cells> {
    fn walk(cells: Cells, to_move: Mark, seen: &mut HashSet<Cells>) {
        if !seen.insert(cells) || has_line(&cells, Mark::X) || has_line(&cells, Mark::O) {
            return;
        }
        for cell in (0..9).filter(|&i| cells[i].is_none()) {
            let mut next = cells;
            next[cell] = Some(to_move);
            walk(next, to_move.opponent(), seen);
        }
    }
    let mut seen = HashSet::new();
    walk([None; 9], Mark::X, &mut seen);
    seen
}

#[test]
fn the_engine_agrees_with_brute_force_on_every_reachable_position() {
    let positions = reachable();
    let in_progress: Vec<Cells> = positions
        .iter()
        .filter(|c| !has_line(c, Mark::X) && !has_line(c, Mark::O) && c.iter().any(Option::is_none))
        .copied()
        .collect();
    assert_eq!((positions.len(), in_progress.len()), (5478, 4520));

    let mut reference = Reference {
        memo: HashMap::new(),
    };
    let mut solver = Solver::new(Geometry::classic());
    let mut impossible = MinimaxAI::impossible(StdRng::seed_from_u64(0));
    for cells in in_progress {
        let x = cells.iter().filter(|c| **c == Some(Mark::X)).count();
        let o = cells.iter().filter(|c| **c == Some(Mark::O)).count();
        let to_move = if x == o { Mark::X } else { Mark::O };
        let board = fill_from_layout(BitBoard::new(Geometry::classic()), &layout(&cells)).unwrap();

        let (expected, expected_moves) = reference.solve(cells, to_move);
        let analysis = solver.analyze(&board, to_move).expect("in progress");
        let chosen = impossible.best_moves(&board, to_move);

        let best: Vec<usize> = analysis.best_moves.iter().map(|p| p.index()).collect();
        let context = format!("{} with {to_move} to move", layout(&cells));
        assert_eq!(
            (analysis.verdict, analysis.plies),
            (expected.verdict, expected.plies),
            "{context}"
        );
        assert_eq!(best, expected_moves, "{context}");
        assert_eq!(
            chosen.iter().map(|p| p.index()).collect::<Vec<_>>(),
            expected_moves,
            "{context}"
        );
        let game = Game::from_board(board, Mark::X).unwrap();
        let Some(played) = impossible.choose_move(&game) else {
            panic!("{context}: no move")
        };
        assert!(
            expected_moves.contains(&played.index()),
            "{context}: played {played}"
        );
    }
}
