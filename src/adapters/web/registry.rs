//! The games the server holds, bounded: at most `max` at once, and games are forgotten
//! when finished and quiet for `finished`, or quiet for `idle` whatever their state.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::table::Table;

pub struct Registry {
    tables: Mutex<HashMap<String, Arc<Table>>>,
    max: usize,
    idle: Duration,
    finished: Duration,
}

/// No room for another game, even after forgetting expired ones.
#[derive(Debug, PartialEq, Eq)]
pub struct Full;

impl Registry {
    pub fn new(max: usize, idle: Duration, finished: Duration) -> Self {
        Registry {
            tables: Mutex::new(HashMap::new()),
            max,
            idle,
            finished,
        }
    }

    /// Holds `table` if there is room, making room from expired games first if needed.
    pub fn insert(&self, table: Arc<Table>) -> Result<(), Full> {
        let mut tables = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
        if tables.len() >= self.max {
            self.drop_expired(&mut tables, Instant::now());
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
        self.drop_expired(&mut tables, now)
    }

    pub fn len(&self) -> usize {
        self.tables
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    fn drop_expired(&self, tables: &mut HashMap<String, Arc<Table>>, now: Instant) -> usize {
        let before = tables.len();
        tables.retain(|_, table| {
            let quiet = table.idle_for(now);
            let limit = if table.view().is_over() {
                self.finished
            } else {
                self.idle
            };
            quiet < limit
        });
        before - tables.len()
    }
}
