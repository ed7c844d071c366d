//! Advice nobody waits for any more stops thinking.
//!
//! A hint or a training answer on a big board thinks on the advice lane for up to the
//! think time. When its client goes away (the connection closed), the request's future
//! is dropped, but the thinking thread would go on for nothing, holding the lane and
//! the game. So the advisor thinking for a request is one that stops when a flag is
//! raised ([`Stoppable`]), and the request holds a [`Cut`] that raises it if the request
//! is dropped before its answer.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tictactoe_core::players::{Advisor, ComputerFactory, Level, MoveChooser};

/// Raises its flag when dropped, unless the request it guards was answered
/// ([`done`](Self::done)).
pub struct Cut {
    stop: Arc<AtomicBool>,
    armed: bool,
}

impl Cut {
    /// Guards a request that thinks with advisors stopping on `stop`, lowering the flag
    /// for it first. The caller makes sure no earlier request's thinking still reads
    /// the flag (for a game, its turn is held).
    pub fn arm(stop: &Arc<AtomicBool>) -> Cut {
        stop.store(false, Ordering::Relaxed);
        Cut {
            stop: Arc::clone(stop),
            armed: true,
        }
    }

    /// The request was answered: nothing to stop.
    pub fn done(mut self) {
        self.armed = false;
    }
}

impl Drop for Cut {
    fn drop(&mut self) {
        if self.armed {
            self.stop.store(true, Ordering::Relaxed);
        }
    }
}

/// The computers of `computers`, whose advisor stops when `stop` is raised: what a
/// game's hints are asked of.
pub struct Stoppable<'a> {
    pub computers: &'a mut dyn ComputerFactory,
    pub stop: Arc<AtomicBool>,
}

impl ComputerFactory for Stoppable<'_> {
    fn computer(&mut self, level: Level) -> Box<dyn MoveChooser> {
        self.computers.computer(level)
    }

    fn advisor(&mut self) -> Box<dyn Advisor> {
        self.computers.advisor_stopping_when(Arc::clone(&self.stop))
    }

    fn advisor_stopping_when(&mut self, stop: Arc<AtomicBool>) -> Box<dyn Advisor> {
        self.computers.advisor_stopping_when(stop)
    }

    fn patient_advisor(&mut self, think: Duration, stop: Arc<AtomicBool>) -> Box<dyn Advisor> {
        self.computers.patient_advisor(think, stop)
    }

    fn forget_idle(&mut self, idle: Duration) {
        self.computers.forget_idle(idle);
    }

    fn memory_in_use(&self) -> u64 {
        self.computers.memory_in_use()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_dropped_before_its_answer_raises_the_flag() {
        let stop = Arc::new(AtomicBool::new(false));
        let cut = Cut::arm(&stop);

        drop(cut);

        assert!(stop.load(Ordering::Relaxed));
    }

    #[test]
    fn a_request_answered_leaves_the_flag_down() {
        let stop = Arc::new(AtomicBool::new(false));
        let cut = Cut::arm(&stop);

        cut.done();

        assert!(!stop.load(Ordering::Relaxed));
    }

    #[test]
    fn a_new_request_lowers_the_flag_an_earlier_one_raised() {
        let stop = Arc::new(AtomicBool::new(true));

        let _cut = Cut::arm(&stop);

        assert!(!stop.load(Ordering::Relaxed));
    }

    #[test]
    fn the_advisor_of_a_games_computers_is_the_one_that_stops_on_the_flag() {
        // Arrange: a mock factory that expects its stopping advisor to be asked for,
        // with the very flag given.
        let stop = Arc::new(AtomicBool::new(false));
        let mut computers = tictactoe_core::players::MockComputerFactory::new();
        let given = Arc::clone(&stop);
        computers
            .expect_advisor_stopping_when()
            .withf(move |flag| Arc::ptr_eq(flag, &given))
            .times(1)
            .returning(|_| Box::new(tictactoe_core::players::MockAdvisor::new()));
        let mut stoppable = Stoppable {
            computers: &mut computers,
            stop,
        };

        // Act
        let _advisor = stoppable.advisor();

        // Assert: the mock's expectation (checked when it is dropped).
    }
}
