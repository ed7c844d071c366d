//! Names lately found to be nobody's: no account has them or one like them. A guest
//! may play under such a name, and a game started by a guest asks the store whether
//! the name is an account's; the same players start game after game under the same
//! names, so the store's answer "nobody's" is kept here for [`NOBODYS_FOR`] and not
//! asked again meanwhile. (Asking costs a hand-off to a store thread and back: about a
//! twentieth of a move's whole cost under load, docs/performance.md.)
//!
//! Only "nobody's" is kept: a name found to be an account's is asked again each time.
//! A sign-up on this server forgets every name kept ([`NobodysNames::forget_all`]),
//! also one being asked about as it signs up, so here an account's name is refused to
//! guests from the moment it is signed up. An account signed up on another server
//! sharing the store, or with `tictactoe accounts add`, is refused to guests here
//! within [`NOBODYS_FOR`]. (A guest's game is never rated either way.)

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tictactoe_core::domain::PlayerName;
use tictactoe_core::sync::lock;

/// How long a name found to be nobody's is believed without asking the store again.
pub const NOBODYS_FOR: Duration = Duration::from_secs(5);

/// Names kept at most; past them, all are forgotten and asked about again.
const MOST_KEPT: usize = 10_000;

/// See the module documentation.
#[derive(Default)]
pub struct NobodysNames(Mutex<Kept>);

#[derive(Default)]
struct Kept {
    /// Bumped by each sign-up here: an answer asked for before it is not kept.
    sign_ups: u64,
    /// Each name's likeness, and when the store was asked about it.
    names: HashMap<String, Instant>,
}

/// A question to the store about a name, begun: what [`NobodysNames::nobodys`] needs
/// to keep its answer.
pub struct Asking {
    likeness: String,
    sign_ups: u64,
    at: Instant,
}

impl NobodysNames {
    /// Whether `name` was found to be nobody's within [`NOBODYS_FOR`] of `now`
    /// (`Ok`); if not, the question to ask the store (`Err`).
    pub fn known(&self, name: &PlayerName, now: Instant) -> Result<(), Asking> {
        let likeness = name.likeness();
        let kept = lock(&self.0);
        match kept.names.get(&likeness) {
            Some(&asked) if now.saturating_duration_since(asked) < NOBODYS_FOR => Ok(()),
            _ => Err(Asking {
                likeness,
                sign_ups: kept.sign_ups,
                at: now,
            }),
        }
    }

    /// The store answered `asking`: the name is nobody's. Kept unless someone signed up
    /// here since the question was asked.
    pub fn nobodys(&self, asking: Asking) {
        let mut kept = lock(&self.0);
        if kept.sign_ups != asking.sign_ups {
            return;
        }
        if kept.names.len() >= MOST_KEPT {
            kept.names.clear();
        }
        kept.names.insert(asking.likeness, asking.at);
    }

    /// Someone signed up here: every name is asked about again.
    pub fn forget_all(&self) {
        let mut kept = lock(&self.0);
        kept.sign_ups += 1;
        kept.names.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(text: &str) -> PlayerName {
        PlayerName::new(text).expect("a valid name")
    }

    #[test]
    fn a_name_never_asked_about_is_to_be_asked() {
        let names = NobodysNames::default();

        assert!(names.known(&name("Ada"), Instant::now()).is_err());
    }

    #[test]
    fn a_name_found_nobodys_is_known_until_its_time_is_up() {
        let names = NobodysNames::default();
        let start = Instant::now();
        let asking = names.known(&name("Ada"), start).unwrap_err();

        names.nobodys(asking);

        assert!(names.known(&name("Ada"), start + NOBODYS_FOR / 2).is_ok());
        assert!(names.known(&name("Ada"), start + NOBODYS_FOR).is_err());
    }

    #[test]
    fn a_look_alike_of_a_name_found_nobodys_is_known_too() {
        let names = NobodysNames::default();
        let start = Instant::now();
        names.nobodys(names.known(&name("Ada"), start).unwrap_err());

        let cyrillic_a = names.known(&name("\u{410}da"), start);

        assert!(cyrillic_a.is_ok());
    }

    #[test]
    fn a_sign_up_forgets_every_name_found_nobodys() {
        let names = NobodysNames::default();
        let start = Instant::now();
        names.nobodys(names.known(&name("Ada"), start).unwrap_err());

        names.forget_all();

        assert!(names.known(&name("Ada"), start).is_err());
    }

    #[test]
    fn an_answer_asked_for_before_a_sign_up_is_not_kept() {
        let names = NobodysNames::default();
        let start = Instant::now();
        let asking = names.known(&name("Ada"), start).unwrap_err();
        names.forget_all();

        names.nobodys(asking);

        assert!(names.known(&name("Ada"), start).is_err());
    }
}
