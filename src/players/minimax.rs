use rand::Rng;
use rand::seq::IndexedRandom;

use super::{Action, Level, Player, PlayerSpec};
use crate::domain::{Board, GameState, Mark, PlayerName, Position};
use crate::engine::{Lookahead, Solver};

/// The computer at Easy, Medium or Impossible: a minimax search, shallow or complete.
///
/// * Easy looks one move ahead (it takes a win it can see, nothing more);
/// * Medium looks two moves ahead (it also blocks a single threat);
/// * Impossible searches to the end and plays perfectly.
///
/// Among equally good moves it picks one at random with the injected RNG, so games vary
/// but a seeded RNG replays them exactly.
pub struct MinimaxAI<R> {
    level: Level,
    search: Search,
    rng: R,
}

enum Search {
    Lookahead {
        depth: u32,
        engine: Option<Lookahead>,
    },
    /// Built on the first move; keeps its table for the rest of the game and beyond.
    Exact(Option<Solver>),
}

impl<R: Rng> MinimaxAI<R> {
    pub fn easy(rng: R) -> Self {
        Self::with_search(
            Level::Easy,
            Search::Lookahead {
                depth: 1,
                engine: None,
            },
            rng,
        )
    }

    pub fn medium(rng: R) -> Self {
        Self::with_search(
            Level::Medium,
            Search::Lookahead {
                depth: 2,
                engine: None,
            },
            rng,
        )
    }

    pub fn impossible(rng: R) -> Self {
        Self::with_search(Level::Impossible, Search::Exact(None), rng)
    }

    fn with_search(level: Level, search: Search, rng: R) -> Self {
        MinimaxAI { level, search, rng }
    }

    /// Every move this level rates best, ascending; it plays one of them.
    pub fn best_moves(&mut self, board: &dyn Board, to_move: Mark) -> Vec<Position> {
        let geometry = board.geometry();
        match &mut self.search {
            Search::Lookahead { depth, engine } => {
                let engine = match engine {
                    Some(engine) if engine.geometry() == geometry => engine,
                    _ => engine.insert(Lookahead::new(geometry, *depth)),
                };
                engine.best_moves(board, to_move)
            }
            Search::Exact(solver) => {
                let solver = match solver {
                    Some(solver) if solver.geometry() == geometry => solver,
                    _ => solver.insert(Solver::new(geometry)),
                };
                solver
                    .analyze(board, to_move)
                    .map(|a| a.best_moves)
                    .unwrap_or_default()
            }
        }
    }
}

impl<R: Rng> Player for MinimaxAI<R> {
    fn name(&self) -> PlayerName {
        PlayerSpec::Computer(self.level).name(Mark::X)
    }

    fn is_human(&self) -> bool {
        false
    }

    fn choose(&mut self, game: &dyn GameState) -> Action {
        let best = self.best_moves(game.board(), game.to_move());
        match best.choose(&mut self.rng) {
            Some(&cell) => Action::Place(cell),
            // Only reachable if asked to move in a finished game: leave rather than panic.
            None => Action::Quit,
        }
    }
}
