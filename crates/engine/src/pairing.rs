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
/// `budget` steps. Returns the cells of the pairs.
pub fn shared_pairs(masks: &[u64], attacker: u64, defender: u64, budget: u32) -> Option<u64> {
    let empty_cells = !(attacker | defender);
    let mut lines = [0u64; 64];
    let mut count = 0;
    for &mask in masks {
        if mask & defender == 0 {
            let open = mask & empty_cells;
            if open.count_ones() < 2 {
                return None;
            }
            if count == lines.len() {
                return None;
            }
            lines[count] = open;
            count += 1;
        }
    }
    let mut steps = budget;
    cover(&mut lines[..count], 0, &mut steps)
}

/// Chooses pairs for `lines` (each one's open cells, none yet holding a chosen pair)
/// from cells not in `used`. Allocates nothing and copies nothing: for each pair tried,
/// the lines it serves are moved to the end of the slice and the search goes on with
/// the others (the order of the lines does not matter to it).
fn cover(lines: &mut [u64], used: u64, steps: &mut u32) -> Option<u64> {
    if *steps == 0 {
        return None;
    }
    *steps -= 1;
    // The line with the fewest free cells is the most constrained.
    let mut tightest = 0u64;
    let mut fewest = u32::MAX;
    for &open in lines.iter() {
        let n = (open & !used).count_ones();
        if n < 2 {
            return None;
        }
        if n < fewest {
            (tightest, fewest) = (open & !used, n);
        }
    }
    if fewest == u32::MAX {
        return Some(used);
    }
    // Candidate pairs in that line (at most 21: seven cells), those inside most other
    // lines first, then those that take a free cell from fewest lines they do not
    // serve (on (7,7,5) this found the covers with a third fewer searches).
    let mut pairs = [(0u32, 0u32, 0u64); 21];
    let mut count = 0;
    let mut first = tightest;
    while first != 0 && count < pairs.len() {
        let p = first & first.wrapping_neg();
        first &= first - 1;
        let mut second = first;
        while second != 0 && count < pairs.len() {
            let q = second & second.wrapping_neg();
            second &= second - 1;
            let pair = p | q;
            let served = lines.iter().filter(|&&open| open & pair == pair).count() as u32;
            let touched = lines.iter().filter(|&&open| open & pair != 0).count() as u32;
            pairs[count] = (served, touched - served, pair);
            count += 1;
        }
    }
    pairs[..count]
        .sort_unstable_by_key(|&(served, harmed, pair)| (std::cmp::Reverse(served), harmed, pair));
    for &(_, _, pair) in &pairs[..count] {
        // The lines the pair does not serve first, in place.
        let mut left = 0;
        for i in 0..lines.len() {
            if lines[i] & pair != pair {
                lines.swap(left, i);
                left += 1;
            }
        }
        if let Some(cells) = cover(&mut lines[..left], used | pair, steps) {
            return Some(cells);
        }
        if *steps == 0 {
            return None;
        }
    }
    None
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
        let shared = shared_pairs(&lines, 0, 0, 100);

        assert!(!private);
        assert_eq!(shared, Some(0b00011));
    }

    #[test]
    fn shared_pairs_must_not_overlap() {
        // Abstract lines {0, 1} and {1, 2}: each is its own only pair, and they share 1.
        let lines = [0b011, 0b110];

        assert_eq!(shared_pairs(&lines, 0, 0, 100), None);
    }

    #[test]
    fn a_line_one_mark_short_has_no_shared_pair() {
        // 7 x 7, five in a row: X holds four of the top row's first run.
        assert_eq!(shared_pairs(masks(7, 5), 0b1111, 0, 100), None);
    }

    #[test]
    fn the_search_for_shared_pairs_gives_up_when_out_of_steps() {
        // The lines of the first test need one step to cover and one to see it done.
        let lines = [0b00111, 0b01011, 0b10011];

        assert_eq!(shared_pairs(&lines, 0, 0, 1), None);
        assert_eq!(shared_pairs(&lines, 0, 0, 2), Some(0b00011));
    }

    #[test]
    fn lines_the_defender_has_blocked_need_no_shared_pair() {
        // Abstract lines {0, 1} and {1, 2}, the second blocked by the defender on 2.
        let lines = [0b011, 0b110];

        assert_eq!(shared_pairs(&lines, 0, 0b100, 100), Some(0b011));
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
}
