//! The rules of a game: turns, illegal moves, the end. Cells are the numbers a player types.

use rstest::rstest;
use tictactoe_core::domain::{
    BitBoard, Game, GameState, GameStatus, Geometry, GridBoard, IllegalMove, IllegalPosition, Mark,
    MoveError, Position, fill_from_layout,
};

fn cell(number: usize) -> Position {
    Geometry::classic().position(number - 1).unwrap()
}

fn new_game(first: Mark) -> Game<GridBoard> {
    Game::start(Geometry::classic(), first)
}

fn played(first: Mark, numbers: &[usize]) -> Game<GridBoard> {
    let mut game = new_game(first);
    for &n in numbers {
        game.play(cell(n)).unwrap();
    }
    game
}

fn from_layout(layout: &str, first: Mark) -> Result<Game<BitBoard>, IllegalPosition> {
    let board = fill_from_layout(BitBoard::new(Geometry::classic()), layout).unwrap();
    Game::from_board(board, first)
}

#[rstest]
#[case::x_first(Mark::X)]
#[case::o_first(Mark::O)]
fn the_first_mover_is_configurable_and_turns_alternate(#[case] first: Mark) {
    let mut game = new_game(first);

    assert_eq!(game.to_move(), first);
    game.play(cell(5)).unwrap();
    assert_eq!(game.to_move(), first.opponent());
    assert_eq!(game.board().mark_at(cell(5)), Some(first));
}

#[test]
fn completing_a_line_wins_and_names_the_line() {
    let mut game = played(Mark::X, &[1, 4, 2, 5]);

    let status = game.play(cell(3)).unwrap();

    let GameStatus::Won(win) = status else {
        panic!("expected a win, got {status:?}")
    };
    assert_eq!(win.mark, Mark::X);
    assert_eq!(win.line.cells(), [cell(1), cell(2), cell(3)]);
}

#[test]
fn filling_the_board_without_a_line_is_a_draw() {
    let game = played(Mark::X, &[1, 2, 3, 5, 4, 6, 8, 7, 9]);

    assert_eq!(game.status(), GameStatus::Draw);
}

#[test]
fn a_win_with_the_last_cell_is_a_win_not_a_draw() {
    // X: 1 6 7 8, O: 2 3 5 4; X's ninth mark completes the bottom row and fills the board.
    let mut game = played(Mark::X, &[1, 2, 6, 3, 7, 5, 8, 4]);

    let status = game.play(cell(9)).unwrap();

    assert!(game.board().is_full());
    assert!(matches!(status, GameStatus::Won(win) if win.mark == Mark::X));
}

#[test]
fn a_taken_cell_is_refused_and_the_game_is_unchanged() {
    let mut game = played(Mark::X, &[5]);

    let result = game.play(cell(5));

    assert_eq!(
        result,
        Err(MoveError::Illegal(IllegalMove::Occupied(cell(5))))
    );
    assert_eq!(game.to_move(), Mark::O, "still O's turn");
}

#[test]
fn a_cell_off_the_board_is_refused() {
    let mut game = new_game(Mark::X);
    let off_board = Geometry::new(5, 5).unwrap().position(20).unwrap();

    assert_eq!(
        game.play(off_board),
        Err(MoveError::Illegal(IllegalMove::OffBoard(off_board)))
    );
}

#[test]
fn no_move_is_accepted_after_the_game_is_won() {
    let mut game = played(Mark::X, &[1, 4, 2, 5, 3]);

    assert_eq!(game.play(cell(9)), Err(MoveError::GameOver));
    assert_eq!(game.board().mark_at(cell(9)), None);
}

#[rstest]
#[case::empty(".........", Mark::X, Mark::X)]
#[case::x_moved("x........", Mark::X, Mark::O)]
#[case::o_first_o_moved("o........", Mark::O, Mark::X)]
#[case::even_counts("xo.......", Mark::X, Mark::X)]
fn the_side_to_move_follows_from_the_counts(
    #[case] layout: &str,
    #[case] first: Mark,
    #[case] to_move: Mark,
) {
    assert_eq!(from_layout(layout, first).map(|g| g.to_move()), Ok(to_move));
}

#[rstest]
#[case::o_ahead_when_x_first("o........", Mark::X, IllegalPosition::Counts { x: 0, o: 1, first: Mark::X })]
#[case::x_two_ahead("xx.......", Mark::X, IllegalPosition::Counts { x: 2, o: 0, first: Mark::X })]
#[case::both_have_lines("xxx/ooo/...", Mark::X, IllegalPosition::BothWon)]
#[case::x_won_but_o_moved_last("xxx/oo./..o", Mark::X, IllegalPosition::PlayAfterWin(Mark::X))]
#[case::o_won_then_x_moved("ooo/xx./x..", Mark::O, IllegalPosition::PlayAfterWin(Mark::O))]
fn impossible_positions_are_refused_with_the_reason(
    #[case] layout: &str,
    #[case] first: Mark,
    #[case] error: IllegalPosition,
) {
    assert_eq!(from_layout(layout, first).err(), Some(error));
}

#[test]
fn two_lines_made_by_one_move_are_a_legal_win() {
    // X's last move in the corner completed the top row and the left column at once.
    let game = from_layout("xxx/xoo/xoo", Mark::X).unwrap_or_else(|e| panic!("{e}"));

    assert!(matches!(game.status(), GameStatus::Won(win) if win.mark == Mark::X));
}

#[test]
fn two_disjoint_lines_cannot_come_from_one_move() {
    // On 3 x 3 two disjoint lines always break the counts; on 4 x 4 with three in a row
    // the counts fit (6 X, 5 O), but X's last move cannot have made both rows.
    let geometry = Geometry::new(4, 3).unwrap();
    let board = fill_from_layout(GridBoard::new(geometry), "xxx./oo.o/o.o./xxx.").unwrap();

    let result = Game::from_board(board, Mark::X);

    assert_eq!(result.err(), Some(IllegalPosition::PlayAfterWin(Mark::X)));
}

#[test]
fn undo_takes_back_the_last_move_and_gives_the_turn_back() {
    let mut game = played(Mark::X, &[5, 1]);

    assert_eq!(game.undo(), Some(cell(1)));

    assert_eq!(game.board().mark_at(cell(1)), None);
    assert_eq!(game.to_move(), Mark::O);
    assert_eq!(game.moves_played(), 1);
}

#[test]
fn undo_after_a_win_reopens_the_game() {
    let mut game = played(Mark::X, &[1, 4, 2, 5, 3]);

    game.undo();

    assert_eq!(game.status(), GameStatus::InProgress);
    assert_eq!(game.to_move(), Mark::X);
}

#[test]
fn there_is_nothing_to_undo_before_the_first_move() {
    let mut game = new_game(Mark::X);

    assert_eq!(game.undo(), None);
    assert_eq!(game.moves_played(), 0);
}

#[test]
fn marks_a_game_was_set_up_with_cannot_be_undone() {
    let mut game = from_layout("xo./.../...", Mark::X).unwrap();

    assert_eq!(game.undo(), None);
    assert_eq!(game.board().count(Mark::X), 1);
}

#[rstest]
#[case::full_without_a_line("xox/xoo/oxx", GameStatus::Draw)]
#[case::room_left_without_a_line("xo./.../...", GameStatus::InProgress)]
fn a_position_set_up_without_a_line_is_a_draw_only_when_full(
    #[case] layout: &str,
    #[case] status: GameStatus,
) {
    let game = from_layout(layout, Mark::X).unwrap_or_else(|e| panic!("{e}"));

    assert_eq!(game.status(), status);
}
