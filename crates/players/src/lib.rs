//! The computer levels: [`RandomAI`] and [`MinimaxAI`] at Easy, Medium and Impossible,
//! and [`StandardComputers`], the factory that makes them for a game.
//!
//! Each level is a `MoveChooser` (the contract in `tictactoe_core::players`) that the
//! match asks for its move when its turn comes. The Impossible level is also the
//! `Advisor` behind hints and `analyze`. The thinking itself is the engine's
//! (`tictactoe-engine`); this crate chooses which search each level uses, and breaks
//! ties between equally good moves with an injected random number generator.

mod factory;
mod minimax;
mod random;
mod solvers;
#[cfg(test)]
mod test_support;

pub use factory::{StandardComputers, computer_at};
pub use minimax::MinimaxAI;
pub use random::RandomAI;
pub use solvers::SharedSolvers;
/// One cap on the computers' tables of positions ([`StandardComputers::within`]).
pub use tictactoe_engine::Memory;
/// What a long proof has settled so far: for a front end that shows it.
pub use tictactoe_engine::{Progress, Proven, Stage};
