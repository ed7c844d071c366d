//! A copy of a database while other programs (a server) go on writing it: SQLite's
//! online backup, all pages in one step, so the copy is one moment of the database (a
//! reading transaction, which in WAL mode holds up no writer), never a mix of two.
//!
//! The copy is written beside its destination (`FILE.partial`), closed (its own log
//! folded into it), written to the disk, and only then given its name: a backup cut
//! short by a full disk or a kill never lies at the name as if it were whole. Without
//! `replace`, the name is taken with a hard link, which fails if anything is there,
//! so a file that appeared meanwhile is not overwritten either.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::Connection;
use rusqlite::backup::{Backup, StepResult};
use tictactoe_core::ports::StoreError;

use crate::errors::{Database, SqliteErrors};
use crate::{Sql, file};

/// What [`SqliteStore::backup`](crate::SqliteStore::backup) copied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Copied {
    /// The copy's length in pages.
    pub pages: u64,
}

/// Why a backup was not made.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// Something is already at the destination, and it was not to be replaced.
    #[error("{} is already there; nothing was written", .0.display())]
    Exists(PathBuf),
    /// The database could not be read, or the copy not written (the error names
    /// which of the two files).
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// How long a copy waits for a lock another connection holds (only a checkpoint
/// restarting the log takes one a reader must wait for, briefly).
const PATIENCE: Duration = Duration::from_secs(10);

pub(crate) fn backup(from: &Path, to: &Path, replace: bool) -> Result<Copied, BackupError> {
    let source = Database(from.display().to_string());
    let target = Database(to.display().to_string());
    if to.is_dir() {
        return Err(StoreError::Folder { database: target.0 }.into());
    }
    if !replace && fs::symlink_metadata(to).is_ok() {
        return Err(BackupError::Exists(to.to_owned()));
    }
    if from.is_dir() {
        return Err(StoreError::Folder { database: source.0 }.into());
    }
    if !from.exists() {
        return Err(StoreError::Unavailable {
            database: source.0,
            detail: "there is no such file".into(),
        }
        .into());
    }
    // Not a database, or a newer one: refused as `open` and `check` refuse it.
    file::read_alone(from, &source)?;
    let reading = file::reading(from).db(&source)?;
    let partial = file::beside(to, ".partial");
    for leftover in ["", "-journal", "-wal", "-shm"] {
        remove_if_there(&file::beside(&partial, leftover)).map_err(|e| target.io_error(e))?;
    }
    let copied = copy(&reading, &partial, (&source, &target));
    let placed = copied.and_then(|pages| {
        place(&partial, to, replace, &target)?;
        Ok(pages)
    });
    if placed.is_err() {
        let _ = remove_if_there(&partial);
    }
    Ok(Copied { pages: placed? })
}

/// Copies every page of `reading` into a new file at `partial`, in one step, and
/// closes it on the disk: its length in pages.
fn copy(
    reading: &Connection,
    partial: &Path,
    (source, target): (&Database, &Database),
) -> Result<u64, BackupError> {
    crate::connection::no_bulk_page_caches();
    let mut writing = Connection::open(partial).db(target)?;
    {
        let backup = Backup::new(reading, &mut writing).db(target)?;
        let started = Instant::now();
        loop {
            match backup.step(-1) {
                Ok(StepResult::Done) => break,
                Ok(StepResult::More) => {}
                // Busy or locked: another connection's lock, waited for a while.
                Ok(_) if started.elapsed() < PATIENCE => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Ok(_) => {
                    return Err(StoreError::Locked {
                        database: source.0.clone(),
                    }
                    .into());
                }
                // A failure to write names the copy; one to read, the database.
                Err(error) => {
                    let failed = match error.sqlite_error_code() {
                        Some(rusqlite::ErrorCode::DiskFull | rusqlite::ErrorCode::ReadOnly) => {
                            target
                        }
                        _ => source,
                    };
                    return Err(failed.error(error).into());
                }
            }
        }
    }
    let pages: i64 = writing
        .pragma_query_value(None, "page_count", |row| row.get(0))
        .db(target)?;
    // The last connection to close folds the copy's log into it.
    writing.close().map_err(|(_, error)| target.error(error))?;
    fs::File::open(partial)
        .and_then(|file| file.sync_all())
        .map_err(|error| target.io_error(error))?;
    Ok(pages.unsigned_abs())
}

