//! What the prover has proven, by position: one table shared by the provers of one
//! solver, so that what a second core proves (the null move, its share of the moves)
//! is there for the first, and the other way round.
//!
//! Entries only ever grow more certain ("wins within `win`", "does not win within
//! `fail`"), and every one is a proof, so two threads writing the same position in any
//! order leave a true entry. The table is cut into shards, each behind its own lock,
//! so that two threads rarely wait for each other; a shard that finds the engine's
//! [`Memory`] spent starts again.

use std::sync::{Mutex, MutexGuard};

use super::memory::{Counted, Memory};

/// What is known about one position, for its attacker.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// The attacker wins within this many of its moves (`u8::MAX`: not known to win).
    pub win: u8,
    /// The attacker does not win within this many moves (0: nothing known).
    pub fail: u8,
    /// The cells the `fail` proof relies on, its relevance zone (`u64::MAX`: every
    /// cell), in the canonical orientation of the key.
    pub zone: u64,
}

type Shard = Counted<Entry>;

/// How many shards: enough that two threads rarely want the same one at once.
const SHARDS: usize = 64;

pub struct ProofTable {
    shards: Vec<Mutex<Shard>>,
}

impl ProofTable {
    /// A table whose entries are drawn from `memory`.
    pub fn new(memory: &Memory) -> Self {
        ProofTable {
            shards: (0..SHARDS)
                .map(|_| Mutex::new(Counted::new(memory.clone())))
                .collect(),
        }
    }

    /// What is known of the position `key`.
    pub fn get(&self, key: u128) -> Option<Entry> {
        self.shard(key).get(&key).copied()
    }

    /// Records that the attacker of `key` wins within `depth` (`won`) or does not, with
    /// the `zone` of that proof (in the key's orientation). A weaker answer than the one
    /// kept changes nothing; of two "does not win" answers for the same depth, the
    /// smaller zone is kept. With no room in the memory, nothing is kept.
    pub fn record(&self, key: u128, won: bool, depth: u8, zone: u64) {
        let mut shard = self.shard(key);
        let Some(entry) = shard.entry(
            key,
            Entry {
                win: u8::MAX,
                fail: 0,
                zone: u64::MAX,
            },
        ) else {
            return;
        };
        if won {
            entry.win = entry.win.min(depth);
        } else if depth > entry.fail
            || (depth == entry.fail && zone.count_ones() < entry.zone.count_ones())
        {
            entry.fail = depth;
            entry.zone = zone;
        }
    }

    /// Forgets every entry, giving its memory back.
    pub fn forget(&self) {
        for shard in &self.shards {
            shard
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .forget();
        }
    }

    /// The shard of `key`, locked. A thread that panicked while holding it cannot have
    /// left an entry half written (each is written whole), so a poisoned lock is taken.
    fn shard(&self, key: u128) -> MutexGuard<'_, Shard> {
        let folded = (key as u64) ^ (key >> 64) as u64;
        let index = (folded.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 58) as usize % SHARDS;
        self.shards[index]
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What an entry keeps of the answers recorded for its position, in turn: `(won,
    /// depth, zone)` each; kept, `(win, fail, zone)`.
    #[rstest::rstest]
    #[case::a_faster_win_replaces_a_slower_one_and_not_the_other_way(
        &[(true, 5, 0), (true, 3, 0), (true, 4, 0)],
        (3, 0, u64::MAX)
    )]
    #[case::a_deeper_failure_replaces_a_shallower_one_and_keeps_its_zone(
        &[(false, 3, 0b1), (false, 9, 0b110), (false, 4, 0b1)],
        (u8::MAX, 9, 0b110)
    )]
    #[case::of_two_failures_at_one_depth_the_smaller_zone_is_kept(
        &[(false, 9, 0b111), (false, 9, 0b100)],
        (u8::MAX, 9, 0b100)
    )]
    fn an_entry_keeps_the_strongest_answer(
        #[case] recorded: &[(bool, u8, u64)],
        #[case] kept: (u8, u8, u64),
    ) {
        let table = ProofTable::new(&Memory::default());

        for &(won, depth, zone) in recorded {
            table.record(7, won, depth, zone);
        }

        let entry = table.get(7).expect("recorded");
        assert_eq!((entry.win, entry.fail, entry.zone), kept);
    }

    #[test]
    fn the_table_holds_no_more_than_its_memory_allows() {
        let memory = Memory::at_most(0);
        let table = ProofTable::new(&memory);
        let keys: Vec<u128> = (0..100_000).collect();
        for &key in &keys {
            table.record(key, true, 1, 0);
        }

        let kept = keys.iter().filter(|&&key| table.get(key).is_some()).count() as u64;

        assert!(
            kept * crate::memory::ENTRY_BYTES <= memory.cap(),
            "{kept} kept"
        );
        assert_eq!(memory.in_use(), kept * crate::memory::ENTRY_BYTES);
    }

    #[test]
    fn what_one_thread_records_another_reads() {
        let table = std::sync::Arc::new(ProofTable::new(&Memory::default()));
        let writer = std::sync::Arc::clone(&table);

        std::thread::spawn(move || writer.record(42, false, 6, 0b11))
            .join()
            .unwrap();

        assert_eq!(table.get(42).map(|entry| entry.fail), Some(6));
    }
}
