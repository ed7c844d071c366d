//! The schema, in versions. Each version is a SQL file under `migrations/` (embedded in
//! the program), and where the program's own rules must fill in data, a Rust step run in
//! the same transaction. The file's version is SQLite's `user_version`, changed in the
//! same transaction as the migration: a migration is done whole or not at all, even if
//! the program is killed half-way.
//!
//! To change the schema, add a file and a line to [`MIGRATIONS`]; never edit one that has
//! shipped, since files out there are already at its version.

use rusqlite::{Connection, Transaction, TransactionBehavior};
use tictactoe_core::domain::Mark;
use tictactoe_core::ports::StoreError;

use crate::errors::Database;
use crate::{Sql, codec, tallies};

/// A migration's Rust step: data the program's own rules compute.
type Step = fn(&Transaction<'_>, &Database) -> Result<(), StoreError>;

/// One version of the schema.
pub(crate) struct Migration {
    pub(crate) version: i64,
    sql: &'static str,
    /// Run after the SQL, in the same transaction.
    then: Option<Step>,
}

pub(crate) const MIGRATIONS: [Migration; 2] = [
    Migration {
        version: 1,
        sql: include_str!("../migrations/0001_games_and_steps.sql"),
        then: None,
    },
    Migration {
        version: 2,
        sql: include_str!("../migrations/0002_scoreboard.sql"),
        then: Some(count_finished_games),
    },
];

/// The newest version this program knows.
pub(crate) const KNOWN: i64 = MIGRATIONS[MIGRATIONS.len() - 1].version;

/// `PRAGMA application_id` of this program's files (set by migration 1): "TTT1".
const APPLICATION_ID: i64 = 0x5454_5431;

/// The schema version of the file `connection` is open on, after checking that it is
/// this program's (or new and empty). Only reads: a file that is not this program's, or
/// not a database at all, is left exactly as it was.
pub(crate) fn version(connection: &Connection, database: &Database) -> Result<i64, StoreError> {
    // The first read of the file: SQLite checks its header here, so a file that is not
    // a database fails with SQLITE_NOTADB, and one shorter than its header says (cut
    // off) with SQLITE_CORRUPT.
    let objects: i64 = connection
        .query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))
        .db(database)?;
    let application: i64 = connection
        .pragma_query_value(None, "application_id", |row| row.get(0))
        .db(database)?;
    let version: i64 = connection
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .db(database)?;
    let fresh = application == 0 && version == 0 && objects == 0;
    if application != APPLICATION_ID && !fresh {
        return Err(database.unreadable(
            "it is an SQLite database, but not one of tictactoe's (another program's?)",
        ));
    }
    if version > KNOWN {
        return Err(StoreError::Newer {
            database: database.0.clone(),
            found: version,
            known: KNOWN,
        });
    }
    Ok(version)
}

/// Brings the file from version `from` to [`KNOWN`]. Several processes may open one
/// file at once: each migration re-reads the version once it holds the write lock, so
/// a migration another process has just done is not done twice.
pub(crate) fn migrate(
    connection: &mut Connection,
    from: i64,
    database: &Database,
) -> Result<(), StoreError> {
    for migration in MIGRATIONS.iter().filter(|m| m.version > from) {
        let transaction = connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .db(database)?;
        let version: i64 = transaction
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .db(database)?;
        if version >= migration.version {
            continue; // done meanwhile by another process; the transaction rolls back
        }
        transaction.execute_batch(migration.sql).db(database)?;
        if let Some(then) = migration.then {
            then(&transaction, database)?;
        }
        transaction
            .pragma_update(None, "user_version", migration.version)
            .db(database)?;
        transaction.commit().db(database)?;
    }
    Ok(())
}

/// Version 2's Rust step: the games that finished before there were tallies, counted
/// into the first scoreboard (epoch 0) by the same rule as a game that ends now.
///
/// It reads only the columns version 1 made, so it stays right whatever later versions
/// add.
fn count_finished_games(
    transaction: &Transaction<'_>,
    database: &Database,
) -> Result<(), StoreError> {
    let mut finished = transaction
        .prepare(
            "SELECT id, x_kind, x_name, x_level, o_kind, o_name, o_level, ending \
             FROM games WHERE ending IS NOT NULL",
        )
        .db(database)?;
    let mut rows = finished.query([]).db(database)?;
    while let Some(row) = rows.next().db(database)? {
        let id: String = row.get(0).db(database)?;
        let sides: [codec::SideColumns; 2] = [
            (
                row.get(1).db(database)?,
                row.get(2).db(database)?,
                row.get(3).db(database)?,
            ),
            (
                row.get(4).db(database)?,
                row.get(5).db(database)?,
                row.get(6).db(database)?,
            ),
        ];
        let ending: String = row.get(7).db(database)?;
        let unreadable = |detail: String| database.unreadable(format!("game {id}: {detail}"));
        let ending = codec::ending(&ending).map_err(unreadable)?;
        for mark in Mark::ALL {
            let spec = codec::spec(mark, &sides[mark.index()]).map_err(unreadable)?;
            if let Some(record) = ending.counted(mark) {
                tallies::add(transaction, 0, &spec.name(mark), record).db(database)?;
            }
        }
    }
    Ok(())
}
