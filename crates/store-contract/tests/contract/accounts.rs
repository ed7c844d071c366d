//! Accounts: a name is one account's, and so is every name that looks like it; the
//! sessions an account is signed in with, open until they expire; its personal tokens,
//! listed and revoked by their account alone; a new password ends both; removing an
//! account removes both and frees the name, and leaves its games. A name with games
//! kept is told apart (a new account cannot take it). Two threads adding look-alike
//! names at once: exactly one is added.

use std::sync::Barrier;
use std::thread;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rstest_reuse::apply;
use tictactoe_core::ports::{
    Account, AccountSummary, Added, NewAccount, NewSession, NewToken, PasswordHash, SecretLock,
    TokenId, TokenInfo, to_the_millisecond,
};

use super::*;

/// A password's hash as a [`Passwords`](tictactoe_core::ports::Passwords) adapter
/// makes them (the store only keeps it): `n` tells two apart.
fn hash(n: u8) -> PasswordHash {
    PasswordHash::parse(&format!(
        "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ${n:043}"
    ))
    .expect("a PHC string")
}

/// A person's name as they sign up with it.
fn typed(text: &str) -> PlayerName {
    PlayerName::new(text).expect("a name")
}

/// Ada with a Cyrillic А: it looks like Ada.
const CYRILLIC_ADA: &str = "\u{410}da";

/// Adds an account of `name` with password `hash(1)`, which must be added.
fn signed_up(store: &Fresh, name: &str) {
    let added = store.add_account(&NewAccount {
        name: typed(name),
        password: hash(1),
    });
    assert_eq!(added, Ok(Added::Added), "{name}");
}

/// The lock of secret `n`.
fn lock(n: u8) -> SecretLock {
    SecretLock::parse(&format!("{n:02x}").repeat(32)).expect("64 hex digits")
}

/// `seconds` after a moment in 2023.
fn moment(seconds: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_700_000_000 + seconds)
}

/// The session of secret `n` for `account`, open until `moment(expires)`.
fn session(n: u8, account: &str, expires: u64) -> NewSession {
    NewSession {
        lock: lock(n),
        account: typed(account),
        expires: moment(expires),
    }
}

/// Opens the session of secret `n` for `account`, open until `moment(expires)`.
fn opened(store: &Fresh, n: u8, account: &str, expires: u64) {
    assert_eq!(store.open_session(&session(n, account, expires)), Ok(true));
}

/// Signs `name` up ([`signed_up`]) and opens its session of secret `n`, open until
/// `moment(100)`.
fn signed_in(store: &Fresh, name: &str, n: u8) {
    signed_up(store, name);
    opened(store, n, name, 100);
}

/// Ada signed in with session 1 ([`signed_in`]), then the session of secret `n`
/// closed: what closing it answered.
fn ada_signed_in_closes(store: &Fresh, n: u8) -> Result<(), StoreError> {
    signed_in(store, "Ada", 1);
    store.close_session(&lock(n))
}

/// Personal token `n` (its id and secret) of `account`, made at `moment(created)`.
fn token(n: u8, account: &str, created: u64) -> NewToken {
    NewToken {
        id: TokenId::from_bits(u64::from(n)),
        lock: lock(100 + n),
        account: typed(account),
        label: format!("token {n}"),
        created: moment(created),
    }
}

/// Adds personal token `n` of `account`, made at `moment(created)`.
fn made(store: &Fresh, n: u8, account: &str, created: u64) {
    assert_eq!(store.add_token(&token(n, account, created)), Ok(true));
}

/// Signs `name` up ([`signed_up`]) and adds its personal token `n`, made at
/// `moment(created)`.
fn signed_up_with_token(store: &Fresh, name: &str, n: u8, created: u64) {
    signed_up(store, name);
    made(store, n, name, created);
}

/// Token `n` as its account lists it.
fn listed(n: u8, created: u64) -> TokenInfo {
    TokenInfo {
        id: TokenId::from_bits(u64::from(n)),
        label: format!("token {n}"),
        created: moment(created),
    }
}

