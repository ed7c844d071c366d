//! Writes the opening book of (7,7,5) (`crates/engine/src/book/7x7x5.txt`), the board whose
//! first moves cannot be proven within a second: the empty board's full analysis; for
//! each first move of X a reply of O proven to keep the draw; after that reply, where
//! O could not force a win even if it moved next, every move of X; and after X in the
//! centre, for every reply of O, a second move of X proven to keep the draw; and the
//! full answer of the first positions where no move loses (after one move, after two,
//! and after X in the centre, a reply and a second move of X).
//!
//!     cargo run --release --features measure --example book > crates/engine/src/book/7x7x5.txt
//!     ONLY_SECOND=1 cargo run --release --features measure --example book   # the last part alone, seconds
//!     ONLY_AFTER_THE_CENTRE=1 cargo run --release --features measure --example book   # every third move after the centre
//!     ONLY_EACH_MOVE=1 cargo run --release --features measure --example book < LAYOUTS   # full answers move by move
//!
//! The full run writes every part but `ONLY_EACH_MOVE`, which needs its positions on
//! standard input (the book's own line after the centre where not every move holds, in
//! issue 35's fourth round): its lines are appended to the book after it.
//!
//! Every entry is proven by the solver here, with `Solver::can_force_win` (which never
//! reads the book): X cannot force a win on the empty board and after each reply, and
//! again (O cannot force a win with O to move) for X's second moves.
//! Takes about half an hour on the 2-core machine of docs/performance.md (the part after
//! the centre alone 13 min 42 s on one core).

use std::time::{Duration, Instant};

use tictactoe_core::domain::{
    BitBoard, Board, Geometry, Mark, Position, fill_from_layout, layout_of,
};
use tictactoe_engine::{Deadline, Solver, SystemClock};

