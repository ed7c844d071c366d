//! What the SQL stores (`tictactoe-sqlite-store`, `tictactoe-postgres-store`) share that
//! is not SQL, written once: the shape of their tables' rows, the words each column
//! holds, the checks of everything read back, and the port's values (a game, a history
//! page, a review, a player's opponents) put together from rows. Each store keeps only
//! what is its own: its SQL and migrations, its transactions, reading a row from its
//! driver (one column of a type at a time: [`Column`]), and its errors in the port's words.
//!
//! It depends on the core alone, never on a database driver, so both stores use it
//! without either depending on the other (as atuin's server keeps its models and logic
//! in `atuin-server-database`, and each back end only its SQL).
//!
//! * [`words`]: the stored vocabulary, each column's words once, read back checked.
//!   A word changed is a new persistent format: a migration, and a failing test
//!   (`crates/store-contract/tests/vocabulary.rs` pins every word).
//! * [`rows`]: a game's row ([`GameRow`]) and its steps' columns, times and counts,
//!   as stored and checked.
//! * [`columns`]: each row type read from the columns it is selected with, in their
//!   order; a store says only how its driver reads one column.
//! * [`assemble`]: a game read back whole, a history's summaries and pages, reviews,
//!   scoreboard rows and rivalries, from their rows.
//! * [`clocks`]: a game's clock as it began and as last kept, in nanoseconds, read
//!   back checked.
//! * [`ratings`]: the ratings' rows (a person's rating on a board, each game's change),
//!   as stored and checked.
//! * [`training`]: the rows of the answers to training puzzles, as stored and checked.
//! * [`accounts`]: the rows of accounts, their sessions and personal tokens, as stored
//!   and checked.
//! * [`seeks`]: the rows of seeks (people looking for an opponent), as stored and
//!   checked.
//! * [`Database`]: the database as a store's errors name it, and the errors about what
//!   is found in it (unreadable, newer) that every store words alike.
//!
//! Writing cannot fail: every value the core hands over has a column form. Reading
//! checks everything, because a database is data (another version of the program, or a
//! person with a SQL prompt, may have written it): what does not make a valid value is
//! an error saying what (a `String` detail, which the store names its database and the
//! game in), never a panic.

pub mod accounts;
pub mod assemble;
pub mod clocks;
pub mod columns;
mod database;
pub mod ratings;
pub mod rows;
pub mod seeks;
pub mod training;
pub mod words;

pub use columns::{Column, FromColumns};
pub use database::Database;
pub use rows::{GAME_COLUMN_COUNT, GAME_COLUMNS, GameRow, SideColumns};

/// For the tests: `read` is refused as unreadable, and its words name `what` (the
/// column, or the value, that made it so).
#[cfg(test)]
fn assert_unreadable_naming<T: std::fmt::Debug>(read: &Result<T, String>, what: &str) {
    assert!(matches!(read, Err(why) if why.contains(what)), "{read:?}");
}
