//! Output for scripts: one JSON object per answer, the `--json` of the command line and
//! the web API's answers in the same words. Each answer is one type, built here and
//! serialised as it is declared (so the keys come out in the documented order); with
//! the `schema` feature (the web server's) each also derives its OpenAPI schema, so the
//! document describes the very type that is sent. Field comments are the schema's
//! descriptions.

use std::io::{self, Write};

use serde::Serialize;

use std::time::SystemTime;

use tictactoe_core::domain::{
    GameState, Known, Mark, Outcome, PlayerName, Position, Scoreboard, Standing, Verdict, layout_of,
};
use tictactoe_core::play::{BoardRatings, OpenPuzzles, RatingRow};
use tictactoe_core::play::{MoveReview, Replay, Report, Review, Tally};
use tictactoe_core::ports::{
    AccountSummary, Ending, GameId, GameSummary, Opponents, PlayerRating, RatingChange, RatingPoint,
};
use tictactoe_core::rules::{Answered, Fate, Puzzle, names_of};
use tictactoe_core::words;

/// The scoreboard, as `tictactoe scores --json` prints it.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct ScoreboardJson<'a> {
    /// Ranked: most wins, then fewest losses, then by name.
    players: Vec<ScoreRowJson<'a>>,
}

/// One player's row of the scoreboard.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct ScoreRowJson<'a> {
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

fn player_json(s: &Standing) -> ScoreRowJson<'_> {
    ScoreRowJson {
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
    to_json(&ScoreboardJson { players })
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

/// `{"games":1000,"x_wins":0,"o_wins":0,"draws":1000,"seconds":0.021}`: the seconds
/// to the millisecond, or to the microsecond for a run shorter than a millisecond (never
/// `0.0` for a run that took time).
pub fn tally_json(tally: &Tally, seconds: f64) -> String {
    let unit = if seconds < 0.001 { 1e6 } else { 1e3 };
    to_json(&TallyJson {
        games: tally.games,
        x_wins: tally.x_wins,
        o_wins: tally.o_wins,
        draws: tally.draws,
        seconds: (seconds * unit).round() / unit,
    })
}

/// `"x_won"`, `"o_won"`, `"draw"`, `"x_resigned"`, `"o_resigned"`, `"x_left"`,
/// `"o_left"`, `"x_timeout"`, `"o_timeout"` (lost on time), `"x_timeout_draw"`,
/// `"o_timeout_draw"` (out of time against a side that could no longer win) or
/// `"x_aborted"`, `"o_aborted"` (that side's first move not made in time): how a kept game ended (a game's
/// `status` in the web API, and a history's `result`, in the same words).
pub fn ending_word(ending: Ending) -> &'static str {
    match ending {
        Ending::Finished(outcome) => outcome_word(outcome),
        Ending::Resigned(Mark::X) => "x_resigned",
        Ending::Resigned(Mark::O) => "o_resigned",
        Ending::Abandoned(Mark::X) => "x_left",
        Ending::Abandoned(Mark::O) => "o_left",
        Ending::TimedOut {
            side: Mark::X,
            drawn: false,
        } => "x_timeout",
        Ending::TimedOut {
            side: Mark::O,
            drawn: false,
        } => "o_timeout",
        Ending::TimedOut {
            side: Mark::X,
            drawn: true,
        } => "x_timeout_draw",
        Ending::TimedOut {
            side: Mark::O,
            drawn: true,
        } => "o_timeout_draw",
        Ending::Aborted(Mark::X) => "x_aborted",
        Ending::Aborted(Mark::O) => "o_aborted",
    }
}

/// One row of a board's ratings: a person, or a computer level's fixed anchor.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct RatingRowJson<'a> {
    name: &'a str,
    /// Whole points.
    rating: i64,
    deviation: i64,
    /// A person's rating whose deviation is above 110 (an anchor never is).
    provisional: bool,
    /// A person's rated games; a level's calibration games.
    games: u64,
    /// A computer level's fixed rating, never moved by a game.
    anchor: bool,
}

/// One row of a board's ratings: `{"name":"Ada","rating":1512,"deviation":64,
/// "provisional":false,"games":31,"anchor":false}` (rating and deviation in whole
/// points, as shown; a level's fixed anchor has `"anchor":true` and is never
/// provisional, its games the calibration's).
pub fn rating_row_json(row: &RatingRow) -> String {
    to_json(&RatingRowJson::of(row))
}

