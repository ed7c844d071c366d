//! The schema's versions: a new file is brought to the newest, and a file of version 1
//! (games, no tallies) keeps its games and has them counted.

use tictactoe_core::domain::{Certainty, Record};
use tictactoe_core::ports::{RatingListQuery, RatingStore};

use super::*;

const MIGRATION_1: &str = include_str!("../../migrations/0001_games_and_steps.sql");

/// A file as version 1 of the schema left it, written by that migration alone and by
/// hand: game 1 Ada beat Bob (two moves), game 2 a person with the default name drew
/// with the computer, game 3 was abandoned, game 4 is being played (one move).
pub(crate) fn version_1_file(path: &Path) {
    let mut file = by_hand(path);
    let migration = file.transaction().unwrap();
    migration.execute_batch(MIGRATION_1).unwrap();
    migration.pragma_update(None, "user_version", 1).unwrap();
    migration.commit().unwrap();
    let game = |n: u128, x: (&str, Option<&str>, Option<&str>), ending: Option<&str>| {
        file.execute(
            "INSERT INTO games (id, x_kind, x_name, x_level, o_kind, o_name, o_level, size, \
             win, first, seating, started_at, ended_at, ending) \
             VALUES (?1, ?2, ?3, ?4, 'human', 'Bob', NULL, 3, 3, 'X', 'together', 1000, ?5, ?6)",
            rusqlite::params![id(n).as_str(), x.0, x.1, x.2, ending.map(|_| 2000), ending],
        )
        .unwrap();
    };
    game(1, ("human", Some("Ada"), None), Some("X won"));
    game(2, ("human", None, None), Some("draw"));
    game(3, ("computer", None, Some("easy")), Some("O abandoned"));
    game(4, ("human", Some("Cy"), None), None);
    file.execute_batch(&format!(
        "INSERT INTO steps VALUES ('{one}', 1, 4, NULL), ('{one}', 2, 0, NULL), \
         ('{four}', 1, 8, NULL);",
        one = id(1),
        four = id(4)
    ))
    .unwrap();
}

/// The store's scoreboard as (name, record) rows, in order.
fn scoreboard_rows(store: &SqliteStore) -> Vec<(String, Record)> {
    store
        .scoreboard(None)
        .unwrap()
        .standings()
        .iter()
        .map(|row| (row.name.to_string(), row.record))
        .collect()
}

fn version(path: &Path) -> i64 {
    by_hand(path)
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap()
}

/// A scoreboard row: a name and its record.
fn row(name: &str, wins: u64, losses: u64, ties: u64) -> (String, Record) {
    (name.to_owned(), Record { wins, losses, ties })
}

#[test]
fn a_file_of_version_1_is_brought_to_the_newest_version() {
    let (_folder, path) = new_file();
    version_1_file(&path);

    drop(SqliteStore::open(&path).unwrap());

    assert_eq!(version(&path), SqliteStore::SCHEMA_VERSION);
}

#[test]
fn the_games_of_a_version_1_file_are_still_there() {
    let (_folder, path) = new_file();
    version_1_file(&path);

    let store = SqliteStore::open(&path).unwrap();

    let won = store.game(&id(1)).unwrap().expect("game 1");
    assert_eq!(won.game, new_game(1, "Ada", "Bob"));
    assert_eq!(won.steps.len(), 2);
    assert_eq!(won.ending, Some(Ending::Finished(Outcome::Won(Mark::X))));
    let played = store.game(&id(4)).unwrap().expect("game 4");
    assert_eq!(played.ending, None);
    assert_eq!(played.steps.len(), 1);
    let default_named = store.game(&id(2)).unwrap().expect("game 2");
    assert_eq!(
        default_named.game.settings.player(Mark::X),
        &PlayerSpec::Human(None)
    );
}

#[test]
fn games_go_on_being_kept_and_counted_after_the_migration() {
    let (_folder, path) = new_file();
    version_1_file(&path);
    let store = SqliteStore::open(&path).unwrap();

    store
        .write(&[
            play(4, 2, 0),
            Write::End {
                game: id(4),
                ending: Ending::Resigned(Mark::O),
            },
        ])
        .unwrap();

    let bob = store
        .standings_of(&[PlayerName::new("bob").unwrap()])
        .unwrap();
    assert_eq!(bob.standings()[0].record.losses, 2);
}

#[test]
fn a_file_already_migrated_is_opened_as_it_is() {
    let (_folder, path) = new_file();
    file_with_games(&path, 2);

    let store = SqliteStore::open(&path).unwrap();

    assert_eq!(version(&path), SqliteStore::SCHEMA_VERSION);
    let ada = store
        .standings_of(&[PlayerName::new("Ada").unwrap()])
        .unwrap();
    assert_eq!(ada.standings()[0].record.wins, 2, "counted once, not again");
}

#[test]
fn several_stores_opening_one_new_file_at_once_migrate_it_once() {
    let (_folder, path) = new_file();

    let stores: Vec<SqliteStore> = std::thread::scope(|scope| {
        let opening: Vec<_> = (0..4)
            .map(|_| scope.spawn(|| SqliteStore::open(&path)))
            .collect();
        opening
            .into_iter()
            .map(|open| open.join().unwrap().unwrap())
            .collect()
    });

    stores[0].write(&won_game(1, "Ada", "Bob")).unwrap();
    assert_eq!(version(&path), SqliteStore::SCHEMA_VERSION);
    assert_eq!(stores[3].scoreboard(None).unwrap().standings().len(), 2);
}

