//! How many tries at a password, and how many new accounts, one name and one client
//! get: counted in this server's memory over a sliding window, so that guessing a
//! password costs an attacker the window, and hashing (tens of milliseconds of a core
//! each) cannot be bought by the thousand. A refusal says when the oldest counted try
//! leaves the window: then the right password is taken again.
//!
//! Each server counts its own: behind a proxy that shares requests among N servers an
//! attacker gets up to N times the tries (docs/web.md says so).

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tictactoe_core::sync::lock;

use super::super::shares::Client;

/// The bounds of a server's sign-in throttle: how many tries, over how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tries {
    /// How far back tries are counted.
    pub window: Duration,
    /// Wrong passwords for one name within the window; past them, no sign-in as that
    /// name is tried until the window lets the oldest go.
    pub per_name: usize,
    /// Wrong passwords from one client within the window (any names).
    pub per_client: usize,
    /// New accounts from one client within the window.
    pub sign_ups_per_client: usize,
    /// How long a refusal for too many tries is held before it is answered (at most
    /// the wait it names): a client that asks again at once, as a guessing script
    /// does, then asks about once in this long instead of thousands of times a second,
    /// and its refusals stop costing the server (and its other players) anything.
    pub refusal_pause: Duration,
}

impl Default for Tries {
    fn default() -> Self {
        Tries {
            window: Duration::from_secs(15 * 60),
            per_name: 5,
            per_client: 20,
            sign_ups_per_client: 5,
            refusal_pause: Duration::from_secs(1),
        }
    }
}

/// Keys counted at most, each kind: past it, the oldest keys are forgotten first, so
/// that a flood of names or addresses cannot grow the server's memory.
const MOST_KEYS: usize = 100_000;

/// The tries counted: see the module documentation.
pub struct Throttle {
    tries: Tries,
    names: Mutex<Window<String>>,
    clients: Mutex<Window<Client>>,
    sign_ups: Mutex<Window<Client>>,
}

impl Throttle {
    pub fn new(tries: Tries) -> Self {
        Throttle {
            tries,
            names: Mutex::new(Window::default()),
            clients: Mutex::new(Window::default()),
            sign_ups: Mutex::new(Window::default()),
        }
    }

    /// How long a refusal that names `wait` is held before it is answered.
    pub fn pause(&self, wait: Duration) -> Duration {
        self.tries.refusal_pause.min(wait)
    }

    /// Whether a sign-in as the name of key `name` from `client` may be tried at `now`:
    /// `Err` with how long to wait.
    pub fn may_sign_in(&self, name: &str, client: Client, now: Instant) -> Result<(), Duration> {
        let window = self.tries.window;
        let by_name = lock(&self.names).wait(name, self.tries.per_name, window, now);
        let by_client = lock(&self.clients).wait(&client, self.tries.per_client, window, now);
        match by_name.max(by_client) {
            Some(wait) => Err(wait),
            None => Ok(()),
        }
    }

    /// A wrong password for the name of key `name`, from `client`, at `now`.
    pub fn failed(&self, name: &str, client: Client, now: Instant) {
        let window = self.tries.window;
        lock(&self.names).count(name.to_owned(), window, now);
        lock(&self.clients).count(client, window, now);
    }

    /// Whether `client` may sign a new account up at `now`: `Err` with how long to
    /// wait. If it may, the sign-up is counted.
    pub fn may_sign_up(&self, client: Client, now: Instant) -> Result<(), Duration> {
        let window = self.tries.window;
        let mut sign_ups = lock(&self.sign_ups);
        if let Some(wait) = sign_ups.wait(&client, self.tries.sign_ups_per_client, window, now) {
            return Err(wait);
        }
        sign_ups.count(client, window, now);
        Ok(())
    }
}

/// The times of the tries counted for each key, oldest first.
struct Window<K> {
    tries: HashMap<K, VecDeque<Instant>>,
}

impl<K> Default for Window<K> {
    fn default() -> Self {
        Window {
            tries: HashMap::new(),
        }
    }
}