impl<'a> RatingRowJson<'a> {
    fn of(row: &'a RatingRow) -> Self {
        RatingRowJson {
            name: row.name.as_str(),
            rating: row.rating.points(),
            deviation: row.rating.deviation().round() as i64,
            provisional: row.anchor.is_none() && row.rating.provisional(),
            games: row.games,
            anchor: row.anchor.is_some(),
        }
    }
}

/// A rating held on one board, as both the one-person list and the player page give it.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct StandingJson {
    size: usize,
    win: usize,
    /// Whole points.
    rating: i64,
    deviation: i64,
    /// The deviation is above 110: too few games to say much yet.
    provisional: bool,
    games: u64,
}

impl StandingJson {
    fn of(held: &PlayerRating) -> Self {
        StandingJson {
            size: held.board.size(),
            win: held.board.win_length(),
            rating: held.rating.points(),
            deviation: held.rating.deviation().round() as i64,
            provisional: held.rating.provisional(),
            games: held.games,
        }
    }
}

#[derive(Serialize)]
struct PlayerRatingJson<'a> {
    name: &'a str,
    #[serde(flatten)]
    standing: StandingJson,
}

/// One person's rating on one board, for `ratings --player NAME --json`:
/// `{"name":"Ada","size":3,"win":3,"rating":1350,"deviation":249,"provisional":true,
/// "games":1}` (rating and deviation in whole points, as shown).
pub fn player_rating_json(rating: &PlayerRating) -> String {
    to_json(&PlayerRatingJson {
        name: rating.name.as_str(),
        standing: StandingJson::of(rating),
    })
}

#[derive(Serialize)]
struct AccountJson<'a> {
    name: &'a str,
    created: String,
    sessions: u64,
    tokens: u64,
}

/// One account, for `accounts list --json`: `{"name":"Ada","created":
/// "2026-11-24T14:05:09Z","sessions":1,"tokens":0}`: its name as signed up, when it
/// was made (RFC 3339 in UTC, to the second, as [`time_word`] writes moments), the
/// sessions open and the personal tokens not revoked. Never a password, a hash, a
/// secret or a lock.
pub fn account_json(account: &AccountSummary) -> String {
    to_json(&AccountJson {
        name: account.name.as_str(),
        created: time_word(account.created),
        sessions: account.sessions,
        tokens: account.tokens,
    })
}

/// One training puzzle: the position before a slip of the player's.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct PuzzleJson<'a> {
    /// The game it is from: 32 hex digits.
    game: &'a str,
    /// The move that threw a value away (1 for the game's first).
    ply: u32,
    /// The cells before that move, row by row: `X`, `O` or `.`.
    board: String,
    /// `X` or `O`: the player's side.
    to_move: String,
    /// What the player had there: `win` or `draw`.
    value: &'static str,
    /// The board's size, and how many in a row win on it.
    size: usize,
    win: usize,
    /// The answers: left out where the puzzle is put to someone (the web's list, which
    /// gives them with an answer's verdict).
    #[serde(skip_serializing_if = "Option::is_none")]
    best_moves: Option<Vec<usize>>,
}

/// One open training puzzle, for `train --list --json`: `{"game":"0190…","ply":2,
/// "board":"....X....","to_move":"O","value":"draw","size":3,"win":3,
/// "best_moves":[1,3,7,9]}`. `board`
/// is the position before the slip (as `replay --json` writes boards), `value` what
/// the side to move had there (in the words of `analyze --json`), `best_moves` the
/// right answers, numbered from 1 as people type them.
pub fn puzzle_json(puzzle: &Puzzle) -> String {
    to_json(&PuzzleJson::of(puzzle))
}

impl<'a> PuzzleJson<'a> {
    fn of(puzzle: &'a Puzzle) -> Self {
        PuzzleJson {
            game: puzzle.game.as_str(),
            ply: puzzle.ply,
            board: layout_of(&puzzle.position),
            to_move: puzzle.to_move.to_string(),
            value: verdict_word(puzzle.value),
            size: puzzle.board.size(),
            win: puzzle.board.win_length(),
            best_moves: Some(puzzle.best_moves.iter().map(|cell| cell.number()).collect()),
        }
    }

