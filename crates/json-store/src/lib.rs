//! The scoreboard file of earlier versions (`scores.json`), read so that its tallies
//! can be imported into the database. Nothing here writes: since games are kept in a
//! database, this file is only ever read, and a file that cannot be read is reported
//! and left exactly as it is.
//!
//! The format: `{"version": 1, "players": [{"name", "wins", "losses", "ties",
//! "games"}]}`. `games` was written for people reading the file and is never trusted.

use std::fs;
use std::io::ErrorKind;
use std::path::Path;

use serde::Deserialize;

use tictactoe_core::domain::{PlayerName, Record, Scoreboard, Standing};
use tictactoe_core::ports::StoreError;

/// The newest format version this build reads.
const FORMAT_VERSION: u64 = 1;

#[derive(Deserialize)]
struct FileContents {
    players: Vec<FileRow>,
}

#[derive(Deserialize)]
struct FileRow {
    name: String,
    wins: u64,
    losses: u64,
    ties: u64,
}

#[derive(Deserialize)]
struct VersionOnly {
    version: Option<u64>,
}

/// What is in the scoreboard file at `path`: `Ok(None)` if there is no such file, and
/// an empty scoreboard for an empty file (one created with `touch`).
pub fn read_scoreboard(path: &Path) -> Result<Option<Scoreboard>, StoreError> {
    let database = path.display().to_string();
    let unreadable = |detail: String| StoreError::Unreadable {
        database: database.clone(),
        detail,
    };
    let bytes = match fs::read(path) {
        Ok(bytes) if bytes.is_empty() => return Ok(Some(Scoreboard::new())),
        Ok(bytes) => bytes,
        Err(error) if error.kind() == ErrorKind::NotFound => return Ok(None),
        Err(_) if path.is_dir() => {
            return Err(StoreError::Folder {
                database: database.clone(),
            });
        }
        Err(error) => {
            return Err(StoreError::Unavailable {
                database: database.clone(),
                detail: error.to_string(),
            });
        }
    };
    let version: VersionOnly =
        serde_json::from_slice(&bytes).map_err(|e| unreadable(unreadable_json(&e)))?;
    match version.version {
        None => return Err(unreadable("it has no format version".into())),
        Some(found) if found > FORMAT_VERSION => {
            return Err(StoreError::Newer {
                database,
                found: i64::try_from(found).unwrap_or(i64::MAX),
                known: FORMAT_VERSION as i64,
            });
        }
        Some(_) => {}
    }
    let contents: FileContents =
        serde_json::from_slice(&bytes).map_err(|e| unreadable(unreadable_json(&e)))?;
    let rows = contents
        .players
        .into_iter()
        .map(|row| {
            let name = PlayerName::stored(&row.name)
                .map_err(|e| unreadable(format!("a player name: {e}")))?;
            let record = Record {
                wins: row.wins,
                losses: row.losses,
                ties: row.ties,
            };
            Ok(Standing { name, record })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    Ok(Some(Scoreboard::from_standings(rows)))
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
