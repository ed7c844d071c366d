//! Line arithmetic on bitboards, shared by the solver and the lookahead.

use tictactoe_core::domain::Geometry;

/// A board shape reduced to what a search needs: the line masks and a good move order.
#[derive(Debug, Clone)]
pub struct Shape {
    pub geometry: Geometry,
    /// Every cell of the board.
    pub all: u64,
    masks: &'static [u64],
    /// Cells in the order a search should try them: most lines through the cell first
    /// (the centre on 3 x 3, then corners, then edges), ties row-major.
    order: Vec<u8>,
    /// `win - 1`: how many of a line's cells one side must hold for the rest to be a threat.
    needed: u32,
}

impl Shape {
    pub fn new(geometry: Geometry) -> Self {
        let masks = geometry.line_masks();
        let mut order: Vec<u8> = (0..geometry.cell_count() as u8).collect();
        order.sort_by_key(|&cell| {
            std::cmp::Reverse(masks.iter().filter(|&&m| m & (1 << cell) != 0).count())
        });
        Shape {
            geometry,
            all: (1u64 << geometry.cell_count()) - 1,
            masks,
            order,
            needed: geometry.win_length() as u32 - 1,
        }
    }

    /// The threat rules every search applies before looking further: a full board is a
    /// draw; a move that completes a line wins now; two opponent threats cannot both be
    /// blocked; one must be blocked. Otherwise every empty cell is a candidate.
    ///
    /// A settled score counts from `win`, what a win with no cell left scores: with
    /// `left` empty cells, a win now scores `win + left` and a loss next move
    /// `-(win + left - 1)`, so a sooner win and a later loss score more; a draw scores 0.
    pub fn tactics(&self, me: u64, opp: u64, win: i32) -> Tactics {
        let empty = self.all & !(me | opp);
        if empty == 0 {
            return Tactics::Settled(0);
        }
        let left = empty.count_ones() as i32;
        let scan = self.scan(me, opp);
        let their_threats = scan.their_threats & empty;
        if scan.my_threats & empty != 0 {
            Tactics::Settled(win + left)
        } else if their_threats.count_ones() >= 2 {
            Tactics::Settled(-(win + left - 1))
        } else {
            let moves = if their_threats != 0 {
                their_threats
            } else {
                empty
            };
            Tactics::Search { moves, scan, left }
        }
    }

    /// One pass over the lines: both sides' threats, and how close each is to a line.
    pub fn scan(&self, me: u64, opp: u64) -> Scan {
        let mut scan = Scan::default();
        for &mask in self.masks {
            let (mine, theirs) = (me & mask, opp & mask);
            if theirs == 0 {
                let held = mine.count_ones();
                scan.my_most = scan.my_most.max(held + 1);
                if held == self.needed {
                    scan.my_threats |= mask & !me;
                }
            } else if mine == 0 {
                let held = theirs.count_ones();
                scan.their_most = scan.their_most.max(held + 1);
                if held == self.needed {
                    scan.their_threats |= mask & !opp;
                }
            }
        }
        scan
    }

