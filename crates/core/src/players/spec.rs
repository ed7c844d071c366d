use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use thiserror::Error;

use crate::domain::{Mark, NameError, PlayerName, excerpt, excerpt_of};

/// How strong a computer player is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Any empty cell, uniformly at random.
    Random,
    /// Takes a win it can see one move ahead; otherwise plays at random.
    Easy,
    /// Looks two moves ahead: wins when it can, blocks a single threat, falls for a fork.
    Medium,
    /// Perfect play: never loses, wins as fast as it can.
    Impossible,
}

impl Level {
    /// Every level, weakest first: the order menus list them in.
    pub const ALL: [Level; 4] = [Level::Random, Level::Easy, Level::Medium, Level::Impossible];

    /// The level as it is typed and sent: `random`, `easy`, `medium`, `impossible` (on the
    /// command line, in the menu, in the web API). [`Level::from_id`] reads it back.
    pub fn id(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Impossible => "impossible",
        }
    }

    /// The level whose [`id`](Level::id) is `text`, in any letter case.
    pub fn from_id(text: &str) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|level| level.id().eq_ignore_ascii_case(text))
    }
}

/// The level as people read it: `Random`, `Easy`, `Medium`, `Impossible`.
impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Random => "Random",
            Level::Easy => "Easy",
            Level::Medium => "Medium",
            Level::Impossible => "Impossible",
        })
    }
}

/// Who plays one side, as chosen in the menu or on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A person; `None` takes the default name for the mark ("Player X").
    Human(Option<PlayerName>),
    Computer(Level),
}

impl PlayerSpec {
    /// The name this player is shown and recorded under when playing `mark`.
    pub fn name(&self, mark: Mark) -> PlayerName {
        match self {
            PlayerSpec::Human(Some(name)) => name.clone(),
            PlayerSpec::Human(None) => default_name(mark),
            PlayerSpec::Computer(level) => PlayerName::computer(&level.to_string()),
        }
    }

    pub fn is_human(&self) -> bool {
        matches!(self, PlayerSpec::Human(_))
    }
}

/// "Player X" or "Player O": what a person kept without a name
/// (`PlayerSpec::Human(None)`) is called, as games were kept before the front ends named
/// everyone ([`unnamed`]). Kept games mean this: it does not change.
pub fn default_name(mark: Mark) -> PlayerName {
    PlayerName::new(&format!("Player {mark}"))
        .expect("\"Player X\" and \"Player O\" are short, clean and not reserved")
}

/// "Player 1" on X, "Player 2" on O: the name a front end seats a person under who gives
/// none, in a new game. Numbers, not marks: a person keeps their name when the sides
/// are swapped, and "Player X" playing O read as a mistake.
pub fn unnamed(mark: Mark) -> PlayerName {
    PlayerName::new(&format!("Player {}", mark.index() + 1))
        .expect("\"Player 1\" and \"Player 2\" are short, clean and not reserved")
}

/// Whether `name` is one a front end gives a person who gave none: [`unnamed`]'s
/// "Player 1" and "Player 2", or [`default_name`]'s "Player X" and "Player O" of games
/// kept before (letter case aside). Such a person is nobody in particular: every
/// nameless player is one of these four names, so a game with one rates nobody.
pub fn is_placeholder(name: &PlayerName) -> bool {
    static PLACEHOLDERS: LazyLock<Vec<String>> = LazyLock::new(|| {
        Mark::ALL
            .into_iter()
            .flat_map(|mark| [unnamed(mark), default_name(mark)])
            .map(|placeholder| placeholder.key())
            .collect()
    });
    let key = name.key();
    PLACEHOLDERS.contains(&key)
}

/// `spec` as a new game seats it: a person without a name given the [`unnamed`] one
/// for `mark`; anyone else as they are.
pub fn seated(spec: PlayerSpec, mark: Mark) -> PlayerSpec {
    match spec {
        PlayerSpec::Human(None) => PlayerSpec::Human(Some(unnamed(mark))),
        other => other,
    }
}

