//! The web front end: `tictactoe serve`. A page and a JSON API over the same [`Match`]
//! the console drives, keeping every game in the same [`GameStore`], as it is played.
//!
//! The store is the truth; memory is a cache of it, never ahead. A new game is kept
//! before it is answered, each step before its answer and before spectators see it, and
//! a game not in memory (forgotten to make room, or after a restart) is read back from
//! the store when next asked for. Seats are held by tokens the store never sees: it
//! keeps their SHA-256 digests ([`SecretLock`]s).
//!
//! For the composition root: [`Games::new`] (or [`Games::shared`]) over an
//! `Arc<dyn Archive>` (the store of games that also lists the ended ones and keeps their
//! reviews), a computer factory and the [`GameLimits`], then [`serve`] (or [`router`])
//! within the transport's [`Limits`]; [`Metrics::install`] and [`serve_metrics`] for
//! Prometheus on a listener of its own.
//!
//! How the folder reads, from the outside in:
//! * the HTTP edge: `server` (the routes and headers, and serving until told to stop:
//!   each connection within deadlines for its requests' heads, and a bounded stop;
//!   `connections` bounds how many are open and for how long they may stay quiet,
//!   `shares` how many of them one client may hold; `stream_places` the event streams,
//!   shared fairly among clients;
//!   `hyper_refusals` dresses the answers hyper makes itself like the server's own;
//!   `edge` refuses what comes from another site's page, or was sent to another
//!   address than the public one);
//!   `api` (HTTP in, calls to the port out; one handler per route, each registered once
//!   for the router and the API's document, `openapi`); `error` (every refusal's words
//!   and status, in one place); `dto` (request bodies, parsed into the domain's
//!   values, and the answers that carry more than a game); `events` (server-sent
//!   events); `observe` (request ids, the request's log line, metrics); `assets` (the
//!   page itself, embedded);
//! * the port: `port` (`GameService`, `LobbyService`, their inputs, answers and
//!   `GameError`), and `view` (the game as every client sees it, its clock too);
//! * the games behind it: `games` (the use cases, by job: the cache of the store,
//!   requests, queries, following other servers, shows, reviews, clocks ended on time,
//!   the lobby and quick pairing), on `table` (one game
//!   held), `registry` (the cache: bounded and expiring), `thinking` (where a game's
//!   work runs: 3x3 at once, bigger boards on a bounded number of threads, advice on
//!   a lane of its own), `budget` (each client's share of the computer's thinking),
//!   `store_lane` (the one way to the store: on blocking threads, a bounded number at
//!   once, within a deadline), `group_commit` (many requests' writes kept at once, on a
//!   thread of its own), `health` (the store's health and the server's readiness),
//!   `setup` (a game as asked for, started through the core's `Settings`) and `token`
//!   (seat secrets, their locks, and game ids).
//!
//! No rule of the game is decided here: a move is refused because the match refuses it.
//!
//! [`Match`]: tictactoe_core::play::Match
//! [`GameStore`]: tictactoe_core::ports::GameStore
//! [`SecretLock`]: tictactoe_core::ports::SecretLock

mod accounts;
mod api;
mod assets;
mod budget;
mod caller;
mod connections;
mod cut;
mod dto;
mod edge;
mod error;
mod events;
mod games;
mod group_commit;
mod health;
mod hyper_refusals;
#[cfg(test)]
mod logged;
mod observe;
mod openapi;
mod port;
mod process;
mod registry;
mod server;
mod setup;
mod shares;
mod store_lane;
mod stream_places;
mod table;
mod thinking;
mod token;
mod view;

pub use accounts::{Accounts, Tries};
pub use budget::Budget;
pub use edge::PublicUrl;
pub use games::{GameLimits, Games};
pub use group_commit::CommitCounts;
pub use observe::{Metrics, serve_metrics};
pub use server::{Limits, openapi, router, serve};
