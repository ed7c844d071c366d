//! Each client's share of the computer's thinking: hints, reviews and training answers
//! draw on a budget of engine time, so that no client can buy the server's processors.
//!
//! A budget is a bucket of engine seconds per payer: the client's address (as
//! `--trust-proxy` reads it) always, and the account too when the request is signed in,
//! so that neither many addresses nor many accounts buy more than their share. A
//! bucket holds at most [`Budget::burst`] and fills at [`Budget::refill`] engine
//! seconds a second; a request is let in while every bucket of its payers has some
//! left, and the time its work took is taken from each once it is done (a bucket may
//! go below empty: a long analysis is paid for by waiting afterwards). A payer has one
//! such request under way at a time: a second one asked meanwhile is refused at once,
//! so a client's requests queue behind nobody's but take their turns with everyone
//! else's. A refusal says when to ask again, and nothing waits in a queue for it.
//!
//! Buckets are counted in this server's memory (each server of several counts its
//! own), and forgotten once full: at most [`MOST_PAYERS`] are kept.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tictactoe_core::domain::PlayerName;
use tictactoe_core::sync::lock;

use super::shares::Client;

/// Payers whose buckets are kept at most; past it, full buckets are forgotten first.
pub const MOST_PAYERS: usize = 100_000;

/// The longest wait a refusal names, whatever is owed.
const LONGEST_WAIT: Duration = Duration::from_secs(3600);

/// How a payer's share is measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    /// Engine time a payer may spend at once, after a rest.
    pub burst: Duration,
    /// Engine seconds a payer's bucket gains each second.
    pub refill: f64,
}

impl Default for Budget {
    /// 10 engine seconds at once (ten 7x7 hints at the computer's full thinking time,
    /// or the review of a long 7x7 game), then one engine second every 5 s: more than
    /// a person playing asks, and a fifth of a core for a client that asks without a
    /// pause. So what a client can leave the server to do after it stops asking is
    /// 10 s of thinking at most.
    fn default() -> Self {
        Budget {
            burst: Duration::from_secs(10),
            refill: 0.2,
        }
    }
}

/// Who pays for a costly request: its client, and its account when signed in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payer {
    pub client: Client,
    pub account: Option<PlayerName>,
}

impl Payer {
    fn keys(&self) -> Vec<Key> {
        let mut keys = vec![Key::Client(self.client)];
        if let Some(account) = &self.account {
            keys.push(Key::Account(account.key()));
        }
        keys
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Client(Client),
    Account(String),
}

#[derive(Debug)]
struct Bucket {
    /// Engine seconds left at `at` (below zero: owed).
    left: f64,
    at: Instant,
    busy: bool,
}

impl Bucket {
    fn full(budget: &Budget, now: Instant) -> Bucket {
        Bucket {
            left: budget.burst.as_secs_f64(),
            at: now,
            busy: false,
        }
    }

    fn refill(&mut self, budget: &Budget, now: Instant) {
        let rested = now.saturating_duration_since(self.at).as_secs_f64();
        self.left = (self.left + rested * budget.refill).min(budget.burst.as_secs_f64());
        self.at = now;
    }

    fn is_full(&self, budget: &Budget) -> bool {
        !self.busy && self.left >= budget.burst.as_secs_f64()
    }
}

/// What a costly request asks of the computer: the label of its metrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Hint,
    Review,
    Answer,
}

impl Kind {
    /// Every kind, for the metrics registered at zero.
    pub const ALL: [Kind; 3] = [Kind::Hint, Kind::Review, Kind::Answer];

    pub fn label(self) -> &'static str {
        match self {
            Kind::Hint => "hint",
            Kind::Review => "review",
            Kind::Answer => "answer",
        }
    }
}

/// Why a costly request was not let in, and when to ask again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The payer has a costly request under way already.
    UnderWay,
    /// The payer's budget is spent: it fills again in this long.
    Spent(Duration),
}

impl Refused {
    /// When to ask again.
    pub fn retry_after(self) -> Duration {
        match self {
            Refused::UnderWay => Duration::from_secs(1),
            Refused::Spent(wait) => wait.max(Duration::from_secs(1)),
        }
    }
}

/// The budgets of every payer: see the module documentation.
pub struct Budgets {
    budget: Budget,
    buckets: Mutex<HashMap<Key, Bucket>>,
}

impl Budgets {
    pub fn new(budget: Budget) -> Arc<Budgets> {
        Arc::new(Budgets {
            budget,
            buckets: Mutex::new(HashMap::new()),
        })
    }

