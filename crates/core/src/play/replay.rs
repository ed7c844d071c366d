//! A kept game played back ([`Replay`]), and what perfect play says of each of its
//! moves ([`review`]): the value the mover had before the move, the value the move left
//! them, and, where the move threw something away, the moves that would have kept it.
//!
//! A replay is the game as it ended: moves taken back are not part of it. Its positions
//! are rebuilt by the rules, so a kept game whose steps are not a game is a
//! [`ResumeError`], never a panic.

use crate::domain::{
    Analysis, BitBoard, Game, GameState, GameStatus, Known, Mark, Position, Verdict,
};
use crate::players::Advisor;
use crate::ports::{Ending, StoredGame};

use super::game_match::take_step;
use super::{ResumeError, Settings};

/// One move of a replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    /// 1 for the first move of the game, 2 for the second, ...
    pub ply: u32,
    pub mark: Mark,
    pub cell: Position,
}

/// A kept game as it was played to where it stopped. See the module documentation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    settings: Settings,
    moves: Vec<Played>,
    ending: Option<Ending>,
}

impl Replay {
    /// The moves that stand at the end of `stored`, checked against the rules.
    pub fn of(stored: &StoredGame) -> Result<Replay, ResumeError> {
        let settings = &stored.game.settings;
        let mut game = Game::<BitBoard>::start(settings.geometry(), settings.first());
        for (index, step) in stored.steps.iter().enumerate() {
            let number = step.number;
            if number as usize != index + 1 {
                return Err(ResumeError::OutOfOrder { number });
            }
            take_step(&mut game, step)?;
        }
        Replay::played(settings, game.moves(), stored.ending)
    }

    /// A game just played, from its moves in order (a match's `game().moves()`),
    /// checked against the rules from the empty board: a move that is not legal there is
    /// [`ResumeError::Illegal`], numbered by its ply.
    pub fn played(
        settings: &Settings,
        cells: &[Position],
        ending: Option<Ending>,
    ) -> Result<Replay, ResumeError> {
        let mut game = Game::<BitBoard>::start(settings.geometry(), settings.first());
        for (&cell, number) in cells.iter().zip(1..) {
            game.play(cell)
                .map_err(|_| ResumeError::Illegal { number })?;
        }
        let mut mark = settings.first();
        let moves = cells
            .iter()
            .zip(1..)
            .map(|(&cell, ply)| {
                let played = Played { ply, mark, cell };
                mark = mark.opponent();
                played
            })
            .collect();
        Ok(Replay {
            settings: settings.clone(),
            moves,
            ending,
        })
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The moves in the order they were played.
    pub fn moves(&self) -> &[Played] {
        &self.moves
    }

    /// How the game ended, or `None` if it did not (yet).
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// The game after its first `plies` moves (0: before any move; more than were
    /// played: as it ended).
    pub fn after(&self, plies: usize) -> Game<BitBoard> {
        let mut game = Game::<BitBoard>::start(self.settings.geometry(), self.settings.first());
        for played in self.moves.iter().take(plies) {
            // Each move was checked against the rules when the replay was made.
            game.play(played.cell)
                .expect("a replay's moves were legal when it was made");
        }
        game
    }
}

/// What perfect play says of one move. `before` is the value the mover had in the
/// position they moved from; `after`, the value their move left them (both for the
/// mover). `best_moves` are the moves the analysis of the position before found best,
/// the moves that keep `before` (for a win, its fastest wins).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveReview {
    pub ply: u32,
    pub mark: Mark,
    pub cell: Position,
    pub before: Known,
    pub after: Known,
    pub best_moves: Vec<Position>,
}

/// A move judged, as far as the analysis went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judgement {
    /// The move kept the value the mover had.
    Kept(Verdict),
    /// The move threw `had` away: it left only `left`.
    ThrewAway { had: Verdict, left: Verdict },
    /// The analysis did not settle both values in the time allowed.
    Unsettled,
}

impl MoveReview {
    /// Whether both values are proven: then [`MoveReview::judgement`] is certain.
    pub fn exact(&self) -> bool {
        matches!(
            (self.before, self.after),
            (Known::Exactly(_), Known::Exactly(_))
        )
    }

    pub fn judgement(&self) -> Judgement {
        match (self.before, self.after) {
            (Known::Exactly(had), Known::Exactly(left)) if had == left => Judgement::Kept(had),
            (Known::Exactly(had), Known::Exactly(left)) => Judgement::ThrewAway { had, left },
            _ => Judgement::Unsettled,
        }
    }
}

