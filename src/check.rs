//! `tictactoe check` and `tictactoe backup`, and the check `serve` makes before it
//! opens its database: what the database's own checks find (SQLite's quick_check,
//! PostgreSQL's cheap ones), worded for people, and a copy of a live SQLite file.
//! Nothing here changes the database checked.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use tictactoe_core::ports::StoreError;
use tictactoe_postgres_store::{Options as PostgresOptions, PostgresStore};
use tictactoe_sqlite_store::{BackupError, SqliteStore};

use crate::config::{Database, Location};
use crate::failure::{FAILURE, Failure};

/// What a database's own check found: what is wrong, what was read, and how long it
/// took.
struct Found {
    problems: Vec<String>,
    read: String,
    seconds: f64,
}

/// Checks the database without changing it (see [`SqliteStore::check`] and
/// [`PostgresStore::check_at`]). A file that is not there is an error: nothing is made.
fn check_database(database: &Database) -> Result<Found, StoreError> {
    let started = Instant::now();
    let (problems, read) = match &database.location {
        Location::Sqlite(path) => {
            let checked = SqliteStore::check(path)?;
            (
                checked.problems,
                format!("{} pages read (SQLite's quick_check)", checked.pages),
            )
        }
        Location::Postgres { url, pool } => {
            let options = PostgresOptions {
                pool_size: *pool,
                ..PostgresOptions::default()
            };
            let checked = PostgresStore::check_at(url, options)?;
            (
                checked.problems,
                format!(
                    "its version and {} indexes checked (PostgreSQL: what is cheap)",
                    checked.indexes
                ),
            )
        }
    };
    Ok(Found {
        problems,
        read,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The database as people know it: a path, or an address without its password.
fn location_name(location: &Location) -> String {
    match location {
        Location::Sqlite(path) => path.display().to_string(),
        Location::Postgres { url, .. } => PostgresStore::name_of(url),
    }
}

/// `tictactoe check`: what the database's own check finds, on standard output; exit 0
/// if nothing is damaged, 1 if something is (or it cannot be read at all).
pub(crate) fn check(database: &Database) -> Result<ExitCode, Failure> {
    let found = check_database(database).map_err(Failure::Store)?;
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{}",
        report(&location_name(&database.location), &found)
    )?;
    if found.problems.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "{}", DAMAGE_ADVICE)?;
    Ok(ExitCode::from(FAILURE))
}

/// What a check found, in one line if nothing (see [`damaged`] otherwise).
fn report(name: &str, found: &Found) -> String {
    if found.problems.is_empty() {
        format!(
            "{name}: no damage found ({}, {:.1} s)",
            found.read, found.seconds
        )
    } else {
        damaged(name, found)
    }
}

/// `tictactoe backup --to FILE`: a copy of an SQLite database (SQLite's online backup,
/// while a server may be writing it), then the copy checked as `check` checks a
/// database; both said on standard output. Exit 1 if the copy is found damaged (it is
/// kept, for whoever wants to look). A PostgreSQL database is pg_dump's to copy.
pub(crate) fn backup(
    database: &Database,
    to: &std::path::Path,
    overwrite: bool,
) -> Result<ExitCode, Failure> {
    let path = match &database.location {
        Location::Sqlite(path) => path,
        Location::Postgres { url, .. } => {
            return Err(Failure::Other(
                format!(
                    "{} is a PostgreSQL database: back it up with PostgreSQL's own tool, \
                     `pg_dump --format=custom --file {} URL` (restore with `pg_restore \
                     --dbname URL FILE`; docs/deploy.md); tictactoe backup copies SQLite files",
                    PostgresStore::name_of(url),
                    to.display()
                )
                .into(),
            ));
        }
    };
    let started = Instant::now();
    let copied = match SqliteStore::backup(path, to, overwrite) {
        Ok(copied) => copied,
        Err(BackupError::Store(error)) => return Err(Failure::Store(error)),
        Err(BackupError::Exists(_)) => {
            return Err(Failure::Other(
                format!(
                    "{} is already there: nothing was written (choose a new file, or add \
                     --overwrite to replace it)",
                    to.display()
                )
                .into(),
            ));
        }
    };
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{} copied to {} ({} pages, {:.1} s)",
        path.display(),
        to.display(),
        copied.pages,
        started.elapsed().as_secs_f64()
    )?;
    let found = check_database(&Database {
        location: Location::Sqlite(to.to_owned()),
        earlier_scoreboard: None,
    })
    .map_err(Failure::Store)?;
    writeln!(out, "{}", report(&to.display().to_string(), &found))?;
    Ok(match found.problems.is_empty() {
        true => ExitCode::SUCCESS,
        false => ExitCode::from(FAILURE),
    })
}

