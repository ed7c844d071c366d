//! Accounts: a name that belongs to a person, with a password, the sessions it is
//! signed in with and the personal tokens its scripts use ([`AccountStore`]).
//!
//! **A name is one account's, and so is every name that looks like it.** An account is
//! filed under its name's key ([`PlayerName::key`]: `Ada` and `ADA` are one) and its
//! likeness ([`PlayerName::likeness`]: `Ada` and `Аda`, with a Cyrillic А, look alike),
//! each unique in the store, so that of two look-alike names signed up at once, on two
//! servers sharing one database, exactly one is added ([`Added`]). A name is kept as it
//! was signed up, and shown so.
//!
//! **Secrets are kept as their locks.** A session and a personal token are secrets the
//! server hands to a client (a cookie, a bearer token); the store keeps only their
//! [`SecretLock`]s (SHA-256 digests), and finds the account a secret opens by its lock.
//! A personal token also has a public id ([`TokenId`]), by which its account lists and
//! revokes it.
//!
//! **Times.** The store keeps every time to the millisecond: when an account was made
//! (by the store's clock), when a session expires and when a token was made (the
//! caller's). Whether a session is open is asked at a moment the caller gives: a
//! session is open before its `expires`, and expired from it on.
//!
//! **What goes with an account.** A new password ends every session of the account
//! and revokes every token, in the same transaction; removing an account removes its
//! sessions and tokens with it, and leaves its games as they are (the name is free
//! again). A name that has kept games is not for a new account to take: whether it
//! has is [`AccountStore::has_games`], asked before [`AccountStore::add_account`].

use std::fmt;
use std::time::SystemTime;

use thiserror::Error;

use crate::domain::PlayerName;

use super::records::hex_digits;
use super::{PasswordHash, SecretLock, StoreError};

#[cfg(doc)]
use crate::rules::names_of;

/// An account as it is signed up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAccount {
    pub name: PlayerName,
    pub password: PasswordHash,
}

/// An account as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// As it was signed up.
    pub name: PlayerName,
    pub password: PasswordHash,
    /// When it was added, by the store's clock, to the millisecond.
    pub created: SystemTime,
}

/// One line of the list of accounts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountSummary {
    pub name: PlayerName,
    pub created: SystemTime,
    /// The sessions open at the moment asked about (not expired).
    pub sessions: u64,
    /// The personal tokens not revoked.
    pub tokens: u64,
}

/// What [`AccountStore::add_account`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Added {
    Added,
    /// Nothing was added: an account has this name (the same key) or one that looks
    /// like it (the same likeness). `by` is that account's name, as it was signed up.
    Taken {
        by: PlayerName,
    },
}

/// A session opened for an account: the lock of the secret its client holds, and when
/// it expires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSession {
    pub lock: SecretLock,
    pub account: PlayerName,
    pub expires: SystemTime,
}

/// A personal token's public id: 16 lowercase hex digits (64 bits), chosen by whoever
/// makes the token (from a random source of their own, as a [`GameId`](super::GameId)
/// is), so that a retried [`AccountStore::add_token`] names the same token. It names
/// the token in lists and in its revocation; it opens nothing (the secret does).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TokenId(String);

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("a token id is 16 hex digits")]
pub struct TokenIdError;

impl TokenId {
    /// The id written from 64 bits.
    pub fn from_bits(bits: u64) -> TokenId {
        TokenId(format!("{bits:016x}"))
    }

    /// Reads an id as [`TokenId::as_str`] writes it (upper-case hex is read as lower).
    pub fn parse(text: &str) -> Result<TokenId, TokenIdError> {
        hex_digits(text, 16).map(TokenId).ok_or(TokenIdError)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for TokenId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A personal token as it is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewToken {
    pub id: TokenId,
    /// The lock of the token's secret.
    pub lock: SecretLock,
    pub account: PlayerName,
    /// The account holder's words for it ("my laptop"), checked by the caller: at most
    /// [`NewToken::MAX_LABEL_CHARS`] characters. The store keeps what it is given.
    pub label: String,
    pub created: SystemTime,
}

impl NewToken {
    /// The longest label, in characters (Unicode scalar values).
    pub const MAX_LABEL_CHARS: usize = 100;
}

/// A personal token as its account lists it: never its secret, nor its lock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenInfo {
    pub id: TokenId,
    pub label: String,
    /// To the millisecond.
    pub created: SystemTime,
}

/// Where accounts, their sessions and their personal tokens are kept. See the module
/// documentation.
///
/// Every account is found by its name's key: `account`, `set_password`,
/// `remove_account`, `tokens` and `revoke_token` take any spelling of the name
/// (`ADA` finds `Ada`'s account), and answer with the name as signed up.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait AccountStore: Send + Sync {
    /// Adds `account`, unless an account has its name or one that looks like it: then
    /// nothing is added, and the answer names that account. Atomic: of two look-alike
    /// names added at once (by two servers on one database), exactly one is added.
    fn add_account(&self, account: &NewAccount) -> Result<Added, StoreError>;

    /// The account of this name (by key), or `None`.
    fn account(&self, name: &PlayerName) -> Result<Option<Account>, StoreError>;

    /// The name, as signed up, of the account whose name has the same key as `name` or
    /// looks like it (the same likeness), or `None`: whose a name is.
    fn account_like(&self, name: &PlayerName) -> Result<Option<PlayerName>, StoreError>;

    /// Every account, by name key, with how many sessions are open at `now` and how
    /// many tokens it has.
    fn accounts(&self, now: SystemTime) -> Result<Vec<AccountSummary>, StoreError>;

