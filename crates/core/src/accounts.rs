//! Accounts as every front end uses them: signing up (a person on the web, or the
//! operator on the command line) and signing in, over the store's [`AccountStore`] and
//! the [`Passwords`] that hash them. The rules are here once: what name an account may
//! have, who may take a name that has kept games, and a sign-in whose answer says
//! nothing of whether the name exists.
//!
//! Hashing a password costs tens of milliseconds on purpose: a front end that serves
//! others calls these on a thread that may block.

use thiserror::Error;

use crate::domain::{Password, PlayerName};
use crate::players::is_placeholder;
use crate::ports::{AccountStore, Added, NewAccount, Passwords, StoreError};

/// Who signs a name up, which decides whether a name with kept games may be taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignUp {
    /// A person for themselves: a name that has kept games (played before accounts, or
    /// by a guest) is nobody's to take this way.
    Person,
    /// The operator, who knows whose a name is and may give a name with kept games to
    /// the person who played them (`tictactoe accounts add`).
    Operator,
}

/// Why a name could not be signed up.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SignUpError {
    /// An account has this name, or one that looks like it (`by`).
    #[error("{by} is taken: choose a name that reads differently")]
    Taken { by: PlayerName },
    /// The name every front end gives whoever gives none ("Player 1"): nobody's.
    #[error("{0} is the name of whoever gives none: choose a name of your own")]
    Placeholder(PlayerName),
    /// Games are kept under this name: only the operator can give it to a person.
    #[error(
        "{0} has games kept under it from before it was anybody's: choose another name, or \
         ask whoever runs this server to give it to you"
    )]
    Played(PlayerName),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Signs `name` up with `password`, as `who`: refused if an account has the name or
/// one like it, or (for a person) if games are kept under it. The cheap checks come
/// before the hash; the store decides a race between two look-alike names at once.
pub fn sign_up(
    store: &dyn AccountStore,
    passwords: &dyn Passwords,
    name: &PlayerName,
    password: &Password,
    who: SignUp,
) -> Result<(), SignUpError> {
    if is_placeholder(name) {
        return Err(SignUpError::Placeholder(name.clone()));
    }
    if let Some(by) = store.account_like(name)? {
        return Err(SignUpError::Taken { by });
    }
    if who == SignUp::Person && store.has_games(name)? {
        return Err(SignUpError::Played(name.clone()));
    }
    let account = NewAccount {
        name: name.clone(),
        password: passwords.hash(password),
    };
    match store.add_account(&account)? {
        Added::Added => Ok(()),
        Added::Taken { by } => Err(SignUpError::Taken { by }),
    }
}

/// The account `name` and `password` open, as it was signed up; `None` for a wrong
/// pair, whether or not the name is an account's: an unknown name costs a hash too, so
/// neither the answer nor its time tells which.
pub fn sign_in(
    store: &dyn AccountStore,
    passwords: &dyn Passwords,
    name: &PlayerName,
    password: &Password,
) -> Result<Option<PlayerName>, StoreError> {
    let Some(account) = store.account(name)? else {
        passwords.dummy_verify(password);
        return Ok(None);
    };
    Ok(passwords
        .verify(password, &account.password)
        .then_some(account.name))
}

#[cfg(test)]
mod tests {
    use mockall::predicate::eq;

    use super::*;
    use crate::fixtures::password;
    use crate::ports::{MockAccountStore, MockPasswords, PasswordHash};

    fn name(text: &str) -> PlayerName {
        PlayerName::new(text).unwrap()
    }

    fn hash() -> PasswordHash {
        PasswordHash::parse("$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2g").unwrap()
    }

    /// A store stub in which nobody has an account and no game is kept.
    fn empty_store() -> MockAccountStore {
        let mut store = MockAccountStore::new();
        store.expect_account_like().returning(|_| Ok(None));
        store.expect_has_games().returning(|_| Ok(false));
        store.expect_account().returning(|_| Ok(None));
        store
    }

    /// A store stub that has Ada's account, whose password hashes to [`hash`].
    fn ada_signed_up() -> MockAccountStore {
        let mut store = MockAccountStore::new();
        store.expect_account().returning(|_| {
            Ok(Some(crate::ports::Account {
                name: name("Ada"),
                password: hash(),
                created: std::time::SystemTime::UNIX_EPOCH,
            }))
        });
        store
    }

    /// Ada signs up, with [`password`], as `who`.
    fn ada_signs_up(
        store: &MockAccountStore,
        passwords: &MockPasswords,
        who: SignUp,
    ) -> Result<(), SignUpError> {
        sign_up(store, passwords, &name("Ada"), &password(), who)
    }

