//! Opening books: proven answers for the first positions of a board whose opening the
//! search cannot prove within a move's thinking time. Only (7,7,5) has one: the empty
//! board's full answer; for each first move of X, a reply of O proven to keep the
//! draw; where proven, every second move of X after that reply; and after X in the
//! centre, for every reply of O, a second move of X proven to keep the draw, so that
//! Impossible as X opens there ([`Book::follows`]). Written by `cargo run --release
//! --example book` (the solver proves every entry) and committed as text; parsed on
//! first use (about 125 lines, well under a millisecond).

use std::collections::HashMap;
use std::sync::OnceLock;

use super::outcome::Outcome;
use tictactoe_core::domain::{Geometry, Verdict};

pub struct Book {
    /// By the position's bitboards: the side to move's marks, then the other side's.
    entries: HashMap<(u64, u64), Outcome>,
}

impl Book {
    /// The book of `geometry`, if it has one.
    pub fn of(geometry: Geometry) -> Option<&'static Book> {
        static SEVEN_FIVE: OnceLock<Book> = OnceLock::new();
        ((geometry.size(), geometry.win_length()) == (7, 5)).then(|| {
            SEVEN_FIVE.get_or_init(|| Book::parse(geometry, include_str!("book/7x7x5.txt")))
        })
    }

    /// Reads lines of `layout value exact|some moves`, skipping `#` comments. X moved
    /// first, so the side to move follows from the counts. A line that does not read
    /// is skipped (the tests check that none is).
    fn parse(geometry: Geometry, text: &str) -> Book {
        let entries = text
            .lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .filter_map(|line| Book::entry(geometry, line))
            .collect();
        Book { entries }
    }

    fn entry(geometry: Geometry, line: &str) -> Option<((u64, u64), Outcome)> {
        let mut fields = line.split_whitespace();
        let (layout, value, exact, moves) = (
            fields.next()?,
            fields.next()?,
            fields.next()?,
            fields.next()?,
        );
        if layout.chars().count() != geometry.cell_count() {
            return None;
        }
        let bits = |mark: char| {
            layout
                .chars()
                .enumerate()
                .filter(|&(_, c)| c == mark)
                .fold(0u64, |bits, (cell, _)| bits | 1 << cell)
        };
        let (x, o) = (bits('X'), bits('O'));
        let key = if x.count_ones() == o.count_ones() {
            (x, o)
        } else {
            (o, x)
        };
        let verdict = match value {
            "win" => Verdict::Win,
            "draw" => Verdict::Draw,
            "loss" => Verdict::Loss,
            _ => return None,
        };
        let best = moves
            .split(',')
            .map(|n| n.parse::<u32>().ok().filter(|&n| (1..=49).contains(&n)))
            .try_fold(0u64, |best, n| Some(best | 1 << (n? - 1)))?;
        let empty = geometry.cell_count() as u32 - (x | o).count_ones();
        if best & (x | o) != 0 || verdict != Verdict::Draw {
            return None;
        }
        let outcome = Outcome {
            verdict,
            plies: empty as u8,
            best,
            exact: exact == "exact",
        };
        Some((key, outcome))
    }

    /// The book's answer for `me` to move against `opp`, if it has the position.
    pub fn get(&self, me: u64, opp: u64) -> Option<Outcome> {
        self.entries.get(&(me, opp)).copied()
    }

    /// The moves of `me` here after which the book answers every reply of `opp`: on
    /// (7,7,5), X in the centre. No cell if there is none (at most 2,352
    /// look-ups on the empty board).
    pub fn follows(&self, me: u64, opp: u64, empty: u64) -> u64 {
        let cells = |set: u64| (0..64).map(|c| 1u64 << c).filter(move |bit| set & bit != 0);
        cells(empty)
            .filter(|&mine| {
                cells(empty & !mine)
                    .all(|reply| self.entries.contains_key(&(me | mine, opp | reply)))
            })
            .fold(0, |follows, mine| follows | mine)
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Solver;
    use tictactoe_core::domain::{BitBoard, Board, Mark};

    fn seven_five() -> Geometry {
        Geometry::new(7, 5).unwrap()
    }

    #[test]
    fn the_book_of_7x7_five_in_a_row_answers_the_empty_board_and_every_first_move() {
        let book = Book::of(seven_five()).expect("(7,7,5) has a book");

        assert_eq!(
            book.get(0, 0).map(|o| (o.verdict, o.exact)),
            Some((Verdict::Draw, true))
        );
        assert!((0..49).all(|cell| book.get(0, 1 << cell).is_some_and(|o| o.best != 0)));
    }

    #[test]
    fn the_book_answers_every_reply_to_x_in_the_centre_and_to_no_other_first_move() {
        let book = Book::of(seven_five()).unwrap();
        let everywhere = (1u64 << 49) - 1;

        let follows = book.follows(0, 0, everywhere);

        assert_eq!(follows, 1 << 24);
    }

    #[test]
    fn a_move_is_followed_only_if_every_reply_is_answered() {
        // 5 x 5: after X on 1, answers to O on 2, 3 and 4 only.
        let text = "XO....................... draw some 5\n\
                    X.O...................... draw some 5\n\
                    X..O..................... draw some 5\n";
        let book = Book::parse(Geometry::new(5, 5).unwrap(), text);
        let (first_four, everywhere) = (0b1111, (1u64 << 25) - 1);

        let on_the_whole_board = book.follows(0, 0, everywhere);
        let on_the_first_four_cells = book.follows(0, 0, first_four);

        assert_eq!(on_the_whole_board, 0);
        assert_eq!(on_the_first_four_cells, 1);
    }

    #[test]
    fn other_boards_have_no_book() {
        assert!(Book::of(Geometry::new(7, 4).unwrap()).is_none());
    }

    #[test]
    fn a_line_that_does_not_read_is_no_entry() {
        let book = Book::parse(seven_five(), "# a comment\n.... draw some 1\nnot a line\n");

        assert_eq!(book.len(), 0);
    }

    /// Re-proves the book's reply to X in the centre (the line of a game of two
    /// Impossible players): X cannot force a win after it.
    #[test]
    fn the_reply_to_x_in_the_centre_is_proven_again() {
        let geometry = seven_five();
        let centre = 1u64 << 24;
        let reply = Book::of(geometry).unwrap().get(0, centre).unwrap().best;
        let mut board = BitBoard::new(geometry);
        board
            .place(geometry.position(24).unwrap(), Mark::X)
            .unwrap();
        board
            .place(
                geometry.position(reply.trailing_zeros() as usize).unwrap(),
                Mark::O,
            )
            .unwrap();

        let x_wins = Solver::new(geometry).can_force_win(&board, Mark::X, Mark::X, None);

        assert_eq!(x_wins, Some(false));
    }

    /// Re-proves the book's second move of X after X in the centre and each reply of
    /// O (the line Impossible as X plays): O cannot force a win after it.
    #[test]
    fn every_second_move_after_x_in_the_centre_is_proven_again() {
        let geometry = seven_five();
        let book = Book::of(geometry).unwrap();
        let mut solver = Solver::new(geometry);
        for reply in (0..49).filter(|&cell| cell != 24) {
            let second = book.get(1 << 24, 1 << reply).unwrap().best;
            let mut board = BitBoard::new(geometry);
            for (cell, mark) in [(24, Mark::X), (reply, Mark::O)] {
                board.place(geometry.position(cell).unwrap(), mark).unwrap();
            }
            for cell in (0..49).filter(|c| second & 1 << c != 0) {
                board
                    .place(geometry.position(cell).unwrap(), Mark::X)
                    .unwrap();
            }

            let o_wins = solver.can_force_win(&board, Mark::O, Mark::O, None);

            assert_eq!(o_wins, Some(false), "after O on {}", reply + 1);
        }
    }

    /// Every partial entry re-proven: the opponent cannot force a win after any reply
    /// listed. (The empty board's full entry is re-proven by the (7,7,5) test of
    /// tests/every_board.rs.) Minutes in a release build.
    #[test]
    #[ignore = "minutes in release: cargo test --release --lib book -- --ignored"]
    fn every_reply_in_the_book_is_proven_again() {
        let geometry = seven_five();
        let book = Book::of(geometry).unwrap();
        let mut solver = Solver::new(geometry);
        for (&(me, opp), outcome) in book.entries.iter().filter(|(_, o)| !o.exact) {
            let (mover, other) = if me.count_ones() == opp.count_ones() {
                (Mark::X, Mark::O)
            } else {
                (Mark::O, Mark::X)
            };
            let mut board = BitBoard::new(geometry);
            for (bits, mark) in [(me, mover), (opp, other)] {
                for cell in (0..49).filter(|c| bits & 1 << c != 0) {
                    board.place(geometry.position(cell).unwrap(), mark).unwrap();
                }
            }
            for reply in (0..49).filter(|c| outcome.best & 1 << c != 0) {
                let mut after = board;
                after
                    .place(geometry.position(reply).unwrap(), mover)
                    .unwrap();

                let wins = solver.can_force_win(&after, other, other, None);

                assert_eq!(wins, Some(false), "reply {} to {me:#x}/{opp:#x}", reply + 1);
            }
        }
    }
}
