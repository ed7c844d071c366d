use rand::Rng;
use rand::seq::IndexedRandom;

use super::{Action, Level, Player, PlayerSpec};
use crate::domain::{GameState, Mark, PlayerName};

/// Plays any empty cell, each equally likely. The RNG is injected, so a seeded one
/// makes its games reproducible.
pub struct RandomAI<R> {
    rng: R,
}

impl<R: Rng> RandomAI<R> {
    pub fn new(rng: R) -> Self {
        RandomAI { rng }
    }
}

impl<R: Rng> Player for RandomAI<R> {
    fn name(&self) -> PlayerName {
        PlayerSpec::Computer(Level::Random).name(Mark::X)
    }

    fn is_human(&self) -> bool {
        false
    }

    fn choose(&mut self, game: &dyn GameState) -> Action {
        match game.board().empty_cells().choose(&mut self.rng) {
            Some(&cell) => Action::Place(cell),
            // Only reachable if asked to move in a finished game: leave rather than panic.
            None => Action::Quit,
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;
    use crate::domain::{BitBoard, Game, Geometry, Position, fill_from_layout};

    fn game(layout: &str) -> Game<BitBoard> {
        let board = fill_from_layout(BitBoard::new(Geometry::classic()), layout).unwrap();
        Game::from_board(board, Mark::X).unwrap()
    }

    #[test]
    fn it_only_ever_plays_empty_cells() {
        let game = game("xo./ox./...");
        let mut player = RandomAI::new(StdRng::seed_from_u64(7));

        for _ in 0..200 {
            let Action::Place(cell) = player.choose(&game) else {
                panic!("expected a move")
            };
            assert!(
                game.board().mark_at(cell).is_none(),
                "played taken cell {cell}"
            );
        }
    }

    #[test]
    fn every_empty_cell_is_chosen_about_equally_often() {
        let game = game(".........");
        let mut player = RandomAI::new(StdRng::seed_from_u64(1));
        let mut counts = [0u32; 9];

        for _ in 0..9_000 {
            if let Action::Place(cell) = player.choose(&game) {
                counts[cell.index()] += 1;
            }
        }

        // 1000 expected per cell; 800..1200 is more than 6 standard deviations wide.
        assert!(
            counts.iter().all(|&n| (800..1200).contains(&n)),
            "{counts:?}"
        );
    }

    #[test]
    fn the_same_seed_plays_the_same_moves() {
        let game = game(".........");
        let moves = |seed| -> Vec<Position> {
            let mut player = RandomAI::new(StdRng::seed_from_u64(seed));
            (0..20)
                .filter_map(|_| match player.choose(&game) {
                    Action::Place(p) => Some(p),
                    _ => None,
                })
                .collect()
        };

        assert_eq!(moves(42), moves(42));
        assert_ne!(moves(42), moves(43));
    }
}
