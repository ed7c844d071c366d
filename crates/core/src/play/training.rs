//! Training's use cases: a player's open puzzles ([`open_puzzles`]), or one of them
//! ([`open_puzzle`]), read from a store by the rules of `rules::training`.

use crate::domain::{Geometry, PlayerName};
use crate::players::Level;
use crate::ports::{
    GameHistory, GameId, GameStore, GameSummary, HistoryQuery, PageSize, ReviewStore, StoreError,
    TrainingStore,
};
use crate::rules::{Puzzle, puzzles_in};

/// A player's open puzzles, and what kept more of their moves from being puzzles.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OpenPuzzles {
    /// Newest game first, each game's in the order played.
    pub puzzles: Vec<Puzzle>,
    /// The player's moves whose review is not exact (no puzzle is made of them).
    pub not_exact: u64,
    /// The player's ended games with no review kept.
    pub unreviewed: Vec<GameId>,
    /// How many of the player's ended games were looked at (on the board asked for).
    pub games: usize,
}

/// How many of a player's ended games, the most recent, make their puzzles: a bound on
/// what one question reads (each game read with its review), whoever asks it.
pub const PUZZLE_GAMES: usize = 500;

/// `player`'s ended games (names compared as the scoreboard compares them), newest
/// first, at most `most`: page after page of their history.
pub fn ended_games(
    history: &(impl GameHistory + ?Sized),
    player: &PlayerName,
    most: usize,
) -> Result<Vec<GameSummary>, StoreError> {
    let mut games = Vec::new();
    let mut query = HistoryQuery {
        player: Some(player.clone()),
        before: None,
        limit: PageSize::LARGEST,
    };
    while games.len() < most {
        let page = history.history(&query)?;
        games.extend(page.games);
        match page.next {
            Some(next) => query.before = Some(next),
            None => break,
        }
    }
    games.truncate(most);
    Ok(games)
}

/// `player`'s open puzzle of `game` at `ply`, if there is one (not retired by their
/// attempts): what answering one puzzle needs, in three reads whatever the player's
/// history (the game, its review, their attempts), not the whole list.
pub fn open_puzzle<S>(
    store: &S,
    player: &PlayerName,
    game: &GameId,
    ply: u32,
) -> Result<Option<Puzzle>, StoreError>
where
    S: GameStore + ReviewStore + TrainingStore + ?Sized,
{
    if is_a_level(player) {
        return Ok(None);
    }
    let Some(review) = store.review(game)? else {
        return Ok(None);
    };
    let Some(kept) = store.game(game)? else {
        return Ok(None);
    };
    let attempts = store.attempts(player)?;
    Ok(puzzles_in(player, &kept, &review)?
        .puzzles
        .into_iter()
        .find(|puzzle| puzzle.ply == ply && !puzzle.retired(player, &attempts)))
}

/// Whether `player` is a computer level's name: a computer makes no slips to learn
/// from, and it has played everyone.
fn is_a_level(player: &PlayerName) -> bool {
    Level::ALL
        .iter()
        .any(|level| PlayerName::computer(&level.to_string()).key() == player.key())
}

/// `player`'s open puzzles in `store`, on `board` only if given: from each of their
/// [`PUZZLE_GAMES`] most recent ended games ([`ended_games`]) that has a review kept
/// ([`puzzles_in`]), less those retired by their attempts ([`retired`](crate::rules::retired)). A computer
/// has none: it makes no slips to learn from, and it has played everyone.
pub fn open_puzzles<S>(
    store: &S,
    player: &PlayerName,
    board: Option<Geometry>,
) -> Result<OpenPuzzles, StoreError>
where
    S: GameStore + GameHistory + ReviewStore + TrainingStore + ?Sized,
{
    let mut open = OpenPuzzles::default();
    if is_a_level(player) {
        return Ok(open);
    }
    let attempts = store.attempts(player)?;
    let games = ended_games(store, player, PUZZLE_GAMES)?;
    for summary in games
        .iter()
        .filter(|summary| board.is_none_or(|board| board == summary.settings.geometry()))
    {
        open.games += 1;
        let id = &summary.id;
        let Some(review) = store.review(id)? else {
            open.unreviewed.push(id.clone());
            continue;
        };
        let game = store
            .game(id)?
            .ok_or_else(|| StoreError::NoSuchGame(id.clone()))?;
        let found = puzzles_in(player, &game, &review)?;
        open.not_exact += found.not_exact;
        open.puzzles.extend(
            found
                .puzzles
                .into_iter()
                .filter(|puzzle| !puzzle.retired(player, &attempts)),
        );
    }
    Ok(open)
}

