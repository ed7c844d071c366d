//! What is read from the store alone, on its reads' lane: the scoreboard, a page of
//! the history, a player's page, a board's ratings.

use tictactoe_core::domain::{Geometry, PlayerName, Scoreboard};
use tictactoe_core::play::BoardRatings;
use tictactoe_core::ports::{
    GameId, GameSummary, HistoryPage, HistoryQuery, IdPrefix, PageSize, RatingChange,
    RatingHistoryQuery, StoreError,
};
use tictactoe_core::rules::names_of;

use super::super::port::{AfterTheEnd, GameError, PlayerPage};
use super::Games;

/// The ended games a player's page lists.
const RECENT_GAMES: u64 = 20;

/// The points of a player's rating over time their page draws, per board: the last.
const RATING_POINTS: u32 = 200;

/// The opponents a player's page lists by name (the most played; the rest counted).
const OPPONENTS_SHOWN: u32 = 50;

impl Games {
    /// The first `top` rows of `board`'s ranking and of its provisional people.
    pub(super) async fn ratings(
        &self,
        board: Geometry,
        top: u32,
    ) -> Result<BoardRatings, GameError> {
        self.0
            .store
            .read(move |store| BoardRatings::read(store, board, top))
            .await
    }

    /// The kept games whose id starts with `prefix`: two at most.
    pub(super) async fn games_starting(&self, prefix: IdPrefix) -> Result<Vec<GameId>, GameError> {
        self.0
            .store
            .read(move |store| store.games_starting(&prefix, 2))
            .await
    }

    /// What the ended game `id` did to its people's ratings, as kept with its end.
    pub(super) async fn rating_changes(&self, id: GameId) -> Result<Vec<RatingChange>, GameError> {
        self.0
            .store
            .read(move |store| {
                let ended = store.game(&id)?.map(|kept| kept.ending.is_some());
                let changes = match ended {
                    Some(true) => store.rating_changes(std::slice::from_ref(&id))?,
                    _ => Vec::new(),
                };
                Ok((ended, changes))
            })
            .await
            .and_then(|(ended, changes)| match ended {
                None => Err(GameError::NoSuchGame),
                Some(false) => Err(GameError::StillPlaying(AfterTheEnd::RatingChanges)),
                Some(true) => Ok(changes),
            })
    }

    /// The first `top` rows of the scoreboard as the store has it.
    pub(super) async fn scores(&self, top: u64) -> Result<Scoreboard, GameError> {
        self.0
            .store
            .read(move |store| store.scoreboard(Some(top)))
            .await
    }

    /// The ended games `query` asks for, newest first, as the store has them. A cursor
    /// naming no kept game is the client's mistake.
    pub(super) async fn history(&self, query: HistoryQuery) -> Result<HistoryPage, GameError> {
        self.0
            .store
            .read(move |store| store.history(&query))
            .await
            .map_err(|error| match error {
                GameError::Store(StoreError::NoSuchGame(id)) => GameError::NoSuchCursor(id),
                error => error,
            })
    }

    /// The player's results by opponent and newest games, under the name as their
    /// newest game has it. Nobody is a player before their first game ends.
    pub(super) async fn player(&self, name: PlayerName) -> Result<PlayerPage, GameError> {
        let limit = PageSize::new(RECENT_GAMES)
            .map_err(|error| GameError::Broken(format!("a player's page: {error}")))?;
        let page = self
            .0
            .store
            .read(move |store| {
                let opponents = store.opponents(&name, OPPONENTS_SHOWN)?;
                let recent = store
                    .history(&HistoryQuery {
                        player: Some(name.clone()),
                        before: None,
                        limit,
                    })?
                    .games;
                let ratings = store
                    .ratings_of(&name)?
                    .into_iter()
                    .map(|held| {
                        let points = store.rating_history(&RatingHistoryQuery {
                            player: name.clone(),
                            board: held.board,
                            last: RATING_POINTS,
                        })?;
                        Ok((held, points))
                    })
                    .collect::<Result<Vec<_>, StoreError>>()?;
                let name = recent
                    .first()
                    .and_then(|newest| kept_spelling(&name, newest))
                    .unwrap_or(name);
                Ok(PlayerPage {
                    name,
                    opponents,
                    recent,
                    ratings,
                })
            })
            .await?;
        if page.recent.is_empty() && page.opponents.total.games() == 0 {
            return Err(GameError::NoSuchPlayer(page.name));
        }
        Ok(page)
    }
}

/// The name `name` is kept under in `summary`'s game, if they played it.
fn kept_spelling(name: &PlayerName, game: &GameSummary) -> Option<PlayerName> {
    let key = name.key();
    names_of(&game.settings)
        .into_iter()
        .find(|kept| kept.key() == key)
}
