use std::fmt;

use thiserror::Error;
use unicode_normalization::UnicodeNormalization;

/// A password as a person typed it, parsed: what an account is signed up and signed in
/// with, handed to the hasher ([`Passwords`](crate::ports::Passwords)) and to nothing
/// else.
///
/// As NIST SP 800-63B asks of memorized secrets: any characters are allowed (spaces and
/// emoji included, nothing is trimmed or refused for its kind), the text is written in
/// Unicode's compatibility form (NFKC) so that one password typed on two keyboards is
/// one password, and only its length is checked: at least [`Password::MIN_CHARS`]
/// characters and at most [`Password::MAX_CHARS`] (Unicode scalar values, counted after
/// normalisation), never truncated.
///
/// It is never shown: `Debug` prints `Password(..)`, and there is no `Display`.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

/// Why a typed password cannot be used, in words for the person who typed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum PasswordError {
    #[error("a password needs at least {} characters", Password::MIN_CHARS)]
    TooShort,
    #[error("a password can have at most {} characters", Password::MAX_CHARS)]
    TooLong,
}

impl Password {
    /// The fewest characters a password may have (NIST SP 800-63B's minimum).
    pub const MIN_CHARS: usize = 8;
    /// The most characters a password may have: long passphrases are welcome (NIST asks
    /// for at least 64), and the bound keeps the hashing of one request bounded and a
    /// sign-in's body, even written with JSON's escapes, within the server's 4 KiB.
    pub const MAX_CHARS: usize = 256;

    /// A password typed as `raw`: see the type's documentation.
    pub fn new(raw: &str) -> Result<Password, PasswordError> {
        // No normalisation composes more than four characters into one (ᾇ: alpha and
        // three marks), so text this long is too long whatever it normalises to, and is
        // refused before the work of normalising it.
        if raw.chars().nth(4 * Password::MAX_CHARS).is_some() {
            return Err(PasswordError::TooLong);
        }
        let normal: String = raw.nfkc().collect();
        let chars = normal.chars().count();
        if chars < Password::MIN_CHARS {
            return Err(PasswordError::TooShort);
        }
        if chars > Password::MAX_CHARS {
            return Err(PasswordError::TooLong);
        }
        Ok(Password(normal))
    }

    /// The password, normalised: for the hasher alone.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Never shows the password, so that no log line or panic message can.
impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(..)")
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    #[rstest]
    #[case::plain("correct horse", "correct horse")]
    #[case::spaces_kept_as_typed("  eight   ", "  eight   ")]
    #[case::fullwidth_as_its_compatibility_form("\u{ff50}assword", "password")]
    #[case::a_decomposed_accent_composed("passe\u{301}word", "pass\u{e9}word")]
    #[case::emoji(
        "\u{1f511}\u{1f511}\u{1f511}\u{1f511}\u{1f511}\u{1f511}\u{1f511}\u{1f511}",
        "\u{1f511}\u{1f511}\u{1f511}\u{1f511}\u{1f511}\u{1f511}\u{1f511}\u{1f511}"
    )]
    fn a_password_is_kept_in_its_compatibility_form(#[case] raw: &str, #[case] kept: &str) {
        assert_eq!(
            Password::new(raw).map(|p| p.as_str().to_owned()),
            Ok(kept.to_owned())
        );
    }

    #[test]
    fn a_password_of_seven_characters_is_too_short() {
        assert_eq!(Password::new("1234567"), Err(PasswordError::TooShort));
    }

    #[test]
    fn characters_are_counted_after_normalisation() {
        // Eight characters typed, seven once `e` and its accent are one.
        let typed = "passe\u{301}ds";

        assert_eq!(Password::new(typed), Err(PasswordError::TooShort));
    }

    #[rstest]
    #[case::the_fewest(Password::MIN_CHARS)]
    #[case::the_most(Password::MAX_CHARS)]
    fn a_password_of_a_length_in_range_is_accepted(#[case] chars: usize) {
        assert!(Password::new(&"é".repeat(chars)).is_ok());
    }

    #[rstest]
    #[case::one_more_than_the_most(Password::MAX_CHARS + 1)]
    #[case::far_too_many(1_000_000)]
    fn a_password_longer_than_the_most_is_too_long(#[case] chars: usize) {
        assert_eq!(
            Password::new(&"a".repeat(chars)),
            Err(PasswordError::TooLong)
        );
    }

    #[test]
    fn a_password_that_normalises_to_more_than_the_most_is_too_long() {
        // U+FB03 (ﬃ) is three characters in its compatibility form.
        let typed = "\u{fb03}".repeat(Password::MAX_CHARS / 2);

        assert_eq!(Password::new(&typed), Err(PasswordError::TooLong));
    }

    #[test]
    fn the_errors_are_worded_for_people() {
        assert_eq!(
            PasswordError::TooShort.to_string(),
            "a password needs at least 8 characters"
        );
        assert_eq!(
            PasswordError::TooLong.to_string(),
            "a password can have at most 256 characters"
        );
    }

    #[test]
    fn a_password_is_never_shown_by_debug() {
        let password = Password::new("correct horse battery").unwrap();

        assert_eq!(format!("{password:?}"), "Password(..)");
    }
}
