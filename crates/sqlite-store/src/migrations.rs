//! The schema, in versions. Each version is a SQL file under `migrations/` (embedded in
//! the program), and where the program's own rules must fill in data, a Rust step run in
//! the same transaction. The file's version is SQLite's `user_version`, changed in the
//! same transaction as the migration: a migration is done whole or not at all, even if
//! the program is killed half-way.
//!
//! To change the schema, add a file and a line to [`MIGRATIONS`]; never edit one that has
//! shipped, since files out there are already at its version.

use rusqlite::{Connection, Transaction, TransactionBehavior};
use tictactoe_core::domain::{Mark, PlayerName};
use tictactoe_core::ports::StoreError;
use tictactoe_store_rows::{SideColumns, rows, words};

use crate::errors::Database;
use crate::{Sql, tallies};

/// A migration's Rust step: data the program's own rules compute.
type Step = fn(&Transaction<'_>, &Database) -> Result<(), StoreError>;

/// One version of the schema.
pub(crate) struct Migration {
    pub(crate) version: i64,
    pub(crate) sql: &'static str,
    /// Run after the SQL, in the same transaction.
    then: Option<Step>,
}

impl Migration {
    /// A version that is its SQL alone.
    const fn sql(version: i64, sql: &'static str) -> Migration {
        Migration {
            version,
            sql,
            then: None,
        }
    }

    /// A version whose SQL is followed by a Rust step.
    const fn then(version: i64, sql: &'static str, step: Step) -> Migration {
        Migration {
            version,
            sql,
            then: Some(step),
        }
    }
}

/// The schema's SQL file `migrations/NAME.sql`, embedded in the program.
macro_rules! schema {
    ($name:literal) => {
        include_str!(concat!("../migrations/", $name, ".sql"))
    };
}

pub(crate) const MIGRATIONS: [Migration; 12] = [
    Migration::sql(1, schema!("0001_games_and_steps")),
    Migration::then(2, schema!("0002_scoreboard"), count_finished_games),
    Migration::then(3, schema!("0003_name_keys"), key_names_as_people_read_them),
    Migration::then(
        4,
        schema!("0004_history_and_reviews"),
        key_the_players_of_every_game,
    ),
    Migration::then(5, schema!("0005_ratings"), rate_the_games_kept),
    Migration::sql(6, schema!("0006_casual_games")),
    Migration::sql(7, schema!("0007_puzzle_attempts")),
    Migration::sql(8, schema!("0008_accounts")),
    Migration::sql(9, schema!("0009_seat_holders")),
    Migration::sql(10, schema!("0010_clocks")),
    Migration::sql(11, schema!("0011_seeks")),
    Migration::sql(12, schema!("0012_blocks")),
];

/// The newest version this program knows.
pub(crate) const KNOWN: i64 = MIGRATIONS[MIGRATIONS.len() - 1].version;

/// `PRAGMA application_id` of this program's files (set by migration 1): "TTT1".
const APPLICATION_ID: i64 = 0x5454_5431;

/// The schema version of the file `connection` is open on, after checking that it is
/// this program's (or new and empty). Only reads: a file that is not this program's, or
/// not a database at all, is left exactly as it was.
pub(crate) fn version(connection: &Connection, database: &Database) -> Result<i64, StoreError> {
    // The three reads in one read transaction, so they see the file at one moment,
    // not before and after another process's migration.
    let reading = connection.unchecked_transaction().db(database)?;
    // The first read of the file: SQLite checks its header here, so a file that is not
    // a database fails with SQLITE_NOTADB, and one shorter than its header says (cut
    // off) with SQLITE_CORRUPT.
    let objects: i64 = reading
        .query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))
        .db(database)?;
    let application: i64 = reading
        .pragma_query_value(None, "application_id", |row| row.get(0))
        .db(database)?;
    let version: i64 = reading
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .db(database)?;
    // Only read: ending it cannot lose anything.
    reading.finish().db(database)?;
    let fresh = application == 0 && version == 0 && objects == 0;
    if application != APPLICATION_ID && !fresh {
        return Err(database.unreadable(
            "it is an SQLite database, but not one of tictactoe's (another program's?)",
        ));
    }
    database.check_version(version, KNOWN)?;
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
        let sides: [SideColumns; 2] = [
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
        let unreadable = |detail: String| database.unreadable_game(&id, detail);
        // No clock ended a game before version 10.
        let ending = words::ending(&ending, None).map_err(unreadable)?;
        for mark in Mark::ALL {
            let spec = rows::side(mark, &sides[mark.index()]).map_err(unreadable)?;
            if let Some(record) = ending.counted(mark) {
                tallies::add(transaction, 0, &spec.name(mark), record).db(database)?;
            }
        }
    }
    Ok(())
}