/// The names of the accounts the store lists, with their open sessions and tokens at
/// `moment(at)`.
fn listing(store: &Fresh, at: u64) -> Vec<(String, u64, u64)> {
    store
        .accounts(moment(at))
        .unwrap()
        .into_iter()
        .map(
            |AccountSummary {
                 name,
                 sessions,
                 tokens,
                 ..
             }| { (name.to_string(), sessions, tokens) },
        )
        .collect()
}

#[apply(stores)]
fn an_account_added_reads_back_as_signed_up_with_when_it_was_added(#[case] store: Fresh) {
    // Arrange
    let before = to_the_millisecond(SystemTime::now());

    // Act
    let added = store.add_account(&NewAccount {
        name: typed("Ada Lovelace"),
        password: hash(7),
    });

    // Assert
    assert_eq!(added, Ok(Added::Added));
    let Account {
        name,
        password,
        created,
    } = store
        .account(&typed("Ada Lovelace"))
        .unwrap()
        .expect("the account");
    assert_eq!((name.as_str(), password), ("Ada Lovelace", hash(7)));
    assert!(
        before <= created && created <= SystemTime::now(),
        "{created:?}"
    );
}

#[apply(stores)]
fn an_account_is_found_by_its_name_in_any_case(#[case] store: Fresh) {
    signed_up(&store, "Ada");

    let found = store.account(&typed("aDA")).unwrap();

    assert_eq!(found.map(|account| account.name), Some(typed("Ada")));
}

#[apply(stores)]
fn a_name_with_no_account_has_none(#[case] store: Fresh) {
    signed_up(&store, "Ada");

    assert_eq!(store.account(&typed("Bob")), Ok(None));
}

#[apply(stores)]
fn the_same_name_in_another_case_is_taken_by_the_account_that_has_it(#[case] store: Fresh) {
    // Arrange
    signed_up(&store, "Ada");

    // Act
    let added = store.add_account(&NewAccount {
        name: typed("ADA"),
        password: hash(2),
    });

    // Assert: nothing added, nothing changed.
    assert_eq!(added, Ok(Added::Taken { by: typed("Ada") }));
    let kept = store
        .account(&typed("Ada"))
        .unwrap()
        .expect("Ada's account");
    assert_eq!((kept.name, kept.password), (typed("Ada"), hash(1)));
}

#[apply(stores)]
fn a_look_alike_name_is_taken_by_the_account_it_looks_like(#[case] store: Fresh) {
    // Arrange
    signed_up(&store, "Ada");

    // Act
    let added = store.add_account(&NewAccount {
        name: typed(CYRILLIC_ADA),
        password: hash(2),
    });

    // Assert
    assert_eq!(added, Ok(Added::Taken { by: typed("Ada") }));
    assert_eq!(store.account(&typed(CYRILLIC_ADA)), Ok(None));
}

#[apply(stores)]
fn the_account_a_name_looks_like_is_found_by_its_likeness(#[case] store: Fresh) {
    signed_up(&store, "Ada");

    let whose = store.account_like(&typed(CYRILLIC_ADA));

    assert_eq!(whose, Ok(Some(typed("Ada"))));
}

#[apply(stores)]
fn a_name_of_letters_that_look_like_capitals_is_found_by_its_likeness(#[case] store: Fresh) {
    // Arrange: Ada; and Ada written with a Lisu ꓮ, whose prototype is a capital A.
    signed_up(&store, "Ada");

    // Act
    let whose = store.account_like(&typed("\u{a4ee}da"));

    // Assert
    assert_eq!(whose, Ok(Some(typed("Ada"))));
}

#[apply(stores)]
fn a_name_like_no_accounts_is_nobodys(#[case] store: Fresh) {
    signed_up(&store, "Ada");

    assert_eq!(store.account_like(&typed("Eda")), Ok(None));
}

#[apply(stores)]
fn the_accounts_are_listed_by_name_key_with_their_open_sessions_and_tokens(#[case] store: Fresh) {
    // Arrange: Bob has two sessions, one expired at 50, and a token; Ada nothing.
    signed_in(&store, "bob", 1);
    signed_up(&store, "Ada");
    opened(&store, 2, "bob", 50);
    made(&store, 1, "bob", 0);

    // Act
    let accounts = listing(&store, 50);

    // Assert
    assert_eq!(
        accounts,
        [("Ada".to_owned(), 0, 0), ("bob".to_owned(), 1, 1)]
    );
}

