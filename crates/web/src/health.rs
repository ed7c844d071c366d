//! Whether the server can serve: its store's health, as checked often and as requests
//! meet it, and whether the server is draining. `/readyz` answers from it; requests that
//! need the store ask it first, so that while the store is known to be unusable they are
//! answered at once instead of queueing behind a store that cannot answer.
//!
//! The store is checked every [`CHECK_EVERY`] (a cheap [`GameStore::checkup`], on a
//! lane of its own, given [`CHECK_DEADLINE`] to answer). It is *down* from the first
//! check or request that finds it unreachable until a check answers again; the server
//! is *ready* while the store is up, has answered a check within [`FRESH`], and the
//! server is not draining. Each change between up and down is logged once, and so is
//! the cause a check finds after the store was first found silent (what an operator
//! needs to mend it).
//!
//! [`GameStore::checkup`]: tictactoe_core::ports::GameStore::checkup

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tictactoe_core::ports::StoreError;

use tictactoe_core::sync::lock;

/// How often the store is checked.
pub const CHECK_EVERY: Duration = Duration::from_millis(250);
/// How long a check may take before the store counts as unreachable.
pub const CHECK_DEADLINE: Duration = Duration::from_millis(500);
/// How recent the last good check must be for the server to be ready.
pub const FRESH: Duration = Duration::from_millis(1000);

/// Why the server is not ready.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotReady {
    /// The store failed its last check (or a request found it unreachable): why.
    StoreDown(String),
    /// No check has answered for this long.
    StoreSilent(Duration),
    /// The server was told to stop and is finishing its requests in flight.
    Draining,
}

/// The server's health, shared by its parts: a cheap handle.
#[derive(Clone)]
pub struct Health(Arc<State>);

struct State {
    store: Mutex<Store>,
    draining: AtomicBool,
}

struct Store {
    /// Why the store is down, since when, and whether only its silence is known;
    /// `None` while it is up.
    down: Option<(String, Instant, bool)>,
    /// When a check last answered.
    checked: Instant,
}

impl Default for Health {
    fn default() -> Self {
        Health::new()
    }
}

impl Health {
    /// A server whose store has just been opened (so it answered): ready.
    pub fn new() -> Self {
        Health(Arc::new(State {
            store: Mutex::new(Store {
                down: None,
                checked: Instant::now(),
            }),
            draining: AtomicBool::new(false),
        }))
    }

    /// Whether the server is ready to serve at `now`, and if not, why.
    pub fn readiness(&self, now: Instant) -> Result<(), NotReady> {
        if self.0.draining.load(Ordering::Acquire) {
            return Err(NotReady::Draining);
        }
        let store = lock(&self.0.store);
        if let Some((why, _, _)) = &store.down {
            return Err(NotReady::StoreDown(why.clone()));
        }
        let silent = now.saturating_duration_since(store.checked);
        if silent > FRESH {
            return Err(NotReady::StoreSilent(silent));
        }
        Ok(())
    }

    /// Why the store is down, if it is: a request that needs it is refused at once.
    pub fn store_down(&self) -> Option<String> {
        lock(&self.0.store)
            .down
            .as_ref()
            .map(|(why, _, _)| why.clone())
    }

    /// What a check of the store found.
    pub fn checked(&self, outcome: Result<(), CheckFailed>) {
        let now = Instant::now();
        let mut store = lock(&self.0.store);
        match outcome {
            Ok(()) => {
                store.checked = now;
                if let Some((why, since, _)) = store.down.take() {
                    let down_for = now.saturating_duration_since(since);
                    tracing::warn!(
                        down_ms = down_for.as_millis() as u64,
                        "the store answers again, after {:.1} s down ({why})",
                        down_for.as_secs_f64()
                    );
                }
            }
            Err(CheckFailed::Answered(why)) => mark_down(&mut store, why, now, false),
            Err(CheckFailed::Silent(why)) => mark_down(&mut store, why, now, true),
        }
    }

