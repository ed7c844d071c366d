//! The engine against known positions: every position the seed articles test, the
//! fastest-win bug one of them found, and our own. Cells are the 1-based numbers a
//! player types.

use rand::SeedableRng;
use rand::rngs::StdRng;
use rstest::rstest;
use tictactoe_core::domain::{
    BitBoard, Game, GameState, GameStatus, Geometry, Mark, Verdict, fill_from_layout,
};
use tictactoe_engine::{Lookahead, Solver};
use tictactoe_players::MinimaxAI;

fn board(layout: &str) -> BitBoard {
    fill_from_layout(BitBoard::new(Geometry::classic()), layout).expect("a valid layout")
}

fn numbers(cells: &[tictactoe_core::domain::Position]) -> Vec<usize> {
    cells.iter().map(|p| p.number()).collect()
}

#[rstest]
#[case::x_wins_in_one("xxo/xoo/...", Mark::X, Verdict::Win, 1, &[7])]
#[case::o_wins_in_one_two_ways("xxo/xoo/...", Mark::O, Verdict::Win, 1, &[7, 9])]
#[case::x_draws_with_the_last_cell("xxo/oox/x.o", Mark::X, Verdict::Draw, 1, &[8])]
#[case::x_blocks_and_forks("x../.o./o.x", Mark::X, Verdict::Win, 3, &[3])]
#[case::o_skips_no_immediate_win("xox/.o./x..", Mark::O, Verdict::Win, 1, &[8])]
#[case::o_draws_with_two_cells_left("xox/oox/.x.", Mark::O, Verdict::Draw, 2, &[9])]
#[case::o_must_take_the_centre_after_a_corner("x../.../...", Mark::O, Verdict::Draw, 8, &[5])]
#[case::every_opening_draws(".../.../...", Mark::X, Verdict::Draw, 9, &[1, 2, 3, 4, 5, 6, 7, 8, 9])]
#[case::x_forks_after_an_edge_reply("xo./.../...", Mark::X, Verdict::Win, 5, &[4, 5, 7])]
#[case::facing_a_fork_o_delays("x../.o./..x", Mark::O, Verdict::Draw, 6, &[2, 4, 6, 8])]
fn the_solver_finds_the_verdict_the_length_and_every_best_move(
    #[case] layout: &str,
    #[case] to_move: Mark,
    #[case] verdict: Verdict,
    #[case] plies: usize,
    #[case] best: &[usize],
) {
    let mut solver = Solver::new(Geometry::classic());

    let analysis = solver
        .analyze(&board(layout), to_move)
        .expect("game in progress");

    assert_eq!((analysis.verdict, analysis.plies), (verdict, plies));
    assert_eq!(numbers(&analysis.best_moves), best);
}

#[test]
fn a_lost_position_is_played_for_the_slowest_loss() {
    // 4 x 4, three in a row, O to move: X wins whatever O does. Most of O's moves do
    // not lose at once, but only 2 and 5 put the loss off longest.
    let geometry = Geometry::new(4, 3).unwrap();
    let board = fill_from_layout(BitBoard::new(geometry), "o.../.x.o/...x/..x.").unwrap();

    let analysis = Solver::new(geometry).analyze(&board, Mark::O).unwrap();

    assert_eq!(analysis.verdict, Verdict::Loss);
    assert_eq!(numbers(&analysis.best_moves), [2, 5]);
}

#[test]
fn a_quick_win_on_a_board_still_mostly_empty_is_measured_exactly() {
    // 4 x 4, three in a row, X to move with 12 cells empty: X wins with its second
    // move (3 plies), the earliest its lines allow.
    let geometry = Geometry::new(4, 3).unwrap();
    let board = fill_from_layout(BitBoard::new(geometry), "xo../o.../...x/....").unwrap();

    let analysis = Solver::new(geometry).analyze(&board, Mark::X).unwrap();

    assert_eq!((analysis.verdict, analysis.plies), (Verdict::Win, 3));
}

#[test]
fn the_solver_has_nothing_to_say_about_a_finished_game() {
    let mut solver = Solver::new(Geometry::classic());

    assert_eq!(solver.analyze(&board("xxx/oo./..."), Mark::O), None);
    assert_eq!(solver.analyze(&board("xox/xoo/oxx"), Mark::X), None);
}

