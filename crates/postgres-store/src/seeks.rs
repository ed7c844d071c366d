//! Seeks, people looking for an opponent (`migrations/0010_seeks.sql`): the
//! [`SeekStore`] port on `seeks`. The rows are `tictactoe_store_rows::seeks`'s.
//!
//! Servers sharing the database open, close and take seeks at once:
//!
//! * Taking seeks into a game locks their rows first (`SELECT ... FOR UPDATE`, in id
//!   order, so two servers taking overlapping seeks queue rather than deadlock), then
//!   takes them only if every one is still open. Of two servers taking the same seek,
//!   the second waits for the first's transaction, then sees the seek taken, and takes
//!   none.
//! * A unique index on the owner's key of the open seeks keeps one open seek a person:
//!   of two seeks one person opens at once on two servers, the second waits for the
//!   first and is refused; run again (a race lost, see `Failure::retry`), it closes the
//!   first and opens.
//! * Every other write is one conditional `UPDATE` on one row, which the database
//!   applies to the row as the last transaction left it.
//!
//! People blocking each other (`migrations/0011_blocks.sql`): the same port on
//! `blocks`. A block is one row, unique by who blocks whom: of two servers blocking at
//! once, one inserts it and the other finds it there (`ON CONFLICT DO NOTHING`).

use std::time::SystemTime;

use tictactoe_core::domain::{Mark, PlayerName};
use tictactoe_core::ports::{GameId, NewSeek, Seek, SeekId, SeekKind, SeekStore, StoreError};
use tictactoe_store_rows::rows::time_column;
use tictactoe_store_rows::seeks::{self, OPEN, SEEK_COLUMNS, SeekRow};
use tictactoe_store_rows::words;

use crate::PostgresStore;
use crate::errors::{Database, PostgresErrors};

impl SeekStore for PostgresStore {
    fn open_seek(&self, seek: &NewSeek) -> Result<(), StoreError> {
        let database = &self.database;
        let row = SeekRow::opened(seek).map_err(|detail| unkept(database, seek, detail))?;
        let owner_key = seek.owner.key();
        self.transact(false, None, |tx| {
            let kept = tx.query_one(
                "SELECT EXISTS (SELECT 1 FROM seeks WHERE id = $1)",
                &[&row.id],
            )?;
            if database.get::<bool>(&kept, 0)? {
                return Ok(());
            }
            tx.execute(
                &format!("UPDATE seeks SET closed = true WHERE owner_key = $1 AND {OPEN}"),
                &[&owner_key],
            )?;
            tx.execute(
                &format!(
                    "INSERT INTO seeks (owner_key, {SEEK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, \
                     $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)"
                ),
                &[
                    &owner_key,
                    &row.id,
                    &row.kind,
                    &row.owner,
                    &row.holder,
                    &row.lock,
                    &row.size,
                    &row.win,
                    &row.control,
                    &row.initial_ms,
                    &row.increment_ms,
                    &row.rated,
                    &row.rating,
                    &row.at,
                    &row.seen,
                    &row.taken_game,
                    &row.taken_mark,
                    &row.taken_at,
                    &row.closed,
                ],
            )?;
            Ok(())
        })
    }

    fn open_seeks(&self, kind: SeekKind, seen_since: SystemTime) -> Result<Vec<Seek>, StoreError> {
        self.read_values(
            &format!(
                "SELECT {SEEK_COLUMNS} FROM seeks WHERE kind = $1 AND {OPEN} AND seen >= $2 \
                 ORDER BY number"
            ),
            &[
                &words::seek_kind_word(kind),
                &seeks::seen_since_column(seen_since),
            ],
            SeekRow::seek,
        )
    }

    fn seek(&self, id: &SeekId) -> Result<Option<Seek>, StoreError> {
        let found = self.read_values(
            &format!("SELECT {SEEK_COLUMNS} FROM seeks WHERE id = $1"),
            &[&id.as_str()],
            SeekRow::seek,
        )?;
        Ok(found.into_iter().next())
    }

