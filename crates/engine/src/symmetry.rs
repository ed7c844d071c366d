//! The board's symmetries: permutations of the cells that map every line onto a line.
//! Positions that are images of each other have the same value, so the solver's table
//! stores one entry for all of them.

use std::sync::OnceLock;

use tictactoe_core::domain::Geometry;

/// The symmetries of one board shape, as lookup tables that move a whole bitboard a
/// byte at a time.
pub struct Symmetries {
    /// For each symmetry, for each byte of the bitboard, the image of every byte value.
    tables: Vec<Vec<[u64; 256]>>,
    chunks: usize,
    /// For each symmetry, the one that undoes it.
    inverses: Vec<usize>,
}

impl Symmetries {
    /// The symmetries of `geometry`, built on first use and shared for the life of the
    /// process: they are a property of the shape, like its lines.
    pub fn of(geometry: Geometry) -> &'static Symmetries {
        const SIDES: usize = 5; // sizes 3..=7
        static TABLES: [OnceLock<Symmetries>; SIDES * SIDES] =
            [const { OnceLock::new() }; SIDES * SIDES];
        let slot = (geometry.size() - 3) * SIDES + (geometry.win_length() - 3);
        TABLES[slot].get_or_init(|| Symmetries::build(geometry))
    }

    fn build(geometry: Geometry) -> Self {
        let cells = geometry.cell_count();
        let chunks = cells.div_ceil(8);
        let tables = cell_maps(geometry)
            .into_iter()
            .map(|map| {
                (0..chunks)
                    .map(|chunk| {
                        let mut table = [0u64; 256];
                        for (byte, image) in table.iter_mut().enumerate() {
                            for bit in 0..8 {
                                let cell = chunk * 8 + bit;
                                if byte & (1 << bit) != 0 && cell < cells {
                                    *image |= 1 << map[cell];
                                }
                            }
                        }
                        table
                    })
                    .collect()
            })
            .collect();
        let mut symmetries = Symmetries {
            tables,
            chunks,
            inverses: Vec::new(),
        };
        let count = symmetries.tables.len();
        symmetries.inverses = (0..count)
            .map(|s| {
                (0..count)
                    .find(|&t| {
                        (0..cells)
                            .all(|c| symmetries.apply(t, symmetries.apply(s, 1 << c)) == 1 << c)
                    })
                    .unwrap_or(0)
            })
            .collect();
        symmetries
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.tables.len()
    }

    /// The image of a set of cells under one symmetry.
    pub fn apply(&self, symmetry: usize, bits: u64) -> u64 {
        let tables = &self.tables[symmetry];
        (0..self.chunks).fold(0, |image, chunk| {
            image | tables[chunk][((bits >> (8 * chunk)) & 0xff) as usize]
        })
    }

    /// One key for a position and all its images: the smallest image.
    pub fn canonical(&self, me: u64, opp: u64) -> u128 {
        self.canonical_by(me, opp).0
    }

    /// The key of [`canonical`](Self::canonical) and a symmetry that maps the position
    /// onto it, so that cells remembered with the key can be mapped back
    /// ([`undo`](Self::undo)).
    pub fn canonical_by(&self, me: u64, opp: u64) -> (u128, usize) {
        (0..self.tables.len())
            .map(|s| {
                let key = (u128::from(self.apply(s, me)) << 64) | u128::from(self.apply(s, opp));
                (key, s)
            })
            .min()
            .unwrap_or(((u128::from(me) << 64) | u128::from(opp), 0))
    }

    /// The cells that `symmetry` maps onto `bits`.
    pub fn undo(&self, symmetry: usize, bits: u64) -> u64 {
        self.apply(self.inverses[symmetry], bits)
    }
}

