//! The live view of a game as server-sent events: one `game` event with the whole game
//! at once, then one after each change. Whole games rather than deltas, so a client
//! that misses an event (or reconnects) is right again with the next one.

use std::convert::Infallible;

use axum::response::sse::Event;
use futures_util::Stream;

use super::port::Watching;
use super::stream_places::StreamPlace;
use super::view::GameView;

/// The game's views until the game is forgotten, the server closes, or a newcomer takes
/// the stream's `place` (see `stream_places`). The stream holds its place until it ends.
pub fn game_events(
    Watching { game, closing }: Watching,
    place: StreamPlace,
) -> impl Stream<Item = Result<Event, Infallible>> {
    futures_util::stream::unfold(
        (game, closing, true, place),
        |(mut game, mut closing, first, mut place)| async move {
            if !first {
                tokio::select! {
                    changed = game.changed() => changed.ok()?,
                    _ = closing.wait_for(|closed| *closed) => return None,
                    () = place.taken() => return None,
                }
            }
            if *closing.borrow() {
                return None;
            }
            let view = game.latest();
            let event = Event::default().event("game").data(to_json(&view));
            Some((Ok(event), (game, closing, false, place)))
        },
    )
}

fn to_json(view: &GameView) -> String {
    // Not a fallback to an empty event: serde_json fails only on maps with non-string
    // keys or a `Serialize` impl that errs, and a `GameView` has neither.
    serde_json::to_string(view)
        .expect("a GameView (strings, numbers, options and lists of them) always serialises")
}
