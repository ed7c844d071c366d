//! A game as asked for, checked: who plays each side, the board, who moves first, and
//! where two people sit. Checking uses the same parsers as the command line, so a web
//! game can be set up exactly as a console one can, and no other way.

use tictactoe_core::domain::{Geometry, Mark};
use tictactoe_core::play::{Seat, Seating, Settings};
use tictactoe_core::players::{ComputerFactory, PlayerSpec};

use super::dto::NewGame;
use super::error::ApiError;

#[derive(Debug, Clone)]
pub struct Setup {
    /// X's, then O's.
    pub specs: [PlayerSpec; 2],
    pub geometry: Geometry,
    pub first: Mark,
    pub seating: Seating,
}

impl Setup {
    /// Checks a request as `tictactoe play` checks its flags; defaults are the same too
    /// (3x3, a run the size of the board, X first).
    pub fn from_request(request: NewGame) -> Result<Setup, ApiError> {
        let bad = |message: String| ApiError::BadRequest(message);
        let x: PlayerSpec = request.x.parse().map_err(|e| bad(format!("x: {e}")))?;
        let o: PlayerSpec = request.o.parse().map_err(|e| bad(format!("o: {e}")))?;
        let size = request.size.unwrap_or(3);
        let geometry =
            Geometry::new(size, request.win.unwrap_or(size)).map_err(|e| bad(e.to_string()))?;
        let settings = Settings {
            x,
            o,
            first: request.first.map_or(Mark::X, Mark::from),
            geometry,
        };
        if let Some(name) = settings.shared_human_name() {
            return Err(bad(format!(
                "both players are called {name}: give them different names"
            )));
        }
        Ok(Setup {
            specs: [settings.x, settings.o],
            geometry,
            first: settings.first,
            seating: request.seating.map_or(Seating::Apart, Seating::from),
        })
    }

    /// The same game with the players' sides swapped, for a rematch.
    pub fn swapped(&self) -> Setup {
        let [x, o] = self.specs.clone();
        Setup {
            specs: [o, x],
            ..self.clone()
        }
    }

    pub fn is_human(&self, mark: Mark) -> bool {
        self.specs[mark.index()].is_human()
    }

    /// Computer-vs-computer: nobody holds a seat, and the server moves for both.
    pub fn is_show(&self) -> bool {
        !self.is_human(Mark::X) && !self.is_human(Mark::O)
    }

    /// Seats for a new match, computers made by `computers`.
    pub fn seats(&self, computers: &mut dyn ComputerFactory) -> [Seat; 2] {
        [Mark::X, Mark::O].map(|mark| match &self.specs[mark.index()] {
            PlayerSpec::Human(_) => Seat::Human(self.specs[mark.index()].name(mark)),
            PlayerSpec::Computer(level) => Seat::Computer(computers.computer(*level)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(x: &str, o: &str) -> NewGame {
        NewGame {
            x: x.into(),
            o: o.into(),
            size: None,
            win: None,
            first: None,
            seating: None,
        }
    }

    #[test]
    fn the_defaults_are_the_command_lines() {
        let setup = Setup::from_request(request("human", "impossible")).unwrap();

        assert_eq!(setup.geometry, Geometry::classic());
        assert_eq!(setup.first, Mark::X);
        assert_eq!(setup.seating, Seating::Apart);
    }

    #[test]
    fn an_unknown_player_a_bad_size_or_one_name_twice_is_a_bad_request() {
        let too_big = NewGame {
            size: Some(8),
            ..request("human", "easy")
        };
        for bad in [
            request("grandmaster", "easy"),
            too_big,
            request("human:Ada", "human:ada"),
        ] {
            assert!(matches!(
                Setup::from_request(bad),
                Err(ApiError::BadRequest(_))
            ));
        }
    }

    #[test]
    fn a_rematch_swaps_the_players_and_keeps_the_board() {
        let setup = Setup::from_request(request("human:Ada", "medium")).unwrap();

        let rematch = setup.swapped();

        assert!(rematch.is_human(Mark::O));
        assert!(!rematch.is_human(Mark::X));
        assert_eq!(rematch.geometry, setup.geometry);
    }
}
