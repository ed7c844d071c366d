//! A review is kept once, for an ended game's own moves, and reads back as kept; one
//! that was not exact gives way to one that says more.

use rstest_reuse::apply;
use tictactoe_core::domain::{Known, Verdict};
use tictactoe_core::play::{MoveReview, Review};

use super::*;

/// A review of X 5, O 1 (marks and cells as played), with the values given.
fn review_of_5_then_1(o_after: Known) -> Review {
    Review {
        moves: vec![
            MoveReview {
                ply: 1,
                mark: Mark::X,
                cell: cell(5),
                before: Known::Exactly(Verdict::Draw),
                after: Known::Exactly(Verdict::Draw),
                best_moves: vec![cell(1), cell(5), cell(9)],
            },
            MoveReview {
                ply: 2,
                mark: Mark::O,
                cell: cell(1),
                before: Known::Exactly(Verdict::Draw),
                after: o_after,
                best_moves: Vec::new(),
            },
        ],
    }
}

#[apply(stores)]
fn a_game_has_no_review_until_one_is_kept(#[case] store: Fresh) {
    ended_with_an_undo(&*store);

    assert_eq!(store.review(&id(1)).unwrap(), None);
    assert_eq!(store.review(&id(2)).unwrap(), None);
}

#[apply(stores)]
fn a_review_reads_back_exactly_as_it_was_kept(#[case] store: Fresh) {
    ended_with_an_undo(&*store);
    let review = review_of_5_then_1(Known::AtMostDraw);

    store.keep_review(&id(1), &review).unwrap();

    assert_eq!(store.review(&id(1)).unwrap(), Some(review));
}

#[apply(stores)]
fn a_game_keeps_its_first_review_when_it_is_exact(#[case] store: Fresh) {
    ended_with_an_undo(&*store);
    let first = review_of_5_then_1(Known::Exactly(Verdict::Draw));
    store.keep_review(&id(1), &first).unwrap();

    store
        .keep_review(&id(1), &review_of_5_then_1(Known::Nothing))
        .unwrap();
    store
        .keep_review(&id(1), &review_of_5_then_1(Known::Exactly(Verdict::Loss)))
        .unwrap();

    assert_eq!(store.review(&id(1)).unwrap(), Some(first));
}

#[apply(stores)]
fn a_review_that_was_not_exact_gives_way_to_one_that_says_more(#[case] store: Fresh) {
    // Arrange: O's move kept as "at most a draw" (not settled in time).
    ended_with_an_undo(&*store);
    store
        .keep_review(&id(1), &review_of_5_then_1(Known::AtMostDraw))
        .unwrap();
    let completed = review_of_5_then_1(Known::Exactly(Verdict::Draw));

    // Act
    store.keep_review(&id(1), &completed).unwrap();

    // Assert
    assert_eq!(store.review(&id(1)).unwrap(), Some(completed));
}

#[apply(stores)]
fn a_review_that_was_not_exact_stays_against_one_that_says_less_or_contradicts_it(
    #[case] store: Fresh,
) {
    // Arrange
    ended_with_an_undo(&*store);
    let kept = review_of_5_then_1(Known::AtMostDraw);
    store.keep_review(&id(1), &kept).unwrap();

    // Act: one that knows less, one that says the same, one that says O's move left O
    // a win (not within "at most a draw").
    for other in [
        Known::Nothing,
        Known::AtMostDraw,
        Known::Exactly(Verdict::Win),
    ] {
        store
            .keep_review(&id(1), &review_of_5_then_1(other))
            .unwrap();
    }

    // Assert
    assert_eq!(store.review(&id(1)).unwrap(), Some(kept));
}

#[apply(stores)]
fn a_game_still_being_played_is_not_reviewed(#[case] store: Fresh) {
    store
        .write(&[begin(&ada_bob(1)), play(1, 1, 5), play(1, 2, 1)])
        .unwrap();

    let kept = store.keep_review(&id(1), &review_of_5_then_1(Known::Nothing));
    let exact = store.keep_review(&id(1), &review_of_5_then_1(Known::Exactly(Verdict::Draw)));

    assert_eq!(kept, refused(1, Conflict::NotEnded));
    assert_eq!(exact, refused(1, Conflict::NotEnded));
    assert_eq!(store.review(&id(1)).unwrap(), None);
}

#[apply(stores)]
fn a_review_of_other_moves_than_the_games_is_refused(#[case] store: Fresh) {
    // Arrange: the review follows O's 2, which was taken back.
    ended_with_an_undo(&*store);
    let mut review = review_of_5_then_1(Known::Nothing);
    review.moves[1].cell = cell(2);

    let kept = store.keep_review(&id(1), &review);

    assert_eq!(kept, refused(1, Conflict::NotItsMoves));
}

#[apply(stores)]
fn a_review_of_a_game_never_begun_is_refused(#[case] store: Fresh) {
    let kept = store.keep_review(&id(7), &review_of_5_then_1(Known::Nothing));

    assert!(matches!(kept, Err(StoreError::NoSuchGame(game)) if game == id(7)));
}

#[apply(stores)]
fn threads_keeping_reviews_of_one_game_at_once_leave_the_one_that_says_most(#[case] store: Fresh) {
    // Arrange: three threads, each offering a review of game 1 that knows more than the
    // one before it, ten times over.
    ended_with_an_undo(&*store);
    let offers = [
        Known::Nothing,
        Known::AtMostDraw,
        Known::Exactly(Verdict::Draw),
    ];

    // Act
    std::thread::scope(|scope| {
        for known in offers {
            let store = &*store;
            scope.spawn(move || {
                for _ in 0..10 {
                    store
                        .keep_review(&id(1), &review_of_5_then_1(known))
                        .expect("kept, or a no-op");
                }
            });
        }
    });

    // Assert: whole, never rows of two reviews mixed.
    assert_eq!(
        store.review(&id(1)).unwrap(),
        Some(review_of_5_then_1(Known::Exactly(Verdict::Draw)))
    );
}
