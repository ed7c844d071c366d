//! One contract, every `Board`: the same tests run against each implementation through
//! an rstest_reuse template. A new board type joins by adding one `#[case]`.

use rstest::rstest;
use rstest_reuse::{self, apply, template};
use tictactoe_core::domain::{
    BitBoard, Board, Geometry, GridBoard, IllegalMove, Line, Mark, Position, fill_from_layout,
};

type MakeBoard = fn(Geometry) -> Box<dyn Board>;

fn grid(geometry: Geometry) -> Box<dyn Board> {
    Box::new(GridBoard::new(geometry))
}

fn bits(geometry: Geometry) -> Box<dyn Board> {
    Box::new(BitBoard::new(geometry))
}

#[template]
#[rstest]
#[case::grid_board(grid as MakeBoard)]
#[case::bit_board(bits as MakeBoard)]
fn every_board(#[case] make: MakeBoard) {}

fn classic() -> Geometry {
    Geometry::classic()
}

fn cell(number: usize) -> Position {
    classic().position(number - 1).unwrap()
}

/// Puts marks on a fresh board from a layout such as "xx./oo./...".
fn board_with(make: MakeBoard, layout: &str) -> Box<dyn Board> {
    let mut board = make(classic());
    for (position, c) in classic()
        .positions()
        .zip(layout.chars().filter(|c| *c != '/'))
    {
        let mark = match c {
            'x' => Mark::X,
            'o' => Mark::O,
            _ => continue,
        };
        board.place(position, mark).unwrap();
    }
    board
}

#[apply(every_board)]
fn a_new_board_is_empty(make: MakeBoard) {
    let board = make(classic());

    assert_eq!(board.empty_cells().len(), 9);
    assert!(!board.is_full());
    assert_eq!(board.winner(), None);
    assert_eq!((board.count(Mark::X), board.count(Mark::O)), (0, 0));
}

#[apply(every_board)]
fn a_placed_mark_can_be_read_back(make: MakeBoard) {
    let mut board = make(classic());

    board.place(cell(5), Mark::O).unwrap();

    assert_eq!(board.mark_at(cell(5)), Some(Mark::O));
    assert_eq!(board.mark_at(cell(4)), None);
    assert_eq!(board.bits(Mark::O), 1 << 4);
}

#[apply(every_board)]
fn each_mark_is_counted_and_its_cells_given_as_bits(make: MakeBoard) {
    let board = board_with(make, "xx./o../..x");

    assert_eq!((board.count(Mark::X), board.count(Mark::O)), (3, 1));
    assert_eq!(board.bits(Mark::X), 0b1_0000_0011);
    assert_eq!(board.bits(Mark::O), 0b0_0000_1000);
}

#[apply(every_board)]
fn a_taken_cell_cannot_be_taken_again(make: MakeBoard) {
    let mut board = make(classic());
    board.place(cell(5), Mark::O).unwrap();

    let result = board.place(cell(5), Mark::X);

    assert_eq!(result, Err(IllegalMove::Occupied(cell(5))));
    assert_eq!(
        board.mark_at(cell(5)),
        Some(Mark::O),
        "the first mark stays"
    );
}

#[apply(every_board)]
fn a_cell_off_the_board_is_refused(make: MakeBoard) {
    let mut board = make(classic());
    let off_board = Geometry::new(4, 4).unwrap().position(12).unwrap();

    assert_eq!(
        board.place(off_board, Mark::X),
        Err(IllegalMove::OffBoard(off_board))
    );
    assert_eq!(board.mark_at(off_board), None);
}

#[apply(every_board)]
fn removing_a_mark_empties_its_cell(make: MakeBoard) {
    let mut board = board_with(make, "x../.../...");

    assert_eq!(board.remove(cell(1)), Some(Mark::X));
    assert_eq!(board.remove(cell(1)), None);
    assert_eq!(board.empty_cells().len(), 9);
}

#[apply(every_board)]
fn empty_cells_are_listed_in_row_major_order(make: MakeBoard) {
    let board = board_with(make, "xox/o.o/...");

    let numbers: Vec<usize> = board.empty_cells().iter().map(|p| p.number()).collect();

    assert_eq!(numbers, [5, 7, 8, 9]);
}

#[rstest]
#[case::top_row("xxx/oo./...", &[1, 2, 3])]
#[case::middle_row("oo./xxx/...", &[4, 5, 6])]
#[case::left_column("xo./xo./x..", &[1, 4, 7])]
#[case::right_column("o.x/o.x/..x", &[3, 6, 9])]
#[case::diagonal("xo./ox./..x", &[1, 5, 9])]
#[case::anti_diagonal("o.x/ox./x..", &[3, 5, 7])]
fn each_of_the_eight_lines_wins(
    #[case] layout: &str,
    #[case] line: &[usize],
    #[values(grid, bits)] make: MakeBoard,
) {
    let board = board_with(make, layout);

    let win = board.winner().expect("a winner");

    assert_eq!(win.mark, Mark::X);
    assert_eq!(cell_numbers(&win.line), line);
    assert_eq!(board.winning_line(Mark::O), None);
}

#[apply(every_board)]
fn three_marks_not_in_a_line_do_not_win(make: MakeBoard) {
    let board = board_with(make, "xx./..x/...");

    assert_eq!(board.winner(), None);
}

#[apply(every_board)]
fn a_full_board_without_a_line_is_full_and_has_no_winner(make: MakeBoard) {
    let board = board_with(make, "xox/xoo/oxx");

    assert!(board.is_full());
    assert_eq!(board.winner(), None);
    assert!(board.empty_cells().is_empty());
}

#[apply(every_board)]
fn nothing_outside_the_constructor_assumes_three_by_three(make: MakeBoard) {
    let geometry = Geometry::new(5, 4).unwrap();
    let mut board = make(geometry);
    for col in 1..5 {
        board.place(geometry.at(2, col).unwrap(), Mark::O).unwrap();
    }

    let win = board.winner().expect("four in a row on 5 x 5");

    assert_eq!(board.empty_cells().len(), 21);
    assert_eq!(win.mark, Mark::O);
    assert_eq!(cell_numbers(&win.line), [12, 13, 14, 15]);
}

#[test]
fn both_boards_agree_on_every_layout_a_layout_string_can_describe() {
    // Exhaustive: all 3^9 fillings, legal or not.
    for code in 0..3usize.pow(9) {
        let layout: String = (0..9)
            .map(|i| ['.', 'x', 'o'][code / 3usize.pow(i) % 3])
            .collect();
        let grid = fill_from_layout(GridBoard::new(classic()), &layout).unwrap();
        let bits = fill_from_layout(BitBoard::new(classic()), &layout).unwrap();

        assert_eq!(
            grid.winning_line(Mark::X),
            bits.winning_line(Mark::X),
            "{layout}"
        );
        assert_eq!(
            grid.winning_line(Mark::O),
            bits.winning_line(Mark::O),
            "{layout}"
        );
        assert_eq!(grid.empty_cells(), bits.empty_cells(), "{layout}");
        assert_eq!(grid.is_full(), bits.is_full(), "{layout}");
    }
}

/// The cells of `line` as people number them (1 is the top-left).
fn cell_numbers(line: &Line) -> Vec<usize> {
    line.cells().iter().map(|p| p.number()).collect()
}

#[apply(every_board)]
fn a_board_reports_the_shape_it_was_made_for(make: MakeBoard) {
    let geometry = Geometry::new(5, 4).unwrap();

    let board = make(geometry);

    assert_eq!(board.geometry(), geometry);
}