/// What to do about a damaged database.
const DAMAGE_ADVICE: &str = "Nothing was changed. Keep a copy of the file (with its -wal \
    beside it, if any) before anything else; restore a backup, or save what can be read \
    into a new file with the sqlite3 shell's `.recover`. `tictactoe serve --allow-damaged` \
    serves it as it is: the games on damaged pages are refused.";

/// A damaged database's report: its name, how many problems, and the first of them.
fn damaged(name: &str, found: &Found) -> String {
    let mut report = format!(
        "{name} is damaged: {} {} found ({}, {:.1} s):",
        found.problems.len(),
        if found.problems.len() == 1 {
            "problem"
        } else {
            "problems"
        },
        found.read,
        found.seconds
    );
    for problem in found.problems.iter().take(10) {
        report.push_str("\n  ");
        report.push_str(problem);
    }
    if found.problems.len() > 10 {
        report.push_str(&format!("\n  and {} more", found.problems.len() - 10));
    }
    report
}

/// Before `serve` opens its database: the same check as `tictactoe check`. A damaged
/// database stops it (exit 1, nothing changed) unless `allow_damaged`; then it is
/// served, said once, loudly. `Some` with the exit status when it must not serve.
pub(crate) fn check_before_serving(
    database: &Database,
    allow_damaged: bool,
) -> Result<Option<ExitCode>, Failure> {
    if let Location::Sqlite(path) = &database.location
        && !path.exists()
    {
        return Ok(None); // a new database: nothing to check
    }
    let found = check_database(database).map_err(Failure::Store)?;
    let name = location_name(&database.location);
    if found.problems.is_empty() {
        tracing::info!(
            "{name}: no damage found ({}, {:.1} s)",
            found.read,
            found.seconds
        );
        return Ok(None);
    }
    if allow_damaged {
        tracing::error!(
            "{}; serving it as it is (--allow-damaged): the games on damaged pages are refused",
            damaged(&name, &found)
        );
        return Ok(None);
    }
    eprintln!("tictactoe: {}", damaged(&name, &found));
    eprintln!("{DAMAGE_ADVICE}");
    Ok(Some(ExitCode::from(FAILURE)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(problems: usize) -> Found {
        Found {
            problems: (1..=problems).map(|n| format!("problem {n}")).collect(),
            read: "12 pages read".into(),
            seconds: 0.04,
        }
    }

    #[test]
    fn a_database_without_damage_is_said_in_one_line() {
        assert_eq!(
            report("games.db", &found(0)),
            "games.db: no damage found (12 pages read, 0.0 s)"
        );
    }

    #[test]
    fn a_damaged_database_lists_its_first_ten_problems_and_counts_the_rest() {
        let said = report("games.db", &found(12));

        let lines: Vec<&str> = said.lines().collect();
        assert_eq!(
            lines[0],
            "games.db is damaged: 12 problems found (12 pages read, 0.0 s):"
        );
        assert_eq!(lines.len(), 12);
        assert_eq!(lines[11], "  and 2 more");
    }
}
