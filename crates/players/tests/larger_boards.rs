//! Exactness on boards larger than 3 x 3: the engine against a plain brute-force solver
//! on random positions with few empty cells. The reference computes its own lines and
//! shares nothing with the engine but the board type.

use std::collections::HashMap;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rstest::rstest;
use tictactoe_core::domain::{BitBoard, Board, Geometry, Mark, Verdict, fill_from_layout};
use tictactoe_core::players::Advisor;
use tictactoe_engine::Solver;
use tictactoe_players::MinimaxAI;

mod support;
use support::layout;

/// Every run of `k` cells in a row, column or diagonal of an `n` x `n` board.
fn lines(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut all = Vec::new();
    for (dr, dc) in [(0i32, 1i32), (1, 0), (1, 1), (1, -1)] {
        for r in 0..n as i32 {
            for c in 0..n as i32 {
                let cells: Vec<(i32, i32)> =
                    (0..k as i32).map(|i| (r + dr * i, c + dc * i)).collect();
                if cells
                    .iter()
                    .all(|&(r, c)| r >= 0 && c >= 0 && r < n as i32 && c < n as i32)
                {
                    all.push(
                        cells
                            .iter()
                            .map(|&(r, c)| (r * n as i32 + c) as usize)
                            .collect(),
                    );
                }
            }
        }
    }
    all
}

/// For the side to move: a rank (win soon > draw > lose late), the moves left, the best moves.
type Answer = ((u8, isize), usize, Vec<usize>);

struct Reference {
    lines: Vec<Vec<usize>>,
    memo: HashMap<(Vec<Option<Mark>>, Mark), Answer>,
}

impl Reference {
    fn has_line(&self, cells: &[Option<Mark>], mark: Mark) -> bool {
        self.lines
            .iter()
            .any(|line| line.iter().all(|&i| cells[i] == Some(mark)))
    }

    fn solve(&mut self, cells: &[Option<Mark>], to_move: Mark) -> Answer {
        if let Some(known) = self.memo.get(&(cells.to_vec(), to_move)) {
            return known.clone();
        }
        let mut scored = Vec::new();
        for cell in (0..cells.len()).filter(|&i| cells[i].is_none()) {
            let mut next = cells.to_vec();
            next[cell] = Some(to_move);
            let (rank, plies) = if self.has_line(&next, to_move) {
                ((2, -1), 1)
            } else if next.iter().all(Option::is_some) {
                ((1, 0), 1)
            } else {
                let ((kind, _), reply_plies, _) = self.solve(&next, to_move.opponent());
                let plies = reply_plies + 1;
                match kind {
                    2 => ((0, plies as isize), plies),
                    1 => ((1, 0), plies),
                    _ => ((2, -(plies as isize)), plies),
                }
            };
            scored.push((cell, rank, plies));
        }
        let best = scored.iter().map(|&(_, r, _)| r).max().unwrap();
        let plies = scored.iter().find(|&&(_, r, _)| r == best).unwrap().2;
        let moves = scored
            .iter()
            .filter(|&&(_, r, _)| r == best)
            .map(|&(c, _, _)| c)
            .collect();
        let answer = (best, plies, moves);
        self.memo.insert((cells.to_vec(), to_move), answer.clone());
        answer
    }
}

/// A random position reached by legal play that is still in progress with `empty` cells
/// left. Each side plays a random cell among those that do not complete one of its lines
/// (so that boards with three in a row, where random play ends in a few moves, can be
/// filled too); a deal where a side has no such cell is dealt again.
fn random_position(
    reference: &Reference,
    cells: usize,
    empty: usize,
    rng: &mut StdRng,
) -> (Vec<Option<Mark>>, Mark) {
    for _attempt in 0..100_000 {
        let mut board = vec![None; cells];
        let mut to_move = Mark::X;
        let mut stuck = false;
        while board.iter().filter(|c| c.is_none()).count() > empty {
            let quiet: Vec<usize> = (0..cells)
                .filter(|&i| board[i].is_none())
                .filter(|&i| {
                    let mut next = board.clone();
                    next[i] = Some(to_move);
                    !reference.has_line(&next, to_move)
                })
                .collect();
            let Some(&cell) = quiet.choose(rng) else {
                stuck = true;
                break;
            };
            board[cell] = Some(to_move);
            to_move = to_move.opponent();
        }
        if !stuck {
            return (board, to_move);
        }
    }
    panic!("no position in progress with {empty} empty cells found")
}

#[rstest]
#[case::four_in_a_row_on_4x4(4, 4)]
#[case::three_in_a_row_on_4x4(4, 3)]
#[case::four_in_a_row_on_5x5(5, 4)]
#[case::three_in_a_row_on_5x5(5, 3)]
#[case::five_in_a_row_on_5x5(5, 5)]
#[case::three_in_a_row_on_6x6(6, 3)]
#[case::four_in_a_row_on_6x6(6, 4)]
#[case::five_in_a_row_on_6x6(6, 5)]
#[case::six_in_a_row_on_6x6(6, 6)]
#[case::three_in_a_row_on_7x7(7, 3)]
#[case::four_in_a_row_on_7x7(7, 4)]
#[case::five_in_a_row_on_7x7(7, 5)]
#[case::six_in_a_row_on_7x7(7, 6)]
#[case::seven_in_a_row_on_7x7(7, 7)]
fn the_engine_is_exact_on_random_positions_with_few_empty_cells(
    #[case] size: usize,
    #[case] win: usize,
) {
    let geometry = Geometry::new(size, win).unwrap();
    let mut reference = Reference {
        lines: lines(size, win),
        memo: HashMap::new(),
    };
    let mut rng = StdRng::seed_from_u64((size * 10 + win) as u64);
    let mut solver = Solver::new(geometry);
    // A second solver for the verdict alone, so it cannot lean on the first one's table.
    let mut valuer = Solver::new(geometry);
    let mut impossible =
        MinimaxAI::impossible(StdRng::seed_from_u64(1)).thinking_for(Duration::from_secs(10));

    // Fewer on the larger boards, where the reference is slower: the suite stays quick.
    let (count, most_empty) = if size <= 5 { (40, 10) } else { (12, 8) };
    for _ in 0..count {
        let empty = rng.random_range(4..=most_empty);
        let (cells, to_move) = random_position(&reference, size * size, empty, &mut rng);
        let board = fill_from_layout(BitBoard::new(geometry), &layout(&cells)).unwrap();

        let (rank, plies, best) = reference.solve(&cells, to_move);
        let analysis = solver.analyze(&board, to_move).expect("in progress");
        let value = valuer.value(&board, to_move);
        let advice = impossible.advise(&board, to_move).expect("in progress");

        let context = format!("{} ({to_move} to move)", layout(&cells));
        let verdict = match rank.0 {
            2 => Verdict::Win,
            1 => Verdict::Draw,
            _ => Verdict::Loss,
        };
        assert_eq!(
            (analysis.verdict, analysis.plies),
            (verdict, plies),
            "{context}"
        );
        assert_eq!(value, Some(verdict), "{context}: the verdict alone");
        assert_eq!(
            analysis
                .best_moves
                .iter()
                .map(|p| p.index())
                .collect::<Vec<_>>(),
            best,
            "{context}"
        );
        assert!(
            advice.exact,
            "{context}: should be proven within the budget"
        );
        assert_eq!(advice.best_moves, analysis.best_moves, "{context}");
        assert_eq!(board.empty_cells().len(), empty);
    }
}
