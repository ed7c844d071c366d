//! The game as every client sees it: the answer to most requests and each event of a
//! game's stream, published by a table once what it shows is kept. The words are those
//! of `analyze --json` (board layout, `status`, `to_move`) and cells are 1-based, as
//! everywhere a person sees them.

use std::time::{Duration, SystemTime};

use serde::Serialize;
use utoipa::ToSchema;

use tictactoe_core::domain::{
    GameClock, GameState, GameStatus, Geometry, Mark, Outcome, TimeControl, layout_of,
};
use tictactoe_core::play::{End, Match, Recorder, Seat, Settings};
use tictactoe_core::players::PlayerSpec;
use tictactoe_core::ports::{Ending, GameId};
use tictactoe_core::rules::rates_people;

use super::table::Play;
use tictactoe_json::{ending_word, outcome_word};

/// A game as every client sees it: the answer to most requests, and each SSE event.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, ToSchema)]
pub struct GameView {
    /// The game's id: 32 hex digits.
    pub id: String,
    /// The board's size: 3 to 7.
    #[schema(minimum = 3, maximum = 7)]
    pub size: usize,
    /// How many in a row win: 3 to the size.
    #[schema(minimum = 3, maximum = 7)]
    pub win: usize,
    /// Who moved first: `X` or `O`.
    #[schema(pattern = "^[XO]$")]
    pub first: &'static str,
    /// The cells row by row from the top left: `X`, `O`, or `.` for empty.
    #[schema(pattern = "^[XO.]{9,49}$")]
    pub board: String,
    /// `in_progress`, `x_won`, `o_won`, `draw`, `x_resigned` or `o_resigned` (a loss
    /// for that side, counted), `x_left` or `o_left` (that side left a console game:
    /// kept, not counted), `x_timeout` or `o_timeout` (that side's time ran out: its
    /// loss), `x_timeout_draw` or `o_timeout_draw` (out of time when the other side
    /// could no longer complete a line: a draw), `x_aborted` or `o_aborted` (that side
    /// did not make its first move in time: not counted).
    #[schema(
        pattern = "^(in_progress|x_won|o_won|draw|x_resigned|o_resigned|x_left|o_left|[xo]_timeout|[xo]_timeout_draw|[xo]_aborted)$"
    )]
    pub status: &'static str,
    /// `X` or `O` while the game is played; `null` once it is over.
    #[schema(pattern = "^[XO]$")]
    pub to_move: Option<&'static str>,
    pub players: Players,
    /// The cells played, in order, numbered from 1.
    #[schema(inline, value_type = Vec<u64>)]
    pub moves: Vec<usize>,
    /// The winning cells, once a side has won.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<Vec<usize>>,
    /// Which seat asked to take back a move and waits for the other's consent.
    #[schema(pattern = "^[XO]$")]
    pub undo_asked_by: Option<&'static str>,
    /// The id of the rematch, once someone asked for one.
    pub rematch: Option<String>,
    /// The people's seats whose player has the game open with their seat (`X`, `O`):
    /// for the one who sent an invite, whether the friend has come.
    pub joined: Vec<&'static str>,
    /// Whether the game rates its people at its end. A casual game rates nobody: one
    /// with a guest or a person who gave no name, or one where a person took a hint,
    /// or took back a move against the computer (which makes a rated game casual).
    pub rated: bool,
    /// The game's clock, for a game played on one; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<ClockJson>)]
    pub clock: Option<ClockView>,
}

/// A game's clock as kept: shown as it stands at the moment it is sent
/// ([`ClockJson`]), so a view published long ago still tells the time left now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockView {
    clock: GameClock,
    /// Whether the game is still played: an ended game's clocks stand still.
    playing: bool,
    /// Whether it ended on time: the side whose time ran out then has none left.
    flagged: bool,
}

impl Serialize for ClockView {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        ClockJson::of(self, SystemTime::now()).serialize(serializer)
    }
}

/// A game's clock as it stands when sent: each side's time left, whose runs, and,
/// before the clocks start (both sides' first moves), how long the side to move has
/// left for its first move.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClockJson {
    pub control: ControlJson,
    /// X's time left, in milliseconds.
    pub x_ms: u64,
    /// O's time left, in milliseconds.
    pub o_ms: u64,
    /// Whose time runs now: `X` or `O`; `null` before both sides have moved, or once the
    /// game is over.
    #[schema(pattern = "^[XO]$")]
    pub running: Option<&'static str>,
    /// Before the clocks run: the milliseconds the side to move has left to make its
    /// first move, or the game is aborted; `null` otherwise.
    pub first_move_ms: Option<u64>,
}

/// A time control: `{"initial": SECONDS, "increment": SECONDS}` or `{"per_move":
/// SECONDS}`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum ControlJson {
    Increment { initial: u64, increment: u64 },
    PerMove { per_move: u64 },
}

