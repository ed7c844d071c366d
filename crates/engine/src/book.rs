//! Opening books: proven answers for the first positions of a board whose opening the
//! search cannot prove within a move's thinking time. Only (7,7,5) has one: the empty
//! board's full answer; the full answer after every first move and after every pair of
//! first moves (every move keeps the draw); and a line the Impossible player keeps
//! to, so that its next positions are in the book too ([`Book::follows`]): for each
//! first move of X, a reply of O proven to keep the draw, and after X in the centre,
//! for every reply of O, a second move of X proven to keep the draw (so Impossible as
//! X opens there), after which the book has the full answer again; and the full answer
//! after X in the centre, any reply and any second move of X where no move loses.
//! Written by `cargo run --release --features measure --example book` (the solver proves every entry) and
//! committed as text; one line per position and its images under the board's
//! symmetries (looked up by the smallest image); parsed on first use (about 670 lines,
//! under a millisecond).

use std::collections::HashMap;
use std::sync::OnceLock;

use super::outcome::Outcome;
use super::symmetry::Symmetries;
use tictactoe_core::domain::{Geometry, Verdict};

pub struct Book {
    /// By the smallest image of the position under the board's symmetries (the side to
    /// move's marks, then the other side's), in that image's orientation.
    entries: HashMap<u128, Entry>,
    symmetries: &'static Symmetries,
}

/// What the book knows of a position.
#[derive(Debug, Clone, Copy)]
struct Entry {
    /// Its answer, exact or partial.
    outcome: Outcome,
    /// The moves the book's own line plays here (no cell if it has none): a partial
    /// entry's moves, kept beside an exact answer for the same position, so that the
    /// Impossible player keeps to the line whose next positions the book answers.
    line: u64,
}