#[apply(stores)]
fn a_person_in_a_game_begun_and_not_ended_has_games(#[case] store: Fresh) {
    // Arrange: Ada (X) against Bob (O), begun.
    store.write(&[begin(&ada_bob(1))]).unwrap();

    // Act
    let has = [typed("ada"), typed("BOB")].map(|name| store.has_games(&name));

    // Assert
    assert_eq!(has, [Ok(true), Ok(true)]);
}

#[apply(stores)]
fn a_person_in_an_ended_game_has_games(#[case] store: Fresh) {
    ada_won(&*store, 1);

    let has = [typed("Ada"), typed("Bob")].map(|name| store.has_games(&name));

    assert_eq!(has, [Ok(true), Ok(true)]);
}

#[apply(stores)]
fn a_name_in_no_kept_game_has_none(#[case] store: Fresh) {
    // Arrange: games of others, one going on and one ended; a look-alike of Ada's.
    store.write(&[begin(&ada_bob(1))]).unwrap();
    ada_won(&*store, 2);

    // Act
    let has = [typed("Cy"), typed(CYRILLIC_ADA)].map(|name| store.has_games(&name));

    // Assert: only the same key counts.
    assert_eq!(has, [Ok(false), Ok(false)]);
}

#[apply(stores)]
fn an_open_session_opens_its_account_as_signed_up(#[case] store: Fresh) {
    // Arrange
    signed_up(&store, "Ada");

    // Act
    let opened = store.open_session(&session(1, "ADA", 100));

    // Assert
    assert_eq!(opened, Ok(true));
    assert_eq!(store.session(&lock(1), moment(0)), Ok(Some(typed("Ada"))));
}

#[apply(stores)]
fn a_session_is_open_until_its_expiry_and_expired_from_it_on(#[case] store: Fresh) {
    // Arrange
    signed_in(&store, "Ada", 1);

    // Act
    let [before, at, after] = [
        moment(100) - Duration::from_millis(1),
        moment(100),
        moment(101),
    ]
    .map(|now| store.session(&lock(1), now).unwrap());

    // Assert
    assert_eq!([before, at, after], [Some(typed("Ada")), None, None]);
}

#[apply(stores)]
fn a_lock_of_no_session_opens_nothing(#[case] store: Fresh) {
    signed_in(&store, "Ada", 1);

    assert_eq!(store.session(&lock(2), moment(0)), Ok(None));
}

#[apply(stores)]
fn a_closed_session_opens_nothing(#[case] store: Fresh) {
    // Arrange / Act: Ada's one session closed.
    let closed = ada_signed_in_closes(&store, 1);

    // Assert
    assert_eq!(closed, Ok(()));
    assert_eq!(store.session(&lock(1), moment(0)), Ok(None));
}

#[apply(stores)]
fn closing_a_session_that_is_not_open_is_a_no_op(#[case] store: Fresh) {
    let closed = ada_signed_in_closes(&store, 2);

    assert_eq!(closed, Ok(()));
    assert_eq!(store.session(&lock(1), moment(0)), Ok(Some(typed("Ada"))));
}

#[apply(stores)]
fn the_same_session_opened_again_is_kept_once(#[case] store: Fresh) {
    // Arrange
    signed_in(&store, "Ada", 1);

    // Act
    let again = store.open_session(&session(1, "Ada", 100));

    // Assert
    assert_eq!(again, Ok(true));
    assert_eq!(listing(&store, 0), [("Ada".to_owned(), 1, 0)]);
}

#[apply(stores)]
fn a_session_for_no_account_is_not_kept(#[case] store: Fresh) {
    // Act
    let opened = store.open_session(&session(1, "Ada", 100));

    // Assert: and an account of that name made later has no session.
    assert_eq!(opened, Ok(false));
    signed_up(&store, "Ada");
    assert_eq!(store.session(&lock(1), moment(0)), Ok(None));
}

