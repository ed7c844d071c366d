//! The pairing test: a proof without search that one side can never complete a line.
//!
//! If every line the attacker can still complete (no defender mark on it) gets two empty
//! cells of its own, no cell shared with another line, the defender answers a move on
//! one cell of a pair with the other and the attacker never fills a line. The pairs are
//! a bipartite matching from "two slots per live line" to empty cells, found with
//! augmenting paths (Kuhn's algorithm). This is how N in a row on N x N (N >= 5) is a
//! draw, and it ends most draw searches on the larger boards after a few moves.
//!
//! The strategy works whoever moves next: a defender's extra mark only blocks more.

/// Reusable scratch space for the matching, so a search calls it without allocating.
#[derive(Debug)]
pub struct Pairing {
    /// The empty cells of each attacker line, two slots per line.
    slots: Vec<u64>,
    /// Which slot holds each cell, if any.
    owner: [Option<u8>; 64],
}

impl Default for Pairing {
    fn default() -> Self {
        Pairing {
            slots: Vec::with_capacity(64),
            owner: [None; 64],
        }
    }
}

impl Pairing {
    /// True if every line in `masks` without a `defender` mark can be given two private
    /// empty cells: then `attacker` can never complete a line, whoever is to move.
    /// False also when a live line has fewer than two empty cells, or there are too few
    /// empty cells for all the pairs (checked first, as it is cheap).
    pub fn blocks_every_line(&mut self, masks: &[u64], attacker: u64, defender: u64) -> bool {
        let empty_cells = !(attacker | defender);
        self.slots.clear();
        let mut needed_cells = 0u64;
        for &mask in masks {
            if mask & defender != 0 {
                continue;
            }
            let open = mask & empty_cells;
            if open.count_ones() < 2 {
                return false;
            }
            self.slots.push(open);
            self.slots.push(open);
            needed_cells |= open;
        }
        if self.slots.len() > needed_cells.count_ones() as usize {
            return false;
        }
        // The check above bounds the slots by the (at most 49) cells, so a slot index
        // fits a u8.
        self.owner = [None; 64];
        (0..self.slots.len()).all(|slot| {
            let mut visited = 0u64;
            self.augment(slot, &mut visited)
        })
    }

    /// The cells of the pairs the last successful [`blocks_every_line`] found: the only
    /// cells the strategy needs. Marks of the attacker anywhere else change nothing.
    ///
    /// [`blocks_every_line`]: Self::blocks_every_line
    pub fn paired_cells(&self) -> u64 {
        self.owner
            .iter()
            .enumerate()
            .filter(|(_, owner)| owner.is_some())
            .fold(0, |cells, (cell, _)| cells | 1 << cell)
    }

    /// Finds a cell for `slot`, moving earlier slots to other cells if need be.
    fn augment(&mut self, slot: usize, visited: &mut u64) -> bool {
        let mut cells = self.slots[slot] & !*visited;
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            *visited |= 1 << cell;
            let free = match self.owner[cell] {
                None => true,
                Some(other) => self.augment(usize::from(other), visited),
            };
            if free {
                self.owner[cell] = Some(slot as u8);
                return true;
            }
        }
        false
    }
}

/// A stronger pairing test: disjoint pairs of empty cells such that every line the
/// attacker could still complete holds one whole pair. Lines may share a pair (on a row
/// of 7 with five in a row, the pairs {1, 2} and {4, 5} serve all three runs), which
/// the matching of [`Pairing`] does not allow. The defender answers a move on one cell
/// of a pair with the other, so no line fills. Finding the pairs is a set cover, so
/// this is a small backtracking search, the most constrained line first, given up after
/// a budget of steps ([`SharedPairs::find`]).
///
/// Built once for a board's lines: it keeps, for each cell, the set of lines through
/// it, so that how many lines a pair serves is one AND and one count, not a pass over
/// the lines (this made the proofs of issue 35's fourth round about twice as fast).
#[derive(Debug, Clone)]
pub struct SharedPairs {
    masks: &'static [u64],
    /// For each cell, the lines through it: bit `i` for `masks[i]`.
    through: [Lines; 64],
    /// Every line.
    every: Lines,
}

