//! Seeks, people looking for an opponent: a seek opened reads back as opened and is
//! listed while it is open and its owner was seen lately, oldest first, by kind; a
//! person has one open seek at a time; a seek is closed once; seeks are taken into a
//! game all together or not at all. People block each other by name key, once, and
//! the blocks among some people are found both ways.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rstest_reuse::apply;
use tictactoe_core::domain::TimeControl;
use tictactoe_core::ports::{NewSeek, SeatHolder, SecretLock, Seek, SeekId, SeekKind, Taken};

use super::*;

/// `ms` milliseconds after a moment in 2023.
fn moment(ms: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(1_700_000_000_000 + ms)
}

fn seek_id(n: u128) -> SeekId {
    SeekId::from_bits(n)
}

/// Seek `n` of the account `owner`, of `kind`, opened at [`moment`] `ms`: a rated 3+2
/// game on the classic board, the owner rated 1500.
fn seek(n: u128, owner: &str, kind: SeekKind, ms: u64) -> NewSeek {
    NewSeek {
        id: seek_id(n),
        kind,
        owner: name(owner),
        holder: SeatHolder::Account,
        board: Geometry::classic(),
        control: TimeControl::increment(Duration::from_secs(180), Duration::from_secs(2))
            .expect("a time control"),
        rated: true,
        rating: 1500,
        at: moment(ms),
    }
}

/// Seek `n` of `owner` in the lobby, opened at [`moment`] `n`.
fn lobby(n: u128, owner: &str) -> NewSeek {
    seek(n, owner, SeekKind::Lobby, n as u64)
}

/// Opens each of `seeks` in turn.
fn opened(store: &Fresh, seeks: &[&NewSeek]) {
    for seek in seeks {
        store.open_seek(seek).expect("the seek is kept");
    }
}

/// `new` as kept while open, its owner last seen at [`moment`] `seen`.
fn open(new: &NewSeek, seen: u64) -> Seek {
    Seek {
        seek: new.clone(),
        seen: moment(seen),
        taken: None,
        closed: false,
    }
}

/// The ids of the open seeks of `kind` seen since the beginning.
fn listed(store: &Fresh, kind: SeekKind) -> Vec<SeekId> {
    store
        .open_seeks(kind, UNIX_EPOCH)
        .expect("the open seeks")
        .into_iter()
        .map(|kept| kept.seek.id)
        .collect()
}

/// Seek `n` as kept.
fn kept(store: &Fresh, n: u128) -> Seek {
    store
        .seek(&seek_id(n))
        .expect("a read")
        .expect("the seek is kept")
}

#[apply(stores)]
fn an_opened_seek_is_listed_and_reads_back_exactly(#[case] store: Fresh) {
    let new = seek(1, "Ada", SeekKind::Pool, 7);

    opened(&store, &[&new]);

    assert_eq!(
        store.open_seeks(SeekKind::Pool, moment(7)),
        Ok(vec![open(&new, 7)])
    );
    assert_eq!(store.seek(&seek_id(1)), Ok(Some(open(&new, 7))));
}

#[apply(stores)]
fn a_guests_seek_on_a_time_per_move_reads_back_exactly(#[case] store: Fresh) {
    let lock = SecretLock::parse(&"ab".repeat(32)).expect("a lock");
    let new = NewSeek {
        holder: SeatHolder::Guest(lock),
        board: Geometry::new(7, 5).expect("a board"),
        control: TimeControl::per_move(Duration::from_millis(30_500)).expect("a time control"),
        rated: false,
        rating: -12,
        ..lobby(1, "Guest 4711")
    };

    opened(&store, &[&new]);

    assert_eq!(store.seek(&seek_id(1)), Ok(Some(open(&new, 1))));
}

#[apply(stores)]
fn a_seek_never_opened_is_none(#[case] store: Fresh) {
    opened(&store, &[&lobby(1, "Ada")]);

    assert_eq!(store.seek(&seek_id(2)), Ok(None));
}

#[apply(stores)]
fn opening_another_seek_closes_the_owners_first(#[case] store: Fresh) {
    let (first, second) = (lobby(1, "Ada"), lobby(2, "ADA"));

    opened(&store, &[&first, &second]);

    assert_eq!(listed(&store, SeekKind::Lobby), [seek_id(2)]);
    assert!(kept(&store, 1).closed);
}

