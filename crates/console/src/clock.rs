//! A game's clock at one keyboard (the line console's, the full screen's): the core's
//! [`GameClock`] kept beside the [`Match`], told the time by whoever holds it. The
//! keeper reads no time itself: the front end reads its [`WallClock`] and passes the
//! instant, so every rule here is tested with fixed times.
//!
//! The match does not know about clocks: the keeper follows it by the moves on its board
//! (one more: a move, charged; fewer: moves taken back), and asks it to end the game
//! when the clock says a side is overdue ([`Match::overdue`]).

use std::time::{Duration, SystemTime};

use tictactoe_core::domain::{GameClock, GameState};
use tictactoe_core::play::{Event, Match, Recorder};
use tictactoe_core::ports::{GameId, GameStore, StoreError, Write};

/// Where the time comes from: the one place a front end reads the real time for a game's
/// clock, so that tests can give fixed instants.
#[cfg_attr(test, mockall::automock)]
pub trait WallClock {
    fn now(&self) -> SystemTime;
}

/// The system's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl WallClock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }
}

/// Each side's time as a front end shows it at some instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeLeft {
    /// X's and O's time left.
    pub left: [Duration; 2],
    /// Before both sides have moved, the clocks do not run: how long the side to move
    /// has left to make its first move.
    pub first_move: Option<Duration>,
}

/// A game's clock, kept beside its match (or nothing, for a game without one: then every
/// method does nothing).
pub struct TimeKeeper<'a> {
    clock: Option<GameClock>,
    /// The moves on the board when the keeper last looked.
    seen: usize,
    /// Where the game is kept: the clock's reading is written there after each move
    /// (so a game whose program stopped is judged by the time it had), and before the
    /// clock ends the game.
    kept_in: Option<(&'a dyn GameStore, GameId)>,
    /// A reading the store did not keep, said by the next judging.
    unkept: Option<StoreError>,
}

impl<'a> TimeKeeper<'a> {
    /// A game without a clock.
    pub fn untimed() -> Self {
        TimeKeeper {
            clock: None,
            seen: 0,
            kept_in: None,
            unkept: None,
        }
    }

    /// A game played on `clock`, as it began (no move made yet).
    pub fn new(clock: Option<GameClock>) -> Self {
        TimeKeeper {
            clock,
            ..TimeKeeper::untimed()
        }
    }

    /// The game is kept in `store` as `game`: the clock's reading is kept there after
    /// each move, and when the clock ends it, first ([`Write::Clock`]; a store keeps no
    /// clock after the game's end).
    pub fn keeping_in(self, store: &'a dyn GameStore, game: GameId) -> Self {
        TimeKeeper {
            kept_in: Some((store, game)),
            ..self
        }
    }

    /// The clock as it stands (after the last move followed).
    pub fn clock(&self) -> Option<&GameClock> {
        self.clock.as_ref()
    }

    /// Whether the time matters now: there is a clock and `game` is still played. A
    /// front end that can wake up by itself (the full screen) ticks while it does.
    pub fn ticking<R: Recorder>(&self, game: &Match<R>) -> bool {
        self.clock.is_some() && game.end().is_none()
    }

    /// Each side's time at `now`, for a game played on a clock.
    pub fn time_left(&self, now: SystemTime) -> Option<TimeLeft> {
        let clock = self.clock.as_ref()?;
        Some(TimeLeft {
            left: clock.left_at(now),
            first_move: (!clock.running())
                .then(|| clock.deadline().duration_since(now).unwrap_or_default()),
        })
    }

    /// Charges what happened on `game`'s board since the keeper last looked, at `at`: a
    /// move made (the mover's time charged, its increment added), or moves taken back
    /// (the time since the turn began charged to whoever's turn it was).
    pub fn follow<R: Recorder>(&mut self, game: &Match<R>, at: SystemTime) {
        let moves = game.game().moves().len();
        if let Some(clock) = &mut self.clock {
            if moves > self.seen {
                for _ in self.seen..moves {
                    clock.moved(at);
                }
            } else if moves < self.seen {
                clock.taken_back(game.game().to_move(), at);
            }
            let changed = moves != self.seen && game.end().is_none();
            if let (true, Some((store, id))) = (changed, &self.kept_in) {
                let write = Write::Clock {
                    game: id.clone(),
                    after: game.steps_taken(),
                    clock: *clock,
                };
                if let Err(error) = store.write(&[write]) {
                    self.unkept.get_or_insert(error);
                }
            }
        }
        self.seen = moves;
    }