/// A set of lines, bit `i` for the `i`-th; a 7 x 7 board has at most 120 lines.
type Lines = u128;

/// One more than the most free cells a line can have (seven in a row on 7 x 7).
const FREE: usize = 8;

/// The most lines left to cover for which a cover is searched; with more, the search
/// rarely ends within its budget (a limit kept from the first version, which held the
/// lines in an array of 64).
const MOST_LINES: u32 = 64;

impl SharedPairs {
    /// For the lines `masks` (at most 128 of them, with at most [`FREE`] - 1 cells each).
    pub fn new(masks: &'static [u64]) -> Self {
        assert!(masks.len() <= 128, "at most 128 lines");
        let mut through = [0; 64];
        for (index, &mask) in masks.iter().enumerate() {
            for cell in indices(u128::from(mask)) {
                through[cell] |= 1 << index;
            }
        }
        SharedPairs {
            masks,
            through,
            every: if masks.len() == 128 {
                u128::MAX
            } else {
                (1 << masks.len()) - 1
            },
        }
    }

    /// The cells of shared pairs for every line of `attacker`'s that `defender` has not
    /// blocked, if a search of at most `budget` steps finds them.
    pub fn find(&self, attacker: u64, defender: u64, budget: u32) -> Option<u64> {
        let blocked =
            indices(u128::from(defender)).fold(0, |lines, cell| lines | self.through[cell]);
        let live = self.every & !blocked;
        if live.count_ones() > MOST_LINES {
            return None;
        }
        let empty = !(attacker | defender);
        let mut by_free = [0; FREE];
        for line in indices(live) {
            let free = (self.masks[line] & empty).count_ones() as usize;
            if free < 2 {
                return None;
            }
            by_free[free.min(FREE - 1)] |= 1 << line;
        }
        let mut steps = budget;
        self.cover(empty, live, 0, by_free, &mut steps)
    }

    /// Chooses pairs of `empty` cells not in `used` for the lines of `left` (none yet
    /// holding a chosen pair). `by_free[n]`: the lines with `n` free cells (empty, not
    /// in `used`), kept as pairs are chosen so that the tightest line is found without
    /// counting every line's cells again.
    fn cover(
        &self,
        empty: u64,
        left: Lines,
        used: u64,
        by_free: [Lines; FREE],
        steps: &mut u32,
    ) -> Option<u64> {
        if *steps == 0 {
            return None;
        }
        *steps -= 1;
        if left == 0 {
            return Some(used);
        }
        if (by_free[0] | by_free[1]) & left != 0 {
            return None;
        }
        // The line with the fewest free cells is the most constrained; among those,
        // the first.
        let fewest = by_free.iter().position(|lines| lines & left != 0)?;
        let line = (by_free[fewest] & left).trailing_zeros() as usize;
        let tightest = self.masks[line] & empty & !used;
        // Candidate pairs in that line (at most 21: seven cells), those inside most other
        // lines first, then those that take a free cell from fewest lines they do not
        // serve (on (7,7,5) this found the covers with a third fewer searches), then by
        // their cells. One sort key each: lines not served, lines harmed, the higher
        // cell, the lower.
        let mut keys = [0u32; 21];
        let mut count = 0;
        let mut first = tightest;
        while first != 0 && count < keys.len() {
            let p = first.trailing_zeros() as usize;
            first &= first - 1;
            let mut second = first;
            while second != 0 && count < keys.len() {
                let q = second.trailing_zeros() as usize;
                second &= second - 1;
                let (at_p, at_q) = (self.through[p] & left, self.through[q] & left);
                let served = (at_p & at_q).count_ones();
                let touched = (at_p | at_q).count_ones();
                keys[count] =
                    (128 - served) << 24 | (touched - served) << 12 | (q as u32) << 6 | p as u32;
                count += 1;
            }
        }
        keys[..count].sort_unstable();
        for &key in &keys[..count] {
            let (p, q) = ((key & 63) as usize, (key >> 6 & 63) as usize);
            let (rest, fewer) = self.choose(left, &by_free, p, q);
            // A pair that leaves a line fewer than two free cells is no choice.
            if (fewer[0] | fewer[1]) & rest != 0 {
                continue;
            }
            if let Some(cells) = self.cover(empty, rest, used | 1 << p | 1 << q, fewer, steps) {
                return Some(cells);
            }
            if *steps == 0 {
                return None;
            }
        }
        None
    }

