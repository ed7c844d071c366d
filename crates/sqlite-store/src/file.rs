//! The file itself, as the operating system sees it: what can be learnt of it before
//! SQLite opens it for writing, which file the store holds, and what the store does
//! when the file at its path is no longer that one.
//!
//! * [`read_alone`]: a file is checked by reading alone, through a connection that can
//!   change nothing (`immutable=1`: SQLite reads the file's bytes and takes no lock,
//!   opens no log, writes nothing), before any connection that could write is opened.
//!   A normal connection would run SQLite's recovery on the log beside the file and,
//!   closing, copy the log into the file and delete it: on a file that is not a
//!   database, that destroyed the log that held the newest pages. A database whose
//!   file alone reads as damaged while a log lies beside it (a checkpoint stopped
//!   halfway by a full disk or a kill: the file alone is a mix of older and newer
//!   pages) is read again through its log, by a connection that only reads.
//! * A log with no database beside it (`games.db-wal` where `games.db` is missing or
//!   empty) is refused: SQLite would delete it and start a new, empty database there,
//!   and the log may be another process's, still writing to a file removed from under
//!   it.
//! * [`Place`]: the device and inode of the file (and of its log) when the store opened
//!   it. The store compares them with its path's before each write and at each
//!   checkup: a file removed, renamed or replaced while open is found within one
//!   checkup, before another write is kept where nobody would find it again.
//! * [`rescue`]: what the store does then: the log it writes is moved away from the
//!   path (so that no other program reads it as the log of whatever file is there now),
//!   and a copy of everything the store holds is written beside the path, and put back
//!   at the path if nothing is there.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};
use tictactoe_core::ports::StoreError;

use crate::errors::{Database, SqliteErrors};
use crate::{Sql, migrations};

/// The path of the file's log (`-wal`) or its index (`-shm`), as SQLite names them:
/// what lies beside a database, and is part of it (a copy of the file alone may lack its
/// newest games).
pub fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The length of the file at `path`, 0 if there is none.
fn length(path: &Path) -> io::Result<u64> {
    match fs::metadata(path) {
        Ok(metadata) => Ok(metadata.len()),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(0),
        Err(error) => Err(error),
    }
}

/// The smallest SQLite database: one page of the smallest size.
const SMALLEST: u64 = 512;

/// Checks the file at `path` by reading alone, as described in the module
/// documentation: `Ok` for a file this program may open (missing, empty, or a database
/// of its own, of a version it knows), the error otherwise. Nothing is written. The
/// log beside the file is read only where the file alone reads as damaged but is a
/// database by its header (a checkpoint stopped halfway: see `read_once`), and then
/// by a connection that cannot change the file or the log.
///
/// A file being written by another process at that moment may be read half-written (a
/// checkpoint rewriting the first page): a refusal is therefore confirmed by a second
/// reading before it is returned.
pub(crate) fn read_alone(path: &Path, database: &Database) -> Result<(), StoreError> {
    read_once(path, database).or_else(|_| {
        std::thread::sleep(std::time::Duration::from_millis(50));
        read_once(path, database)
    })
}

fn read_once(path: &Path, database: &Database) -> Result<(), StoreError> {
    let bytes = length(path).map_err(|error| database.io_error(error))?;
    if bytes == 0 {
        let log = beside(path, "-wal");
        let logged = length(&log).unwrap_or(0);
        if logged > 0 {
            return Err(database.unreadable(format!(
                "there is no database in it, but the log of one lies beside it ({}, \
                 {logged} bytes): a program may still be writing to a database removed \
                 from under it. Nothing was made here",
                log.display()
            )));
        }
        return Ok(());
    }
    if bytes < SMALLEST {
        return Err(database.unreadable(format!(
            "it is {bytes} bytes long, shorter than the first page of any SQLite database"
        )));
    }
    read_the_file_alone(path, bytes, database).or_else(|alone| {
        // A file whose newest pages are in its log may not read whole without it: a
        // checkpoint (copying the log into the file) stopped halfway, by a full disk or
        // a kill, leaves the file alone a mix of older and newer pages, and SQLite reads
        // it as damaged ("malformed") though file and log together are whole. Such a
        // file, a database by its header, is read again through its log, by a
        // connection that only reads: it changes neither the file nor the log (SQLite
        // may rebuild the log's index, `-shm`, which holds nothing of its own).
        let logged = length(&beside(path, "-wal")).unwrap_or(0);
        if logged > 0 && matches!(alone, StoreError::Unreadable { .. }) && sqlite_header(path) {
            read_through_the_log(path, database)
        } else {
            Err(alone)
        }
    })
}