    /// The puzzle as it is put to the player: without its answers.
    fn asked(puzzle: &'a Puzzle) -> Self {
        PuzzleJson {
            best_moves: None,
            ..PuzzleJson::of(puzzle)
        }
    }
}

/// One puzzle as the training page puts it: what `tictactoe train --list --json`
/// prints but its answers, with a title and a question.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct TrainingPuzzleJson<'a> {
    #[serde(flatten)]
    puzzle: PuzzleJson<'a>,
    /// "Puzzle 1 of 3: game 0190ab12, move 4 (4x4: 3 in a row wins)".
    title: String,
    /// "X to move; X had a draw here. Find a move that keeps it."
    prompt: String,
}

/// A player's open training puzzles, for the training page.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct TrainingJson<'a> {
    /// Newest game first, each game's in the order played.
    puzzles: Vec<TrainingPuzzleJson<'a>>,
    /// The player's moves whose review is not exact (no puzzle is made of them).
    not_exact: u64,
    /// The player's ended games with no review kept (no puzzles either).
    unreviewed: usize,
    /// Why there are no puzzles, and what kept more moves from being puzzles, in words.
    notes: Vec<String>,
}

/// A player's open puzzles for the web's training page: `{"puzzles":[…],"not_exact":1,
/// "unreviewed":2,"notes":["…"]}`, each puzzle as [`puzzle_json`] words it but for its
/// answers (`best_moves`, which come with the verdict of an answer), with its board's
/// `size` and `win`, its `title` ("Puzzle 1 of 3: game 0190ab12, move 4", the
/// game named by `short_ids`, in the same order) and its `prompt` ("O to move; O had a
/// draw here. …"); `notes` says, in the console's words, why there are none and what
/// kept more moves from being puzzles (`how_to_review` says how a game is reviewed).
pub fn training_json(
    player: &PlayerName,
    open: &OpenPuzzles,
    short_ids: &[String],
    board: &str,
    how_to_review: &str,
) -> String {
    let total = open.puzzles.len();
    let puzzles = open
        .puzzles
        .iter()
        .zip(short_ids)
        .enumerate()
        .map(|(index, (puzzle, short))| TrainingPuzzleJson {
            puzzle: PuzzleJson::asked(puzzle),
            title: words::puzzle_title(index + 1, total, short, puzzle.ply, puzzle.board),
            prompt: words::puzzle_prompt(puzzle.to_move, puzzle.value),
        })
        .collect();
    let none = (total == 0).then(|| words::no_puzzles(player, board, open.games > 0));
    let notes = none
        .into_iter()
        .chain(words::not_exact_words(player, open.not_exact))
        .chain(words::unreviewed_words(
            player,
            &open.unreviewed,
            how_to_review,
        ))
        .collect();
    to_json(&TrainingJson {
        puzzles,
        not_exact: open.not_exact,
        unreviewed: open.unreviewed.len(),
        notes,
    })
}

/// An answer to a puzzle, judged.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct PuzzleAnswerJson {
    /// `right`, `wrong`, or `unproven` (not judged in time: nothing kept).
    judged: &'static str,
    /// What the answer leaves the player: `win`, `draw` or `loss` (null when not
    /// judged).
    left: Option<&'static str>,
    /// The verdict in words, as the console says it.
    said: String,
    /// What comes next, in words: after a right answer, whether the puzzle retires or
    /// comes back; after a wrong one, another try or the answer (null when not judged).
    then: Option<&'static str>,
    /// After a wrong answer, what to show once the player stops trying: what the review
    /// said of the move played in the game, and the best moves (null otherwise).
    answer: Option<String>,
    /// The puzzle's best moves, numbered from 1 (lit once the answer is shown).
    best_moves: Vec<usize>,
}

