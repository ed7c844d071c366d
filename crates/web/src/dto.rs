//! What goes over the wire besides the game's view (`view`): request bodies in, and
//! the answers that carry more than a game (a new game's seats and links, a hint, a
//! review's progress). The words are those of `analyze --json` (`value`,
//! `best_moves`) and cells are 1-based, as everywhere a person sees them. A request
//! body is parsed here into the domain's values (a [`NewGameJson`] into a [`Setup`]),
//! with the wording of what is wrong with it.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use tictactoe_core::domain::{Geometry, Mark, PlayerName, TimeControl};
use tictactoe_core::play::{Seating, Settings, SettingsError};
use tictactoe_core::players::seated;
use tictactoe_json::known_word;

use super::error::ApiError;
use super::port::{Created, Hint};
use super::setup::Setup;
use super::view::GameView;

/// `POST /api/games`. Players are written as on the command line.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewGameJson {
    /// Who plays X: `human`, `human:NAME`, `random`, `easy`, `medium` or `impossible`.
    /// Two people need different names (compared without regard to case, and as they
    /// look); a name has 1 to 40 visible characters, none of them control or formatting
    /// characters, and does not start with "Computer".
    #[schema(pattern = r"^(human(:[^\x00-\x1f\x7f-\x9f]+)?|random|easy|medium|impossible)$")]
    pub x: String,
    /// Who plays O, as `x`.
    #[schema(pattern = r"^(human(:[^\x00-\x1f\x7f-\x9f]+)?|random|easy|medium|impossible)$")]
    pub o: String,
    /// The board's size: 3 to 7 (3 if not given).
    #[serde(default, deserialize_with = "whole_or_none")]
    #[schema(minimum = 3, maximum = 7)]
    pub size: Option<usize>,
    /// How many in a row win: 3 to the size (the size if not given).
    #[serde(default, deserialize_with = "whole_or_none")]
    #[schema(minimum = 3, maximum = 7)]
    pub win: Option<usize>,
    /// Who moves first: `x` or `o` (either case; `x` if not given).
    #[schema(value_type = Option<String>, pattern = "^[xXoO]$")]
    pub first: Option<MarkJson>,
    /// For two people: one device (`together`) or two (`apart`, the default).
    pub seating: Option<SeatingJson>,
    /// The seat (`x` or `o`) held open for a friend on another device, who takes it with
    /// the invite's code (`invite` in the answer). Without it, every person's seat is
    /// the caller's.
    #[schema(value_type = Option<String>, pattern = "^[xXoO]$")]
    pub invite: Option<MarkJson>,
    /// A clock, for a game between two people: `{"initial": 180, "increment": 2}`
    /// (seconds for the whole game, and seconds more after each of one's moves) or
    /// `{"per_move": 30}` (seconds for each move). Without it, the game has none.
    pub clock: Option<TimeControlJson>,
}

/// A time control as a request writes it: `{"initial": SECONDS, "increment": SECONDS}`
/// or `{"per_move": SECONDS}`; every time from 5 s (an increment from 0), a game's at
/// most 3 hours, a move's at most a day.
#[derive(Debug, Clone, Copy, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TimeControlJson {
    /// Seconds for the whole game, each side.
    #[serde(default, deserialize_with = "whole_or_none")]
    #[schema(minimum = 5, maximum = 10800)]
    pub initial: Option<u64>,
    /// Seconds added after each of one's moves (0 if not given).
    #[serde(default, deserialize_with = "whole_or_none")]
    #[schema(minimum = 0, maximum = 86400)]
    pub increment: Option<u64>,
    /// Seconds for each move, instead of `initial` and `increment`.
    #[serde(default, deserialize_with = "whole_or_none")]
    #[schema(minimum = 5, maximum = 86400)]
    pub per_move: Option<u64>,
}

