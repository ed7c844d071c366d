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

    /// Forgets every game: what another server changed while news of it was lost must
    /// be read again.
    pub fn clear(&self) {
        self.lock().clear();
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

        /// Holds `games` games, g0, g1, ..., each quiet since the second of its number.
        fn hold_numbered(&self, games: u64, over: bool) {
            for n in 0..games {
                self.hold(&format!("g{n}"), over, n);
            }
        }

        /// Whether the games numbered `numbers` ([`Fixture::hold_numbered`]) are all held
        /// (`true`) or all forgotten (`false`).
        fn numbered_held(&self, numbers: std::ops::Range<u64>) -> Option<bool> {
            let held: Vec<bool> = numbers.map(|n| self.holds(&format!("g{n}"))).collect();
            held.iter().all(|h| *h == held[0]).then_some(held[0])
        }
    }

    /// Ten games, quiet since seconds 0 to 9, being played or all finished (at second
    /// 20, past their grace): a tenth of the cap (one game) makes room, the quietest.
    #[rstest::rstest]
    #[case::being_played(false)]
    #[case::finished(true)]
    fn a_full_cache_forgets_the_quietest_game_to_hold_a_new_one(#[case] finished: bool) {
        // Arrange
        let fixture = registry(10);
        fixture.hold_numbered(10, finished);

        // Act
        fixture.hold("new", false, 20);

        // Assert
        assert_eq!(fixture.numbered_held(0..1), Some(false));
        assert_eq!(fixture.numbered_held(1..10), Some(true));
        assert!(fixture.holds("new"));
    }

    /// At 10 s, a game being played quiet since 0 and a game finished at `finished_at`:
    /// past its grace (5 s), the finished game goes first; within it, the quieter.
    #[rstest::rstest]
    #[case::past_its_grace(1, "finished", "playing")]
    #[case::within_its_grace(8, "playing", "finished")]
    fn a_finished_game_goes_before_a_game_being_played_once_past_its_grace(
        #[case] finished_at: u64,
        #[case] forgotten: &str,
        #[case] kept: &str,
    ) {
        // Arrange
        let fixture = registry(2);
        fixture.hold("playing", false, 0);
        fixture.hold("finished", true, finished_at);

        // Act
        fixture.hold("new", false, 10);

        // Assert
        assert!(!fixture.holds(forgotten));
        assert!(fixture.holds(kept));
    }

    #[test]
    fn room_is_made_for_a_tenth_of_the_cap_at_once() {
        // Arrange: 100 games being played.
        let fixture = registry(100);
        fixture.hold_numbered(100, false);

        // Act
        fixture.hold("new", false, 200);

        // Assert: ten forgotten (the quietest), so the next nine new games need no look.
        assert_eq!(fixture.registry.len(), 91);
        assert_eq!(fixture.numbered_held(0..10), Some(false));
        assert_eq!(fixture.numbered_held(10..100), Some(true));
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