    /// Lets `payer`'s costly request in at `now`, or says why not. The request is
    /// under way until the [`Spending`] answered is dropped, and pays then for the
    /// time [`Spending::spent`] was told (nothing if it was not told).
    /// Counted by `kind` in the metrics: `tictactoe_engine_refused_total`, and the
    /// histogram `tictactoe_engine_seconds` of what each request spent.
    pub fn admit(
        self: &Arc<Self>,
        payer: &Payer,
        kind: Kind,
        now: Instant,
    ) -> Result<Spending, Refused> {
        let keys = payer.keys();
        let budget = &self.budget;
        let mut buckets = lock(&self.buckets);
        if buckets.len() >= MOST_PAYERS {
            buckets.retain(|_, bucket| {
                bucket.refill(budget, now);
                !bucket.is_full(budget)
            });
        }
        let mut refused = None;
        for key in &keys {
            let bucket = buckets
                .entry(key.clone())
                .or_insert_with(|| Bucket::full(budget, now));
            bucket.refill(budget, now);
            if bucket.busy {
                refused = Some(Refused::UnderWay);
            } else if bucket.left <= 0.0 && refused.is_none() {
                let owed = -bucket.left + 0.001;
                let wait = owed / budget.refill.max(f64::MIN_POSITIVE);
                refused = Some(Refused::Spent(Duration::from_secs_f64(
                    wait.min(LONGEST_WAIT.as_secs_f64()),
                )));
            }
        }
        if let Some(refused) = refused {
            metrics::counter!("tictactoe_engine_refused_total", "kind" => kind.label())
                .increment(1);
            return Err(refused);
        }
        for key in &keys {
            if let Some(bucket) = buckets.get_mut(key) {
                bucket.busy = true;
            }
        }
        Ok(Spending {
            budgets: Arc::clone(self),
            kind,
            keys,
            spent: Duration::ZERO,
        })
    }
}

impl Budgets {
    /// The engine time `payer` has left at `now` (nothing when they owe): what work
    /// nobody waits for may spend of theirs at most.
    pub fn left(&self, payer: &Payer, now: Instant) -> Duration {
        let budget = &self.budget;
        let mut buckets = lock(&self.buckets);
        let left = payer
            .keys()
            .iter()
            .map(|key| match buckets.get_mut(key) {
                Some(bucket) => {
                    bucket.refill(budget, now);
                    bucket.left
                }
                None => budget.burst.as_secs_f64(),
            })
            .fold(f64::INFINITY, f64::min);
        Duration::try_from_secs_f64(left.max(0.0)).unwrap_or(Duration::ZERO)
    }

    /// Whether `payer` is at rest at `now`: nothing of theirs under way, and their
    /// whole burst back (what work nobody waits for waits for).
    pub fn rested(&self, payer: &Payer, now: Instant) -> bool {
        let budget = &self.budget;
        let mut buckets = lock(&self.buckets);
        payer.keys().iter().all(|key| match buckets.get_mut(key) {
            Some(bucket) => {
                bucket.refill(budget, now);
                bucket.is_full(budget)
            }
            None => true,
        })
    }
}

/// A costly request let in: under way until dropped, when it pays for what it spent.
#[must_use]
pub struct Spending {
    budgets: Arc<Budgets>,
    kind: Kind,
    keys: Vec<Key>,
    spent: Duration,
}

impl Spending {
    /// Adds `time` of engine work to what the request pays.
    pub fn spent(&mut self, time: Duration) {
        self.spent += time;
        metrics::histogram!("tictactoe_engine_seconds", "kind" => self.kind.label())
            .record(time.as_secs_f64());
    }
}