impl TimeControlJson {
    /// The time control it writes, checked as every clock is.
    pub fn control(self) -> Result<TimeControl, ApiError> {
        let bad = |message: String| ApiError::BadRequest(format!("clock: {message}"));
        let seconds = Duration::from_secs;
        let control = match (self.initial, self.increment, self.per_move) {
            (Some(initial), increment, None) => {
                TimeControl::increment(seconds(initial), seconds(increment.unwrap_or(0)))
            }
            (None, None, Some(limit)) => TimeControl::per_move(seconds(limit)),
            _ => {
                return Err(bad(
                    "give \"initial\" (and \"increment\"), or \"per_move\"".into()
                ));
            }
        };
        control.map_err(|error| bad(error.to_string()))
    }
}

impl NewGameJson {
    /// The seat held open for an invite, if any.
    pub fn invite(&self) -> Option<Mark> {
        self.invite.map(Mark::from)
    }

    /// Checks the request as `tictactoe play` checks its flags; defaults are the same
    /// too (3x3, a run the size of the board, X first). Two people apart by default.
    pub fn setup(self) -> Result<Setup, ApiError> {
        let bad = |message: String| ApiError::BadRequest(message);
        // A person who gives no name is seated as every front end seats them.
        let x = seated(self.x.parse().map_err(|e| bad(format!("x: {e}")))?, Mark::X);
        let o = seated(self.o.parse().map_err(|e| bad(format!("o: {e}")))?, Mark::O);
        let size = self.size.unwrap_or(3);
        let geometry =
            Geometry::new(size, self.win.unwrap_or(size)).map_err(|e| bad(e.to_string()))?;
        let first = self.first.map_or(Mark::X, Mark::from);
        let settings = Settings::new(x, o, first, geometry).map_err(|error| match error {
            SettingsError::SameName(name) => bad(format!(
                "both players are called {name}: give them different names"
            )),
            SettingsError::LookAlike(x, o) => bad(format!(
                "{x} and {o} look alike: give them names that read differently"
            )),
        })?;
        let clock = self.clock.map(TimeControlJson::control).transpose()?;
        if clock.is_some()
            && !(settings.player(Mark::X).is_human() && settings.player(Mark::O).is_human())
        {
            return Err(bad("a clock is for a game between two people".into()));
        }
        Ok(Setup {
            settings,
            seating: self.seating.map_or(Seating::Apart, Seating::from),
            clock,
        })
    }
}

/// `POST /api/games/{id}/name`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NameRequest {
    /// The name: 1 to 40 visible characters, none of them control or formatting
    /// characters, not starting with "Computer", and not the other player's (compared
    /// without regard to case, and as it looks).
    #[schema(pattern = r"^[^\x00-\x1f\x7f-\x9f]+$")]
    pub name: String,
}

impl NameRequest {
    /// The name, checked by the rules every name is checked by (refused as the
    /// console refuses a name typed there).
    pub fn name(&self) -> Result<PlayerName, ApiError> {
        PlayerName::new(&self.name).map_err(ApiError::BadName)
    }
}

#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
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

#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
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
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The cell, numbered from 1, row by row from the top left.
    #[serde(deserialize_with = "whole")]
    #[schema(minimum = 1)]
    pub cell: u64,
}

/// A whole number as JSON may write it: `5`, or `5.0` (a JSON Schema integer is any
/// number without a fraction).
fn whole<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: TryFrom<u64>,
{
    use serde::de::Error;
    let number = serde_json::Number::deserialize(deserializer)?;
    let whole = number.as_u64().or_else(|| {
        number
            .as_f64()
            .filter(|f| f.fract() == 0.0 && (0.0..=u64::MAX as f64).contains(f))
            .map(|f| f as u64)
    });
    whole
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| D::Error::custom(format!("{number} is not a whole number in range")))
}

/// [`whole`], for a field that may be left out or `null`.
fn whole_or_none<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: TryFrom<u64>,
{
    #[derive(Deserialize)]
    struct Whole<T: TryFrom<u64>>(#[serde(deserialize_with = "whole")] T);
    Option::<Whole<T>>::deserialize(deserializer).map(|whole| whole.map(|Whole(n)| n))
}

/// The seat's key in `seats` and in the page's URL fragment.
pub fn seat_key(mark: Mark) -> &'static str {
    match mark {
        Mark::X => "x",
        Mark::O => "o",
    }
}