    /// `store` must add Ada's account, with the password's [`hash`], exactly once.
    fn expect_ada_added_once(store: &mut MockAccountStore) {
        store
            .expect_add_account()
            .with(eq(NewAccount {
                name: name("Ada"),
                password: hash(),
            }))
            .times(1)
            .returning(|_| Ok(Added::Added));
    }

    /// A hasher stub: every password hashes to [`hash`].
    fn hashing() -> MockPasswords {
        let mut passwords = MockPasswords::new();
        passwords.expect_hash().returning(|_| hash());
        passwords
    }

    /// A hasher stub that finds every password `right` for its hash (or every one wrong).
    fn verifying(right: bool) -> MockPasswords {
        let mut passwords = MockPasswords::new();
        passwords.expect_verify().returning(move |_, _| right);
        passwords
    }

    #[test]
    fn a_free_name_is_added_with_the_passwords_hash() {
        // Arrange
        let mut store = empty_store();
        expect_ada_added_once(&mut store);

        // Act
        let added = ada_signs_up(&store, &hashing(), SignUp::Person);

        // Assert: the mock checked what was added.
        assert_eq!(added, Ok(()));
    }

    #[test]
    fn a_name_like_an_accounts_is_refused_before_any_hash() {
        let mut store = MockAccountStore::new();
        store
            .expect_account_like()
            .returning(|_| Ok(Some(name("Ada"))));
        store.expect_add_account().never();
        let mut passwords = MockPasswords::new();
        passwords.expect_hash().never();

        let added = sign_up(
            &store,
            &passwords,
            &name("\u{410}da"),
            &password(),
            SignUp::Person,
        );

        assert_eq!(added, Err(SignUpError::Taken { by: name("Ada") }));
    }

    #[test]
    fn the_name_of_whoever_gives_none_is_nobodys_to_take() {
        let mut store = MockAccountStore::new();
        store.expect_add_account().never();

        let added = sign_up(
            &store,
            &hashing(),
            &name("Player 1"),
            &password(),
            SignUp::Operator,
        );

        assert_eq!(added, Err(SignUpError::Placeholder(name("Player 1"))));
    }

    #[test]
    fn a_person_cannot_take_a_name_that_has_kept_games() {
        let mut store = MockAccountStore::new();
        store.expect_account_like().returning(|_| Ok(None));
        store.expect_has_games().returning(|_| Ok(true));
        store.expect_add_account().never();

        let added = ada_signs_up(&store, &hashing(), SignUp::Person);

        assert_eq!(added, Err(SignUpError::Played(name("Ada"))));
    }

    #[test]
    fn the_operator_may_give_a_name_that_has_kept_games() {
        let mut store = MockAccountStore::new();
        store.expect_account_like().returning(|_| Ok(None));
        store.expect_has_games().never();
        expect_ada_added_once(&mut store);

        let added = ada_signs_up(&store, &hashing(), SignUp::Operator);

        assert_eq!(added, Ok(()));
    }

    #[test]
    fn a_look_alike_added_by_someone_else_meanwhile_is_taken() {
        let mut store = empty_store();
        store
            .expect_add_account()
            .returning(|_| Ok(Added::Taken { by: name("Ada") }));

        let added = sign_up(
            &store,
            &hashing(),
            &name("ada"),
            &password(),
            SignUp::Person,
        );

        assert_eq!(added, Err(SignUpError::Taken { by: name("Ada") }));
    }

    #[test]
    fn the_right_password_signs_in_as_the_account_was_signed_up() {
        let passwords = verifying(true);

        let signed_in = sign_in(&ada_signed_up(), &passwords, &name("ADA"), &password());

        assert_eq!(signed_in, Ok(Some(name("Ada"))));
    }

    #[test]
    fn a_wrong_password_signs_nobody_in() {
        let passwords = verifying(false);

        let signed_in = sign_in(&ada_signed_up(), &passwords, &name("Ada"), &password());

        assert_eq!(signed_in, Ok(None));
    }

    #[test]
    fn an_unknown_name_costs_a_hash_too_and_signs_nobody_in() {
        let store = empty_store();
        let mut passwords = MockPasswords::new();
        passwords.expect_dummy_verify().times(1).return_const(());

        let signed_in = sign_in(&store, &passwords, &name("Nobody"), &password());

        assert_eq!(signed_in, Ok(None));
    }
}