    /// What a request met in the store: an error that says the store cannot be
    /// reached marks it down until a check answers again; anything else (a full disk,
    /// a conflict, a damaged row) is that request's trouble alone.
    pub fn met(&self, error: &StoreError) {
        if let StoreError::Unavailable { .. } = error {
            mark_down(
                &mut lock(&self.0.store),
                error.to_string(),
                Instant::now(),
                false,
            );
        }
    }

    /// The server is stopping: not ready from now on.
    pub fn drain(&self) {
        self.0.draining.store(true, Ordering::Release);
    }
}

/// What a check that failed found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckFailed {
    /// The store answered with an error: its words.
    Answered(String),
    /// The store did not answer within [`CHECK_DEADLINE`].
    Silent(String),
}

/// The store is down for `why` (only `silent` so far, or a cause): said when it goes
/// down, and when a cause is found after a silence.
fn mark_down(store: &mut Store, why: String, now: Instant, silent: bool) {
    match &mut store.down {
        None => {
            tracing::error!(
                "the store cannot be used: {why}; refusing what needs it until it answers"
            );
            store.down = Some((why, now, silent));
        }
        Some((was, _, only_silent)) if *only_silent && !silent => {
            tracing::error!("the store cannot be used, and now says why: {why}");
            *was = why;
            *only_silent = false;
        }
        Some(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unreachable() -> StoreError {
        StoreError::Unavailable {
            database: "postgres://db/games".into(),
            detail: "Connection refused".into(),
        }
    }

    #[test]
    fn a_server_whose_store_was_just_opened_is_ready() {
        let health = Health::new();

        assert_eq!(health.readiness(Instant::now()), Ok(()));
    }

    #[test]
    fn a_failed_check_makes_the_store_down_until_a_check_answers() {
        // Arrange
        let health = Health::new();

        // Act
        health.checked(Err(CheckFailed::Answered("connection refused".into())));
        let while_down = health.readiness(Instant::now());
        health.checked(Ok(()));

        // Assert
        assert_eq!(
            while_down,
            Err(NotReady::StoreDown("connection refused".into()))
        );
        assert_eq!(health.readiness(Instant::now()), Ok(()));
        assert_eq!(health.store_down(), None);
    }

    #[test]
    fn a_cause_a_check_finds_after_the_store_was_silent_becomes_the_reason_it_is_down() {
        // Arrange
        let health = Health::new();
        health.checked(Err(CheckFailed::Silent("no answer within 500 ms".into())));

        // Act
        health.checked(Err(CheckFailed::Answered("the file was removed".into())));
        health.checked(Err(CheckFailed::Silent("no answer within 500 ms".into())));

        // Assert: the cause stays the reason; a later silence adds nothing.
        assert_eq!(health.store_down().as_deref(), Some("the file was removed"));
    }

    #[test]
    fn a_request_that_cannot_reach_the_store_marks_it_down() {
        let health = Health::new();

        health.met(&unreachable());

        assert!(health.store_down().unwrap().contains("Connection refused"));
    }

    #[test]
    fn a_request_refused_for_its_own_reasons_leaves_the_store_up() {
        let health = Health::new();

        health.met(&StoreError::Full {
            database: "games.db".into(),
        });

        assert_eq!(health.store_down(), None);
    }

    #[test]
    fn a_store_that_has_not_answered_a_check_for_long_is_not_ready() {
        let health = Health::new();

        let later = Instant::now() + FRESH + Duration::from_millis(10);

        assert!(matches!(
            health.readiness(later),
            Err(NotReady::StoreSilent(_))
        ));
    }

    #[test]
    fn a_draining_server_is_not_ready_whatever_its_store() {
        let health = Health::new();

        health.drain();

        assert_eq!(health.readiness(Instant::now()), Err(NotReady::Draining));
    }
}