/// An answer to a puzzle, judged, for the web's training page: `{"judged":"wrong",
/// "left":"loss","said":"Not that one: 4 leaves a loss.","then":"Try again on the same
/// position, or see the answer.","answer":"In the game, … The best moves: 1, 3, 7 or 9
/// (lit). The puzzle stays.","best_moves":[1,3,7,9]}`, in the console's words.
/// `judged` is `right`, `wrong` or `unproven` (not judged, nothing kept); `left` what
/// the answer leaves the player (`null` when not judged); `said` the line for it;
/// `then` what comes next (after a right answer, whether the puzzle retires or comes
/// back; after a wrong one, another try or the answer); `answer`, after a wrong
/// answer, what to show when the player stops trying; `best_moves` the puzzle's,
/// numbered from 1.
pub fn answer_json(
    puzzle: &Puzzle,
    cell: Position,
    answered: &Answered,
    fate: Option<Fate>,
) -> String {
    let (judged, left) = match answered {
        Answered::Right => ("right", Some(verdict_word(puzzle.value))),
        Answered::Wrong { left, .. } => ("wrong", Some(verdict_word(*left))),
        Answered::Unproven => ("unproven", None),
    };
    to_json(&PuzzleAnswerJson {
        judged,
        left,
        said: words::answer_line(cell, puzzle.value, answered),
        then: match (answered, fate) {
            (Answered::Right, Some(fate)) => Some(words::fate_words(fate)),
            (Answered::Wrong { .. }, _) => Some(words::TRY_AGAIN),
            _ => None,
        },
        answer: match answered {
            Answered::Wrong { reviewed, .. } => Some(format!(
                "{} {}",
                words::in_the_game(reviewed),
                words::lit_best_moves(&puzzle.best_moves)
            )),
            _ => None,
        },
        best_moves: puzzle.best_moves.iter().map(|cell| cell.number()).collect(),
    })
}

/// A board's ratings for the web API: `{"size":3,"win":3,"ratings":[…],
/// "provisional":[…]}`: the ranking (settled people and the levels' anchors), then
/// apart the people whose rating is still provisional, each row as
/// [`rating_row_json`] words it.
pub fn ratings_json(listed: &BoardRatings) -> String {
    to_json(&RatingsJson {
        size: listed.board.size(),
        win: listed.board.win_length(),
        ratings: listed.ranked.iter().map(RatingRowJson::of).collect(),
        provisional: listed.provisional.iter().map(RatingRowJson::of).collect(),
    })
}

/// A board's ratings, as `tictactoe ratings --json` prints its rows.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct RatingsJson<'a> {
    size: usize,
    win: usize,
    /// The ranking, best first: people whose rating is settled, and the levels'
    /// anchors.
    ratings: Vec<RatingRowJson<'a>>,
    /// Best first, apart from the ranking: people whose rating is still provisional
    /// (too few games to rank them).
    provisional: Vec<RatingRowJson<'a>>,
}

/// A person's rating on one board, and its history.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct BoardRatingJson {
    #[serde(flatten)]
    standing: StandingJson,
    /// Their rating after each of their last 200 rated games there, oldest first.
    history: Vec<RatingPointJson>,
}

/// A person's rating after one of their games.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct RatingPointJson {
    /// The game that made it.
    game: String,
    /// When that game ended: RFC 3339, UTC, to the second.
    ended: String,
    /// Whole points.
    rating: i64,
    deviation: i64,
    /// The deviation then was above 110.
    provisional: bool,
}

/// A person's rating on each board they played on, with their rating after each of
/// their last games there, oldest first (what the player page draws).
fn board_ratings(ratings: &[(PlayerRating, Vec<RatingPoint>)]) -> Vec<BoardRatingJson> {
    ratings
        .iter()
        .map(|(held, points)| BoardRatingJson {
            standing: StandingJson::of(held),
            history: points
                .iter()
                .map(|point| RatingPointJson {
                    game: point.game.to_string(),
                    ended: time_word(point.ended),
                    rating: point.rating.points(),
                    deviation: point.rating.deviation().round() as i64,
                    provisional: point.rating.provisional(),
                })
                .collect(),
        })
        .collect()
}

/// A moment as RFC 3339 in UTC, to the second: `2026-11-24T14:05:09Z`.
pub fn time_word(time: SystemTime) -> String {
    humantime::format_rfc3339_seconds(time).to_string()
}

/// An ended game, as `tictactoe history --json` prints it.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct GameSummaryJson<'a> {
    /// The whole id: 32 hex digits.
    id: &'a str,
    /// When it began: RFC 3339, UTC, to the second.
    started: String,
    /// When it ended.
    ended: String,
    x: String,
    o: String,
    size: usize,
    win: usize,
    /// `X` or `O`.
    first: String,
    /// `x_won`, `o_won`, `draw`, `x_resigned`, `o_resigned`, `x_left`, `o_left`, or an ending by
    /// the clock (`x_timeout`, `x_timeout_draw`, `x_aborted`, and O's the same).
    result: &'static str,
    /// The moves on the board at the end.
    moves: u32,
}