/// Gives the finished copy at `partial` its name `to`: by a hard link that fails if
/// anything is there, unless `replace` (a rename over it), or where the file system
/// has no hard links.
fn place(partial: &Path, to: &Path, replace: bool, target: &Database) -> Result<(), BackupError> {
    if !replace {
        match fs::hard_link(partial, to) {
            Ok(()) => {
                remove_if_there(partial).map_err(|error| target.io_error(error))?;
                return synced_folder(to, target);
            }
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
                return Err(BackupError::Exists(to.to_owned()));
            }
            // No hard links here: the check made at the start stands.
            Err(_) => {}
        }
    }
    fs::rename(partial, to).map_err(|error| target.io_error(error))?;
    synced_folder(to, target)
}

/// The new name written to the disk with its folder.
fn synced_folder(to: &Path, target: &Database) -> Result<(), BackupError> {
    #[cfg(unix)]
    {
        let folder = match to.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder,
            _ => Path::new("."),
        };
        fs::File::open(folder)
            .and_then(|folder| folder.sync_all())
            .map_err(|error| target.io_error(error))?;
    }
    #[cfg(not(unix))]
    let _ = (to, target);
    Ok(())
}

fn remove_if_there(path: &Path) -> io::Result<()> {
    match fs::remove_file(path) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SqliteStore;

    fn a_store(folder: &Path) -> (SqliteStore, PathBuf) {
        let path = folder.join("games.db");
        (SqliteStore::open(&path).unwrap(), path)
    }

    /// A store, and a file of someone's where its copy is to go.
    fn a_store_and_a_file(folder: &Path) -> (SqliteStore, PathBuf, PathBuf) {
        let (store, path) = a_store(folder);
        let to = folder.join("copy.db");
        fs::write(&to, "mine").unwrap();
        (store, path, to)
    }

    #[test]
    fn a_backup_of_an_open_store_is_a_database_the_check_finds_whole() {
        // Arrange
        let folder = tempfile::tempdir().unwrap();
        let (_store, path) = a_store(folder.path());
        let to = folder.path().join("copy.db");

        // Act
        let copied = SqliteStore::backup(&path, &to, false).unwrap();

        // Assert
        assert!(copied.pages > 0);
        let checked = SqliteStore::check(&to).unwrap();
        assert_eq!(checked.problems, Vec::<String>::new());
        assert_eq!(checked.pages, copied.pages);
        assert!(!file::beside(&to, ".partial").exists());
    }

    #[test]
    fn a_backup_refuses_to_overwrite_a_file_and_leaves_it_as_it_was() {
        // Arrange
        let folder = tempfile::tempdir().unwrap();
        let (_store, path, to) = a_store_and_a_file(folder.path());

        // Act
        let refused = SqliteStore::backup(&path, &to, false);

        // Assert
        assert!(matches!(refused, Err(BackupError::Exists(at)) if at == to));
        assert_eq!(fs::read_to_string(&to).unwrap(), "mine");
    }

    #[test]
    fn a_backup_told_to_replace_a_file_replaces_it_with_the_copy() {
        // Arrange
        let folder = tempfile::tempdir().unwrap();
        let (_store, path, to) = a_store_and_a_file(folder.path());

        // Act
        SqliteStore::backup(&path, &to, true).unwrap();

        // Assert
        assert!(SqliteStore::check(&to).unwrap().problems.is_empty());
    }

    #[test]
    fn a_backup_of_a_file_that_is_not_there_makes_nothing() {
        // Arrange
        let folder = tempfile::tempdir().unwrap();
        let to = folder.path().join("copy.db");

        // Act
        let refused = SqliteStore::backup(&folder.path().join("none.db"), &to, false);

        // Assert
        assert!(matches!(
            refused,
            Err(BackupError::Store(StoreError::Unavailable { .. }))
        ));
        assert!(!to.exists());
    }
}
