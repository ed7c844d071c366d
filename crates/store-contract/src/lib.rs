//! Nothing to use: this crate exists for its tests. `tests/contract/` is the one suite
//! that every adapter of the core's `GameStore` port must pass, run against each of them
//! (the core's `MemoryStore`, the reference, `SqliteStore`, and `PostgresStore` where
//! PostgreSQL is installed: `build.rs` says whether, and `tictactoe-test-postgres` starts
//! a server for the tests) through one rstest_reuse template. A new adapter joins by
//! adding one case to the template; a behaviour every store must have is written once,
//! here.
//!
//! It is a crate of its own (as atuin's `tests-database` is) so that the suite depends
//! on every adapter without any adapter depending on another.