impl ControlJson {
    pub fn of(control: TimeControl) -> Self {
        match control {
            TimeControl::Increment { initial, increment } => ControlJson::Increment {
                initial: initial.as_secs(),
                increment: increment.as_secs(),
            },
            TimeControl::PerMove(limit) => ControlJson::PerMove {
                per_move: limit.as_secs(),
            },
        }
    }
}

impl ClockJson {
    /// The clock of `view` as it stands at `now`.
    pub fn of(view: &ClockView, now: SystemTime) -> Self {
        let clock = &view.clock;
        let running = view.playing && clock.running();
        let left = if running {
            clock.left_at(now)
        } else if view.flagged {
            clock.left_at(clock.deadline())
        } else {
            clock.left_at(clock.parts().since)
        };
        let first_move = (view.playing && !clock.running())
            .then(|| clock.deadline().duration_since(now).unwrap_or_default());
        ClockJson {
            control: ControlJson::of(clock.control()),
            x_ms: millis(left[0]),
            o_ms: millis(left[1]),
            running: running.then(|| mark_word(clock.turn())),
            first_move_ms: first_move.map(millis),
        }
    }
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, ToSchema)]
pub struct Players {
    pub x: PlayerView,
    pub o: PlayerView,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, ToSchema)]
pub struct PlayerView {
    pub name: String,
    /// `"human"` or `"computer"`.
    pub kind: &'static str,
    /// The computer's level (`"impossible"`, ...); absent for people.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<&'static str>,
    /// Whether this side has made a move (one taken back since counts): a person may
    /// choose their name until then (`POST /api/games/{id}/name`).
    pub moved: bool,
}

impl GameView {
    /// The game as `play` holds it, started with `settings`.
    pub fn of(id: &GameId, play: &Play, settings: &Settings, joined: Vec<&'static str>) -> Self {
        let game = &play.game;
        let rematch = play.rematch.as_ref();
        let people = Mark::ALL
            .into_iter()
            .filter_map(|mark| match game.seat(mark) {
                Seat::Human(name) => Some((name.clone(), &play.seats[mark.index()])),
                Seat::Computer(_) => None,
            });
        let rated = rates_people(people, game.is_casual());
        let state = game.game();
        let geometry: Geometry = state.board().geometry();
        let status = state.status();
        let line = match &status {
            GameStatus::Won(win) => Some(win.line.cells().iter().map(|p| p.number()).collect()),
            _ => None,
        };
        GameView {
            id: id.to_string(),
            size: geometry.size(),
            win: geometry.win_length(),
            first: mark_word(settings.first()),
            board: layout_of(state.board()),
            status: match game.end() {
                Some(End::Resigned { by }) => ending_word(Ending::Resigned(*by)),
                Some(End::Abandoned { by }) => ending_word(Ending::Abandoned(*by)),
                Some(End::TimedOut { side, drawn }) => ending_word(Ending::TimedOut {
                    side: *side,
                    drawn: *drawn,
                }),
                Some(End::Aborted { by }) => ending_word(Ending::Aborted(*by)),
                Some(End::Finished(_)) | None => status_word(&status),
            },
            to_move: game.end().is_none().then(|| mark_word(state.to_move())),
            players: Players {
                x: player(game, settings.player(Mark::X), Mark::X),
                o: player(game, settings.player(Mark::O), Mark::O),
            },
            moves: state.moves().iter().map(|p| p.number()).collect(),
            line,
            undo_asked_by: game.undo_asked_by().map(mark_word),
            rematch: rematch.map(GameId::to_string),
            joined,
            rated,
            clock: play.clock.map(|clock| ClockView {
                clock,
                playing: game.end().is_none(),
                flagged: matches!(game.end(), Some(End::TimedOut { .. })),
            }),
        }
    }

    pub fn is_over(&self) -> bool {
        self.to_move.is_none()
    }
}

fn player<R: Recorder>(game: &Match<R>, spec: &PlayerSpec, mark: Mark) -> PlayerView {
    let seat = game.seat(mark);
    let level = match spec {
        PlayerSpec::Computer(level) => Some(level.id()),
        PlayerSpec::Human(_) => None,
    };
    PlayerView {
        name: seat.name().to_string(),
        kind: match seat {
            Seat::Human(_) => "human",
            Seat::Computer(_) => "computer",
        },
        level,
        moved: game.has_moved(mark),
    }
}

pub fn mark_word(mark: Mark) -> &'static str {
    match mark {
        Mark::X => "X",
        Mark::O => "O",
    }
}

fn status_word(status: &GameStatus) -> &'static str {
    match status {
        GameStatus::InProgress => "in_progress",
        GameStatus::Won(win) => outcome_word(Outcome::Won(win.mark)),
        GameStatus::Draw => outcome_word(Outcome::Draw),
    }
}
