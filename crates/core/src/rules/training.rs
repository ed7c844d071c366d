//! Training on one's own slips, its rules: the puzzles one kept game makes of a
//! player's moves ([`puzzles_in`]), an answer judged ([`judge`]) and when a puzzle
//! retires ([`retired`], [`Fate`]). Listing a player's open puzzles is a use case,
//! `play::open_puzzles`; the attempts are kept through `ports::TrainingStore`.
//!
//! **A puzzle** is a position from one of the player's ended games where the game's
//! kept review says their move threw a value away: a win to a draw or a loss, a draw to
//! a loss ([`Judgement::ThrewAway`]). Only an exact review makes puzzles: a move whose
//! values were not both proven ([`Judgement::Unsettled`], a hard 7 x 7 position
//! reviewed in a hurry) makes none, and is counted so that the player can be told. A
//! game with no review kept makes none either (it is counted too).
//!
//! **An answer** is right when it keeps the value the player had: one of the moves the
//! review found best, or another move perfect play proves keeps it (a slower win). A
//! move that gives the value away is wrong, and the player is told what it leaves and
//! what the review said of the move they played in the game. A move whose value is not
//! proven in the advisor's time is not judged (a hard 7 x 7 position): nothing is kept.
//!
//! **Retirement.** Every answer is kept as an [`Attempt`]. A puzzle retires when its
//! last two attempts are both right, and they are not one straight after the other on
//! the same day: they fell on different days (UTC), or the player tried another puzzle
//! in between. Until then it stays open, however often it was solved before.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::domain::{
    BitBoard, Board, Geometry, IllegalMove, Known, Mark, PlayerName, Position, Verdict,
};
use crate::play::{Judgement, MoveReview, Replay, Review};
use crate::players::Advisor;
use crate::ports::{Attempt, Conflict, GameId, StoreError, StoredGame};

use super::{check_review, names_of};

/// A position where the player threw a value away: see the module documentation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// The game it is from.
    pub game: GameId,
    /// The slip's ply, as [`MoveReview::ply`] numbers it (1 for the game's first move).
    pub ply: u32,
    pub board: Geometry,
    /// The cells before the slip.
    pub position: BitBoard,
    /// The side the player had (and has here).
    pub to_move: Mark,
    /// What the player had before the slip.
    pub value: Verdict,
    /// What the move played left them.
    pub left: Verdict,
    /// The move played in the game.
    pub played: Position,
    /// The moves that keep [`Puzzle::value`]: the right answers.
    pub best_moves: Vec<Position>,
}

impl Puzzle {
    /// The review's word on the move played in the game, as the review said it.
    pub fn reviewed(&self) -> MoveReview {
        MoveReview {
            ply: self.ply,
            mark: self.to_move,
            cell: self.played,
            before: Known::Exactly(self.value),
            after: Known::Exactly(self.left),
            best_moves: self.best_moves.clone(),
        }
    }

    /// Whether this puzzle retires, given its player's attempts (see [`retired`]).
    pub fn retired(&self, player: &PlayerName, attempts: &[Attempt]) -> bool {
        retired(attempts, player, &self.game, self.ply)
    }
}

/// What one game makes of a player's moves.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Puzzles {
    /// A puzzle for each move that threw a value away, in the order played.
    pub puzzles: Vec<Puzzle>,
    /// The player's moves the review did not settle (no puzzle is made of them).
    pub not_exact: u64,
}

