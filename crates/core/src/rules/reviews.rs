//! The rule every store keeps a review by: only of an ended game, going through its
//! moves in order ([`check_review`]), and only in the place of a worse one ([`keeps_review`]).

use crate::play::{Replay, Review};
use crate::ports::{Conflict, GameId, StoreError, StoredGame};

/// Whether `review` may be kept as the review of game `game`, of which the store holds
/// `kept` (`None`: nothing): the game was begun and has ended, and the review goes
/// through its moves, in order. (The check every store makes.)
pub fn check_review(
    game: &GameId,
    kept: Option<&StoredGame>,
    review: &Review,
) -> Result<(), StoreError> {
    let kept = kept.ok_or_else(|| StoreError::NoSuchGame(game.clone()))?;
    let id = &kept.game.id;
    if kept.ending.is_none() {
        return Err(Conflict::NotEnded.about(id));
    }
    let replay = Replay::of(kept).map_err(|e| Conflict::NotAGame(e).about(id))?;
    let follows = replay.moves().len() == review.moves.len()
        && replay
            .moves()
            .iter()
            .zip(&review.moves)
            .all(|(played, reviewed)| {
                (played.ply, played.mark, played.cell)
                    == (reviewed.ply, reviewed.mark, reviewed.cell)
            });
    if follows {
        Ok(())
    } else {
        Err(Conflict::NotItsMoves.about(id))
    }
}

/// Whether a store that holds `kept` as a game's review (`None`: none) keeps `review`
/// in its place ([`ReviewStore::keep_review`](crate::ports::ReviewStore::keep_review); the rule every store follows, asked
/// once [`check_review`] has passed).
pub fn keeps_review(kept: Option<&Review>, review: &Review) -> bool {
    kept.is_none_or(|kept| review.improves_on(kept))
}