/// The answer to `POST /api/games`, to a rematch and to an invite taken: the game, the
/// guests' seats given to the caller, and the invite for the seat held open.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedJson {
    #[serde(flatten)]
    pub game: GameView,
    /// Each guest's seat given to the caller (`x`, `o`): its token, for a program to send
    /// as `Authorization: Bearer TOKEN` (a browser is given the seat's cookie too). A
    /// signed-in player's seat needs none: it is their account's.
    pub seats: BTreeMap<&'static str, SeatJson>,
    /// The invite to the seat held open, for the friend: its link carries the code.
    /// Only when a seat is held open.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub invite: Option<InviteJson>,
}

impl From<&Created> for CreatedJson {
    fn from(created: &Created) -> Self {
        let id = &created.game.id;
        let seats = Mark::ALL
            .into_iter()
            .filter_map(|mark| {
                let token = created.tokens[mark.index()].as_ref()?.to_hex();
                let url = format!("/games/{id}");
                Some((seat_key(mark), SeatJson { token, url }))
            })
            .collect();
        let invite = created.invite.as_ref().map(|code| {
            let code = code.to_hex();
            InviteJson {
                url: format!("/games/{id}#invite={code}"),
                code,
            }
        });
        CreatedJson {
            game: created.game.as_ref().clone(),
            seats,
            invite,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SeatJson {
    /// The seat's secret (32 hex digits): shown to the one it was given to, never in
    /// an address.
    pub token: String,
    /// The game's page.
    pub url: String,
}

/// An invite to the seat held open: taken once (`POST /api/games/{id}/join`), by
/// whoever brings its code first.
#[derive(Debug, Serialize, ToSchema)]
pub struct InviteJson {
    /// The code (32 hex digits).
    pub code: String,
    /// The link for the friend: the game's page with the code in its fragment, which
    /// the page takes and exchanges for a seat of the friend's own.
    pub url: String,
}

/// `POST /api/games/{id}/join`: the invite's code.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The invite's code, as the invite link carries it.
    #[schema(pattern = "^[0-9a-fA-F]{32}$")]
    pub invite: String,
}

/// `GET /api/games/{id}`: the game, and the seats the caller holds.
#[derive(Debug, Serialize, ToSchema)]
pub struct LookedJson {
    #[serde(flatten)]
    pub game: GameView,
    /// The seats the caller holds (`X`, `O`): their account's, or a guest's whose
    /// cookie or token they sent. None: a spectator.
    pub yours: Vec<&'static str>,
}

/// `POST /api/games/{id}/hint`: what perfect play makes of the position, in the words
/// of `analyze --json`.
#[derive(Debug, Serialize, ToSchema)]
pub struct HintJson {
    pub value: &'static str,
    /// Only when the whole analysis is exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plies: Option<usize>,
    pub best_moves: Vec<usize>,
    pub exact: bool,
    /// Every move listed is proven (see `Analysis::moves_proven`).
    pub moves_proven: bool,
    /// Among the best moves, those Impossible itself would play (on 7x7 with 5 in a
    /// row, where every move keeps the draw: the centre); often none.
    pub preferred: Vec<usize>,
}

impl From<&Hint> for HintJson {
    fn from(hint: &Hint) -> Self {
        let analysis = &hint.analysis;
        HintJson {
            value: known_word(analysis.known()),
            plies: analysis.exact.then_some(analysis.plies),
            best_moves: analysis.best_moves.iter().map(|p| p.number()).collect(),
            exact: analysis.exact,
            moves_proven: analysis.moves_proven,
            preferred: hint.preferred.iter().map(|p| p.number()).collect(),
        }
    }
}

/// A review being computed: `{"progress":{"done":3,"total":7}}`, moves reviewed of all.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProgressJson {
    progress: Counted,
}

#[derive(Debug, Serialize, ToSchema)]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[rstest::rstest]
    #[case::an_integer(r#"{"cell": 5}"#)]
    #[case::a_number_without_a_fraction(r#"{"cell": 5.0}"#)]
    fn a_cell_is_a_whole_number_however_json_writes_it(#[case] body: &str) {
        let request: MoveRequest = serde_json::from_str(body).unwrap();

        assert_eq!(request.cell, 5);
    }

