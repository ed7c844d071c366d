//! `tictactoe ratings`: a board's players by rating, the computer levels' anchors among
//! them, as a table or one JSON object per row; `--rebuild` makes every rating again
//! from the kept games first.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use tictactoe_core::domain::{Geometry, PlayerName, Rating};
use tictactoe_core::play::{BoardRatings, RatingRow};
use tictactoe_core::ports::{Archive, PlayerRating, StoreError};
use tictactoe_core::words::shape;
use tictactoe_json::{player_rating_json, rating_row_json};

use crate::config::{Confirm, UsageError};
use crate::failure::{Failure, usage_exit};

/// Why `ratings` could not answer.
#[derive(Debug, thiserror::Error)]
pub enum RatingsError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Io(#[from] io::Error),
    /// `--rebuild` without `--yes` where nobody can be asked.
    #[error("--rebuild without --yes, and nobody to ask")]
    NotAsked,
}

/// What `ratings` did: listed, or was told not to rebuild.
#[derive(Debug, PartialEq, Eq)]
pub enum Listed {
    Listed,
    NothingChanged,
}

/// `tictactoe ratings`: `player`'s rating on every board if a player is named, else
/// `board`'s first `top` rows (after a rebuild, if `rebuild` says so).
pub(crate) fn run(
    store: &dyn Archive,
    (player, board, top): (Option<PlayerName>, Geometry, u32),
    json: bool,
    rebuild: Option<Confirm>,
) -> Result<ExitCode, Failure> {
    let listed = match player {
        Some(player) => player_ratings(store, &player, json),
        None => ratings(store, board, top, json, rebuild).map(|_| ()),
    };
    match listed {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(RatingsError::Store(error)) => Err(Failure::Store(error)),
        Err(RatingsError::Io(error)) => Err(error.into()),
        Err(RatingsError::NotAsked) => usage_exit(UsageError {
            subcommand: "ratings",
            message: "--rebuild makes every rating again from the kept games: add --yes to do \
                      it without being asked"
                .to_string(),
        }),
    }
}

/// Lists `board`'s first `top` rows (after a rebuild, if `rebuild` says so).
pub fn ratings(
    store: &dyn Archive,
    board: Geometry,
    top: u32,
    json: bool,
    rebuild: Option<Confirm>,
) -> Result<Listed, RatingsError> {
    if let Some(confirm) = rebuild {
        if confirm == Confirm::Ask && !rebuild_confirmed()? {
            return Ok(Listed::NothingChanged);
        }
        let rebuilt = store.rebuild_ratings()?;
        eprintln!(
            "Ratings made again from the kept games: {} games rated, {} ratings.",
            rebuilt.games, rebuilt.ratings
        );
        if rebuilt.unreadable > 0 {
            eprintln!(
                "{} ended games kept by an earlier version under rules since tightened (two \
                 players whose names are now one player's) rate nobody.",
                rebuilt.unreadable
            );
        }
    }
    let listed = BoardRatings::read(store, board, top)?;
    let mut out = io::stdout().lock();
    if json {
        for row in listed.ranked.iter().chain(&listed.provisional) {
            writeln!(out, "{}", rating_row_json(row))?;
        }
    } else {
        write_table(&mut out, &listed)?;
    }
    Ok(Listed::Listed)
}

/// Lists `player`'s rating on each board they were rated on: a table, or one JSON
/// object per board.
pub fn player_ratings(
    store: &dyn Archive,
    player: &PlayerName,
    json: bool,
) -> Result<(), RatingsError> {
    let ratings = store.ratings_of(player)?;
    let mut out = io::stdout().lock();
    if json {
        for rating in &ratings {
            writeln!(out, "{}", player_rating_json(rating))?;
        }
        return Ok(());
    }
    let Some(first) = ratings.first() else {
        writeln!(
            out,
            "No rating for {player} yet: every game a person plays to its end rates them, \
             except casual games."
        )?;
        return Ok(());
    };
    writeln!(
        out,
        "Ratings of {}, one per board (? provisional)",
        first.name
    )?;
    writeln!(
        out,
        "{:<14} {:>7} {:>5} {:>6}",
        "Board", "Rating", "±", "Games"
    )?;
    for PlayerRating {
        board,
        rating,
        games,
        ..
    } in &ratings
    {
        writeln!(
            out,
            "{:<14} {:>7} {:>5} {:>6}",
            shape(board.size(), board.win_length()),
            rating.shown(),
            rating.deviation().round() as i64,
            games
        )?;
    }
    Ok(())
}

fn write_table(out: &mut impl Write, listed: &BoardRatings) -> io::Result<()> {
    writeln!(
        out,
        "Ratings on {0} x {0}, {1} in a row (the levels are fixed anchors, their games the \
         calibration's)",
        listed.board.size(),
        listed.board.win_length()
    )?;
    writeln!(
        out,
        "{:>3}  {:<24} {:>7} {:>5} {:>6}",
        "#", "Player", "Rating", "±", "Games"
    )?;
    for (rank, row) in listed.ranked.iter().enumerate() {
        writeln!(out, "{:>3}  {}", rank + 1, row_words(row))?;
    }
    if listed.ranked.iter().all(|row| row.anchor.is_some()) && listed.provisional.is_empty() {
        writeln!(out, "Nobody is rated on this board yet.")?;
    }
    if !listed.provisional.is_empty() {
        writeln!(
            out,
            "\nProvisional (?), not ranked yet: too few games; a rating settles once its ± \
             is {} or less",
            Rating::PROVISIONAL_ABOVE
        )?;
        writeln!(
            out,
            "     {:<24} {:>7} {:>5} {:>6}",
            "Player", "Rating", "±", "Games"
        )?;
        for row in &listed.provisional {
            writeln!(out, "     {}", row_words(row))?;
        }
    }
    Ok(())
}

/// One row's name, rating (`1,512`, `1,350?`), ± and games, in the table's columns.
fn row_words(row: &RatingRow) -> String {
    format!(
        "{:<24} {:>7} {:>5} {:>6}{}",
        row.name.as_str(),
        row.rating.shown(),
        row.rating.deviation().round() as i64,
        row.games,
        if row.anchor.is_some() { "  anchor" } else { "" }
    )
}

/// Asks on the terminal whether to rebuild; refused where nobody can be asked.
fn rebuild_confirmed() -> Result<bool, RatingsError> {
    if !io::stdin().is_terminal() {
        return Err(RatingsError::NotAsked);
    }
    eprint!("Make every rating again from the kept games? [y/N]: ");
    let mut answer = String::new();
    io::stdin().read_line(&mut answer)?;
    let yes = matches!(answer.trim().to_lowercase().as_str(), "y" | "yes");
    if !yes {
        eprintln!("Nothing was changed.");
    }
    Ok(yes)
}