impl<K: Hash + Eq + Clone> Window<K> {
    /// How long `key` must wait at `now`, if it has `most` tries within `window`.
    fn wait<Q>(&mut self, key: &Q, most: usize, window: Duration, now: Instant) -> Option<Duration>
    where
        K: std::borrow::Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let tries = self.tries.get_mut(key)?;
        forget_before(tries, window, now);
        if tries.len() < most {
            return None;
        }
        let oldest = *tries.front()?;
        Some((oldest + window).saturating_duration_since(now))
    }

    /// One more try of `key` at `now`.
    fn count(&mut self, key: K, window: Duration, now: Instant) {
        if self.tries.len() >= MOST_KEYS && !self.tries.contains_key(&key) {
            self.tries.retain(|_, tries| {
                forget_before(tries, window, now);
                !tries.is_empty()
            });
            if self.tries.len() >= MOST_KEYS {
                // Still full of keys tried within the window: the one tried longest
                // ago goes.
                let oldest = self
                    .tries
                    .iter()
                    .min_by_key(|(_, tries)| tries.back().copied())
                    .map(|(key, _)| key.clone());
                if let Some(oldest) = oldest {
                    self.tries.remove(&oldest);
                }
            }
        }
        let tries = self.tries.entry(key).or_default();
        forget_before(tries, window, now);
        tries.push_back(now);
    }
}

/// Forgets the tries older than `window` at `now`.
fn forget_before(tries: &mut VecDeque<Instant>, window: Duration, now: Instant) {
    while tries
        .front()
        .is_some_and(|&tried| now.saturating_duration_since(tried) >= window)
    {
        tries.pop_front();
    }
}

#[cfg(test)]
mod tests {
    use std::net::IpAddr;

    use super::*;

    fn client(last: u8) -> Client {
        Client::of(IpAddr::from([192, 0, 2, last]))
    }

    fn throttle() -> Throttle {
        Throttle::new(Tries {
            window: Duration::from_secs(60),
            per_name: 3,
            per_client: 5,
            sign_ups_per_client: 2,
            refusal_pause: Duration::ZERO,
        })
    }

    #[test]
    fn a_refusal_is_held_for_the_pause_but_never_past_the_wait_it_names() {
        // Arrange
        let throttle = Throttle::new(Tries {
            refusal_pause: Duration::from_secs(1),
            ..Tries::default()
        });

        // Act
        let long = throttle.pause(Duration::from_secs(600));
        let short = throttle.pause(Duration::from_millis(200));

        // Assert
        assert_eq!(long, Duration::from_secs(1));
        assert_eq!(short, Duration::from_millis(200));
    }

    #[test]
    fn a_name_tried_wrongly_as_often_as_allowed_waits_until_the_oldest_try_leaves_the_window() {
        // Arrange: three wrong passwords for ada, 10 s apart.
        let throttle = throttle();
        let start = Instant::now();
        for n in 0..3 {
            throttle.failed(
                "ada",
                client(n),
                start + Duration::from_secs(10 * u64::from(n)),
            );
        }

        // Act
        let now = start + Duration::from_secs(25);
        let refused = throttle.may_sign_in("ada", client(9), now);

        // Assert: the first try, at 0 s, leaves the window at 60 s.
        assert_eq!(refused, Err(Duration::from_secs(35)));
    }

    #[test]
    fn a_name_may_be_tried_again_once_the_window_lets_its_oldest_try_go() {
        let throttle = throttle();
        let start = Instant::now();
        for _ in 0..3 {
            throttle.failed("ada", client(1), start);
        }

        let later = throttle.may_sign_in("ada", client(1), start + Duration::from_secs(60));

        assert_eq!(later, Ok(()));
    }

    #[test]
    fn another_names_tries_are_not_counted_against_a_name() {
        let throttle = throttle();
        let start = Instant::now();
        for n in 0..3 {
            throttle.failed("bob", client(n), start);
        }

        assert_eq!(throttle.may_sign_in("ada", client(9), start), Ok(()));
    }

    #[test]
    fn a_client_that_tried_many_names_wrongly_waits_whatever_name_it_tries_next() {
        let throttle = throttle();
        let start = Instant::now();
        for name in ["a", "b", "c", "d", "e"] {
            throttle.failed(name, client(1), start);
        }

        let refused = throttle.may_sign_in("f", client(1), start + Duration::from_secs(1));

        assert_eq!(refused, Err(Duration::from_secs(59)));
        assert_eq!(throttle.may_sign_in("f", client(2), start), Ok(()));
    }

    #[test]
    fn a_client_signs_up_as_many_accounts_as_allowed_then_waits() {
        let throttle = throttle();
        let start = Instant::now();

        let answers: Vec<_> = (0..3)
            .map(|_| throttle.may_sign_up(client(1), start))
            .collect();

        assert_eq!(answers, [Ok(()), Ok(()), Err(Duration::from_secs(60))]);
    }

    #[test]
    fn the_keys_counted_stay_bounded_whatever_is_tried() {
        let mut window = Window::default();
        let now = Instant::now();

        for n in 0..(MOST_KEYS + 10) {
            window.count(n, Duration::from_secs(60), now);
        }

        assert_eq!(window.tries.len(), MOST_KEYS);
    }
}