/// Every cell permutation that maps the set of lines onto itself, found among the maps
/// `(row, col) -> (p(row), q(col))` and their transposes, where `p` and `q` permute the
/// rows. Only the rotations and reflections for a short run; with a full-width run on
/// 4 x 4 and 5 x 5 also every row order that commutes with the mirror (32 maps in all).
fn cell_maps(geometry: Geometry) -> Vec<Vec<usize>> {
    let n = geometry.size();
    let mirror: Vec<usize> = (0..n).rev().collect();
    let identity: Vec<usize> = (0..n).collect();
    // From 6 x 6 on a full-width run is proven a draw by pairing in a few positions:
    // the extra maps (hundreds on 7 x 7) would cost more to build than they save.
    let orders: Vec<Vec<usize>> = if geometry.win_length() == n && n <= 5 {
        permutations(n)
            .into_iter()
            .filter(|p| (0..n).all(|i| p[mirror[i]] == mirror[p[i]]))
            .collect()
    } else {
        vec![identity.clone(), mirror.clone()]
    };
    let lines: std::collections::HashSet<u64> = geometry.line_masks().iter().copied().collect();
    let mut maps = Vec::new();
    for p in &orders {
        for q in [p.clone(), p.iter().map(|&i| mirror[i]).collect()] {
            for transpose in [false, true] {
                let map: Vec<usize> = geometry
                    .positions()
                    .map(|cell| {
                        let (row, col) = (geometry.row_of(cell), geometry.col_of(cell));
                        let (row, col) = if transpose { (col, row) } else { (row, col) };
                        geometry
                            .at(p[row], q[col])
                            .expect("rows and columns permuted stay on the board")
                            .index()
                    })
                    .collect();
                let keeps_lines = geometry.line_masks().iter().all(|&mask| {
                    let image = (0..n * n)
                        .filter(|&c| mask & (1 << c) != 0)
                        .fold(0u64, |m, c| m | 1 << map[c]);
                    lines.contains(&image)
                });
                if keeps_lines && !maps.contains(&map) {
                    maps.push(map);
                }
            }
        }
    }
    maps
}

fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for rest in permutations(n - 1) {
        for at in 0..n {
            let mut p = rest.clone();
            p.insert(at, n - 1);
            all.push(p);
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    #[rstest]
    #[case::classic(3, 3, 8)]
    #[case::four_by_four_full_rows(4, 4, 32)]
    #[case::four_by_four_three_in_a_row(4, 3, 8)]
    #[case::five_by_five_full_rows(5, 5, 32)]
    #[case::five_by_five_four_in_a_row(5, 4, 8)]
    #[case::seven_by_seven_full_rows_only_rotations_and_reflections(7, 7, 8)]
    fn each_shape_has_its_symmetries(
        #[case] size: usize,
        #[case] win: usize,
        #[case] count: usize,
    ) {
        assert_eq!(
            Symmetries::of(Geometry::new(size, win).unwrap()).len(),
            count
        );
    }

    #[test]
    fn images_of_a_position_share_one_key() {
        let symmetries = Symmetries::of(Geometry::classic());
        // X in a corner and O on the adjacent edge, in all four orientations.
        let corner_then_edge = [
            (1 << 0, 1 << 1),
            (1 << 2, 1 << 5),
            (1 << 8, 1 << 7),
            (1 << 6, 1 << 3),
        ];

        let keys: std::collections::HashSet<u128> = corner_then_edge
            .iter()
            .map(|&(me, opp)| symmetries.canonical(me, opp))
            .collect();

        assert_eq!(keys.len(), 1);
        assert_ne!(
            symmetries.canonical(1 << 0, 1 << 1),
            symmetries.canonical(1 << 0, 1 << 4)
        );
    }

    #[test]
    fn a_set_of_cells_mapped_to_its_canonical_image_and_back_is_itself() {
        let symmetries = Symmetries::of(Geometry::new(7, 5).unwrap());
        // X in a corner and O next to it: the canonical image is some other corner.
        let (me, opp) = (1 << 48, 1 << 47);
        let (_, symmetry) = symmetries.canonical_by(me, opp);
        let cells = 1 << 40 | 1 << 3;

        let back = symmetries.undo(symmetry, symmetries.apply(symmetry, cells));

        assert_eq!(back, cells);
    }

    #[rstest]
    #[case::classic(3, 3)]
    #[case::four_by_four_full_rows(4, 4)]
    #[case::five_by_five_four_in_a_row(5, 4)]
    #[case::seven_by_seven_five_in_a_row(7, 5)]
    fn every_symmetry_maps_each_line_onto_a_line(#[case] size: usize, #[case] win: usize) {
        let geometry = Geometry::new(size, win).unwrap();
        let symmetries = Symmetries::of(geometry);
        let lines: std::collections::HashSet<u64> = geometry.line_masks().iter().copied().collect();

        for symmetry in 0..symmetries.len() {
            for &line in &lines {
                let image = symmetries.apply(symmetry, line);

                assert!(
                    lines.contains(&image),
                    "{symmetry}: {line:#x} to {image:#x}"
                );
            }
        }
    }
}