/// The puzzles `player`'s moves in `game` make, by `review` (the game's kept review):
/// see the module documentation. Names are compared as the scoreboard compares them
/// ([`PlayerName::key`]); a player who sat on both sides plays both. A game that has not
/// ended, or whose review does not follow its moves, is the error [`check_review`] gives.
pub fn puzzles_in(
    player: &PlayerName,
    game: &StoredGame,
    review: &Review,
) -> Result<Puzzles, StoreError> {
    check_review(&game.game.id, Some(game), review)?;
    let replay = Replay::of(game).map_err(|e| Conflict::NotAGame(e).about(&game.game.id))?;
    let names = names_of(&game.game.settings);
    let key = player.key();
    let mut found = Puzzles::default();
    for reviewed in &review.moves {
        if names[reviewed.mark.index()].key() != key {
            continue;
        }
        match reviewed.judgement() {
            Judgement::Kept(_) => {}
            Judgement::Unsettled => found.not_exact += 1,
            Judgement::ThrewAway { had, left } => found.puzzles.push(Puzzle {
                game: game.game.id.clone(),
                ply: reviewed.ply,
                board: game.game.settings.geometry(),
                position: *replay
                    .after(reviewed.ply.saturating_sub(1) as usize)
                    .cells(),
                to_move: reviewed.mark,
                value: had,
                left,
                played: reviewed.cell,
                best_moves: reviewed.best_moves.clone(),
            }),
        }
    }
    Ok(found)
}

/// An answer to a puzzle, judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answered {
    /// It keeps the value the player had.
    Right,
    /// It gives the value away: what it `left`, and what the review said of the move
    /// played in the game (with the best moves).
    Wrong { left: Verdict, reviewed: MoveReview },
    /// Not one of the review's best moves, and its value was not proven in the
    /// advisor's time: not judged.
    Unproven,
}

impl Answered {
    /// What is kept of the answer: whether it was right; `None` when it was not judged
    /// (nothing is kept, and the player answers again).
    pub fn kept_as(&self) -> Option<bool> {
        match self {
            Answered::Right => Some(true),
            Answered::Wrong { .. } => Some(false),
            Answered::Unproven => None,
        }
    }
}

/// `answer` to `puzzle`: right iff it keeps the value the player had. One of the
/// review's best moves does; any other is judged by what it leaves, as perfect play
/// (`advisor`) proves it. A cell that is taken, or not on the puzzle's board, is no
/// answer: the [`IllegalMove`] says which.
pub fn judge(
    puzzle: &Puzzle,
    answer: Position,
    advisor: &mut dyn Advisor,
) -> Result<Answered, IllegalMove> {
    let mut after = puzzle.position;
    after.place(answer, puzzle.to_move)?;
    if puzzle.best_moves.contains(&answer) {
        return Ok(Answered::Right);
    }
    Ok(match left_after(&after, puzzle.to_move, advisor) {
        Some(left) if left == puzzle.value => Answered::Right,
        Some(left) => Answered::Wrong {
            left,
            reviewed: puzzle.reviewed(),
        },
        None => Answered::Unproven,
    })
}

/// What `mover`, who has just moved, has in `after`: a line of theirs wins, a full
/// board draws; else what `advisor` proves of the other side's turn, seen from
/// `mover`'s side (`None`: not proven in its time).
fn left_after(after: &BitBoard, mover: Mark, advisor: &mut dyn Advisor) -> Option<Verdict> {
    if after.winning_line(mover).is_some() {
        return Some(Verdict::Win);
    }
    if after.is_full() {
        return Some(Verdict::Draw);
    }
    advisor
        .advise(after, mover.opponent())
        .filter(|analysis| analysis.exact)
        .map(|analysis| analysis.verdict.for_the_other_side())
}

/// The day (UTC) of `time`, as days since 1970.
fn day_of(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs()
        / 86_400
}

/// Whether the puzzle of `game` and `ply` has retired for `player`, given `attempts`,
/// oldest first (others' attempts among them are not theirs, and count for nothing):
/// its last two attempts are both right, and they fell on different days (UTC) or the
/// player tried another puzzle in between. See the module documentation.
pub fn retired(attempts: &[Attempt], player: &PlayerName, game: &GameId, ply: u32) -> bool {
    let key = player.key();
    let theirs: Vec<&Attempt> = attempts
        .iter()
        .filter(|attempt| attempt.player.key() == key)
        .collect();
    let at_this: Vec<usize> = theirs
        .iter()
        .enumerate()
        .filter(|(_, attempt)| attempt.at_puzzle(game, ply))
        .map(|(index, _)| index)
        .collect();
    let [.., first, last] = at_this[..] else {
        return false;
    };
    let (earlier, later) = (theirs[first], theirs[last]);
    let apart = day_of(earlier.at) != day_of(later.at) || last - first > 1;
    earlier.right && later.right && apart
}

