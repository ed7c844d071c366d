//! The computer's thinking: an exact solver and a shallow lookahead, both over bitboards.
//! Depends only on the domain; knows nothing of players, randomness or I/O.

mod bits;
mod clock;
mod estimator;
mod hashing;
mod lookahead;
mod outcome;
mod pairing;
mod prover;
mod solver;
mod symmetry;

#[cfg(test)]
pub use clock::MockClock;
pub use clock::{Clock, Deadline, SystemClock};
pub use estimator::Estimator;
pub use lookahead::Lookahead;
pub use solver::Solver;