const MIGRATION_2: &str = include_str!("../../migrations/0002_scoreboard.sql");

/// A file as version 2 left it: its scoreboard keyed by lowercase names, with
/// "STRASSE" and "Straße" (one player, once names are case-folded) on two rows, and
/// "Ａda" (fullwidth, kept by an earlier version) and "ada" on two more.
fn version_2_file(path: &Path) {
    let mut file = by_hand(path);
    let migration = file.transaction().unwrap();
    migration.execute_batch(MIGRATION_1).unwrap();
    migration.execute_batch(MIGRATION_2).unwrap();
    migration.pragma_update(None, "user_version", 2).unwrap();
    migration.commit().unwrap();
    file.execute_batch(
        "INSERT INTO tallies VALUES (0, 'strasse', 'STRASSE', 1, 1, 0), \
         (0, 'straße', 'Straße', 2, 0, 0), (0, 'ａda', 'Ａda', 0, 0, 3), \
         (0, 'ada', 'ada', 9223372036854775807, 0, 0);",
    )
    .unwrap();
}

#[rstest::rstest]
#[case::the_games_a_version_1_file_had_finished(
    version_1_file,
    vec![row("Ada", 1, 0, 0), row("Player X", 0, 0, 1), row("Bob", 0, 1, 1)]
)]
#[case::a_version_2_scoreboards_names_that_match_once_folded_on_one_row(
    version_2_file,
    vec![row("ada", u64::MAX >> 1, 0, 3), row("STRASSE", 3, 1, 0)]
)]
fn an_older_file_counts_on_the_newest_scoreboard_what_it_had(
    #[case] older: fn(&Path),
    #[case] rows: Vec<(String, Record)>,
) {
    // Arrange
    let (_folder, path) = new_file();
    older(&path);

    // Act
    let store = SqliteStore::open(&path).unwrap();

    // Assert
    assert_eq!(scoreboard_rows(&store), rows);
    assert_eq!(version(&path), SqliteStore::SCHEMA_VERSION);
}

#[test]
fn the_ended_games_of_an_older_file_are_in_their_players_histories() {
    // Arrange: game 1 Ada (X) beat Bob; games 2 and 3 were Bob's too; 4 is not over.
    let (_folder, path) = new_file();
    version_1_file(&path);
    let history = |store: &SqliteStore, player: &str| {
        let query = tictactoe_core::ports::HistoryQuery {
            player: Some(tictactoe_core::domain::PlayerName::new(player).unwrap()),
            before: None,
            limit: tictactoe_core::ports::PageSize::new(20).unwrap(),
        };
        let mut ids: Vec<_> = tictactoe_core::ports::GameHistory::history(store, &query)
            .unwrap()
            .games
            .into_iter()
            .map(|game| game.id)
            .collect();
        ids.sort();
        ids
    };

    // Act
    let store = SqliteStore::open(&path).unwrap();

    // Assert
    assert_eq!(history(&store, "ADA"), [id(1)]);
    assert_eq!(history(&store, "bob"), [id(1), id(2), id(3)]);
    assert_eq!(history(&store, "Player X"), [id(2)]);
    assert_eq!(history(&store, "Cy"), []);
    let bob = tictactoe_core::ports::GameHistory::opponents(
        &store,
        &tictactoe_core::domain::PlayerName::new("Bob").unwrap(),
        10,
    )
    .unwrap();
    let rivals: Vec<(String, Record)> = bob
        .most_played
        .iter()
        .map(|rival| (rival.opponent.to_string(), rival.record))
        .collect();
    assert_eq!(
        rivals,
        [
            (
                "Ada".to_string(),
                Record {
                    wins: 0,
                    losses: 1,
                    ties: 0
                }
            ),
            (
                "Player X".to_string(),
                Record {
                    wins: 0,
                    losses: 0,
                    ties: 1
                }
            ),
        ]
    );
}

#[test]
fn a_game_an_early_version_kept_between_two_players_now_one_is_kept_and_rates_nobody() {
    // Arrange: a version 1 file, and in it a game won by "Straße" against "STRASSE",
    // two names the rules since version 3 take for one player.
    let folder = TempDir::new().unwrap();
    let path = folder.path().join("games.db");
    version_1_file(&path);
    by_hand(&path)
        .execute(
            "INSERT INTO games (id, x_kind, x_name, x_level, o_kind, o_name, o_level, size, \
             win, first, seating, started_at, ended_at, ending) VALUES \
             (?1, 'human', 'Straße', NULL, 'human', 'STRASSE', NULL, 3, 3, 'X', 'together', \
             3000, 4000, 'X won')",
            [id(5).as_str()],
        )
        .unwrap();

    // Act: opened by today's program, which rates the games kept before ratings.
    let store = SqliteStore::open(&path).unwrap();

    // Assert: opened, Ada's win rated, the old game kept and rating nobody.
    let rated: Vec<String> = store
        .ratings(&RatingListQuery {
            board: Geometry::classic(),
            certainty: Certainty::Provisional,
            top: 10,
        })
        .unwrap()
        .iter()
        .map(|held| held.name.to_string())
        .collect();
    assert!(rated.contains(&"Ada".to_string()), "{rated:?}");
    assert!(
        !rated
            .iter()
            .any(|name| name.contains("STRASSE") || name.contains("Straße"))
    );
    assert_eq!(store.rating_changes(&[id(5)]).unwrap(), []);
    assert_eq!(version(&path), SqliteStore::SCHEMA_VERSION);
}
