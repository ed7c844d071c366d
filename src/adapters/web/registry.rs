//! The games the server holds, bounded: at most `max` at once, and games are forgotten
//! when finished and quiet for `finished`, or quiet for `idle` whatever their state.
//! When a new game finds no room, finished games quiet for `grace` go first: their
//! players have seen the result, and a busy server needs the room more.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::table::Table;

pub struct Registry {
    tables: Mutex<HashMap<String, Arc<Table>>>,
    max: usize,
    idle: Duration,
    finished: Duration,
    grace: Duration,
}

/// No room for another game, even after forgetting expired ones.
#[derive(Debug, PartialEq, Eq)]
pub struct Full;

impl Registry {
    pub fn new(max: usize, idle: Duration, finished: Duration, grace: Duration) -> Self {
        Registry {
            tables: Mutex::new(HashMap::new()),
            max,
            idle,
            finished,
            grace,
        }
    }

    /// Holds `table` if there is room, making room from expired games first if needed.
    pub fn insert(&self, table: Arc<Table>) -> Result<(), Full> {
        let mut tables = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        if tables.len() >= self.max {
            self.drop_expired(&mut tables, now, self.finished);
        }
        if tables.len() >= self.max {
            self.drop_expired(&mut tables, now, self.grace);
        }
        if tables.len() >= self.max {
            return Err(Full);
        }
        tables.insert(table.id().to_string(), table);
        Ok(())
    }

    pub fn get(&self, id: &str) -> Option<Arc<Table>> {
        let tables = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
        tables.get(id).cloned()
    }

    /// Forgets the games expired at `now`; returns how many.
    pub fn sweep(&self, now: Instant) -> usize {
        let mut tables = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
        self.drop_expired(&mut tables, now, self.finished)
    }

    pub fn len(&self) -> usize {
        self.tables
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Forgets games idle for `idle`, and finished games quiet for `finished`.
    fn drop_expired(
        &self,
        tables: &mut HashMap<String, Arc<Table>>,
        now: Instant,
        finished: Duration,
    ) -> usize {
        let before = tables.len();
        tables.retain(|_, table| {
            let quiet = table.idle_for(now);
            let limit = if table.view().is_over() {
                finished
            } else {
                self.idle
            };
            quiet < limit
        });
        before - tables.len()
    }
}
