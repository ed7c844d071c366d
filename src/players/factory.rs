use std::rc::Rc;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::{HumanPlayer, Level, MinimaxAI, Player, PlayerSpec, RandomAI};
use crate::domain::Mark;
use crate::ports::{InputHandler, Renderer};

/// Turns a [`PlayerSpec`] into a player. The session asks for new players for every
/// game; the factory decides what they are made of.
#[cfg_attr(test, mockall::automock)]
pub trait PlayerFactory {
    fn create(&mut self, spec: &PlayerSpec, mark: Mark) -> Box<dyn Player>;
}

/// The real players: people read through `input` and see `renderer`; computers get
/// their own RNG, each seeded from one master seed so a whole session replays exactly.
pub struct StandardPlayers<I, R> {
    input: Rc<I>,
    renderer: Rc<R>,
    seeds: StdRng,
    /// How long Impossible may think per move (and the hint with it).
    think: Duration,
}

impl<I, R> StandardPlayers<I, R> {
    pub fn new(input: Rc<I>, renderer: Rc<R>, seed: u64, think: Duration) -> Self {
        StandardPlayers {
            input,
            renderer,
            seeds: StdRng::seed_from_u64(seed),
            think,
        }
    }
}

impl<I: InputHandler + 'static, R: Renderer + 'static> PlayerFactory for StandardPlayers<I, R> {
    fn create(&mut self, spec: &PlayerSpec, mark: Mark) -> Box<dyn Player> {
        let seed = self.seeds.next_u64();
        match spec {
            PlayerSpec::Human(_) => Box::new(HumanPlayer::new(
                spec.name(mark),
                Rc::clone(&self.input),
                Rc::clone(&self.renderer),
                Box::new(
                    MinimaxAI::impossible(StdRng::seed_from_u64(seed)).thinking_for(self.think),
                ),
            )),
            PlayerSpec::Computer(level) => computer(*level, seed, self.think),
        }
    }
}

/// A computer player at `level`, its random choices drawn from `seed`; Impossible
/// thinks for at most `think` per move.
pub fn computer(level: Level, seed: u64, think: Duration) -> Box<dyn Player> {
    let rng = StdRng::seed_from_u64(seed);
    match level {
        Level::Random => Box::new(RandomAI::new(rng)),
        Level::Easy => Box::new(MinimaxAI::easy(rng)),
        Level::Medium => Box::new(MinimaxAI::medium(rng)),
        Level::Impossible => Box::new(MinimaxAI::impossible(rng).thinking_for(think)),
    }
}
