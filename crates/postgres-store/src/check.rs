//! What can be checked of a PostgreSQL database cheaply, before a server serves it and
//! for `tictactoe check`: that it answers (within [`crate::Options::start_deadline`]),
//! that it is this program's and of a version it knows, and that none of its indexes is
//! left invalid (a `CREATE INDEX CONCURRENTLY` that failed: the server never uses it, and
//! a unique one no longer stops a duplicate). Reading every page, as SQLite's
//! `quick_check` does, is not cheap on a server (`amcheck` does it, where it is
//! installed): PostgreSQL checksums each page as it reads it, when the cluster has data
//! checksums.

use postgres::Client;
use tictactoe_core::ports::StoreError;

use crate::errors::{Database, Failure, PostgresErrors};

/// What [`crate::PostgresStore::check_at`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// What is wrong, in words: empty when nothing is.
    pub problems: Vec<String>,
    /// The indexes looked at.
    pub indexes: u64,
}

/// The checks, on `client`: reads only.
pub(crate) fn check(client: &mut Client, database: &Database) -> Result<Checked, StoreError> {
    let found = (|| -> Result<Checked, Failure> {
        let row = client.query_one(
            "SELECT to_regclass('schema_version') IS NOT NULL, \
             (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
              WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p'))",
            &[],
        )?;
        let ours: bool = database.get(&row, 0)?;
        let tables: i64 = database.get(&row, 1)?;
        if !ours && tables > 0 {
            return Err(database
                .unreadable(format!(
                    "it holds {tables} tables but no schema_version: it is not a database of \
                     tictactoe"
                ))
                .into());
        }
        if ours {
            let row = client.query_one(
                "SELECT coalesce(max(version), 0)::bigint FROM schema_version",
                &[],
            )?;
            let version: i64 = database.get(&row, 0)?;
            database.check_version(version, crate::migrations::KNOWN)?;
        }
        let rows = client.query(
            "SELECT c.relname::text, i.indisvalid AND i.indisready \
             FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid \
             JOIN pg_namespace n ON n.oid = c.relnamespace \
             WHERE n.nspname = current_schema() ORDER BY 1",
            &[],
        )?;
        let mut problems = Vec::new();
        for row in &rows {
            let name: String = database.get(row, 0)?;
            let valid: bool = database.get(row, 1)?;
            if !valid {
                problems.push(format!(
                    "index {name} is invalid (an index build that failed): rebuild it with \
                     REINDEX INDEX {name}"
                ));
            }
        }
        Ok(Checked {
            problems,
            indexes: rows.len() as u64,
        })
    })();
    found.map_err(|failure| database.fail(failure, None))
}
