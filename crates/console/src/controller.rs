//! The line-by-line console's game: a thin loop over the [`Match`]. Read, parse, send
//! the request, show the answer; the match holds the rules and the state.

use crate::clock::{SystemClock, TimeKeeper, WallClock};
use crate::human::{HumanPlayer, Request};
use crate::ports::{InputHandler, Notice, Problem, Renderer};
use tictactoe_core::domain::{FinishedGame, GameState, Mark};
use tictactoe_core::play::{ComputerError, End, Event, Help, Match, Recorder, Recording, Seat};

/// How a console game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameEnd {
    /// Played to the end and counted on the scoreboard.
    Finished(FinishedGame),
    /// A player quit: kept as abandoned, not counted.
    Abandoned,
    /// A player's input ended: kept as far as it went, not counted.
    InputClosed,
    /// The player of `side` ran out of time: counted as their loss, or as a draw
    /// (`drawn`) when the other could no longer complete a line.
    TimedOut { side: Mark, drawn: bool },
    /// The player of `by` made no first move in time: kept as aborted, not counted.
    Aborted { by: Mark },
}

/// Plays matches at the console: people type through the [`InputHandler`] and are
/// answered through the [`Dialogue`](crate::Dialogue); everybody watches the board and the game's events
/// through the [`GameView`](crate::GameView), and the result and hints through the [`Reports`](crate::Reports).
pub struct GameController<'a, R, I> {
    renderer: &'a R,
    input: &'a I,
    /// Read for a game on a clock, at each answer.
    wall: &'a dyn WallClock,
}