    pub fn masks(&self) -> &'static [u64] {
        self.masks
    }

    /// How many marks make a line.
    pub fn win_length(&self) -> u32 {
        self.needed + 1
    }

    /// Empty cells where `me` would complete a line.
    pub fn threats(&self, me: u64, opp: u64) -> u64 {
        let mut cells = 0;
        for &mask in self.masks {
            if opp & mask == 0 && (me & mask).count_ones() == self.needed {
                cells |= mask & !me;
            }
        }
        cells
    }

    /// The cell bits in search order. Indexable, so a recursive search can walk it
    /// without holding a borrow across the recursion.
    pub fn ordered_bit(&self, rank: usize) -> u64 {
        1u64 << self.order[rank]
    }

    pub fn cell_count(&self) -> usize {
        self.order.len()
    }

    /// Empty cells on at least one line that neither side has blocked for itself: the
    /// only cells worth a move (a mark elsewhere completes nothing and blocks nothing).
    pub fn live_cells(&self, a: u64, b: u64) -> u64 {
        let empty = self.all & !(a | b);
        self.masks
            .iter()
            .filter(|&&mask| mask & a == 0 || mask & b == 0)
            .fold(0, |cells, &mask| cells | mask)
            & empty
    }

    /// The cells of `moves` in the order a search for `me` should try them: the most
    /// promising first, by the lines through each cell still open to one side, a line
    /// counting eight times more for each mark on it (building one's own and blocking
    /// the other's alike); ties in the static order (most lines first).
    pub fn by_promise(&self, moves: u64, me: u64, opp: u64) -> MoveList {
        self.by_lines(moves, me, opp, 3)
    }

    /// The same order with a line counting only `weight` times more for each mark on
    /// it (2 or 4): the order in which a defender in the proof search tries its
    /// replies. On (7,7,5), where the defender's replies decide the size of the proof,
    /// the weight is what matters most in the draw proofs: with four (issue 10) the
    /// defender answered X on 3 with O on 5, next to it, whose proof takes 8 s, where O
    /// in the centre takes 0.2 s; with two, cells on many lines come first, and the
    /// empty board is proven in 0.3 s instead of 9 s (eight: several times slower than
    /// four; one, lines alone: 0.6 s). The short win searches keep four, quicker there.
    pub fn by_danger(&self, moves: u64, me: u64, opp: u64, weight: u32) -> MoveList {
        self.by_lines(moves, me, opp, weight.trailing_zeros())
    }

    /// Orders `moves` by the lines through each cell still open to one side, a line
    /// weighing `2^(shift * marks)`; ties in the static order.
    fn by_lines(&self, moves: u64, me: u64, opp: u64, shift: u32) -> MoveList {
        let mut weight = [0u32; 64];
        for &mask in self.masks {
            let open = mask & moves;
            if open == 0 {
                continue;
            }
            let held = match ((me & mask).count_ones(), (opp & mask).count_ones()) {
                (mine, 0) => mine,
                (0, theirs) => theirs,
                _ => continue,
            };
            let mut cells = open;
            while cells != 0 {
                weight[cells.trailing_zeros() as usize] += 1 << (shift * held);
                cells &= cells - 1;
            }
        }
        let mut list = MoveList::default();
        for rank in 0..self.order.len() {
            let cell = self.order[rank];
            if moves & (1 << cell) != 0 {
                // The heaviest first, then by the static order: one key to sort.
                let lighter = u64::from(u32::MAX - weight[usize::from(cell)]);
                list.cells[list.len] = lighter << 16 | (rank as u64) << 8 | u64::from(cell);
                list.len += 1;
            }
        }
        list.cells[..list.len].sort_unstable();
        list
    }
}

/// Moves in the order to try them, without allocating: at most 64 cells.
#[derive(Debug, Clone)]
pub struct MoveList {
    /// Sort keys: the weight's complement, the rank in the static order, the cell.
    cells: [u64; 64],
    len: usize,
    next: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            cells: [0; 64],
            len: 0,
            next: 0,
        }
    }
}

impl Iterator for MoveList {
    /// The bit of the next cell.
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        (self.next < self.len).then(|| {
            self.next += 1;
            1u64 << (self.cells[self.next - 1] & 0xff)
        })
    }
}

/// What one pass over the lines found.
#[derive(Debug, Default, Clone, Copy)]
pub struct Scan {
    /// Empty cells that complete a line for the side to move.
    pub my_threats: u64,
    /// Empty cells that complete a line for the opponent.
    pub their_threats: u64,
    /// 1 + the most marks the side to move has on a line the opponent has not touched;
    /// 0 when every line is blocked for it. (Offset by one so 0 can mean "no live line".)
    pub my_most: u32,
    /// The same for the opponent.
    pub their_most: u32,
}

/// What the threat rules make of a position, for the side to move.
#[derive(Debug, Clone, Copy)]
pub enum Tactics {
    /// Decided without a search (a full board, a move that completes a line, or two
    /// threats of the opponent's): the score, as [`Shape::tactics`] counts it.
    Settled(i32),
    /// Nothing is decided yet: search `moves` (the one block, if there is a threat);
    /// `left` empty cells.
    Search { moves: u64, scan: Scan, left: i32 },
}