    /// Ends `game` if the clock says a side is overdue at `now`: its time ran out (it
    /// loses, or draws if the other side could no longer complete a line), or it did not
    /// make its first move in time (the game is aborted). The events of the ending, or
    /// none when the game goes on (or is over already).
    pub fn judge<R: Recorder>(&mut self, game: &mut Match<R>, now: SystemTime) -> Vec<Event> {
        let mut events: Vec<Event> = self.unkept.take().map(Event::NotKept).into_iter().collect();
        events.extend(self.judged(game, now));
        events
    }

    fn judged<R: Recorder>(&mut self, game: &mut Match<R>, now: SystemTime) -> Vec<Event> {
        let Some(clock) = &self.clock else {
            return Vec::new();
        };
        if game.end().is_some() {
            return Vec::new();
        }
        let Some(overdue) = clock.overdue(now) else {
            return Vec::new();
        };
        let reading = self.reading_at(clock.deadline());
        self.clock = Some(reading);
        let mut not_kept = None;
        if let Some((store, id)) = &self.kept_in {
            let write = Write::Clock {
                game: id.clone(),
                after: game.steps_taken(),
                clock: reading,
            };
            not_kept = store.write(&[write]).err();
        }
        // The clock names the side whose turn it is: the match agrees, or the game
        // goes on (nothing this keeper followed would make them disagree).
        let mut events = game.overdue(overdue).unwrap_or_default();
        events.extend(not_kept.map(Event::NotKept));
        events
    }

    /// The clock as it reads when its side's time ran out at `deadline`: that side's
    /// time all spent. Before the clocks run there is nothing to charge.
    fn reading_at(&self, deadline: SystemTime) -> GameClock {
        let mut clock = self.clock.expect("read only for a game on a clock");
        if clock.running() {
            // Charged as moves taken back are: the turn's time, no increment.
            clock.taken_back(clock.turn(), deadline);
        }
        clock
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictactoe_core::domain::{FIRST_MOVE_WITHIN, Geometry, Mark, Position, TimeControl};
    use tictactoe_core::fixtures::{ada_and_bob, ending_once};
    use tictactoe_core::memory::MemoryStore;
    use tictactoe_core::play::{End, Unrecorded};
    use tictactoe_core::ports::Ending;

    fn at(seconds: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(seconds)
    }

    fn cell(number: usize) -> Position {
        Geometry::classic().position(number - 1).unwrap()
    }

    /// Three minutes each and two seconds a move, X first, begun at 0 s.
    fn three_plus_two() -> TimeKeeper<'static> {
        let control = "3+2".parse::<TimeControl>().unwrap();
        TimeKeeper::new(Some(GameClock::start(
            control,
            FIRST_MOVE_WITHIN,
            Mark::X,
            at(0),
        )))
    }

    /// `game` after each of `moves` is played at the second given, the keeper following.
    fn played<R: Recorder>(keeper: &mut TimeKeeper, game: &mut Match<R>, moves: &[(usize, u64)]) {
        for &(number, second) in moves {
            let mark = game.game().to_move();
            game.play(mark, cell(number)).unwrap();
            keeper.follow(game, at(second));
        }
    }

    #[test]
    fn before_both_sides_move_the_time_left_says_how_long_the_first_move_may_take() {
        let keeper = three_plus_two();

        let time = keeper.time_left(at(10)).unwrap();

        assert_eq!(time.left, [Duration::from_secs(180); 2]);
        assert_eq!(time.first_move, Some(Duration::from_secs(20)));
    }

    #[test]
    fn each_move_followed_charges_the_mover_and_adds_its_increment() {
        let (mut keeper, mut game) = (three_plus_two(), ada_and_bob(Unrecorded));

        played(&mut keeper, &mut game, &[(1, 1), (5, 2), (9, 12)]);

        let time = keeper.time_left(at(12)).unwrap();
        assert_eq!(
            time.left,
            [Duration::from_secs(172), Duration::from_secs(180)]
        );
        assert_eq!(time.first_move, None);
    }