/// One game of a history: `{"id":"0190…","started":"2026-11-24T14:05:09Z","ended":…,
/// "x":"Ada","o":"Computer (Impossible)","size":3,"win":3,"first":"X","result":"o_won",
/// "moves":6}`. `id` is the whole id.
pub fn summary_json(game: &GameSummary) -> String {
    to_json(&GameSummaryJson::of(game))
}

#[derive(Serialize)]
struct RatedSummaryJson<'a> {
    #[serde(flatten)]
    game: GameSummaryJson<'a>,
    casual: bool,
    rating: Vec<RatingChangeJson<'a>>,
}

/// What a game did to one person's rating.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct RatingChangeJson<'a> {
    player: &'a str,
    /// The side they played: `X` or `O`.
    #[cfg_attr(feature = "schema", schema(pattern = "^[XO]$"))]
    mark: String,
    /// Whole points, before the game.
    before: i64,
    /// Whole points, after the game.
    after: i64,
    /// `after - before`.
    change: i64,
    /// Whether the rating after the game is still provisional.
    provisional: bool,
}

impl<'a> RatingChangeJson<'a> {
    fn of(change: &'a RatingChange) -> Self {
        RatingChangeJson {
            player: change.player.as_str(),
            mark: change.mark.to_string(),
            before: change.before.points(),
            after: change.after.points(),
            change: change.after.points() - change.before.points(),
            provisional: change.after.provisional(),
        }
    }
}

/// What an ended game did to ratings.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct RatingChangesJson<'a> {
    /// X's first; empty when the game rated nobody.
    changes: Vec<RatingChangeJson<'a>>,
}

/// What an ended game did to its people's ratings, for the web API:
/// `{"changes":[{"player":"Ada","mark":"X","before":1500,"after":1086,"change":-414,
/// "provisional":true}]}` (X's first; empty when it rated nobody; whole points, as
/// shown; `provisional` of the rating after).
pub fn rating_changes_json(changes: &[RatingChange]) -> String {
    to_json(&RatingChangesJson {
        changes: changes.iter().map(RatingChangeJson::of).collect(),
    })
}

/// One game of `history --json`: [`summary_json`]'s fields, whether the game was casual
/// (it rates nobody: `--seed`, a hint, a move taken back against the computer), and
/// what it did to each rated person's rating: `"casual":false,"rating":[{"player":
/// "Ada","mark":"X","before":1500,"after":1350,"change":-150,"provisional":true}]`
/// (empty when it rated nobody; whole points, as shown; `provisional` of the rating
/// after).
pub fn rated_summary_json(game: &GameSummary, casual: bool, changes: &[RatingChange]) -> String {
    to_json(&RatedSummaryJson {
        game: GameSummaryJson::of(game),
        casual,
        rating: changes.iter().map(RatingChangeJson::of).collect(),
    })
}

impl<'a> GameSummaryJson<'a> {
    fn of(game: &'a GameSummary) -> Self {
        let [x, o] = names_of(&game.settings);
        let geometry = game.settings.geometry();
        GameSummaryJson {
            id: game.id.as_str(),
            started: time_word(game.started),
            ended: time_word(game.ended),
            x: x.as_str().to_string(),
            o: o.as_str().to_string(),
            size: geometry.size(),
            win: geometry.win_length(),
            first: game.settings.first().to_string(),
            result: ending_word(game.ending),
            moves: game.moves,
        }
    }
}

/// A page of a history for the web API: `{"games":[…],"next":"0190…"}` (`next` is
/// `null` on the last page).
pub fn history_page_json(games: &[GameSummary], next: Option<&GameId>) -> String {
    to_json(&HistoryPageJson {
        games: games.iter().map(GameSummaryJson::of).collect(),
        next: next.map(GameId::as_str),
    })
}

/// A page of ended games, newest first.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct HistoryPageJson<'a> {
    games: Vec<GameSummaryJson<'a>>,
    /// The last game's id, for `before` on the next page; `null` on the last page.
    #[cfg_attr(feature = "schema", schema(required))]
    next: Option<&'a str>,
}

