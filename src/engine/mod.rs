//! The computer's thinking: an exact solver and a shallow lookahead, both over bitboards.
//! Depends only on the domain; knows nothing of players, randomness or I/O.

mod bits;
mod lookahead;
mod solver;
mod symmetry;

pub use lookahead::Lookahead;
pub use solver::Solver;