/// Whether the file at `path` starts as every SQLite database does.
fn sqlite_header(path: &Path) -> bool {
    use std::io::Read as _;
    let mut start = [0u8; 16];
    fs::File::open(path)
        .and_then(|mut file| file.read_exact(&mut start))
        .is_ok_and(|()| &start == b"SQLite format 3\0")
}

/// The file's bytes alone (see [`immutable`]): its page size, its length in whole
/// pages, and its schema's version.
fn read_the_file_alone(path: &Path, bytes: u64, database: &Database) -> Result<(), StoreError> {
    let reading = immutable(path).db(database)?;
    let page: i64 = reading
        .pragma_query_value(None, "page_size", |row| row.get(0))
        .db(database)?;
    if page > 0 && !bytes.is_multiple_of(page.unsigned_abs()) {
        return Err(database.unreadable(format!(
            "it is {bytes} bytes long, not a whole number of its {page}-byte pages: it was \
             cut short, or is not a database"
        )));
    }
    migrations::version(&reading, database).map(|_| ())
}

/// The file through its log (see [`read_only`]): its schema's version.
fn read_through_the_log(path: &Path, database: &Database) -> Result<(), StoreError> {
    let reading = read_only(path).db(database)?;
    migrations::version(&reading, database).map(|_| ())
}

/// A connection that reads what another process may be writing, and leaves the file as
/// it found it: through the log if there is one (a reading connection sees one moment
/// of it), the file alone if there is none (no log nor index made beside it).
pub(crate) fn reading(path: &Path) -> rusqlite::Result<Connection> {
    if beside(path, "-wal").exists() {
        read_only(path)
    } else {
        immutable(path)
    }
}

/// A connection that reads the file's bytes and nothing else: no lock, no log, no
/// index, no write (SQLite's `immutable` URI parameter, read-only).
pub(crate) fn immutable(path: &Path) -> rusqlite::Result<Connection> {
    crate::connection::no_bulk_page_caches();
    Connection::open_with_flags(
        format!("file:{}?immutable=1", uri_path(path)),
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
}

/// A connection that only reads, through the log if there is one, and leaves the log
/// as it is when it closes: to check a file another process may be writing.
pub(crate) fn read_only(path: &Path) -> rusqlite::Result<Connection> {
    crate::connection::no_bulk_page_caches();
    let connection = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    crate::connection::keep_the_log_on_close(&connection, true)?;
    connection.busy_timeout(std::time::Duration::from_secs(10))?;
    Ok(connection)
}

/// `path` as the path of a `file:` URI: `%`, `?` and `#` escaped, and an absolute path
/// given an empty authority (`file:///...`).
fn uri_path(path: &Path) -> String {
    let text = path.to_string_lossy();
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => escaped.push_str("%25"),
            '?' => escaped.push_str("%3f"),
            '#' => escaped.push_str("%23"),
            c => escaped.push(c),
        }
    }
    if escaped.starts_with('/') {
        format!("//{escaped}")
    } else {
        escaped
    }
}

/// A file as the operating system knows it: its device and inode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Identity {
    device: u64,
    inode: u64,
}

fn identity(path: &Path) -> io::Result<Identity> {
    let metadata = fs::metadata(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Ok(Identity {
            device: metadata.dev(),
            inode: metadata.ino(),
        })
    }
    #[cfg(not(unix))]
    {
        // No inode to compare: only a file removed is seen.
        let _ = metadata;
        Ok(Identity {
            device: 0,
            inode: 0,
        })
    }
}

/// The file a store holds, and its log and index, as they were once it had opened
/// them.
pub(crate) struct Place {
    file: Option<Identity>,
    log: Option<Identity>,
    index: Option<Identity>,
}

/// How the file at the store's path stopped being the store's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Gone {
    Removed,
    Replaced,
}

impl Place {
    /// The file at `path` now, with its log and index (absent ones left unknown).
    pub(crate) fn of(path: &Path) -> Place {
        Place {
            file: identity(path).ok(),
            log: identity(&beside(path, "-wal")).ok(),
            index: identity(&beside(path, "-shm")).ok(),
        }
    }

    /// Whether the file at `path` is still the one held.
    pub(crate) fn check(&self, path: &Path) -> Result<(), Gone> {
        let Some(held) = self.file else {
            return Ok(());
        };
        match identity(path) {
            Ok(now) if now == held => Ok(()),
            Ok(_) => Err(Gone::Replaced),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Err(Gone::Removed),
            // Cannot be looked at (a folder made unreadable): not known to be gone.
            Err(_) => Ok(()),
        }
    }
}