    fn seek_seen(&self, id: &SeekId, at: SystemTime) -> Result<bool, StoreError> {
        let changed = self.execute_one(
            &format!("UPDATE seeks SET seen = GREATEST(seen, $2) WHERE id = $1 AND {OPEN}"),
            &[&id.as_str(), &time_column(at)],
        )?;
        Ok(changed > 0)
    }

    fn close_seek(&self, id: &SeekId) -> Result<bool, StoreError> {
        let changed = self.execute_one(
            &format!("UPDATE seeks SET closed = true WHERE id = $1 AND {OPEN}"),
            &[&id.as_str()],
        )?;
        Ok(changed > 0)
    }

    /// One transaction: the seeks' rows locked in id order, then taken if every one is
    /// open (see the module documentation).
    fn take_seeks(
        &self,
        taking: &[(SeekId, Mark)],
        game: &GameId,
        at: SystemTime,
    ) -> Result<bool, StoreError> {
        let database = &self.database;
        let taking = seeks::taking_columns(taking);
        let ids: Vec<&str> = taking.iter().map(|(id, _)| id.as_str()).collect();
        let at = time_column(at);
        self.transact(false, None, |tx| {
            let locked = tx.query(
                &format!("SELECT {OPEN} FROM seeks WHERE id = ANY($1) ORDER BY id FOR UPDATE"),
                &[&ids],
            )?;
            let mut open = 0;
            for row in &locked {
                if database.get::<bool>(row, 0)? {
                    open += 1;
                }
            }
            if open != taking.len() {
                return Ok(false);
            }
            for (id, mark) in &taking {
                tx.execute(
                    &format!(
                        "UPDATE seeks SET taken_game = $2, taken_mark = $3, taken_at = $4 \
                         WHERE id = $1 AND {OPEN}"
                    ),
                    &[id, &game.as_str(), mark, &at],
                )?;
            }
            Ok(true)
        })
    }

    fn taken_since(&self, since: SystemTime) -> Result<Vec<Seek>, StoreError> {
        self.read_values(
            &format!(
                "SELECT {SEEK_COLUMNS} FROM seeks WHERE taken_at >= $1 ORDER BY taken_at DESC, number"
            ),
            &[&time_column(since)],
            SeekRow::seek,
        )
    }

    fn block(&self, by: &PlayerName, whom: &PlayerName) -> Result<bool, StoreError> {
        let changed = self.execute_one(
            "INSERT INTO blocks (by_key, whom_key, whom_name) VALUES ($1, $2, $3) \
             ON CONFLICT (by_key, whom_key) DO NOTHING",
            &[&by.key(), &whom.key(), &whom.as_str()],
        )?;
        Ok(changed > 0)
    }

    fn unblock(&self, by: &PlayerName, whom: &PlayerName) -> Result<bool, StoreError> {
        let changed = self.execute_one(
            "DELETE FROM blocks WHERE by_key = $1 AND whom_key = $2",
            &[&by.key(), &whom.key()],
        )?;
        Ok(changed > 0)
    }

    fn blocked_by(&self, by: &PlayerName) -> Result<Vec<PlayerName>, StoreError> {
        let database = &self.database;
        self.read(|tx| {
            let rows = tx.query(
                "SELECT whom_name FROM blocks WHERE by_key = $1 ORDER BY number",
                &[&by.key()],
            )?;
            let mut names = Vec::with_capacity(rows.len());
            for row in &rows {
                let name: String = database.get(row, 0)?;
                names.push(blocked_name(&name).map_err(|detail| database.unreadable(detail))?);
            }
            Ok(names)
        })
    }

    fn blocks_among(&self, keys: &[String]) -> Result<Vec<(String, String)>, StoreError> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let database = &self.database;
        self.read(|tx| {
            let rows = tx.query(
                "SELECT by_key, whom_key FROM blocks \
                 WHERE by_key = ANY($1) AND whom_key = ANY($1) ORDER BY number",
                &[&keys],
            )?;
            let mut blocks = Vec::with_capacity(rows.len());
            for row in &rows {
                blocks.push((database.get(row, 0)?, database.get(row, 1)?));
            }
            Ok(blocks)
        })
    }
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
