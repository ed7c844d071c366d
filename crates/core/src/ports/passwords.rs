//! Passwords as the store keeps them ([`PasswordHash`]) and the port that makes and
//! checks them ([`Passwords`]). The core never hashes: an adapter does
//! (`tictactoe-passwords`, Argon2id), and a store keeps only what it made.

use std::fmt;

use thiserror::Error;

use crate::domain::Password;

/// A password as kept: a hash in the PHC string format, which names its algorithm,
/// version, parameters and salt beside the hash itself
/// (`$argon2id$v=19$m=19456,t=2,p=1$SALT$HASH`), so that a hash made with other
/// parameters is still checked with its own.
///
/// [`PasswordHash::parse`] checks only its form (a `$` first, printable ASCII without
/// spaces, at most [`PasswordHash::MAX_LEN`] bytes): what the algorithm makes of it is
/// the [`Passwords`] adapter's to say. `Debug` does not show it: a hash is not the
/// password, but it is what an attacker would guess against, and no log needs it.
#[derive(Clone, PartialEq, Eq)]
pub struct PasswordHash(String);

/// A text that is not a PHC string.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "a password hash is a PHC string (\"$argon2id$...\") of at most {} printable ASCII \
     characters",
    PasswordHash::MAX_LEN
)]
pub struct PasswordHashError;

impl PasswordHash {
    /// The longest PHC string kept, in bytes: an Argon2id hash at its defaults is under
    /// 100; this leaves room for longer salts, outputs and parameters.
    pub const MAX_LEN: usize = 512;

    /// A PHC string: `$` first, every byte printable ASCII (no space), at most
    /// [`PasswordHash::MAX_LEN`] bytes.
    pub fn parse(text: &str) -> Result<PasswordHash, PasswordHashError> {
        let phc = text.starts_with('$')
            && text.len() <= PasswordHash::MAX_LEN
            && text.bytes().all(|b| b.is_ascii_graphic());
        if !phc {
            return Err(PasswordHashError);
        }
        Ok(PasswordHash(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Never shows the hash.
impl fmt::Debug for PasswordHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PasswordHash(..)")
    }
}

/// Makes and checks password hashes. Hashing is deliberately slow (tens of
/// milliseconds and megabytes of memory a call, for an attacker as for the server), so
/// a server calls it on a blocking thread, never on an async worker.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait Passwords: Send + Sync {
    /// A new hash of `password`, with a new random salt: two hashes of one password
    /// differ.
    fn hash(&self, password: &Password) -> PasswordHash;

    /// Whether `password` is the one `hash` was made from, checked with the parameters
    /// the hash names (a hash made with other parameters is still checked). A hash the
    /// adapter cannot read (another algorithm, a damaged string) is `false`.
    fn verify(&self, password: &Password, hash: &PasswordHash) -> bool;

    /// Does the work of [`Passwords::verify`] for a name that has no account, against a
    /// hash of the adapter's own, and forgets the answer: a sign-in for an unknown name
    /// then takes as long as one for a known name with a wrong password, so that the
    /// time of the answer does not tell which names have accounts.
    fn dummy_verify(&self, password: &Password);
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    const ARGON2ID: &str = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$5CbNjYz0Ku5RyRBk5s5MKxcXrz8mEMG7r9fGJ6Q+H2k";

    #[test]
    fn a_phc_string_is_a_password_hash() {
        assert_eq!(
            PasswordHash::parse(ARGON2ID).map(|hash| hash.as_str().to_owned()),
            Ok(ARGON2ID.to_owned())
        );
    }

    #[rstest]
    #[case::empty("")]
    #[case::not_starting_with_a_dollar("argon2id$v=19")]
    #[case::with_a_space("$argon2id$v=19 $m=19456")]
    #[case::with_a_newline("$argon2id$v=19\n")]
    #[case::not_ascii("$argon2id$v=19$é")]
    #[case::too_long(&format!("${}", "a".repeat(PasswordHash::MAX_LEN)))]
    fn a_text_that_is_no_phc_string_is_refused(#[case] text: &str) {
        assert_eq!(PasswordHash::parse(text), Err(PasswordHashError));
    }

    #[test]
    fn a_password_hash_is_never_shown_by_debug() {
        let hash = PasswordHash::parse(ARGON2ID).unwrap();

        assert_eq!(format!("{hash:?}"), "PasswordHash(..)");
    }
}