/// What became of a store whose file went: why, and where its games were saved.
pub(crate) struct Lost {
    gone: Gone,
    /// When it was found, in milliseconds since 1970: names the files it leaves.
    stamp: u128,
    /// The copy of the store's database, once written, and whether it was also put
    /// back at the path.
    saved: Option<(PathBuf, bool)>,
    /// Why the copy could not be written, the last time it was tried.
    failed: Option<String>,
}

impl Lost {
    pub(crate) fn new(gone: Gone) -> Lost {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_millis());
        Lost {
            gone,
            stamp,
            saved: None,
            failed: None,
        }
    }

    /// The error every call of the store returns from now on.
    pub(crate) fn error(&self, database: &Database) -> StoreError {
        let what = match self.gone {
            Gone::Removed => "it was removed, or renamed, while in use",
            Gone::Replaced => "it was replaced while in use: another file is at that path now",
        };
        let copy = match (&self.saved, &self.failed) {
            (Some((saved, true)), _) => format!(
                "every game kept was copied to {} and put back at {}",
                saved.display(),
                database.0
            ),
            (Some((saved, false)), _) => {
                format!("every game kept was copied to {}", saved.display())
            }
            (None, Some(why)) => format!(
                "a copy of its games could not be written yet ({why}): keep this program \
                 running, it tries again at every check"
            ),
            (None, None) => "a copy of its games is being written".to_string(),
        };
        StoreError::Unavailable {
            database: database.0.clone(),
            detail: format!(
                "the file this program writes is no longer the file at that path ({what}); \
                 {copy}; nothing more is written until tictactoe is started again"
            ),
        }
    }

    /// Whether a copy is still to be written.
    pub(crate) fn unsaved(&self) -> bool {
        self.saved.is_none()
    }
}

/// Once the store's file is [`Lost`]: writes a copy of the database `writer` holds
/// beside the path (`PATH.saved-STAMP`), moves the store's log and index away from the
/// path (if they are still its own), and puts the copy back at the path if nothing is
/// there. Tried again at each call while the copy could not be written.
///
/// The order matters to another program opening the path meanwhile. A file removed:
/// while the copy is written (seconds, for a large file) the store's log still lies at
/// the path beside no database, so another program is refused (see [`read_alone`])
/// rather than making a new, empty database there that the copy could then not be put
/// back over; the log is moved away only just before the copy is linked in. A file
/// replaced: the log is moved away first, so that no program reads it as the log of the
/// other file now at the path.
pub(crate) fn rescue(lost: &mut Lost, place: &Place, path: &Path, writer: &Connection) {
    let stamp = lost.stamp;
    let move_the_log_away = || {
        for (suffix, held) in [("-wal", place.log), ("-shm", place.index)] {
            let at = beside(path, suffix);
            if held.is_some() && identity(&at).ok() == held {
                let _ = fs::rename(&at, beside(path, &format!(".lost-{stamp}{suffix}")));
            }
        }
    };
    if lost.gone == Gone::Replaced {
        move_the_log_away();
    }
    let saved = beside(path, &format!(".saved-{stamp}"));
    let Some(target) = saved.to_str() else {
        move_the_log_away();
        lost.failed = Some(format!("{} is not a UTF-8 path", saved.display()));
        return;
    };
    let _ = fs::remove_file(&saved); // a copy an earlier try left half-written
    if let Err(error) = writer.execute("VACUUM INTO ?1", [target]) {
        let _ = fs::remove_file(&saved);
        move_the_log_away();
        lost.failed = Some(error.to_string());
        return;
    }
    // The copy to put back, made before the log is moved, so that the path is without
    // both for as short a time as can be.
    let copy = beside(&saved, ".copy");
    let copied = fs::copy(&saved, &copy).is_ok();
    move_the_log_away();
    let put_back = copied && !path.exists() && fs::hard_link(&copy, path).is_ok();
    let _ = fs::remove_file(&copy);
    lost.saved = Some((saved, put_back));
    lost.failed = None;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_escaped_for_a_uri() {
        assert_eq!(
            uri_path(Path::new("/a b/g%1?x#y.db")),
            "///a b/g%251%3fx%23y.db"
        );
        assert_eq!(uri_path(Path::new("games.db")), "games.db");
    }

    #[test]
    fn the_log_is_named_beside_the_file() {
        assert_eq!(
            beside(Path::new("/x/games.db"), "-wal"),
            PathBuf::from("/x/games.db-wal")
        );
    }
}