#[apply(stores)]
fn opening_a_seek_in_the_pool_closes_the_owners_seek_in_the_lobby(#[case] store: Fresh) {
    let (in_the_lobby, in_the_pool) = (lobby(1, "Ada"), seek(2, "Ada", SeekKind::Pool, 2));

    opened(&store, &[&in_the_lobby, &in_the_pool]);

    assert_eq!(listed(&store, SeekKind::Lobby), []);
    assert_eq!(listed(&store, SeekKind::Pool), [seek_id(2)]);
}

#[apply(stores)]
fn opening_a_seek_leaves_other_peoples_open(#[case] store: Fresh) {
    let (adas, bobs) = (lobby(1, "Ada"), lobby(2, "Bob"));

    opened(&store, &[&adas, &bobs]);

    assert_eq!(listed(&store, SeekKind::Lobby), [seek_id(1), seek_id(2)]);
}

#[apply(stores)]
fn opening_the_same_seek_again_changes_nothing(#[case] store: Fresh) {
    // Arrange: Ada's first seek, closed by her second.
    let (first, second) = (lobby(1, "Ada"), lobby(2, "Ada"));
    opened(&store, &[&first, &second]);

    // Act: the first opened again (a retry that came late).
    opened(&store, &[&first]);

    // Assert
    assert_eq!(listed(&store, SeekKind::Lobby), [seek_id(2)]);
    assert!(kept(&store, 1).closed);
}

#[apply(stores)]
fn a_seek_not_seen_since_the_cutoff_is_not_listed(#[case] store: Fresh) {
    opened(&store, &[&lobby(1, "Ada"), &lobby(5, "Bob")]);

    let seen_since_3 = store.open_seeks(SeekKind::Lobby, moment(3)).unwrap();

    assert_eq!(seen_since_3, [open(&lobby(5, "Bob"), 5)]);
}

#[apply(stores)]
fn a_seek_seen_in_the_cutoffs_millisecond_is_listed_and_one_seen_before_it_is_not(
    #[case] store: Fresh,
) {
    opened(&store, &[&lobby(5, "Ada")]);

    let at_its_millisecond = store.open_seeks(SeekKind::Lobby, moment(5)).unwrap();
    let within_its_millisecond = store
        .open_seeks(SeekKind::Lobby, moment(5) + Duration::from_micros(500))
        .unwrap();

    assert_eq!(at_its_millisecond.len(), 1);
    assert_eq!(within_its_millisecond, []);
}

#[apply(stores)]
fn a_seek_seen_again_stays_listed(#[case] store: Fresh) {
    opened(&store, &[&lobby(1, "Ada")]);

    let seen = store.seek_seen(&seek_id(1), moment(10));

    assert_eq!(seen, Ok(true));
    assert_eq!(
        store.open_seeks(SeekKind::Lobby, moment(10)),
        Ok(vec![open(&lobby(1, "Ada"), 10)])
    );
}

#[apply(stores)]
fn seeing_a_seek_earlier_than_it_was_last_seen_keeps_the_later_time(#[case] store: Fresh) {
    opened(&store, &[&lobby(1, "Ada")]);
    store.seek_seen(&seek_id(1), moment(10)).unwrap();

    let seen = store.seek_seen(&seek_id(1), moment(4));

    assert_eq!(seen, Ok(true));
    assert_eq!(kept(&store, 1).seen, moment(10));
}

#[apply(stores)]
fn the_time_a_seek_is_seen_is_kept_to_the_millisecond(#[case] store: Fresh) {
    opened(&store, &[&lobby(1, "Ada")]);

    store
        .seek_seen(&seek_id(1), moment(10) + Duration::from_micros(999))
        .unwrap();

    assert_eq!(kept(&store, 1).seen, moment(10));
}

#[apply(stores)]
fn a_seek_that_is_not_open_is_not_seen(#[case] store: Fresh) {
    opened(&store, &[&lobby(1, "Ada")]);
    store.close_seek(&seek_id(1)).unwrap();

    let (closed, never_opened) = (
        store.seek_seen(&seek_id(1), moment(10)),
        store.seek_seen(&seek_id(2), moment(10)),
    );

    assert_eq!((closed, never_opened), (Ok(false), Ok(false)));
    assert_eq!(kept(&store, 1).seen, moment(1));
}

#[apply(stores)]
fn a_seek_is_closed_once(#[case] store: Fresh) {
    opened(&store, &[&lobby(1, "Ada")]);

    let (first, second) = (store.close_seek(&seek_id(1)), store.close_seek(&seek_id(1)));

    assert_eq!((first, second), (Ok(true), Ok(false)));
    assert_eq!(listed(&store, SeekKind::Lobby), []);
    assert!(kept(&store, 1).closed);
}

