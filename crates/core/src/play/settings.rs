//! The one way to start a game: a [`Settings`] value, checked once when it is made,
//! and [`Settings::start_match`], which turns it into a [`Match`]. The console's menu,
//! `tictactoe play`, the full-screen form and the web's `POST /api/games` each build
//! one and call it; each words the [`SettingsError`] its own way.

use thiserror::Error;

use super::game_match::{Event, Match, Recorder, ResumeError, Seat};
use crate::domain::{Geometry, Mark, PlayerName};
use crate::players::{ComputerFactory, PlayerSpec, default_name};
use crate::ports::{Ending, Step};

/// Everything needed to start a game: who plays each side, the board, who moves first.
/// "Play again" reuses it; a rematch swaps its sides. A `Settings` that exists is valid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    x: PlayerSpec,
    o: PlayerSpec,
    first: Mark,
    geometry: Geometry,
}

/// Why two players cannot sit down to a game together.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SettingsError {
    /// Two people with one name (letter case aside): their results would land on one
    /// row of the scoreboard.
    #[error("both players are called {0}")]
    SameName(PlayerName),
    /// Two people whose names look alike ([`PlayerName::looks_like`]): nobody could
    /// tell their rows, or their turns, apart.
    #[error("the two names look alike: {0} and {1}")]
    LookAlike(PlayerName, PlayerName),
}

impl Settings {
    /// Settings for a game between `x` and `o` on `geometry`, `first` to move; refused
    /// if two people would share a name.
    pub fn new(
        x: PlayerSpec,
        o: PlayerSpec,
        first: Mark,
        geometry: Geometry,
    ) -> Result<Settings, SettingsError> {
        let (x_name, o_name) = (x.name(Mark::X), o.name(Mark::O));
        if x.is_human() && o.is_human() {
            if x_name.key() == o_name.key() {
                return Err(SettingsError::SameName(x_name));
            }
            if x_name.looks_like(&o_name) {
                return Err(SettingsError::LookAlike(x_name, o_name));
            }
        }
        Ok(Settings {
            x,
            o,
            first,
            geometry,
        })
    }

    /// Who plays `mark`.
    pub fn player(&self, mark: Mark) -> &PlayerSpec {
        match mark {
            Mark::X => &self.x,
            Mark::O => &self.o,
        }
    }

    pub fn first(&self) -> Mark {
        self.first
    }

    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// These settings with the person at `mark` called `name` (a person who has not
    /// moved yet may choose their name: see `Match::rename`), refused as [`Settings::new`]
    /// refuses two people of one name or of names that look alike. The seat at `mark`
    /// is a person's: a computer's seat has no name to choose, and whoever asks checks
    /// that first (given a computer's seat, this seats a person there).
    pub fn renamed(&self, mark: Mark, name: PlayerName) -> Result<Settings, SettingsError> {
        let named = PlayerSpec::Human(Some(name));
        let (x, o) = match mark {
            Mark::X => (named, self.o.clone()),
            Mark::O => (self.x.clone(), named),
        };
        Settings::new(x, o, self.first, self.geometry)
    }

    /// Whether a person plays either side.
    pub fn has_human(&self) -> bool {
        self.x.is_human() || self.o.is_human()
    }

    /// A new match with these settings: people's seats named from their specs, computers
    /// made by `computers` (and hints from its advisor), results offered to `recorder`.
    /// Every front end starts its games here.
    pub fn start_match<R: Recorder>(
        &self,
        computers: &mut dyn ComputerFactory,
        recorder: R,
    ) -> Match<R> {
        let seats = Mark::ALL.map(|mark| match self.player(mark) {
            spec @ PlayerSpec::Human(_) => Seat::Human(spec.name(mark)),
            PlayerSpec::Computer(level) => Seat::Computer(computers.computer(*level)),
        });
        Match::new(self.geometry, self.first, seats, recorder).advised_by(computers.advisor())
    }

    /// A match with these settings as it stood after `steps`, ended as `ending` says (a
    /// game kept by a store, played on after a restart). The events are what resuming
    /// did: a result that had not been kept is kept now. See [`Match`] for the checks.
    pub fn resume_match<R: Recorder>(
        &self,
        computers: &mut dyn ComputerFactory,
        recorder: R,
        steps: &[Step],
        ending: Option<Ending>,
    ) -> Result<(Match<R>, Vec<Event>), ResumeError> {
        self.start_match(computers, recorder)
            .replayed(steps, ending)
    }

    /// The same players with sides swapped (X's player plays O), for a rematch. Each
    /// person keeps their name, a default one too: "Player X" stays "Player X" on O,
    /// so one person's games are not split between two names. Still valid: two people
    /// keep their two (different) names.
    pub fn swapped(&self) -> Settings {
        Settings {
            x: named(&self.o, Mark::O),
            o: named(&self.x, Mark::X),
            first: self.first,
            geometry: self.geometry,
        }
    }
}

