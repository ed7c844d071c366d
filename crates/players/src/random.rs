use rand::Rng;
use rand::seq::IndexedRandom;

use tictactoe_core::domain::{GameState, Mark, PlayerName, Position};
use tictactoe_core::players::{Level, MoveChooser, Player, PlayerSpec};

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

impl<R> Player for RandomAI<R> {
    fn name(&self) -> PlayerName {
        PlayerSpec::Computer(Level::Random).name(Mark::X)
    }
}

impl<R: Rng + Send> MoveChooser for RandomAI<R> {
    fn choose_move(&mut self, game: &dyn GameState) -> Option<Position> {
        game.board().empty_cells().choose(&mut self.rng).copied()
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;
    use crate::test_support::board;
    use tictactoe_core::domain::{BitBoard, Game};

    /// A 3 x 3 game from `layout`, X to move.
    fn game(layout: &str) -> Game<BitBoard> {
        Game::from_board(board(3, 3, layout), Mark::X).unwrap()
    }

    #[test]
    fn it_only_ever_plays_empty_cells() {
        let game = game("xo./ox./...");
        let mut player = RandomAI::new(StdRng::seed_from_u64(7));

        for _ in 0..200 {
            let cell = player.choose_move(&game).expect("a move");
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
            if let Some(cell) = player.choose_move(&game) {
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
            (0..20).filter_map(|_| player.choose_move(&game)).collect()
        };

        assert_eq!(moves(42), moves(42));
        assert_ne!(moves(42), moves(43));
    }
}