fn main() {
    let geometry = Geometry::new(7, 5).expect("a board the menu offers");
    let mut solver = Solver::new(geometry);
    let clock = SystemClock::new();
    // One part alone, named by a variable of the environment.
    type Part = fn(&mut Solver, &SystemClock, Geometry);
    let parts: [(&str, Part); 5] = [
        ("ONLY_SECOND", second_moves_after_the_centre),
        (
            "ONLY_SECOND_WITH_EVERY_REPLY",
            second_moves_with_every_reply,
        ),
        ("ONLY_EVERY_MOVE", every_move_of_the_first_plies),
        ("ONLY_AFTER_THE_CENTRE", every_move_after_the_centre),
        ("ONLY_EACH_MOVE", each_move_of),
    ];
    if let Some((_, part)) = parts.iter().find(|(name, _)| std::env::var(name).is_ok()) {
        part(&mut solver, &clock, geometry);
        return;
    }
    let started = Instant::now();
    println!(
        "# The opening book of (7,7,5): written by `cargo run --release --features measure --example book`."
    );
    println!("# Each line: a position (X moved first; the side to move follows from the");
    println!("# counts), its value for the side to move, whether the moves listed are every");
    println!("# move that keeps it (exact) or some of them (some), and those moves (1-based).");
    // The empty board, proven from scratch (not by `Solver::analyze`, which reads this
    // book): X cannot force a win, and so neither can O moving first (the same
    // question with the colours swapped), so no first move of X lets O win: every
    // move keeps the draw.
    let empty = BitBoard::new(geometry);
    let x_wins = solver.can_force_win(&empty, Mark::X, Mark::X, None);
    assert_eq!(x_wins, Some(false), "(7,7,5) is a draw");
    let every: Vec<String> = empty
        .empty_cells()
        .iter()
        .map(|p| p.number().to_string())
        .collect();
    println!("{} draw exact {}", layout_of(&empty), every.join(","));
    eprintln!("empty board: a draw, in {:.1?}", started.elapsed());
    let centre = geometry.centre();
    let mut replies: Vec<_> = geometry.positions().collect();
    let distance = |p| {
        let (r, c) = (geometry.row_of(p) as i32, geometry.col_of(p) as i32);
        let (cr, cc) = (
            geometry.row_of(centre) as i32,
            geometry.col_of(centre) as i32,
        );
        (r - cr).pow(2) + (c - cc).pow(2)
    };
    // What was found for one first move holds, mapped, for its images under the
    // board's symmetries: (X's first move, O's reply or none, X's moves all proven).
    let mut found: Vec<(Cell, Option<Cell>, bool)> = Vec::new();
    for first in geometry.positions() {
        let mut board = BitBoard::new(geometry);
        board.place(first, Mark::X).expect("an empty cell");
        let here = (geometry.row_of(first), geometry.col_of(first));
        let known = found.iter().find_map(|&(cell, reply, all)| {
            onto(cell, here).map(|s| (reply.map(|r| symmetry(s, r)), all))
        });
        if let Some((reply, all)) = known {
            let Some((row, col)) = reply else {
                eprintln!("no reply proven after X on {}", first.number());
                continue;
            };
            let reply = geometry.at(row, col).expect("a cell of the board");
            println!("{} draw some {}", layout_of(&board), reply.number());
            board.place(reply, Mark::O).expect("an empty cell");
            if all {
                println!("{} draw exact {}", layout_of(&board), numbers(&board));
            }
            continue;
        }
        // Next to X's mark first, then nearest the centre.
        replies.sort_by_key(|&p| {
            let near = (geometry.row_of(p) as i32 - geometry.row_of(first) as i32)
                .abs()
                .max((geometry.col_of(p) as i32 - geometry.col_of(first) as i32).abs());
            (near > 1, distance(p), p.index())
        });
        let reply = first_holding(&mut solver, &clock, &board, &replies, Mark::O, 20);
        let Some(reply) = reply else {
            eprintln!("no reply proven after X on {}", first.number());
            found.push((here, None, false));
            continue;
        };
        println!("{} draw some {}", layout_of(&board), reply.number());
        // X's second move: if O could not force a win even moving next, no move of X
        // lets it, and X has no win (the reply was proven to hold): every move keeps
        // the draw.
        board.place(reply, Mark::O).expect("an empty cell");
        let deadline = Deadline::after(&clock, Duration::from_secs(30));
        let all = solver.can_force_win(&board, Mark::O, Mark::O, Some(&deadline)) == Some(false);
        if all {
            println!("{} draw exact {}", layout_of(&board), numbers(&board));
        } else {
            eprintln!(
                "X's moves after X on {} and O on {} not proven",
                first.number(),
                reply.number()
            );
        }
        let reply_at = (geometry.row_of(reply), geometry.col_of(reply));
        found.push((here, Some(reply_at), all));
        eprintln!("X on {}: {:.1?}", first.number(), started.elapsed());
    }
    second_moves_after_the_centre(&mut solver, &clock, geometry);
    every_move_of_the_first_plies(&mut solver, &clock, geometry);
    every_move_after_the_centre(&mut solver, &clock, geometry);
    eprintln!("done in {:.1?}", started.elapsed());
}

/// The positions after one move, after two, and after X in the centre, a reply of O
/// and the book's second move of X (the line Impossible plays as X): every move of
/// the side to move keeps the draw where it cannot force a win and its opponent could
/// not either, even moving next (an extra mark never hurts its owner). One line for
/// each position and its images under the board's symmetries (the book looks a
/// position up by the smallest of its images), written by [`every_move_of`].
fn every_move_of_the_first_plies(solver: &mut Solver, clock: &SystemClock, geometry: Geometry) {
    let mut positions: Vec<BitBoard> = Vec::new();
    for first in geometry.positions() {
        let mut board = BitBoard::new(geometry);
        board.place(first, Mark::X).expect("an empty cell");
        positions.push(board);
    }
    for first in geometry.positions() {
        for reply in geometry.positions().filter(|&p| p != first) {
            let mut board = BitBoard::new(geometry);
            board.place(first, Mark::X).expect("an empty cell");
            board.place(reply, Mark::O).expect("an empty cell");
            positions.push(board);
        }
    }
    let centre = geometry.centre();
    let book: Vec<(String, usize)> = second_moves(geometry);
    for reply in geometry.positions().filter(|&p| p != centre) {
        let mut board = BitBoard::new(geometry);
        board.place(centre, Mark::X).expect("an empty cell");
        board.place(reply, Mark::O).expect("an empty cell");
        let layout = layout_of(&board);
        if let Some((_, second)) = book.iter().find(|(l, _)| *l == layout) {
            let second = geometry.position(*second - 1).expect("a cell");
            board.place(second, Mark::X).expect("an empty cell");
            positions.push(board);
        }
    }
    every_move_of(
        solver,
        clock,
        positions,
        &mut std::collections::HashSet::new(),
    );
}

