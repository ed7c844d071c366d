//! One cap on what the engine's tables may hold, however many there are.
//!
//! Every table the searches keep (the negamax table, the finished answers, the
//! prover's proofs) is a cache: forgetting an entry costs only the time to find it
//! again. Each table draws its entries from a [`Memory`]; tables that share one (every
//! board shape's solver in a server, say) share its cap. A table that finds the memory
//! spent forgets what it holds (its allocation given back, not just emptied) and tries
//! again, so the tables in use keep working while the total stays under the cap.

use std::collections::HashMap;
use std::collections::hash_map::Entry as Slot;
use std::hash::BuildHasherDefault;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::hashing::MixHasher;

/// What one entry of a table costs at most: a 32-byte slot (a 16-byte key and a value
/// of at most 16, aligned to 16), its control byte, and the room a map keeps free (an
/// eighth when full, more than half just after it doubled).
pub const ENTRY_BYTES: u64 = 80;

/// The cap of a [`Memory`] made without one: 256 MiB.
pub const DEFAULT_BYTES: u64 = 256 << 20;

/// A cap on the entries of every table that holds a clone of it (clones share one
/// count). The cap is in bytes, counted at [`ENTRY_BYTES`] an entry, so what the tables
/// hold stays under it.
#[derive(Clone)]
pub struct Memory(Arc<Ledger>);

struct Ledger {
    /// The most entries all the tables together hold.
    most: u64,
    /// The entries they hold now.
    held: AtomicU64,
}

impl Memory {
    /// Tables of at most about `bytes` together (never fewer than a thousand entries,
    /// so that a search can always keep the positions it is working on).
    pub fn at_most(bytes: u64) -> Self {
        Memory(Arc::new(Ledger {
            most: (bytes / ENTRY_BYTES).max(1024),
            held: AtomicU64::new(0),
        }))
    }

    /// The cap, in bytes.
    pub fn cap(&self) -> u64 {
        self.0.most * ENTRY_BYTES
    }

    /// What the tables hold now, in bytes (at [`ENTRY_BYTES`] an entry).
    pub fn in_use(&self) -> u64 {
        self.0.held.load(Ordering::Relaxed) * ENTRY_BYTES
    }

    /// Takes one entry's room; false (nothing taken) when the cap is reached.
    fn take(&self) -> bool {
        self.0
            .held
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |held| {
                (held < self.0.most).then_some(held + 1)
            })
            .is_ok()
    }

    fn give_back(&self, entries: usize) {
        self.0.held.fetch_sub(entries as u64, Ordering::Relaxed);
    }
}

impl Default for Memory {
    fn default() -> Self {
        Memory::at_most(DEFAULT_BYTES)
    }
}

/// A table of positions (128-bit keys) whose entries are drawn from a [`Memory`], and
/// given back when it forgets them or is dropped.
pub(crate) struct Counted<V> {
    map: HashMap<u128, V, BuildHasherDefault<MixHasher>>,
    memory: Memory,
}

impl<V: Copy> Counted<V> {
    pub(crate) fn new(memory: Memory) -> Self {
        Counted {
            map: HashMap::default(),
            memory,
        }
    }

    /// A table with room for `entries` from the start (allocated now, counted as they
    /// are filled).
    pub(crate) fn with_room(memory: Memory, entries: usize) -> Self {
        Counted {
            map: HashMap::with_capacity_and_hasher(entries, Default::default()),
            memory,
        }
    }

    pub(crate) fn get(&self, key: &u128) -> Option<&V> {
        self.map.get(key)
    }

    /// The entry of `key`, made as `fresh` if it is new. When the memory is spent, this
    /// table forgets everything first; if even then there is no room (other tables hold
    /// it all), nothing is kept and the answer is `None`.
    pub(crate) fn entry(&mut self, key: u128, fresh: V) -> Option<&mut V> {
        if !self.map.contains_key(&key) && !self.memory.take() {
            self.forget();
            if !self.memory.take() {
                return None;
            }
        }
        match self.map.entry(key) {
            Slot::Occupied(kept) => Some(kept.into_mut()),
            Slot::Vacant(room) => Some(room.insert(fresh)),
        }
    }

    /// Keeps `value` for `key` if there is room ([`entry`](Self::entry)).
    pub(crate) fn insert(&mut self, key: u128, value: V) {
        if let Some(slot) = self.entry(key, value) {
            *slot = value;
        }
    }

    /// Forgets every entry and gives its memory back, allocation and all.
    pub(crate) fn forget(&mut self) {
        self.memory.give_back(self.map.len());
        self.map = HashMap::default();
    }
}

impl<V> Drop for Counted<V> {
    fn drop(&mut self) {
        self.memory.give_back(self.map.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table on `memory` holding `keys`.
    fn holding(memory: &Memory, keys: std::ops::Range<u128>) -> Counted<()> {
        let mut table = Counted::new(memory.clone());
        for key in keys {
            table.insert(key, ());
        }
        table
    }

    /// A memory with room for exactly `entries`.
    fn room_for(entries: u64) -> Memory {
        Memory(Arc::new(Ledger {
            most: entries,
            held: AtomicU64::new(0),
        }))
    }

    #[test]
    fn entries_held_are_counted_once_each() {
        let memory = room_for(10);
        let mut table = Counted::new(memory.clone());

        table.insert(1, 'a');
        table.insert(1, 'b');
        table.insert(2, 'c');

        assert_eq!(memory.in_use(), 2 * ENTRY_BYTES);
        assert_eq!(table.get(&1), Some(&'b'));
    }

    #[test]
    fn a_table_that_finds_the_memory_spent_forgets_its_own_entries_and_keeps_the_new_one() {
        let memory = room_for(3);
        let mut table = holding(&memory, 0..3);

        table.insert(99, ());

        assert_eq!(table.get(&0), None);
        assert_eq!(table.get(&99), Some(&()));
        assert_eq!(memory.in_use(), ENTRY_BYTES);
    }

    #[test]
    fn a_table_keeps_nothing_new_while_other_tables_hold_the_whole_cap() {
        let memory = room_for(2);
        let full = holding(&memory, 1..3);
        let mut other = Counted::new(memory.clone());

        let kept = other.entry(3, ()).is_some();

        assert!(!kept);
        assert_eq!(full.get(&1), Some(&()));
        assert_eq!(memory.in_use(), 2 * ENTRY_BYTES);
    }

    #[test]
    fn a_dropped_table_gives_its_entries_back() {
        let memory = room_for(10);
        let table = holding(&memory, 1..3);

        drop(table);

        assert_eq!(memory.in_use(), 0);
    }

    #[test]
    fn a_cap_too_small_for_a_search_is_raised_to_a_thousand_entries() {
        let memory = Memory::at_most(0);

        assert_eq!(memory.cap(), 1024 * ENTRY_BYTES);
    }
}
