//! The web front end: `tictactoe serve`. A page and a JSON API over the same [`Match`]
//! the console drives, recording into the same scoreboard.
//!
//! How the folder reads, from the outside in:
//! * `server`: the routes and headers, and serving until Ctrl-C; `connections` bounds
//!   how many are open and for how long they may stay quiet;
//! * `api`: HTTP in (bodies, tokens), calls to `service` out (the inbound port,
//!   `GameService`, which `games` implements); `error` maps every failure
//!   to its status code, in one place; `dto` is what goes over the wire;
//! * `games`: each request without HTTP: find the game, check the seat, run the request
//!   on the match; `setup` checks a new game as the command line would and starts it
//!   with the core's `Settings::start_match` (`setup` reads `dto`'s request; `dto`
//!   knows only the core, so the arrow goes one way);
//! * `group_commit`: the scoreboard written once per batch of finished games, without
//!   a request ever waiting for the disk on the async runtime;
//! * `table` (one game held), `registry` (all of them, bounded and expiring),
//!   `thinking` (where each game's work runs: 3x3 at once, bigger boards on a bounded
//!   number of threads), `token` (seat secrets and game ids), `events` (server-sent
//!   events);
//! * `assets`: the page itself, embedded.
//!
//! No rule of the game is decided here: a move is refused because the match refuses it.
//!
//! [`Match`]: tictactoe_core::play::Match

mod api;
mod assets;
mod connections;
mod dto;
mod error;
mod events;
mod games;
mod group_commit;
mod locks;
mod registry;
mod server;
mod service;
mod setup;
mod table;
mod thinking;
mod token;

pub use games::{Games, Limits};
pub use group_commit::CommitCounts;
pub use server::{router, serve};
