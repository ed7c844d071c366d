//! What is read back is checked: a file edited by hand gives an error naming the game (or
//! what of an account), never a panic, and nothing is written on top of it.

use rstest::rstest;
use tictactoe_core::ports::{AccountStore, NewAccount, PasswordHash, StoreError};

use super::*;

/// A file with game 1 (won by Ada), then `edit` done to it by hand.
fn edited(edit: &str) -> (TempDir, PathBuf) {
    let (folder, path) = new_file();
    file_with_games(&path, 1);
    by_hand(&path)
        .execute(edit, [id(1).as_str()])
        .expect("the edit");
    (folder, path)
}

fn names_game_1(result: &Result<impl std::fmt::Debug, StoreError>) -> bool {
    matches!(result, Err(StoreError::Unreadable { detail, .. }) if detail.contains(id(1).as_str()))
}

#[rstest]
#[case::unknown_level(
    "UPDATE games SET x_kind = 'computer', x_name = NULL, x_level = 'grandmaster' WHERE id = ?1"
)]
#[case::a_computer_with_a_name(
    "UPDATE games SET x_kind = 'computer', x_level = 'easy' WHERE id = ?1"
)]
#[case::a_name_with_control_characters(
    "UPDATE games SET x_name = 'Ada' || char(27) || '[2J' WHERE id = ?1"
)]
#[case::two_people_of_one_name("UPDATE games SET o_name = 'ADA' WHERE id = ?1")]
#[case::no_such_board("UPDATE games SET size = 9 WHERE id = ?1")]
#[case::a_cell_off_the_board("UPDATE steps SET cell = 9 WHERE game = ?1 AND number = 2")]
#[case::a_gap_in_the_steps("DELETE FROM steps WHERE game = ?1 AND number = 1")]
#[case::a_bad_seat_lock("UPDATE games SET x_lock = 'not hex' WHERE id = ?1")]
fn a_game_edited_into_nonsense_is_unreadable_and_named(#[case] edit: &str) {
    let (_folder, path) = edited(edit);
    let store = SqliteStore::open(&path).unwrap();

    let result = store.game(&id(1));

    assert!(names_game_1(&result), "{result:?}");
}

#[test]
fn a_write_on_top_of_a_game_edited_into_nonsense_is_refused_and_changes_nothing() {
    let (_folder, path) = edited(
        "UPDATE games SET ending = NULL, ended_at = NULL, x_level = 'grandmaster', \
         x_kind = 'computer', x_name = NULL WHERE id = ?1",
    );
    let store = SqliteStore::open(&path).unwrap();
    let board = store.scoreboard(None).unwrap();

    let result = store.write(&[Write::End {
        game: id(1),
        ending: Ending::Finished(Outcome::Draw),
    }]);

    assert!(names_game_1(&result), "{result:?}");
    assert_eq!(store.scoreboard(None).unwrap(), board);
}

#[test]
fn a_scoreboard_row_edited_into_nonsense_is_unreadable() {
    let (_folder, path) =
        edited("UPDATE tallies SET name = char(7) WHERE key = 'ada' AND ?1 <> ''");
    let store = SqliteStore::open(&path).unwrap();

    let result = store.scoreboard(None);

    assert!(
        matches!(result, Err(StoreError::Unreadable { .. })),
        "{result:?}"
    );
}

#[test]
fn a_step_numbered_past_any_step_by_hand_makes_the_next_write_unreadable_not_a_panic() {
    // Arrange: game 1 still being played, its last step numbered the largest integer.
    let (_folder, path) = edited("UPDATE games SET ending = NULL, ended_at = NULL WHERE id = ?1");
    by_hand(&path)
        .execute(
            "UPDATE steps SET number = ?2 WHERE game = ?1 AND number = 2",
            rusqlite::params![id(1).as_str(), i64::MAX],
        )
        .expect("the edit");
    let store = SqliteStore::open(&path).unwrap();

    let result = store.write(&[play(1, 3, 8)]);

    assert!(names_game_1(&result), "{result:?}");
}

/// A file with Ada's account, then `edit` done to its row by hand.
fn account_edited(edit: &str) -> (TempDir, SqliteStore) {
    let (folder, path) = new_file();
    let store = SqliteStore::open(&path).unwrap();
    store
        .add_account(&NewAccount {
            name: PlayerName::new("Ada").unwrap(),
            password: PasswordHash::parse("$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA").unwrap(),
        })
        .unwrap();
    by_hand(&path).execute(edit, []).expect("the edit");
    (folder, store)
}

#[rstest]
#[case::a_password_that_is_no_hash("UPDATE accounts SET password = 'hunter2'", "password")]
#[case::a_name_with_control_characters("UPDATE accounts SET name = 'Ada' || char(27)", "name")]
#[case::made_after_the_year_9999("UPDATE accounts SET created = 9223372036854775807", "creation")]
fn an_account_edited_into_nonsense_is_unreadable_and_says_what(
    #[case] edit: &str,
    #[case] what: &str,
) {
    let (_folder, store) = account_edited(edit);

    let result = store.account(&PlayerName::new("Ada").unwrap());

    assert!(
        matches!(&result, Err(StoreError::Unreadable { detail, .. }) if detail.contains(what)),
        "{result:?}"
    );
}
