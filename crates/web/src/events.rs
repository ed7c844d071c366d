//! The live view of a game as server-sent events: one `game` event with the whole game
//! at once, then one after each change. Whole games rather than deltas, so a client
//! that misses an event (or reconnects) is right again with the next one.

use std::convert::Infallible;

use axum::response::sse::Event;
use futures_util::Stream;

use super::dto::GameJson;
use super::games::Watching;

/// The game's views until the game is forgotten or the server closes. The stream holds
/// its place under the server's cap on streams until it ends.
pub fn game_events(
    Watching {
        game,
        closing,
        place,
    }: Watching,
) -> impl Stream<Item = Result<Event, Infallible>> {
    futures_util::stream::unfold(
        (game, closing, true, place),
        |(mut game, mut closing, first, place)| async move {
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
            Some((Ok(event), (game, closing, false, place)))
        },
    )
}

fn to_json(view: &GameJson) -> String {
    // Not a fallback to an empty event: serde_json fails only on maps with non-string
    // keys or a `Serialize` impl that errs, and a `GameJson` has neither.
    serde_json::to_string(view)
        .expect("a GameJson (strings, numbers, options and lists of them) always serialises")
}
