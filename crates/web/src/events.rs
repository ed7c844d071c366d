//! The live view of a game as server-sent events: one `game` event with the whole game
//! at once, then one after each change. Whole games rather than deltas, so a client
//! that misses an event (or reconnects) is right again with the next one.

use std::convert::Infallible;

use axum::response::sse::Event;
use futures_util::Stream;
use tokio::sync::OwnedSemaphorePermit;

use super::port::Watching;
use super::shares::Share;
use super::view::GameView;

/// A live stream's place: under the server's cap on streams and in its client's share,
/// held while the stream lasts, and counted among the streams open.
pub struct StreamPlace {
    _permit: OwnedSemaphorePermit,
    _share: Share,
}

impl StreamPlace {
    pub fn new(permit: OwnedSemaphorePermit, share: Share) -> Self {
        metrics::gauge!("tictactoe_event_streams_open").increment(1.0);
        StreamPlace {
            _permit: permit,
            _share: share,
        }
    }
}

impl Drop for StreamPlace {
    fn drop(&mut self) {
        metrics::gauge!("tictactoe_event_streams_open").decrement(1.0);
    }
}

/// The game's views until the game is forgotten or the server closes. The stream holds
/// its `place` until it ends.
pub fn game_events(
    Watching { game, closing }: Watching,
    place: StreamPlace,
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

fn to_json(view: &GameView) -> String {
    // Not a fallback to an empty event: serde_json fails only on maps with non-string
    // keys or a `Serialize` impl that errs, and a `GameView` has neither.
    serde_json::to_string(view)
        .expect("a GameView (strings, numbers, options and lists of them) always serialises")
}