impl Book {
    /// The book of `geometry`, if it has one.
    pub fn of(geometry: Geometry) -> Option<&'static Book> {
        static SEVEN_FIVE: OnceLock<Book> = OnceLock::new();
        ((geometry.size(), geometry.win_length()) == (7, 5)).then(|| {
            SEVEN_FIVE.get_or_init(|| Book::parse(geometry, include_str!("book/7x7x5.txt")))
        })
    }

    /// Reads lines of `layout value exact|some moves`, skipping `#` comments; `moves`
    /// is a list of cells or `all` (every empty cell). X moved first, so the side to
    /// move follows from the counts. A line that does not read is skipped (the tests
    /// check that none is). Lines for one position (or its images) merge: an exact
    /// answer over a partial one, whose moves are kept as the book's line.
    fn parse(geometry: Geometry, text: &str) -> Book {
        let symmetries = Symmetries::of(geometry);
        let mut entries: HashMap<u128, Entry> = HashMap::new();
        let lines = text
            .lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .filter_map(|line| Book::entry(geometry, line));
        for ((me, opp), outcome) in lines {
            let (key, symmetry) = symmetries.canonical_by(me, opp);
            let outcome = Outcome {
                best: symmetries.apply(symmetry, outcome.best),
                ..outcome
            };
            let line = if outcome.exact { 0 } else { outcome.best };
            let entry = entries.entry(key).or_insert(Entry { outcome, line });
            if outcome.exact && !entry.outcome.exact {
                entry.outcome = outcome;
            }
            if entry.line == 0 {
                entry.line = line;
            }
        }
        Book {
            entries,
            symmetries,
        }
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
        let all = (1u64 << geometry.cell_count()) - 1;
        let best = match moves {
            "all" => all & !(x | o),
            moves => moves
                .split(',')
                .map(|n| n.parse::<u32>().ok().filter(|&n| (1..=49).contains(&n)))
                .try_fold(0u64, |best, n| Some(best | 1 << (n? - 1)))?,
        };
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

    /// The book's entry for `me` to move against `opp`, and the symmetry that maps the
    /// position onto the entry's orientation.
    fn find(&self, me: u64, opp: u64) -> Option<(&Entry, usize)> {
        let (key, symmetry) = self.symmetries.canonical_by(me, opp);
        self.entries.get(&key).map(|entry| (entry, symmetry))
    }

    /// The book's answer for `me` to move against `opp`, if it has the position (or
    /// one of its images).
    pub fn get(&self, me: u64, opp: u64) -> Option<Outcome> {
        self.find(me, opp).map(|(entry, symmetry)| Outcome {
            best: self.symmetries.undo(symmetry, entry.outcome.best),
            ..entry.outcome
        })
    }

    /// The moves of `me` the book prefers here: where its line passes, the line's
    /// moves; elsewhere the moves after which its line answers every reply of `opp`
    /// (on (7,7,5), X in the centre). No cell if there is none (at most 2,352 look-ups
    /// on the empty board).
    pub fn follows(&self, me: u64, opp: u64, empty: u64) -> u64 {
        if let Some((entry, symmetry)) = self.find(me, opp)
            && entry.line != 0
        {
            return self.symmetries.undo(symmetry, entry.line) & empty;
        }
        let on_the_line = |me: u64, opp: u64| self.find(me, opp).is_some_and(|(e, _)| e.line != 0);
        let cells = |set: u64| (0..64).map(|c| 1u64 << c).filter(move |bit| set & bit != 0);
        cells(empty)
            .filter(|&mine| cells(empty & !mine).all(|reply| on_the_line(me | mine, opp | reply)))
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
    fn the_book_answers_every_position_of_one_or_two_moves_in_full() {
        let book = Book::of(seven_five()).unwrap();
        let everywhere = (1u64 << 49) - 1;
        let full = |me: u64, opp: u64| {
            book.get(me, opp)
                .is_some_and(|o| o.exact && o.best == everywhere & !(me | opp))
        };

        let after_one = (0..49).filter(|&x| full(0, 1 << x)).count();
        let after_two = (0..49)
            .flat_map(|x| (0..49).filter(move |&o| o != x).map(move |o| (x, o)))
            .filter(|&(x, o)| full(1 << x, 1 << o))
            .count();

        assert_eq!((after_one, after_two), (49, 49 * 48));
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
        let everywhere = (1u64 << 49) - 1;
        let reply = Book::of(geometry)
            .unwrap()
            .follows(0, centre, everywhere & !centre);
        assert_eq!(reply.count_ones(), 1);
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
            let empty = ((1u64 << 49) - 1) & !(1 << 24 | 1 << reply);
            let second = book.follows(1 << 24, 1 << reply, empty);
            assert_eq!(second.count_ones(), 1, "after O on {}", reply + 1);
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

    /// The position of an entry, in the entry's orientation: (side to move, other side),
    /// and the marks of each.
    fn board_of(geometry: Geometry, key: u128) -> (BitBoard, Mark, Mark) {
        let (me, opp) = ((key >> 64) as u64, key as u64);
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
        (board, mover, other)
    }

    /// Hands each of the (7,7,5) book's entries that `chosen` picks to `prove`, with its
    /// key, the position it is for ([`board_of`]) and a solver for the board shape.
    fn prove_again(
        chosen: impl Fn(&Entry) -> bool,
        mut prove: impl FnMut(&mut Solver, u128, &Entry, (BitBoard, Mark, Mark)),
    ) {
        let geometry = seven_five();
        let book = Book::of(geometry).unwrap();
        let mut solver = Solver::new(geometry);
        for (&key, entry) in book.entries.iter().filter(|(_, e)| chosen(e)) {
            prove(&mut solver, key, entry, board_of(geometry, key));
        }
    }

    /// Every move of the book's line re-proven: the opponent cannot force a win after
    /// it. (The empty board is re-proven by the (7,7,5) test of tests/every_board.rs.)
    /// Minutes in a release build.
    #[test]
    #[ignore = "minutes in release: cargo test --release --lib book -- --ignored"]
    fn every_move_of_the_book_s_line_is_proven_again() {
        let geometry = seven_five();
        prove_again(
            |entry| entry.line != 0,
            |solver, key, entry, (board, mover, other)| {
                for reply in (0..49).filter(|c| entry.line & 1 << c != 0) {
                    let mut after = board;
                    after
                        .place(geometry.position(reply).unwrap(), mover)
                        .unwrap();

                    let wins = solver.can_force_win(&after, other, other, None);

                    assert_eq!(wins, Some(false), "reply {} to {key:#x}", reply + 1);
                }
            },
        );
    }

    /// Every exact entry re-proven: the side to move cannot force a win; where it lists
    /// every empty cell, its opponent could not even if it moved next, so every move
    /// keeps the draw; elsewhere each move listed keeps it and each other move loses.
    /// Minutes in a release build.
    #[test]
    #[ignore = "minutes in release: cargo test --release --lib book -- --ignored"]
    fn every_exact_entry_is_proven_again() {
        let geometry = seven_five();
        prove_again(
            |entry| entry.outcome.exact,
            |solver, key, entry, (board, mover, other)| {
                let empty = ((1u64 << 49) - 1) & !((key >> 64) as u64 | key as u64);

                let mine = solver.can_force_win(&board, mover, mover, None);
                let holding = if entry.outcome.best == empty {
                    let theirs = solver.can_force_win(&board, other, other, None);
                    theirs.map(|wins| if wins { 0 } else { empty })
                } else {
                    (0..49)
                        .filter(|c| empty & 1 << c != 0)
                        .map(|cell| {
                            let mut after = board;
                            after
                                .place(geometry.position(cell).unwrap(), mover)
                                .unwrap();
                            let wins = solver.can_force_win(&after, other, other, None);
                            wins.map(|wins| if wins { 0 } else { 1u64 << cell })
                        })
                        .sum::<Option<u64>>()
                };

                assert_eq!(mine, Some(false), "{key:#x}");
                assert_eq!(holding, Some(entry.outcome.best), "{key:#x}");
            },
        );
    }
}
