//! A game as asked for, checked: the core's [`Settings`] (who plays each side, the
//! board, who moves first) and where two people sit. Checking uses the same parsers as
//! the command line, so a web game can be set up exactly as a console one can, and no
//! other way; and it starts as every front end's games start, through
//! [`Settings::start_match`] (or, kept by the store, goes on through
//! [`Settings::resume_match`]).
//!
//! A request's body is parsed into a `Setup` at the edge (`dto`); the arrow goes one
//! way: this module knows only the core.

use std::time::{Duration, SystemTime};

use tictactoe_core::domain::{GameClock, Geometry, Mark, TimeControl};
use tictactoe_core::play::{Event, Match, Recorder, ResumeError, Seating, Settings};
use tictactoe_core::players::{ComputerFactory, PlayerSpec};
use tictactoe_core::ports::{self, GameId, SeatHolder, Step, StoredGame};

#[derive(Debug, Clone)]
pub struct Setup {
    pub settings: Settings,
    pub seating: Seating,
    /// The game's time control: `None`, a game without a clock.
    pub clock: Option<TimeControl>,
}

impl Setup {
    /// The same game with the players' sides swapped, for a rematch.
    pub fn swapped(&self) -> Setup {
        Setup {
            settings: self.settings.swapped(),
            seating: self.seating,
            clock: self.clock,
        }
    }

    pub fn is_human(&self, mark: Mark) -> bool {
        self.spec(mark).is_human()
    }

    /// Who plays `mark`.
    pub fn spec(&self, mark: Mark) -> &PlayerSpec {
        self.settings.player(mark)
    }

    /// Computer-vs-computer: nobody holds a seat, and the server moves for both.
    pub fn is_show(&self) -> bool {
        !self.settings.has_human()
    }

    pub fn geometry(&self) -> Geometry {
        self.settings.geometry()
    }

    /// A new match, started as every front end starts one, seated as asked.
    pub fn start<R: Recorder>(&self, computers: &mut dyn ComputerFactory, recorder: R) -> Match<R> {
        self.settings
            .start_match(computers, recorder)
            .seated(self.seating)
    }

    /// The game as the store is to keep it when it begins `at`: on a clock, if it has a
    /// time control, each side having `first_move_within` for its first move.
    pub fn begin(
        &self,
        id: GameId,
        seats: [SeatHolder; 2],
        follows: Option<GameId>,
        first_move_within: Duration,
        at: SystemTime,
    ) -> ports::NewGame {
        let clock = self
            .clock
            .map(|control| GameClock::start(control, first_move_within, self.settings.first(), at));
        ports::NewGame {
            id,
            settings: self.settings.clone(),
            seating: self.seating,
            seats,
            follows,
            // A web game's computers draw fresh choices: it is rated.
            casual: false,
            clock,
        }
    }

    /// The setup a kept game began with.
    pub fn of_kept(game: &StoredGame) -> Setup {
        Setup {
            settings: game.game.settings.clone(),
            seating: game.game.seating,
            clock: game.game.clock.map(|clock| clock.control()),
        }
    }

    /// The match as the store kept it, after `steps`, seated as it began; the events
    /// are what resuming did (an ending the store lacked, given now).
    pub fn resume<R: Recorder>(
        &self,
        computers: &mut dyn ComputerFactory,
        recorder: R,
        steps: &[Step],
        ending: Option<ports::Ending>,
    ) -> Result<(Match<R>, Vec<Event>), ResumeError> {
        let (game, events) = self
            .settings
            .resume_match(computers, recorder, steps, ending)?;
        Ok((game.seated(self.seating), events))
    }
}

#[cfg(test)]
mod tests {
    use mockall::predicate::eq;
    use tictactoe_core::fixtures::{computers, settings};
    use tictactoe_core::play::{Seat, Unrecorded};
    use tictactoe_core::players::{Level, MockComputer};
    use tictactoe_core::ports::Change;

    use super::*;

    /// X and O as the command line writes them, on 3x3, X first, two people apart.
    fn setup(x: &str, o: &str) -> Setup {
        Setup {
            settings: settings(x.parse().unwrap(), o.parse().unwrap()),
            seating: Seating::Apart,
            clock: None,
        }
    }

    #[test]
    fn a_rematch_swaps_the_players_and_keeps_the_board_and_seating() {
        // Arrange
        let setup = setup("human:Ada", "medium");

        // Act
        let rematch = setup.swapped();

        // Assert
        assert!(rematch.is_human(Mark::O));
        assert!(!rematch.is_human(Mark::X));
        assert_eq!(rematch.settings.geometry(), setup.settings.geometry());
        assert_eq!(rematch.seating, setup.seating);
    }

    #[test]
    fn a_computers_seat_is_made_by_the_factory_at_the_level_asked_for() {
        // Arrange
        let setup = setup("human", "medium");
        let mut computers = computers();
        computers
            .expect_computer()
            .with(eq(Level::Medium))
            .times(1)
            .returning(|_| Box::new(MockComputer::new()));

        // Act
        let game = setup.start(&mut computers, Unrecorded);

        // Assert: the factory's mock checked the level; O's seat is its computer.
        assert!(matches!(game.seat(Mark::O), Seat::Computer(_)));
    }

    #[test]
    fn two_people_started_apart_must_agree_to_take_a_move_back() {
        // Arrange: Ada (X) and Bob (O), on two screens, one move each.
        let setup = setup("human:Ada", "human:Bob");
        let mut computers = computers();
        let mut game = setup.start(&mut computers, Unrecorded);
        let cell = |n: usize| Geometry::classic().position(n - 1).unwrap();
        game.play(Mark::X, cell(1)).unwrap();
        game.play(Mark::O, cell(2)).unwrap();

        // Act
        let events = game.undo(Mark::O).unwrap();

        // Assert: asked, not taken back, as `Seating::Apart` says.
        assert!(matches!(events[..], [Event::UndoAsked { by: Mark::O }]));
    }

    #[test]
    fn a_kept_game_of_two_people_apart_goes_on_seated_apart() {
        // Arrange: Ada (X) and Bob (O) on two screens, 1 and 2 kept.
        let setup = setup("human:Ada", "human:Bob");
        let cell = |n: usize| Geometry::classic().position(n - 1).unwrap();
        let steps = [1, 2].map(|n| Step {
            number: n as u32,
            change: Change::Move(cell(n)),
        });
        let mut resumed = setup
            .resume(&mut computers(), Unrecorded, &steps, None)
            .unwrap()
            .0;

        // Act
        let events = resumed.undo(Mark::O).unwrap();

        // Assert: as started, two screens must agree.
        assert_eq!(resumed.game().moves().len(), 2);
        assert!(matches!(events[..], [Event::UndoAsked { by: Mark::O }]));
    }
}