#[apply(stores)]
fn a_seek_never_opened_is_not_closed(#[case] store: Fresh) {
    assert_eq!(store.close_seek(&seek_id(1)), Ok(false));
}

#[apply(stores)]
fn taking_seeks_takes_them_all_into_the_game_at_their_marks(#[case] store: Fresh) {
    opened(&store, &[&lobby(1, "Ada"), &lobby(2, "Bob")]);

    let took = store.take_seeks(
        &[(seek_id(1), Mark::O), (seek_id(2), Mark::X)],
        &id(9),
        moment(20),
    );

    assert_eq!(took, Ok(true));
    let taken = |mark| {
        Some(Taken {
            game: id(9),
            mark,
            at: moment(20),
        })
    };
    assert_eq!(kept(&store, 1).taken, taken(Mark::O));
    assert_eq!(kept(&store, 2).taken, taken(Mark::X));
    assert!(!kept(&store, 1).closed);
    assert_eq!(listed(&store, SeekKind::Lobby), []);
}

/// Seeks 1 and 2 (Ada's and Bob's) taken into game 9, at [`moment`] 20.
fn ada_and_bob_taken_into_nine(store: &Fresh) -> Result<bool, StoreError> {
    store.take_seeks(
        &[(seek_id(1), Mark::X), (seek_id(2), Mark::O)],
        &id(9),
        moment(20),
    )
}

#[apply(stores)]
fn taking_a_closed_seek_takes_none(#[case] store: Fresh) {
    opened(&store, &[&lobby(1, "Ada"), &lobby(2, "Bob")]);
    store.close_seek(&seek_id(2)).unwrap();

    let took = ada_and_bob_taken_into_nine(&store);

    assert_eq!(took, Ok(false));
    assert_eq!(kept(&store, 1), open(&lobby(1, "Ada"), 1));
}

#[apply(stores)]
fn taking_a_taken_seek_takes_none(#[case] store: Fresh) {
    // Arrange: Bob's seek taken into game 8.
    opened(
        &store,
        &[&lobby(1, "Ada"), &lobby(2, "Bob"), &lobby(3, "Cy")],
    );
    store
        .take_seeks(
            &[(seek_id(2), Mark::X), (seek_id(3), Mark::O)],
            &id(8),
            moment(10),
        )
        .unwrap();

    // Act: Ada's and Bob's taken into game 9.
    let took = ada_and_bob_taken_into_nine(&store);

    // Assert: neither is; Bob's is still game 8's.
    assert_eq!(took, Ok(false));
    assert_eq!(kept(&store, 1), open(&lobby(1, "Ada"), 1));
    assert_eq!(kept(&store, 2).taken.map(|taken| taken.game), Some(id(8)));
}

#[apply(stores)]
fn taking_a_seek_never_opened_takes_none(#[case] store: Fresh) {
    opened(&store, &[&lobby(1, "Ada")]);

    let took = ada_and_bob_taken_into_nine(&store);

    assert_eq!(took, Ok(false));
    assert_eq!(listed(&store, SeekKind::Lobby), [seek_id(1)]);
}

#[apply(stores)]
fn a_taken_seek_is_neither_seen_nor_closed(#[case] store: Fresh) {
    opened(&store, &[&lobby(1, "Ada")]);
    store
        .take_seeks(&[(seek_id(1), Mark::X)], &id(9), moment(20))
        .unwrap();

    let (seen, closed) = (
        store.seek_seen(&seek_id(1), moment(30)),
        store.close_seek(&seek_id(1)),
    );

    assert_eq!((seen, closed), (Ok(false), Ok(false)));
    assert!(!kept(&store, 1).closed);
}

#[apply(stores)]
fn seeks_are_listed_oldest_first_and_by_kind(#[case] store: Fresh) {
    opened(
        &store,
        &[
            &seek(1, "Ada", SeekKind::Lobby, 1),
            &seek(2, "Bob", SeekKind::Pool, 2),
            &seek(3, "Cy", SeekKind::Lobby, 3),
            &seek(4, "Dee", SeekKind::Pool, 4),
            &seek(5, "Eve", SeekKind::Lobby, 5),
        ],
    );

    let (lobby, pool) = (
        listed(&store, SeekKind::Lobby),
        listed(&store, SeekKind::Pool),
    );

    assert_eq!(lobby, [seek_id(1), seek_id(3), seek_id(5)]);
    assert_eq!(pool, [seek_id(2), seek_id(4)]);
}