/// Version 3's Rust step: every scoreboard row keyed by [`PlayerName::key`] (the name
/// case-folded in its compatibility form) instead of its lowercase. The rows of each
/// table are read, the table emptied, and the rows added back in their old order under
/// their new keys, so rows that now name one player are summed (saturating, as
/// always) and keep the first one's spelling. A name that cannot be read keeps its old
/// key: reading the scoreboard reports it, as it did before.
///
/// [`PlayerName::key`]: tictactoe_core::domain::PlayerName::key
fn key_names_as_people_read_them(
    transaction: &Transaction<'_>,
    database: &Database,
) -> Result<(), StoreError> {
    for (table, group) in [("tallies", "epoch"), ("imported_rows", "source")] {
        let rows = {
            let mut select = transaction
                .prepare(&format!(
                    "SELECT {group}, key, name, wins, losses, ties FROM {table} \
                     ORDER BY {group}, key"
                ))
                .db(database)?;
            select
                .query_map([], |row| {
                    Ok((
                        row.get::<_, rusqlite::types::Value>(0)?,
                        row.get::<_, String>(1)?,
                        row.get::<_, String>(2)?,
                        [row.get::<_, i64>(3)?, row.get(4)?, row.get(5)?],
                    ))
                })
                .db(database)?
                .collect::<rusqlite::Result<Vec<_>>>()
                .db(database)?
        };
        transaction
            .execute(&format!("DELETE FROM {table}"), [])
            .db(database)?;
        let add = |column: &str| {
            format!(
                "{column} = CASE WHEN {column} > 9223372036854775807 - excluded.{column} \
                 THEN 9223372036854775807 ELSE {column} + excluded.{column} END"
            )
        };
        let mut insert = transaction
            .prepare(&format!(
                "INSERT INTO {table} ({group}, key, name, wins, losses, ties) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT ({group}, key) DO UPDATE SET \
                 {}, {}, {}",
                add("wins"),
                add("losses"),
                add("ties")
            ))
            .db(database)?;
        for (group, old_key, name, [wins, losses, ties]) in rows {
            let key = PlayerName::stored(&name).map_or(old_key, |name| name.key());
            insert
                .execute(rusqlite::params![group, key, name, wins, losses, ties])
                .db(database)?;
        }
    }
    Ok(())
}

/// Version 4's Rust step: each game's players keyed as the scoreboard keys them
/// ([`PlayerName::key`]), so a player's games are found through an index; and the
/// ended games counted into each player's results by opponent, oldest first (so the
/// latest spelling of a name is kept). A game whose players cannot be read keeps no
/// keys and counts for nobody: it is in no player's history, and reading it by id
/// reports it, as it did before.
///
/// [`PlayerName::key`]: tictactoe_core::domain::PlayerName::key
fn key_the_players_of_every_game(
    transaction: &Transaction<'_>,
    database: &Database,
) -> Result<(), StoreError> {
    let games = {
        let mut select = transaction
            .prepare(
                "SELECT id, x_kind, x_name, x_level, o_kind, o_name, o_level, ending \
                 FROM games ORDER BY started_at, id",
            )
            .db(database)?;
        select
            .query_map([], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    [
                        (row.get(1)?, row.get(2)?, row.get(3)?),
                        (row.get(4)?, row.get(5)?, row.get(6)?),
                    ],
                    row.get::<_, Option<String>>(7)?,
                ))
            })
            .db(database)?
            .collect::<rusqlite::Result<Vec<(String, [SideColumns; 2], Option<String>)>>>()
            .db(database)?
    };
    let mut update = transaction
        .prepare("UPDATE games SET x_key = ?2, o_key = ?3 WHERE id = ?1")
        .db(database)?;
    for (id, sides, ending) in games {
        let names = Mark::ALL.map(|mark| {
            rows::side(mark, &sides[mark.index()])
                .ok()
                .map(|spec| spec.name(mark))
        });
        let key = |mark: Mark| names[mark.index()].as_ref().map(PlayerName::key);
        update
            .execute(rusqlite::params![id, key(Mark::X), key(Mark::O)])
            .db(database)?;
        // No clock ended a game before version 10.
        let ending = ending
            .as_deref()
            .and_then(|word| words::ending(word, None).ok());
        if let (Some(ending), [Some(x), Some(o)]) = (ending, &names) {
            for (mark, player, rival) in [(Mark::X, x, o), (Mark::O, o, x)] {
                if let Some(record) = ending.counted(mark) {
                    tallies::add_rivalry(transaction, player, rival, record).db(database)?;
                }
            }
        }
    }
    Ok(())
}

/// Version 5's Rust step: the games kept before there were ratings rated, in the order
/// they ended, by the same rule as a game that ends now (the rebuild's).
fn rate_the_games_kept(
    transaction: &Transaction<'_>,
    database: &Database,
) -> Result<(), StoreError> {
    use crate::ratings::{GAMES_AT_SCHEMA_5, rebuild};
    rebuild(transaction, database, GAMES_AT_SCHEMA_5).map(|_| ())
}