    /// The lines left once the pair `p`, `q` is chosen, and their counts of free cells:
    /// the lines holding both are served, those holding one lose a free cell.
    fn choose(
        &self,
        left: Lines,
        by_free: &[Lines; FREE],
        p: usize,
        q: usize,
    ) -> (Lines, [Lines; FREE]) {
        let rest = left & !(self.through[p] & self.through[q]);
        let harmed = (self.through[p] | self.through[q]) & rest;
        let mut fewer = [0; FREE];
        for n in 0..FREE {
            let drops = by_free.get(n + 1).map_or(0, |lines| lines & harmed);
            fewer[n] = by_free[n] & !harmed | drops;
        }
        (rest, fewer)
    }
}

/// The indices of the bits set in `bits`, lowest first.
fn indices(bits: u128) -> impl Iterator<Item = usize> {
    let mut rest = bits;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let index = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            index
        })
    })
}

/// The empty cells of every line the attacker could still complete: the only cells whose
/// filling changes [`danger_is_low`]'s sum.
pub fn open_cells(masks: &[u64], attacker: u64, defender: u64) -> u64 {
    let empty_cells = !(attacker | defender);
    masks
        .iter()
        .filter(|&&mask| mask & defender == 0)
        .fold(0, |cells, &mask| cells | (mask & empty_cells))
}