    #[test]
    fn a_game_without_a_clock_is_never_judged_and_shows_no_time() {
        let (mut keeper, mut game) = (TimeKeeper::untimed(), ada_and_bob(Unrecorded));

        let events = keeper.judge(&mut game, at(1_000_000));

        assert!(events.is_empty());
        assert_eq!(keeper.time_left(at(0)), None);
        assert!(game.end().is_none());
    }

    /// Game `n` between Ada and Bob on 3+2, kept in `store` as it is played: the game as
    /// begun, its keeper (keeping there too) and its match.
    fn kept_on_three_plus_two(
        store: &MemoryStore,
        n: u128,
    ) -> (
        tictactoe_core::ports::NewGame,
        TimeKeeper<'_>,
        Match<Option<tictactoe_core::play::Journal<&MemoryStore>>>,
    ) {
        let settings = tictactoe_core::fixtures::settings(
            tictactoe_core::fixtures::person("Ada"),
            tictactoe_core::fixtures::person("Bob"),
        );
        let mut new = tictactoe_core::fixtures::new_game(n, settings.clone());
        let keeper = three_plus_two();
        new.clock = keeper.clock().copied();
        let journal = tictactoe_core::play::Journal::begin(store, &new).unwrap();
        let keeper = keeper.keeping_in(store, new.id.clone());
        let game = settings.start_match(&mut tictactoe_core::fixtures::computers(), Some(journal));
        (new, keeper, game)
    }

    #[test]
    fn each_moves_reading_is_kept_so_a_game_whose_program_stopped_is_judged_by_it() {
        // Arrange: a kept game on 3+2.
        let store = MemoryStore::new();
        let (new, mut keeper, mut game) = kept_on_three_plus_two(&store, 8);

        // Act: X and O move, then X too, ten seconds later.
        played(&mut keeper, &mut game, &[(1, 1), (5, 2), (9, 12)]);

        // Assert: the store's clock is the keeper's, with X charged and O's to run.
        let kept = store.game(&new.id).unwrap().unwrap().clock;
        assert_eq!(kept, keeper.clock().copied());
        assert_eq!(kept.map(|clock| clock.turn()), Some(Mark::O));
    }

    #[test]
    fn a_side_out_of_time_loses_and_the_clocks_last_reading_is_kept_before_the_end() {
        // Arrange: a kept game; X and O move, then X thinks past its three minutes.
        let store = MemoryStore::new();
        let (new, mut keeper, mut game) = kept_on_three_plus_two(&store, 7);
        played(&mut keeper, &mut game, &[(1, 1), (5, 2)]);

        // Act
        let events = keeper.judge(&mut game, at(200));

        // Assert
        assert!(matches!(
            events[..],
            [Event::TimedOut {
                side: Mark::X,
                drawn: false,
                ..
            }]
        ));
        let kept = store.game(&new.id).unwrap().unwrap();
        assert_eq!(
            kept.ending,
            Some(Ending::TimedOut {
                side: Mark::X,
                drawn: false
            })
        );
        let clock = kept.clock.unwrap();
        assert_eq!(clock.left_at(at(200))[Mark::X.index()], Duration::ZERO);
    }

    #[test]
    fn a_side_within_its_time_plays_on() {
        let (mut keeper, mut game) = (three_plus_two(), ada_and_bob(Unrecorded));
        played(&mut keeper, &mut game, &[(1, 1), (5, 2)]);

        let events = keeper.judge(&mut game, at(181));

        assert!(events.is_empty());
        assert!(game.end().is_none());
    }

    #[test]
    fn a_first_move_not_made_in_time_aborts_the_game() {
        let mut keeper = three_plus_two();
        let mut game = ada_and_bob(ending_once(Ending::Aborted(Mark::O)));
        played(&mut keeper, &mut game, &[(5, 10)]);

        keeper.judge(&mut game, at(40));

        assert_eq!(game.end(), Some(&End::Aborted { by: Mark::O }));
    }

    #[test]
    fn moves_taken_back_charge_the_turn_and_give_it_back() {
        let (mut keeper, mut game) = (three_plus_two(), ada_and_bob(Unrecorded).casual(true));
        played(&mut keeper, &mut game, &[(1, 1), (5, 2)]);

        game.undo(game.game().to_move()).unwrap();
        keeper.follow(&game, at(12));

        assert_eq!(keeper.clock().unwrap().turn(), Mark::O);
        assert_eq!(
            keeper.time_left(at(12)).unwrap().left[Mark::X.index()],
            Duration::from_secs(170)
        );
    }
}
