//! A file that is locked, full or read-only: each said as such, with real files.

use std::fs::OpenOptions;
use std::process::Command;
use std::time::{Duration, Instant};

use tictactoe_core::ports::StoreError;

use super::*;

/// A store on a database of one game at `path`, opened with `options`, and another
/// connection to it that holds its write lock (until it rolls back or is dropped).
fn write_locked(path: &Path, options: Options) -> (SqliteStore, rusqlite::Connection) {
    file_with_games(path, 1);
    let store = SqliteStore::open_with(path, options).unwrap();
    let other = by_hand(path);
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    (store, other)
}

#[test]
fn a_write_lock_held_past_the_busy_timeout_is_locked_and_said_quickly() {
    let (_folder, path) = new_file();
    let (store, _holder) = write_locked(&path, quick());
    let started = Instant::now();

    let result = store.write(&won_game(2, "Cy", "Dee"));
    let took = started.elapsed();

    assert!(
        matches!(&result, Err(StoreError::Locked { database }) if *database == path.display().to_string()),
        "{result:?}"
    );
    assert!(took < Duration::from_secs(2), "{took:?}");
}

#[test]
fn reads_go_on_while_another_process_holds_the_write_lock() {
    let (_folder, path) = new_file();
    let (store, _holder) = write_locked(&path, quick());

    let board = store.scoreboard(None);
    let game = store.game(&id(1));

    assert_eq!(board.unwrap().standings().len(), 2);
    assert!(game.unwrap().is_some());
}

#[test]
fn a_write_waits_for_a_lock_let_go_within_the_busy_timeout() {
    let (_folder, path) = new_file();
    let (store, other) = write_locked(&path, Options::default());
    let releaser = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        other.execute_batch("COMMIT").unwrap();
    });

    let result = store.write(&won_game(2, "Cy", "Dee"));

    releaser.join().unwrap();
    assert!(result.is_ok(), "{result:?}");
}

#[test]
fn a_full_database_is_full_and_keeps_what_it_had() {
    let (_folder, path) = new_file();
    file_with_games(&path, 1);
    let pages: u32 = by_hand(&path)
        .pragma_query_value(None, "page_count", |r| r.get(0))
        .unwrap();
    let options = Options {
        max_page_count: Some(pages + 2),
        ..Options::default()
    };
    let store = SqliteStore::open_with(&path, options).unwrap();

    let result = (2..2000)
        .map(|n| store.write(&won_game(n, &format!("Player {n:04}"), "Bob")))
        .find(Result::is_err)
        .expect("the cap is reached");

    assert!(
        matches!(&result, Err(StoreError::Full { database }) if *database == path.display().to_string()),
        "{result:?}"
    );
    assert!(store.game(&id(1)).unwrap().is_some());
    let bob = store
        .standings_of(&[PlayerName::new("Bob").unwrap()])
        .unwrap();
    let games = (2..2000)
        .take_while(|&n| store.game(&id(n)).unwrap().is_some())
        .count() as u64;
    assert_eq!(
        bob.standings()[0].record.losses,
        games + 1,
        "the refused game was not counted"
    );
}

/// Makes `path` impossible to write for this process, undone when dropped. Not root:
/// its permissions. Root may write whatever the permissions say, so there the file is
/// made immutable (`chattr +i`, which stops root too). `None` if neither works here.
struct ReadOnlyFile {
    path: PathBuf,
    immutable: bool,
}

impl ReadOnlyFile {
    fn make(path: &Path) -> Option<ReadOnlyFile> {
        let writable = || OpenOptions::new().append(true).open(path).is_ok();
        let mut permissions = fs::metadata(path).unwrap().permissions();
        permissions.set_readonly(true);
        fs::set_permissions(path, permissions).unwrap();
        if !writable() {
            return Some(ReadOnlyFile {
                path: path.to_owned(),
                immutable: false,
            });
        }
        let made = Command::new("chattr").arg("+i").arg(path).status();
        let guard = ReadOnlyFile {
            path: path.to_owned(),
            immutable: true,
        };
        match made {
            Ok(status) if status.success() && !writable() => Some(guard),
            _ => None,
        }
    }
}

impl Drop for ReadOnlyFile {
    fn drop(&mut self) {
        if self.immutable {
            let _ = Command::new("chattr").arg("-i").arg(&self.path).status();
        }
        if let Ok(metadata) = fs::metadata(&self.path) {
            let mut permissions = metadata.permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            permissions.set_readonly(false);
            let _ = fs::set_permissions(&self.path, permissions);
        }
    }
}

#[test]
fn a_file_that_cannot_be_written_is_read_but_writes_are_read_only() {
    let (_folder, path) = new_file();
    file_with_games(&path, 1);
    let Some(_read_only) = ReadOnlyFile::make(&path) else {
        println!("SKIPPED: cannot make a file read-only here (neither permissions nor chattr +i)");
        return;
    };

    let store = SqliteStore::open(&path).unwrap();
    let result = store.write(&won_game(2, "Cy", "Dee"));

    assert!(
        matches!(&result, Err(StoreError::ReadOnly { database }) if *database == path.display().to_string()),
        "{result:?}"
    );
    assert!(store.game(&id(1)).unwrap().is_some());
    assert_eq!(store.scoreboard(None).unwrap().standings().len(), 2);
}

#[test]
fn a_read_only_file_that_needs_migrating_is_read_only() {
    let (_folder, path) = new_file();
    super::migrations::version_1_file(&path);
    let Some(_read_only) = ReadOnlyFile::make(&path) else {
        println!("SKIPPED: cannot make a file read-only here (neither permissions nor chattr +i)");
        return;
    };
    let refusal = refused_untouched(&path);

    assert!(
        matches!(refusal, StoreError::ReadOnly { .. }),
        "{refusal:?}"
    );
}