/// A game's moves, each reviewed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Review {
    pub moves: Vec<MoveReview>,
}

impl Review {
    /// Whether every move's judgement is certain.
    pub fn exact(&self) -> bool {
        self.moves.iter().all(MoveReview::exact)
    }

    /// Whether this review of the same moves may take the place of `kept`, one kept
    /// before: `kept` is not exact, and this one says all that it says of every value
    /// (before and after each move) and more of at least one. So a review is only ever
    /// completed, never contradicted, and an exact one is never replaced.
    pub fn improves_on(&self, kept: &Review) -> bool {
        let same_moves = self.moves.len() == kept.moves.len()
            && self.moves.iter().zip(&kept.moves).all(|(new, old)| {
                (new.ply, new.mark, new.cell) == (old.ply, old.mark, old.cell)
                    && new.before.says_all_of(old.before)
                    && new.after.says_all_of(old.after)
            });
        let says_more = self
            .moves
            .iter()
            .zip(&kept.moves)
            .any(|(new, old)| (new.before, new.after) != (old.before, old.after));
        !kept.exact() && same_moves && says_more
    }
}

/// Reviews every move of `replay` with `advisor`'s analysis of each position (each
/// position is analysed once: the value after one move is the value before the next,
/// seen from the other side). `progress` is told, after each position, how many of how
/// many are done.
pub fn review(
    replay: &Replay,
    advisor: &mut dyn Advisor,
    progress: &mut dyn FnMut(usize, usize),
) -> Review {
    let moves = replay.moves();
    let total = moves.len();
    let mut game = replay.after(0);
    // The analysis of the position the next move is made from (`None` when over).
    let mut position = analyse(&game, advisor);
    let mut reviewed = Vec::with_capacity(total);
    for (done, played) in moves.iter().enumerate() {
        let before = position.take();
        game.play(played.cell)
            .expect("a replay's moves were legal when it was made");
        let after = match game.status() {
            GameStatus::Won(win) => Known::Exactly(if win.mark == played.mark {
                Verdict::Win
            } else {
                Verdict::Loss
            }),
            GameStatus::Draw => Known::Exactly(Verdict::Draw),
            GameStatus::InProgress => {
                position = analyse(&game, advisor);
                position
                    .as_ref()
                    .map_or(Known::Nothing, |analysis| analysis.known())
                    .for_the_other_side()
            }
        };
        reviewed.push(MoveReview {
            ply: played.ply,
            mark: played.mark,
            cell: played.cell,
            before: before.as_ref().map_or(Known::Nothing, Analysis::known),
            after,
            best_moves: before
                .map(|analysis| analysis.best_moves)
                .unwrap_or_default(),
        });
        progress(done + 1, total);
    }
    Review { moves: reviewed }
}

/// `kept`, a review of `replay` that was not exact, completed by `advisor`: only the
/// positions it left unsettled are analysed again, each once. A value the new analysis
/// does not say all of (it knew less: time ran out, or the advisor gave up) stays as
/// `kept` had it, so the answer never says less than `kept`, and improves on it
/// ([`Review::improves_on`]) wherever a value was settled. A review of other moves is
/// answered as it was.
pub fn complete(replay: &Replay, kept: &Review, advisor: &mut dyn Advisor) -> Review {
    let mut completed = kept.clone();
    if kept.moves.len() != replay.moves().len() {
        return completed;
    }
    let settled = |known: Known| matches!(known, Known::Exactly(_));
    for index in 0..completed.moves.len() {
        let before = completed.moves[index].before;
        // The value after the move before is this position's, seen from the other side.
        let earlier = index.checked_sub(1);
        let earlier_after = earlier.map(|earlier| completed.moves[earlier].after);
        if settled(before) && earlier_after.is_none_or(settled) {
            continue;
        }
        let Some(analysis) = analyse(&replay.after(index), advisor) else {
            continue;
        };
        let known = analysis.known();
        let says_all = known.says_all_of(before)
            && earlier_after.is_none_or(|after| known.for_the_other_side().says_all_of(after));
        if !says_all {
            continue;
        }
        completed.moves[index].before = known;
        completed.moves[index].best_moves = analysis.best_moves;
        if let Some(earlier) = earlier {
            completed.moves[earlier].after = known.for_the_other_side();
        }
    }
    completed
}

