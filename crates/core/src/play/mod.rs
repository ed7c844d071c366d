//! Playing: one game driven by requests ([`Match`]), many computer games at once
//! ([`simulate`]), and `analyze` ([`Analyzer`]). Runs on the traits in `ports` and
//! `players` only; it never names a front end, a file or a concrete player.

mod analysis;
mod game_match;
mod lookup;
mod ratings;
mod replay;
mod settings;
mod simulation;
mod training;

pub use analysis::{Analyzer, BoardError, Report, analyze_all};
#[cfg(any(test, feature = "mocks"))]
pub use game_match::MockRecorder;
pub use game_match::{
    ComputerError, End, Event, Help, Hinted, Journal, Match, NameRefusal, Recorder, Recording,
    ResumeError, Seat, Seating, Unrecorded,
};
pub use lookup::{FindError, GameRef, find_game, short_id};
pub use ratings::{BoardRatings, RatingRow};
pub use replay::{Judgement, MoveReview, Played, Replay, Review, complete, review};
pub use settings::{Settings, SettingsError};
pub use simulation::{Tally, simulate};
pub use training::{OpenPuzzles, PUZZLE_GAMES, ended_games, open_puzzle, open_puzzles};