/// A name someone typed, safe to quote back: control characters replaced, and cut only
/// when it is half again as long as the longest name allowed.
fn quoted_name(name: &str) -> String {
    excerpt_of(name, PlayerName::MAX_CHARS * 3 / 2)
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SpecError {
    #[error("unknown player \"{0}\": use human, human:NAME, random, easy, medium or impossible")]
    Unknown(String),
    /// `given` is the name as typed, shown whole unless it is far too long to be one,
    /// quoted with what cannot be seen or printed safely written out (`\u{200b}`, an
    /// escape character as `\u{1b}`), so the refusal shows what was refused.
    #[error("the name {given:?} cannot be used: {reason}")]
    Name { given: String, reason: NameError },
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    /// `human`, `human:NAME`, `random`, `easy`, `medium` or `impossible`, in any case.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (kind, name) = match text.split_once(':') {
            Some((kind, name)) => (kind, Some(name)),
            None => (text, None),
        };
        let kind = kind.trim();
        if kind.eq_ignore_ascii_case("human") {
            return match name {
                None => Ok(PlayerSpec::Human(None)),
                Some(name) => PlayerName::new(name)
                    .map(|name| PlayerSpec::Human(Some(name)))
                    .map_err(|reason| SpecError::Name {
                        given: quoted_name(name),
                        reason,
                    }),
            };
        }
        match (Level::from_id(kind), name) {
            (Some(level), None) => Ok(PlayerSpec::Computer(level)),
            _ => Err(SpecError::Unknown(excerpt(text))),
        }
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    #[rstest]
    #[case::human("human", PlayerSpec::Human(None))]
    #[case::named_human("human:Ada", PlayerSpec::Human(Some(PlayerName::new("Ada").unwrap())))]
    #[case::any_case("Impossible", PlayerSpec::Computer(Level::Impossible))]
    #[case::random("random", PlayerSpec::Computer(Level::Random))]
    #[case::easy("easy", PlayerSpec::Computer(Level::Easy))]
    #[case::medium("MEDIUM", PlayerSpec::Computer(Level::Medium))]
    fn specs_name_a_human_or_a_computer_level(#[case] text: &str, #[case] spec: PlayerSpec) {
        assert_eq!(text.parse(), Ok(spec));
    }

    #[test]
    fn every_level_reads_back_from_its_id() {
        for level in Level::ALL {
            assert_eq!(Level::from_id(level.id()), Some(level));
        }
    }

    #[rstest]
    #[case::unknown("grandmaster")]
    #[case::empty("")]
    #[case::name_on_a_computer("easy:Bob")]
    fn anything_else_is_an_unknown_player(#[case] text: &str) {
        assert!(matches!(
            text.parse::<PlayerSpec>(),
            Err(SpecError::Unknown(_))
        ));
    }

    #[test]
    fn a_human_with_an_unusable_name_says_why() {
        assert!(matches!(
            "human:   ".parse::<PlayerSpec>(),
            Err(SpecError::Name {
                reason: NameError::Empty,
                ..
            })
        ));
    }

    #[test]
    fn a_name_that_is_too_long_is_quoted_whole_not_cut_mid_name() {
        let long = "Bartholomew Montgomery-Featherstonehaugh III";

        let error = format!("human:{long}").parse::<PlayerSpec>().unwrap_err();

        assert_eq!(
            error.to_string(),
            format!("the name \"{long}\" cannot be used: a name can have at most 40 characters")
        );
    }

    #[test]
    fn a_refused_name_is_shown_with_its_invisible_characters_written_out() {
        let error = "human:\u{200b}Computer".parse::<PlayerSpec>().unwrap_err();

        assert_eq!(
            error.to_string(),
            "the name \"\\u{200b}Computer\" cannot be used: a name cannot contain invisible \
             formatting characters (it has U+200B)"
        );
    }

    #[test]
    fn computers_are_named_after_their_level() {
        assert_eq!(
            PlayerSpec::Computer(Level::Medium).name(Mark::X).as_str(),
            "Computer (Medium)"
        );
    }

    #[test]
    fn a_new_game_seats_a_person_without_a_name_under_the_number_of_their_mark() {
        let seats = Mark::ALL.map(|mark| seated(PlayerSpec::Human(None), mark));

        assert_eq!(
            seats,
            [
                PlayerSpec::Human(Some(PlayerName::new("Player 1").unwrap())),
                PlayerSpec::Human(Some(PlayerName::new("Player 2").unwrap())),
            ]
        );
    }

    #[test]
    fn a_new_game_seats_named_people_and_computers_as_they_are() {
        let ada = PlayerSpec::Human(Some(PlayerName::new("Ada").unwrap()));
        let easy = PlayerSpec::Computer(Level::Easy);

        assert_eq!(seated(ada.clone(), Mark::O), ada);
        assert_eq!(seated(easy.clone(), Mark::X), easy);
    }

    #[test]
    fn unnamed_humans_are_named_after_their_mark() {
        assert_eq!(PlayerSpec::Human(None).name(Mark::O).as_str(), "Player O");
    }

    #[test]
    fn a_name_far_too_long_to_be_one_is_quoted_only_in_part() {
        let huge = "a".repeat(500);

        let error = format!("human:{huge}").parse::<PlayerSpec>().unwrap_err();

        let quoted = format!("\"{}…\"", "a".repeat(60));
        assert!(error.to_string().contains(&quoted), "{error}");
    }
}