/// The Erdős–Selfridge test: another proof without search that the attacker can never
/// complete a line. Each line without a defender mark and with `e` empty cells carries
/// danger `2^-e`; if the total is below 1 with the defender to move (below 1/2 with
/// the attacker to move), the defender, always taking the cell of most danger, keeps
/// every line from being completed. It needs no matching, only one pass over the lines,
/// and it holds where many lines are each far from done, where pairing runs out of cells.
pub fn danger_is_low(masks: &[u64], attacker: u64, defender: u64, attacker_to_move: bool) -> bool {
    // In units of 2^-49 (no line has more than 49 empty cells): 2^-e is 2^(49 - e).
    const ONE: u64 = 1 << 49;
    let empty_cells = !(attacker | defender);
    let limit = if attacker_to_move { ONE / 2 } else { ONE };
    let mut danger = 0u64;
    for &mask in masks {
        if mask & defender == 0 {
            danger += 1 << (49 - (mask & empty_cells).count_ones());
            if danger >= limit {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictactoe_core::domain::Geometry;

    fn shared(lines: &[u64]) -> SharedPairs {
        SharedPairs::new(Vec::from(lines).leak())
    }

    fn masks(size: usize, win: usize) -> &'static [u64] {
        Geometry::new(size, win).unwrap().line_masks()
    }

    #[test]
    fn five_in_a_row_on_the_empty_5x5_board_is_paired_away() {
        let mut pairing = Pairing::default();

        let blocked = pairing.blocks_every_line(masks(5, 5), 0, 0);

        assert!(blocked);
    }

    #[test]
    fn the_classic_board_has_too_few_cells_for_pairs() {
        let mut pairing = Pairing::default();

        assert!(!pairing.blocks_every_line(masks(3, 3), 0, 0));
    }

    #[test]
    fn a_line_one_mark_short_cannot_be_paired() {
        // 5 x 5, five in a row: X holds four of the top row.
        let mut pairing = Pairing::default();

        assert!(!pairing.blocks_every_line(masks(5, 5), 0b1111, 1 << 24));
    }

    #[test]
    fn seven_in_a_row_on_the_empty_7x7_board_carries_little_danger() {
        // 16 lines of 7 empty cells: 16 / 128 = 1/8.
        assert!(danger_is_low(masks(7, 7), 0, 0, true));
    }

    #[test]
    fn three_in_a_row_on_the_empty_4x4_board_carries_too_much_danger() {
        // 24 lines of 3 empty cells: 24 / 8 = 3.
        assert!(!danger_is_low(masks(4, 3), 0, 0, false));
    }

    #[test]
    fn a_line_one_mark_short_is_too_dangerous_with_the_attacker_to_move() {
        // 7 x 7, seven in a row: X holds six of the top row (danger 1/2 on its own).
        assert!(!danger_is_low(masks(7, 7), 0b11_1111, 1 << 48, true));
    }

    #[test]
    fn lines_the_defender_has_blocked_need_no_pairs() {
        // 4 x 4, four in a row: ten lines would need 20 of the 16 cells, but with O on
        // both diagonals every line holds an O and nothing is left to pair.
        let o = [0, 5, 10, 15, 3, 6, 9, 12]
            .iter()
            .fold(0u64, |m, c| m | 1 << c);
        let mut pairing = Pairing::default();

        assert!(pairing.blocks_every_line(masks(4, 4), 0, o));
    }

    #[test]
    fn a_line_with_exactly_two_free_cells_is_paired_by_them() {
        // 3 x 3: X on 0, O on 3 to 8. Only the top row is live for X, free cells 1 and 2.
        let o = 0x1ff & !0b111;
        let mut pairing = Pairing::default();

        let blocked = pairing.blocks_every_line(masks(3, 3), 1, o);

        assert!(blocked);
    }

    #[test]
    fn enough_cells_in_all_do_not_help_three_lines_crowded_onto_three_cells() {
        // Abstract lines: {0, 1}, {0, 2}, {1, 2} need six cells from three, while a
        // fourth line of eight cells brings the total to eleven cells for eight slots.
        // Only the matching itself, not the count, sees that the first three fail.
        let lines = [0b011, 0b101, 0b110, 0xff << 3];
        let mut pairing = Pairing::default();

        let blocked = pairing.blocks_every_line(&lines, 0, 0);

        assert!(!blocked);
    }

    #[test]
    fn two_lines_sharing_their_only_free_cells_cannot_both_be_paired() {
        // 3 x 3. O holds every cell but 0, 1, 2, 3, 6 (the top row and the left
        // column); X holds 1 and 3, so the live lines are the top row with {0, 2} and
        // the left column with {0, 6}: four slots, three cells.
        let x = 1 << 1 | 1 << 3;
        let o = 0x1ff & !(0b111 | 1 << 3 | 1 << 6);
        let mut pairing = Pairing::default();

        let blocked = pairing.blocks_every_line(masks(3, 3), x, o);

        assert!(!blocked);
    }

    #[test]
    fn two_lines_with_enough_distinct_cells_are_both_paired() {
        // As above without the X marks: the top row {0, 1, 2}
        // and the left column {0, 3, 6} have five cells for four slots.
        let o = 0x1ff & !(0b111 | 1 << 3 | 1 << 6);
        let mut pairing = Pairing::default();

        let blocked = pairing.blocks_every_line(masks(3, 3), 0, o);

        assert!(blocked);
    }

    #[test]
    fn lines_crowding_one_pair_share_it() {
        // Abstract lines {0, 1, 2}, {0, 1, 3}, {0, 1, 4}: six private cells needed from
        // five, but the one pair {0, 1} lies in all three.
        let lines = [0b00111, 0b01011, 0b10011];
        let mut pairing = Pairing::default();

        let private = pairing.blocks_every_line(&lines, 0, 0);
        let shared = shared(&lines).find(0, 0, 100);

        assert!(!private);
        assert_eq!(shared, Some(0b00011));
    }

    #[test]
    fn shared_pairs_must_not_overlap() {
        // Abstract lines {0, 1} and {1, 2}: each is its own only pair, and they share 1.
        let lines = [0b011, 0b110];

        assert_eq!(shared(&lines).find(0, 0, 100), None);
    }

    #[test]
    fn a_line_one_mark_short_has_no_shared_pair() {
        // 7 x 7, five in a row: X holds four of the top row's first run.
        assert_eq!(SharedPairs::new(masks(7, 5)).find(0b1111, 0, 100), None);
    }

    #[test]
    fn the_search_for_shared_pairs_gives_up_when_out_of_steps() {
        // The lines of the first test need one step to cover and one to see it done.
        let lines = [0b00111, 0b01011, 0b10011];

        assert_eq!(shared(&lines).find(0, 0, 1), None);
        assert_eq!(shared(&lines).find(0, 0, 2), Some(0b00011));
    }

    #[test]
    fn lines_the_defender_has_blocked_need_no_shared_pair() {
        // Abstract lines {0, 1} and {1, 2}, the second blocked by the defender on 2.
        let lines = [0b011, 0b110];

        assert_eq!(shared(&lines).find(0, 0b100, 100), Some(0b011));
    }

    #[test]
    fn the_paired_cells_are_those_of_the_pairs_found() {
        // Abstract lines {0, 1} and {2, 3} and cells 4 to 7 belonging to no line.
        let lines = [0b0011, 0b1100];
        let mut pairing = Pairing::default();

        assert!(pairing.blocks_every_line(&lines, 0, 0));
        assert_eq!(pairing.paired_cells(), 0b1111);
    }

    #[test]
    fn the_open_cells_are_the_empty_cells_of_lines_the_defender_has_not_blocked() {
        // Abstract lines {0, 1, 2} (attacker on 0), {3, 4} (blocked on 4), {5, 6}.
        let lines = [0b111, 0b11000, 0b1100000];

        let open = open_cells(&lines, 0b1, 0b10000);

        assert_eq!(open, 0b1100110);
    }

    /// Whether shared pairs exist for `lines` (each one's free cells), by trying every
    /// pair of the first line: slow, plain and complete.
    fn covers_exist(lines: &[u64]) -> bool {
        let Some((&first, rest)) = lines.split_first() else {
            return true;
        };
        let cells: Vec<u64> = (0..64).map(|c| 1 << c).filter(|b| first & b != 0).collect();
        cells.iter().enumerate().any(|(i, &p)| {
            cells[i + 1..].iter().any(|&q| {
                let pair = p | q;
                let left: Vec<u64> = (rest.iter())
                    .filter(|&&line| line & pair != pair)
                    .map(|&line| line & !pair)
                    .collect();
                left.iter().all(|line| line.count_ones() >= 2) && covers_exist(&left)
            })
        })
    }

    /// With a budget that never runs out the search is complete: it finds shared pairs
    /// exactly where they exist, and what it finds covers every live line. On random
    /// (7,7,5) positions of 14 to 24 marks, against the plain search above.
    #[test]
    fn shared_pairs_are_found_exactly_where_they_exist() {
        let masks = masks(7, 5);
        let shared = SharedPairs::new(masks);
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut found, mut checked) = (0, 0);
        for _ in 0..400 {
            let (mut a, mut d) = (0u64, 0u64);
            let marks = 14 + random() % 11;
            while (a | d).count_ones() < marks as u32 {
                let cell = 1 << (random() % 49);
                if (a | d) & cell == 0 {
                    if (a | d).count_ones() % 2 == 0 {
                        a |= cell
                    } else {
                        d |= cell
                    }
                }
            }
            let live: Vec<u64> = (masks.iter())
                .filter(|&&mask| mask & d == 0)
                .map(|&mask| mask & !(a | d))
                .collect();
            if live.iter().any(|line| line.count_ones() < 2) || live.len() > 18 {
                continue;
            }

            let cells = shared.find(a, d, u32::MAX);

            assert_eq!(cells.is_some(), covers_exist(&live), "{a:#x} {d:#x}");
            if let Some(cells) = cells {
                assert_eq!(cells & (a | d), 0);
                assert!(live.iter().all(|line| (line & cells).count_ones() >= 2));
                found += 1;
            }
            checked += 1;
        }
        assert!(
            found > 10 && checked - found > 10,
            "{found} of {checked} covered"
        );
    }
}
