//! The line-by-line console's game: a thin loop over the [`Match`]. Read, parse, send
//! the request, show the answer; the match holds the rules and the state.

use crate::human::{HumanPlayer, Request};
use crate::ports::{InputHandler, Notice, Problem, Renderer};
use tictactoe_core::domain::{FinishedGame, GameState, Mark};
use tictactoe_core::play::{ComputerError, End, Event, Match, Recorder, Recording, Seat};
use tictactoe_core::ports::StoreError;

/// How a console game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameEnd {
    /// Played to the end and offered to the scoreboard.
    Finished(FinishedGame),
    /// A player quit. Not recorded.
    Abandoned,
    /// A player's input ended. Not recorded.
    InputClosed,
}

/// Plays matches at the console: people type through the [`InputHandler`] and are
/// answered through the [`Dialogue`](crate::Dialogue); everybody watches the board and the game's events
/// through the [`GameView`](crate::GameView), and the result and hints through the [`Reports`](crate::Reports).
pub struct GameController<'a, R, I> {
    renderer: &'a R,
    input: &'a I,
}

impl<'a, R, I> GameController<'a, R, I>
where
    R: Renderer,
    I: InputHandler,
{
    pub fn new(renderer: &'a R, input: &'a I) -> Self {
        GameController { renderer, input }
    }

    /// Plays `game` to its end: until it is finished, someone leaves, or input ends.
    pub fn play<C: Recorder>(&self, game: &mut Match<C>) -> Result<GameEnd, ComputerError> {
        let mut people = [Mark::X, Mark::O].map(|mark| match game.seat(mark) {
            Seat::Human(name) => Some(HumanPlayer::new(name.clone(), self.input, self.renderer)),
            Seat::Computer(_) => None,
        });
        self.renderer.show_notice(&Notice::GameStarts {
            x: game.seat(Mark::X).name(),
            o: game.seat(Mark::O).name(),
            first: game.game().to_move(),
            geometry: game.game().board().geometry(),
        });
        self.renderer.show_board(game.game().board(), &[]);
        loop {
            match game.end() {
                Some(End::Finished(finished)) => return Ok(GameEnd::Finished(finished.clone())),
                Some(End::Abandoned { .. }) => return Ok(GameEnd::Abandoned),
                None => {}
            }
            let mark = game.game().to_move();
            let Some(person) = &mut people[mark.index()] else {
                let events = game.advance()?;
                self.show(game, events);
                // Keys pressed while the computer thought are not the next answer.
                self.input.discard_typed_ahead();
                continue;
            };
            let Some(request) = person.next_request(game.game()) else {
                self.renderer.show_notice(&Notice::InputClosed);
                return Ok(GameEnd::InputClosed);
            };
            let answer = match request {
                Request::Move(position) => game.play(mark, position),
                Request::Undo => game.undo(mark),
                Request::Quit => game.leave(mark),
                Request::Hint => game.hint(mark).map(|analysis| {
                    self.renderer.show_analysis(mark, &analysis);
                    Vec::new()
                }),
            };
            match answer {
                Ok(events) => self.show(game, events),
                Err(refusal) => self.renderer.show_problem(&Problem::Refused(refusal)),
            }
        }
    }

    /// Shows each event of an answer.
    fn show<C: Recorder>(&self, game: &Match<C>, events: Vec<Event>) {
        let board = game.game().board();
        for event in events {
            match event {
                Event::Moved {
                    mark,
                    position,
                    by_computer,
                } => {
                    self.renderer.show_notice(&Notice::Moved {
                        name: game.seat(mark).name(),
                        mark,
                        position,
                        by_computer,
                    });
                    let line = board.winner().map(|win| win.line);
                    self.renderer
                        .show_board(board, line.as_ref().map_or(&[], |l| l.cells()));
                }
                Event::Undone { positions } => {
                    self.renderer.show_notice(&Notice::Undone {
                        moves: positions.len(),
                    });
                    self.renderer.show_board(board, &[]);
                }
                Event::UndoAsked { by } => self.renderer.show_notice(&Notice::UndoAsked {
                    by: game.seat(by).name(),
                }),
                Event::Finished {
                    game, recording, ..
                } => {
                    self.renderer.show_result(&game);
                    match recording {
                        // The two players' records; the whole table is `scores`.
                        Recording::Saved(scoreboard) => self
                            .renderer
                            .show_scoreboard(&scoreboard.of_players_in(&game)),
                        Recording::Failed(error) => self.renderer.show_notice(&Notice::NotSaved {
                            reason: error.to_string(),
                            unreadable: matches!(error, StoreError::Corrupt { .. }),
                        }),
                        Recording::Queued | Recording::NotRecorded => {}
                    }
                }
                Event::Abandoned { by } => self.renderer.show_notice(&Notice::Abandoned {
                    by: game.seat(by).name(),
                }),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use mockall::Sequence;
    use mockall::predicate::eq;

    use super::*;
    use crate::ports::{Input, MockInputHandler};
    use crate::test_support::{
        Screen, Shown, allow_rendering_except, cell, expect_notices, first_empty_cell, name,
        quiet_renderer, typed,
    };
    use tictactoe_core::domain::{Geometry, IllegalMove, Outcome, Refusal, Scoreboard, layout_of};
    use tictactoe_core::play::Unrecorded;
    use tictactoe_core::ports::{MockScoreStore, Reset, ScoreStore};

    /// Hal, a computer that always plays the first empty cell.
    fn hal() -> Seat {
        Seat::Computer(Box::new(first_empty_cell(name("Hal"))))
    }

    fn ada_and_bob<R: Recorder>(recorder: R) -> Match<R> {
        let seats = [Seat::Human(name("Ada")), Seat::Human(name("Bob"))];
        Match::new(Geometry::classic(), Mark::X, seats, recorder)
    }

    /// Plays `game` at a console that shows on `screen` and reads `keys`.
    fn play<C: Recorder>(
        screen: Screen,
        keys: MockInputHandler,
        game: &mut Match<C>,
    ) -> Result<GameEnd, ComputerError> {
        GameController::new(&screen, &keys).play(game)
    }

    #[test]
    fn people_take_turns_at_one_keyboard_until_the_game_is_won() {
        // Arrange: X: 1, 2, 3 (the top row); O: 4, 5.
        let keys = typed(&["1", "4", "2", "5", "3"]);
        let mut game = ada_and_bob(Unrecorded);

        // Act
        let end = play(quiet_renderer(), keys, &mut game);

        // Assert
        assert!(matches!(
            end,
            Ok(GameEnd::Finished(FinishedGame {
                outcome: Outcome::Won(Mark::X),
                ..
            }))
        ));
        assert_eq!(layout_of(game.game().board()), "XXXOO....");
    }

    #[test]
    fn a_refused_move_is_explained_and_the_same_person_asked_again() {
        // Arrange: Bob types Ada's cell 1, then 5. Problems are left out of the stubs, so
        // the one expected is the only one allowed.
        let mut screen = Screen::default();
        screen
            .dialogue
            .expect_show_problem()
            .with(eq(Problem::Refused(Refusal::Illegal(
                IllegalMove::Occupied(cell(1)),
            ))))
            .times(1)
            .return_const(());
        allow_rendering_except(&mut screen, &[Shown::Problem]);
        let mut game = ada_and_bob(Unrecorded);

        // Act
        play(screen, typed(&["1", "1", "5", "q"]), &mut game).unwrap();

        // Assert
        assert_eq!(
            layout_of(game.game().board()),
            "X...O....",
            "Bob played 5 after all"
        );
    }

    #[test]
    fn the_computers_moves_are_announced_as_the_computers() {
        // Arrange: Ada plays 5, Hal replies once, Ada leaves.
        let mut screen = Screen::default();
        expect_notices(
            &mut screen.view,
            1,
            |notice| matches!(notice, Notice::Moved { name, by_computer: true, .. } if name.as_str() == "Hal"),
        );
        allow_rendering_except(&mut screen, &[Shown::Notice]);
        let seats = [Seat::Human(name("Ada")), hal()];
        let mut game = Match::new(Geometry::classic(), Mark::X, seats, Unrecorded);

        // Act
        play(screen, typed(&["5", "q"]), &mut game).unwrap();

        // Assert
        assert_eq!(layout_of(game.game().board()), "O...X....");
    }

    #[test]
    fn keys_typed_while_the_computer_moved_are_discarded_once_per_computer_move() {
        // Arrange: Ada (X) plays 5, the computer replies, Ada leaves. One computer move,
        // so exactly one discard, and it comes after the computer's move, before Ada reads.
        let mut input = MockInputHandler::new();
        let mut seq = Sequence::new();
        for (line, discard_after) in [("5", true), ("q", false)] {
            input
                .expect_read_line()
                .times(1)
                .in_sequence(&mut seq)
                .return_const(Input::Line(line.to_string()));
            if discard_after {
                input
                    .expect_discard_typed_ahead()
                    .times(1)
                    .in_sequence(&mut seq)
                    .return_const(());
            }
        }
        let seats = [Seat::Human(name("Ada")), hal()];
        let mut game = Match::new(Geometry::classic(), Mark::X, seats, Unrecorded);

        // Act
        let end = play(quiet_renderer(), input, &mut game);

        // Assert
        assert_eq!(end, Ok(GameEnd::Abandoned));
    }

    #[test]
    fn quitting_is_announced_once_and_no_result_is_shown_or_recorded() {
        // Arrange: `show_result`, `show_scoreboard` and `record` have no expectation at
        // all, so any call fails the test.
        let mut screen = Screen::default();
        expect_notices(
            &mut screen.view,
            1,
            |notice| matches!(notice, Notice::Abandoned { by } if by.as_str() == "Ada"),
        );
        allow_rendering_except(
            &mut screen,
            &[Shown::Notice, Shown::Result, Shown::Scoreboard],
        );
        let mut game = ada_and_bob(MockScoreStore::new());

        // Act
        let end = play(screen, typed(&["quit"]), &mut game);

        // Assert
        assert_eq!(end, Ok(GameEnd::Abandoned));
    }

    #[test]
    fn input_that_ends_mid_game_ends_it_unrecorded() {
        // Arrange: no result may be shown, and the store has no expectation to record.
        let mut screen = Screen::default();
        expect_notices(&mut screen.view, 1, |notice| *notice == Notice::InputClosed);
        allow_rendering_except(&mut screen, &[Shown::Notice, Shown::Result]);
        let mut game = ada_and_bob(MockScoreStore::new());

        // Act
        let end = play(screen, typed(&["5"]), &mut game);

        // Assert
        assert_eq!(end, Ok(GameEnd::InputClosed));
    }

    /// A store the test keeps a hand on while a match uses it: the match records through
    /// this, and between phases the test locks the mock to check its expectations.
    struct Lent<'s>(&'s Mutex<MockScoreStore>);

    impl ScoreStore for Lent<'_> {
        fn load(&self) -> Result<Scoreboard, StoreError> {
            self.0.lock().unwrap().load()
        }
        fn record(&self, game: &FinishedGame) -> Result<Scoreboard, StoreError> {
            self.0.lock().unwrap().record(game)
        }
        fn reset(&self) -> Result<Reset, StoreError> {
            self.0.lock().unwrap().reset()
        }
    }

    #[test]
    fn the_scoreboard_is_written_once_when_the_game_ends_and_not_before() {
        // Arrange, phase 1: the store must not be written while the game is in progress.
        let store = Mutex::new(MockScoreStore::new());
        store.lock().unwrap().expect_record().times(0);
        let mut game = ada_and_bob(Lent(&store));

        // Act, phase 1: four moves, no winner yet; then the keys run out.
        let end = play(quiet_renderer(), typed(&["1", "4", "2", "5"]), &mut game);

        // Assert, phase 1: `checkpoint` verifies the expectations set so far (no record),
        // panicking if one was not met, and clears them for the next phase.
        assert_eq!(end, Ok(GameEnd::InputClosed));
        store.lock().unwrap().checkpoint();

        // Arrange, phase 2: the game must now be written exactly once.
        store
            .lock()
            .unwrap()
            .expect_record()
            .times(1)
            .returning(|_| Ok(Scoreboard::new()));

        // Act, phase 2: Ada completes the top row.
        let end = play(quiet_renderer(), typed(&["3"]), &mut game);

        // Assert, phase 2
        assert!(matches!(end, Ok(GameEnd::Finished(_))));
        store.lock().unwrap().checkpoint();
    }

    #[test]
    fn a_finished_game_shows_the_result_then_the_scoreboard_it_was_saved_to() {
        // Arrange: the store is a stub (its answer is what matters); the order of the two
        // reports is what this test is about.
        let mut store = MockScoreStore::new();
        store.expect_record().returning(|_| Ok(Scoreboard::new()));
        let mut seq = Sequence::new();
        let mut screen = Screen::default();
        screen
            .reports
            .expect_show_result()
            .times(1)
            .in_sequence(&mut seq)
            .return_const(());
        screen
            .reports
            .expect_show_scoreboard()
            .times(1)
            .in_sequence(&mut seq)
            .return_const(());
        allow_rendering_except(&mut screen, &[Shown::Result, Shown::Scoreboard]);
        let mut game = ada_and_bob(store);

        // Act
        let end = play(screen, typed(&["1", "4", "2", "5", "3"]), &mut game);

        // Assert
        assert!(matches!(end, Ok(GameEnd::Finished(_))));
    }

    #[test]
    fn a_result_that_cannot_be_saved_is_a_notice_and_no_scoreboard_is_shown() {
        // Arrange: a store that fails (a stub); one notice says so, no scoreboard is shown.
        let mut store = MockScoreStore::new();
        store
            .expect_record()
            .returning(|_| Err(StoreError::NoLocation));
        let mut screen = Screen::default();
        expect_notices(
            &mut screen.view,
            1,
            |notice| matches!(notice, Notice::NotSaved { reason, unreadable: false } if reason.contains("TICTACTOE_SCOREBOARD")),
        );
        allow_rendering_except(&mut screen, &[Shown::Notice, Shown::Scoreboard]);
        let mut game = ada_and_bob(store);

        // Act
        let end = play(screen, typed(&["1", "4", "2", "5", "3"]), &mut game);

        // Assert
        assert!(matches!(end, Ok(GameEnd::Finished(_))));
    }

    #[test]
    fn the_final_board_lights_up_the_winning_line() {
        // Arrange: a spy: the returning closure keeps every highlight it is shown, to read
        // after.
        let highlights = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&highlights);
        let mut screen = Screen::default();
        screen
            .view
            .expect_show_board()
            .returning(move |_, cells| seen.lock().unwrap().push(cells.to_vec()));
        allow_rendering_except(&mut screen, &[Shown::Board]);
        let mut game = ada_and_bob(Unrecorded);

        // Act
        play(screen, typed(&["1", "4", "2", "5", "3"]), &mut game).unwrap();

        // Assert
        let highlights = highlights.lock().unwrap();
        assert!(highlights[..highlights.len() - 1].iter().all(Vec::is_empty));
        assert_eq!(highlights.last(), Some(&vec![cell(1), cell(2), cell(3)]));
    }

    #[test]
    fn undo_and_hint_are_requests_to_the_match_and_their_answers_are_shown() {
        // Arrange: Ada plays 5, takes it back, asks for a hint (refused: no advisor in a
        // game between people), leaves.
        let mut screen = Screen::default();
        expect_notices(&mut screen.view, 1, |notice| {
            matches!(notice, Notice::Undone { .. })
        });
        screen
            .dialogue
            .expect_show_problem()
            .with(eq(Problem::Refused(Refusal::NoHints)))
            .times(1)
            .return_const(());
        allow_rendering_except(&mut screen, &[Shown::Notice, Shown::Problem]);
        let mut game = ada_and_bob(Unrecorded);

        // Act
        play(screen, typed(&["5", "u", "?", "q"]), &mut game).unwrap();

        // Assert
        assert_eq!(layout_of(game.game().board()), ".........");
    }
}
