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
        self.renderer.show_board(game.board(), None);

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
                        GameStatus::Won(win) => Some(&win.line),
                        _ => None,
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