    #[rstest::rstest]
    #[case::a_fraction(r#"{"cell": 5.5}"#)]
    #[case::negative(r#"{"cell": -1}"#)]
    #[case::too_large(r#"{"cell": 1e300}"#)]
    #[case::text(r#"{"cell": "5"}"#)]
    fn a_cell_that_is_no_whole_number_is_refused(#[case] body: &str) {
        assert!(serde_json::from_str::<MoveRequest>(body).is_err());
    }

    #[test]
    fn a_size_may_be_left_out_be_null_or_be_written_with_a_point() {
        let sizes = [
            r#"{"x":"human","o":"easy"}"#,
            r#"{"x":"human","o":"easy","size":null}"#,
            r#"{"x":"human","o":"easy","size":4.0}"#,
        ]
        .map(|body| serde_json::from_str::<NewGameJson>(body).unwrap().size);

        assert_eq!(sizes, [None, None, Some(4)]);
    }

    fn request(x: &str, o: &str) -> NewGameJson {
        NewGameJson {
            x: x.into(),
            o: o.into(),
            size: None,
            win: None,
            first: None,
            seating: None,
            invite: None,
            clock: None,
        }
    }

    #[test]
    fn the_defaults_are_the_command_lines() {
        // Act
        let setup = request("human", "impossible").setup().unwrap();

        // Assert
        assert_eq!(setup.settings.geometry(), Geometry::classic());
        assert_eq!(setup.settings.first(), Mark::X);
        assert_eq!(setup.seating, Seating::Apart);
    }

    #[test]
    fn an_unknown_player_a_bad_size_or_one_name_twice_is_a_bad_request() {
        // Arrange
        let too_big = NewGameJson {
            size: Some(8),
            ..request("human", "easy")
        };
        for bad in [
            request("grandmaster", "easy"),
            too_big,
            request("human:Ada", "human:ada"),
        ] {
            // Act
            let checked = bad.setup();

            // Assert
            assert!(matches!(checked, Err(ApiError::BadRequest(_))));
        }
    }

    #[test]
    fn one_name_twice_is_refused_in_the_web_adapters_words() {
        // Act
        let checked = request("human:Ada", "human:ada").setup();

        // Assert
        assert!(matches!(
            checked,
            Err(ApiError::BadRequest(message))
                if message == "both players are called Ada: give them different names"
        ));
    }

    #[rstest::rstest]
    #[case::increment(r#"{"initial": 180, "increment": 2}"#, TimeControl::Increment { initial: Duration::from_secs(180), increment: Duration::from_secs(2) })]
    #[case::no_increment(r#"{"initial": 60}"#, TimeControl::Increment { initial: Duration::from_secs(60), increment: Duration::ZERO })]
    #[case::per_move(r#"{"per_move": 30}"#, TimeControl::PerMove(Duration::from_secs(30)))]
    fn a_clock_is_read_as_a_time_control(#[case] body: &str, #[case] control: TimeControl) {
        let clock: TimeControlJson = serde_json::from_str(body).unwrap();

        assert_eq!(clock.control().unwrap(), control);
    }

    #[rstest::rstest]
    #[case::too_short(r#"{"per_move": 4}"#)]
    #[case::both_kinds(r#"{"initial": 60, "per_move": 30}"#)]
    #[case::nothing("{}")]
    #[case::too_long(r#"{"initial": 10801}"#)]
    fn a_clock_out_of_bounds_or_of_both_kinds_is_a_bad_request(#[case] body: &str) {
        let clock: TimeControlJson = serde_json::from_str(body).unwrap();

        assert!(matches!(clock.control(), Err(ApiError::BadRequest(_))));
    }

    #[test]
    fn a_clock_against_the_computer_is_a_bad_request() {
        let asked = NewGameJson {
            clock: Some(TimeControlJson {
                per_move: Some(30),
                ..TimeControlJson::default()
            }),
            ..request("human", "easy")
        };

        assert!(
            matches!(asked.setup(), Err(ApiError::BadRequest(message)) if message.contains("two people"))
        );
    }
}