/// Every position after X in the centre, any reply of O and any second move of X
/// (issue 35's fourth round: the third move of a game opened in the centre, which the
/// search does not always settle within a second), but those of the book's line,
/// written by [`every_move_of_the_first_plies`], as it writes them.
fn every_move_after_the_centre(solver: &mut Solver, clock: &SystemClock, geometry: Geometry) {
    let centre = geometry.centre();
    let book: Vec<(String, usize)> = second_moves(geometry);
    let mut seen = std::collections::HashSet::new();
    let mut positions = Vec::new();
    for reply in geometry.positions().filter(|&p| p != centre) {
        let mut board = BitBoard::new(geometry);
        board.place(centre, Mark::X).expect("an empty cell");
        board.place(reply, Mark::O).expect("an empty cell");
        let line = book.iter().find(|(l, _)| *l == layout_of(&board));
        for second in geometry.positions() {
            let mut after = board;
            if after.place(second, Mark::X).is_err() {
                continue;
            }
            if line.is_some_and(|&(_, cell)| cell == second.number()) {
                seen.insert(smallest_image(geometry, &after));
            } else {
                positions.push(after);
            }
        }
    }
    every_move_of(solver, clock, positions, &mut seen);
}

/// For each layout read from standard input (one a line; a position where the side to
/// move cannot force a win but its opponent could if it moved again, so that not every
/// move keeps the draw): the full answer move by move, `draw exact` and the moves after
/// which the opponent cannot force a win, each proof given 60 s; a position with a
/// proof not done in time is left out (said on stderr). For the book's own line after
/// the centre, where [`every_move_of`] leaves positions out.
fn each_move_of(solver: &mut Solver, clock: &SystemClock, geometry: Geometry) {
    let deadline = || Deadline::after(clock, Duration::from_secs(60));
    for layout in std::io::stdin().lines().map_while(Result::ok) {
        let board = board_of(geometry, layout.trim());
        let t = Instant::now();
        let (x, o) = (
            board.bits(Mark::X).count_ones(),
            board.bits(Mark::O).count_ones(),
        );
        let mover = if x == o { Mark::X } else { Mark::O };
        if solver.can_force_win(&board, mover, mover, Some(&deadline())) != Some(false) {
            eprintln!("{}: not a draw proven", layout_of(&board));
            continue;
        }
        let holding: Option<Vec<String>> = board
            .empty_cells()
            .iter()
            .filter_map(|&cell| {
                let mut after = board;
                after.place(cell, mover).expect("an empty cell");
                let wins = solver.can_force_win(
                    &after,
                    mover.opponent(),
                    mover.opponent(),
                    Some(&deadline()),
                );
                match wins {
                    Some(false) => Some(Some(cell.number().to_string())),
                    Some(true) => None,
                    None => Some(None),
                }
            })
            .collect();
        match holding {
            Some(moves) => println!("{} draw exact {}", layout_of(&board), moves.join(",")),
            None => eprintln!("{}: a move not proven in time", layout_of(&board)),
        }
        eprintln!("{} {:.2?}", layout_of(&board), t.elapsed());
    }
}

