//! The computer's thinking: an exact solver (negamax on small boards, a yes/no proof
//! search on larger ones), an estimator for when time runs out, and a shallow lookahead,
//! all over bitboards. Every type here is `Send`.
//! Depends only on the domain; knows nothing of players, randomness or I/O.

mod bits;
mod book;
mod clock;
mod estimator;
mod hashing;
mod lookahead;
mod memory;
mod outcome;
mod pairing;
mod progress;
mod prover;
mod solver;
mod symmetry;
mod table;

#[cfg(any(test, feature = "mocks"))]
pub use clock::MockClock;
pub use clock::{Clock, Deadline, SystemClock};
pub use estimator::Estimator;
pub use lookahead::Lookahead;
pub use memory::{DEFAULT_BYTES, ENTRY_BYTES, Memory};
#[cfg(any(test, feature = "mocks"))]
pub use progress::MockProgress;
pub use progress::{Progress, Proven, Stage};
pub use solver::Solver;

#[cfg(test)]
mod tests {
    use super::*;

    fn can_be_sent<T: Send>() {}

    #[test]
    fn every_engine_type_can_move_to_another_thread() {
        can_be_sent::<Solver>();
        can_be_sent::<Estimator>();
        can_be_sent::<Lookahead>();
        can_be_sent::<SystemClock>();
        can_be_sent::<Box<dyn Clock>>();
        can_be_sent::<Deadline<'static>>();
    }
}
