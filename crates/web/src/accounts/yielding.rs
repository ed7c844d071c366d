//! Passwords hashed on a thread of their own that yields the processor to everything
//! else the server does. A hash costs tens of milliseconds of a core, and a sign-in
//! or sign-up is worth waiting for where a move is not: on Linux the thread asks for
//! a nice value of 10, so that while a burst of sign-ins (or a password-guessing
//! script, within its throttle) keeps it busy, the players' moves are scheduled first.
//! The answers are the same as the inner adapter's; only when they are computed
//! changes.

use std::sync::Arc;
use std::sync::mpsc::{self, SendError, Sender};
use std::thread;

use tictactoe_core::domain::Password;
use tictactoe_core::ports::{PasswordHash, Passwords};

use super::super::thinking::lower_priority;

type Job = Box<dyn FnOnce() + Send>;

/// [`Passwords`] whose work is done by `inner` on the passwords' own thread, each
/// caller waiting for its answer.
pub struct Yielding {
    inner: Arc<dyn Passwords>,
    jobs: Option<Sender<Job>>,
}

impl Yielding {
    /// `inner`'s work moved to a thread started here; if no thread can be started,
    /// the work is done on the caller's thread, as `inner` alone would.
    pub fn new(inner: Arc<dyn Passwords>) -> Self {
        let (jobs, queue) = mpsc::channel::<Job>();
        let started = thread::Builder::new()
            .name("passwords".into())
            .spawn(move || {
                lower_priority();
                for job in queue {
                    job();
                }
            });
        Yielding {
            inner,
            jobs: started.ok().map(|_| jobs),
        }
    }

    fn run<T: Send + 'static>(&self, work: impl FnOnce(&dyn Passwords) -> T + Send + 'static) -> T {
        let inner = Arc::clone(&self.inner);
        let (answer, answered) = mpsc::sync_channel(1);
        let job: Job = Box::new(move || {
            let _ = answer.send(work(inner.as_ref()));
        });
        match &self.jobs {
            Some(jobs) => {
                if let Err(SendError(job)) = jobs.send(job) {
                    job();
                }
            }
            None => job(),
        }
        answered
            .recv()
            .expect("the passwords' thread answers every job it takes")
    }
}

impl Passwords for Yielding {
    fn hash(&self, password: &Password) -> PasswordHash {
        let password = password.clone();
        self.run(move |inner| inner.hash(&password))
    }

    fn verify(&self, password: &Password, hash: &PasswordHash) -> bool {
        let (password, hash) = (password.clone(), hash.clone());
        self.run(move |inner| inner.verify(&password, &hash))
    }

    fn dummy_verify(&self, password: &Password) {
        let password = password.clone();
        self.run(move |inner| inner.dummy_verify(&password));
    }
}

#[cfg(test)]
mod tests {
    use tictactoe_core::fixtures::password;
    use tictactoe_core::ports::MockPasswords;

    use super::*;

    #[test]
    fn a_hash_is_the_inner_adapters_made_on_the_passwords_thread() {
        // Arrange
        let mut inner = MockPasswords::new();
        inner
            .expect_hash()
            .withf(|password| *password == Password::new("correct horse").unwrap())
            .times(1)
            .returning(|_| {
                assert_eq!(thread::current().name(), Some("passwords"));
                PasswordHash::parse("$argon2id$made").unwrap()
            });
        let yielding = Yielding::new(Arc::new(inner));

        // Act
        let hash = yielding.hash(&password());

        // Assert
        assert_eq!(hash, PasswordHash::parse("$argon2id$made").unwrap());
    }

    #[test]
    fn a_verdict_is_the_inner_adapters() {
        // Arrange
        let mut inner = MockPasswords::new();
        inner.expect_verify().times(1).returning(|_, _| true);
        let yielding = Yielding::new(Arc::new(inner));

        // Act
        let verdict = yielding.verify(&password(), &PasswordHash::parse("$argon2id$kept").unwrap());

        // Assert
        assert!(verdict);
    }

    #[test]
    fn an_unknown_names_check_is_done_by_the_inner_adapter() {
        // Arrange
        let mut inner = MockPasswords::new();
        inner.expect_dummy_verify().times(1).return_const(());
        let yielding = Yielding::new(Arc::new(inner));

        // Act
        yielding.dummy_verify(&password());

        // Assert: the mock's expectation, checked when it is dropped.
    }
}
