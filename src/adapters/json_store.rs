use std::fs::{self, File, OpenOptions};
use std::io::{self, ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::domain::{FinishedGame, PlayerName, Record, Scoreboard, Standing};
use crate::ports::{Reset, ScoreStore, StoreError};

/// The scoreboard as a JSON file.
///
/// * Every change happens under an exclusive lock on a sibling `<file>.lock` (never on
///   the data file itself, which is replaced on each write), so games that finish at the
///   same moment in different processes are all counted.
/// * Writes are atomic: a temporary file in the same folder, flushed to disk, then
///   renamed over the old one. A crash leaves the old file or the new one, never half.
/// * A file that cannot be read is never overwritten: every operation reports it, and
///   only `reset` moves it aside.
pub struct JsonFileStore {
    path: PathBuf,
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

impl JsonFileStore {
    pub fn new(path: impl Into<PathBuf>) -> Self {
        JsonFileStore { path: path.into() }
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

    /// Runs `action` while holding the lock file exclusively.
    fn locked<T>(&self, action: impl FnOnce() -> Result<T, StoreError>) -> Result<T, StoreError> {
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
            Ok(bytes) => bytes,
            Err(error) if error.kind() == ErrorKind::NotFound => return Ok(Scoreboard::new()),
            Err(error) => return Err(self.io_error(error)),
        };
        let version: VersionOnly = serde_json::from_slice(&bytes).map_err(|e| self.corrupt(e))?;
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
        let contents: FileContents = serde_json::from_slice(&bytes).map_err(|e| self.corrupt(e))?;
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
        // Serialising plain strings and numbers cannot fail.
        let mut json = serde_json::to_vec_pretty(&contents).unwrap_or_default();
        json.push(b'\n');

        let mut temp_name = self.path.clone().into_os_string();
        temp_name.push(format!(".tmp-{}", std::process::id()));
        let temp = PathBuf::from(temp_name);
        let written = (|| {
            let mut file = File::create(&temp)?;
            file.write_all(&json)?;
            file.sync_all()?;
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

    /// Moves an unreadable file aside, next to it, under a name that says why.
    fn move_aside(&self) -> Result<PathBuf, StoreError> {
        let seconds = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let base = self.path.clone().into_os_string();
        for attempt in 0..1000 {
            let mut name = base.clone();
            name.push(format!(".unreadable-{seconds}"));
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
            "no free name to move the unreadable file to",
        );
        Err(self.io_error(taken))
    }
}

impl ScoreStore for JsonFileStore {
    fn load(&self) -> Result<Scoreboard, StoreError> {
        // Renames are atomic, so reading needs no lock: it sees the old file or the new.
        self.read()
    }

    fn record(&self, game: &FinishedGame) -> Result<Scoreboard, StoreError> {
        self.locked(|| {
            let mut scoreboard = self.read()?;
            scoreboard.record(game);
            self.write(&scoreboard)?;
            Ok(scoreboard)
        })
    }

    fn reset(&self) -> Result<Reset, StoreError> {
        self.locked(|| match self.read() {
            Ok(_) => {
                self.write(&Scoreboard::new())?;
                Ok(Reset::Cleared)
            }
            Err(StoreError::Corrupt { .. } | StoreError::NewerFormat { .. }) => {
                let aside = self.move_aside()?;
                self.write(&Scoreboard::new())?;
                Ok(Reset::MovedAside(aside))
            }
            Err(error) => Err(error),
        })
    }
}
