use std::fmt;

/// One of the two marks a player puts on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mark {
    X,
    O,
}

impl Mark {
    /// Both marks, X first: handy for iterating and for indexing per-mark arrays.
    pub const ALL: [Mark; 2] = [Mark::X, Mark::O];

    pub const fn opponent(self) -> Mark {
        match self {
            Mark::X => Mark::O,
            Mark::O => Mark::X,
        }
    }

    /// 0 for X, 1 for O: the index into per-mark arrays such as `[players; 2]`.
    pub const fn index(self) -> usize {
        match self {
            Mark::X => 0,
            Mark::O => 1,
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mark::X => "X",
            Mark::O => "O",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opponent_of_each_mark_is_the_other_mark() {
        assert_eq!(Mark::X.opponent(), Mark::O);
        assert_eq!(Mark::O.opponent(), Mark::X);
    }

    #[test]
    fn marks_index_per_mark_arrays_in_the_order_x_then_o() {
        assert_eq!(Mark::ALL.map(Mark::index), [0, 1]);
    }
}