impl<'a, R, I> GameController<'a, R, I>
where
    R: Renderer,
    I: InputHandler,
{
    pub fn new(renderer: &'a R, input: &'a I) -> Self {
        GameController {
            renderer,
            input,
            wall: &SystemClock,
        }
    }

    /// Reads the time for games on a clock from `wall` rather than the system's clock.
    pub fn reading_time(self, wall: &'a dyn WallClock) -> Self {
        GameController { wall, ..self }
    }

    /// Shows what became of an ending that was not played to the board's end (a
    /// resignation, a time-out): the players' rows (the store answers theirs only) and
    /// what it did to their ratings; the error if it was not kept.
    fn recorded(&self, recording: Recording) -> Option<tictactoe_core::ports::StoreError> {
        match recording {
            Recording::Saved(records, changes) => {
                self.renderer.show_scoreboard(&records);
                self.rated(changes);
                None
            }
            Recording::Failed(error) => Some(error),
            Recording::Queued | Recording::NotRecorded => None,
        }
    }

    /// Says what the game did to the ratings of the people in it, if it rated anyone.
    fn rated(&self, changes: Vec<tictactoe_core::ports::RatingChange>) {
        if !changes.is_empty() {
            self.renderer.show_notice(&Notice::Rated { changes });
        }
    }

    /// Plays `game` to its end: until it is finished, someone leaves, or input ends.
    pub fn play<C: Recorder>(&self, game: &mut Match<C>) -> Result<GameEnd, ComputerError> {
        self.play_timed(game, &mut TimeKeeper::untimed())
    }

    /// Plays `game` on the clock `keeper` keeps (or none): as [`play`](Self::play), and
    /// the game also ends when a side runs out of time. A blocked read cannot be
    /// interrupted, so the clock is judged at each answer: a move typed after the
    /// deadline loses on time. The prompt shows each side's time as it is put.
    pub fn play_timed<C: Recorder>(
        &self,
        game: &mut Match<C>,
        keeper: &mut TimeKeeper,
    ) -> Result<GameEnd, ComputerError> {
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
        // A game that cannot be saved is said so once, not at every move.
        let mut warned = false;
        // Help that would make the rated game casual, said so and not yet asked again.
        let mut cautioned: Option<Help> = None;
        loop {
            match game.end() {
                Some(End::Finished(finished)) => return Ok(GameEnd::Finished(finished.clone())),
                // The console offers no resigning; a game ended so would be over as a
                // game left is.
                Some(End::Abandoned { .. } | End::Resigned { .. }) => {
                    return Ok(GameEnd::Abandoned);
                }
                Some(&End::TimedOut { side, drawn }) => {
                    return Ok(GameEnd::TimedOut { side, drawn });
                }
                Some(&End::Aborted { by }) => return Ok(GameEnd::Aborted { by }),
                None => {}
            }
            let ended = keeper.judge(game, self.wall.now());
            if !ended.is_empty() {
                self.show(game, ended, &mut warned);
                continue;
            }
            let mark = game.game().to_move();
            let Some(person) = &mut people[mark.index()] else {
                let events = game.advance()?;
                // Charged when it comes: a computer's move is usually at once.
                keeper.follow(game, self.wall.now());
                self.show(game, events, &mut warned);
                // Keys pressed while the computer thought are not the next answer.
                self.input.discard_typed_ahead();
                continue;
            };
            let time = || keeper.time_left(self.wall.now());
            let Some(request) = person.next_request_timed(game.game(), &time) else {
                self.renderer.show_notice(&Notice::InputClosed);
                return Ok(GameEnd::InputClosed);
            };
            // The answer is judged as it comes: after the deadline, the game is over.
            let ended = keeper.judge(game, self.wall.now());
            if !ended.is_empty() {
                self.show(game, ended, &mut warned);
                continue;
            }
            let help = match request {
                Request::Hint => Some(Help::Hint),
                Request::Undo => Some(Help::Undo),
                Request::Move(_) | Request::Quit => None,
            };
            let asked_again = std::mem::take(&mut cautioned) == help;
            if let Some(help) = help
                && game.makes_casual(mark, help)
                && !asked_again
            {
                self.renderer.show_notice(&Notice::HelpWarned { help });
                cautioned = Some(help);
                continue;
            }
            let answer = match request {
                Request::Move(position) => game.play(mark, position),
                Request::Undo => game.undo(mark),
                Request::Quit => game.leave(mark),
                Request::Hint => game.hint(mark).map(|hinted| {
                    self.renderer.show_analysis(mark, &hinted.analysis);
                    hinted.events
                }),
            };
            match answer {
                Ok(events) => {
                    keeper.follow(game, self.wall.now());
                    self.show(game, events, &mut warned);
                }
                Err(refusal) => self.renderer.show_problem(&Problem::Refused(refusal)),
            }
        }
    }

    /// Shows each event of an answer; `warned`: whether this game's player was already
    /// told that it is not being saved.
    fn show<C: Recorder>(&self, game: &Match<C>, events: Vec<Event>, warned: &mut bool) {
        let mut not_saved = |error: tictactoe_core::ports::StoreError| {
            if !std::mem::replace(warned, true) {
                self.renderer.show_notice(&Notice::NotSaved {
                    reason: error.to_string(),
                });
            }
        };
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
                        Recording::Saved(scoreboard, changes) => {
                            self.renderer
                                .show_scoreboard(&scoreboard.of_players_in(&game));
                            self.rated(changes);
                        }
                        Recording::Failed(error) => not_saved(error),
                        Recording::Queued | Recording::NotRecorded => {}
                    }
                }
                Event::Resigned { by, recording } => {
                    self.renderer.show_notice(&Notice::Resigned {
                        by: game.seat(by).name(),
                    });
                    if let Some(error) = self.recorded(recording) {
                        not_saved(error);
                    }
                }
                Event::Abandoned { by } => self.renderer.show_notice(&Notice::Abandoned {
                    by: game.seat(by).name(),
                }),
                Event::TimedOut {
                    side,
                    drawn,
                    recording,
                } => {
                    self.renderer.show_notice(&Notice::TimedOut {
                        name: game.seat(side).name(),
                        side,
                        other: game.seat(side.opponent()).name(),
                        drawn,
                    });
                    if let Some(error) = self.recorded(recording) {
                        not_saved(error);
                    }
                }
                Event::Aborted { by } => self.renderer.show_notice(&Notice::Aborted {
                    name: game.seat(by).name(),
                    by,
                }),
                Event::MadeCasual => self.renderer.show_notice(&Notice::MadeCasual),
                Event::NotKept(error) => not_saved(error),
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
    use crate::clock::TimeLeft;
    use crate::ports::Prompt;
    use crate::ports::{Input, MockInputHandler};
    use crate::test_support::{
        Screen, Shown, allow_rendering_except, at, cell, counting_notices, expect_notices,
        expect_prompts, first_empty_cell, name, quiet_renderer, typed, typed_at,
    };
    use mockall::predicate::always;
    use std::time::Duration;
    use tictactoe_core::domain::{FIRST_MOVE_WITHIN, GameClock};
    use tictactoe_core::domain::{
        Geometry, IllegalMove, Outcome, PlayerName, Refusal, Scoreboard, layout_of,
    };
    use tictactoe_core::fixtures::{ada_and_bob, ending_once, failing_steps, keeping_steps};
    use tictactoe_core::play::{MockRecorder, Unrecorded};
    use tictactoe_core::ports::{Ending, Step, StoreError};

    /// Hal, a computer that always plays the first empty cell.
    fn hal() -> Seat {
        Seat::Computer(Box::new(first_empty_cell(name("Hal"))))
    }

    /// Plays `game` at a console that shows on `screen` and reads `keys`.
    fn play<C: Recorder>(
        screen: Screen,
        keys: MockInputHandler,
        game: &mut Match<C>,
    ) -> Result<GameEnd, ComputerError> {
        GameController::new(&screen, &keys).play(game)
    }

    /// Plays `game` at a console that shows on `screen`, X taking the top row (X: 1, 2,
    /// 3; O: 4, 5).
    fn x_takes_the_top_row<C: Recorder>(
        screen: Screen,
        game: &mut Match<C>,
    ) -> Result<GameEnd, ComputerError> {
        play(screen, typed(&["1", "4", "2", "5", "3"]), game)
    }

    /// Ada (X) and Bob play a game kept by `recorder` at a console that shows on
    /// `screen`, X taking the top row.
    fn ada_and_bob_play_to_x_s_win(
        screen: Screen,
        recorder: impl Recorder,
    ) -> Result<GameEnd, ComputerError> {
        x_takes_the_top_row(screen, &mut ada_and_bob(recorder))
    }

    /// `recorder`, its store failing to keep the game's end (a stub: it has no folder).
    fn failing_at_the_end(mut recorder: MockRecorder) -> MockRecorder {
        recorder
            .expect_end()
            .returning(|_, _| Recording::Failed(StoreError::NoLocation));
        recorder
    }

    #[test]
    fn people_take_turns_at_one_keyboard_until_the_game_is_won() {
        // Arrange
        let mut game = ada_and_bob(Unrecorded);

        // Act
        let end = x_takes_the_top_row(quiet_renderer(), &mut game);

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
        let screen = counting_notices(
            1,
            |notice| matches!(notice, Notice::Moved { name, by_computer: true, .. } if name.as_str() == "Hal"),
            &[],
        );
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
    fn quitting_is_announced_once_kept_as_abandoned_and_no_result_is_shown() {
        // Arrange: `show_result` and `show_scoreboard` have no expectation at all, so any
        // call fails the test.
        let screen = counting_notices(
            1,
            |notice| matches!(notice, Notice::Abandoned { by } if by.as_str() == "Ada"),
            &[Shown::Result, Shown::Scoreboard],
        );
        let mut game = ada_and_bob(ending_once(Ending::Abandoned(Mark::X)));

        // Act
        let end = play(screen, typed(&["quit"]), &mut game);

        // Assert
        assert_eq!(end, Ok(GameEnd::Abandoned));
    }

    #[test]
    fn input_that_ends_mid_game_ends_it_without_a_result() {
        // Arrange: no result may be shown, and the recorder must not be told of an end.
        let screen = counting_notices(1, |notice| *notice == Notice::InputClosed, &[Shown::Result]);
        let mut recorder = keeping_steps();
        recorder.expect_end().never();
        let mut game = ada_and_bob(recorder);

        // Act
        let end = play(screen, typed(&["5"]), &mut game);

        // Assert
        assert_eq!(end, Ok(GameEnd::InputClosed));
    }

    /// A recorder the test keeps a hand on while a match uses it: the match records
    /// through this, and between phases the test locks the mock to check its expectations.
    struct Lent<'s>(&'s Mutex<MockRecorder>);

    impl Recorder for Lent<'_> {
        fn keep(&mut self, step: Step) -> Result<(), StoreError> {
            self.0.lock().unwrap().keep(step)
        }
        fn end(&mut self, ending: Ending, players: &[PlayerName; 2]) -> Recording {
            self.0.lock().unwrap().end(ending, players)
        }
        fn rename(&mut self, mark: Mark, name: &PlayerName) -> Result<(), StoreError> {
            self.0.lock().unwrap().rename(mark, name)
        }
        fn casual(&mut self) -> Result<(), StoreError> {
            self.0.lock().unwrap().casual()
        }
    }

    #[test]
    fn the_result_is_kept_once_when_the_game_ends_and_not_before() {
        // Arrange, phase 1: no end may be kept while the game is in progress.
        let recorder = Mutex::new(keeping_steps());
        recorder.lock().unwrap().expect_end().times(0);
        let mut game = ada_and_bob(Lent(&recorder));

        // Act, phase 1: four moves, no winner yet; then the keys run out.
        let end = play(quiet_renderer(), typed(&["1", "4", "2", "5"]), &mut game);

        // Assert, phase 1: `checkpoint` verifies the expectations set so far (no end),
        // panicking if one was not met, and clears them for the next phase.
        assert_eq!(end, Ok(GameEnd::InputClosed));
        recorder.lock().unwrap().checkpoint();

        // Arrange, phase 2: the win must now be kept exactly once.
        let mut phase_two = recorder.lock().unwrap();
        phase_two.expect_keep().returning(|_| Ok(()));
        phase_two
            .expect_end()
            .with(eq(Ending::Finished(Outcome::Won(Mark::X))), always())
            .times(1)
            .returning(|_, _| Recording::Saved(Scoreboard::new(), Vec::new()));
        drop(phase_two);

        // Act, phase 2: Ada completes the top row.
        let end = play(quiet_renderer(), typed(&["3"]), &mut game);

        // Assert, phase 2
        assert!(matches!(end, Ok(GameEnd::Finished(_))));
        recorder.lock().unwrap().checkpoint();
    }

    #[test]
    fn a_finished_game_shows_the_result_then_the_scoreboard_it_was_saved_to() {
        // Arrange: the recorder is a stub (its answer is what matters); the order of the
        // two reports is what this test is about.
        let mut recorder = keeping_steps();
        recorder
            .expect_end()
            .returning(|_, _| Recording::Saved(Scoreboard::new(), Vec::new()));
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

        // Act
        let end = ada_and_bob_play_to_x_s_win(screen, recorder);

        // Assert
        assert!(matches!(end, Ok(GameEnd::Finished(_))));
    }

    #[test]
    fn a_result_that_cannot_be_saved_is_a_notice_and_no_scoreboard_is_shown() {
        // Arrange: a recorder whose store fails at the end (a stub); one notice says so.
        let recorder = failing_at_the_end(keeping_steps());
        let screen = counting_notices(
            1,
            |notice| matches!(notice, Notice::NotSaved { reason } if reason.contains("no folder")),
            &[Shown::Scoreboard],
        );

        // Act
        let end = ada_and_bob_play_to_x_s_win(screen, recorder);

        // Assert
        assert!(matches!(end, Ok(GameEnd::Finished(_))));
    }

    #[test]
    fn a_game_whose_moves_cannot_be_saved_is_said_so_once_and_played_to_the_end() {
        // Arrange: every write fails (a stub); the notice must come exactly once.
        let recorder = failing_at_the_end(failing_steps());
        let screen = counting_notices(1, |notice| matches!(notice, Notice::NotSaved { .. }), &[]);

        // Act
        let end = ada_and_bob_play_to_x_s_win(screen, recorder);

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
        x_takes_the_top_row(screen, &mut game).unwrap();

        // Assert
        let highlights = highlights.lock().unwrap();
        assert!(highlights[..highlights.len() - 1].iter().all(Vec::is_empty));
        assert_eq!(highlights.last(), Some(&vec![cell(1), cell(2), cell(3)]));
    }

    /// The screen expects the hint to be refused once: no advisor in a game between
    /// people.
    fn expect_no_hints_refused_once(screen: &mut Screen) {
        screen
            .dialogue
            .expect_show_problem()
            .with(eq(Problem::Refused(Refusal::NoHints)))
            .times(1)
            .return_const(());
    }

    #[test]
    fn undo_and_hint_are_requests_to_the_match_and_their_answers_are_shown() {
        // Arrange: Ada plays 5, takes it back, asks for a hint (refused: no advisor in a
        // game between people), leaves.
        let mut screen = Screen::default();
        expect_notices(&mut screen.view, 1, |notice| {
            matches!(notice, Notice::Undone { .. })
        });
        expect_no_hints_refused_once(&mut screen);
        allow_rendering_except(&mut screen, &[Shown::Notice, Shown::Problem]);
        let mut game = ada_and_bob(Unrecorded).casual(true);

        // Act
        play(screen, typed(&["5", "u", "?", "q"]), &mut game).unwrap();

        // Assert
        assert_eq!(layout_of(game.game().board()), ".........");
    }

    #[test]
    fn a_hint_in_a_rated_game_is_said_to_make_it_casual_and_given_when_asked_again() {
        // Arrange: a rated game whose hint is refused once given (no advisor): what
        // matters is that the first ask is warned and only the second reaches the match.
        let mut screen = Screen::default();
        expect_notices(&mut screen.view, 1, |notice| {
            matches!(notice, Notice::HelpWarned { help: Help::Hint })
        });
        expect_no_hints_refused_once(&mut screen);
        allow_rendering_except(&mut screen, &[Shown::Notice, Shown::Problem]);
        let mut game = ada_and_bob(Unrecorded);

        // Act
        play(screen, typed(&["?", "?", "q"]), &mut game).unwrap();

        // Assert: the mocks checked one warning, then one request.
        assert!(game.end().is_some());
    }

    #[test]
    fn a_warning_is_forgotten_once_something_else_is_typed() {
        // Arrange: ? is warned, a move is played, ? is warned again.
        let screen = counting_notices(
            2,
            |notice| matches!(notice, Notice::HelpWarned { help: Help::Hint }),
            &[],
        );
        let mut game = ada_and_bob(Unrecorded);

        // Act
        play(screen, typed(&["?", "5", "?", "q"]), &mut game).unwrap();

        // Assert: the mock checked two warnings and no hint.
        assert!(!game.is_casual());
    }

    /// Three minutes each and two seconds a move, X first, begun at 0 s.
    fn three_plus_two<'a>() -> TimeKeeper<'a> {
        let control = "3+2".parse().unwrap();
        TimeKeeper::new(Some(GameClock::start(
            control,
            FIRST_MOVE_WITHIN,
            Mark::X,
            at(0),
        )))
    }

    /// Plays `game` on a 3+2 clock ([`three_plus_two`]) at a console that shows on
    /// `screen`, the lines typed at the seconds given.
    fn play_on_the_clock<C: Recorder>(
        screen: Screen,
        lines: &[(&str, u64)],
        game: &mut Match<C>,
    ) -> Result<GameEnd, ComputerError> {
        let (keys, wall) = typed_at(lines);
        GameController::new(&screen, &keys)
            .reading_time(&wall)
            .play_timed(game, &mut three_plus_two())
    }

    #[test]
    fn on_a_clock_the_move_prompt_shows_each_sides_time_as_it_is_put() {
        // Arrange: X plays 1 at 1 s, O 5 at 2 s, X 9 at 12 s: O's prompt then shows X's
        // 180 - 10 + 2 seconds and O's 180, the clocks running.
        let mut screen = Screen::default();
        let shown = TimeLeft {
            left: [Duration::from_secs(172), Duration::from_secs(180)],
            first_move: None,
        };
        expect_prompts(
            &mut screen.dialogue,
            1,
            move |prompt| matches!(prompt, Prompt::Move { time: Some(time), .. } if *time == shown),
        );
        allow_rendering_except(&mut screen, &[Shown::Prompt]);
        let mut game = ada_and_bob(Unrecorded);

        // Act
        play_on_the_clock(
            screen,
            &[("1", 1), ("5", 2), ("9", 12), ("q", 15)],
            &mut game,
        )
        .unwrap();

        // Assert: the mock counted the prompt.
        assert_eq!(layout_of(game.game().board()), "X...O...X");
    }

    #[test]
    fn a_move_typed_after_the_deadline_loses_on_time_and_is_not_played() {
        // Arrange: X's 9 comes at 200 s, past X's three minutes from 2 s.
        let screen = counting_notices(
            1,
            |notice| {
                matches!(notice, Notice::TimedOut { name, side: Mark::X, drawn: false, .. }
                    if name.as_str() == "Ada")
            },
            &[],
        );
        let mut game = ada_and_bob(Unrecorded);

        // Act
        let end = play_on_the_clock(screen, &[("1", 1), ("5", 2), ("9", 200)], &mut game);

        // Assert
        assert_eq!(
            end,
            Ok(GameEnd::TimedOut {
                side: Mark::X,
                drawn: false
            })
        );
        assert_eq!(layout_of(game.game().board()), "X...O....");
    }

    #[test]
    fn a_side_out_of_time_draws_when_the_other_could_no_longer_complete_a_line() {
        // Arrange: X to move on "o../xxo/xo." (each line open to O lacks two cells, and
        // only three are empty); X answers at 300 s.
        let moves = [
            ("4", 1),
            ("1", 2),
            ("5", 3),
            ("6", 4),
            ("7", 5),
            ("8", 6),
            ("9", 300),
        ];
        let mut game = ada_and_bob(Unrecorded);

        // Act
        let end = play_on_the_clock(quiet_renderer(), &moves, &mut game);

        // Assert
        assert_eq!(
            end,
            Ok(GameEnd::TimedOut {
                side: Mark::X,
                drawn: true
            })
        );
    }

    #[test]
    fn a_first_move_not_made_in_time_aborts_the_game_uncounted() {
        // Arrange: X plays at 1 s; O answers at 40 s, past the 30 s for a first move.
        // No result and no scoreboard may be shown.
        let screen = counting_notices(
            1,
            |notice| matches!(notice, Notice::Aborted { by: Mark::O, .. }),
            &[Shown::Result, Shown::Scoreboard],
        );
        let mut game = ada_and_bob(ending_once(Ending::Aborted(Mark::O)));

        // Act
        let end = play_on_the_clock(screen, &[("5", 1), ("1", 40)], &mut game);

        // Assert
        assert_eq!(end, Ok(GameEnd::Aborted { by: Mark::O }));
    }

    #[test]
    fn the_computers_moves_go_through_the_clock_too() {
        // Arrange: Ada (X) plays 5 at 1 s; Hal replies at once, and so starts the clocks.
        let seats = [Seat::Human(name("Ada")), hal()];
        let mut game = Match::new(Geometry::classic(), Mark::X, seats, Unrecorded);
        let (keys, wall) = typed_at(&[("5", 1), ("q", 3)]);
        let screen = quiet_renderer();
        let mut keeper = three_plus_two();

        // Act
        GameController::new(&screen, &keys)
            .reading_time(&wall)
            .play_timed(&mut game, &mut keeper)
            .unwrap();

        // Assert
        assert!(keeper.clock().is_some_and(|clock| clock.running()));
    }
}