fn analyse(game: &Game<BitBoard>, advisor: &mut dyn Advisor) -> Option<Analysis> {
    if game.status().is_over() {
        return None;
    }
    advisor.advise(game.board(), game.to_move())
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use rstest::rstest;

    use super::*;
    use crate::domain::Geometry;
    use crate::fixtures::{new_game, person, settings};
    use crate::players::{Level, MockAdvisor, PlayerSpec};
    use crate::ports::{Change, Step};

    fn geometry() -> Geometry {
        Geometry::new(3, 3).unwrap()
    }

    fn cell(number: usize) -> Position {
        geometry().position(number - 1).unwrap()
    }

    fn kept(changes: &[Change]) -> StoredGame {
        StoredGame {
            game: new_game(
                7,
                settings(person("Ada"), PlayerSpec::Computer(Level::Impossible)),
            ),
            steps: changes
                .iter()
                .zip(1..)
                .map(|(&change, number)| Step { number, change })
                .collect(),
            ending: None,
            started: SystemTime::UNIX_EPOCH,
            ended: None,
            rematch: None,
            clock: None,
        }
    }

    fn moves(numbers: &[usize]) -> Vec<Change> {
        numbers.iter().map(|&n| Change::Move(cell(n))).collect()
    }

    fn analysis(verdict: Verdict, best: &[usize]) -> Analysis {
        Analysis {
            verdict,
            plies: 1,
            best_moves: best.iter().map(|&n| cell(n)).collect(),
            exact: true,
            moves_proven: true,
        }
    }

    #[test]
    fn a_replay_is_the_moves_that_stand_with_the_marks_that_made_them() {
        // Arrange: X 5, O 1; O's 1 taken back; O plays 3 instead.
        let mut changes = moves(&[5, 1]);
        changes.push(Change::Undo { moves: 1 });
        changes.extend(moves(&[3]));

        // Act
        let replay = Replay::of(&kept(&changes)).unwrap();

        // Assert
        assert_eq!(
            replay.moves(),
            [
                Played {
                    ply: 1,
                    mark: Mark::X,
                    cell: cell(5)
                },
                Played {
                    ply: 2,
                    mark: Mark::O,
                    cell: cell(3)
                },
            ]
        );
    }

    #[rstest]
    #[case::an_illegal_move(moves(&[5, 5]), ResumeError::Illegal { number: 2 })]
    #[case::an_undo_of_nothing(vec![Change::Undo { moves: 1 }], ResumeError::NothingToUndo { number: 1 })]
    fn steps_that_are_not_a_game_are_refused(
        #[case] changes: Vec<Change>,
        #[case] error: ResumeError,
    ) {
        assert_eq!(Replay::of(&kept(&changes)), Err(error));
    }

    #[test]
    fn steps_out_of_order_are_refused() {
        let mut stored = kept(&moves(&[5, 1]));
        stored.steps[1].number = 3;

        assert_eq!(
            Replay::of(&stored),
            Err(ResumeError::OutOfOrder { number: 3 })
        );
    }

    #[test]
    fn moves_played_that_are_not_a_game_from_the_empty_board_are_refused() {
        let settings = kept(&[]).game.settings;

        let replay = Replay::played(&settings, &[cell(5), cell(5)], None);

        assert_eq!(replay, Err(ResumeError::Illegal { number: 2 }));
    }

    #[test]
    fn a_replay_ends_as_the_kept_game_ended() {
        let mut stored = kept(&moves(&[5, 1]));
        stored.ending = Some(Ending::Resigned(Mark::O));

        let replay = Replay::of(&stored).unwrap();

        assert_eq!(replay.ending(), Some(Ending::Resigned(Mark::O)));
    }

    #[test]
    fn the_game_after_some_plies_has_those_moves_on_the_board() {
        let replay = Replay::of(&kept(&moves(&[5, 1, 9]))).unwrap();

        let game = replay.after(2);

        assert_eq!(game.moves(), [cell(5), cell(1)]);
        assert_eq!(game.to_move(), Mark::X);
    }

    #[test]
    fn a_move_that_keeps_the_value_is_kept_and_each_position_is_analysed_once() {
        // Arrange: X 5 then O 1. Three positions in play: before X 5, before O 1, after.
        let replay = Replay::of(&kept(&moves(&[5, 1]))).unwrap();
        let mut advisor = MockAdvisor::new();
        let mut answers = vec![
            analysis(Verdict::Draw, &[5]),    // X to move on the empty board
            analysis(Verdict::Draw, &[1, 3]), // O to move after X 5
            analysis(Verdict::Draw, &[9]),    // X to move after O 1
        ]
        .into_iter();
        advisor
            .expect_advise()
            .times(3)
            .returning(move |_, _| answers.next());

        // Act
        let review = review(&replay, &mut advisor, &mut |_, _| {});

        // Assert
        assert_eq!(review.moves[0].judgement(), Judgement::Kept(Verdict::Draw));
        assert_eq!(review.moves[1].judgement(), Judgement::Kept(Verdict::Draw));
        assert_eq!(review.moves[1].best_moves, [cell(1), cell(3)]);
        assert!(review.exact());
    }

    #[test]
    fn a_move_after_which_the_other_side_wins_threw_the_draw_away() {
        // Arrange: X 5, O 2 (a loss for O: X wins from there).
        let replay = Replay::of(&kept(&moves(&[5, 2]))).unwrap();
        let mut advisor = MockAdvisor::new();
        let mut answers = vec![
            analysis(Verdict::Draw, &[5]),
            analysis(Verdict::Draw, &[1, 3, 7, 9]),
            analysis(Verdict::Win, &[1, 3]),
        ]
        .into_iter();
        advisor
            .expect_advise()
            .returning(move |_, _| answers.next());

        // Act
        let review = review(&replay, &mut advisor, &mut |_, _| {});

        // Assert
        let o = &review.moves[1];
        assert_eq!(o.after, Known::Exactly(Verdict::Loss));
        assert_eq!(
            o.judgement(),
            Judgement::ThrewAway {
                had: Verdict::Draw,
                left: Verdict::Loss
            }
        );
        assert_eq!(o.best_moves, [cell(1), cell(3), cell(7), cell(9)]);
    }

    #[test]
    fn a_winning_move_leaves_its_mover_a_win_without_asking_the_advisor() {
        // Arrange: X 1, O 4, X 2, O 5, X 3 wins the top row.
        let replay = Replay::of(&kept(&moves(&[1, 4, 2, 5, 3]))).unwrap();
        let mut advisor = MockAdvisor::new();
        advisor
            .expect_advise()
            .times(5)
            .returning(|_, _| Some(analysis(Verdict::Win, &[3])));

        // Act
        let review = review(&replay, &mut advisor, &mut |_, _| {});

        // Assert
        assert_eq!(review.moves[4].after, Known::Exactly(Verdict::Win));
    }

    #[test]
    fn a_value_not_proven_in_time_leaves_the_move_unsettled() {
        // Arrange: the analysis after X 5 proves only that O does not lose.
        let replay = Replay::of(&kept(&moves(&[5]))).unwrap();
        let mut advisor = MockAdvisor::new();
        let mut answers = vec![
            analysis(Verdict::Draw, &[5]),
            Analysis {
                exact: false,
                ..analysis(Verdict::Draw, &[1])
            },
        ]
        .into_iter();
        advisor
            .expect_advise()
            .returning(move |_, _| answers.next());

        // Act
        let review = review(&replay, &mut advisor, &mut |_, _| {});

        // Assert
        assert_eq!(review.moves[0].after, Known::AtMostDraw);
        assert_eq!(review.moves[0].judgement(), Judgement::Unsettled);
        assert!(!review.exact());
    }

    #[test]
    fn progress_is_told_after_each_move() {
        let replay = Replay::of(&kept(&moves(&[5, 1, 9]))).unwrap();
        let mut advisor = MockAdvisor::new();
        advisor
            .expect_advise()
            .returning(|_, _| Some(analysis(Verdict::Draw, &[1])));
        let mut told = Vec::new();

        review(&replay, &mut advisor, &mut |done, total| {
            told.push((done, total))
        });

        assert_eq!(told, [(1, 3), (2, 3), (3, 3)]);
    }

    /// X 5 then O 1, reviewed in a hurry: the position after X 5 (O to move) was
    /// not settled, only bounded (O does not win).
    fn hurried_5_then_1() -> (Replay, Review) {
        let replay = Replay::of(&kept(&moves(&[5, 1]))).unwrap();
        let mut review = reviewed_5_then_1(Known::Exactly(Verdict::Draw));
        review.moves[0].after = Known::AtMostDraw.for_the_other_side();
        review.moves[1].before = Known::AtMostDraw;
        review.moves[1].best_moves = vec![cell(1)];
        (replay, review)
    }

    #[test]
    fn completing_a_review_analyses_only_the_positions_it_left_unsettled() {
        // Arrange: a mock advisor that expects one question, about O to move after X 5.
        let (replay, kept) = hurried_5_then_1();
        let mut advisor = MockAdvisor::new();
        advisor
            .expect_advise()
            .withf(|board, to_move| *to_move == Mark::O && board.mark_at(cell(5)) == Some(Mark::X))
            .times(1)
            .returning(|_, _| Some(analysis(Verdict::Draw, &[1, 3])));

        // Act
        let completed = complete(&replay, &kept, &mut advisor);

        // Assert
        assert_eq!(completed.moves[0].after, Known::Exactly(Verdict::Draw));
        assert_eq!(completed.moves[1].before, Known::Exactly(Verdict::Draw));
        assert_eq!(completed.moves[1].best_moves, [cell(1), cell(3)]);
        assert!(completed.exact() && completed.improves_on(&kept));
    }

    #[test]
    fn completing_a_review_keeps_what_it_said_where_the_advisor_gives_up() {
        let (replay, kept) = hurried_5_then_1();
        let mut advisor = MockAdvisor::new();
        advisor.expect_advise().return_const(None);

        let completed = complete(&replay, &kept, &mut advisor);

        assert_eq!(completed, kept);
    }

    #[test]
    fn completing_a_review_keeps_what_it_said_where_the_advisor_knows_less() {
        let (replay, kept) = hurried_5_then_1();
        let mut advisor = MockAdvisor::new();
        // Nothing proven this time (where the kept review had a bound).
        advisor.expect_advise().returning(|_, _| {
            Some(Analysis {
                exact: false,
                moves_proven: false,
                ..analysis(Verdict::Draw, &[1])
            })
        });

        let completed = complete(&replay, &kept, &mut advisor);

        assert_eq!(completed, kept);
    }

    /// A review of X 5 then O 1 whose values after O's move are `o_after` (the rest a
    /// proven draw).
    fn reviewed_5_then_1(o_after: Known) -> Review {
        let draw = Known::Exactly(Verdict::Draw);
        let reviewed = |ply, mark, number, after| MoveReview {
            ply,
            mark,
            cell: cell(number),
            before: draw,
            after,
            best_moves: vec![cell(number)],
        };
        Review {
            moves: vec![
                reviewed(1, Mark::X, 5, draw),
                reviewed(2, Mark::O, 1, o_after),
            ],
        }
    }

    #[rstest]
    #[case::a_value_where_only_a_bound_was_known(Known::AtMostDraw, Known::Exactly(Verdict::Draw))]
    #[case::a_value_where_nothing_was(Known::Nothing, Known::Exactly(Verdict::Loss))]
    #[case::a_bound_where_nothing_was(Known::Nothing, Known::AtMostDraw)]
    fn a_review_that_says_more_of_a_value_improves_on_one_that_was_not_exact(
        #[case] kept: Known,
        #[case] new: Known,
    ) {
        let (kept, new) = (reviewed_5_then_1(kept), reviewed_5_then_1(new));

        assert!(new.improves_on(&kept));
    }

    #[rstest]
    #[case::the_same(Known::AtMostDraw, Known::AtMostDraw)]
    #[case::less(Known::AtMostDraw, Known::Nothing)]
    #[case::a_contradiction(Known::AtMostDraw, Known::Exactly(Verdict::Win))]
    #[case::anything_after_an_exact_review(
        Known::Exactly(Verdict::Draw),
        Known::Exactly(Verdict::Loss)
    )]
    fn a_review_that_says_no_more_or_contradicts_does_not_improve_on_the_kept_one(
        #[case] kept: Known,
        #[case] new: Known,
    ) {
        let (kept, new) = (reviewed_5_then_1(kept), reviewed_5_then_1(new));

        assert!(!new.improves_on(&kept));
    }

    #[test]
    fn a_review_of_other_moves_does_not_improve_on_the_kept_one() {
        let kept = reviewed_5_then_1(Known::Nothing);
        let mut new = reviewed_5_then_1(Known::Exactly(Verdict::Draw));
        new.moves[1].cell = cell(2);

        assert!(!new.improves_on(&kept));
    }
}
