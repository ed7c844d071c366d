//! What went wrong, said to the person at the command line: a usage error with its
//! command's usage (exit 2), a database that cannot be used with what to do about it,
//! anything else in one line (exit 1). The database itself is left as it is, whatever
//! happened.

use std::process::ExitCode;

use clap::CommandFactory;
use clap::error::ErrorKind;
use tictactoe_core::ports::StoreError;

use crate::cli::Cli;
use crate::config::UsageError;

/// Exit status for a failure, including a `play` game whose input ended before it did.
pub(crate) const FAILURE: u8 = 1;
/// Exit status for bad usage: clap uses it for bad flags, `analyze` for bad boards.
pub(crate) const USAGE: u8 = 2;

/// Prints a usage error with the usage of the command it concerns, and exits 2.
pub(crate) fn usage_exit(error: UsageError) -> ! {
    let mut command = Cli::command();
    command.build();
    let subcommand = command
        .find_subcommand_mut(error.subcommand)
        .cloned()
        .unwrap_or(command);
    subcommand
        .clone()
        .error(ErrorKind::ValueValidation, error.message)
        .exit()
}

/// Why a command failed: its database, or anything else.
pub(crate) enum Failure {
    Store(StoreError),
    Other(Box<dyn std::error::Error>),
}

impl<E: std::error::Error + 'static> From<E> for Failure {
    fn from(error: E) -> Self {
        Failure::Other(Box::new(error))
    }
}

/// Reports a failure on standard error and gives the failure status.
pub(crate) fn fail(error: &dyn std::error::Error) -> ExitCode {
    eprintln!("tictactoe: {error}");
    ExitCode::from(FAILURE)
}

/// Reports a database that cannot be used, with what to do about it, and gives the
/// failure status. The database itself is left as it is, whatever happened.
pub(crate) fn fail_store(error: &StoreError) -> ExitCode {
    eprintln!("tictactoe: {error}");
    if let Some(advice) = store_advice(error) {
        eprintln!("{advice}");
    }
    ExitCode::from(FAILURE)
}

/// What a person can do about a database that cannot be used.
pub(crate) fn store_advice(error: &StoreError) -> Option<String> {
    let elsewhere = "or choose another database with --db PATH (or TICTACTOE_DB)";
    // A PostgreSQL database is named by its URL (without its password): its advice is
    // about a server, not a file.
    let server = |database: &str| {
        let lower = database.to_ascii_lowercase();
        lower.starts_with("postgres://") || lower.starts_with("postgresql://")
    };
    Some(match error {
        StoreError::NoLocation => "Choose a database with --db PATH (or TICTACTOE_DB).".to_string(),
        StoreError::Folder { database } => format!(
            "Name a file, such as {}.",
            std::path::Path::new(database)
                .join("tictactoe.db")
                .display()
        ),
        StoreError::Unreadable { database, .. } if server(database) => format!(
            "The database holds tables this program did not make, or rows it cannot read: \
             nothing was changed; {elsewhere}."
        ),
        StoreError::Unreadable { .. } => format!(
            "Keep the file if its games matter (a copy of it may be repaired); to start \
             afresh, move it away, {elsewhere}."
        ),
        StoreError::Newer { .. } => format!("Use the newer tictactoe, {elsewhere}."),
        StoreError::Locked { .. } => format!(
            "Another program holds it: try again when it is done (a stuck tictactoe can be \
             stopped), {elsewhere}."
        ),
        StoreError::ReadOnly { database } if server(database) => format!(
            "The server takes no writes (a replica, or a read-only database): name the \
             primary, {elsewhere}."
        ),
        StoreError::ReadOnly { .. } => format!("Make it (and its folder) writable, {elsewhere}."),
        StoreError::Full { database } if server(database) => {
            format!("Free some space on the database server's disk, {elsewhere}.")
        }
        StoreError::Full { .. } => format!("Free some space on that disk, {elsewhere}."),
        StoreError::Unavailable { database, .. } if server(database) => format!(
            "Check that the PostgreSQL server is running and reachable, and the user, \
             password and database name in the URL, {elsewhere}."
        ),
        StoreError::Unavailable { .. } => format!("Check the file and its folder, {elsewhere}."),
        StoreError::NoSuchGame(_) | StoreError::Conflict { .. } => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unreadable(database: &str) -> StoreError {
        StoreError::Unreadable {
            database: database.into(),
            detail: "not a database".into(),
        }
    }

    fn unavailable(database: &str) -> StoreError {
        StoreError::Unavailable {
            database: database.into(),
            detail: "connection refused".into(),
        }
    }

    #[rstest::rstest]
    #[case::a_file_that_cannot_be_read_is_kept_never_overwritten(
        unreadable("/home/ada/tictactoe.db"),
        "Keep the file if its games matter"
    )]
    #[case::a_server_that_cannot_be_read_is_left_as_it_is(
        unreadable("postgres://ada@db.example/games"),
        "The database holds tables this program did not make"
    )]
    #[case::a_server_that_is_unavailable_is_advised_as_a_server_not_a_file(
        unavailable("postgres://ada@db.example/games"),
        "Check that the PostgreSQL server is running"
    )]
    #[case::a_file_that_is_unavailable_is_advised_as_a_file(
        unavailable("/home/ada/tictactoe.db"),
        "Check the file and its folder"
    )]
    fn a_database_that_cannot_be_used_is_advised_for_what_it_is(
        #[case] error: StoreError,
        #[case] advice: &str,
    ) {
        let said = store_advice(&error).unwrap();

        assert!(said.starts_with(advice), "{said}");
    }

    #[test]
    fn a_game_that_is_not_kept_needs_no_advice_about_the_database() {
        let error = StoreError::NoSuchGame(tictactoe_core::ports::GameId::from_bits(1));

        assert_eq!(store_advice(&error), None);
    }
}
