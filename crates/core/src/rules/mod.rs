//! The rules about kept games, written once for every store and front end: pure
//! functions over the records the ports speak (the game's own rules, of marks, boards
//! and lines, are in [`crate::domain`]).
//!
//! * [`exactly_once`]: what a store does with each write, decided from what it holds
//!   (keep it, skip a retry, or refuse a contradiction).
//! * [`reviews`](check_review): which review a store keeps for a game.
//! * [`counting`](counts_of): the moves standing, the names a game is filed under,
//!   and what its ending adds to the scoreboard.
//! * [`ratings`](rate): which games rate whom, and by how much.
//! * [`training`](judge): the puzzles a game makes, an answer judged, when a puzzle
//!   retires.
//!
//! Every store asks these functions (the contract suite checks each adapter against
//! them), so the stores cannot drift apart; the use cases that read a store by them
//! (a player's open puzzles, a board's ratings) are in [`crate::play`].

mod counting;
pub mod exactly_once;
mod pairing;
mod ratings;
mod reviews;
pub(crate) mod training;

pub use counting::{Counted, counts_of, moves_standing, names_of};
pub use exactly_once::{Decision, Movers, Repeat};
pub use pairing::{FIRST_GAP, GAP_GROWTH, WAVE, WIDEST_GAP, Waiting, allowed_gap, pair};
pub use ratings::{RatingBook, best_first, rate, rated, rates, rates_people};
pub use reviews::{check_review, keeps_review};
pub use training::{Answered, Fate, Puzzle, Puzzles, judge, puzzles_in, retired};
