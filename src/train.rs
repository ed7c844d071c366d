//! `tictactoe train`: a person's open puzzles (positions from their reviewed games where
//! their move threw a value away), listed as a table or one JSON object per line, or put
//! to them line by line with each answer kept. What a puzzle is, and when one retires,
//! are the core's (`tictactoe_core::ports::training`); the asking and the words are the
//! console's (`tictactoe_console::train_in_lines`).
//!
//! On a terminal the puzzles are put full screen (`tictactoe_terminal::run_training`),
//! elsewhere (`--plain`, a pipe) line by line: the same titled puzzles, each answer
//! kept through the same closure.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime};

use indicatif::{ProgressBar, ProgressDrawTarget};

use tictactoe_console::{ConsoleRenderer, InputHandler, Stop, Titled, train_in_lines, words};
use tictactoe_core::domain::{Geometry, Known, PlayerName};
use tictactoe_core::play::{OpenPuzzles, open_puzzles};
use tictactoe_core::play::{Replay, review, short_id};
use tictactoe_core::players::Advisor;
use tictactoe_core::ports::{Archive, Attempt, StoreError};
use tictactoe_core::rules::{Fate, Puzzle};
use tictactoe_core::words::{
    no_puzzles as no_puzzles_for, not_exact_words, puzzle_title, unreviewed_words,
};
use tictactoe_json::puzzle_json;
use tictactoe_terminal::run_training;

use crate::Failure;

/// Whose puzzles, and on which board (`None`: every board).
pub(crate) struct Trainee {
    pub(crate) player: PlayerName,
    pub(crate) board: Option<Geometry>,
}

/// Lists `trainee`'s open puzzles on standard output: a table, or with `json` one
/// object per line. What kept more of their moves from being puzzles is said on
/// standard error.
pub(crate) fn list(store: &dyn Archive, trainee: &Trainee, json: bool) -> Result<(), Failure> {
    let open = open_puzzles(store, &trainee.player, trainee.board).map_err(Failure::Store)?;
    let mut out = io::stdout().lock();
    if json {
        for puzzle in &open.puzzles {
            writeln!(out, "{}", puzzle_json(puzzle))?;
        }
    } else if open.puzzles.is_empty() {
        writeln!(out, "{}", no_puzzles(trainee, &open))?;
    } else {
        write_table(&mut out, store, trainee, &open.puzzles)?;
    }
    say_what_was_left_out(&trainee.player, &open);
    Ok(())
}