/// Writes `draw exact all` for each of `positions` (one for each position and its
/// images, those `seen` left out) where the side to move cannot force a win and its
/// opponent could not either, even moving next: then every move keeps the draw (an
/// extra mark never hurts its owner). Each proof may take 60 s; a position not proven
/// so is left out (said on stderr).
fn every_move_of(
    solver: &mut Solver,
    clock: &SystemClock,
    positions: Vec<BitBoard>,
    seen: &mut std::collections::HashSet<String>,
) {
    let started = Instant::now();
    let (mut written, mut left_out) = (0, 0);
    for board in positions {
        if !seen.insert(smallest_image(board.geometry(), &board)) {
            continue;
        }
        let (x, o) = (
            board.bits(Mark::X).count_ones(),
            board.bits(Mark::O).count_ones(),
        );
        let mover = if x == o { Mark::X } else { Mark::O };
        let t = Instant::now();
        let deadline = || Deadline::after(clock, Duration::from_secs(60));
        let mine = solver.can_force_win(&board, mover, mover, Some(&deadline()));
        let theirs = solver.can_force_win(
            &board,
            mover.opponent(),
            mover.opponent(),
            Some(&deadline()),
        );
        if (mine, theirs) == (Some(false), Some(false)) {
            println!("{} draw exact all", layout_of(&board));
            written += 1;
        } else {
            left_out += 1;
            eprintln!(
                "{}: not every move ({mine:?}, {theirs:?})",
                layout_of(&board)
            );
        }
        eprintln!(
            "{} {:.2?} ({:.1?} in all)",
            layout_of(&board),
            t.elapsed(),
            started.elapsed()
        );
    }
    eprintln!("{written} positions written, {left_out} left out");
}

/// For each layout of X in the centre and a reply of O read from standard input (one
/// a line): a second move of X after which O cannot force a win, and X could not
/// either even moving next, so that the position after it has the full answer (every
/// move of O keeps the draw); the first such move nearest the centre, each proof
/// given 20 s. Written as the book's line (`some`) and the full answer after it, to
/// take the place of the line's second move where the full answer after that one was
/// not proven.
fn second_moves_with_every_reply(solver: &mut Solver, clock: &SystemClock, geometry: Geometry) {
    let mut candidates: Vec<Position> = geometry.positions().collect();
    candidates.sort_by_key(|&p| {
        let (row, col) = (geometry.row_of(p) as i32, geometry.col_of(p) as i32);
        ((row - 3).pow(2) + (col - 3).pow(2), p.index())
    });
    for layout in std::io::stdin().lines().map_while(Result::ok) {
        let board = board_of(geometry, layout.trim());
        let t = Instant::now();
        let deadline = || Deadline::after(clock, Duration::from_secs(20));
        let second = candidates.iter().copied().find(|&m| {
            if board.mark_at(m).is_some() {
                return false;
            }
            let mut after = board;
            after.place(m, Mark::X).expect("an empty cell");
            solver.can_force_win(&after, Mark::O, Mark::O, Some(&deadline())) == Some(false)
                && solver.can_force_win(&after, Mark::X, Mark::X, Some(&deadline())) == Some(false)
        });
        match second {
            Some(m) => {
                println!("{} draw some {}", layout_of(&board), m.number());
                let mut after = board;
                after.place(m, Mark::X).expect("an empty cell");
                println!("{} draw exact all", layout_of(&after));
            }
            None => eprintln!("{}: no such second move", layout_of(&board)),
        }
        eprintln!("{} {:.1?}", layout_of(&board), t.elapsed());
    }
}

/// The board of a layout (`X`, `O`, `.`).
fn board_of(geometry: Geometry, layout: &str) -> BitBoard {
    fill_from_layout(BitBoard::new(geometry), layout).expect("a layout of the board")
}

/// The book's second moves of X after X in the centre: (layout after O's reply, cell).
fn second_moves(geometry: Geometry) -> Vec<(String, usize)> {
    let text = include_str!("../crates/engine/src/book/7x7x5.txt");
    let centre = geometry.centre().index();
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [layout, "draw", "some", cell] = fields[..] else {
                return None;
            };
            let x = layout.char_indices().filter(|&(_, c)| c == 'X').count();
            let o = layout.char_indices().filter(|&(_, c)| c == 'O').count();
            let centred = layout.chars().nth(centre) == Some('X');
            (x == 1 && o == 1 && centred)
                .then(|| (layout.to_string(), cell.parse().ok()))?
                .1
                .map(|cell| (layout.to_string(), cell))
        })
        .collect()
}

