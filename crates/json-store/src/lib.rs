use std::fs::{self, File, OpenOptions};
use std::io::{self, ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use tictactoe_core::domain::{FinishedGame, PlayerName, Record, Scoreboard, Standing};
use tictactoe_core::ports::{Reset, ScoreStore, StoreError};

/// The scoreboard as a JSON file.
///
/// * Every change happens under an exclusive lock on a sibling `<file>.lock` (never on
///   the data file itself, which is replaced on each write), so games that finish at the
///   same moment in different processes are all counted.
/// * Writes are atomic: a temporary file in the same folder, flushed to disk, then
///   renamed over the old one. A crash leaves the old file or the new one, never half.
/// * A file that cannot be read is never overwritten: every operation reports it, and
///   only `reset` moves it aside.
///
/// The bytes reach the disk through a [`DurableWrite`], so tests can make the disk fail.
pub struct JsonFileStore<W = Disk> {
    path: PathBuf,
    writer: W,
}

/// The one step of saving that meets the disk's limits (space, permissions, I/O errors).
#[cfg_attr(test, mockall::automock)]
pub trait DurableWrite {
    /// Creates the file at `path` with `bytes` in it, flushed to the device.
    fn write_new_file(&self, path: &Path, bytes: &[u8]) -> io::Result<()>;
}

/// The real disk.
pub struct Disk;

impl DurableWrite for Disk {
    fn write_new_file(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        let mut file = File::create(path)?;
        file.write_all(bytes)?;
        file.sync_all()
    }
}

/// The format version this build writes and the newest it reads.
const FORMAT_VERSION: u64 = 1;

#[derive(Serialize, Deserialize)]
struct FileContents {
    version: u64,
    players: Vec<FileRow>,
}

#[derive(Serialize, Deserialize)]
struct FileRow {
    name: String,
    wins: u64,
    losses: u64,
    ties: u64,
    /// Written for people reading the file; recomputed, never trusted, on reading.
    #[serde(default)]
    games: u64,
}

#[derive(Deserialize)]
struct VersionOnly {
    version: Option<u64>,
}

/// Why the file's JSON cannot be used, in a reader's terms rather than serde's (which
/// would name this module's private types).
fn unreadable_json(error: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let at = format!("line {}, column {}", error.line(), error.column());
    match error.classify() {
        Category::Syntax => format!("it is not valid JSON ({at})"),
        Category::Eof => "it ends too soon".to_string(),
        Category::Data => format!("it is JSON, but not a scoreboard ({at})"),
        Category::Io => "it could not be read to the end".to_string(),
    }
}

impl JsonFileStore {
    pub fn new(path: impl Into<PathBuf>) -> Self {
        JsonFileStore::with_writer(path, Disk)
    }
}

impl<W: DurableWrite> JsonFileStore<W> {
    pub fn with_writer(path: impl Into<PathBuf>, writer: W) -> Self {
        JsonFileStore {
            path: path.into(),
            writer,
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn io_error(&self, source: io::Error) -> StoreError {
        StoreError::Io {
            path: self.path.clone(),
            source,
        }
    }

    fn corrupt(&self, detail: impl ToString) -> StoreError {
        StoreError::Corrupt {
            path: self.path.clone(),
            detail: detail.to_string(),
        }
    }

    fn is_folder(&self) -> StoreError {
        StoreError::Folder {
            path: self.path.clone(),
        }
    }

    /// Runs `action` while holding the lock file exclusively.
    fn locked<T>(&self, action: impl FnOnce() -> Result<T, StoreError>) -> Result<T, StoreError> {
        // Checked first, so that no `FOLDER.lock` is ever made beside a folder.
        if self.path.is_dir() {
            return Err(self.is_folder());
        }
        if let Some(folder) = self.path.parent().filter(|p| !p.as_os_str().is_empty()) {
            fs::create_dir_all(folder).map_err(|e| self.io_error(e))?;
        }
        let mut lock_name = self.path.clone().into_os_string();
        lock_name.push(".lock");
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_name)
            .map_err(|e| self.io_error(e))?;
        lock.lock().map_err(|e| self.io_error(e))?;
        let result = action();
        // Closing the file releases the lock, even if `action` failed.
        drop(lock);
        result
    }

    /// The scoreboard on disk; a missing file is an empty scoreboard.
    fn read(&self) -> Result<Scoreboard, StoreError> {
        let bytes = match fs::read(&self.path) {
            // A file just created (`touch`), or truncated by hand, holds no scores yet.
            Ok(bytes) if bytes.is_empty() => return Ok(Scoreboard::new()),
            Ok(bytes) => bytes,
            Err(error) if error.kind() == ErrorKind::NotFound => return Ok(Scoreboard::new()),
            Err(_) if self.path.is_dir() => return Err(self.is_folder()),
            Err(error) => return Err(self.io_error(error)),
        };
        let version: VersionOnly =
            serde_json::from_slice(&bytes).map_err(|e| self.corrupt(unreadable_json(&e)))?;
        match version.version {
            None => return Err(self.corrupt("it has no format version")),
            Some(found) if found > FORMAT_VERSION => {
                return Err(StoreError::NewerFormat {
                    path: self.path.clone(),
                    found,
                    supported: FORMAT_VERSION,
                });
            }
            Some(_) => {}
        }
        let contents: FileContents =
            serde_json::from_slice(&bytes).map_err(|e| self.corrupt(unreadable_json(&e)))?;
        let rows = contents
            .players
            .into_iter()
            .map(|row| {
                let name = PlayerName::stored(&row.name)
                    .map_err(|e| self.corrupt(format!("a player name: {e}")))?;
                let record = Record {
                    wins: row.wins,
                    losses: row.losses,
                    ties: row.ties,
                };
                Ok(Standing { name, record })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(Scoreboard::from_standings(rows))
    }

    fn write(&self, scoreboard: &Scoreboard) -> Result<(), StoreError> {
        let contents = FileContents {
            version: FORMAT_VERSION,
            players: scoreboard
                .standings()
                .iter()
                .map(|s| FileRow {
                    name: s.name.to_string(),
                    wins: s.record.wins,
                    losses: s.record.losses,
                    ties: s.record.ties,
                    games: s.record.games(),
                })
                .collect(),
        };
        let mut json = serde_json::to_vec_pretty(&contents)
            .expect("a scoreboard of strings and numbers always serialises");
        json.push(b'\n');

        self.remove_stale_temporary_files();
        let mut temp_name = self.temp_prefix();
        temp_name.push(std::process::id().to_string());
        let temp = PathBuf::from(temp_name);
        let written = (|| {
            self.writer.write_new_file(&temp, &json)?;
            fs::rename(&temp, &self.path)?;
            // Make the rename itself durable; not every platform can open a folder.
            if let Some(folder) = self.path.parent().filter(|p| !p.as_os_str().is_empty())
                && let Ok(folder) = File::open(folder)
            {
                let _ = folder.sync_all();
            }
            Ok(())
        })();
        if written.is_err() {
            let _ = fs::remove_file(&temp);
        }
        written.map_err(|e| self.io_error(e))
    }

    fn temp_prefix(&self) -> std::ffi::OsString {
        let mut prefix = self.path.clone().into_os_string();
        prefix.push(".tmp-");
        prefix
    }

    /// Temporary files exist only while their writer holds the lock. Called with the lock
    /// held, any that are left belong to a writer that was killed: they are litter.
    fn remove_stale_temporary_files(&self) {
        let (Some(folder), Some(prefix)) = (
            self.path.parent(),
            PathBuf::from(self.temp_prefix())
                .file_name()
                .map(|p| p.to_owned()),
        ) else {
            return;
        };
        let folder = if folder.as_os_str().is_empty() {
            Path::new(".")
        } else {
            folder
        };
        let Ok(entries) = fs::read_dir(folder) else {
            return;
        };
        for entry in entries.flatten() {
            if entry
                .file_name()
                .as_encoded_bytes()
                .starts_with(prefix.as_encoded_bytes())
            {
                let _ = fs::remove_file(entry.path());
            }
        }
    }

    /// Moves the file aside, next to it, under a name that says why (`label`).
    fn move_aside(&self, label: &str) -> Result<PathBuf, StoreError> {
        let seconds = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let base = self.path.clone().into_os_string();
        for attempt in 0..1000 {
            let mut name = base.clone();
            name.push(format!(".{label}-{seconds}"));
            if attempt > 0 {
                name.push(format!("-{attempt}"));
            }
            let aside = PathBuf::from(name);
            if !aside.exists() {
                fs::rename(&self.path, &aside).map_err(|e| self.io_error(e))?;
                return Ok(aside);
            }
        }
        let taken = io::Error::new(
            ErrorKind::AlreadyExists,
            "no free name to move the old file to",
        );
        Err(self.io_error(taken))
    }
}

impl<W: DurableWrite> ScoreStore for JsonFileStore<W> {
    fn load(&self) -> Result<Scoreboard, StoreError> {
        // Renames are atomic, so reading needs no lock: it sees the old file or the new.
        self.read()
    }

    fn record(&self, game: &FinishedGame) -> Result<Scoreboard, StoreError> {
        self.record_all(std::slice::from_ref(game))
    }

    /// One read, one durable write, under one lock: all the games or none.
    fn record_all(&self, games: &[FinishedGame]) -> Result<Scoreboard, StoreError> {
        self.locked(|| {
            let mut scoreboard = self.read()?;
            for game in games {
                scoreboard.record(game);
            }
            self.write(&scoreboard)?;
            Ok(scoreboard)
        })
    }

    fn reset(&self) -> Result<Reset, StoreError> {
        self.locked(|| match self.read() {
            Ok(scoreboard) if scoreboard.is_empty() => {
                self.write(&Scoreboard::new())?;
                Ok(Reset::Cleared { kept: None })
            }
            Ok(_) => {
                let kept = self.move_aside("before-reset")?;
                self.write(&Scoreboard::new())?;
                Ok(Reset::Cleared { kept: Some(kept) })
            }
            Err(StoreError::Corrupt { .. } | StoreError::NewerFormat { .. }) => {
                let aside = self.move_aside("unreadable")?;
                self.write(&Scoreboard::new())?;
                Ok(Reset::MovedAside(aside))
            }
            Err(error) => Err(error),
        })
    }
}

#[cfg(test)]
mod tests {
    use tempfile::TempDir;

    use super::*;
    use tictactoe_core::domain::{Mark, Outcome};

    fn game() -> FinishedGame {
        FinishedGame {
            x: PlayerName::new("Ada").unwrap(),
            o: PlayerName::new("Bob").unwrap(),
            outcome: Outcome::Won(Mark::X),
        }
    }

    #[test]
    fn a_full_disk_is_an_error_that_names_the_file_and_keeps_the_old_scores() {
        // Arrange: one game saved for real, then a disk that is full.
        let folder = TempDir::new().unwrap();
        let path = folder.path().join("scores.json");
        JsonFileStore::new(&path).record(&game()).unwrap();
        let before = fs::read(&path).unwrap();
        let mut full = MockDurableWrite::new();
        full.expect_write_new_file()
            .times(1)
            .returning(|_, _| Err(io::Error::from(ErrorKind::StorageFull)));
        let store = JsonFileStore::with_writer(&path, full);

        // Act
        let error = store.record(&game()).unwrap_err();

        // Assert
        assert!(
            matches!(&error, StoreError::Io { source, .. } if source.kind() == ErrorKind::StorageFull)
        );
        assert!(error.to_string().contains("scores.json"), "{error}");
        assert_eq!(
            fs::read(&path).unwrap(),
            before,
            "the saved scores are untouched"
        );
    }

    #[test]
    fn the_temporary_file_is_written_next_to_the_scoreboard() {
        let folder = TempDir::new().unwrap();
        let path = folder.path().join("scores.json");
        let mut writer = MockDurableWrite::new();
        let expected_folder = folder.path().to_path_buf();
        writer
            .expect_write_new_file()
            .withf(move |temp, bytes| {
                temp.parent() == Some(expected_folder.as_path())
                    && temp
                        .file_name()
                        .unwrap()
                        .to_string_lossy()
                        .starts_with("scores.json.tmp-")
                    && bytes.starts_with(b"{")
            })
            .times(1)
            .returning(|temp, bytes| Disk.write_new_file(temp, bytes));

        JsonFileStore::with_writer(&path, writer)
            .record(&game())
            .unwrap();

        assert!(path.exists());
    }

    #[test]
    fn temporary_files_left_by_a_killed_writer_are_cleared_on_the_next_save() {
        let folder = TempDir::new().unwrap();
        let path = folder.path().join("scores.json");
        let litter = folder.path().join("scores.json.tmp-999999");
        fs::write(&litter, b"half a fi").unwrap();

        JsonFileStore::new(&path).record(&game()).unwrap();

        assert!(!litter.exists());
        assert!(
            folder.path().join("scores.json.lock").exists(),
            "the lock file stays: it is never replaced"
        );
    }
}
