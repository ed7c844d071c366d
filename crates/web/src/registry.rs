//! The games the server holds, bounded: at most `max` at once, and games are forgotten
//! when finished and quiet for `finished`, or quiet for `idle` whatever their state.
//!
//! When a new game finds no room, finished games go first, those quiet longest first
//! and none quiet for less than `grace`: their players have seen the result, and a busy
//! server needs the room more. Room is made for a tenth of the cap at once, so a full
//! server looks through its games once per many new games, not once for each; and when
//! a look frees nothing, new games are refused without looking again for a moment, so
//! a crowd knocking at a full server costs it little.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::locks::lock;
use super::table::Table;

/// How long a full server whose look freed nothing refuses new games without looking.
const LOOK_AGAIN_AFTER: Duration = Duration::from_millis(250);

/// What the registry needs to know of a game it holds.
pub trait Held {
    fn key(&self) -> &str;
    fn is_over(&self) -> bool;
    /// How long nobody has touched it, at `now`.
    fn idle_for(&self, now: Instant) -> Duration;
}

impl Held for Table {
    fn key(&self) -> &str {
        self.id().as_str()
    }

    fn is_over(&self) -> bool {
        self.view().is_over()
    }

    fn idle_for(&self, now: Instant) -> Duration {
        Table::idle_for(self, now)
    }
}

pub struct Registry<T = Table> {
    held: Mutex<Inner<T>>,
    max: usize,
    idle: Duration,
    finished: Duration,
    grace: Duration,
}

struct Inner<T> {
    games: HashMap<String, Arc<T>>,
    /// While full and nothing could be freed: when to look again.
    full_until: Option<Instant>,
}

/// No room for another game, even after forgetting expired ones.
#[derive(Debug, PartialEq, Eq)]
pub struct Full;

impl<T: Held> Registry<T> {
    pub fn new(max: usize, idle: Duration, finished: Duration, grace: Duration) -> Self {
        Registry {
            held: Mutex::new(Inner {
                games: HashMap::new(),
                full_until: None,
            }),
            max: max.max(1),
            idle,
            finished,
            grace,
        }
    }

    /// Holds `game` if there is room at `now`, making room first if needed.
    pub fn insert(&self, game: Arc<T>, now: Instant) -> Result<(), Full> {
        let mut held = self.lock();
        if held.games.len() >= self.max {
            if held.full_until.is_some_and(|until| now < until) {
                return Err(Full);
            }
            self.make_room(&mut held.games, now);
            if held.games.len() >= self.max {
                held.full_until = Some(now + LOOK_AGAIN_AFTER);
                return Err(Full);
            }
            held.full_until = None;
        }
        held.games.insert(game.key().to_string(), game);
        Ok(())
    }

    pub fn get(&self, id: &str) -> Option<Arc<T>> {
        self.lock().games.get(id).cloned()
    }

    /// Forgets the games expired at `now`; returns how many.
    pub fn sweep(&self, now: Instant) -> usize {
        self.drop_expired(&mut self.lock().games, now)
    }

    pub fn len(&self) -> usize {
        self.lock().games.len()
    }

    /// Forgets the expired games, then finished games quiet for `grace` or more,
    /// quietest first, until a tenth of the cap is free (or no such game is left).
    fn make_room(&self, games: &mut HashMap<String, Arc<T>>, now: Instant) {
        self.drop_expired(games, now);
        let keep = self.max - (self.max / 10).max(1);
        if games.len() <= keep {
            return;
        }
        let excess = games.len() - keep;
        let mut finished: Vec<(Duration, String)> = games
            .values()
            .filter(|game| game.is_over())
            .map(|game| (game.idle_for(now), game.key().to_string()))
            .filter(|(quiet, _)| *quiet >= self.grace)
            .collect();
        if finished.len() > excess {
            finished.select_nth_unstable_by(excess, |a, b| b.0.cmp(&a.0));
            finished.truncate(excess);
        }
        for (_, key) in finished {
            games.remove(&key);
        }
    }

    /// Forgets games idle for `idle`, and finished games quiet for `finished`.
    fn drop_expired(&self, games: &mut HashMap<String, Arc<T>>, now: Instant) -> usize {
        let before = games.len();
        games.retain(|_, game| {
            let limit = if game.is_over() {
                self.finished
            } else {
                self.idle
            };
            game.idle_for(now) < limit
        });
        before - games.len()
    }

    fn lock(&self) -> MutexGuard<'_, Inner<T>> {
        lock(&self.held)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// A game as the registry sees it: its key, whether it is over, and since when it
    /// has been quiet. Counts how often the registry looks at it.
    struct Game {
        key: String,
        over: bool,
        quiet_since: Instant,
        looked_at: Arc<AtomicUsize>,
    }

    impl Held for Game {
        fn key(&self) -> &str {
            &self.key
        }

        fn is_over(&self) -> bool {
            self.looked_at.fetch_add(1, Ordering::Relaxed);
            self.over
        }

        fn idle_for(&self, now: Instant) -> Duration {
            now.saturating_duration_since(self.quiet_since)
        }
    }

    const HOUR: Duration = Duration::from_secs(3600);
    const GRACE: Duration = Duration::from_secs(5);

    struct Fixture {
        registry: Registry<Game>,
        start: Instant,
        looked_at: Arc<AtomicUsize>,
    }

    /// Room for `max` games that expire only after an hour, with a 5 s grace.
    fn registry(max: usize) -> Fixture {
        Fixture {
            registry: Registry::new(max, HOUR, HOUR, GRACE),
            start: Instant::now(),
            looked_at: Arc::new(AtomicUsize::new(0)),
        }
    }