/// Reviews `trainee`'s ended games that have no review yet (on their board only, if
/// given) with `advisor`, keeping each review, so that playing is enough to make
/// puzzles. How far it has got is said on standard error: with `plain` a line before
/// and one after, else a bar once it takes a while (a 3x3 game takes milliseconds, a
/// long 7x7 one seconds). A kept game that cannot be played back is left unreviewed.
fn review_unreviewed(
    store: &dyn Archive,
    trainee: &Trainee,
    advisor: &mut dyn Advisor,
    plain: bool,
) -> Result<(), Failure> {
    let games = open_puzzles(store, &trainee.player, trainee.board)
        .map_err(Failure::Store)?
        .unreviewed;
    if games.is_empty() {
        return Ok(());
    }
    let count = match games.len() {
        1 => "1 game".to_string(),
        n => format!("{n} games"),
    };
    if plain {
        eprintln!(
            "Reviewing {count} of {}'s not reviewed yet, for their puzzles...",
            trainee.player
        );
    }
    let bar = ProgressBar::hidden();
    bar.set_length(games.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "Reviewing your games {bar:30} game {pos} of {len} ({elapsed})",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let showing = !plain && io::stderr().is_terminal();
    let started = Instant::now();
    let mut reviewed = 0;
    for (done, id) in games.iter().enumerate() {
        let Some(kept) = store.game(id).map_err(Failure::Store)? else {
            continue;
        };
        let Ok(replay) = Replay::of(&kept) else {
            continue;
        };
        let made = review(&replay, advisor, &mut |_, _| {
            if showing && bar.is_hidden() && started.elapsed() > Duration::from_millis(300) {
                bar.set_draw_target(ProgressDrawTarget::stderr());
            }
            bar.tick();
        });
        store.keep_review(id, &made).map_err(Failure::Store)?;
        reviewed += 1;
        bar.set_position(done as u64 + 1);
    }
    bar.finish_and_clear();
    if plain {
        eprintln!(
            "Reviewed {reviewed} of {count} in {:.1} s.",
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// Where the puzzles are put: full screen (the session's end said on the console's
/// renderer once the terminal is given back, in colour or not), or line by line on the
/// console's renderer, answers read from its input.
pub(crate) enum Front<W: Write, I: InputHandler> {
    FullScreen(ConsoleRenderer<W>, bool),
    Lines(ConsoleRenderer<W>, I),
}

/// `tictactoe train`: `trainee`'s games not reviewed yet are reviewed first with
/// `advisor` (playing is enough to get puzzles), then their open puzzles are put to
/// them on `front`, each answer kept in `store` as it is given.
pub(crate) fn train<W: Write, I: InputHandler>(
    store: &dyn Archive,
    trainee: &Trainee,
    advisor: &mut dyn Advisor,
    front: Front<W, I>,
) -> Result<ExitCode, Failure> {
    let lines = matches!(front, Front::Lines(..));
    review_unreviewed(store, trainee, advisor, lines)?;
    match front {
        Front::FullScreen(screen, colour) => {
            match train_full_screen(store, trainee, advisor, (&screen, colour))? {
                // The status a shell gives a program stopped by Ctrl-C.
                Stop::Interrupted => Ok(ExitCode::from(130)),
                _ => Ok(ExitCode::SUCCESS),
            }
        }
        Front::Lines(screen, input) => {
            train_in_lines_on(store, trainee, advisor, &screen, &input)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Puts `trainee`'s open puzzles to them line by line on `screen`, reading answers from
/// `input` and keeping each in `store` as it is given.
fn train_in_lines_on(
    store: &dyn Archive,
    trainee: &Trainee,
    advisor: &mut dyn Advisor,
    screen: &ConsoleRenderer<impl Write>,
    input: &impl InputHandler,
) -> Result<(), Failure> {
    let titled = titled(store, trainee)?;
    if titled.is_empty() {
        return Ok(());
    }
    train_in_lines(
        screen,
        input,
        advisor,
        &titled,
        &mut kept_in(store, trainee),
    )
    .map_err(Failure::Store)?;
    Ok(())
}

/// The same on the full screen; how the session went is said on `screen` once the
/// terminal is given back.
fn train_full_screen(
    store: &dyn Archive,
    trainee: &Trainee,
    advisor: &mut dyn Advisor,
    (screen, colour): (&ConsoleRenderer<impl Write>, bool),
) -> Result<Stop, Failure> {
    let titled = titled(store, trainee)?;
    if titled.is_empty() {
        return Ok(Stop::Done);
    }
    let trained = run_training(&titled, advisor, colour, &mut kept_in(store, trainee))?
        .map_err(Failure::Store)?;
    screen.show_trained(&trained);
    Ok(trained.stop)
}

/// `trainee`'s open puzzles, each titled with where it is from ("Puzzle 1 of 3: game
/// 0190ab12, move 4"); none is said so, and what kept more of their moves from being
/// puzzles is said on standard error.
fn titled(store: &dyn Archive, trainee: &Trainee) -> Result<Vec<Titled>, Failure> {
    let open = open_puzzles(store, &trainee.player, trainee.board).map_err(Failure::Store)?;
    if open.puzzles.is_empty() {
        println!("{}", no_puzzles(trainee, &open));
    }
    say_what_was_left_out(&trainee.player, &open);
    let total = open.puzzles.len();
    let mut titled = Vec::with_capacity(total);
    for (number, puzzle) in open.puzzles.into_iter().enumerate() {
        titled.push(Titled {
            title: puzzle_title(
                number + 1,
                total,
                &short_id(store, &puzzle.game, 8).map_err(Failure::Store)?,
                puzzle.ply,
                puzzle.board,
            ),
            puzzle,
        });
    }
    Ok(titled)
}

/// Keeps `trainee`'s answer to a puzzle in `store`, right or not, as it is given; what
/// becomes of the puzzle is read back from every answer kept.
fn kept_in<'a>(
    store: &'a dyn Archive,
    trainee: &'a Trainee,
) -> impl FnMut(&Puzzle, bool) -> Result<Fate, StoreError> + 'a {
    |puzzle: &Puzzle, right| {
        store.keep_attempt(&Attempt {
            player: trainee.player.clone(),
            game: puzzle.game.clone(),
            ply: puzzle.ply,
            at: SystemTime::now(),
            right,
        })?;
        let attempts = store.attempts(&trainee.player)?;
        Ok(Fate::after(
            &attempts,
            &trainee.player,
            &puzzle.game,
            puzzle.ply,
        ))
    }
}

/// "No puzzles for Ada on 3x3: no slip of theirs in a reviewed game is open." (or, with
/// no ended game of theirs, that puzzles come from playing).
fn no_puzzles(trainee: &Trainee, open: &OpenPuzzles) -> String {
    let board = match trainee.board {
        Some(board) => format!("on {}", words::shape(board.size(), board.win_length())),
        None => "on any board".to_string(),
    };
    no_puzzles_for(&trainee.player, &board, open.games > 0)
}

/// Says on standard error how many of `player`'s moves were not made puzzles because
/// their review is not exact, and how many of their games have no review (each only
/// when there are some).
fn say_what_was_left_out(player: &PlayerName, open: &OpenPuzzles) {
    if let Some(words) = not_exact_words(player, open.not_exact) {
        eprintln!("{words}");
    }
    if let Some(game) = open.unreviewed.first() {
        let how = format!(
            "`tictactoe train` without --list reviews them first (`tictactoe replay {game} \
             --review` one)"
        );
        if let Some(words) = unreviewed_words(player, &open.unreviewed, &how) {
            eprintln!("{words}");
        }
    }
}

fn write_table(
    out: &mut impl Write,
    store: &dyn Archive,
    trainee: &Trainee,
    puzzles: &[Puzzle],
) -> Result<(), Failure> {
    writeln!(
        out,
        "Open puzzles for {}: {} (train without --list puts them to you)",
        trainee.player,
        puzzles.len()
    )?;
    writeln!(
        out,
        "{:>3}  {:<10} {:>4}  {:<14} {:<4} {:<8}  Best moves",
        "#", "Game", "Move", "Board", "Side", "Had"
    )?;
    for (number, puzzle) in puzzles.iter().enumerate() {
        writeln!(
            out,
            "{:>3}  {:<10} {:>4}  {:<14} {:<4} {:<8}  {}",
            number + 1,
            short_id(store, &puzzle.game, 8).map_err(Failure::Store)?,
            puzzle.ply,
            words::shape(puzzle.board.size(), puzzle.board.win_length()),
            puzzle.to_move,
            words::value_words(Known::Exactly(puzzle.value)),
            words::cells_or(&puzzle.best_moves)
        )?;
    }
    Ok(())
}
