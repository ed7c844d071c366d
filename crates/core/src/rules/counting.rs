//! How a kept game counts: the moves standing after its steps, the names its players
//! are filed under, and what its ending adds to the scoreboard ([`counts_of`]).

use crate::domain::{Mark, PlayerName, Record};
use crate::play::Settings;
use crate::ports::{Change, Ending, Step};

/// How many moves stand after `steps`: each move adds one, each undo takes back its
/// moves (never below none).
pub fn moves_standing(steps: &[Step]) -> u32 {
    steps.iter().fold(0, |moves, step| match step.change {
        Change::Move(_) => moves.saturating_add(1),
        Change::Undo { moves: back } => moves.saturating_sub(u32::from(back)),
    })
}

/// The names a store files a game's players under: the scoreboard's rows.
pub fn names_of(settings: &Settings) -> [PlayerName; 2] {
    Mark::ALL.map(|mark| settings.player(mark).name(mark))
}

/// One player's share of an ended game, as a store files it: what it adds to the
/// player's row of the scoreboard, and to the player's results against the rival.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counted {
    pub player: PlayerName,
    pub rival: PlayerName,
    pub record: Record,
}

/// What a game of `settings` ending so counts, for each side that counts (X's share
/// first; none for an abandoned game), by [`Ending::counted`]: the one rule every
/// store counts with.
pub fn counts_of(settings: &Settings, ending: Ending) -> Vec<Counted> {
    let names = names_of(settings);
    Mark::ALL
        .into_iter()
        .filter_map(|mark| {
            Some(Counted {
                record: ending.counted(mark)?,
                player: names[mark.index()].clone(),
                rival: names[mark.opponent().index()].clone(),
            })
        })
        .collect()
}
