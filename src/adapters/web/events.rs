//! The live view of a game as server-sent events: one `game` event with the whole game
//! at once, then one after each change. Whole games rather than deltas, so a client
//! that misses an event (or reconnects) is right again with the next one.

use std::convert::Infallible;
use std::sync::Arc;

use axum::response::sse::Event;
use futures_util::Stream;
use tokio::sync::watch;

use super::dto::GameJson;

/// The game's views until the game is forgotten or `closing` turns true.
pub fn game_events(
    game: watch::Receiver<Arc<GameJson>>,
    closing: watch::Receiver<bool>,
) -> impl Stream<Item = Result<Event, Infallible>> {
    futures_util::stream::unfold(
        (game, closing, true),
        |(mut game, mut closing, first)| async move {
            if !first {
                tokio::select! {
                    changed = game.changed() => changed.ok()?,
                    _ = closing.wait_for(|closed| *closed) => return None,
                }
            }
            if *closing.borrow() {
                return None;
            }
            let view = game.borrow_and_update().clone();
            let event = Event::default().event("game").data(to_json(&view));
            Some((Ok(event), (game, closing, false)))
        },
    )
}

fn to_json(view: &GameJson) -> String {
    // Strings, numbers and lists of them always serialise.
    serde_json::to_string(view).unwrap_or_default()
}
