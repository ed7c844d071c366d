//! Accounts on the server, behind the port ([`AccountService`]): signing up, in and
//! out, who a session or a personal token is, and the personal tokens of an account.
//! The rules are the core's (`tictactoe_core::accounts`); this says where they run:
//!
//! * each password's hash (tens of milliseconds of a core, on purpose) one at a time,
//!   with a bounded queue behind it ([`Hashing`]), on a thread of its own at a lower
//!   scheduling priority ([`yielding`]), so that sign-ins never stall the games'
//!   requests and a flood of them is refused at once rather than queued for ever;
//! * every try at a password, and every new account, counted per name and per client
//!   ([`throttle`]), refused past their share before any hash, the refusal held a
//!   moment so a script asking again at once slows to a try a second;
//! * every call to the store on the store's lane (`store_lane`), within its deadline;
//! * sessions and tokens kept in the store as their locks, so that every server on one
//!   database knows them, and they outlive a restart.

mod throttle;
mod yielding;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime};

use tokio::sync::Semaphore;

use tictactoe_core::accounts::{SignUp, SignUpError, sign_in, sign_up};
use tictactoe_core::domain::PlayerName;
use tictactoe_core::ports::{
    Archive, NewSession, NewToken, Passwords, StoreError, TokenId, TokenInfo,
};

use super::games::{Games, NobodysNames};
use super::port::{
    AccountAnswer, AccountError, AccountService, Credential, MadeToken, NameAndPassword, Session,
};
use super::shares::Client;
use super::store_lane::StoreLane;
use super::token::{PersonalToken, Token, new_token_id};

use throttle::Throttle;
pub use throttle::Tries;
use yielding::Yielding;

/// How long a session lasts from sign-in.
pub const SESSION_LASTS: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// Hashes that may wait for the one being computed; past them, a sign-in or sign-up
/// is refused at once (busy) instead of joining the queue.
const MOST_WAITING_HASHES: usize = 32;

/// The server's accounts: a cheap handle (clones share everything).
#[derive(Clone)]
pub struct Accounts(Arc<Inner>);

struct Inner {
    store: Arc<StoreLane>,
    passwords: Arc<dyn Passwords>,
    hashing: Hashing,
    throttle: Throttle,
    /// Names lately found to be no account's: forgotten at each sign-up.
    nobodys_names: Arc<NobodysNames>,
}

impl Accounts {
    /// The accounts kept in the store of `games` (through the same lanes), their
    /// passwords hashed by `passwords`, tries at them bounded by `tries`.
    pub fn new(games: &Games, passwords: Arc<dyn Passwords>, tries: Tries) -> Self {
        Accounts(Arc::new(Inner {
            store: games.store_lane(),
            passwords: Arc::new(Yielding::new(passwords)),
            hashing: Hashing::new(),
            throttle: Throttle::new(tries),
            nobodys_names: games.nobodys_names(),
        }))
    }

    /// `job` on the store, on its lane (see `store_lane`).
    async fn store<T: Send + 'static>(
        &self,
        job: impl FnOnce(&dyn Archive) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, AccountError> {
        Ok(self.0.store.read(job).await?)
    }

    /// Opens a session for `account` (as signed up): kept before its secret is handed
    /// out. An account removed meanwhile gets none.
    async fn open_session(&self, account: PlayerName) -> Result<Session, AccountError> {
        let secret = Token::random();
        let expires = SystemTime::now() + SESSION_LASTS;
        let session = NewSession {
            lock: secret.lock(),
            account: account.clone(),
            expires,
        };
        let opened = self
            .store(move |store| store.open_session(&session))
            .await?;
        if !opened {
            return Err(AccountError::WrongPair);
        }
        Ok(Session {
            account,
            secret,
            expires,
        })
    }

    /// `work` on the store and the passwords, once it is the hash's turn (on the
    /// store's lane: a blocking thread, within its deadline).
    async fn hashed<T: Send + 'static>(
        &self,
        work: impl FnOnce(&dyn Archive, &dyn Passwords) -> T + Send + 'static,
    ) -> Result<T, AccountError> {
        let _turn = self.0.hashing.turn().await?;
        let passwords = Arc::clone(&self.0.passwords);
        self.store(move |store| Ok(work(store, passwords.as_ref())))
            .await
    }
}

impl AccountService for Accounts {
    fn sign_up(&self, given: NameAndPassword, client: Client) -> AccountAnswer<Session> {
        let accounts = self.clone();
        Box::pin(async move {
            let NameAndPassword { name, password } = given;
            let throttle = &accounts.0.throttle;
            allowed(throttle, throttle.may_sign_up(client, Instant::now())).await?;
            let asked = name.clone();
            let signed_up = accounts
                .hashed(move |store, passwords| {
                    sign_up(store, passwords, &asked, &password, SignUp::Person)
                })
                .await
                .and_then(|added| added.map_err(AccountError::from));
            // Even when refused or not answered in time: the store may have kept it.
            accounts.0.nobodys_names.forget_all();
            count_refused(&signed_up);
            signed_up?;
            let session = accounts.open_session(name).await?;
            count_done("signed_up");
            Ok(session)
        })
    }

