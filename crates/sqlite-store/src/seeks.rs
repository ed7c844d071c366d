//! Seeks, people looking for an opponent (schema version 11): the [`SeekStore`] port on
//! `seeks`. The rows are `tictactoe_store_rows::seeks`'s. People blocking each other
//! (schema version 12): the same port on `blocks`.
//!
//! Every write is one `BEGIN IMMEDIATE` transaction, and SQLite lets one connection
//! write at a time (in any process): opening a seek and closing its owner's others, or
//! taking several seeks into a game, is done whole or not at all, and two processes
//! taking the same seek take turns, the second finding it taken.

use std::time::SystemTime;

use rusqlite::{OptionalExtension, Transaction, params};
use tictactoe_core::domain::{Mark, PlayerName};
use tictactoe_core::ports::{GameId, NewSeek, Seek, SeekId, SeekKind, SeekStore, StoreError};
use tictactoe_store_rows::rows::time_column;
use tictactoe_store_rows::seeks::{self, OPEN, SEEK_COLUMNS, SeekRow};
use tictactoe_store_rows::words;

use crate::errors::Database;
use crate::{Sql, SqliteStore};

impl SeekStore for SqliteStore {
    fn open_seek(&self, seek: &NewSeek) -> Result<(), StoreError> {
        let database = &self.database;
        let row = SeekRow::opened(seek).map_err(|detail| unkept(database, seek, detail))?;
        let owner_key = seek.owner.key();
        self.in_write(|transaction| {
            if is_kept(transaction, &row.id, database)? {
                return Ok(());
            }
            transaction
                .prepare_cached(&format!(
                    "UPDATE seeks SET closed = 1 WHERE owner_key = ?1 AND {OPEN}"
                ))
                .db(database)?
                .execute([&owner_key])
                .db(database)?;
            transaction
                .prepare_cached(&format!(
                    "INSERT INTO seeks (owner_key, {SEEK_COLUMNS}) VALUES (?1, ?2, ?3, ?4, \
                     ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)"
                ))
                .db(database)?
                .execute(params![
                    owner_key,
                    row.id,
                    row.kind,
                    row.owner,
                    row.holder,
                    row.lock,
                    row.size,
                    row.win,
                    row.control,
                    row.initial_ms,
                    row.increment_ms,
                    row.rated,
                    row.rating,
                    row.at,
                    row.seen,
                    row.taken_game,
                    row.taken_mark,
                    row.taken_at,
                    row.closed
                ])
                .db(database)?;
            Ok(())
        })
    }

    fn open_seeks(&self, kind: SeekKind, seen_since: SystemTime) -> Result<Vec<Seek>, StoreError> {
        self.read_values(
            &format!(
                "SELECT {SEEK_COLUMNS} FROM seeks WHERE kind = ?1 AND {OPEN} AND seen >= ?2 \
                 ORDER BY number"
            ),
            params![
                words::seek_kind_word(kind),
                seeks::seen_since_column(seen_since)
            ],
            SeekRow::seek,
        )
    }

    fn seek(&self, id: &SeekId) -> Result<Option<Seek>, StoreError> {
        let found = self.read_values(
            &format!("SELECT {SEEK_COLUMNS} FROM seeks WHERE id = ?1"),
            [id.as_str()],
            SeekRow::seek,
        )?;
        Ok(found.into_iter().next())
    }

    fn seek_seen(&self, id: &SeekId, at: SystemTime) -> Result<bool, StoreError> {
        let database = &self.database;
        self.in_write(|transaction| {
            let changed = transaction
                .prepare_cached(&format!(
                    "UPDATE seeks SET seen = max(seen, ?2) WHERE id = ?1 AND {OPEN}"
                ))
                .db(database)?
                .execute(params![id.as_str(), time_column(at)])
                .db(database)?;
            Ok(changed > 0)
        })
    }

    fn close_seek(&self, id: &SeekId) -> Result<bool, StoreError> {
        let database = &self.database;
        self.in_write(|transaction| {
            let changed = transaction
                .prepare_cached(&format!(
                    "UPDATE seeks SET closed = 1 WHERE id = ?1 AND {OPEN}"
                ))
                .db(database)?
                .execute([id.as_str()])
                .db(database)?;
            Ok(changed > 0)
        })
    }

    /// All in one write transaction: every seek is checked open before any is taken,
    /// and no other connection writes in between.
    fn take_seeks(
        &self,
        taking: &[(SeekId, Mark)],
        game: &GameId,
        at: SystemTime,
    ) -> Result<bool, StoreError> {
        let database = &self.database;
        let taking = seeks::taking_columns(taking);
        let at = time_column(at);
        self.in_write(|transaction| {
            for (id, _) in &taking {
                let open: Option<bool> = transaction
                    .prepare_cached(&format!("SELECT {OPEN} FROM seeks WHERE id = ?1"))
                    .db(database)?
                    .query_row([id], |row| row.get(0))
                    .optional()
                    .db(database)?;
                if open != Some(true) {
                    return Ok(false);
                }
            }
            let mut take = transaction
                .prepare_cached(&format!(
                    "UPDATE seeks SET taken_game = ?2, taken_mark = ?3, taken_at = ?4 \
                     WHERE id = ?1 AND {OPEN}"
                ))
                .db(database)?;
            for (id, mark) in &taking {
                take.execute(params![id, game.as_str(), mark, at])
                    .db(database)?;
            }
            Ok(true)
        })
    }

