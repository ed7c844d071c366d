//! Opening: what is made, and what is refused and left exactly as it was.

use tictactoe_core::ports::StoreError;

use super::*;

#[test]
fn opening_a_missing_file_makes_it_and_its_folders() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("a").join("b").join("games.sqlite3");

    let store = SqliteStore::open(&path);

    assert!(store.is_ok(), "{:?}", store.err());
    assert!(path.is_file());
}

#[test]
fn a_new_file_is_at_the_newest_schema_and_in_wal_mode() {
    let (_folder, path) = new_file();

    drop(SqliteStore::open(&path).unwrap());

    let file = by_hand(&path);
    let version: i64 = file
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    let mode: String = file
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(version, SqliteStore::SCHEMA_VERSION);
    assert_eq!(mode, "wal");
}

#[test]
fn a_folder_is_refused_as_a_folder() {
    let folder = tempfile::tempdir().unwrap();

    let result = SqliteStore::open(folder.path());

    assert!(
        matches!(&result, Err(StoreError::Folder { database }) if *database == folder.path().display().to_string()),
        "{:?}",
        result.err()
    );
}

#[test]
fn a_file_that_is_not_a_database_is_unreadable_and_left_as_it_is() {
    let (_folder, path) = new_file();
    fs::write(&path, "Ada 3 1 0\nBob 1 3 0\n".repeat(200)).unwrap();
    let refusal = refused_untouched(&path);

    assert!(
        matches!(&refusal, StoreError::Unreadable { database, .. } if *database == path.display().to_string()),
        "{refusal:?}"
    );
}

#[test]
fn a_database_cut_short_is_unreadable_and_left_as_it_is() {
    let (_folder, path) = new_file();
    file_with_games(&path, 300);
    assert!(
        !path.with_extension("sqlite3-wal").exists(),
        "the log was folded in"
    );
    let whole = bytes(&path);
    fs::write(&path, &whole[..whole.len() / 2]).unwrap();
    let refusal = refused_untouched(&path);

    assert!(
        matches!(refusal, StoreError::Unreadable { .. }),
        "{refusal:?}"
    );
}

#[test]
fn another_programs_database_is_unreadable_and_left_as_it_is() {
    let (_folder, path) = new_file();
    by_hand(&path)
        .execute_batch("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine');")
        .unwrap();
    let refusal = refused_untouched(&path);

    assert!(
        matches!(&refusal, StoreError::Unreadable { detail, .. } if detail.contains("not one of tictactoe's")),
        "{refusal:?}"
    );
}

#[test]
fn a_database_from_a_newer_version_is_refused_and_left_as_it_is() {
    let (_folder, path) = new_file();
    file_with_games(&path, 1);
    by_hand(&path)
        .pragma_update(None, "user_version", 99)
        .unwrap();
    let refusal = refused_untouched(&path);

    assert!(
        matches!(
            refusal,
            StoreError::Newer {
                found: 99,
                known: SqliteStore::SCHEMA_VERSION,
                ..
            }
        ),
        "{refusal:?}"
    );
}

#[test]
fn an_empty_file_is_a_new_database() {
    let (_folder, path) = new_file();
    fs::write(&path, "").unwrap();

    let store = SqliteStore::open(&path).unwrap();

    assert!(store.write(&won_game(1, "Ada", "Bob")).is_ok());
}

#[test]
fn what_is_kept_is_there_when_the_file_is_opened_again() {
    let (_folder, path) = new_file();
    file_with_games(&path, 3);

    let store = SqliteStore::open(&path).unwrap();

    let ada = store
        .standings_of(&[PlayerName::new("Ada").unwrap()])
        .unwrap();
    assert_eq!(ada.standings()[0].record.wins, 3);
    assert_eq!(store.game(&id(2)).unwrap().unwrap().steps.len(), 2);
}

#[test]
fn a_path_through_a_file_is_unavailable_with_the_reason() {
    let (_folder, path) = new_file();
    fs::write(&path, "a file, not a folder").unwrap();

    let result = SqliteStore::open(&path.join("games.sqlite3"));

    assert!(
        matches!(&result, Err(StoreError::Unavailable { detail, .. }) if !detail.is_empty()),
        "{:?}",
        result.err()
    );
}