    /// Gives the account a new password, and ends every session and revokes every
    /// token it has, in the same transaction. `false`: there is no such account
    /// (nothing changed).
    fn set_password(&self, name: &PlayerName, password: &PasswordHash) -> Result<bool, StoreError>;

    /// Removes the account, with its sessions and tokens; its games stay as they are,
    /// and its name is free. `false`: there was no such account.
    fn remove_account(&self, name: &PlayerName) -> Result<bool, StoreError>;

    /// Keeps `session`. `true` once the session's lock opens a session of its account:
    /// kept now, or before (the same session again is a no-op). `false`: there is no
    /// account of that name (removed meanwhile), and nothing is kept, so that a client
    /// is never handed a session that opens nothing.
    fn open_session(&self, session: &NewSession) -> Result<bool, StoreError>;

    /// The name, as signed up, of the account whose session `lock` opens, if the
    /// session is open at `now` (`now` before its `expires`); `None` for a lock that
    /// opens no session, or an expired one.
    fn session(&self, lock: &SecretLock, now: SystemTime)
    -> Result<Option<PlayerName>, StoreError>;

    /// Ends the session `lock` opens; a lock that opens none is a no-op.
    fn close_session(&self, lock: &SecretLock) -> Result<(), StoreError>;

    /// Forgets every session expired at `now`, and says how many there were.
    fn forget_expired_sessions(&self, now: SystemTime) -> Result<u64, StoreError>;

    /// Keeps `token`. `true` once it is kept for its account: now, or before (the same
    /// token again is a no-op). `false`: there is no account of that name, or the id or
    /// the lock is another token's (ids and secrets are random: never, in practice);
    /// nothing is kept.
    fn add_token(&self, token: &NewToken) -> Result<bool, StoreError>;

    /// The name, as signed up, of the account whose token `lock` opens, or `None`.
    fn token(&self, lock: &SecretLock) -> Result<Option<PlayerName>, StoreError>;

    /// The account's tokens, oldest first (then by id); none for an account that does
    /// not exist.
    fn tokens(&self, account: &PlayerName) -> Result<Vec<TokenInfo>, StoreError>;

    /// Revokes the account's token `id`. `false`: the account has no such token
    /// (another account's token is no token of this one's, and is left as it is).
    fn revoke_token(&self, account: &PlayerName, id: &TokenId) -> Result<bool, StoreError>;

    /// Whether any game kept (begun, ended or not) has a side of this name (the same
    /// key, as [`names_of`] names the sides): a new account cannot take such a name.
    fn has_games(&self, name: &PlayerName) -> Result<bool, StoreError>;
}

/// A store shared by reference is still a store.
impl<S: AccountStore + ?Sized> AccountStore for &S {
    fn add_account(&self, account: &NewAccount) -> Result<Added, StoreError> {
        (**self).add_account(account)
    }
    fn account(&self, name: &PlayerName) -> Result<Option<Account>, StoreError> {
        (**self).account(name)
    }
    fn account_like(&self, name: &PlayerName) -> Result<Option<PlayerName>, StoreError> {
        (**self).account_like(name)
    }
    fn accounts(&self, now: SystemTime) -> Result<Vec<AccountSummary>, StoreError> {
        (**self).accounts(now)
    }
    fn set_password(&self, name: &PlayerName, password: &PasswordHash) -> Result<bool, StoreError> {
        (**self).set_password(name, password)
    }
    fn remove_account(&self, name: &PlayerName) -> Result<bool, StoreError> {
        (**self).remove_account(name)
    }
    fn open_session(&self, session: &NewSession) -> Result<bool, StoreError> {
        (**self).open_session(session)
    }
    fn session(
        &self,
        lock: &SecretLock,
        now: SystemTime,
    ) -> Result<Option<PlayerName>, StoreError> {
        (**self).session(lock, now)
    }
    fn close_session(&self, lock: &SecretLock) -> Result<(), StoreError> {
        (**self).close_session(lock)
    }
    fn forget_expired_sessions(&self, now: SystemTime) -> Result<u64, StoreError> {
        (**self).forget_expired_sessions(now)
    }
    fn add_token(&self, token: &NewToken) -> Result<bool, StoreError> {
        (**self).add_token(token)
    }
    fn token(&self, lock: &SecretLock) -> Result<Option<PlayerName>, StoreError> {
        (**self).token(lock)
    }
    fn tokens(&self, account: &PlayerName) -> Result<Vec<TokenInfo>, StoreError> {
        (**self).tokens(account)
    }
    fn revoke_token(&self, account: &PlayerName, id: &TokenId) -> Result<bool, StoreError> {
        (**self).revoke_token(account, id)
    }
    fn has_games(&self, name: &PlayerName) -> Result<bool, StoreError> {
        (**self).has_games(name)
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    #[test]
    fn a_token_id_is_written_as_sixteen_hex_digits() {
        assert_eq!(TokenId::from_bits(0xabc).as_str(), "0000000000000abc");
    }

    #[test]
    fn a_token_id_reads_back_as_written_in_either_case() {
        let id = TokenId::from_bits(u64::MAX - 5);

        assert_eq!(TokenId::parse(&id.as_str().to_uppercase()), Ok(id));
    }

    #[rstest]
    #[case::empty("")]
    #[case::too_short("abc")]
    #[case::too_long("00000000000000000")]
    #[case::not_hex("000000000000000g")]
    #[case::a_game_id("0000000000000000000000000000000a")]
    fn what_is_not_sixteen_hex_digits_is_no_token_id(#[case] text: &str) {
        assert_eq!(TokenId::parse(text), Err(TokenIdError));
    }

    #[test]
    fn a_token_id_is_shown_as_its_digits() {
        assert_eq!(TokenId::from_bits(255).to_string(), "00000000000000ff");
    }
}