impl Drop for Spending {
    fn drop(&mut self) {
        let now = Instant::now();
        let budget = &self.budgets.budget;
        let mut buckets = lock(&self.budgets.buckets);
        for key in &self.keys {
            let bucket = buckets
                .entry(key.clone())
                .or_insert_with(|| Bucket::full(budget, now));
            bucket.refill(budget, now);
            bucket.left -= self.spent.as_secs_f64();
            bucket.busy = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::net::IpAddr;

    use super::*;

    fn payer(last: u8, account: Option<&str>) -> Payer {
        Payer {
            client: Client::of(IpAddr::from([192, 0, 2, last])),
            account: account.map(|name| PlayerName::new(name).unwrap()),
        }
    }

    impl Budgets {
        fn admit_for_test(
            self: &Arc<Self>,
            payer: &Payer,
            now: Instant,
        ) -> Result<Spending, Refused> {
            self.admit(payer, Kind::Hint, now)
        }
    }

    fn budgets() -> Arc<Budgets> {
        Budgets::new(Budget {
            burst: Duration::from_secs(10),
            refill: 0.5,
        })
    }

    /// `payer`'s costly request at `now`, which spent `seconds`.
    fn spent(budgets: &Arc<Budgets>, payer: &Payer, seconds: f64, now: Instant) {
        let mut spending = budgets.admit_for_test(payer, now).unwrap();
        spending.spent(Duration::from_secs_f64(seconds));
    }

    #[test]
    fn what_a_payer_has_left_is_the_burst_less_what_they_spent() {
        let (budgets, ada, now) = (budgets(), payer(1, None), Instant::now());
        spent(&budgets, &ada, 4.0, now);

        let left = budgets.left(&ada, now);

        assert!((5.9..=6.1).contains(&left.as_secs_f64()), "{left:?}");
    }

    #[rstest::rstest]
    #[case::a_new_payer(0.0, 0, true)]
    #[case::one_who_spent_a_little_just_now(1.0, 0, false)]
    #[case::one_who_spent_a_little_and_rested_since(1.0, 6, true)]
    fn a_payer_is_at_rest_once_their_whole_burst_is_back(
        #[case] seconds: f64,
        #[case] rested_for: u64,
        #[case] at_rest: bool,
    ) {
        let (budgets, ada, now) = (budgets(), payer(1, None), Instant::now());
        if seconds > 0.0 {
            spent(&budgets, &ada, seconds, now);
        }

        let rested = budgets.rested(&ada, Instant::now() + Duration::from_secs(rested_for));

        assert_eq!(rested, at_rest);
    }

    #[test]
    fn a_payer_who_owes_has_nothing_left() {
        let (budgets, ada, now) = (budgets(), payer(1, None), Instant::now());
        spent(&budgets, &ada, 30.0, now);

        assert_eq!(budgets.left(&ada, now), Duration::ZERO);
    }

    #[test]
    fn a_payer_with_budget_left_is_let_in() {
        let budgets = budgets();

        let admitted = budgets.admit_for_test(&payer(1, None), Instant::now());

        assert!(admitted.is_ok());
    }

    #[test]
    fn a_second_costly_request_while_the_first_is_under_way_is_refused_at_once() {
        // Arrange
        let budgets = budgets();
        let now = Instant::now();
        let _first = budgets.admit_for_test(&payer(1, None), now).unwrap();

        // Act
        let second = budgets.admit_for_test(&payer(1, None), now);

        // Assert
        assert_eq!(second.err(), Some(Refused::UnderWay));
    }

    #[test]
    fn a_payer_who_spent_the_burst_waits_until_the_bucket_fills_again() {
        // Arrange: 12 s spent of a 10 s burst, refilled at half a second a second.
        let budgets = budgets();
        let now = Instant::now();
        spent(&budgets, &payer(1, None), 12.0, now);

        // Act
        let refused = budgets.admit_for_test(&payer(1, None), now).err();

        // Assert: 2 s owed, at 0.5 a second: about 4 s.
        let Some(Refused::Spent(wait)) = refused else {
            panic!("{refused:?}");
        };
        assert!((3.9..4.1).contains(&wait.as_secs_f64()), "{wait:?}");
    }

    #[test]
    fn another_client_is_let_in_while_one_is_over_budget() {
        // Arrange
        let budgets = budgets();
        let now = Instant::now();
        spent(&budgets, &payer(1, None), 60.0, now);

        // Act
        let other = budgets.admit_for_test(&payer(2, None), now);

        // Assert
        assert!(other.is_ok());
    }

    #[test]
    fn an_account_over_budget_is_refused_from_another_address_too() {
        // Arrange
        let budgets = budgets();
        let now = Instant::now();
        spent(&budgets, &payer(1, Some("Ada")), 60.0, now);

        // Act
        let elsewhere = budgets.admit_for_test(&payer(2, Some("Ada")), now);

        // Assert
        assert!(matches!(elsewhere.err(), Some(Refused::Spent(_))));
    }

    #[test]
    fn a_rested_bucket_is_let_in_again() {
        // Arrange: 1 s owed, paid back in 2 s at 0.5 a second.
        let budgets = budgets();
        let now = Instant::now();
        spent(&budgets, &payer(1, None), 11.0, now);

        // Act
        let later =
            budgets.admit_for_test(&payer(1, None), Instant::now() + Duration::from_secs(3));

        // Assert
        assert!(later.is_ok());
    }
}
