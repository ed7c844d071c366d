//! Output for scripts: one JSON object per answer. Structs rather than `json!` so the
//! keys come out in the documented order.

use std::io::{self, Write};

use serde::Serialize;

use tictactoe_core::domain::{Known, Mark, Outcome, Scoreboard, Standing, Verdict, layout_of};
use tictactoe_core::play::{Report, Tally};

#[derive(Serialize)]
struct ScoresJson<'a> {
    players: Vec<PlayerJson<'a>>,
}

#[derive(Serialize)]
struct PlayerJson<'a> {
    name: &'a str,
    wins: u64,
    losses: u64,
    ties: u64,
    games: u64,
}

/// The scoreboard's JSON written as its rows arrive: byte for byte what
/// [`scoreboard_json`] makes of the same rows, without holding them all.
pub struct ScoresJsonWriter<W: Write> {
    out: W,
    rows: u64,
}

impl<W: Write> ScoresJsonWriter<W> {
    pub fn new(mut out: W) -> io::Result<Self> {
        out.write_all(b"{\"players\":[")?;
        Ok(ScoresJsonWriter { out, rows: 0 })
    }

    pub fn row(&mut self, standing: &Standing) -> io::Result<()> {
        if self.rows > 0 {
            self.out.write_all(b",")?;
        }
        self.rows += 1;
        self.out
            .write_all(to_json(&player_json(standing)).as_bytes())
    }

    /// Closes the object (and the line) and gives the output back.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.write_all(b"]}\n")?;
        self.out.flush()?;
        Ok(self.out)
    }
}

fn player_json(s: &Standing) -> PlayerJson<'_> {
    PlayerJson {
        name: s.name.as_str(),
        wins: s.record.wins,
        losses: s.record.losses,
        ties: s.record.ties,
        games: s.record.games(),
    }
}

/// `{"players":[{"name":"Ada","wins":1,"losses":0,"ties":2,"games":3}]}`, ranked as on screen.
pub fn scoreboard_json(scoreboard: &Scoreboard) -> String {
    let players = scoreboard.standings().iter().map(player_json).collect();
    to_json(&ScoresJson { players })
}

#[derive(Serialize)]
#[serde(untagged)]
enum ReportJson<'a> {
    InProgress {
        board: String,
        status: &'static str,
        to_move: String,
        value: &'static str,
        /// Only when the whole analysis is exact.
        #[serde(skip_serializing_if = "Option::is_none")]
        plies: Option<usize>,
        best_moves: Vec<usize>,
        #[serde(rename = "move")]
        choice: usize,
        exact: bool,
        moves_proven: bool,
    },
    Finished {
        board: String,
        status: &'static str,
    },
    Invalid {
        board: &'a str,
        error: String,
    },
}

/// One line for `analyze --json`.
pub fn report_json(report: &Report) -> String {
    let json = match report {
        Report::InProgress {
            board,
            to_move,
            analysis,
            choice,
        } => ReportJson::InProgress {
            board: layout_of(board),
            status: "in_progress",
            to_move: to_move.to_string(),
            value: known_word(analysis.known()),
            plies: analysis.exact.then_some(analysis.plies),
            best_moves: analysis.best_moves.iter().map(|p| p.number()).collect(),
            choice: choice.number(),
            exact: analysis.exact,
            moves_proven: analysis.moves_proven,
        },
        Report::Finished { board, outcome } => ReportJson::Finished {
            board: layout_of(board),
            status: outcome_word(*outcome),
        },
        Report::Invalid { given, error } => ReportJson::Invalid {
            board: given,
            error: error.to_string(),
        },
    };
    to_json(&json)
}

/// `"x_won"`, `"o_won"` or `"draw"`: the `status` of a finished board (a board in
/// progress is `"in_progress"`). The web API speaks the same words.
pub fn outcome_word(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Won(Mark::X) => "x_won",
        Outcome::Won(Mark::O) => "o_won",
        Outcome::Draw => "draw",
    }
}

