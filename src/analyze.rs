//! `tictactoe analyze` and `tictactoe simulate`: positions judged by perfect play (a
//! long proof shows how far it has come), and games between two computer levels
//! counted.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget};
use tictactoe_console::{ConsoleInput, ConsoleRenderer, Input, InputHandler, words};
use tictactoe_core::domain::{Geometry, Mark};
use tictactoe_core::play::{Analyzer, Report, Tally, analyze_all};
use tictactoe_core::players::{Advisor, MoveChooser};
use tictactoe_core::sync::lock;
use tictactoe_json::{report_json, tally_json};
use tictactoe_players::{Progress, Proven, Stage};

use crate::failure::{Failure, USAGE};

/// `tictactoe analyze`: each board of `boards` (or of standard input's lines) judged by
/// perfect play, the player `impossible` makes (given where to say how a long proof
/// is going, on a terminal).
pub(crate) fn analyze<A: MoveChooser + Advisor>(
    mut impossible: impl FnMut(Option<Box<dyn Progress>>) -> A,
    (geometry, first): (Geometry, Mark),
    json: bool,
    boards: Vec<String>,
) -> Result<ExitCode, Failure> {
    // On a terminal, a long proof shows what it has settled so far, on standard error,
    // until its answer is printed (or Ctrl-C takes it away); on a pipe, nothing.
    let showing = io::stderr().is_terminal();
    let shown: Arc<std::sync::Mutex<Option<ProgressBar>>> = Arc::default();
    if showing {
        clear_on_interrupt(Arc::clone(&shown));
    }
    let mut analyzer = Analyzer::new(geometry, first, || {
        if !showing {
            return impossible(None);
        }
        let bar = ProgressBar::hidden();
        *lock(&shown) = Some(bar.clone());
        impossible(Some(Box::new(ProofShown { bar })))
    });
    let renderer = ConsoleRenderer::new(io::stdout(), crate::colour());
    // An answer that cannot be written (nobody reads standard output any more, as
    // after `| head`) stops the analysis: the boards after it are not analysed.
    let failed: std::cell::RefCell<Option<io::Error>> = std::cell::RefCell::new(None);
    let emit = |report: &Report| {
        if let Some(bar) = lock(&shown).take() {
            bar.finish_and_clear();
        }
        if json {
            if let Err(error) = writeln!(io::stdout(), "{}", report_json(report)) {
                *failed.borrow_mut() = Some(error);
            }
        } else {
            renderer.show_report(report);
        }
    };
    let going = |_: &String| failed.borrow().is_none();
    let invalid = if boards.is_empty() {
        if io::stdin().is_terminal() {
            eprintln!(
                "Reading boards from standard input, one per line (such as xx./oo./...); \
                 Ctrl-D ends."
            );
        }
        let input = ConsoleInput::new(io::stdin().lock());
        let lines = std::iter::from_fn(|| match input.read_line() {
            Input::Line(line) => Some(line),
            Input::End => None,
        })
        .filter(|line| !line.trim().is_empty())
        .take_while(going);
        analyze_all(&mut analyzer, lines, emit)
    } else {
        analyze_all(&mut analyzer, boards.into_iter().take_while(going), emit)
    };
    if let Some(error) = failed.into_inner() {
        return Err(error.into());
    }
    Ok(if invalid > 0 {
        ExitCode::from(USAGE)
    } else {
        ExitCode::SUCCESS
    })
}

/// On Ctrl-C (SIGINT), the progress shown on standard error is taken away before the
/// program ends, with the status a shell gives a program Ctrl-C stopped (130), so that
/// no half-finished line is left on the terminal.
fn clear_on_interrupt(shown: Arc<std::sync::Mutex<Option<ProgressBar>>>) {
    let Ok(mut signals) = signal_hook::iterator::Signals::new([signal_hook::consts::SIGINT]) else {
        // Not watched: Ctrl-C ends the program as it always does.
        return;
    };
    let _ = std::thread::Builder::new()
        .name("interrupt".into())
        .spawn(move || {
            if signals.forever().next().is_some() {
                if let Some(bar) = lock(&shown).take() {
                    bar.finish_and_clear();
                }
                std::process::exit(130);
            }
        });
}

/// A long proof on standard error: how long it has run, and what it has settled.
struct ProofShown {
    bar: ProgressBar,
}

impl Progress for ProofShown {
    fn proven(&mut self, so_far: Proven) {
        if self.bar.is_hidden() {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.bar.set_style(
                indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            self.bar.enable_steady_tick(Duration::from_millis(100));
        }
        let stage = match so_far.stage {
            Stage::ShortWin => "looking for a short win",
            Stage::Holding => "proving a move that does not lose",
            Stage::LongWin => "looking for a long win",
            Stage::Rest => "settling the other moves",
        };
        self.bar.set_message(format!(
            "{} of {} moves settled ({} keep at least a draw, {} lose); {stage}…",
            so_far.holding + so_far.losing,
            so_far.moves,
            so_far.holding,
            so_far.losing,
        ));
    }
}

/// `tictactoe simulate`: `games` games between `players` (X's first), counted.
pub(crate) fn simulate(
    players: [Box<dyn MoveChooser>; 2],
    (geometry, first): (Geometry, Mark),
    games: u64,
    json: bool,
) -> Result<ExitCode, Failure> {
    let names = [players[0].name(), players[1].name()];
    // The bar stays hidden unless the run lasts long enough to wonder about.
    let bar = ProgressBar::hidden();
    bar.set_length(games);
    let bar_allowed = io::stderr().is_terminal();
    let started = Instant::now();
    let tally: Tally = tictactoe_core::play::simulate(players, geometry, first, games, |done| {
        if done.is_multiple_of(256) {
            if bar_allowed && bar.is_hidden() && started.elapsed() > Duration::from_millis(500) {
                bar.set_draw_target(ProgressDrawTarget::stderr());
            }
            bar.set_position(done);
        }
    })?;
    let seconds = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let mut out = io::stdout().lock();
    if json {
        writeln!(out, "{}", tally_json(&tally, seconds))?;
    } else {
        let [x, o] = names;
        let games = match tally.games {
            1 => "1 game".to_string(),
            n => format!("{n} games"),
        };
        let draws = match tally.draws {
            1 => "1 draw".to_string(),
            n => format!("{n} draws"),
        };
        // Under a millisecond, in milliseconds: never "0.000 s" for a run that took time.
        let took = if seconds < 0.001 {
            format!("{:.3} ms", seconds * 1000.0)
        } else {
            format!("{seconds:.3} s")
        };
        writeln!(
            out,
            "{games}, {} vs {}: X won {}, O won {}, {draws}, in {took}.",
            words::seat(x.as_str(), Mark::X),
            words::seat(o.as_str(), Mark::O),
            tally.x_wins,
            tally.o_wins
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
