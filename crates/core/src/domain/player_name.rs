use std::fmt;
use std::sync::LazyLock;

use caseless::Caseless;
use thiserror::Error;
use unicode_normalization::UnicodeNormalization;
use unicode_properties::{
    GeneralCategory, GeneralCategoryGroup, UnicodeEmoji, UnicodeGeneralCategory,
};
use unicode_security::general_security_profile::IdentifierType;
use unicode_security::{GeneralSecurityProfile, skeleton};

/// A player's name as shown and as recorded on the scoreboard.
///
/// Names are data typed by people, so they are cleaned on the way in ([`new`]):
/// written in Unicode's compatibility form (NFKC: a fullwidth `Ａda` is `Ada`),
/// surrounding space trimmed, runs of white space made one space, the length capped.
/// Refused: control characters (which could move the cursor or clear the screen when
/// printed); format characters (General Category Cf: zero-width spaces, the marks that
/// turn text around such as U+202E, byte order marks), except the zero-width joiner
/// between two emoji, which is part of the emoji (👩‍💻); private-use and unassigned
/// characters (Co, Cn), which nobody can read alike; a name with nothing visible; and
/// a name that looks like a computer's ([`looks_like`], Unicode's confusable skeleton,
/// UTS #39), so `Cοmputer` with a Greek omicron is refused like `Computer`.
///
/// Two names are the same player when they match without regard to case or
/// compatibility form ([`key`]: `Straße` and `STRASSE` are one player).
///
/// A name read back from a store ([`stored`]) is shown as it was kept and compared by
/// the same key, so the names kept by earlier versions, which cleaned less, go on
/// working and are counted with the names typed now that they match.
///
/// [`new`]: PlayerName::new
/// [`key`]: PlayerName::key
/// [`looks_like`]: PlayerName::looks_like
/// [`stored`]: PlayerName::stored
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
    /// A format character (Cf) such as a zero-width space or a right-to-left mark.
    #[error(
        "a name cannot contain invisible formatting characters (it has U+{:04X})",
        u32::from(*.0)
    )]
    FormatCharacter(char),
    /// A private-use or unassigned character.
    #[error(
        "a name cannot contain characters Unicode leaves unassigned or for private use \
         (it has U+{:04X})",
        u32::from(*.0)
    )]
    Unassigned(char),
    #[error(
        "names starting with \"Computer\" (or looking like it) are kept for the computer players"
    )]
    Reserved,
}

impl PlayerName {
    pub const MAX_CHARS: usize = 40;

    /// A name a person chose.
    pub fn new(raw: &str) -> Result<Self, NameError> {
        refuse_controls(raw)?;
        // ASCII is in every normal form already.
        let normal: String = if raw.is_ascii() {
            raw.to_owned()
        } else {
            raw.nfkc().collect()
        };
        let chars: Vec<char> = normal.chars().collect();
        for (at, &c) in chars.iter().enumerate() {
            match c.general_category() {
                GeneralCategory::Format if !joins_emoji(&chars, at) => {
                    return Err(NameError::FormatCharacter(c));
                }
                GeneralCategory::PrivateUse | GeneralCategory::Unassigned => {
                    return Err(NameError::Unassigned(c));
                }
                _ => {}
            }
        }
        let name = Self::clean(&normal)?;
        if !name.chars().any(is_visible) {
            return Err(NameError::Empty);
        }
        if likeness_of(&name).starts_with(COMPUTERS_LIKENESS.as_str()) {
            return Err(NameError::Reserved);
        }
        Ok(PlayerName(name))
    }

    /// The name of a computer player, e.g. `Computer (Impossible)`.
    pub fn computer(level: &str) -> Self {
        PlayerName(format!("Computer ({level})"))
    }

    /// A name read back from a store: cleaned as earlier versions cleaned names (white
    /// space, control characters, length), and allowed to be a computer's. Shown as it
    /// was kept; compared by [`PlayerName::key`] like any other.
    pub fn stored(raw: &str) -> Result<Self, NameError> {
        refuse_controls(raw)?;
        Self::clean(raw).map(PlayerName)
    }