#[apply(stores)]
fn the_expired_sessions_are_forgotten_and_counted_and_the_open_ones_kept(#[case] store: Fresh) {
    // Arrange: sessions expiring at 10, 20 and 30.
    signed_up(&store, "Ada");
    for (n, expires) in [(1, 10), (2, 20), (3, 30)] {
        opened(&store, n, "Ada", expires);
    }

    // Act
    let forgotten = store.forget_expired_sessions(moment(20));

    // Assert
    assert_eq!(forgotten, Ok(2));
    assert_eq!(store.session(&lock(3), moment(0)), Ok(Some(typed("Ada"))));
    assert_eq!(store.session(&lock(1), moment(0)), Ok(None));
}

#[apply(stores)]
fn a_new_password_is_kept_and_ends_every_session_and_token_of_the_account(#[case] store: Fresh) {
    // Arrange: Ada and Bob each signed in, each with a token.
    signed_in(&store, "Ada", 1);
    signed_in(&store, "Bob", 2);
    made(&store, 1, "Ada", 0);
    made(&store, 2, "Bob", 0);

    // Act
    let changed = store.set_password(&typed("ADA"), &hash(9));

    // Assert: Ada's are gone, Bob's are not.
    assert_eq!(changed, Ok(true));
    let ada = store
        .account(&typed("Ada"))
        .unwrap()
        .expect("Ada's account");
    assert_eq!(ada.password, hash(9));
    assert_eq!(store.session(&lock(1), moment(0)), Ok(None));
    assert_eq!(store.token(&token(1, "Ada", 0).lock), Ok(None));
    assert_eq!(
        listing(&store, 0),
        [("Ada".to_owned(), 0, 0), ("Bob".to_owned(), 1, 1)]
    );
}

#[apply(stores)]
fn a_new_password_for_no_account_changes_nothing(#[case] store: Fresh) {
    signed_up(&store, "Ada");

    let changed = store.set_password(&typed("Bob"), &hash(9));

    assert_eq!(changed, Ok(false));
    assert_eq!(listing(&store, 0), [("Ada".to_owned(), 0, 0)]);
}

#[apply(stores)]
fn a_removed_account_takes_its_sessions_and_tokens_and_frees_its_name(#[case] store: Fresh) {
    // Arrange
    signed_in(&store, "Ada", 1);
    made(&store, 1, "Ada", 0);

    // Act
    let removed = store.remove_account(&typed("ada"));

    // Assert: nothing of it left, and the name (or a look-alike) may be signed up.
    assert_eq!(removed, Ok(true));
    assert_eq!(store.session(&lock(1), moment(0)), Ok(None));
    assert_eq!(store.token(&token(1, "Ada", 0).lock), Ok(None));
    assert_eq!(store.accounts(moment(0)), Ok(Vec::new()));
    signed_up(&store, CYRILLIC_ADA);
}

#[apply(stores)]
fn a_removed_accounts_games_stay(#[case] store: Fresh) {
    signed_up(&store, "Ada");
    ada_won(&*store, 1);

    store.remove_account(&typed("Ada")).unwrap();

    assert!(store.game(&id(1)).unwrap().is_some());
    assert_eq!(store.has_games(&typed("Ada")), Ok(true));
}

#[apply(stores)]
fn removing_no_account_is_false(#[case] store: Fresh) {
    signed_up(&store, "Ada");

    assert_eq!(store.remove_account(&typed("Bob")), Ok(false));
}

#[apply(stores)]
fn a_token_opens_its_account_and_is_listed_without_its_secret(#[case] store: Fresh) {
    // Arrange
    signed_up(&store, "Ada");

    // Act
    let added = store.add_token(&token(1, "ada", 5));

    // Assert
    assert_eq!(added, Ok(true));
    assert_eq!(
        store.token(&token(1, "Ada", 5).lock),
        Ok(Some(typed("Ada")))
    );
    assert_eq!(store.tokens(&typed("Ada")), Ok(vec![listed(1, 5)]));
}

#[apply(stores)]
fn a_lock_of_no_token_opens_nothing(#[case] store: Fresh) {
    signed_up_with_token(&store, "Ada", 1, 5);

    assert_eq!(store.token(&lock(1)), Ok(None));
}

