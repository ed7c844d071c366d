//! The games the server holds in memory, bounded: a cache of the store. At most `max`
//! at once; a game is forgotten when finished and quiet for `finished`, or quiet for
//! `idle` whatever its state, and read back from the store when next asked for.
//!
//! When a new game finds no room, room is made: finished games quiet for `grace` or
//! more go first, those quiet longest first (their players have seen the result), then
//! any other game, again the quietest first: a game in progress is in the store, and is
//! read back on its next request. Room is made for a tenth of the cap at once, so a
//! full cache looks through its games once per many new games, not once for each. A
//! new game is never refused for want of room.

use std::cmp::Reverse;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::table::Table;
use tictactoe_core::sync::lock;

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
    games: Mutex<HashMap<String, Arc<T>>>,
    max: usize,
    idle: Duration,
    finished: Duration,
    grace: Duration,
}

impl<T: Held> Registry<T> {
    pub fn new(max: usize, idle: Duration, finished: Duration, grace: Duration) -> Self {
        Registry {
            games: Mutex::new(HashMap::new()),
            max: max.max(1),
            idle,
            finished,
            grace,
        }
    }

    /// Holds `game`, making room first at `now` if the cache is full.
    pub fn insert(&self, game: Arc<T>, now: Instant) {
        let mut games = self.lock();
        if games.len() >= self.max && !games.contains_key(game.key()) {
            self.make_room(&mut games, now);
        }
        games.insert(game.key().to_string(), game);
    }

    pub fn get(&self, id: &str) -> Option<Arc<T>> {
        self.lock().get(id).cloned()
    }

    /// Whether `game` itself (not another copy of the same game) is held.
    pub fn holds(&self, game: &Arc<T>) -> bool {
        self.lock()
            .get(game.key())
            .is_some_and(|held| Arc::ptr_eq(held, game))
    }

    /// Forgets `game`, if it is the one held under its key.
    pub fn remove(&self, game: &Arc<T>) {
        let mut games = self.lock();
        if games
            .get(game.key())
            .is_some_and(|held| Arc::ptr_eq(held, game))
        {
            games.remove(game.key());
        }
    }