#[test]
fn the_verdict_alone_is_nothing_once_the_game_is_over() {
    let mut solver = Solver::new(Geometry::classic());

    assert_eq!(solver.value(&board("xxx/oo./..."), Mark::O), None);
    assert_eq!(solver.value(&board("xox/xoo/oxx"), Mark::X), None);
}

#[rstest]
#[case::x_to_move_completes_its_row(Mark::X, Some(true))]
#[case::o_to_move_blocks_it_in_time(Mark::O, Some(false))]
fn whether_x_can_force_a_win_depends_on_who_is_to_move(
    #[case] to_move: Mark,
    #[case] x_wins: Option<bool>,
) {
    let mut solver = Solver::new(Geometry::classic());

    let answer = solver.can_force_win(&board("xx./o../..o"), Mark::X, to_move, None);

    assert_eq!(answer, x_wins);
}

#[test]
fn whether_a_side_can_force_a_win_is_not_asked_once_the_game_is_over() {
    let mut solver = Solver::new(Geometry::classic());

    assert_eq!(
        solver.can_force_win(&board("xxx/oo./..."), Mark::X, Mark::O, None),
        None
    );
    assert_eq!(
        solver.can_force_win(&board("xox/xoo/oxx"), Mark::X, Mark::X, None),
        None
    );
}

#[rstest]
#[case::easy_takes_a_win(1, "xx./oo./...", Mark::X, &[3])]
#[case::easy_does_not_block(1, "x../oo./x..", Mark::X, &[2, 3, 6, 8, 9])]
#[case::medium_takes_a_win_before_blocking(2, "xx./oo./...", Mark::X, &[3])]
#[case::medium_blocks(2, "x../oo./x..", Mark::X, &[6])]
#[case::medium_cannot_see_a_fork_coming(2, "x../.o./..x", Mark::O, &[2, 3, 4, 6, 7, 8])]
fn the_lookahead_sees_exactly_as_far_as_its_depth(
    #[case] depth: u32,
    #[case] layout: &str,
    #[case] to_move: Mark,
    #[case] best: &[usize],
) {
    let lookahead = Lookahead::new(Geometry::classic(), depth);

    assert_eq!(
        numbers(&lookahead.best_moves(&board(layout), to_move)),
        best
    );
}

/// Plays every game the Impossible player can meet: all opponent moves, and each of its
/// own best moves (it picks among them at random). Returns the number of games; panics
/// on a loss.
fn every_game_against_impossible(
    game: &Game<BitBoard>,
    impossible: Mark,
    ai: &mut MinimaxAI<StdRng>,
) -> u64 {
    match game.status() {
        GameStatus::Won(win) => {
            assert_ne!(
                win.mark,
                impossible.opponent(),
                "Impossible lost: {:?}",
                tictactoe_core::domain::layout_of(game.board())
            );
            1
        }
        GameStatus::Draw => 1,
        GameStatus::InProgress => {
            let moves = if game.to_move() == impossible {
                ai.best_moves(game.board(), impossible)
            } else {
                game.board().empty_cells()
            };
            moves
                .into_iter()
                .map(|cell| {
                    let mut next = game.clone();
                    next.play(cell).expect("a legal move");
                    every_game_against_impossible(&next, impossible, ai)
                })
                .sum()
        }
    }
}

#[rstest]
#[case::as_x_moving_first(Mark::X, Mark::X)]
#[case::as_o_moving_second(Mark::O, Mark::X)]
#[case::as_x_moving_second(Mark::X, Mark::O)]
#[case::as_o_moving_first(Mark::O, Mark::O)]
fn impossible_never_loses_whatever_the_opponent_does(
    #[case] impossible: Mark,
    #[case] first: Mark,
) {
    let mut ai = MinimaxAI::impossible(StdRng::seed_from_u64(0));
    let game = Game::<BitBoard>::start(Geometry::classic(), first);

    let games = every_game_against_impossible(&game, impossible, &mut ai);

    assert!(games > 100, "only {games} games explored");
}