#[cfg(test)]
mod tests {
    use std::time::UNIX_EPOCH;

    use super::*;
    use crate::domain::Mark;
    use crate::fixtures::{person, settings};
    use crate::memory::MemoryStore;
    use crate::play::Review;
    use crate::players::PlayerSpec;
    use crate::ports::{Ending, HistoryPage, MockGameHistory, StoredGame, Write};
    use rstest::rstest;

    use crate::domain::Outcome;
    use crate::rules::training::tests::{
        DAY, ada_beats_bob, attempt, bob_slips_at_ply_2, name, stored,
    };

    fn store_with(games: &[(StoredGame, Option<Review>)]) -> MemoryStore {
        let store = MemoryStore::new();
        for (game, review) in games {
            let mut writes = vec![Write::Begin(game.game.clone())];
            writes.extend(game.steps.iter().map(|&step| Write::Step {
                game: game.game.id.clone(),
                step,
            }));
            writes.push(Write::End {
                game: game.game.id.clone(),
                ending: game.ending.expect("an ended game"),
            });
            store.write(&writes).unwrap();
            if let Some(review) = review {
                store.keep_review(&game.game.id, review).unwrap();
            }
        }
        store
    }

    #[test]
    fn the_open_puzzles_are_those_of_the_players_reviewed_games_not_retired() {
        // Arrange: games 1 and 2 each make Bob a puzzle; game 2's has retired; game 3
        // has no review.
        let (one, two, three) = (ada_beats_bob(1), ada_beats_bob(2), ada_beats_bob(3));
        let (review_one, review_two) = (bob_slips_at_ply_2(&one), bob_slips_at_ply_2(&two));
        let store = store_with(&[
            (one, Some(review_one)),
            (two, Some(review_two)),
            (three, None),
        ]);
        for seconds in [0, DAY] {
            let mut solved = attempt(2, 2, seconds, true);
            solved.player = name("Bob");
            store.keep_attempt(&solved).unwrap();
        }

        // Act
        let open = open_puzzles(&store, &name("bob"), None).unwrap();

        // Assert
        let games: Vec<&GameId> = open.puzzles.iter().map(|puzzle| &puzzle.game).collect();
        assert_eq!(games, [&GameId::from_bits(1)]);
        assert_eq!(open.unreviewed, [GameId::from_bits(3)]);
    }

    #[test]
    fn one_open_puzzle_is_found_by_its_game_and_move() {
        let game = ada_beats_bob(1);
        let review = bob_slips_at_ply_2(&game);
        let store = store_with(&[(game, Some(review))]);

        let found = open_puzzle(&store, &name("Bob"), &GameId::from_bits(1), 2).unwrap();

        assert_eq!(
            found.map(|puzzle| (puzzle.game, puzzle.ply)),
            Some((GameId::from_bits(1), 2))
        );
    }

