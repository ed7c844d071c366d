//! The web front end: `tictactoe serve`. A page and a JSON API over the same [`Match`]
//! the console drives, keeping every game in the same [`GameStore`], as it is played.
//!
//! The store is the truth; memory is a cache of it, never ahead. A new game is kept
//! before it is answered, each step before its answer and before spectators see it, and
//! a game not in memory (forgotten to make room, or after a restart) is read back from
//! the store when next asked for. Seats are held by tokens the store never sees: it
//! keeps their SHA-256 digests ([`SeatLock`]s).
//!
//! For the composition root: [`Games::new`] over an `Arc<dyn Archive>` (the store of
//! games that also lists the ended ones and keeps their reviews), a computer
//! factory and the [`Limits`], then [`serve`] (or [`router`]).
//!
//! How the folder reads, from the outside in:
//! * `server`: the routes and headers, and serving until Ctrl-C: each connection
//!   within deadlines for its requests' heads and a bounded stop; `connections` bounds
//!   how many are open and for how long they may stay quiet, `shares` how many of them
//!   (and of the event streams) one client may hold; `refusals` dresses the answers
//!   hyper makes itself like the server's own;
//! * `api`: HTTP in (bodies, tokens), calls to `service` out (the inbound port,
//!   `GameService`, which `games` implements); `error` maps every failure
//!   to its status code, in one place; `dto` is what goes over the wire;
//! * `games`: each request without HTTP: find the game (or read it back), check the
//!   seat, run the request on the match, wait for the store; `setup` checks a new game as the command line would and starts it
//!   with the core's `Settings::start_match` (or resumes a kept one with
//!   `Settings::resume_match`) (`setup` reads `dto`'s request; `dto`
//!   knows only the core, so the arrow goes one way);
//! * `group_commit`: many requests' writes kept with one `GameStore::write_new`, on a thread
//!   of its own, so no request waits for the disk on the async runtime; a failed batch
//!   is written again request by request, so only the request at fault fails;
//! * `table` (one game held: the match, its seats' locks, the view shown once kept;
//!   its recorder collects the writes), `registry` (the cache: bounded and expiring),
//!   `thinking` (where each game's work runs: 3x3 at once, bigger boards on a bounded
//!   number of threads; reading the store on a few), `token` (seat secrets, their
//!   locks, and game ids), `events` (server-sent events), `reviews` (the reviews of
//!   ended games under way: one computation per game, on a few threads, polled);
//! * `assets`: the page itself, embedded.
//!
//! No rule of the game is decided here: a move is refused because the match refuses it.
//!
//! [`Match`]: tictactoe_core::play::Match
//! [`GameStore`]: tictactoe_core::ports::GameStore
//! [`SeatLock`]: tictactoe_core::ports::SeatLock

mod api;
mod assets;
mod connections;
mod dto;
mod error;
mod events;
mod games;
mod group_commit;
mod locks;
mod refusals;
mod registry;
mod reviews;
mod server;
mod service;
mod setup;
mod shares;
mod table;
mod thinking;
mod token;

pub use games::{Games, Limits};
pub use group_commit::CommitCounts;
pub use server::{router, serve};
