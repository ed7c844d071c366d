use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::{MinimaxAI, RandomAI, SharedSolvers};
use tictactoe_core::players::{Advisor, ComputerFactory, Level, MoveChooser};
use tictactoe_engine::Memory;

/// The real computers. Each gets its own RNG, seeded from one master seed so that a
/// whole session replays exactly; every Impossible player (and advisor) shares one
/// solver per board shape.
pub struct StandardComputers {
    seeds: StdRng,
    /// How long Impossible may think per move (and the hint with it).
    think: Duration,
    solvers: SharedSolvers,
}

impl StandardComputers {
    pub fn new(seed: u64, think: Duration) -> Self {
        StandardComputers {
            seeds: StdRng::seed_from_u64(seed),
            think,
            solvers: SharedSolvers::new(),
        }
    }

    /// The same computers, their solvers' tables (every board's, and the patient
    /// advisors') held within `memory` together.
    pub fn within(self, memory: Memory) -> Self {
        StandardComputers {
            solvers: SharedSolvers::within(memory),
            ..self
        }
    }

    fn advising(&mut self) -> MinimaxAI<StdRng> {
        MinimaxAI::impossible(self.next_rng())
            .thinking_for(self.think)
            .sharing(&self.solvers)
    }

    fn next_rng(&mut self) -> StdRng {
        StdRng::seed_from_u64(self.seeds.next_u64())
    }
}

/// The computer `level` names, choosing with `rng`; at Impossible it thinks for
/// `think` a move on `solvers`' solver for the board.
pub fn computer_at(
    level: Level,
    rng: StdRng,
    think: Duration,
    solvers: &SharedSolvers,
) -> Box<dyn MoveChooser> {
    match level {
        Level::Random => Box::new(RandomAI::new(rng)),
        Level::Easy => Box::new(MinimaxAI::easy(rng)),
        Level::Medium => Box::new(MinimaxAI::medium(rng)),
        Level::Impossible => Box::new(
            MinimaxAI::impossible(rng)
                .thinking_for(think)
                .sharing(solvers),
        ),
    }
}

impl ComputerFactory for StandardComputers {
    fn computer(&mut self, level: Level) -> Box<dyn MoveChooser> {
        computer_at(level, self.next_rng(), self.think, &self.solvers)
    }

    /// Always Impossible, whatever levels are playing: a hint is perfect play, never
    /// an Easy or Medium player's lookahead.
    fn advisor(&mut self) -> Box<dyn Advisor> {
        Box::new(self.advising())
    }

    fn advisor_stopping_when(&mut self, stop: Arc<AtomicBool>) -> Box<dyn Advisor> {
        Box::new(self.advising().stopping_when(stop))
    }

    /// Impossible with a solver of its own (a long analysis must not keep the games of
    /// the same board waiting for the shared one), within the same memory.
    fn patient_advisor(&mut self, think: Duration, stop: Arc<AtomicBool>) -> Box<dyn Advisor> {
        Box::new(
            MinimaxAI::impossible(self.next_rng())
                .thinking_for(think)
                .stopping_when(stop)
                .sharing(&self.solvers.apart()),
        )
    }

    fn forget_idle(&mut self, idle: Duration) {
        self.solvers.forget_idle(idle);
    }

    fn memory_in_use(&self) -> u64 {
        self.solvers.memory().in_use()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{board, numbers};
    use tictactoe_core::domain::{BitBoard, Game, Geometry, Mark, Verdict};

    #[test]
    fn each_level_is_the_computer_it_names() {
        let mut computers = StandardComputers::new(0, Duration::from_millis(100));

        let names: Vec<String> = Level::ALL
            .iter()
            .map(|&level| computers.computer(level).name().to_string())
            .collect();

        assert_eq!(
            names,
            [
                "Computer (Random)",
                "Computer (Easy)",
                "Computer (Medium)",
                "Computer (Impossible)"
            ]
        );
    }

    #[test]
    fn the_advisor_gives_impossible_s_proven_hints() {
        // Arrange: 3 x 3, X to move wins at once with cell 3. A lookahead level would
        // list that move too, but as an unproven guess with no verdict of its own.
        let position = board(3, 3, "xx./oo./...");
        let mut advisor = StandardComputers::new(0, Duration::from_secs(10)).advisor();

        // Act
        let advice = advisor.advise(&position, Mark::X).unwrap();

        // Assert
        assert_eq!((advice.verdict, advice.plies), (Verdict::Win, 1));
        assert_eq!(numbers(&advice.best_moves), [3]);
        assert!(advice.exact && advice.moves_proven);
    }

    #[test]
    fn one_master_seed_replays_every_computer_it_makes() {
        let game = Game::<BitBoard>::start(Geometry::classic(), Mark::X);
        let openings = |seed| -> Vec<_> {
            let mut computers = StandardComputers::new(seed, Duration::from_millis(100));
            (0..8)
                .map(|_| computers.computer(Level::Random).choose_move(&game))
                .collect()
        };

        assert_eq!(openings(5), openings(5));
        assert_ne!(openings(5), openings(6));
    }
}