    #[rstest]
    #[case::a_move_that_made_no_puzzle(1, 4, false)]
    #[case::a_game_not_kept(2, 2, false)]
    #[case::a_retired_puzzle(1, 2, true)]
    fn no_open_puzzle_is_found_where_there_is_none(
        #[case] game: u128,
        #[case] ply: u32,
        #[case] retired: bool,
    ) {
        let kept = ada_beats_bob(1);
        let review = bob_slips_at_ply_2(&kept);
        let store = store_with(&[(kept, Some(review))]);
        if retired {
            for seconds in [0, DAY] {
                let mut solved = attempt(1, 2, seconds, true);
                solved.player = name("Bob");
                store.keep_attempt(&solved).unwrap();
            }
        }

        let found = open_puzzle(&store, &name("Bob"), &GameId::from_bits(game), ply).unwrap();

        assert_eq!(found, None);
    }

    #[test]
    fn the_open_puzzles_on_one_board_leave_the_other_boards_out() {
        let game = ada_beats_bob(1);
        let review = bob_slips_at_ply_2(&game);
        let store = store_with(&[(game, Some(review))]);

        let open = open_puzzles(&store, &name("Bob"), Some(Geometry::new(4, 3).unwrap()));

        assert_eq!(open, Ok(OpenPuzzles::default()));
    }

    /// Lets `history` answer a query for Ada's games before `before` with a page of
    /// game `n`, whose next page starts before `next`.
    fn serves_page(
        history: &mut MockGameHistory,
        before: Option<u128>,
        n: u128,
        next: Option<u128>,
    ) {
        let page = HistoryPage {
            games: vec![GameSummary {
                id: GameId::from_bits(n),
                settings: settings(person("Ada"), PlayerSpec::Computer(Level::Easy)),
                started: UNIX_EPOCH,
                ended: UNIX_EPOCH,
                ending: Ending::Resigned(Mark::X),
                moves: 0,
            }],
            next: next.map(GameId::from_bits),
        };
        history
            .expect_history()
            .withf(move |query| {
                query.before == before.map(GameId::from_bits) && query.player == Some(name("Ada"))
            })
            .returning(move |_| Ok(page.clone()));
    }

    #[test]
    fn every_page_of_the_players_history_is_read() {
        // Arrange: a history of two pages, one game on each.
        let mut history = MockGameHistory::new();
        serves_page(&mut history, None, 2, Some(2));
        serves_page(&mut history, Some(2), 1, None);

        // Act
        let games = ended_games(&history, &name("Ada"), PUZZLE_GAMES).unwrap();

        // Assert
        let ids: Vec<GameId> = games.into_iter().map(|game| game.id).collect();
        assert_eq!(ids, [GameId::from_bits(2), GameId::from_bits(1)]);
    }

    #[test]
    fn no_more_pages_are_read_than_the_games_asked_for() {
        // Arrange: a first page of one game, and more pages after it.
        let mut history = MockGameHistory::new();
        serves_page(&mut history, None, 2, Some(2));

        // Act: one game asked for; the mock answers only the first page (a second read
        // would fail it).
        let games = ended_games(&history, &name("Ada"), 1).unwrap();

        // Assert
        let ids: Vec<GameId> = games.into_iter().map(|game| game.id).collect();
        assert_eq!(ids, [GameId::from_bits(2)]);
    }

    #[test]
    fn a_computer_is_given_no_puzzles_even_from_its_own_slips() {
        // Arrange: Ada beats Easy (O), whose first move threw the draw away, reviewed;
        // and a game of Easy's with no review.
        let slipped = stored(
            1,
            settings(person("Ada"), PlayerSpec::Computer(Level::Easy)),
            &[5, 2, 1, 3, 9],
            Ending::Finished(Outcome::Won(Mark::X)),
        );
        let review = bob_slips_at_ply_2(&slipped);
        let mut unreviewed = slipped.clone();
        unreviewed.game.id = GameId::from_bits(2);
        let store = store_with(&[(slipped, Some(review)), (unreviewed, None)]);
        let easy = PlayerName::computer("Easy");

        // Act
        let open = open_puzzles(&store, &easy, None).unwrap();

        // Assert: nothing, and nothing counted (the games were not read).
        assert!(open.puzzles.is_empty());
        assert_eq!((open.not_exact, open.unreviewed.len()), (0, 0));
    }
}