#[apply(stores)]
fn seeks_are_listed_oldest_first_whatever_their_ids(#[case] store: Fresh) {
    opened(
        &store,
        &[
            &seek(9, "Ada", SeekKind::Lobby, 1),
            &seek(10, "Bob", SeekKind::Lobby, 2),
            &seek(2, "Cy", SeekKind::Lobby, 3),
        ],
    );

    assert_eq!(
        listed(&store, SeekKind::Lobby),
        [seek_id(9), seek_id(10), seek_id(2)]
    );
}

#[apply(stores)]
fn the_seeks_taken_lately_are_listed_newest_first_and_the_older_left_out(#[case] store: Fresh) {
    let (first, second, third) = (lobby(1, "Ada"), lobby(2, "Bob"), lobby(3, "Cyd"));
    opened(&store, &[&first, &second, &third]);
    let game = |n| GameId::from_bits(n);
    let take = |n: u128, at: u64| {
        store
            .take_seeks(&[(seek_id(n), Mark::X)], &game(n), moment(at))
            .expect("taken")
    };
    take(1, 100);
    take(2, 300);

    let taken = store.taken_since(moment(200)).expect("the seeks taken");

    assert_eq!(taken.len(), 1);
    assert_eq!(taken[0].seek.id, seek_id(2));
    assert_eq!(
        taken[0].taken,
        Some(Taken {
            game: game(2),
            mark: Mark::X,
            at: moment(300)
        })
    );
}

/// The name keys of `names`.
fn keys(names: &[&str]) -> Vec<String> {
    names.iter().map(|text| name(text).key()).collect()
}

#[apply(stores)]
fn a_block_is_listed_by_whom_blocked_as_they_were_named(#[case] store: Fresh) {
    let blocked = store.block(&name("Ada"), &name("BoB"));

    assert_eq!(blocked, Ok(true));
    assert_eq!(store.blocked_by(&name("ada")), Ok(vec![name("BoB")]));
    assert_eq!(store.blocked_by(&name("bob")), Ok(vec![]));
}

#[apply(stores)]
fn a_person_blocks_another_once_and_their_blocks_are_listed_in_the_order_made(
    #[case] store: Fresh,
) {
    store.block(&name("Ada"), &name("Cyd")).unwrap();
    store.block(&name("Ada"), &name("Bob")).unwrap();

    let again = store.block(&name("Ada"), &name("CYD"));

    assert_eq!(again, Ok(false));
    assert_eq!(
        store.blocked_by(&name("Ada")),
        Ok(vec![name("Cyd"), name("Bob")])
    );
}

#[apply(stores)]
fn an_unblock_removes_the_block_once(#[case] store: Fresh) {
    store.block(&name("Ada"), &name("Bob")).unwrap();

    let first = store.unblock(&name("Ada"), &name("Bob"));
    let second = store.unblock(&name("Ada"), &name("Bob"));

    assert_eq!((first, second), (Ok(true), Ok(false)));
    assert_eq!(store.blocked_by(&name("Ada")), Ok(vec![]));
    assert_eq!(store.unblock(&name("Bob"), &name("Ada")), Ok(false));
}

#[apply(stores)]
fn blocks_are_by_name_key(#[case] store: Fresh) {
    store.block(&name("ADA"), &name("Bob")).unwrap();
    store.block(&name("ADA"), &name("Cyd")).unwrap();

    let unblocked = store.unblock(&name("ada"), &name("BOB"));

    assert_eq!(unblocked, Ok(true));
    assert_eq!(store.blocked_by(&name("aDa")), Ok(vec![name("Cyd")]));
}

#[apply(stores)]
fn the_blocks_among_some_people_are_those_between_two_of_them_either_way(#[case] store: Fresh) {
    store.block(&name("Ada"), &name("Bob")).unwrap();
    store.block(&name("Cyd"), &name("Ada")).unwrap();
    store.block(&name("Bob"), &name("Dee")).unwrap();
    store.block(&name("Dee"), &name("Cyd")).unwrap();

    let among = store.blocks_among(&keys(&["ADA", "bob", "Cyd"]));

    assert_eq!(
        among,
        Ok(vec![
            ("ada".to_string(), "bob".to_string()),
            ("cyd".to_string(), "ada".to_string()),
        ])
    );
    assert_eq!(store.blocks_among(&keys(&["Bob", "Cyd"])), Ok(vec![]));
    assert_eq!(store.blocks_among(&[]), Ok(vec![]));
}
