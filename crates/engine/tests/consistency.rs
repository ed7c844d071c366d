//! The solver's answers agree with each other: on random positions of every board, a
//! position's value is the best of its children's values, seen from the side to move
//! (a child's value negated, one ply longer), and its best moves are exactly the
//! moves whose children reach that value. Positions are taken far enough into a game
//! that every child is quick to solve.

use tictactoe_core::domain::{Analysis, BitBoard, Board, Geometry, Mark, Verdict};
use tictactoe_engine::Solver;

/// A value for the side to move, ordered so that greater is better: the fastest win,
/// then a draw, then the slowest loss.
fn rank(verdict: Verdict, plies: usize) -> i64 {
    match verdict {
        Verdict::Win => 1000 - plies as i64,
        Verdict::Draw => 0,
        Verdict::Loss => -1000 + plies as i64,
    }
}

/// The value of playing `cell` for `mover`, from the solver's answer for the child.
fn child_rank(solver: &mut Solver, board: &BitBoard, mover: Mark, cell: usize) -> i64 {
    let mut child = *board;
    let position = board
        .geometry()
        .position(cell)
        .expect("a cell of the board");
    child.place(position, mover).expect("an empty cell");
    if child.winner().is_some() {
        return rank(Verdict::Win, 1);
    }
    if child.is_full() {
        return rank(Verdict::Draw, 1);
    }
    let Analysis { verdict, plies, .. } = solver
        .analyze(&child, mover.opponent())
        .expect("a child in progress has an answer");
    let negated = match verdict {
        Verdict::Win => Verdict::Loss,
        Verdict::Draw => Verdict::Draw,
        Verdict::Loss => Verdict::Win,
    };
    rank(negated, plies + 1)
}

/// A position `stones` random moves into a game that nobody has won, X first; `None`
/// if the game ended before. A xorshift generator seeded by `seed`: reproducible.
fn random_position(geometry: Geometry, stones: usize, seed: u64) -> Option<(BitBoard, Mark)> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut board = BitBoard::new(geometry);
    let mut mover = Mark::X;
    for _ in 0..stones {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let empty = board.empty_cells();
        let position = empty[(state % empty.len() as u64) as usize];
        board.place(position, mover).expect("an empty cell");
        if board.winner().is_some() {
            return None;
        }
        mover = mover.opponent();
    }
    Some((board, mover))
}

#[rstest::rstest]
#[case::classic(3, 3, 0)]
#[case::four_three(4, 3, 5)]
#[case::four_four(4, 4, 4)]
#[case::five_three(5, 3, 12)]
#[case::five_four(5, 4, 13)]
#[case::five_five(5, 5, 13)]
#[case::six_three(6, 3, 4)]
#[case::six_four(6, 4, 25)]
#[case::six_five(6, 5, 25)]
#[case::six_six(6, 6, 24)]
#[case::seven_three(7, 3, 4)]
#[case::seven_four(7, 4, 24)]
#[case::seven_five(7, 5, 38)]
#[case::seven_six(7, 6, 37)]
#[case::seven_seven(7, 7, 37)]
fn a_value_is_the_best_of_its_childrens_and_the_best_moves_are_the_children_reaching_it(
    #[case] size: usize,
    #[case] win: usize,
    #[case] stones: usize,
) {
    let geometry = Geometry::new(size, win).unwrap();
    let mut checked = 0;
    for seed in 0..40 {
        let Some((board, mover)) = random_position(geometry, stones + (seed as usize % 3), seed)
        else {
            continue;
        };
        let mut solver = Solver::new(geometry);

        let analysis = solver
            .analyze(&board, mover)
            .expect("a position in progress");

        let children: Vec<(usize, i64)> = board
            .empty_cells()
            .iter()
            .map(|p| (p.index(), child_rank(&mut solver, &board, mover, p.index())))
            .collect();
        let best = children.iter().map(|&(_, r)| r).max().unwrap();
        let reaching: Vec<usize> = children
            .iter()
            .filter(|&&(_, r)| r == best)
            .map(|&(cell, _)| cell)
            .collect();
        let listed: Vec<usize> = analysis.best_moves.iter().map(|p| p.index()).collect();
        assert!(analysis.exact, "{size},{win} seed {seed}: not exact");
        assert_eq!(
            rank(analysis.verdict, analysis.plies),
            best,
            "{size},{win} seed {seed}: {analysis:?}"
        );
        assert_eq!(listed, reaching, "{size},{win} seed {seed}");
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} positions in progress");
}