    fn taken_since(&self, since: SystemTime) -> Result<Vec<Seek>, StoreError> {
        self.read_values(
            &format!(
                "SELECT {SEEK_COLUMNS} FROM seeks WHERE taken_at >= ?1 ORDER BY taken_at DESC, number"
            ),
            params![time_column(since)],
            SeekRow::seek,
        )
    }

    fn block(&self, by: &PlayerName, whom: &PlayerName) -> Result<bool, StoreError> {
        let database = &self.database;
        self.in_write(|transaction| {
            let changed = transaction
                .prepare_cached(
                    "INSERT INTO blocks (by_key, whom_key, whom_name) VALUES (?1, ?2, ?3) \
                     ON CONFLICT (by_key, whom_key) DO NOTHING",
                )
                .db(database)?
                .execute(params![by.key(), whom.key(), whom.as_str()])
                .db(database)?;
            Ok(changed > 0)
        })
    }

    fn unblock(&self, by: &PlayerName, whom: &PlayerName) -> Result<bool, StoreError> {
        let database = &self.database;
        self.in_write(|transaction| {
            let changed = transaction
                .prepare_cached("DELETE FROM blocks WHERE by_key = ?1 AND whom_key = ?2")
                .db(database)?
                .execute(params![by.key(), whom.key()])
                .db(database)?;
            Ok(changed > 0)
        })
    }

    fn blocked_by(&self, by: &PlayerName) -> Result<Vec<PlayerName>, StoreError> {
        let database = &self.database;
        let by = by.key();
        self.in_read(|transaction| {
            let names: Vec<String> = transaction
                .prepare_cached("SELECT whom_name FROM blocks WHERE by_key = ?1 ORDER BY number")
                .db(database)?
                .query_map([&by], |row| row.get(0))
                .db(database)?
                .collect::<rusqlite::Result<_>>()
                .db(database)?;
            names
                .iter()
                .map(|name| blocked_name(name).map_err(|detail| database.unreadable(detail)))
                .collect()
        })
    }

    /// The keys given as a JSON array, read by `json_each`: one statement, however
    /// many keys.
    fn blocks_among(&self, keys: &[String]) -> Result<Vec<(String, String)>, StoreError> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let database = &self.database;
        let keys = json_array(keys);
        self.in_read(|transaction| {
            transaction
                .prepare_cached(
                    "SELECT by_key, whom_key FROM blocks \
                     WHERE by_key IN (SELECT value FROM json_each(?1)) \
                     AND whom_key IN (SELECT value FROM json_each(?1)) ORDER BY number",
                )
                .db(database)?
                .query_map([&keys], |row| Ok((row.get(0)?, row.get(1)?)))
                .db(database)?
                .collect::<rusqlite::Result<_>>()
                .db(database)
        })
    }
}

/// Whether a seek of id `id` is kept, open or not.
fn is_kept(
    transaction: &Transaction<'_>,
    id: &str,
    database: &Database,
) -> Result<bool, StoreError> {
    transaction
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM seeks WHERE id = ?1)")
        .db(database)?
        .query_row([id], |row| row.get(0))
        .db(database)
}

/// A seek that has no row ([`SeekRow::opened`]): not kept, and why.
fn unkept(database: &Database, seek: &NewSeek, detail: String) -> StoreError {
    StoreError::Unavailable {
        database: database.0.clone(),
        detail: format!("seek {} is not kept: {detail}", seek.id),
    }
}

/// A blocked person's name as kept (the `whom_name` column), checked.
fn blocked_name(text: &str) -> Result<PlayerName, String> {
    PlayerName::stored(text).map_err(|e| format!("a blocked name {text:?}: {e}"))
}

/// `keys` as a JSON array of strings (what `json_each` reads).
fn json_array(keys: &[String]) -> String {
    let mut json = String::from("[");
    for (at, key) in keys.iter().enumerate() {
        if at > 0 {
            json.push(',');
        }
        json.push('"');
        for c in key.chars() {
            match c {
                '"' => json.push_str("\\\""),
                '\\' => json.push_str("\\\\"),
                c if u32::from(c) < 0x20 => json.push_str(&format!("\\u{:04x}", u32::from(c))),
                c => json.push(c),
            }
        }
        json.push('"');
    }
    json.push(']');
    json
}
