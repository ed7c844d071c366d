//! `tictactoe history` and `tictactoe replay`: the ended games a page at a time, and
//! one played back (full screen, line by line or as JSON), with its review by perfect
//! play if asked (kept once computed).

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget};
use tictactoe_console::words;
use tictactoe_console::{GameView, HistoryTable, Notice};
use tictactoe_core::domain::Mark;
use tictactoe_core::play::{FindError, GameRef, Replay, Review, find_game, review, short_id};
use tictactoe_core::players::Advisor;
use tictactoe_core::ports::{Archive, GameId, HistoryQuery, IdPrefix, StoreError};
use tictactoe_json::{move_review_json, rated_summary_json, replay_json};
use tictactoe_terminal::{Ending, run_replay};

use crate::cli;
use crate::failure::{FAILURE, Failure};

/// The server the games are on, by the origin people reach it by
/// (`https://play.example`): each game is named by its address there.
pub(crate) type Server<'a> = Option<&'a str>;

/// How a game is named to a person: the start of its id that names it alone, or, when
/// the server the games are on is known, its web address there (which that start
/// opens).
fn game_named(store: &dyn Archive, id: &GameId, server: Server) -> Result<String, Failure> {
    let short = short_id(store, id, 8).map_err(Failure::Store)?;
    Ok(match server {
        Some(origin) => format!("{origin}/games/{short}"),
        None => short,
    })
}

