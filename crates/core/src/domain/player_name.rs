use std::fmt;

use thiserror::Error;

/// A player's name as shown and as recorded on the scoreboard.
///
/// Names are data typed by people, so they are cleaned on the way in: surrounding space
/// is trimmed, runs of white space become one space, control characters (which could
/// move the cursor or clear the screen when printed) are refused, and the length is
/// capped. Two names that differ only in letter case are the same player ([`key`]).
///
/// [`key`]: PlayerName::key
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PlayerName(String);

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NameError {
    #[error("a name needs at least one visible character")]
    Empty,
    #[error("a name can have at most {} characters", PlayerName::MAX_CHARS)]
    TooLong,
    #[error("a name cannot contain control characters")]
    ControlCharacter,
    #[error("names starting with \"Computer\" are kept for the computer players")]
    Reserved,
}

impl PlayerName {
    pub const MAX_CHARS: usize = 40;

    /// A name a person chose.
    pub fn new(raw: &str) -> Result<Self, NameError> {
        let name = Self::clean(raw)?;
        if name.to_lowercase().starts_with("computer") {
            return Err(NameError::Reserved);
        }
        Ok(PlayerName(name))
    }

    /// The name of a computer player, e.g. `Computer (Impossible)`.
    pub fn computer(level: &str) -> Self {
        PlayerName(format!("Computer ({level})"))
    }

    /// A name read back from the scoreboard file: cleaned like any other, but allowed
    /// to be a computer's.
    pub fn stored(raw: &str) -> Result<Self, NameError> {
        Self::clean(raw).map(PlayerName)
    }

    fn clean(raw: &str) -> Result<String, NameError> {
        // Tabs and newlines are white space and get collapsed; any other control character is refused.
        if raw.chars().any(|c| c.is_control() && !c.is_whitespace()) {
            return Err(NameError::ControlCharacter);
        }
        let name = raw.split_whitespace().collect::<Vec<_>>().join(" ");
        if name.is_empty() {
            return Err(NameError::Empty);
        }
        if name.chars().count() > Self::MAX_CHARS {
            return Err(NameError::TooLong);
        }
        Ok(name)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// What makes two names the same player: letter case is ignored.
    pub fn key(&self) -> String {
        self.0.to_lowercase()
    }
}

impl fmt::Display for PlayerName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    #[rstest]
    #[case::plain("Ada", "Ada")]
    #[case::trimmed("  Ada  ", "Ada")]
    #[case::inner_space_collapsed("Ada   \t Lovelace", "Ada Lovelace")]
    #[case::unicode("Zoë 🎲", "Zoë 🎲")]
    #[case::quotes("O'Brien \"Bo\"", "O'Brien \"Bo\"")]
    fn names_are_tidied_but_kept_as_typed(#[case] raw: &str, #[case] shown: &str) {
        assert_eq!(PlayerName::new(raw).unwrap().as_str(), shown);
    }

    #[rstest]
    #[case::empty("", NameError::Empty)]
    #[case::blank("   ", NameError::Empty)]
    #[case::escape_sequence("Ada\u{1b}[2J", NameError::ControlCharacter)]
    #[case::too_long(&"a".repeat(41), NameError::TooLong)]
    #[case::impersonating_the_computer("computer (Impossible)", NameError::Reserved)]
    fn unusable_names_are_refused_with_a_reason(#[case] raw: &str, #[case] error: NameError) {
        assert_eq!(PlayerName::new(raw), Err(error));
    }

    #[test]
    fn a_name_of_exactly_the_longest_length_is_accepted() {
        let longest = "a".repeat(PlayerName::MAX_CHARS);

        assert_eq!(PlayerName::new(&longest).map(|n| n.as_str().len()), Ok(40));
        assert!(PlayerName::stored(&longest).is_ok());
    }

    #[test]
    fn names_differing_only_in_case_are_the_same_player() {
        assert_eq!(
            PlayerName::new("ada").unwrap().key(),
            PlayerName::new("ADA").unwrap().key()
        );
    }

    #[test]
    fn a_name_is_shown_as_it_was_cleaned() {
        let name = PlayerName::new("  Ada   Lovelace ").unwrap();

        assert_eq!(name.to_string(), "Ada Lovelace");
    }
}
