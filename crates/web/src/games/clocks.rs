//! Games on a clock, ended on time by the server, their only judge. Each request
//! judges its game first (`Table::request`), but a player who stops moving sends no
//! request: so every game this server holds is ended at its deadline (the earliest
//! deadline is waited for, [`Deadlines`]), and the store is asked, every
//! `GameLimits::overdue_every`, for games whose time ran out that nobody ended (their
//! server stopped, or forgot them), which are read back here and ended.
//!
//! Ending a game on time is a request like any other: in the game's turn, kept before it
//! is shown. Two servers ending the same game race as two moves do, and the store keeps
//! one ending.

use std::collections::{BTreeSet, HashMap};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use tokio::sync::Notify;

use tictactoe_core::ports::GameId;
use tictactoe_core::sync::lock;

use super::super::table::Table;
use super::Games;

/// How long after a deadline the store's games are looked for: a game held by a server
/// that is alive is ended by that server at its deadline, so the others leave it that
/// long before racing it.
const GRACE: Duration = Duration::from_millis(250);

/// The overdue games read back at most per look at the store.
const OVERDUE_AT_ONCE: usize = 256;

/// When each game held on a clock is over unless its side to move moves, earliest first.
#[derive(Default)]
pub(super) struct Deadlines {
    due: Mutex<Due>,
    /// Told when a deadline earlier than every other is set.
    earlier: Notify,
}

#[derive(Default)]
struct Due {
    by_game: HashMap<GameId, SystemTime>,
    by_time: BTreeSet<(SystemTime, GameId)>,
}

impl Deadlines {
    /// Game `game`'s deadline is `deadline` from now on (`None`: it has none, or is over).
    fn set(&self, game: &GameId, deadline: Option<SystemTime>) {
        let mut due = lock(&self.due);
        if let Some(old) = due.by_game.remove(game) {
            due.by_time.remove(&(old, game.clone()));
        }
        let Some(deadline) = deadline else {
            return;
        };
        let earliest = due
            .by_time
            .first()
            .is_none_or(|(first, _)| deadline < *first);
        due.by_game.insert(game.clone(), deadline);
        due.by_time.insert((deadline, game.clone()));
        drop(due);
        if earliest {
            self.earlier.notify_one();
        }
    }

    fn earliest(&self) -> Option<SystemTime> {
        lock(&self.due)
            .by_time
            .first()
            .map(|(deadline, _)| *deadline)
    }

    /// The games whose deadline is `now` or earlier, forgotten here.
    fn take_due(&self, now: SystemTime) -> Vec<GameId> {
        let mut due = lock(&self.due);
        let mut games = Vec::new();
        while let Some((deadline, game)) = due.by_time.first().cloned() {
            if deadline > now {
                break;
            }
            due.by_time.pop_first();
            due.by_game.remove(&game);
            games.push(game);
        }
        games
    }
}

impl Games {
    /// The deadline of `table`'s game as it now stands is waited for.
    pub(super) fn follow_deadline(&self, table: &Table) {
        self.0.deadlines.set(table.id(), table.deadline());
    }

    /// Ends game `id` on time if its clock says so now: read back if not held.
    pub(super) async fn end_if_overdue(&self, id: &GameId) {
        let ended = async {
            let (table, turn) = self.turn(id).await?;
            let due = turn.game.end().is_none()
                && turn
                    .clock
                    .is_some_and(|clock| clock.overdue(SystemTime::now()).is_some());
            if due {
                // Judged in the turn, as every request is (`Table::request`).
                self.run(&table, turn, |_| Ok(())).await?;
            }
            Ok::<_, super::super::port::GameError>(())
        }
        .await;
        if let Err(error) = ended {
            tracing::warn!(game = %id, "ending a game on time: {error}");
        }
    }

    /// Until the server stops: ends each game held at its deadline, and looks in the
    /// store for games overdue that nobody ended (see the module documentation).
    pub(super) fn spawn_clocks(&self) {
        let games = self.clone();
        let mut closing = self.0.closing.subscribe();
        tokio::spawn(async move {
            loop {
                let wait = games
                    .0
                    .deadlines
                    .earliest()
                    .map_or(Duration::MAX, |deadline| {
                        deadline
                            .duration_since(SystemTime::now())
                            .unwrap_or_default()
                    });
                tokio::select! {
                    () = tokio::time::sleep(wait.min(Duration::from_secs(3600))) => {}
                    () = games.0.deadlines.earlier.notified() => continue,
                    _ = closing.wait_for(|closed| *closed) => break,
                }
                for id in games.0.deadlines.take_due(SystemTime::now()) {
                    let games = games.clone();
                    tokio::spawn(async move { games.end_if_overdue(&id).await });
                }
            }
        });
        let games = self.clone();
        let said = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        self.until_closing(self.0.limits.overdue_every, move || {
            let games = games.clone();
            let said = std::sync::Arc::clone(&said);
            async move {
                use std::sync::atomic::Ordering;
                let before = SystemTime::now() - GRACE;
                let overdue = games
                    .0
                    .store
                    .read(move |store| store.overdue(before, OVERDUE_AT_ONCE))
                    .await;
                match overdue {
                    Ok(overdue) => {
                        said.store(false, Ordering::Relaxed);
                        // All at once: their ends go to the store's writer together, so
                        // a server that died leaves no queue of games ended one by one.
                        let ending = overdue.iter().map(|id| games.end_if_overdue(id));
                        futures_util::future::join_all(ending).await;
                    }
                    Err(_) if games.health().store_down().is_some() => {}
                    Err(error) => {
                        if !said.swap(true, Ordering::Relaxed) {
                            tracing::warn!("looking for games overdue: {error}");
                        }
                    }
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ms: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_millis(ms)
    }

    #[test]
    fn the_games_due_are_taken_earliest_first_and_only_once() {
        let deadlines = Deadlines::default();
        deadlines.set(&GameId::from_bits(1), Some(at(300)));
        deadlines.set(&GameId::from_bits(2), Some(at(100)));
        deadlines.set(&GameId::from_bits(3), Some(at(900)));

        let due = deadlines.take_due(at(300));

        assert_eq!(due, [GameId::from_bits(2), GameId::from_bits(1)]);
        assert_eq!(deadlines.take_due(at(300)), []);
        assert_eq!(deadlines.earliest(), Some(at(900)));
    }

    #[test]
    fn a_new_deadline_replaces_the_games_last_one() {
        let deadlines = Deadlines::default();
        deadlines.set(&GameId::from_bits(1), Some(at(100)));

        deadlines.set(&GameId::from_bits(1), Some(at(500)));

        assert_eq!(deadlines.take_due(at(400)), []);
        assert_eq!(deadlines.earliest(), Some(at(500)));
    }

    #[test]
    fn a_game_over_has_no_deadline() {
        let deadlines = Deadlines::default();
        deadlines.set(&GameId::from_bits(1), Some(at(100)));

        deadlines.set(&GameId::from_bits(1), None);

        assert_eq!(deadlines.earliest(), None);
    }
}