/// `spec` with the name it plays under at `mark` written out, for a person who took the
/// default one.
fn named(spec: &PlayerSpec, mark: Mark) -> PlayerSpec {
    match spec {
        PlayerSpec::Human(None) => PlayerSpec::Human(Some(default_name(mark))),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;
    use crate::players::Level;

    fn human(name: &str) -> PlayerSpec {
        PlayerSpec::Human(Some(PlayerName::new(name).unwrap()))
    }

    fn settings(x: PlayerSpec, o: PlayerSpec) -> Result<Settings, SettingsError> {
        Settings::new(x, o, Mark::X, Geometry::classic())
    }

    #[test]
    fn two_people_with_one_name_in_any_case_cannot_sit_down_together() {
        let result = settings(human("Ada"), human("ADA"));

        assert_eq!(
            result,
            Err(SettingsError::SameName(PlayerName::new("Ada").unwrap()))
        );
    }

    #[test]
    fn two_people_whose_names_look_alike_cannot_sit_down_together() {
        let result = settings(human("Ada"), human("\u{410}da"));

        assert_eq!(
            result,
            Err(SettingsError::LookAlike(
                PlayerName::new("Ada").unwrap(),
                PlayerName::new("\u{410}da").unwrap()
            ))
        );
    }

    #[rstest]
    #[case::two_names(human("Ada"), human("Bob"))]
    #[case::two_default_names(PlayerSpec::Human(None), PlayerSpec::Human(None))]
    #[case::a_person_and_the_computer(human("Ada"), PlayerSpec::Computer(Level::Easy))]
    #[case::a_computer_against_itself(
        PlayerSpec::Computer(Level::Easy),
        PlayerSpec::Computer(Level::Easy)
    )]
    fn players_with_two_names_can(#[case] x: PlayerSpec, #[case] o: PlayerSpec) {
        assert!(settings(x, o).is_ok());
    }

    #[test]
    fn swapping_sides_gives_each_player_the_other_mark() {
        let game = settings(human("Ada"), PlayerSpec::Computer(Level::Easy)).unwrap();

        let rematch = game.swapped();

        assert_eq!(rematch.player(Mark::X), &PlayerSpec::Computer(Level::Easy));
        assert_eq!(rematch.player(Mark::O), &human("Ada"));
        assert_eq!(rematch.first(), game.first());
        assert_eq!(rematch.geometry(), game.geometry());
    }

    #[test]
    fn swapping_sides_keeps_each_persons_default_name() {
        let unnamed = PlayerSpec::Human(None);
        let game = settings(unnamed.clone(), unnamed).unwrap();

        let rematch = game.swapped();

        assert_eq!(rematch.player(Mark::X), &human("Player O"));
        assert_eq!(rematch.player(Mark::O), &human("Player X"));
    }

    #[test]
    fn a_person_renamed_keeps_the_other_player_the_board_and_the_first_mover() {
        let geometry = Geometry::new(4, 3).unwrap();
        let game = Settings::new(human("Ada"), PlayerSpec::Human(None), Mark::O, geometry).unwrap();

        let renamed = game.renamed(Mark::O, PlayerName::new("Bob").unwrap());

        assert_eq!(
            renamed,
            Settings::new(human("Ada"), human("Bob"), Mark::O, geometry)
        );
    }

    #[test]
    fn a_person_renamed_to_the_other_persons_name_is_refused_as_a_new_game_would_be() {
        let game = settings(human("Ada"), human("Bob")).unwrap();

        let renamed = game.renamed(Mark::X, PlayerName::new("bob").unwrap());

        assert_eq!(
            renamed,
            Err(SettingsError::SameName(PlayerName::new("bob").unwrap()))
        );
    }

    #[test]
    fn the_settings_keep_the_board_and_the_first_mover_they_were_given() {
        let geometry = Geometry::new(5, 4).unwrap();

        let game = Settings::new(human("Ada"), human("Bob"), Mark::O, geometry).unwrap();

        assert_eq!(game.geometry(), geometry);
        assert_eq!(game.first(), Mark::O);
    }

    #[rstest]
    #[case::two_people(human("Ada"), human("Bob"), true)]
    #[case::a_person_as_x(human("Ada"), PlayerSpec::Computer(Level::Easy), true)]
    #[case::a_person_as_o(PlayerSpec::Computer(Level::Easy), human("Ada"), true)]
    #[case::two_computers(
        PlayerSpec::Computer(Level::Easy),
        PlayerSpec::Computer(Level::Medium),
        false
    )]
    fn a_person_plays_when_either_side_is_human(
        #[case] x: PlayerSpec,
        #[case] o: PlayerSpec,
        #[case] has_human: bool,
    ) {
        assert_eq!(settings(x, o).unwrap().has_human(), has_human);
    }
}
