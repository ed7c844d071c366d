//! `tictactoe scores`: the scoreboard, and its reset, restore and import.

use std::io::{self, IsTerminal};
use std::process::ExitCode;

use tictactoe_console::{ConsoleInput, Input, InputHandler, ScoreTable};
use tictactoe_core::ports::{Archive, HistoryQuery, Imported, PageSize, Restored};
use tictactoe_json::ScoresJsonWriter;

use crate::config::{Confirm, ScoresAction, UsageError};
use crate::failure::{FAILURE, Failure, usage_exit};

/// `tictactoe scores`: the scoreboard as a table or JSON lines, after a reset, a
/// restore or an import if asked.
pub(crate) fn scores(
    store: &dyn Archive,
    json: bool,
    top: Option<u64>,
    action: ScoresAction,
) -> Result<ExitCode, Failure> {
    match action {
        ScoresAction::Show => {}
        ScoresAction::Reset(confirm) => {
            if confirm == Confirm::Ask && !reset_confirmed() {
                return Ok(ExitCode::SUCCESS);
            }
            let cleared = store.reset().map_err(Failure::Store)?;
            eprintln!(
                "Scoreboard cleared ({} players). Every game is kept: `tictactoe scores \
                 --restore` counts them again.",
                cleared.players
            );
        }
        ScoresAction::Restore => match store.restore().map_err(Failure::Store)? {
            Restored::Restored { players } => {
                eprintln!(
                    "Scoreboard restored as it was before the last reset, with every game since ({players} players)."
                )
            }
            Restored::NothingToRestore => eprintln!("There is no reset to take back."),
        },
        ScoresAction::Import(file) => match crate::import_file(store, &file)
            .map_err(Failure::Store)?
        {
            None => {
                eprintln!("tictactoe: there is no file {}", file.display());
                return Ok(ExitCode::from(FAILURE));
            }
            Some((Imported::Added { players }, source)) => {
                eprintln!("Imported {players} players from {source}; the file is kept as it was.")
            }
            Some((Imported::AlreadyImported, source)) => {
                eprintln!("{source} was imported before: nothing was added.")
            }
        },
    }
    let stdout = io::stdout().lock();
    if json {
        let mut writer = ScoresJsonWriter::new(stdout)?;
        let mut failed = None;
        store
            .standings(top, &mut |row| {
                if failed.is_none() {
                    failed = writer.row(&row).err();
                }
            })
            .map_err(Failure::Store)?;
        if let Some(error) = failed {
            return Err(error.into());
        }
        drop(writer.finish()?);
    } else {
        let mut table = ScoreTable::new(stdout, crate::colour());
        store
            .standings(top, &mut |row| table.row(&row))
            .map_err(Failure::Store)?;
        let empty = if table.is_empty() {
            why_no_scores(store)?
        } else {
            String::new()
        };
        drop(table.finish_or(&empty));
    }
    Ok(ExitCode::SUCCESS)
}

/// What an empty scoreboard means: nothing played yet, games played but none finished
/// (a game left is kept, not counted), or games counted before a reset (kept too).
/// Read from the newest page of ended games.
fn why_no_scores(store: &dyn Archive) -> Result<String, Failure> {
    let newest = HistoryQuery {
        player: None,
        before: None,
        limit: PageSize::new(u64::from(PageSize::MAX)).expect("the largest page is a page"),
    };
    let games = store.history(&newest).map_err(Failure::Store)?.games;
    let counted = |game: &&tictactoe_core::ports::GameSummary| {
        !matches!(game.ending, tictactoe_core::ports::Ending::Abandoned(_))
    };
    Ok(if games.is_empty() {
        "No games recorded yet.".to_string()
    } else if games.iter().any(|game| counted(&game)) {
        "No game counts on the scoreboard since it was cleared. Every game is kept: \
         `tictactoe scores --restore` counts them again."
            .to_string()
    } else {
        "No game has been finished yet: a game left before its end is kept, not counted."
            .to_string()
    })
}

/// Asks the person at the terminal before a reset; without one, `--yes` must say so.
fn reset_confirmed() -> bool {
    if !io::stdin().is_terminal() {
        usage_exit(UsageError {
            subcommand: "scores",
            message: "--reset clears the scoreboard: add --yes to do it without being asked"
                .to_string(),
        });
    }
    eprint!("Clear the scoreboard? Every game is kept, and --restore brings it back. [y/N]: ");
    let answer = ConsoleInput::new(io::stdin().lock()).read_line();
    let yes = matches!(&answer, Input::Line(text) if matches!(text.trim().to_lowercase().as_str(), "y" | "yes"));
    if !yes {
        eprintln!("Nothing was changed.");
    }
    yes
}