#[apply(stores)]
fn an_accounts_tokens_are_listed_oldest_first_and_no_one_elses(#[case] store: Fresh) {
    // Arrange
    signed_up(&store, "Ada");
    signed_up(&store, "Bob");
    made(&store, 1, "Ada", 9);
    made(&store, 2, "Bob", 1);
    made(&store, 3, "Ada", 3);

    // Act
    let tokens = store.tokens(&typed("Ada"));

    // Assert
    assert_eq!(tokens, Ok(vec![listed(3, 3), listed(1, 9)]));
}

#[apply(stores)]
fn the_same_token_added_again_is_kept_once(#[case] store: Fresh) {
    // Arrange
    signed_up_with_token(&store, "Ada", 1, 5);

    // Act
    let again = store.add_token(&token(1, "Ada", 5));

    // Assert
    assert_eq!(again, Ok(true));
    assert_eq!(store.tokens(&typed("Ada")), Ok(vec![listed(1, 5)]));
}

#[apply(stores)]
fn a_token_for_no_account_is_not_kept(#[case] store: Fresh) {
    // Act
    let added = store.add_token(&token(1, "Ada", 5));

    // Assert: and an account of that name made later has no token.
    assert_eq!(added, Ok(false));
    signed_up(&store, "Ada");
    assert_eq!(store.token(&token(1, "Ada", 5).lock), Ok(None));
}

#[apply(stores)]
fn a_revoked_token_opens_nothing_and_is_not_listed(#[case] store: Fresh) {
    // Arrange
    signed_up_with_token(&store, "Ada", 1, 5);

    // Act
    let revoked = store.revoke_token(&typed("Ada"), &TokenId::from_bits(1));

    // Assert
    assert_eq!(revoked, Ok(true));
    assert_eq!(store.token(&token(1, "Ada", 5).lock), Ok(None));
    assert_eq!(store.tokens(&typed("Ada")), Ok(Vec::new()));
}

#[apply(stores)]
fn another_account_cannot_revoke_a_token(#[case] store: Fresh) {
    // Arrange
    signed_up(&store, "Ada");
    signed_up(&store, "Bob");
    made(&store, 1, "Ada", 5);

    // Act
    let revoked = store.revoke_token(&typed("Bob"), &TokenId::from_bits(1));

    // Assert: to Bob it is no token; it still opens Ada's account.
    assert_eq!(revoked, Ok(false));
    assert_eq!(
        store.token(&token(1, "Ada", 5).lock),
        Ok(Some(typed("Ada")))
    );
}

#[apply(stores)]
fn revoking_a_token_that_is_not_there_is_false(#[case] store: Fresh) {
    signed_up(&store, "Ada");

    let revoked = store.revoke_token(&typed("Ada"), &TokenId::from_bits(1));

    assert_eq!(revoked, Ok(false));
}

#[apply(stores)]
fn two_threads_adding_look_alike_names_at_once_add_exactly_one(#[case] store: Fresh) {
    // Arrange: in each round, one thread signs up a name and the other its look-alike
    // (a Cyrillic А), both let go at once.
    let rounds = 10;
    let start = Barrier::new(2);
    let spellings = ["Ada", CYRILLIC_ADA];

    // Act
    let answers: Vec<[Result<Added, StoreError>; 2]> = (0..rounds)
        .map(|round| {
            let names = spellings.map(|start| typed(&format!("{start} {round}")));
            thread::scope(|scope| {
                let adding = names.clone().map(|name| {
                    let (store, start) = (&*store, &start);
                    scope.spawn(move || {
                        start.wait();
                        store.add_account(&NewAccount {
                            name,
                            password: hash(1),
                        })
                    })
                });
                adding.map(|thread| thread.join().expect("no panic"))
            })
        })
        .collect();

    // Assert: one added, the other taken by it, and one account each round.
    for (round, answer) in answers.iter().enumerate() {
        let added: Vec<usize> = (0..2).filter(|&n| answer[n] == Ok(Added::Added)).collect();
        let [winner] = added[..] else {
            panic!("round {round}: {answer:?}");
        };
        let by = typed(&format!("{} {round}", spellings[winner]));
        assert_eq!(answer[1 - winner], Ok(Added::Taken { by }), "round {round}");
    }
    assert_eq!(store.accounts(moment(0)).unwrap().len(), rounds);
}