    fn clean(raw: &str) -> Result<String, NameError> {
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

    /// What makes two names the same player: they match without regard to case or
    /// compatibility form (Unicode's compatibility caseless match, D146:
    /// `NFKD(toCasefold(NFKD(toCasefold(NFD(name)))))`, kept composed as NFKC).
    pub fn key(&self) -> String {
        fold(&self.0)
    }

    /// What a person sees of the name: the confusable skeleton (UTS #39) of its
    /// case-folded form ([`PlayerName::key`]), so `Ada`, `ADA` and `Аda` (Cyrillic A)
    /// have one likeness. Two names look alike iff their likenesses are equal
    /// ([`PlayerName::looks_like`]); a store keeps it beside an account's name, so that
    /// no second account can take a name that looks like one kept.
    ///
    /// It is made from Unicode's tables (the `unicode-security` crate's): a version of
    /// that crate with other tables may give some names another likeness, and a store
    /// that keeps likenesses would then need them made again.
    pub fn likeness(&self) -> String {
        likeness_of(&self.0)
    }

    /// Whether the two names look alike to a person: they have the same
    /// [`PlayerName::likeness`], as `Ada` and `Аda` (Cyrillic A) do. Two people who sit
    /// down to one game need names that do not.
    pub fn looks_like(&self, other: &PlayerName) -> bool {
        self.likeness() == other.likeness()
    }
}

/// Tabs and newlines are white space and get collapsed; any other control character is
/// refused.
fn refuse_controls(raw: &str) -> Result<(), NameError> {
    if raw.chars().any(|c| c.is_control() && !c.is_whitespace()) {
        return Err(NameError::ControlCharacter);
    }
    Ok(())
}

/// What every name that looks like a computer's begins with: the likeness of
/// "computer", made once.
static COMPUTERS_LIKENESS: LazyLock<String> = LazyLock::new(|| likeness_of("computer"));

/// `text` case-folded in its compatibility form (see [`PlayerName::key`]). Plain ASCII,
/// which every normal form leaves as it is and which case-folds to its lower case, is
/// folded so at once (most names are; a move's request folds a few).
fn fold(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    text.chars()
        .nfd()
        .default_case_fold()
        .nfkd()
        .default_case_fold()
        .nfkc()
        .collect()
}

/// The confusable skeleton of `text`'s folded form (see [`PlayerName::likeness`]),
/// folded and taken again: some letters' prototypes are capitals (Lisu ꓮ, Cherokee Ꭺ
/// and Canadian Syllabics ᗅ are Latin `A`), which the folded `ada` of `Ada` would never
/// meet. A name whose skeleton has no letter with a case keeps the likeness it had (its
/// skeleton); a name whose skeleton has one (such letters, or a digit 0, a capital O's
/// look-alike) now meets the names it looks like, and an account kept before under such
/// a name keeps the likeness it was given then (nothing recomputes it).
fn likeness_of(text: &str) -> String {
    // Plain ASCII, as most names are, is made a character at a time from each one's
    // likeness, made once: every step (folding, the skeleton's decompositions and its
    // prototypes) takes an ASCII character alone, to ASCII.
    static ASCII: LazyLock<Vec<String>> = LazyLock::new(|| {
        (0..128u8)
            .map(|byte| likeness_by_the_rules(&char::from(byte).to_string()))
            .collect()
    });
    if text.is_ascii() {
        return text
            .bytes()
            .map(|byte| ASCII[usize::from(byte)].as_str())
            .collect();
    }
    likeness_by_the_rules(text)
}

/// [`likeness_of`], by Unicode's rules alone.
fn likeness_by_the_rules(text: &str) -> String {
    let once: String = skeleton(&fold(text)).collect();
    skeleton(&fold(&once)).collect()
}

/// The zero-width joiner at `at` joins two emoji (👩‍💻), where it belongs.
fn joins_emoji(chars: &[char], at: usize) -> bool {
    let emoji = |c: Option<&char>| c.is_some_and(|c| c.is_emoji_char_or_emoji_component());
    chars[at] == '\u{200d}' && at > 0 && emoji(chars.get(at - 1)) && emoji(chars.get(at + 1))
}

/// A character a person sees: a letter, number, punctuation mark or symbol (emoji
/// among them) that Unicode does not class as default-ignorable (fillers such as
/// U+3164, a letter that draws nothing).
fn is_visible(c: char) -> bool {
    let shown = matches!(
        c.general_category_group(),
        GeneralCategoryGroup::Letter
            | GeneralCategoryGroup::Number
            | GeneralCategoryGroup::Punctuation
            | GeneralCategoryGroup::Symbol
    );
    shown && c.identifier_type() != Some(IdentifierType::Default_Ignorable)
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
    #[case::computer_behind_a_zero_width_space(
        "\u{200b}Computer (Impossible)",
        NameError::FormatCharacter('\u{200b}')
    )]
    #[case::zero_width_space_inside("A\u{200b}da", NameError::FormatCharacter('\u{200b}'))]
    #[case::only_a_zero_width_space("\u{200b}", NameError::FormatCharacter('\u{200b}'))]
    #[case::only_a_byte_order_mark("\u{feff}", NameError::FormatCharacter('\u{feff}'))]
    #[case::turned_around("Ada\u{202e}evoL", NameError::FormatCharacter('\u{202e}'))]
    #[case::isolate("\u{2066}Ada", NameError::FormatCharacter('\u{2066}'))]
    #[case::private_use("Ada\u{e000}", NameError::Unassigned('\u{e000}'))]
    #[case::unassigned("Ada\u{0378}", NameError::Unassigned('\u{0378}'))]
    #[case::a_filler_that_draws_nothing("\u{3164}", NameError::Empty)]
    #[case::combining_marks_alone("\u{0301}\u{0301}", NameError::Empty)]
    #[case::greek_omicron_computer("C\u{03bf}mputer", NameError::Reserved)]
    #[case::fullwidth_computer("\u{ff23}omputer", NameError::Reserved)]
    #[case::capitals_computer("COMPUTER X", NameError::Reserved)]
    #[case::a_zero_for_the_o("C0mputer", NameError::Reserved)]
    #[case::a_lisu_c("\u{a4da}omputer", NameError::Reserved)]
    fn unusable_names_are_refused_with_a_reason(#[case] raw: &str, #[case] error: NameError) {
        assert_eq!(PlayerName::new(raw), Err(error));
    }

    #[rstest]
    #[case::fullwidth("\u{ff21}da", "Ada")]
    #[case::ligature("\u{fb01}sh", "fish")]
    #[case::decomposed_accent("Zoe\u{0308}", "Zo\u{eb}")]
    #[case::emoji_joined_by_a_zero_width_joiner(
        "Ada \u{1f469}\u{200d}\u{1f4bb}",
        "Ada \u{1f469}\u{200d}\u{1f4bb}"
    )]
    #[case::cherokee("\u{13a0}\u{13a1}\u{13a2}", "\u{13a0}\u{13a1}\u{13a2}")]
    fn names_are_kept_in_their_compatibility_form(#[case] raw: &str, #[case] shown: &str) {
        assert_eq!(PlayerName::new(raw).unwrap().as_str(), shown);
    }

    #[rstest]
    #[case::sharp_s("Stra\u{df}e", "STRASSE")]
    #[case::fullwidth("\u{ff21}da", "ada")]
    #[case::final_sigma(
        "\u{39f}\u{394}\u{3a5}\u{3a3}\u{3a3}\u{395}\u{3a5}\u{3a3}",
        "\u{3bf}\u{3b4}\u{3c5}\u{3c3}\u{3c3}\u{3b5}\u{3c5}\u{3c2}"
    )]
    fn names_matching_without_regard_to_case_or_form_are_one_player(
        #[case] one: &str,
        #[case] other: &str,
    ) {
        let (one, other) = (
            PlayerName::new(one).unwrap(),
            PlayerName::new(other).unwrap(),
        );

        assert_eq!(one.key(), other.key());
    }

    #[rstest]
    #[case::cyrillic_a("Ada", "\u{410}da")]
    #[case::greek_omicron("Bob", "B\u{3bf}b")]
    #[case::case_aside("ada", "\u{410}DA")]
    #[case::lisu_a("Ada", "\u{a4ee}da")]
    #[case::cherokee_a("Ada", "\u{13aa}da")]
    #[case::canadian_syllabics_a("Ada", "\u{15c5}da")]
    #[case::lisu_b("Bob", "\u{a4d0}ob")]
    #[case::cherokee_b("Bob", "\u{13f4}ob")]
    #[case::lisu_a_and_cyrillic_a("Ada", "\u{a4ee}d\u{430}")]
    fn look_alike_names_are_told_apart_as_look_alikes(#[case] one: &str, #[case] other: &str) {
        let (one, other) = (
            PlayerName::new(one).unwrap(),
            PlayerName::new(other).unwrap(),
        );

        assert!(one.looks_like(&other));
        assert_ne!(one.key(), other.key(), "look-alikes are still two players");
    }

    #[test]
    fn an_ascii_names_likeness_is_made_by_the_rules() {
        let printable: Vec<char> = (b' '..=b'~').map(char::from).collect();
        for first in &printable {
            for second in &printable {
                let name = format!("{first}{second}m0Il1");
                assert_eq!(likeness_of(&name), likeness_by_the_rules(&name), "{name:?}");
            }
        }
    }

    #[test]
    fn names_that_only_share_letters_do_not_look_alike() {
        let (ada, eda) = (
            PlayerName::new("Ada").unwrap(),
            PlayerName::new("Eda").unwrap(),
        );

        assert!(!ada.looks_like(&eda));
    }

    #[rstest]
    #[case::kept_before_names_were_normalised("\u{ff21}da")]
    #[case::a_zero_width_space_kept_by_an_earlier_version("A\u{200b}da")]
    #[case::a_computer("Computer (Impossible)")]
    fn a_stored_name_is_shown_as_kept_and_compared_by_the_same_key(#[case] kept: &str) {
        let name = PlayerName::stored(kept).unwrap();

        assert_eq!(name.as_str(), kept);
        assert_eq!(name.key(), super::fold(kept));
    }

    #[test]
    fn a_fullwidth_name_kept_by_an_earlier_version_is_the_same_player_as_the_name_typed_now() {
        let kept = PlayerName::stored("\u{ff21}da").unwrap();
        let typed = PlayerName::new("Ada").unwrap();

        assert_eq!(kept.key(), typed.key());
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
