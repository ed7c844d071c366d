//! Training on one's own slips: a player's open puzzles, read on the store's lane, and
//! an answer judged where `thinking` says (perfect play may take the server's whole
//! thinking time on a big board) and kept before it is answered. What a puzzle is,
//! what is right and when one retires are the core's (`ports::training`).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Instant, SystemTime};

use tictactoe_core::domain::{Geometry, PlayerName};
use tictactoe_core::play::short_id;
use tictactoe_core::play::{open_puzzle, open_puzzles};
use tictactoe_core::ports::Attempt;
use tictactoe_core::rules::{Fate, judge};
use tictactoe_core::sync::lock;

use super::super::budget::{Kind, Payer};
use super::super::cut::Cut;
use super::super::port::{GameError, PuzzleAnswer, PuzzleAsked, Training};
use super::super::thinking::Lane;
use super::Games;
use super::requests::cell_on;

/// The digits of a game's id a puzzle's title shows at least (as `tictactoe train`).
const SHORT_ID: usize = 8;

impl Games {
    /// `name`'s open puzzles, on `board` only if given, each with its game's short id.
    pub(super) async fn puzzles(
        &self,
        name: PlayerName,
        board: Option<Geometry>,
    ) -> Result<Training, GameError> {
        self.0
            .store
            .read(move |store| {
                let open = open_puzzles(store, &name, board)?;
                let short_ids = open
                    .puzzles
                    .iter()
                    .map(|puzzle| short_id(store, &puzzle.game, SHORT_ID))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Training { open, short_ids })
            })
            .await
    }

    /// The player's answer `cell` to their open puzzle `asked`: judged by the server's
    /// advisor where `thinking` says, then (right or wrong) kept as an attempt before
    /// it is answered; an answer not proven in time is answered and not kept.
    pub(super) async fn answer_puzzle(
        &self,
        asked: PuzzleAsked,
        cell: u64,
        payer: Payer,
    ) -> Result<PuzzleAnswer, GameError> {
        let PuzzleAsked {
            player: name,
            game,
            ply,
        } = asked;
        let (player, sought) = (name.clone(), game.clone());
        // The one puzzle asked for, in three reads, not the player's whole list.
        let puzzle = self
            .0
            .store
            .read(move |store| open_puzzle(store, &player, &sought, ply))
            .await?
            .ok_or(GameError::NoSuchPuzzle { game, ply })?;
        let answer = cell_on(puzzle.board, cell)?;
        let mut spending = self.admit(payer, Kind::Answer)?;
        let stop = Arc::new(AtomicBool::new(false));
        let mut advisor = lock(&self.0.computers).advisor_stopping_when(Arc::clone(&stop));
        // Dropped with this future (the client gone) before the answer: thinking stops.
        let cut = Cut::arm(&stop);
        let judged = puzzle.clone();
        let (answered, spent) = self
            .0
            .thinking
            .run(Lane::Advice, puzzle.board, move || {
                let started = Instant::now();
                (judge(&judged, answer, advisor.as_mut()), started.elapsed())
            })
            .await?;
        cut.done();
        spending.spent(spent);
        drop(spending);
        let answered = answered.map_err(GameError::NotAnAnswer)?;
        let fate = match answered.kept_as() {
            Some(right) => {
                let attempt = Attempt {
                    player: name,
                    game: puzzle.game.clone(),
                    ply,
                    at: SystemTime::now(),
                    right,
                };
                let fate = self
                    .0
                    .store
                    .read(move |store| {
                        store.keep_attempt(&attempt)?;
                        let attempts = store.attempts(&attempt.player)?;
                        Ok(Fate::after(
                            &attempts,
                            &attempt.player,
                            &attempt.game,
                            attempt.ply,
                        ))
                    })
                    .await?;
                Some(fate)
            }
            None => None,
        };
        Ok(PuzzleAnswer {
            puzzle,
            cell: answer,
            answered,
            fate,
        })
    }
}
