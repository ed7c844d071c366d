//! The schema, in versions: each a SQL file under `migrations/`, embedded in the
//! program, applied in order and recorded in `schema_version`, all in one transaction
//! (done whole or not at all, even if the program is killed half-way).
//!
//! Several servers may start at once on one database: the transaction first takes a
//! transaction-wide advisory lock (`pg_advisory_xact_lock`), so one server migrates
//! while the others wait, then find the schema up to date.
//!
//! A database is only migrated if it is new (no tables at all) or this program's (it
//! has `schema_version`). Another program's database, or one from a newer version of
//! this program, is refused after reading alone: nothing is written, and the
//! transaction is rolled back.
//!
//! To change the schema, add a file and a line to [`MIGRATIONS`]; never edit one that has
//! shipped, since databases out there are already at its version.

use tictactoe_core::ports::StoreError;

use crate::codec::NOW_MS;
use crate::errors::{Database, Failure, PostgresErrors};
use crate::pool::Conn;

/// One version of the schema.
struct Migration {
    version: i64,
    sql: &'static str,
}

impl Migration {
    const fn new(version: i64, sql: &'static str) -> Migration {
        Migration { version, sql }
    }
}

/// The schema's SQL file `migrations/NAME.sql`, embedded in the program.
macro_rules! schema {
    ($name:literal) => {
        include_str!(concat!("../migrations/", $name, ".sql"))
    };
}

const MIGRATIONS: [Migration; 11] = [
    Migration::new(1, schema!("0001_games_scoreboard_history")),
    Migration::new(2, schema!("0002_pacing")),
    Migration::new(3, schema!("0003_scoreboard_additions")),
    Migration::new(4, schema!("0004_ratings")),
    Migration::new(5, schema!("0005_casual_games")),
    Migration::new(6, schema!("0006_puzzle_attempts")),
    Migration::new(7, schema!("0007_accounts")),
    Migration::new(8, schema!("0008_seat_holders")),
    Migration::new(9, schema!("0009_clocks")),
    Migration::new(10, schema!("0010_seeks")),
    Migration::new(11, schema!("0011_blocks")),
];

/// The newest version this program knows.
pub(crate) const KNOWN: i64 = MIGRATIONS[MIGRATIONS.len() - 1].version;

/// The advisory lock every migration takes: "TTT" and 1, an arbitrary number that no
/// other lock of this program uses.
const MIGRATION_LOCK: i64 = 0x5454_5400_0000_0001;

/// Brings the database `conn` is connected to up to the newest schema (see the module
/// documentation).
pub(crate) fn migrate(conn: &mut Conn, database: &Database) -> Result<(), StoreError> {
    let mut tx = conn
        .begin(false)
        .map_err(|e| database.fail(e.into(), None))?;
    let found = (|| -> Result<i64, Failure> {
        tx.sql
            .execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
        let row = tx.sql.query_one(
            "SELECT to_regclass('schema_version') IS NOT NULL, \
             (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
              WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm'))",
            &[],
        )?;
        let ours: bool = row.try_get(0).map_err(|e| database.column(e))?;
        let tables: i64 = row.try_get(1).map_err(|e| database.column(e))?;
        if !ours {
            return if tables == 0 {
                Ok(0)
            } else {
                Err(database
                    .unreadable(format!(
                        "it holds {tables} tables but no schema_version: it is not a \
                         database of tictactoe"
                    ))
                    .into())
            };
        }
        let row = tx.sql.query_one(
            "SELECT coalesce(max(version), 0)::bigint FROM schema_version",
            &[],
        )?;
        row.try_get(0).map_err(|e| database.column(e))
    })()
    .map_err(|failure| database.fail(failure, None))?;
    database.check_version(found, KNOWN)?;
    if found == KNOWN {
        return Ok(()); // dropped: rolled back, nothing was written
    }
    (|| -> Result<(), Failure> {
        if found == 0 {
            tx.sql.batch_execute(
                "CREATE TABLE schema_version (\
                 version BIGINT PRIMARY KEY CHECK (version >= 1), \
                 applied_at BIGINT NOT NULL)",
            )?;
        }
        for migration in MIGRATIONS.iter().filter(|m| m.version > found) {
            tx.sql.batch_execute(migration.sql)?;
            tx.sql.execute(
                &format!("INSERT INTO schema_version (version, applied_at) VALUES ($1, {NOW_MS})"),
                &[&migration.version],
            )?;
        }
        Ok(())
    })()
    .map_err(|failure| database.fail(failure, None))?;
    tx.commit().map_err(|e| database.fail(e.into(), None))
}
