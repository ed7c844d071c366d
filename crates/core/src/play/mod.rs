//! Playing: one game driven by requests ([`Match`]), many computer games at once
//! ([`simulate`]), and `analyze` ([`Analyzer`]). Runs on the traits in `ports` and
//! `players` only; it never names a front end, a file or a concrete player.

mod analysis;
mod game_match;
mod lookup;
mod replay;
mod settings;
mod simulation;

pub use analysis::{Analyzer, BoardError, Report, analyze_all};
#[cfg(any(test, feature = "mocks"))]
pub use game_match::MockRecorder;
pub use game_match::{
    ComputerError, End, Event, Help, Hinted, Journal, Match, NameRefusal, Recorder, Recording,
    ResumeError, Seat, Seating, Unrecorded,
};
pub use lookup::{FindError, GameRef, find_game, short_id};
pub use replay::{Judgement, MoveReview, Played, Replay, Review, complete, review};
pub use settings::{Settings, SettingsError};
pub use simulation::{Tally, simulate};
