//! Secrets and names handed to browsers: seat tokens, invites, sessions, personal
//! tokens, and game ids.
//!
//! A [`Token`] is a secret: 128 random bits from the operating system's CSPRNG (through
//! `rand`'s thread generator), written as 32 hex digits. It is a guest's right to play a
//! seat, an invite to take one, or a signed-in session (a cookie); with a prefix, a
//! personal token for scripts ([`PersonalToken`]). The server keeps no secret, only its
//! [`SecretLock`]: the SHA-256 digest of the token's 32 hex digits, which is what the
//! store keeps too. A token presented is digested and compared with the lock in constant
//! time, so that response timing tells nothing about how much of a guess was right, and
//! whoever reads the store learns no seat and no session.
//! A game's id ([`new_game_id`]) is as unguessable, because knowing it is enough to
//! watch the game.

use std::fmt;

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use tictactoe_core::ports::{GameId, SecretLock, TokenId};

const BYTES: usize = 16;

/// The right to move for one seat of one game.
#[derive(Clone)]
pub struct Token([u8; BYTES]);

impl Token {
    pub fn random() -> Self {
        Token(rand::random())
    }

    /// The token written as `to_hex` writes it; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        decode_hex(text).map(Token)
    }

    pub fn to_hex(&self) -> String {
        encode_hex(&self.0)
    }

    /// Constant-time equality: every byte is compared whatever the first difference.
    #[cfg(test)]
    pub fn matches(&self, other: &Token) -> bool {
        self.0.ct_eq(&other.0).into()
    }

    /// The lock this token opens: the SHA-256 digest of [`Token::to_hex`], in hex.
    pub fn lock(&self) -> SecretLock {
        let digest = Sha256::digest(self.to_hex().as_bytes());
        SecretLock::parse(&encode_hex(&digest)).expect("a SHA-256 digest is 64 hex digits")
    }

    /// Whether this token opens `lock`: digests compared in constant time.
    pub fn opens(&self, lock: &SecretLock) -> bool {
        let mine = self.lock();
        mine.as_str()
            .as_bytes()
            .ct_eq(lock.as_str().as_bytes())
            .into()
    }
}

/// Never printed: a token in a log would be a seat given away.
impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(..)")
    }
}

/// A personal token, as a script sends it (`Authorization: Bearer ttt_…`): a [`Token`]
/// behind the prefix `ttt_`, which tells it from a seat's token and lets a secret
/// scanner find one pasted where it should not be.
#[derive(Clone)]
pub struct PersonalToken(Token);

impl PersonalToken {
    /// What every personal token starts with.
    pub const PREFIX: &'static str = "ttt_";

    pub fn random() -> Self {
        PersonalToken(Token::random())
    }

    /// The token as [`PersonalToken::to_text`] writes it; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        text.strip_prefix(Self::PREFIX)
            .and_then(Token::parse)
            .map(PersonalToken)
    }

    pub fn to_text(&self) -> String {
        format!("{}{}", Self::PREFIX, self.0.to_hex())
    }

    /// The lock the store keeps of it.
    pub fn lock(&self) -> SecretLock {
        self.0.lock()
    }
}

/// Never printed.
impl fmt::Debug for PersonalToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PersonalToken(..)")
    }
}

/// A personal token's public id: 64 random bits.
pub fn new_token_id() -> TokenId {
    TokenId::from_bits(rand::random())
}

/// A new game's name in URLs and in the store: 32 hex digits, the time it began then 80
/// random bits (see [`GameId::new`]): unguessable, and kept in order by the store.
pub fn new_game_id() -> GameId {
    GameId::new(now_ms(), rand::random())
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_millis() as u64)
}

fn encode_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        text.push(char::from(DIGITS[usize::from(byte >> 4)]));
        text.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    text
}

fn decode_hex(text: &str) -> Option<[u8; BYTES]> {
    let digits = text.as_bytes();
    // `from_str_radix` alone would let a sign through ("+f").
    if digits.len() != BYTES * 2 || !digits.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let mut bytes = [0; BYTES];
    for (byte, pair) in bytes.iter_mut().zip(digits.chunks_exact(2)) {
        let pair = std::str::from_utf8(pair).ok()?;
        *byte = u8::from_str_radix(pair, 16).ok()?;
    }
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_reads_back_from_its_hex_and_matches_itself_only() {
        let token = Token::random();
        let other = Token::random();

        let read = Token::parse(&token.to_hex()).unwrap();

        assert!(read.matches(&token));
        assert!(!read.matches(&other));
        assert_eq!(token.to_hex().len(), 32);
    }

    #[test]
    fn anything_but_32_hex_digits_is_no_token() {
        for text in [
            "",
            "abc",
            &"g".repeat(32),
            &"a".repeat(33),
            "+1234567890abcdef1234567890abcde",
        ] {
            assert!(Token::parse(text).is_none(), "{text:?}");
        }
    }

    #[test]
    fn a_token_is_never_shown_in_debug_output() {
        let token = Token::random();

        assert_eq!(format!("{token:?}"), "Token(..)");
    }

    #[test]
    fn game_ids_differ_and_carry_128_bits() {
        let (a, b) = (new_game_id(), new_game_id());

        assert_ne!(a, b);
        assert_eq!(a.as_str().len(), 32);
    }

    #[test]
    fn a_tokens_lock_is_the_sha256_of_its_hex_digits() {
        // The digest of the 32 characters "00...01", as `sha256sum` gives it for
        // `printf 00000000000000000000000000000001`.
        let token = Token::parse("00000000000000000000000000000001").unwrap();

        let lock = token.lock();

        assert_eq!(
            lock.as_str(),
            "e0cca2965509df678c8064f5e0b9076016fa752f88a6c749768db83479450cc5"
        );
    }

    #[test]
    fn a_personal_token_reads_back_from_its_text_and_only_with_its_prefix() {
        let token = PersonalToken::random();
        let text = token.to_text();

        let read = PersonalToken::parse(&text).unwrap();

        assert!(text.starts_with("ttt_"));
        assert_eq!(read.lock(), token.lock());
        assert!(PersonalToken::parse(&text["ttt_".len()..]).is_none());
        assert_eq!(format!("{token:?}"), "PersonalToken(..)");
    }

    #[test]
    fn a_token_opens_its_own_lock_only() {
        let (token, other) = (Token::random(), Token::random());

        assert!(token.opens(&token.lock()));
        assert!(!other.opens(&token.lock()));
    }
}
