//! The core is safe across threads: what a server keeps between requests (a match, its
//! computer players, their shared solver) can move between threads and be used from
//! several at once.

use std::sync::{Arc, Barrier};
use std::thread;
use std::time::Duration;

use tictactoe_core::domain::{Geometry, Mark, Outcome};
use tictactoe_core::play::{End, Match, Seat, Unrecorded};
use tictactoe_core::players::{ComputerFactory, Level};
use tictactoe_players::StandardComputers;

/// Impossible against Impossible on one shape, its players from `computers`.
fn impossible_vs_impossible(computers: &mut StandardComputers) -> Match<Unrecorded> {
    let seats = [Level::Impossible; 2].map(|level| Seat::Computer(computers.computer(level)));
    Match::new(Geometry::new(4, 3).unwrap(), Mark::X, seats, Unrecorded)
}

#[test]
fn two_matches_on_two_threads_at_once_share_one_solver_and_both_play_perfectly() {
    // Arrange: one factory, so both matches' players share its solver for 4 x 4.
    let mut computers = StandardComputers::new(7, Duration::from_secs(5));
    let matches = [
        impossible_vs_impossible(&mut computers),
        impossible_vs_impossible(&mut computers),
    ];
    let start = Arc::new(Barrier::new(2));

    // Act: each thread takes a match and advances it to the end, both starting together.
    let handles = matches.map(|mut game| {
        let start = Arc::clone(&start);
        thread::spawn(move || {
            start.wait();
            while game.end().is_none() {
                game.advance().expect("a computer never breaks the rules");
            }
            game.end().cloned()
        })
    });
    let ends = handles.map(|handle| handle.join().expect("no thread panicked"));

    // Assert: on 4 x 4 with three in a row the first player wins with perfect play.
    for end in ends {
        assert!(
            matches!(&end, Some(End::Finished(game)) if game.outcome == Outcome::Won(Mark::X)),
            "{end:?}"
        );
    }
}