/// One reviewed move.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct MoveReviewJson {
    ply: u32,
    /// The cell played, numbered from 1.
    cell: usize,
    /// `X` or `O`: who moved.
    mark: String,
    /// The value for the side that moved, before its move: `win`, `draw`, `loss`,
    /// `at_least_draw`, `at_most_draw` or `unknown`.
    before: &'static str,
    /// The value after it.
    after: &'static str,
    /// The moves that would have kept the value before.
    best_moves: Vec<usize>,
    exact: bool,
}

fn move_review(reviewed: &MoveReview) -> MoveReviewJson {
    MoveReviewJson {
        ply: reviewed.ply,
        cell: reviewed.cell.number(),
        mark: reviewed.mark.to_string(),
        before: known_word(reviewed.before),
        after: known_word(reviewed.after),
        best_moves: reviewed.best_moves.iter().map(|p| p.number()).collect(),
        exact: reviewed.exact(),
    }
}

/// One reviewed move, for `replay --review --json` (one line each):
/// `{"ply":4,"cell":3,"mark":"O","before":"draw","after":"loss","best_moves":[7,9],
/// "exact":true}`. `before` and `after` are the value for the side that moved (`mark`),
/// in the words of `analyze --json`; cells are numbered from 1, as people type them.
pub fn move_review_json(reviewed: &MoveReview) -> String {
    to_json(&move_review(reviewed))
}

/// A game's review by perfect play, as `replay --review --json` words each move.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct ReviewJson<'a> {
    game: &'a str,
    /// Every value below was proven within the server's thinking time.
    exact: bool,
    moves: Vec<MoveReviewJson>,
}

/// A whole review for the web API: `{"game":"0190…","exact":true,"moves":[…]}`.
pub fn review_json(game: &GameId, review: &Review) -> String {
    to_json(&ReviewJson {
        game: game.as_str(),
        exact: review.exact(),
        moves: review.moves.iter().map(move_review).collect(),
    })
}

#[derive(Serialize)]
struct PlayedJson {
    ply: u32,
    cell: usize,
    mark: String,
    board: String,
}

/// One move of `replay --json` (one line each): `{"ply":1,"cell":5,"mark":"X",
/// "board":"....X...."}`, `board` being the position after the move.
pub fn replay_json(replay: &Replay) -> Vec<String> {
    replay
        .moves()
        .iter()
        .map(|played| {
            to_json(&PlayedJson {
                ply: played.ply,
                cell: played.cell.number(),
                mark: played.mark.to_string(),
                board: layout_of(replay.after(played.ply as usize).board()),
            })
        })
        .collect()
}

/// A player's results against one opponent.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct RivalJson<'a> {
    opponent: &'a str,
    wins: u64,
    losses: u64,
    ties: u64,
    games: u64,
}

/// A player's page for the web API: `{"name":"Ada","wins":3,"losses":1,"ties":2,
/// "games":6,"opponents":[{"opponent":"Bob","wins":…,"games":…}],"other_opponents":0,
/// "recent":[…]}`. The record counts every game that counted, against everybody;
/// `opponents` are the most played, `other_opponents` how many more there are;
/// `recent` is the newest page of their history; `ratings` their rating on each board
/// they were rated on (`{"size","win","rating","deviation","provisional","games",
/// "history":[{"game","ended","rating","deviation","provisional"}]}`, the history oldest first).
pub fn player_page_json(
    name: &PlayerName,
    opponents: &Opponents,
    recent: &[GameSummary],
    ratings: &[(PlayerRating, Vec<RatingPoint>)],
) -> String {
    let total = opponents.total;
    to_json(&PlayerPageJson {
        name: name.as_str(),
        wins: total.wins,
        losses: total.losses,
        ties: total.ties,
        games: total.games(),
        opponents: opponents
            .most_played
            .iter()
            .map(|rival| RivalJson {
                opponent: rival.opponent.as_str(),
                wins: rival.record.wins,
                losses: rival.record.losses,
                ties: rival.record.ties,
                games: rival.record.games(),
            })
            .collect(),
        other_opponents: opponents.others,
        recent: recent.iter().map(GameSummaryJson::of).collect(),
        ratings: board_ratings(ratings),
    })
}

