//! The game as every client sees it: the answer to most requests and each event of a
//! game's stream, published by a table once what it shows is kept. The words are those
//! of `analyze --json` (board layout, `status`, `to_move`) and cells are 1-based, as
//! everywhere a person sees them.

use serde::Serialize;
use utoipa::ToSchema;

use tictactoe_core::domain::{GameState, GameStatus, Geometry, Mark, Outcome, layout_of};
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
    /// kept, not counted).
    #[schema(pattern = "^(in_progress|x_won|o_won|draw|x_resigned|o_resigned|x_left|o_left)$")]
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