    /// Forgets the games expired at `now`; returns how many.
    pub fn sweep(&self, now: Instant) -> usize {
        self.drop_expired(&mut self.lock(), now)
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Forgets every game, handing each to `forget` (to mark it stale): what another
    /// server changed while news of it was lost must be read again.
    pub fn clear(&self, forget: impl Fn(&T)) {
        for (_, game) in self.lock().drain() {
            forget(&game);
        }
    }

    /// Forgets the expired games, then others, finished ones past their grace first,
    /// each group quietest first, until a tenth of the cap is free.
    fn make_room(&self, games: &mut HashMap<String, Arc<T>>, now: Instant) {
        self.drop_expired(games, now);
        let keep = self.max - (self.max / 10).max(1);
        if games.len() <= keep {
            return;
        }
        let excess = games.len() - keep;
        // Lowest first: finished past its grace before anything else, then the
        // quietest.
        let mut ranked: Vec<((bool, Reverse<Duration>), String)> = games
            .values()
            .map(|game| {
                let quiet = game.idle_for(now);
                let first = game.is_over() && quiet >= self.grace;
                ((!first, Reverse(quiet)), game.key().to_string())
            })
            .collect();
        if ranked.len() > excess {
            ranked.select_nth_unstable_by(excess - 1, |a, b| a.0.cmp(&b.0));
            ranked.truncate(excess);
        }
        for (_, key) in ranked {
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

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Arc<T>>> {
        lock(&self.games)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game as the registry sees it: its key, whether it is over, and since when it
    /// has been quiet.
    struct Game {
        key: String,
        over: bool,
        quiet_since: Instant,
    }

    impl Held for Game {
        fn key(&self) -> &str {
            &self.key
        }

        fn is_over(&self) -> bool {
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
    }

    /// Room for `max` games that expire only after an hour, with a 5 s grace.
    fn registry(max: usize) -> Fixture {
        Fixture {
            registry: Registry::new(max, HOUR, HOUR, GRACE),
            start: Instant::now(),
        }
    }

    impl Fixture {
        fn game(&self, key: &str, over: bool, quiet_at: u64) -> Arc<Game> {
            Arc::new(Game {
                key: key.to_string(),
                over,
                quiet_since: self.start + Duration::from_secs(quiet_at),
            })
        }

        /// Holds game `key`, quiet since `quiet_at` seconds after the start.
        fn hold(&self, key: &str, over: bool, quiet_at: u64) {
            self.registry.insert(
                self.game(key, over, quiet_at),
                self.start + Duration::from_secs(quiet_at),
            );
        }

        fn at(&self, seconds: u64) -> Instant {
            self.start + Duration::from_secs(seconds)
        }

        fn holds(&self, key: &str) -> bool {
            self.registry.get(key).is_some()
        }
    }

    #[test]
    fn a_full_cache_of_games_being_played_forgets_the_quietest_to_hold_a_new_one() {
        let fixture = registry(2);
        fixture.hold("a", false, 0);
        fixture.hold("b", false, 10);

        fixture.hold("c", false, 100);

        assert!(!fixture.holds("a"));
        assert!(fixture.holds("b") && fixture.holds("c"));
    }

    #[test]
    fn a_full_cache_forgets_the_finished_game_quiet_longest_first() {
        // Arrange: ten games, all finished, quiet since seconds 0 to 9.
        let fixture = registry(10);
        for n in 0..10 {
            fixture.hold(&format!("g{n}"), true, n);
        }

        // Act: at second 20, every one is past its grace.
        fixture.hold("new", false, 20);

        // Assert: a tenth of the cap (one game) made room: the oldest.
        assert!(!fixture.holds("g0"));
        assert!((1..10).all(|n| fixture.holds(&format!("g{n}"))));
        assert!(fixture.holds("new"));
    }

    #[test]
    fn a_finished_game_past_its_grace_goes_before_a_quieter_game_being_played() {
        // Arrange: a game being played, quiet since 0; a game finished at 1.
        let fixture = registry(2);
        fixture.hold("playing", false, 0);
        fixture.hold("finished", true, 1);

        // Act: at 10 s, the finished game is past its grace.
        fixture.hold("new", false, 10);

        // Assert
        assert!(fixture.holds("playing"));
        assert!(!fixture.holds("finished"));
    }

    #[test]
    fn a_game_finished_within_its_grace_goes_only_in_its_turn_by_quiet() {
        // Arrange: a game being played, quiet since 0; a game just finished at 8.
        let fixture = registry(2);
        fixture.hold("playing", false, 0);
        fixture.hold("just-finished", true, 8);

        // Act
        fixture.hold("new", false, 10);

        // Assert
        assert!(fixture.holds("just-finished"));
        assert!(!fixture.holds("playing"));
    }

    #[test]
    fn room_is_made_for_a_tenth_of_the_cap_at_once() {
        // Arrange: 100 games being played.
        let fixture = registry(100);
        for n in 0..100 {
            fixture.hold(&format!("g{n}"), false, n);
        }

        // Act
        fixture.hold("new", false, 200);

        // Assert: ten forgotten (the quietest), so the next nine new games need no look.
        assert_eq!(fixture.registry.len(), 91);
        assert!((0..10).all(|n| !fixture.holds(&format!("g{n}"))));
        assert!((10..100).all(|n| fixture.holds(&format!("g{n}"))));
    }

    #[test]
    fn a_game_is_forgotten_the_moment_its_quiet_time_is_up() {
        let fixture = registry(10);
        fixture.hold("finished", true, 0);

        let forgotten = fixture.registry.sweep(fixture.at(3600));

        assert_eq!(forgotten, 1);
    }

    #[test]
    fn a_sweep_forgets_games_idle_or_finished_past_their_time() {
        // Arrange: an hour for both limits.
        let fixture = registry(10);
        fixture.hold("playing-old", false, 0);
        fixture.hold("finished-old", true, 0);
        fixture.hold("playing-new", false, 3000);

        // Act
        let forgotten = fixture.registry.sweep(fixture.at(3700));

        // Assert
        assert_eq!(forgotten, 2);
        assert!(fixture.holds("playing-new"));
    }

    #[test]
    fn removing_a_copy_leaves_the_game_held_under_its_key() {
        // Arrange: "a" held; another copy of "a", as a stale table would be.
        let fixture = registry(10);
        let held = fixture.game("a", false, 0);
        fixture.registry.insert(Arc::clone(&held), fixture.at(0));
        let copy = fixture.game("a", false, 0);

        // Act
        fixture.registry.remove(&copy);

        // Assert
        assert!(fixture.registry.holds(&held));
        assert!(!fixture.registry.holds(&copy));
    }
}