/// `tictactoe history`: a page of the ended games `asked` for, newest first, older
/// than the game `before` names; each named by its web address on `server`, if given.
pub(crate) fn history(
    store: &dyn Archive,
    asked: HistoryQuery,
    before: Option<IdPrefix>,
    json: bool,
    server: Server,
) -> Result<ExitCode, Failure> {
    let before = match before {
        None => None,
        Some(prefix) => match find_game(store, &GameRef::Prefix(prefix)) {
            Ok(id) => Some(id),
            Err(error) => return found_nothing(error),
        },
    };
    let query = HistoryQuery { before, ..asked };
    let HistoryQuery { player, limit, .. } = query.clone();
    let page = store.history(&query).map_err(Failure::Store)?;
    let mut out = io::stdout().lock();
    let ids: Vec<GameId> = page.games.iter().map(|game| game.id.clone()).collect();
    let changes = store.rating_changes(&ids).map_err(Failure::Store)?;
    let rated_in = |game: &tictactoe_core::ports::GameSummary| -> Vec<_> {
        changes
            .iter()
            .filter(|change| change.game == game.id)
            .cloned()
            .collect()
    };
    if json {
        for game in &page.games {
            let rated = rated_in(game);
            let casual = store
                .game(&game.id)
                .map_err(Failure::Store)?
                .is_some_and(|kept| kept.game.casual);
            writeln!(out, "{}", rated_summary_json(game, casual, &rated))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut table = HistoryTable::new(out, crate::colour());
    for game in &page.games {
        let rated = rated_in(game);
        table.rated_row(&game_named(store, &game.id, server)?, game, &rated);
    }
    let more = match &page.next {
        Some(next) => Some(format!(
            "tictactoe history{}{} --before {}",
            player.as_ref().map_or(String::new(), |name| format!(
                " --player {}",
                shell_quoted(name.as_str())
            )),
            if u64::from(limit.get()) == cli::HISTORY_PAGE {
                String::new()
            } else {
                format!(" --limit {}", limit.get())
            },
            short_id(store, next, 8).map_err(Failure::Store)?
        )),
        None => None,
    };
    let empty = match &player {
        Some(name) => format!("No ended games of {name} yet."),
        None => "No games have ended yet.".to_string(),
    };
    drop(table.finish(&empty, more.as_deref()));
    Ok(ExitCode::SUCCESS)
}

/// `text` as a shell reads it back: as it is when it is plain, in single quotes
/// otherwise.
fn shell_quoted(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// A game that could not be found: said on standard error, with the failure status.
pub(crate) fn found_nothing(error: FindError) -> Result<ExitCode, Failure> {
    match error {
        FindError::Store(error) => Err(Failure::Store(error)),
        FindError::NoGames => {
            eprintln!("tictactoe: no game has ended yet: play one first");
            Ok(ExitCode::from(FAILURE))
        }
        FindError::NotFound(prefix) => {
            eprintln!(
                "tictactoe: no game's id starts with {prefix} (`tictactoe history` lists them)"
            );
            Ok(ExitCode::from(FAILURE))
        }
        FindError::Ambiguous { prefix, ids, more } => {
            eprintln!("tictactoe: more than one game's id starts with {prefix}:");
            for id in ids {
                eprintln!("  {id}");
            }
            match more {
                Some(0) => {}
                Some(1) => eprintln!("  and 1 more"),
                Some(more) => eprintln!("  and {more} more"),
                None => eprintln!("  and more"),
            }
            eprintln!("Give more of the id.");
            Ok(ExitCode::from(FAILURE))
        }
    }
}

/// How `replay` shows its game.
pub(crate) enum Shown {
    Json,
    FullScreen,
    Lines,
}

/// `tictactoe replay GAME [--review]`: a kept game of `store` (named `database` for
/// people) played back; a review not kept yet is made with `advisor`'s perfect play.
pub(crate) fn replay(
    (store, database): (&dyn Archive, String),
    advisor: impl FnOnce() -> Box<dyn Advisor>,
    (which, server): (&GameRef, Server),
    review: bool,
    shown_as: Shown,
) -> Result<ExitCode, Failure> {
    let id = match find_game(store, which) {
        Ok(id) => id,
        Err(error) => return found_nothing(error),
    };
    let Some(kept) = store.game(&id).map_err(Failure::Store)? else {
        return found_nothing(FindError::NotFound(
            IdPrefix::parse(id.as_str()).expect("an id is a prefix of itself"),
        ));
    };
    let replay = Replay::of(&kept).map_err(|error| {
        Failure::Store(StoreError::Unreadable {
            database,
            detail: format!("game {id} cannot be played back: {error}"),
        })
    })?;
    let review = if review {
        Some(reviewed(store, &id, &replay, advisor())?)
    } else {
        None
    };
    let geometry = replay.settings().geometry();
    let title = || -> Result<String, Failure> {
        Ok(format!(
            "Game {}, {} (UTC), {}",
            game_named(store, &id, server)?,
            words::when(kept.started),
            words::shape(geometry.size(), geometry.win_length())
        ))
    };
    match shown_as {
        Shown::Json => {
            let mut out = io::stdout().lock();
            match &review {
                Some(review) => {
                    for reviewed in &review.moves {
                        writeln!(out, "{}", move_review_json(reviewed))?;
                    }
                }
                None => {
                    for line in replay_json(&replay) {
                        writeln!(out, "{line}")?;
                    }
                }
            }
        }
        Shown::Lines => {
            let screen = crate::console_renderer();
            screen.show_replay(&title()?, &replay, review.as_ref());
            // What the game did to its people's ratings, as its result screen said it.
            let changes = store
                .rating_changes(std::slice::from_ref(&id))
                .map_err(Failure::Store)?;
            if !changes.is_empty() {
                screen.show_notice(&Notice::Rated { changes });
            }
        }
        Shown::FullScreen => {
            let [x, o] = tictactoe_core::rules::names_of(replay.settings());
            let title = format!(
                "{} · {} vs {}",
                title()?,
                words::seat(x.as_str(), Mark::X),
                words::seat(o.as_str(), Mark::O)
            );
            if run_replay(title, &replay, review.as_ref(), crate::colour())? == Ending::Interrupted
            {
                return Ok(ExitCode::from(130));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The review of `replay`: the one kept, or one computed now with `advisor` (a bar on
/// standard error shows how far it has got, on a terminal, once it takes a while) and
/// kept if the game has ended. A review that cannot be kept is still shown.
fn reviewed(
    store: &dyn Archive,
    id: &GameId,
    replay: &Replay,
    mut advisor: Box<dyn Advisor>,
) -> Result<Review, Failure> {
    if let Some(kept) = store.review(id).map_err(Failure::Store)? {
        return Ok(kept);
    }
    let bar = ProgressBar::hidden();
    bar.set_length(replay.moves().len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "Reviewing {bar:30} move {pos} of {len} ({elapsed})",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let showing = io::stderr().is_terminal();
    let started = Instant::now();
    let review = review(replay, &mut *advisor, &mut |done, _| {
        if showing && bar.is_hidden() && started.elapsed() > Duration::from_millis(300) {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    if replay.ending().is_some()
        && let Err(error) = store.keep_review(id, &review)
    {
        eprintln!("tictactoe: warning: the review could not be kept: {error}");
    }
    Ok(review)
}