    impl Fixture {
        /// Holds game `key`, quiet since `quiet_at` seconds after the start.
        fn hold(&self, key: &str, over: bool, quiet_at: u64) -> Result<(), Full> {
            let game = Game {
                key: key.to_string(),
                over,
                quiet_since: self.start + Duration::from_secs(quiet_at),
                looked_at: Arc::clone(&self.looked_at),
            };
            self.registry
                .insert(Arc::new(game), self.start + Duration::from_secs(quiet_at))
        }

        fn at(&self, seconds: u64) -> Instant {
            self.start + Duration::from_secs(seconds)
        }

        fn holds(&self, key: &str) -> bool {
            self.registry.get(key).is_some()
        }
    }

    #[test]
    fn a_new_game_is_refused_when_every_held_game_is_being_played() {
        let fixture = registry(2);
        fixture.hold("a", false, 0).unwrap();
        fixture.hold("b", false, 0).unwrap();

        let refused = fixture.hold("c", false, 100);

        assert_eq!(refused, Err(Full));
        assert!(fixture.holds("a") && fixture.holds("b"));
    }

    #[test]
    fn a_full_registry_forgets_the_finished_game_quiet_longest() {
        // Arrange: ten games, all finished, quiet since seconds 0 to 9.
        let fixture = registry(10);
        for n in 0..10 {
            fixture.hold(&format!("g{n}"), true, n).unwrap();
        }

        // Act: at second 20, every one is past its grace.
        fixture.hold("new", false, 20).unwrap();

        // Assert: a tenth of the cap (one game) made room: the oldest.
        assert!(!fixture.holds("g0"));
        assert!((1..10).all(|n| fixture.holds(&format!("g{n}"))));
        assert!(fixture.holds("new"));
    }

    #[test]
    fn a_finished_game_within_its_grace_is_kept_even_when_full() {
        let fixture = registry(1);
        fixture.hold("just-finished", true, 0).unwrap();

        let refused = fixture.hold("new", false, 4);

        assert_eq!(refused, Err(Full));
        assert!(fixture.holds("just-finished"));
    }

    #[test]
    fn room_is_made_for_a_tenth_of_the_cap_at_once() {
        // Arrange: 100 finished games, long quiet.
        let fixture = registry(100);
        for n in 0..100 {
            fixture.hold(&format!("g{n}"), true, 0).unwrap();
        }

        // Act
        fixture.hold("new", false, 60).unwrap();

        // Assert: ten forgotten, so the next nine new games need no look at all.
        assert_eq!(fixture.registry.len(), 91);
    }

    #[test]
    fn a_full_registry_that_freed_nothing_does_not_look_again_at_once() {
        // Arrange: full of games being played, and one look that freed nothing.
        let fixture = registry(50);
        for n in 0..50 {
            fixture.hold(&format!("g{n}"), false, 0).unwrap();
        }
        assert_eq!(fixture.hold("first", false, 10), Err(Full));
        let looks = fixture.looked_at.load(Ordering::Relaxed);

        // Act: a crowd knocks within the same moment.
        for n in 0..100 {
            let _ = fixture.hold(&format!("knock{n}"), false, 10);
        }

        // Assert
        assert_eq!(fixture.looked_at.load(Ordering::Relaxed), looks);
    }

    #[test]
    fn a_full_registry_looks_again_after_a_moment() {
        // Arrange: room for one game, held by a game that has just finished, so a new
        // game is refused.
        let fixture = registry(1);
        fixture.hold("a", true, 0).unwrap();
        assert_eq!(fixture.hold("early", false, 1), Err(Full));

        // Act: once its grace, and the moment without looking, have passed.
        let later = fixture.hold("later", false, 6);

        // Assert
        assert_eq!(later, Ok(()));
        assert!(!fixture.holds("a"));
    }

    #[test]
    fn a_game_is_forgotten_the_moment_its_quiet_time_is_up() {
        let fixture = registry(10);
        fixture.hold("finished", true, 0).unwrap();

        let forgotten = fixture.registry.sweep(fixture.at(3600));

        assert_eq!(forgotten, 1);
    }

    #[test]
    fn a_full_registry_looks_again_exactly_a_quarter_second_after_a_look_that_freed_nothing() {
        // Arrange: room for one game, held by a game finished at 0 s (grace 5 s); a new
        // game refused at 4.9 s.
        let fixture = registry(1);
        fixture.hold("a", true, 0).unwrap();
        let refused_at = fixture.at(5) - Duration::from_millis(100);
        let game = |key: &str| {
            Arc::new(Game {
                key: key.to_string(),
                over: false,
                quiet_since: refused_at,
                looked_at: Arc::clone(&fixture.looked_at),
            })
        };
        assert_eq!(
            fixture.registry.insert(game("early"), refused_at),
            Err(Full)
        );

        // Act: 250 ms later, "a" is past its grace.
        let later = fixture
            .registry
            .insert(game("later"), refused_at + LOOK_AGAIN_AFTER);

        // Assert
        assert_eq!(later, Ok(()));
    }

    #[test]
    fn a_sweep_forgets_games_idle_or_finished_past_their_time() {
        // Arrange: an hour for both limits.
        let fixture = registry(10);
        fixture.hold("playing-old", false, 0).unwrap();
        fixture.hold("finished-old", true, 0).unwrap();
        fixture.hold("playing-new", false, 3000).unwrap();

        // Act
        let forgotten = fixture.registry.sweep(fixture.at(3700));

        // Assert
        assert_eq!(forgotten, 2);
        assert!(fixture.holds("playing-new"));
    }
}