/// The smallest of the layouts of `board`'s images under the board's symmetries.
fn smallest_image(geometry: Geometry, board: &BitBoard) -> String {
    (0..8)
        .map(|s| {
            let mut image = BitBoard::new(geometry);
            for p in geometry.positions() {
                if let Some(mark) = board.mark_at(p) {
                    let (row, col) = symmetry(s, (geometry.row_of(p), geometry.col_of(p)));
                    let at = geometry.at(row, col).expect("a cell of the board");
                    image.place(at, mark).expect("an empty cell");
                }
            }
            layout_of(&image)
        })
        .min()
        .expect("eight images")
}

/// X in the centre, the first move Impossible plays as X: for every reply of O, one
/// second move of X proven to keep the draw (O cannot force a win after it), the first
/// proven within 10 s in an order nearest the centre. Each reply's images under the
/// board's symmetries (all of which keep the centre) share its answer, mapped.
fn second_moves_after_the_centre(solver: &mut Solver, clock: &SystemClock, geometry: Geometry) {
    let centre = geometry.centre();
    let at = |(row, col): Cell| geometry.at(row, col).expect("a cell of the board");
    let cell_of = |p: Position| (geometry.row_of(p), geometry.col_of(p));
    let mut candidates: Vec<Position> = geometry.positions().filter(|&p| p != centre).collect();
    candidates.sort_by_key(|&p| {
        let (row, col) = cell_of(p);
        ((row as i32 - 3).pow(2) + (col as i32 - 3).pow(2), p.index())
    });
    let mut answered: Vec<(Cell, Option<Cell>)> = Vec::new();
    for reply in geometry.positions().filter(|&p| p != centre) {
        let here = cell_of(reply);
        let mut board = BitBoard::new(geometry);
        board.place(centre, Mark::X).expect("an empty cell");
        board.place(reply, Mark::O).expect("an empty cell");
        let known = answered
            .iter()
            .find_map(|&(cell, second)| onto(cell, here).map(|s| second.map(|m| symmetry(s, m))));
        let second = match known {
            Some(second) => second.map(at),
            None => {
                let started = Instant::now();
                let second = first_holding(solver, clock, &board, &candidates, Mark::X, 10);
                eprintln!(
                    "X on {}, O on {}: X on {:?}, {:.1?}",
                    centre.number(),
                    reply.number(),
                    second.map(Position::number),
                    started.elapsed()
                );
                answered.push((here, second.map(cell_of)));
                second
            }
        };
        let Some(second) = second else {
            eprintln!("no second move proven after O on {}", reply.number());
            continue;
        };
        println!("{} draw some {}", layout_of(&board), second.number());
    }
}

/// The first of `candidates` (those still empty) after which `mover`'s opponent, to
/// move, is proven within `seconds` unable to force a win.
fn first_holding(
    solver: &mut Solver,
    clock: &SystemClock,
    board: &BitBoard,
    candidates: &[Position],
    mover: Mark,
    seconds: u64,
) -> Option<Position> {
    let opponent = mover.opponent();
    candidates
        .iter()
        .copied()
        .filter(|&m| board.mark_at(m).is_none())
        .find(|&m| {
            let mut after = *board;
            after.place(m, mover).expect("an empty cell");
            let deadline = Deadline::after(clock, Duration::from_secs(seconds));
            solver.can_force_win(&after, opponent, opponent, Some(&deadline)) == Some(false)
        })
}

/// A cell as (row, column).
type Cell = (usize, usize);

/// The empty cells of `board`, 1-based, comma-separated.
fn numbers(board: &BitBoard) -> String {
    let cells: Vec<String> = board
        .empty_cells()
        .iter()
        .map(|p| p.number().to_string())
        .collect();
    cells.join(",")
}

/// A symmetry of the board that maps `from` onto `to`, if there is one.
fn onto(from: Cell, to: Cell) -> Option<usize> {
    (0..8).find(|&s| symmetry(s, from) == to)
}

/// One of the eight rotations and reflections of the 7 x 7 board, on a (row, column).
fn symmetry(which: usize, (row, col): (usize, usize)) -> (usize, usize) {
    let (row, col) = if which & 4 != 0 {
        (col, row)
    } else {
        (row, col)
    };
    let row = if which & 2 != 0 { 6 - row } else { row };
    let col = if which & 1 != 0 { 6 - col } else { col };
    (row, col)
}