/// A player's record, their results against each opponent and their newest games.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct PlayerPageJson<'a> {
    name: &'a str,
    wins: u64,
    losses: u64,
    ties: u64,
    games: u64,
    /// The most played opponents, most played first.
    opponents: Vec<RivalJson<'a>>,
    /// How many more opponents there are.
    other_opponents: u64,
    recent: Vec<GameSummaryJson<'a>>,
    /// Their Glicko-2 rating on each board they were rated on, by size then run.
    ratings: Vec<BoardRatingJson>,
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

    #[rstest::rstest]
    #[case::to_the_millisecond(1.23456, "1.235")]
    #[case::to_the_microsecond_under_a_millisecond(0.000_412_3, "0.000412")]
    fn a_tally_gives_its_counts_and_its_seconds(#[case] seconds: f64, #[case] written: &str) {
        let tally = Tally {
            games: 3,
            x_wins: 1,
            o_wins: 0,
            draws: 2,
        };

        assert_eq!(
            tally_json(&tally, seconds),
            format!(r#"{{"games":3,"x_wins":1,"o_wins":0,"draws":2,"seconds":{written}}}"#)
        );
    }

    fn cell(number: usize) -> tictactoe_core::domain::Position {
        tictactoe_core::domain::Geometry::classic()
            .position(number - 1)
            .unwrap()
    }

    #[test]
    fn a_reviewed_move_gives_its_fields_in_the_documented_order_and_words() {
        let reviewed = MoveReview {
            ply: 5,
            mark: Mark::X,
            cell: cell(2),
            before: Known::Exactly(Verdict::Draw),
            after: Known::Exactly(Verdict::Loss),
            best_moves: vec![cell(6)],
        };

        assert_eq!(
            move_review_json(&reviewed),
            r#"{"ply":5,"cell":2,"mark":"X","before":"draw","after":"loss","best_moves":[6],"exact":true}"#
        );
    }

    #[test]
    fn a_move_not_settled_in_time_is_not_exact_and_says_what_was_found() {
        let reviewed = MoveReview {
            ply: 1,
            mark: Mark::O,
            cell: cell(5),
            before: Known::AtLeastDraw,
            after: Known::AtMostDraw,
            best_moves: vec![],
        };

        let json: serde_json::Value = serde_json::from_str(&move_review_json(&reviewed)).unwrap();

        assert_eq!(json["before"], "at_least_draw");
        assert_eq!(json["after"], "at_most_draw");
        assert_eq!(json["exact"], false);
    }

    #[test]
    fn every_ending_has_its_own_word() {
        let words: std::collections::HashSet<&str> =
            Ending::ALL.into_iter().map(ending_word).collect();

        assert_eq!(words.len(), Ending::ALL.len());
        assert!(words.contains("o_resigned") && words.contains("x_left"));
    }

    #[test]
    fn a_history_page_names_its_next_cursor_or_null() {
        assert_eq!(history_page_json(&[], None), r#"{"games":[],"next":null}"#);
        let id = GameId::from_bits(0xab);
        assert_eq!(
            history_page_json(&[], Some(&id)),
            format!(r#"{{"games":[],"next":"{id}"}}"#)
        );
    }

    #[test]
    fn an_account_is_its_name_when_it_was_made_and_its_sessions_and_tokens() {
        let account = AccountSummary {
            name: PlayerName::new("Ada").unwrap(),
            created: std::time::UNIX_EPOCH + std::time::Duration::from_millis(1_795_000_000_999),
            sessions: 2,
            tokens: 1,
        };

        assert_eq!(
            account_json(&account),
            r#"{"name":"Ada","created":"2026-11-18T11:06:40Z","sessions":2,"tokens":1}"#
        );
    }

    #[test]
    fn a_moment_is_written_as_rfc_3339_in_utc_to_the_second() {
        let moment = std::time::UNIX_EPOCH + std::time::Duration::from_millis(1_795_000_000_999);

        assert_eq!(time_word(moment), "2026-11-18T11:06:40Z");
    }

    #[test]
    fn a_puzzle_is_its_game_ply_position_side_value_rule_and_right_answers() {
        // Arrange: X on 5, O to move with a draw; 1 and 9 keep it.
        let puzzle =
            tictactoe_core::fixtures::o_puzzle_after_x_in_the_centre(GameId::from_bits(0xab));

        // Act
        let json = puzzle_json(&puzzle);

        // Assert
        assert_eq!(
            json,
            format!(
                r#"{{"game":"{}","ply":2,"board":"....X....","to_move":"O","value":"draw","size":3,"win":3,"best_moves":[1,9]}}"#,
                puzzle.game
            )
        );
    }
}