/// What becomes of a puzzle once an answer to it is kept (see [`retired`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// Its last two answers are right, and apart: it is put to the player no more.
    Retires,
    /// It stays open, and comes back next time.
    ComesBack,
}

impl Fate {
    /// The fate of the puzzle of `game` and `ply` for `player`, given their
    /// `attempts`, oldest first (the answer just kept among them).
    pub fn after(attempts: &[Attempt], player: &PlayerName, game: &GameId, ply: u32) -> Fate {
        if retired(attempts, player, game, ply) {
            Fate::Retires
        } else {
            Fate::ComesBack
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use rstest::rstest;

    use super::*;
    use crate::domain::Analysis;
    use crate::domain::Outcome;
    use crate::fixtures::{new_game, person, settings};
    use crate::play::Settings;
    use std::time::Duration;

    use crate::players::MockAdvisor;
    use crate::ports::{Change, Ending, Step};

    pub(crate) fn cell(number: usize) -> Position {
        Geometry::classic().position(number - 1).unwrap()
    }

    pub(crate) fn name(text: &str) -> PlayerName {
        PlayerName::new(text).unwrap()
    }

    /// Game `n` between `settings`' players with these moves, ended `ending`.
    pub(crate) fn stored(
        n: u128,
        settings: Settings,
        moves: &[usize],
        ending: Ending,
    ) -> StoredGame {
        StoredGame {
            game: new_game(n, settings),
            steps: moves
                .iter()
                .zip(1..)
                .map(|(&number, step)| Step {
                    number: step,
                    change: Change::Move(cell(number)),
                })
                .collect(),
            ending: Some(ending),
            started: UNIX_EPOCH,
            ended: Some(UNIX_EPOCH),
            rematch: None,
            clock: None,
        }
    }

    /// Ada (X) against Bob (O): X 5, O 2, X 1, O 3, X 9 (X wins on the diagonal).
    pub(crate) fn ada_beats_bob(n: u128) -> StoredGame {
        stored(
            n,
            settings(person("Ada"), person("Bob")),
            &[5, 2, 1, 3, 9],
            Ending::Finished(Outcome::Won(Mark::X)),
        )
    }

    pub(crate) fn exactly(verdict: Verdict) -> Known {
        Known::Exactly(verdict)
    }

    /// A review of `game` in which each move has `values[i]` (before, after), the best
    /// moves being 1 and 9 throughout.
    pub(crate) fn review_of(game: &StoredGame, values: &[(Known, Known)]) -> Review {
        let replay = Replay::of(game).unwrap();
        Review {
            moves: replay
                .moves()
                .iter()
                .zip(values)
                .map(|(played, &(before, after))| MoveReview {
                    ply: played.ply,
                    mark: played.mark,
                    cell: played.cell,
                    before,
                    after,
                    best_moves: vec![cell(1), cell(9)],
                })
                .collect(),
        }
    }

    /// Bob's first move (ply 2, O at 2) threw the draw away; every other move kept its
    /// value.
    pub(crate) fn bob_slips_at_ply_2(game: &StoredGame) -> Review {
        let draw = (exactly(Verdict::Draw), exactly(Verdict::Draw));
        let win = (exactly(Verdict::Win), exactly(Verdict::Win));
        review_of(
            game,
            &[
                draw,
                (exactly(Verdict::Draw), exactly(Verdict::Loss)),
                win,
                (exactly(Verdict::Loss), exactly(Verdict::Loss)),
                win,
            ],
        )
    }

    pub(crate) fn attempt(game: u128, ply: u32, seconds: u64, right: bool) -> Attempt {
        Attempt {
            player: name("Ada"),
            game: GameId::from_bits(game),
            ply,
            at: UNIX_EPOCH + Duration::from_secs(seconds),
            right,
        }
    }

    /// What game 1 (Ada beats Bob, Bob slipping once) makes of `player`'s moves.
    fn puzzles_of(player: &str) -> Puzzles {
        let game = ada_beats_bob(1);
        let review = bob_slips_at_ply_2(&game);
        puzzles_in(&name(player), &game, &review).unwrap()
    }

    pub(crate) const HOUR: u64 = 3_600;
    pub(crate) const DAY: u64 = 86_400;

    #[test]
    fn a_move_that_threw_a_value_away_is_a_puzzle_from_the_position_before_it() {
        // Arrange
        let game = ada_beats_bob(1);
        let review = bob_slips_at_ply_2(&game);

        // Act
        let found = puzzles_in(&name("Bob"), &game, &review).unwrap();

        // Assert: O to move after X 5; the draw was had, a loss left.
        assert_eq!(found.puzzles.len(), 1);
        let puzzle = &found.puzzles[0];
        assert_eq!(
            (puzzle.ply, puzzle.to_move, puzzle.value, puzzle.left),
            (2, Mark::O, Verdict::Draw, Verdict::Loss)
        );
        assert_eq!(puzzle.played, cell(2));
        assert_eq!(
            puzzle.position,
            *Replay::of(&game).unwrap().after(1).cells()
        );
    }

    #[test]
    fn the_other_sides_slips_are_not_the_players_puzzles() {
        assert_eq!(puzzles_of("Ada"), Puzzles::default());
    }

    #[test]
    fn the_player_is_found_by_name_key_whatever_its_case() {
        assert_eq!(puzzles_of("BOB").puzzles.len(), 1);
    }

    #[test]
    fn a_move_the_review_did_not_settle_makes_no_puzzle_and_is_counted() {
        // Arrange: Bob's first move not proven.
        let game = ada_beats_bob(1);
        let mut review = bob_slips_at_ply_2(&game);
        review.moves[1].before = Known::AtLeastDraw;

        // Act
        let found = puzzles_in(&name("Bob"), &game, &review).unwrap();

        // Assert
        assert_eq!(found.puzzles, []);
        assert_eq!(found.not_exact, 1);
    }

    #[test]
    fn a_review_that_does_not_follow_the_games_moves_is_refused() {
        let game = ada_beats_bob(1);
        let mut review = bob_slips_at_ply_2(&game);
        review.moves.pop();

        let found = puzzles_in(&name("Bob"), &game, &review);

        assert!(matches!(found, Err(StoreError::Conflict { .. })));
    }

    fn puzzle() -> Puzzle {
        puzzles_of("Bob").puzzles.remove(0)
    }

    /// An advisor stub that, asked once about O's puzzle after the answer, says X has
    /// `verdict` (proven when `exact`).
    fn advisor_saying(verdict: Verdict, exact: bool) -> MockAdvisor {
        let mut advisor = MockAdvisor::new();
        advisor
            .expect_advise()
            .times(1)
            .return_const(Some(Analysis {
                verdict,
                plies: 4,
                best_moves: Vec::new(),
                exact,
                moves_proven: exact,
            }));
        advisor
    }

    #[rstest]
    #[case::the_first_best_move(1)]
    #[case::the_other_best_move(9)]
    fn a_best_move_is_right_without_asking_the_advisor(#[case] answer: usize) {
        let mut advisor = MockAdvisor::new();
        advisor.expect_advise().never();

        assert_eq!(
            judge(&puzzle(), cell(answer), &mut advisor),
            Ok(Answered::Right)
        );
    }

    /// Bob (O) had a draw; after his answer, the advisor says X has no more than a
    /// draw: proven, the answer is right; not proven in time, it is not judged.
    #[rstest]
    #[case::another_move_proven_to_keep_the_value_is_right(true, Answered::Right)]
    #[case::a_move_whose_value_is_not_proven_in_time_is_not_judged(false, Answered::Unproven)]
    fn another_move_that_keeps_the_value_is_right_once_proven(
        #[case] proven: bool,
        #[case] expected: Answered,
    ) {
        let mut advisor = advisor_saying(Verdict::Draw, proven);

        let answered = judge(&puzzle(), cell(4), &mut advisor);

        assert_eq!(answered, Ok(expected));
    }

    #[test]
    fn a_move_that_gives_the_value_away_is_wrong_and_carries_what_the_review_said() {
        // After Bob's answer X is proven to win: Bob is left a loss.
        let mut advisor = advisor_saying(Verdict::Win, true);

        let answered = judge(&puzzle(), cell(4), &mut advisor);

        let Ok(Answered::Wrong { left, reviewed }) = answered else {
            panic!("{answered:?}");
        };
        assert_eq!(left, Verdict::Loss);
        assert_eq!(
            reviewed.judgement(),
            Judgement::ThrewAway {
                had: Verdict::Draw,
                left: Verdict::Loss
            }
        );
        assert_eq!(
            (reviewed.cell, reviewed.best_moves),
            (cell(2), vec![cell(1), cell(9)])
        );
    }

    #[test]
    fn a_taken_cell_is_no_answer() {
        let mut advisor = MockAdvisor::new();
        advisor.expect_advise().never();

        assert_eq!(
            judge(&puzzle(), cell(5), &mut advisor),
            Err(IllegalMove::Occupied(cell(5)))
        );
    }

    #[rstest]
    #[case::never_tried(vec![], false)]
    #[case::solved_once(vec![attempt(1, 2, 0, true)], false)]
    #[case::solved_twice_on_different_days(
        vec![attempt(1, 2, 0, true), attempt(1, 2, DAY, true)],
        true
    )]
    #[case::solved_twice_with_another_puzzle_between(
        vec![attempt(1, 2, 0, true), attempt(7, 4, 1, false), attempt(1, 2, 2, true)],
        true
    )]
    #[case::solved_twice_in_a_row_on_one_day(
        vec![attempt(1, 2, 0, true), attempt(1, 2, HOUR, true)],
        false
    )]
    #[case::the_last_of_three_wrong(
        vec![attempt(1, 2, 0, true), attempt(1, 2, DAY, true), attempt(1, 2, 2 * DAY, false)],
        false
    )]
    #[case::a_wrong_answer_before_the_last_two(
        vec![attempt(1, 2, 0, false), attempt(1, 2, DAY, true), attempt(1, 2, 2 * DAY, true)],
        true
    )]
    #[case::one_wrong_of_the_last_two(
        vec![attempt(1, 2, 0, false), attempt(1, 2, DAY, true)],
        false
    )]
    #[case::either_side_of_midnight_utc(
        vec![attempt(1, 2, DAY - 1, true), attempt(1, 2, DAY, true)],
        true
    )]
    fn a_puzzle_retires_when_solved_twice_apart(
        #[case] attempts: Vec<Attempt>,
        #[case] retires: bool,
    ) {
        assert_eq!(
            retired(&attempts, &name("Ada"), &GameId::from_bits(1), 2),
            retires
        );
    }

    #[test]
    fn another_players_attempt_between_does_not_part_two_right_answers() {
        // Arrange: Bob tried another puzzle between Ada's two right answers.
        let mut bobs = attempt(7, 4, 1, true);
        bobs.player = name("Bob");
        let attempts = [attempt(1, 2, 0, true), bobs, attempt(1, 2, 2, true)];

        // Act
        let retires = retired(&attempts, &name("Ada"), &GameId::from_bits(1), 2);

        // Assert
        assert!(!retires);
    }

    #[test]
    fn attempts_are_the_players_by_name_key() {
        let mut shouted = attempt(1, 2, DAY, true);
        shouted.player = name("ADA");
        let attempts = [attempt(1, 2, 0, true), shouted];

        assert!(retired(&attempts, &name("ada"), &GameId::from_bits(1), 2));
    }
}