    fn sign_in(&self, given: NameAndPassword, client: Client) -> AccountAnswer<Session> {
        let accounts = self.clone();
        Box::pin(async move {
            let NameAndPassword { name, password } = given;
            let key = name.key();
            let throttle = &accounts.0.throttle;
            allowed(throttle, throttle.may_sign_in(&key, client, Instant::now())).await?;
            let signed_in = accounts
                .hashed(move |store, passwords| sign_in(store, passwords, &name, &password))
                .await
                .and_then(|found| found.map_err(AccountError::from))
                .and_then(|found| {
                    found.ok_or_else(|| {
                        throttle.failed(&key, client, Instant::now());
                        AccountError::WrongPair
                    })
                });
            count_refused(&signed_in);
            let session = accounts.open_session(signed_in?).await?;
            count_done("signed_in");
            Ok(session)
        })
    }

    fn who(&self, credential: Credential) -> AccountAnswer<Option<PlayerName>> {
        let accounts = self.clone();
        Box::pin(async move {
            let found = match credential {
                Credential::Session(secret) => {
                    let lock = secret.lock();
                    let now = SystemTime::now();
                    accounts
                        .store(move |store| store.session(&lock, now))
                        .await?
                }
                Credential::Personal(token) => {
                    let lock = token.lock();
                    accounts.store(move |store| store.token(&lock)).await?
                }
            };
            Ok(found)
        })
    }

    fn sign_out(&self, session: Token) -> AccountAnswer<()> {
        let accounts = self.clone();
        Box::pin(async move {
            let lock = session.lock();
            accounts
                .store(move |store| store.close_session(&lock))
                .await?;
            Ok(())
        })
    }

    fn add_token(&self, account: PlayerName, label: String) -> AccountAnswer<MadeToken> {
        let accounts = self.clone();
        Box::pin(async move {
            let secret = PersonalToken::random();
            let token = NewToken {
                id: new_token_id(),
                lock: secret.lock(),
                account,
                label,
                created: SystemTime::now(),
            };
            let kept = token.clone();
            let added = accounts.store(move |store| store.add_token(&kept)).await?;
            if !added {
                return Err(AccountError::NoAccount);
            }
            Ok(MadeToken {
                info: TokenInfo {
                    id: token.id,
                    label: token.label,
                    created: token.created,
                },
                secret,
            })
        })
    }

    fn tokens(&self, account: PlayerName) -> AccountAnswer<Vec<TokenInfo>> {
        let accounts = self.clone();
        Box::pin(async move { accounts.store(move |store| store.tokens(&account)).await })
    }

    fn revoke_token(&self, account: PlayerName, id: TokenId) -> AccountAnswer<bool> {
        let accounts = self.clone();
        Box::pin(async move {
            accounts
                .store(move |store| store.revoke_token(&account, &id))
                .await
        })
    }
}

/// The throttle's answer `may`, counted; a refusal is answered only after the
/// throttle's pause (see [`Tries::refusal_pause`]), holding nothing but this request.
async fn allowed(throttle: &Throttle, may: Result<(), Duration>) -> Result<(), AccountError> {
    let may = may.map_err(AccountError::Throttled);
    count_refused(&may);
    if let Err(AccountError::Throttled(wait)) = may {
        tokio::time::sleep(throttle.pause(wait)).await;
    }
    may
}

/// Counts a sign-in (or sign-up) refused, by the refusal's kind: `wrong` (a wrong name
/// or password, or a name taken), `throttled` (too many tries), `busy` (the passwords'
/// queue full). Nothing for what went through, nor for the store's trouble (the
/// requests' own metrics count those).
fn count_refused<T>(result: &Result<T, AccountError>) {
    let kind = match result {
        Err(AccountError::Throttled(_)) => "throttled",
        Err(AccountError::Busy) => "busy",
        Err(
            AccountError::WrongPair
            | AccountError::Taken { .. }
            | AccountError::Played(_)
            | AccountError::Placeholder(_),
        ) => "wrong",
        _ => return,
    };
    metrics::counter!("tictactoe_sign_ins_total", "result" => kind).increment(1);
}

/// Every `result` of `tictactoe_sign_ins_total`: the series registered at zero.
pub(crate) const SIGN_IN_RESULTS: [&str; 5] =
    ["signed_in", "signed_up", "wrong", "throttled", "busy"];

/// Counts a sign-in (`signed_in`) or sign-up (`signed_up`) that went through.
fn count_done(done: &'static str) {
    metrics::counter!("tictactoe_sign_ins_total", "result" => done).increment(1);
}

/// The hashes' lane: one hash at a time (each takes most of a core), at most
/// [`MOST_WAITING_HASHES`] waiting.
struct Hashing {
    lane: Arc<Semaphore>,
    waiting: AtomicUsize,
}

impl Hashing {
    fn new() -> Self {
        Hashing {
            lane: Arc::new(Semaphore::new(1)),
            waiting: AtomicUsize::new(0),
        }
    }

    /// The lane's turn, waited for; refused at once when too many wait already.
    async fn turn(&self) -> Result<tokio::sync::OwnedSemaphorePermit, AccountError> {
        if self.waiting.fetch_add(1, Ordering::AcqRel) >= MOST_WAITING_HASHES {
            self.waiting.fetch_sub(1, Ordering::AcqRel);
            return Err(AccountError::Busy);
        }
        let turn = Arc::clone(&self.lane).acquire_owned().await;
        self.waiting.fetch_sub(1, Ordering::AcqRel);
        turn.map_err(|_| AccountError::Broken("the hashes' lane closed".into()))
    }
}

impl From<SignUpError> for AccountError {
    fn from(error: SignUpError) -> Self {
        match error {
            SignUpError::Taken { by } => AccountError::Taken { by },
            SignUpError::Played(name) => AccountError::Played(name),
            SignUpError::Placeholder(name) => AccountError::Placeholder(name),
            SignUpError::Store(error) => AccountError::Store(error),
        }
    }
}
