//! What goes over the wire: request bodies in, games and hints out. The words are those
//! of `analyze --json` (board layout, `status`, `to_move`, `value`) and cells are
//! 1-based, as everywhere a person sees them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use tictactoe_core::domain::{Analysis, GameState, GameStatus, Geometry, Mark, Outcome, layout_of};
use tictactoe_core::play::{End, Match, Recorder, Seat, Seating, Settings};
use tictactoe_core::players::PlayerSpec;
use tictactoe_core::ports::GameId;
use tictactoe_json::{known_word, outcome_word};

/// `POST /api/games`. Players are written as on the command line.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub x: String,
    pub o: String,
    pub size: Option<usize>,
    pub win: Option<usize>,
    pub first: Option<MarkJson>,
    /// For two people: one device (`together`) or two (`apart`, the default).
    pub seating: Option<SeatingJson>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MarkJson {
    #[serde(alias = "X")]
    X,
    #[serde(alias = "O")]
    O,
}

impl From<MarkJson> for Mark {
    fn from(mark: MarkJson) -> Mark {
        match mark {
            MarkJson::X => Mark::X,
            MarkJson::O => Mark::O,
        }
    }
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatingJson {
    Together,
    Apart,
}

impl From<SeatingJson> for Seating {
    fn from(seating: SeatingJson) -> Seating {
        match seating {
            SeatingJson::Together => Seating::Together,
            SeatingJson::Apart => Seating::Apart,
        }
    }
}

/// `POST /api/games/{id}/moves`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    pub cell: u64,
}

/// A game as every client sees it: the answer to most requests, and each SSE event.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct GameJson {
    pub id: String,
    pub size: usize,
    pub win: usize,
    pub first: &'static str,
    pub board: String,
    pub status: &'static str,
    /// `"X"` or `"O"` while the game is played; `null` once it is over.
    pub to_move: Option<&'static str>,
    pub players: Players,
    pub moves: Vec<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<Vec<usize>>,
    /// Which seat asked to take back a move and waits for the other's consent.
    pub undo_asked_by: Option<&'static str>,
    /// The id of the rematch, once someone asked for one.
    pub rematch: Option<String>,
    /// The people's seats whose player has the game open with their seat (`"X"`,
    /// `"O"`): for the one who sent an invite, whether the friend has come.
    pub joined: Vec<&'static str>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Players {
    pub x: PlayerJson,
    pub o: PlayerJson,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PlayerJson {
    pub name: String,
    /// `"human"` or `"computer"`.
    pub kind: &'static str,
    /// The computer's level (`"impossible"`, ...); absent for people.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<&'static str>,
}

impl GameJson {
    /// The match as it stands, started with `settings`.
    pub fn of<R: Recorder>(
        id: &GameId,
        game: &Match<R>,
        settings: &Settings,
        rematch: Option<&GameId>,
        joined: Vec<&'static str>,
    ) -> Self {
        let state = game.game();
        let geometry: Geometry = state.board().geometry();
        let status = state.status();
        let line = match &status {
            GameStatus::Won(win) => Some(win.line.cells().iter().map(|p| p.number()).collect()),
            _ => None,
        };
        GameJson {
            id: id.to_string(),
            size: geometry.size(),
            win: geometry.win_length(),
            first: mark_word(settings.first()),
            board: layout_of(state.board()),
            status: match game.end() {
                Some(End::Resigned { by }) => resigned_word(*by),
                Some(End::Abandoned { by }) => left_word(*by),
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
        }
    }

    pub fn is_over(&self) -> bool {
        self.to_move.is_none()
    }
}

fn player<R: Recorder>(game: &Match<R>, spec: &PlayerSpec, mark: Mark) -> PlayerJson {
    let seat = game.seat(mark);
    let level = match spec {
        PlayerSpec::Computer(level) => Some(level.id()),
        PlayerSpec::Human(_) => None,
    };
    PlayerJson {
        name: seat.name().to_string(),
        kind: match seat {
            Seat::Human(_) => "human",
            Seat::Computer(_) => "computer",
        },
        level,
    }
}

pub fn mark_word(mark: Mark) -> &'static str {
    match mark {
        Mark::X => "X",
        Mark::O => "O",
    }
}

/// The seat's key in `seats` and in the page's URL fragment.
pub fn seat_key(mark: Mark) -> &'static str {
    match mark {
        Mark::X => "x",
        Mark::O => "o",
    }
}

/// A game one side gave up: their loss, counted.
fn resigned_word(by: Mark) -> &'static str {
    match by {
        Mark::X => "x_resigned",
        Mark::O => "o_resigned",
    }
}

/// A game one side left before the end (`q` at the console): kept, not counted.
fn left_word(by: Mark) -> &'static str {
    match by {
        Mark::X => "x_left",
        Mark::O => "o_left",
    }
}

fn status_word(status: &GameStatus) -> &'static str {
    match status {
        GameStatus::InProgress => "in_progress",
        GameStatus::Won(win) => outcome_word(Outcome::Won(win.mark)),
        GameStatus::Draw => outcome_word(Outcome::Draw),
    }
}

/// The answer to `POST /api/games` and to a rematch: the game and the caller's seats.
#[derive(Debug, Serialize)]
pub struct CreatedJson {
    #[serde(flatten)]
    pub game: GameJson,
    pub seats: BTreeMap<&'static str, SeatJson>,
}

#[derive(Debug, Serialize)]
pub struct SeatJson {
    pub token: String,
    /// The page, opened in this seat: `/games/ID#x=TOKEN`. The token sits in the
    /// fragment, which browsers never send to a server, so it stays out of logs.
    pub url: String,
}

/// `POST /api/games/{id}/hint`: what perfect play makes of the position, in the words
/// of `analyze --json`.
#[derive(Debug, Serialize)]
pub struct HintJson {
    pub value: &'static str,
    /// Only when the whole analysis is exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plies: Option<usize>,
    pub best_moves: Vec<usize>,
    pub exact: bool,
    /// Every move listed is proven (see `Analysis::moves_proven`).
    pub moves_proven: bool,
}

impl From<&Analysis> for HintJson {
    fn from(analysis: &Analysis) -> Self {
        HintJson {
            value: known_word(analysis.known()),
            plies: analysis.exact.then_some(analysis.plies),
            best_moves: analysis.best_moves.iter().map(|p| p.number()).collect(),
            exact: analysis.exact,
            moves_proven: analysis.moves_proven,
        }
    }
}

/// A review being computed: `{"progress":{"done":3,"total":7}}`, moves reviewed of all.
#[derive(Debug, Serialize)]
pub struct ProgressJson {
    progress: Counted,
}

#[derive(Debug, Serialize)]
struct Counted {
    done: usize,
    total: usize,
}

impl ProgressJson {
    pub fn new(done: usize, total: usize) -> Self {
        ProgressJson {
            progress: Counted { done, total },
        }
    }
}
