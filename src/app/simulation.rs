//! `tictactoe simulate`: many computer-vs-computer games, counted, with nothing shown
//! and nothing recorded.

use super::controller::PlayError;
use crate::domain::{BitBoard, Game, GameState, GameStatus, Geometry, Mark};
use crate::players::{Action, Player};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: u64,
    pub x_wins: u64,
    pub o_wins: u64,
    pub draws: u64,
}

/// Plays `games` games between `players` (X, O), reusing them so their searches stay
/// warm. `progress` is told how many games are done after each one.
pub fn simulate(
    players: &mut [Box<dyn Player>; 2],
    geometry: Geometry,
    first: Mark,
    games: u64,
    mut progress: impl FnMut(u64),
) -> Result<Tally, PlayError> {
    let mut tally = Tally::default();
    for done in 1..=games {
        let mut game = Game::<BitBoard>::start(geometry, first);
        let status = loop {
            let status = game.status();
            if status.is_over() {
                break status;
            }
            let player = &mut players[game.to_move().index()];
            let position = match player.choose(&game) {
                Action::Place(position) => position,
                // Computers never quit; a player that does has left the game unplayable.
                Action::Quit | Action::InputClosed | Action::Undo => {
                    return Err(PlayError::Left {
                        player: player.name(),
                    });
                }
            };
            game.play(position)
                .map_err(|error| PlayError::IllegalMove {
                    player: player.name(),
                    error,
                })?;
        };
        match status {
            GameStatus::Won(win) if win.mark == Mark::X => tally.x_wins += 1,
            GameStatus::Won(_) => tally.o_wins += 1,
            _ => tally.draws += 1,
        }
        tally.games = done;
        progress(done);
    }
    Ok(tally)
}
