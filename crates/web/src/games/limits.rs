//! The bounds the server's games keep to, whatever their clients do. (The transport's
//! own bounds, on connections, heads, bodies and streams, are the server's: see
//! `server::Limits`.)

use std::time::Duration;

use tictactoe_core::domain::FIRST_MOVE_WITHIN;

use super::super::budget::Budget;

#[derive(Debug, Clone)]
pub struct GameLimits {
    /// Games held in memory at once: a cache of the store. Past it, the quietest are
    /// forgotten (finished ones first), to be read back from the store when asked for.
    pub max_games: usize,
    /// A game nobody has touched for this long is forgotten from memory, finished or
    /// not (it stays in the store).
    pub idle: Duration,
    /// A finished game is forgotten from memory once nobody has touched it for this long.
    pub finished: Duration,
    /// When memory is full, finished games quiet for this long make room first.
    pub finished_grace: Duration,
    /// Threads for reading the store (games read back, the scoreboard, the history).
    pub store_threads: usize,
    /// How long a request waits for the store (a read, or its writes kept) before it
    /// is answered that the store did not answer in time.
    pub store_deadline: Duration,
    /// Threads for bigger boards' work, where the computer thinks against the clock.
    pub heavy_threads: usize,
    /// Threads for the advice asked on bigger boards (hints, training answers): a lane
    /// of their own, so the computer's replies in games never wait behind them.
    pub advice_threads: usize,
    /// Each client's share of the computer's thinking (hints, reviews, training
    /// answers): see `budget`.
    pub budget: Budget,
    /// Reviews of ended games computed at once, each on a blocking thread of its own
    /// (every position may take the computer's whole thinking time).
    pub review_threads: usize,
    /// Reviews under way at once (computing, or waiting for a thread); past it, a
    /// review asked for is refused for a while.
    pub max_reviews: usize,
    /// The pause before each move of a computer-vs-computer game, so people can follow.
    pub pace: Duration,
    /// In a game on a clock, how long each side has for its first move before the game
    /// is aborted (the clocks run from the second move on).
    pub first_move_within: Duration,
    /// How often the store is asked for games on a clock whose time ran out and that
    /// no server ended (their server stopped, or forgot them): a game this server holds
    /// is ended at its deadline without asking.
    pub overdue_every: Duration,
    /// How long a seek's owner may show no sign of life (no page or stream asking
    /// about it) before the seek is no longer listed, nor paired.
    pub seek_lasts: Duration,
}

impl Default for GameLimits {
    fn default() -> Self {
        GameLimits {
            max_games: 20_000,
            idle: Duration::from_secs(30 * 60),
            finished: Duration::from_secs(10 * 60),
            finished_grace: Duration::from_secs(2),
            store_threads: 4,
            store_deadline: Duration::from_millis(1000),
            heavy_threads: 2,
            advice_threads: 1,
            budget: Budget::default(),
            review_threads: 1,
            max_reviews: 64,
            pace: Duration::from_millis(600),
            first_move_within: FIRST_MOVE_WITHIN,
            overdue_every: Duration::from_millis(500),
            seek_lasts: Duration::from_secs(20),
        }
    }
}
