use std::rc::Rc;

use thiserror::Error;

use crate::domain::{FinishedGame, GameState, GameStatus, MoveError, Outcome, PlayerName};
use crate::players::{Action, Player};
use crate::ports::{Notice, Renderer, ScoreStore};

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameEnd {
    /// Played to the end and offered to the scoreboard.
    Finished(FinishedGame),
    /// A player quit. Not recorded.
    Abandoned,
    /// A player's input ended. Not recorded.
    InputClosed,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlayError {
    /// A player offered a move the rules refuse. People are re-asked before that can
    /// happen, so this is a bug in a player, reported rather than looped on.
    #[error("{player} made an illegal move: {error}")]
    IllegalMove {
        player: PlayerName,
        error: MoveError,
    },
    /// A player left a game that has nobody to ask (a simulation).
    #[error("{player} left a game that cannot be abandoned")]
    Left { player: PlayerName },
}

/// Runs one game: asks each player in turn, applies the move, shows what happened, and
/// records a finished game once. Knows every collaborator only by its trait.
pub struct GameController<R, S> {
    renderer: Rc<R>,
    store: S,
}

impl<R: Renderer, S: ScoreStore> GameController<R, S> {
    pub fn new(renderer: Rc<R>, store: S) -> Self {
        GameController { renderer, store }
    }

    /// Plays `game` to the end (or until a player leaves). `players` is indexed by
    /// [`Mark::index`](crate::domain::Mark::index): X first, then O.
    pub fn play(
        &self,
        game: &mut dyn GameState,
        players: &mut [Box<dyn Player>; 2],
    ) -> Result<GameEnd, PlayError> {
        let names = [players[0].name(), players[1].name()];
        let [x, o] = names.clone();
        self.renderer.show_notice(&Notice::GameStarts {
            x,
            o,
            first: game.to_move(),
        });
        self.renderer.show_board(game.board(), &[]);

        let outcome = loop {
            match game.status() {
                GameStatus::InProgress => {}
                GameStatus::Won(win) => break Outcome::Won(win.mark),
                GameStatus::Draw => break Outcome::Draw,
            }
            let mark = game.to_move();
            let player = &mut players[mark.index()];
            match player.choose(&*game) {
                Action::Place(position) => {
                    let status = game
                        .play(position)
                        .map_err(|error| PlayError::IllegalMove {
                            player: player.name(),
                            error,
                        })?;
                    self.renderer.show_notice(&Notice::Moved {
                        name: names[mark.index()].clone(),
                        mark,
                        position,
                        by_computer: !player.is_human(),
                    });
                    let highlight = match &status {
                        GameStatus::Won(win) => win.line.cells(),
                        _ => &[],
                    };
                    self.renderer.show_board(game.board(), highlight);
                }
                Action::Quit => {
                    self.renderer.show_notice(&Notice::Abandoned {
                        by: names[mark.index()].clone(),
                    });
                    return Ok(GameEnd::Abandoned);
                }
                Action::InputClosed => {
                    self.renderer.show_notice(&Notice::InputClosed);
                    return Ok(GameEnd::InputClosed);
                }
                Action::Undo => {
                    // Against a computer, its reply goes too, so it is this player's turn again.
                    let moves = if players[mark.opponent().index()].is_human() {
                        1
                    } else {
                        2
                    };
                    if game.moves_played() < moves {
                        self.renderer.show_notice(&Notice::NothingToUndo);
                    } else {
                        for _ in 0..moves {
                            game.undo();
                        }
                        self.renderer.show_notice(&Notice::Undone { moves });
                        self.renderer.show_board(game.board(), &[]);
                    }
                }
            }
        };

        let [x, o] = names;
        let finished = FinishedGame { x, o, outcome };
        self.renderer.show_result(&finished);
        match self.store.record(&finished) {
            Ok(scoreboard) => self.renderer.show_scoreboard(&scoreboard),
            Err(error) => self.renderer.show_notice(&Notice::NotSaved {
                reason: error.to_string(),
            }),
        }
        Ok(GameEnd::Finished(finished))
    }
}

#[cfg(test)]
mod tests {
    use mockall::Sequence;
    use mockall::predicate::eq;

    use super::*;
    use crate::domain::{
        Board, Game, Geometry, GridBoard, Mark, MockGameState, Position, Scoreboard, Win,
        fill_from_layout, layout_of,
    };
    use crate::players::{HumanPlayer, MockAdvisor, MockPlayer};
    use crate::ports::{Input, MockInputHandler, MockRenderer, MockScoreStore, StoreError};
    use crate::test_support::{allow_any_rendering, quiet_renderer};

    fn name(text: &str) -> PlayerName {
        PlayerName::new(text).unwrap()
    }

    fn cell(number: usize) -> Position {
        Geometry::classic().position(number - 1).unwrap()
    }

    /// A player who plays `moves` in order.
    fn scripted_player(player: &str, moves: &[usize]) -> MockPlayer {
        let mut mock = MockPlayer::new();
        mock.expect_name().return_const(name(player));
        mock.expect_is_human().return_const(true);
        let mut moves: Vec<Position> = moves.iter().rev().map(|&n| cell(n)).collect();
        mock.expect_choose()
            .returning(move |_| moves.pop().map_or(Action::Quit, Action::Place));
        mock
    }

    fn seats(x: MockPlayer, o: MockPlayer) -> [Box<dyn Player>; 2] {
        [Box::new(x), Box::new(o)]
    }

    fn storing_ok() -> MockScoreStore {
        let mut store = MockScoreStore::new();
        store.expect_record().returning(|_| Ok(Scoreboard::new()));
        store
    }

    /// A game one move from X winning with cell 3: "xx./oo./...".
    fn x_about_to_win() -> MockGameState {
        let board = fill_from_layout(GridBoard::new(Geometry::classic()), "xx./oo./...").unwrap();
        let won = GameStatus::Won(Win {
            mark: Mark::X,
            line: Geometry::classic().lines()[0].clone(),
        });
        let mut game = MockGameState::new();
        game.expect_board()
            .return_const(Box::new(board) as Box<dyn Board + Send>);
        game.expect_to_move().return_const(Mark::X);
        let mut seq = Sequence::new();
        game.expect_status()
            .times(1)
            .in_sequence(&mut seq)
            .return_const(GameStatus::InProgress);
        game.expect_play()
            .with(eq(cell(3)))
            .times(1)
            .in_sequence(&mut seq)
            .return_const(Ok(won.clone()));
        game.expect_status().in_sequence(&mut seq).return_const(won);
        game
    }

    #[test]
    fn a_finished_game_is_recorded_exactly_once_with_its_winner() {
        let mut store = MockScoreStore::new();
        store
            .expect_record()
            .withf(|game| {
                game.x.as_str() == "Ada"
                    && game.o.as_str() == "Bob"
                    && game.outcome == Outcome::Won(Mark::X)
            })
            .times(1)
            .returning(|_| Ok(Scoreboard::new()));
        let controller = GameController::new(Rc::new(quiet_renderer()), store);
        let mut players = seats(scripted_player("Ada", &[3]), scripted_player("Bob", &[]));

        let end = controller.play(&mut x_about_to_win(), &mut players);

        assert!(matches!(
            end,
            Ok(GameEnd::Finished(FinishedGame {
                outcome: Outcome::Won(Mark::X),
                ..
            }))
        ));
    }

    #[test]
    fn the_player_whose_turn_it_is_is_the_one_asked() {
        let mut x = MockPlayer::new();
        x.expect_name().return_const(name("Ada"));
        x.expect_is_human().return_const(true);
        x.expect_choose()
            .times(1)
            .return_const(Action::Place(cell(3)));
        let mut o = MockPlayer::new();
        o.expect_name().return_const(name("Bob"));
        o.expect_choose().never();
        let controller = GameController::new(Rc::new(quiet_renderer()), storing_ok());

        let end = controller.play(&mut x_about_to_win(), &mut seats(x, o));

        assert!(end.is_ok());
    }

    #[test]
    fn players_alternate_starting_with_the_first_mover() {
        // Arrange: a real game where O moves first; each call must come in this order.
        let mut seq = Sequence::new();
        let (mut x, mut o) = (MockPlayer::new(), MockPlayer::new());
        x.expect_name().return_const(name("Ada"));
        o.expect_name().return_const(name("Bob"));
        x.expect_is_human().return_const(true);
        o.expect_is_human().return_const(false);
        for (number, mover) in [
            (1, Mark::O),
            (4, Mark::X),
            (2, Mark::O),
            (5, Mark::X),
            (3, Mark::O),
        ] {
            let player = if mover == Mark::X { &mut x } else { &mut o };
            player
                .expect_choose()
                .withf(move |game| game.to_move() == mover)
                .times(1)
                .in_sequence(&mut seq)
                .return_const(Action::Place(cell(number)));
        }
        let controller = GameController::new(Rc::new(quiet_renderer()), storing_ok());
        let mut game = Game::<GridBoard>::start(Geometry::classic(), Mark::O);

        // Act
        let end = controller.play(&mut game, &mut seats(x, o));

        // Assert: O completed the top row on the fifth move.
        assert!(matches!(
            end,
            Ok(GameEnd::Finished(FinishedGame {
                outcome: Outcome::Won(Mark::O),
                ..
            }))
        ));
    }

    #[test]
    fn a_game_a_player_quits_is_never_recorded() {
        let mut store = MockScoreStore::new();
        store.expect_record().never();
        let mut renderer = MockRenderer::new();
        renderer.expect_show_board().return_const(());
        renderer
            .expect_show_notice()
            .withf(|notice| matches!(notice, Notice::Abandoned { by } if by.as_str() == "Ada"))
            .times(1)
            .return_const(());
        renderer.expect_show_result().never();
        allow_any_rendering(&mut renderer);
        let controller = GameController::new(Rc::new(renderer), store);
        let mut game = Game::<GridBoard>::start(Geometry::classic(), Mark::X);

        let end = controller.play(
            &mut game,
            &mut seats(scripted_player("Ada", &[]), scripted_player("Bob", &[])),
        );

        assert_eq!(end, Ok(GameEnd::Abandoned));
    }

    #[test]
    fn a_game_whose_input_ends_is_never_recorded() {
        let mut store = MockScoreStore::new();
        store.expect_record().never();
        let mut x = MockPlayer::new();
        x.expect_name().return_const(name("Ada"));
        x.expect_choose().times(1).return_const(Action::InputClosed);
        let controller = GameController::new(Rc::new(quiet_renderer()), store);
        let mut game = Game::<GridBoard>::start(Geometry::classic(), Mark::X);

        let end = controller.play(&mut game, &mut seats(x, scripted_player("Bob", &[])));

        assert_eq!(end, Ok(GameEnd::InputClosed));
    }

    #[test]
    fn a_scoreboard_that_cannot_be_saved_is_reported_and_the_game_still_ends() {
        let mut store = MockScoreStore::new();
        store
            .expect_record()
            .times(1)
            .returning(|_| Err(StoreError::NoLocation));
        let mut renderer = MockRenderer::new();
        renderer.expect_show_board().return_const(());
        renderer.expect_show_result().times(1).return_const(());
        renderer.expect_show_scoreboard().never();
        renderer
            .expect_show_notice()
            .withf(|notice| matches!(notice, Notice::NotSaved { reason } if reason.contains("TICTACTOE_SCOREBOARD")))
            .times(1)
            .return_const(());
        allow_any_rendering(&mut renderer);
        let controller = GameController::new(Rc::new(renderer), store);

        let end = controller.play(
            &mut x_about_to_win(),
            &mut seats(scripted_player("Ada", &[3]), scripted_player("Bob", &[])),
        );

        assert!(matches!(end, Ok(GameEnd::Finished(_))));
    }

    #[test]
    fn the_final_board_lights_up_the_winning_line() {
        let mut renderer = MockRenderer::new();
        let mut seq = Sequence::new();
        renderer
            .expect_show_board()
            .withf(|_, highlight| highlight.is_empty())
            .times(1)
            .in_sequence(&mut seq)
            .return_const(());
        renderer
            .expect_show_board()
            .withf(|board, highlight| {
                let top_row: Vec<usize> = highlight.iter().map(|p| p.number()).collect();
                top_row == [1, 2, 3] && board.mark_at(cell(3)) == Some(Mark::X)
            })
            .times(1)
            .in_sequence(&mut seq)
            .return_const(());
        allow_any_rendering(&mut renderer);
        let controller = GameController::new(Rc::new(renderer), storing_ok());
        let board = fill_from_layout(GridBoard::new(Geometry::classic()), "xx./oo./...").unwrap();
        let mut game = Game::from_board(board, Mark::X).unwrap();

        let end = controller.play(
            &mut game,
            &mut seats(scripted_player("Ada", &[3]), scripted_player("Bob", &[])),
        );

        assert!(end.is_ok());
    }

    #[test]
    fn a_human_plays_through_the_input_handler_and_a_typo_costs_nothing() {
        // Arrange: a real human player, whose keyboard is a mock, against a scripted O.
        let mut keys = MockInputHandler::new();
        let mut seq = Sequence::new();
        for line in ["1", "oops", "2", "3"] {
            keys.expect_read_line()
                .times(1)
                .in_sequence(&mut seq)
                .return_const(Input::Line(line.to_string()));
        }
        let renderer = Rc::new(quiet_renderer_with_prompts());
        let human = HumanPlayer::new(
            name("Ada"),
            Rc::new(keys),
            Rc::clone(&renderer),
            Box::new(MockAdvisor::new()),
        );
        let mut players: [Box<dyn Player>; 2] =
            [Box::new(human), Box::new(scripted_player("Bob", &[4, 5]))];
        let controller = GameController::new(renderer, storing_ok());
        let mut game = Game::<GridBoard>::start(Geometry::classic(), Mark::X);

        // Act
        let end = controller.play(&mut game, &mut players);

        // Assert
        assert!(matches!(
            end,
            Ok(GameEnd::Finished(FinishedGame {
                outcome: Outcome::Won(Mark::X),
                ..
            }))
        ));
        assert_eq!(layout_of(game.board()), "XXXOO....");
    }

    fn quiet_renderer_with_prompts() -> MockRenderer {
        let mut renderer = MockRenderer::new();
        renderer.expect_show_problem().times(1).return_const(());
        allow_any_rendering(&mut renderer);
        renderer
    }

    /// A player who makes each `Action` in order, then quits.
    fn acting(player: &str, human: bool, actions: Vec<Action>) -> MockPlayer {
        let mut mock = MockPlayer::new();
        mock.expect_name().return_const(name(player));
        mock.expect_is_human().return_const(human);
        let mut actions: Vec<Action> = actions.into_iter().rev().collect();
        mock.expect_choose()
            .returning(move |_| actions.pop().unwrap_or(Action::Quit));
        mock
    }

    #[test]
    fn undo_against_a_computer_takes_back_the_reply_too() {
        // Ada plays 1, the computer 5; Ada undoes, so the board is empty and it is her turn.
        let ada = acting(
            "Ada",
            true,
            vec![Action::Place(cell(1)), Action::Undo, Action::Place(cell(9))],
        );
        let computer = acting("Hal", false, vec![Action::Place(cell(5))]);
        let mut renderer = MockRenderer::new();
        renderer
            .expect_show_notice()
            .with(eq(Notice::Undone { moves: 2 }))
            .times(1)
            .return_const(());
        allow_any_rendering(&mut renderer);
        let controller = GameController::new(Rc::new(renderer), storing_ok());
        let mut game = Game::<GridBoard>::start(Geometry::classic(), Mark::X);

        controller
            .play(&mut game, &mut seats(ada, computer))
            .unwrap();

        // After the undo Ada played 9; the computer then quit (its script ran out).
        assert_eq!(layout_of(game.board()), "........X");
    }

    #[test]
    fn undo_between_two_people_takes_back_one_move() {
        let ada = acting("Ada", true, vec![Action::Place(cell(1)), Action::Quit]);
        let bob = acting("Bob", true, vec![Action::Undo]);
        let controller = GameController::new(Rc::new(quiet_renderer()), storing_ok());
        let mut game = Game::<GridBoard>::start(Geometry::classic(), Mark::X);

        controller.play(&mut game, &mut seats(ada, bob)).unwrap();

        assert_eq!(layout_of(game.board()), ".........");
        assert_eq!(game.to_move(), Mark::X, "Ada moves again");
    }

    #[test]
    fn undo_with_nothing_of_yours_played_says_so_and_changes_nothing() {
        // The computer moved first; Ada has nothing to take back.
        let computer = acting("Hal", false, vec![Action::Place(cell(5))]);
        let ada = acting("Ada", true, vec![Action::Undo, Action::Quit]);
        let mut renderer = MockRenderer::new();
        renderer
            .expect_show_notice()
            .with(eq(Notice::NothingToUndo))
            .times(1)
            .return_const(());
        allow_any_rendering(&mut renderer);
        let controller = GameController::new(Rc::new(renderer), storing_ok());
        let mut game = Game::<GridBoard>::start(Geometry::classic(), Mark::O);

        controller
            .play(&mut game, &mut seats(ada, computer))
            .unwrap();

        assert_eq!(layout_of(game.board()), "....O....");
    }

    #[test]
    fn an_illegal_move_from_a_player_is_an_error_not_an_endless_loop() {
        let mut game = MockGameState::new();
        game.expect_board()
            .return_const(Box::new(GridBoard::new(Geometry::classic())) as Box<dyn Board + Send>);
        game.expect_to_move().return_const(Mark::X);
        game.expect_status().return_const(GameStatus::InProgress);
        game.expect_play()
            .times(1)
            .returning(|p| Err(MoveError::Occupied(p)));
        let controller = GameController::new(Rc::new(quiet_renderer()), storing_ok());

        let end = controller.play(
            &mut game,
            &mut seats(scripted_player("Ada", &[5]), scripted_player("Bob", &[])),
        );

        assert_eq!(
            end,
            Err(PlayError::IllegalMove {
                player: name("Ada"),
                error: MoveError::Occupied(cell(5))
            })
        );
    }
}