/// The value as far as it is known, for the side to move: `"win"`, `"draw"` or
/// `"loss"` when proven; `"at_least_draw"` when only moves that do not lose were
/// proven; `"at_most_draw"` when the other side was proven not to lose (a review says
/// it of the side that has just moved); `"unknown"` when time ran out before any move
/// was.
pub fn known_word(known: Known) -> &'static str {
    match known {
        Known::Exactly(verdict) => verdict_word(verdict),
        Known::AtLeastDraw => "at_least_draw",
        Known::AtMostDraw => "at_most_draw",
        Known::Nothing => "unknown",
    }
}

/// `"win"`, `"draw"` or `"loss"`, for the side to move.
pub fn verdict_word(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Win => "win",
        Verdict::Draw => "draw",
        Verdict::Loss => "loss",
    }
}

#[derive(Serialize)]
struct TallyJson {
    games: u64,
    x_wins: u64,
    o_wins: u64,
    draws: u64,
    seconds: f64,
}

/// `{"games":1000,"x_wins":0,"o_wins":0,"draws":1000,"seconds":0.01}`
pub fn tally_json(tally: &Tally, seconds: f64) -> String {
    to_json(&TallyJson {
        games: tally.games,
        x_wins: tally.x_wins,
        o_wins: tally.o_wins,
        draws: tally.draws,
        seconds: (seconds * 1000.0).round() / 1000.0,
    })
}

fn to_json(value: &impl Serialize) -> String {
    serde_json::to_string(value).expect("strings, numbers and lists of them always serialise")
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictactoe_core::domain::{FinishedGame, PlayerName};

    #[test]
    fn the_streamed_scoreboard_is_the_same_json_as_the_whole_one_plus_a_newline() {
        // Arrange
        let mut scoreboard = Scoreboard::new();
        for (x, o, outcome) in [
            ("Ada", "Bob", Outcome::Won(Mark::X)),
            ("Cy", "Ada", Outcome::Draw),
        ] {
            scoreboard.record(&FinishedGame {
                x: PlayerName::new(x).unwrap(),
                o: PlayerName::new(o).unwrap(),
                outcome,
            });
        }

        // Act
        let mut writer = ScoresJsonWriter::new(Vec::new()).unwrap();
        for row in scoreboard.standings() {
            writer.row(row).unwrap();
        }
        let streamed = String::from_utf8(writer.finish().unwrap()).unwrap();

        // Assert
        assert_eq!(streamed, format!("{}\n", scoreboard_json(&scoreboard)));
    }

    #[test]
    fn a_draw_found_when_time_ran_out_reads_as_a_bound_without_a_length() {
        // Arrange: X to move on (5,4) after X 1 and O 25; one move proven not to lose.
        let geometry = tictactoe_core::domain::Geometry::new(5, 4).unwrap();
        let board = tictactoe_core::domain::fill_from_layout(
            tictactoe_core::domain::BitBoard::new(geometry),
            "X.......................O",
        )
        .unwrap();
        let cell = geometry.position(12).unwrap();
        let report = Report::InProgress {
            board,
            to_move: Mark::X,
            analysis: tictactoe_core::domain::Analysis {
                verdict: Verdict::Draw,
                plies: 23,
                best_moves: vec![cell],
                exact: false,
                moves_proven: true,
            },
            choice: cell,
        };

        // Act
        let json: serde_json::Value = serde_json::from_str(&report_json(&report)).unwrap();

        // Assert
        assert_eq!(json["value"], "at_least_draw");
        assert!(json.get("plies").is_none(), "{json}");
        assert_eq!(json["best_moves"], serde_json::json!([13]));
    }

    #[test]
    fn an_empty_streamed_scoreboard_has_no_players() {
        let writer = ScoresJsonWriter::new(Vec::new()).unwrap();

        let streamed = writer.finish().unwrap();

        assert_eq!(streamed, b"{\"players\":[]}\n");
    }

    #[test]
    fn a_tally_gives_its_seconds_to_the_millisecond() {
        let tally = Tally {
            games: 3,
            x_wins: 1,
            o_wins: 0,
            draws: 2,
        };

        assert_eq!(
            tally_json(&tally, 1.23456),
            r#"{"games":3,"x_wins":1,"o_wins":0,"draws":2,"seconds":1.235}"#
        );
    }
}
