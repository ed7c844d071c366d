use super::game_match::{Match, Recorder, Seat};
use crate::domain::{Geometry, Mark, PlayerName};
use crate::players::{ComputerFactory, PlayerSpec};

/// Everything needed to start a game; "play again" reuses it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub x: PlayerSpec,
    pub o: PlayerSpec,
    pub first: Mark,
    pub geometry: Geometry,
}

impl Settings {
    /// A new match with these settings: people's seats named from their specs, computers
    /// made by `computers` (and hints from its advisor), results offered to `recorder`.
    /// Every front end starts its games here.
    pub fn start_match<R: Recorder>(
        &self,
        computers: &mut dyn ComputerFactory,
        recorder: R,
    ) -> Match<R> {
        let seats = [(&self.x, Mark::X), (&self.o, Mark::O)].map(|(spec, mark)| match spec {
            PlayerSpec::Human(_) => Seat::Human(spec.name(mark)),
            PlayerSpec::Computer(level) => Seat::Computer(computers.computer(*level)),
        });
        Match::new(self.geometry, self.first, seats, recorder).advised_by(computers.advisor())
    }

    /// The same players with sides swapped (X's player plays O), for a rematch.
    pub fn swapped(&self) -> Settings {
        Settings {
            x: self.o.clone(),
            o: self.x.clone(),
            first: self.first,
            geometry: self.geometry,
        }
    }

    /// The name both players would share, if two humans were given the same one
    /// (names are compared ignoring case). Their results would land on one row.
    pub fn shared_human_name(&self) -> Option<PlayerName> {
        let (x, o) = (self.x.name(Mark::X), self.o.name(Mark::O));
        (self.x.is_human() && self.o.is_human() && x.key() == o.key()).then_some(x)
    }
}
