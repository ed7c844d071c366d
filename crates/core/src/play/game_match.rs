//! One game, driven by requests: the core every front end shares.
//!
//! A front end (the console, a web page, a full-screen terminal) turns what people do
//! into requests for a seat, sends them to the [`Match`], and shows what comes back:
//! the [`Event`]s that happened, or a typed [`Refusal`]. The match keeps everything a
//! game needs between requests (whose turn it is, a pending undo, whether the result
//! was recorded) and is `Send`, so a server can hold it between requests.
//!
//! People's moves arrive as requests. Computers are asked: [`Match::advance`] makes the
//! computer whose turn it is move, once. When to call it (at once, after a pause, on
//! another thread) is the front end's choice.

use thiserror::Error;

use crate::domain::{
    Analysis, BitBoard, Board, FinishedGame, Game, GameState, GameStatus, Geometry, Line, Mark,
    MoveError, Outcome, Overdue, PlayerName, Position, Refusal, Scoreboard, could_still_win,
};
use crate::players::{Advisor, MoveChooser};
use crate::ports::{
    Change, Ending, GameId, GameStore, NewGame, RatingChange, Step, StoreError, Write,
};

/// Who sits at one side of the board.
pub enum Seat {
    /// A person: their moves arrive as requests.
    Human(PlayerName),
    /// A computer level: the match asks it for its move.
    Computer(Box<dyn MoveChooser>),
}

impl Seat {
    pub fn name(&self) -> PlayerName {
        match self {
            Seat::Human(name) => name.clone(),
            Seat::Computer(computer) => computer.name(),
        }
    }
}

/// Where two people sit, which decides what undo means between them. (Against a
/// computer, undo always takes back the person's last move and the computer's reply.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Seating {
    /// One keyboard or screen: undo takes back the last move, whoever made it, as people
    /// sharing a board would agree to at once.
    #[default]
    Together,
    /// Two screens: a player may take back their own last move (and the reply to it)
    /// only when the other player agrees, by asking for undo too.
    Apart,
}

impl Seating {
    /// Both seatings.
    pub const ALL: [Seating; 2] = [Seating::Together, Seating::Apart];
}

/// What happened in answer to a request, in order.
#[derive(Debug)]
pub enum Event {
    Moved {
        mark: Mark,
        position: Position,
        by_computer: bool,
    },
    /// Moves taken back, the last one first. The turn is with the mover of the last one.
    Undone { positions: Vec<Position> },
    /// `by` asked to take back their last move; the other player has not agreed yet.
    UndoAsked { by: Mark },
    /// The game is over, and was offered to the scoreboard (this happens once per game).
    Finished {
        game: FinishedGame,
        /// The winning line, if someone won.
        line: Option<Line>,
        recording: Recording,
    },
    /// `by` left before the end: the game is kept, but not counted.
    Abandoned { by: Mark },
    /// `by` gave up: the game is over, counted as their loss and the other's win.
    Resigned { by: Mark, recording: Recording },
    /// `side`'s time ran out: the game is over, counted as their loss, or as a draw
    /// (`drawn`) when the other side could no longer complete any line.
    TimedOut {
        side: Mark,
        drawn: bool,
        recording: Recording,
    },
    /// `by` did not make its first move in time: the game is kept, but not counted.
    Aborted { by: Mark },
    /// A hint, or a move taken back against the computer, made the game casual: it
    /// rates nobody now ([`Match::makes_casual`] says so before).
    MadeCasual,
    /// A step or an ending could not be kept; play goes on.
    NotKept(StoreError),
}

/// Help a person may ask for that a rated game does not allow: taking it makes the
/// game casual ([`Match::makes_casual`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Help {
    /// What perfect play makes of the position: in any game, a hint is help no
    /// opponent had.
    Hint,
    /// Taking back a move against the computer, which cannot refuse. (Between two
    /// people the other agrees, or shares the keyboard: the game stays as rated as
    /// it was.)
    Undo,
}

/// A hint given, and what giving it did to the game (made it casual, and whether that
/// was kept).
#[derive(Debug)]
pub struct Hinted {
    pub analysis: Analysis,
    /// Where every free cell is a best move, those the advisor's own player would
    /// rather play (the move Impossible would make); otherwise none.
    pub preferred: Vec<Position>,
    pub events: Vec<Event>,
}

/// What became of a finished game's result.
#[derive(Debug)]
pub enum Recording {
    /// Kept; the players' rows of the scoreboard with it counted, and what it did to
    /// the ratings of the people in it (X's change first; none for a game that rated
    /// nobody).
    Saved(Scoreboard, Vec<RatingChange>),
    /// It could not be kept.
    Failed(StoreError),
    /// Handed to a store that writes it later, with others (a busy server's writer):
    /// the front end that chose such a store learns from it how the write went.
    Queued,
    /// This match keeps nothing (a simulation).
    NotRecorded,
}

/// Where a match keeps what happens, as it happens: each step (a move, or moves taken
/// back), numbered from 1, and how the game ended, once.
#[cfg_attr(any(test, feature = "mocks"), mockall::automock)]
pub trait Recorder: Send {
    /// A step was taken. An error is reported in the match's events; play goes on.
    fn keep(&mut self, step: Step) -> Result<(), StoreError>;
    /// The game is over: keep how it ended, and answer what became of it.
    fn end(&mut self, ending: Ending, players: &[PlayerName; 2]) -> Recording;
    /// The person at `mark` plays under `name` from now on. An error is reported in the
    /// match's events; play goes on.
    fn rename(&mut self, mark: Mark, name: &PlayerName) -> Result<(), StoreError>;
    /// The game rates nobody from now on ([`Event::MadeCasual`]). An error is reported
    /// in the match's events; play goes on.
    fn casual(&mut self) -> Result<(), StoreError>;
}

/// A recorder that keeps nothing: for games that are only counted, such as `simulate`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unrecorded;

impl Recorder for Unrecorded {
    fn keep(&mut self, _step: Step) -> Result<(), StoreError> {
        Ok(())
    }
    fn end(&mut self, _ending: Ending, _players: &[PlayerName; 2]) -> Recording {
        Recording::NotRecorded
    }
    fn rename(&mut self, _mark: Mark, _name: &PlayerName) -> Result<(), StoreError> {
        Ok(())
    }
    fn casual(&mut self) -> Result<(), StoreError> {
        Ok(())
    }
}

/// A recorder that writes to a [`GameStore`] as the game goes: the console's and the
/// full screen's. (A server collects the writes instead and commits them in groups.)
pub struct Journal<S> {
    store: S,
    id: GameId,
    rates: bool,
}

impl<S: GameStore> Journal<S> {
    /// Keeps `game`'s beginning in `store`, and records the rest of it there.
    pub fn begin(store: S, game: &NewGame) -> Result<Self, StoreError> {
        store.write(&[Write::Begin(game.clone())])?;
        Ok(Journal {
            store,
            id: game.id.clone(),
            rates: crate::rules::rates(game),
        })
    }

    /// The id the game is kept under.
    pub fn id(&self) -> &GameId {
        &self.id
    }

    /// Whether the game as it began would rate its people ([`rates`](crate::rules::rates)): the match is
    /// told so ([`Match::casual`]).
    pub fn rates(&self) -> bool {
        self.rates
    }
}

impl<S: GameStore> Recorder for Journal<S> {
    fn keep(&mut self, step: Step) -> Result<(), StoreError> {
        self.store.write(&[Write::Step {
            game: self.id.clone(),
            step,
        }])
    }

    fn end(&mut self, ending: Ending, players: &[PlayerName; 2]) -> Recording {
        let kept = self.store.write(&[Write::End {
            game: self.id.clone(),
            ending,
        }]);
        let read = kept.and_then(|()| {
            Ok((
                self.store.standings_of(players)?,
                self.store.rating_changes(std::slice::from_ref(&self.id))?,
            ))
        });
        match read {
            Ok((rows, ratings)) => Recording::Saved(rows, ratings),
            Err(error) => Recording::Failed(error),
        }
    }

    fn rename(&mut self, mark: Mark, name: &PlayerName) -> Result<(), StoreError> {
        self.store.write(&[Write::Name {
            game: self.id.clone(),
            mark,
            name: name.clone(),
        }])
    }

    fn casual(&mut self) -> Result<(), StoreError> {
        self.store.write(&[Write::Casual {
            game: self.id.clone(),
        }])
    }
}

/// A match may keep its record in an `Option`: `None` keeps nothing (a game whose
/// beginning could not be kept is still played, and said to be unrecorded).
impl<R: Recorder> Recorder for Option<R> {
    fn keep(&mut self, step: Step) -> Result<(), StoreError> {
        self.as_mut().map_or(Ok(()), |recorder| recorder.keep(step))
    }
    fn end(&mut self, ending: Ending, players: &[PlayerName; 2]) -> Recording {
        self.as_mut().map_or(Recording::NotRecorded, |recorder| {
            recorder.end(ending, players)
        })
    }
    fn rename(&mut self, mark: Mark, name: &PlayerName) -> Result<(), StoreError> {
        self.as_mut()
            .map_or(Ok(()), |recorder| recorder.rename(mark, name))
    }
    fn casual(&mut self) -> Result<(), StoreError> {
        self.as_mut().map_or(Ok(()), |recorder| recorder.casual())
    }
}

/// How a match stands once it is no longer being played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    Finished(FinishedGame),
    /// `by` gave up: their loss.
    Resigned {
        by: Mark,
    },
    Abandoned {
        by: Mark,
    },
    /// `side`'s time ran out: their loss, or a draw (`drawn`) when the other side could
    /// no longer complete any line.
    TimedOut {
        side: Mark,
        drawn: bool,
    },
    /// `by` did not make its first move in time: not counted.
    Aborted {
        by: Mark,
    },
}

/// Why a kept game could not be played on: its steps are not a game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ResumeError {
    #[error("step {number} is out of order")]
    OutOfOrder { number: u32 },
    #[error("step {number} is not a legal move")]
    Illegal { number: u32 },
    #[error("step {number} takes back more moves than were played")]
    NothingToUndo { number: u32 },
    #[error("step {number} comes after the end of the game")]
    AfterTheEnd { number: u32 },
    #[error("the ending kept is not what the board shows")]
    Ending,
    /// A name kept for a seat that cannot take it: a computer's, one that has moved, or
    /// the other person's name (or one like it).
    #[error("the name kept for {mark} is not one its seat can take")]
    Name { mark: Mark },
}

/// Why a match keeps a seat's name as it is.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NameRefusal {
    /// The game is over, or the seat is the computer's.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The seat has made its first move: its name is fixed.
    #[error("{0} has moved: its name stays as it is")]
    Moved(Mark),
    /// The other person is called so (letter case aside): `other` is their name.
    #[error("{other} is already playing")]
    Taken { other: PlayerName },
    /// The name looks like the other person's (`other`).
    #[error("{name} looks like {other}, who is already playing")]
    LooksLike { name: PlayerName, other: PlayerName },
}

/// `step`'s change made on `game`: its move played, or its moves taken back. A change
/// the rules refuse is a [`ResumeError`] naming the step (the game may then be part
/// changed: take the step on a copy).
pub(crate) fn take_step<B: Board>(game: &mut Game<B>, step: &Step) -> Result<(), ResumeError> {
    let number = step.number;
    match step.change {
        Change::Move(position) => game
            .play(position)
            .map(|_| ())
            .map_err(|_| ResumeError::Illegal { number }),
        Change::Undo { moves } => (0..moves).try_for_each(|_| {
            game.undo()
                .map(|_| ())
                .ok_or(ResumeError::NothingToUndo { number })
        }),
    }
}

/// A computer player broke the rules: a bug in that player, reported, not looped on.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ComputerError {
    #[error("{player} offered no move in a game in progress")]
    NoMove { player: PlayerName },
    #[error("{player} made an illegal move: {error}")]
    IllegalMove {
        player: PlayerName,
        error: MoveError,
    },
}

enum State {
    Playing { undo_asked_by: Option<Mark> },
    Over(End),
}

/// One game between two seats. See the module documentation.
pub struct Match<R> {
    game: Game<BitBoard>,
    seats: [Seat; 2],
    seating: Seating,
    advisor: Option<Box<dyn Advisor>>,
    recorder: R,
    state: State,
    /// Steps taken so far (moves and undos): the next one kept is numbered one more.
    steps: u32,
    /// X's, then O's: whether that seat has made a move (one taken back since counts):
    /// a person may choose their name until their first move.
    moved: [bool; 2],
    /// Whether the game rates nobody, whatever happens now.
    casual: bool,
}

impl<R: Recorder> Match<R> {
    /// A new game on an empty board of `geometry`; `seats` are X's, then O's.
    pub fn new(geometry: Geometry, first: Mark, seats: [Seat; 2], recorder: R) -> Self {
        Match {
            game: Game::start(geometry, first),
            seats,
            seating: Seating::default(),
            advisor: None,
            recorder,
            state: State::Playing {
                undo_asked_by: None,
            },
            steps: 0,
            moved: [false; 2],
            casual: false,
        }
    }

    /// Whether the game rates nobody from the start: the kept game's casual mark
    /// ([`NewGame::casual`]), or, where nothing can ever make the game rate anybody (a
    /// game whose people are nobody in particular: [`Journal::rates`]), true, which spares
    /// its people the warnings of [`Match::makes_casual`]. A match that is not casual
    /// becomes so when a person takes [`Help`].
    pub fn casual(mut self, casual: bool) -> Self {
        self.casual = casual;
        self
    }

    /// Whether the game rates nobody now.
    pub fn is_casual(&self) -> bool {
        self.casual
    }

    /// Whether `help` asked by the person at `seat` would make the game casual: what a
    /// front end says before it is done. Always false in a casual game.
    pub fn makes_casual(&self, seat: Mark, help: Help) -> bool {
        if self.casual {
            return false;
        }
        match help {
            Help::Hint => true,
            Help::Undo => matches!(self.seat(seat.opponent()), Seat::Computer(_)),
        }
    }

    /// Takes the game as casual because another writer kept it so (see
    /// [`Match::take_kept`]), not recorded again.
    pub fn casual_kept(&mut self) {
        self.casual = true;
    }

    /// The game becomes casual for `help`, if it does ([`Match::makes_casual`]): the
    /// recorder keeps it, and the events say so.
    fn helped(&mut self, seat: Mark, help: Help) -> Vec<Event> {
        if !self.makes_casual(seat, help) {
            return Vec::new();
        }
        self.casual = true;
        let mut events = vec![Event::MadeCasual];
        if let Err(error) = self.recorder.casual() {
            events.push(Event::NotKept(error));
        }
        events
    }

    /// Hints come from `advisor`; without one, a hint is refused.
    pub fn advised_by(mut self, advisor: Box<dyn Advisor>) -> Self {
        self.advisor = Some(advisor);
        self
    }

    /// Where two people sit (see [`Seating`]).
    pub fn seated(mut self, seating: Seating) -> Self {
        self.seating = seating;
        self
    }

    /// The match as it stood after `steps` (kept by a store), ended as `ending` says.
    /// A store's contents are data: a step that breaks the rules, or an ending the board
    /// contradicts, is an error, never a panic. A game whose last move ended it but whose
    /// ending was not kept (the program stopped in between) is given its ending now.
    pub(crate) fn replayed(
        mut self,
        steps: &[Step],
        ending: Option<Ending>,
    ) -> Result<(Self, Vec<Event>), ResumeError> {
        for step in steps {
            self.take_kept(*step)?;
        }
        let finished = |outcome| FinishedGame {
            x: self.seats[0].name(),
            o: self.seats[1].name(),
            outcome,
        };
        let mut events = Vec::new();
        let (outcome, line) = match self.game.status() {
            GameStatus::InProgress => (None, None),
            GameStatus::Won(win) => (Some(Outcome::Won(win.mark)), Some(win.line)),
            GameStatus::Draw => (Some(Outcome::Draw), None),
        };
        self.state = match (ending, outcome) {
            (None, None) => return Ok((self, events)),
            (Some(Ending::Finished(kept)), Some(outcome)) if kept == outcome => {
                State::Over(End::Finished(finished(outcome)))
            }
            (Some(Ending::Resigned(by)), None) => State::Over(End::Resigned { by }),
            (Some(Ending::Abandoned(by)), None) => State::Over(End::Abandoned { by }),
            (Some(Ending::TimedOut { side, drawn }), None) => {
                State::Over(End::TimedOut { side, drawn })
            }
            (Some(Ending::Aborted(by)), None) => State::Over(End::Aborted { by }),
            (None, Some(outcome)) => {
                let game = finished(outcome);
                let recording = self
                    .recorder
                    .end(Ending::Finished(outcome), &[game.x.clone(), game.o.clone()]);
                events.push(Event::Finished {
                    game: game.clone(),
                    line,
                    recording,
                });
                State::Over(End::Finished(game))
            }
            (Some(_), _) => return Err(ResumeError::Ending),
        };
        Ok((self, events))
    }

    /// Takes `step` as another writer kept it (another server of a shared store): the
    /// next step by number, checked as a step read from a store is, and not recorded
    /// again. An error leaves the match as it was, and means it is behind (or ahead of)
    /// the store: read the game again.
    pub fn take_kept(&mut self, step: Step) -> Result<(), ResumeError> {
        let number = step.number;
        if number != self.steps.saturating_add(1) {
            return Err(ResumeError::OutOfOrder { number });
        }
        let over = self.game.status().is_over() || !matches!(self.state, State::Playing { .. });
        if over && !matches!(step.change, Change::Undo { .. }) {
            return Err(ResumeError::AfterTheEnd { number });
        }
        let mut game = self.game.clone();
        let mut moved = self.moved;
        if let Change::Move(_) = step.change {
            moved[game.to_move().index()] = true;
        }
        take_step(&mut game, &step)?;
        self.game = game;
        self.moved = moved;
        self.steps = number;
        if let State::Playing { undo_asked_by } = &mut self.state {
            *undo_asked_by = None;
        }
        Ok(())
    }

    /// Ends the match as another writer kept its ending (see [`Match::take_kept`]):
    /// a win or a draw the board shows, or a resignation or departure while it is
    /// played. Not recorded again.
    pub fn end_kept(&mut self, ending: Ending) -> Result<(), ResumeError> {
        if !matches!(self.state, State::Playing { .. }) {
            return Err(ResumeError::Ending);
        }
        let outcome = match self.game.status() {
            GameStatus::InProgress => None,
            GameStatus::Won(win) => Some(Outcome::Won(win.mark)),
            GameStatus::Draw => Some(Outcome::Draw),
        };
        self.state = State::Over(match (ending, outcome) {
            (Ending::Finished(kept), Some(outcome)) if kept == outcome => {
                End::Finished(FinishedGame {
                    x: self.seats[0].name(),
                    o: self.seats[1].name(),
                    outcome,
                })
            }
            (Ending::Resigned(by), None) => End::Resigned { by },
            (Ending::Abandoned(by), None) => End::Abandoned { by },
            (Ending::TimedOut { side, drawn }, None) => End::TimedOut { side, drawn },
            (Ending::Aborted(by), None) => End::Aborted { by },
            _ => return Err(ResumeError::Ending),
        });
        Ok(())
    }

    /// Takes a name another writer kept for the person at `mark` (see
    /// [`Match::take_kept`]), not recorded again. A name the match has already is no
    /// change. An error (a computer's seat, a seat that has moved, the other person's
    /// name) leaves the match as it was, and means it is behind the store: read the
    /// game again.
    pub fn rename_kept(&mut self, mark: Mark, name: PlayerName) -> Result<(), ResumeError> {
        if self.seat(mark).name() == name {
            return Ok(());
        }
        let takes_it = matches!(self.seat(mark), Seat::Human(_))
            && !self.moved[mark.index()]
            && self.names_apart(mark, &name).is_ok();
        if !takes_it {
            return Err(ResumeError::Name { mark });
        }
        self.seats[mark.index()] = Seat::Human(name);
        Ok(())
    }

    /// Whether the side of `mark` has made a move (one taken back since counts): until
    /// then, a person may choose their name ([`Match::rename`]).
    pub fn has_moved(&self, mark: Mark) -> bool {
        self.moved[mark.index()]
    }

    /// How many steps (moves and undos) the match has taken: the number of the last.
    pub fn steps_taken(&self) -> u32 {
        self.steps
    }

    /// The recorder: a front end reads which game it keeps (a [`Journal`]'s id).
    pub fn recorder(&self) -> &R {
        &self.recorder
    }

    /// The recorder, for a front end that collects what it was given.
    pub fn recorder_mut(&mut self) -> &mut R {
        &mut self.recorder
    }

    /// The game as it stands: board, side to move, status, moves played.
    pub fn game(&self) -> &Game<BitBoard> {
        &self.game
    }

    pub fn seat(&self, mark: Mark) -> &Seat {
        &self.seats[mark.index()]
    }

    /// `None` while the game is being played.
    pub fn end(&self) -> Option<&End> {
        match &self.state {
            State::Playing { .. } => None,
            State::Over(end) => Some(end),
        }
    }

    /// The person who asked to take back a move and waits for the other's consent.
    pub fn undo_asked_by(&self) -> Option<Mark> {
        match self.state {
            State::Playing { undo_asked_by } => undo_asked_by,
            State::Over(_) => None,
        }
    }

    /// The seats back, for the next game with the same players.
    pub fn into_seats(self) -> [Seat; 2] {
        self.seats
    }

    /// `seat` plays `position`.
    pub fn play(&mut self, seat: Mark, position: Position) -> Result<Vec<Event>, Refusal> {
        self.person_in_play(seat)?;
        if self.game.to_move() != seat {
            return Err(Refusal::NotYourTurn(seat));
        }
        Ok(self.apply(position, false)?)
    }

    /// If it is a computer's turn, it moves; otherwise nothing happens (no events).
    pub fn advance(&mut self) -> Result<Vec<Event>, ComputerError> {
        let mark = self.game.to_move();
        let Seat::Computer(computer) = &mut self.seats[mark.index()] else {
            return Ok(Vec::new());
        };
        if !matches!(self.state, State::Playing { .. }) {
            return Ok(Vec::new());
        }
        let player = computer.name();
        let position = computer
            .choose_move(&self.game)
            .ok_or_else(|| ComputerError::NoMove {
                player: player.clone(),
            })?;
        self.apply(position, true)
            .map_err(|error| ComputerError::IllegalMove { player, error })
    }

    /// `seat` asks to take back a move. Against a computer: the seat's last move and
    /// the reply. Two people together: the last move. Two people apart: see
    /// [`Seating::Apart`].
    pub fn undo(&mut self, seat: Mark) -> Result<Vec<Event>, Refusal> {
        self.person_in_play(seat)?;
        let against_computer = matches!(self.seat(seat.opponent()), Seat::Computer(_));
        if against_computer || self.seating == Seating::Together {
            let count = if against_computer {
                self.moves_since_last_of(seat)
            } else {
                self.game.moves().len().min(1)
            };
            let mut events = self.take_back(count)?;
            events.extend(self.helped(seat, Help::Undo));
            return Ok(events);
        }
        match self.undo_asked_by() {
            Some(asker) if asker != seat => {
                let count = self.moves_since_last_of(asker);
                self.take_back(count)
            }
            _ if self.moves_since_last_of(seat) == 0 => Err(Refusal::NothingToUndo),
            _ => {
                self.state = State::Playing {
                    undo_asked_by: Some(seat),
                };
                Ok(vec![Event::UndoAsked { by: seat }])
            }
        }
    }

    /// What perfect play makes of the position, for `seat`, whose turn it must be. A
    /// hint makes a rated game casual ([`Help::Hint`]).
    pub fn hint(&mut self, seat: Mark) -> Result<Hinted, Refusal> {
        self.person_in_play(seat)?;
        if self.game.to_move() != seat {
            return Err(Refusal::NotYourTurn(seat));
        }
        let advisor = self.advisor.as_mut().ok_or(Refusal::NoHints)?;
        let analysis = advisor
            .advise(self.game.board(), seat)
            .ok_or(Refusal::GameOver)?;
        let board = self.game.board();
        let preferred = if analysis.best_moves.len() == board.empty_cells().len() {
            advisor.preferred(board, seat, &analysis.best_moves)
        } else {
            Vec::new()
        };
        let events = self.helped(seat, Help::Hint);
        Ok(Hinted {
            analysis,
            preferred,
            events,
        })
    }

    /// `seat` leaves: the game ends unrecorded.
    pub fn leave(&mut self, seat: Mark) -> Result<Vec<Event>, Refusal> {
        self.person_in_play(seat)?;
        self.state = State::Over(End::Abandoned { by: seat });
        let players = self.seats.each_ref().map(Seat::name);
        let mut events = vec![Event::Abandoned { by: seat }];
        if let Recording::Failed(error) = self.recorder.end(Ending::Abandoned(seat), &players) {
            events.push(Event::NotKept(error));
        }
        Ok(events)
    }

    /// The person at `seat` plays under `name` from now on, and the recorder keeps it:
    /// a person may choose their name until their first move (a move, not an undo),
    /// while the game is played. The same name again changes nothing and keeps
    /// nothing. The two people's names stay apart as [`Settings::new`] keeps them (not
    /// one name, nor two that look alike).
    ///
    /// [`Settings::new`]: super::Settings::new
    pub fn rename(&mut self, seat: Mark, name: PlayerName) -> Result<Vec<Event>, NameRefusal> {
        self.person_in_play(seat)?;
        if self.seat(seat).name() == name {
            return Ok(Vec::new());
        }
        if self.moved[seat.index()] {
            return Err(NameRefusal::Moved(seat));
        }
        self.names_apart(seat, &name)?;
        let kept = self.recorder.rename(seat, &name);
        self.seats[seat.index()] = Seat::Human(name);
        Ok(kept.err().map(Event::NotKept).into_iter().collect())
    }

    /// Whether the person at `seat` may be called `name` beside the other seat's
    /// player, as [`Settings::new`] keeps two people apart (not one name, nor two that
    /// look alike): a computer's name never clashes (no person's name looks like one).
    ///
    /// [`Settings::new`]: super::Settings::new
    fn names_apart(&self, seat: Mark, name: &PlayerName) -> Result<(), NameRefusal> {
        let Seat::Human(other) = self.seat(seat.opponent()) else {
            return Ok(());
        };
        if other.key() == name.key() {
            return Err(NameRefusal::Taken {
                other: other.clone(),
            });
        }
        if other.looks_like(name) {
            return Err(NameRefusal::LooksLike {
                name: name.clone(),
                other: other.clone(),
            });
        }
        Ok(())
    }

    /// `seat` gives up: the game ends as `seat`'s loss and the other side's win, and
    /// is offered to the scoreboard like any finished game.
    pub fn resign(&mut self, seat: Mark) -> Result<Vec<Event>, Refusal> {
        self.person_in_play(seat)?;
        self.state = State::Over(End::Resigned { by: seat });
        let players = self.seats.each_ref().map(Seat::name);
        let recording = self.recorder.end(Ending::Resigned(seat), &players);
        Ok(vec![Event::Resigned {
            by: seat,
            recording,
        }])
    }

    /// What the game's clock found overdue ends the game: `side` lost on time (a draw
    /// if the other side could no longer complete any line), or the game is aborted,
    /// `side` not having made its first move. Refused once the game is over; the clock
    /// is the judge of whose time it was, but it must be that side's turn.
    pub fn overdue(&mut self, overdue: Overdue) -> Result<Vec<Event>, Refusal> {
        if !matches!(self.state, State::Playing { .. }) {
            return Err(Refusal::GameOver);
        }
        let side = match overdue {
            Overdue::Abort(side) | Overdue::Flag(side) => side,
        };
        if self.game.to_move() != side {
            return Err(Refusal::NotYourTurn(side));
        }
        let players = self.seats.each_ref().map(Seat::name);
        Ok(match overdue {
            Overdue::Flag(side) => {
                let drawn = !could_still_win(self.game.cells(), side.opponent());
                self.state = State::Over(End::TimedOut { side, drawn });
                let recording = self
                    .recorder
                    .end(Ending::TimedOut { side, drawn }, &players);
                vec![Event::TimedOut {
                    side,
                    drawn,
                    recording,
                }]
            }
            Overdue::Abort(by) => {
                self.state = State::Over(End::Aborted { by });
                let mut events = vec![Event::Aborted { by }];
                if let Recording::Failed(error) = self.recorder.end(Ending::Aborted(by), &players) {
                    events.push(Event::NotKept(error));
                }
                events
            }
        })
    }

    /// Requests come from people, and only while the game is played.
    fn person_in_play(&self, seat: Mark) -> Result<(), Refusal> {
        if !matches!(self.state, State::Playing { .. }) {
            return Err(Refusal::GameOver);
        }
        match self.seat(seat) {
            Seat::Human(_) => Ok(()),
            Seat::Computer(_) => Err(Refusal::ComputerSeat(seat)),
        }
    }

    fn apply(&mut self, position: Position, by_computer: bool) -> Result<Vec<Event>, MoveError> {
        let mark = self.game.to_move();
        let status = self.game.play(position)?;
        self.moved[mark.index()] = true;
        self.state = State::Playing {
            undo_asked_by: None,
        };
        let mut events = vec![Event::Moved {
            mark,
            position,
            by_computer,
        }];
        events.extend(self.keep(Change::Move(position)));
        let (outcome, line) = match status {
            GameStatus::InProgress => return Ok(events),
            GameStatus::Won(win) => (Outcome::Won(win.mark), Some(win.line)),
            GameStatus::Draw => (Outcome::Draw, None),
        };
        let game = FinishedGame {
            x: self.seats[0].name(),
            o: self.seats[1].name(),
            outcome,
        };
        let recording = self
            .recorder
            .end(Ending::Finished(outcome), &[game.x.clone(), game.o.clone()]);
        self.state = State::Over(End::Finished(game.clone()));
        events.push(Event::Finished {
            game,
            line,
            recording,
        });
        Ok(events)
    }

    /// How many moves go if `seat`'s last move and everything after it are taken back;
    /// 0 if `seat` has not moved.
    fn moves_since_last_of(&self, seat: Mark) -> usize {
        let played = self.game.moves().len();
        // Moves alternate, so the last move's mover is the side not to move now.
        let last_mover = self.game.to_move().opponent();
        match played {
            0 => 0,
            _ if last_mover == seat => 1,
            1 => 0,
            _ => 2,
        }
    }

    fn take_back(&mut self, count: usize) -> Result<Vec<Event>, Refusal> {
        if count == 0 {
            return Err(Refusal::NothingToUndo);
        }
        let positions: Vec<Position> = (0..count).filter_map(|_| self.game.undo()).collect();
        self.state = State::Playing {
            undo_asked_by: None,
        };
        // At most two: a move and the reply to it.
        let moves = positions.len() as u8;
        let mut events = vec![Event::Undone { positions }];
        events.extend(self.keep(Change::Undo { moves }));
        Ok(events)
    }

    /// Numbers the step and hands it to the recorder; an event if it could not be kept.
    fn keep(&mut self, change: Change) -> Option<Event> {
        self.steps += 1;
        let step = Step {
            number: self.steps,
            change,
        };
        self.recorder.keep(step).err().map(Event::NotKept)
    }
}

#[cfg(test)]
mod tests {
    use std::thread;

    use mockall::predicate::eq;
    use rstest::{fixture, rstest};

    use super::*;
    use crate::domain::{IllegalMove, Verdict, layout_of};
    use crate::fixtures::{self, ada_and_bob, ending_once, failing_steps, keeping_steps};
    use crate::memory::MemoryStore;
    use crate::players::{MockAdvisor, MockComputer};
    use mockall::Sequence;
    use mockall::predicate::always;

    fn name(text: &str) -> PlayerName {
        PlayerName::new(text).unwrap()
    }

    fn cell(number: usize) -> Position {
        Geometry::classic().position(number - 1).unwrap()
    }

    fn person(text: &str) -> Seat {
        Seat::Human(name(text))
    }

    /// Ada (X) against Hal (O), a computer that plays `moves` in order ([`computer_playing`]),
    /// on 3 x 3, `first` moving first, nothing recorded.
    fn ada_against_hal(first: Mark, moves: &[usize]) -> Match<Unrecorded> {
        let seats = [person("Ada"), computer_playing(moves)];
        Match::new(Geometry::classic(), first, seats, Unrecorded)
    }

    /// A computer that plays `moves` in order, and must be asked for each exactly once.
    fn computer_playing(moves: &[usize]) -> Seat {
        let mut computer = MockComputer::new();
        computer.expect_name().return_const(name("Hal"));
        let mut moves: Vec<Position> = moves.iter().rev().map(|&n| cell(n)).collect();
        computer
            .expect_choose_move()
            .times(moves.len())
            .returning(move |_| moves.pop());
        Seat::Computer(Box::new(computer))
    }

    /// Ada (X) and Bob (O) at one keyboard; X first; nothing recorded.
    #[fixture]
    fn together() -> Match<Unrecorded> {
        fixtures::ada_and_bob(Unrecorded)
    }

    /// Ada (X) and Bob (O) on two screens: Ada has played 1 and asked to take it back.
    #[fixture]
    fn ada_asked_to_undo(together: Match<Unrecorded>) -> Match<Unrecorded> {
        let mut apart = together.seated(Seating::Apart);
        play_all(&mut apart, &[1]);
        apart.undo(Mark::X).unwrap();
        apart
    }

    fn play_all<R: Recorder>(game: &mut Match<R>, moves: &[usize]) {
        for &number in moves {
            let mover = game.game().to_move();
            game.play(mover, cell(number)).unwrap();
        }
    }

    #[rstest]
    fn a_move_by_the_seat_to_move_is_played_and_passes_the_turn(mut together: Match<Unrecorded>) {
        let events = together.play(Mark::X, cell(5)).unwrap();

        assert!(matches!(
            events[..],
            [Event::Moved { mark: Mark::X, position, by_computer: false }] if position == cell(5)
        ));
        assert_eq!(together.game().to_move(), Mark::O);
    }

    #[rstest]
    #[case::out_of_turn(Mark::O, 5, Refusal::NotYourTurn(Mark::O))]
    #[case::taken(Mark::X, 1, Refusal::Illegal(IllegalMove::Occupied(cell(1))))]
    fn a_refused_move_changes_nothing(
        mut together: Match<Unrecorded>,
        #[case] seat: Mark,
        #[case] number: usize,
        #[case] refusal: Refusal,
    ) {
        play_all(&mut together, &[1, 2]);

        let answer = together.play(seat, cell(number));

        assert_eq!(answer.unwrap_err(), refusal);
        assert_eq!(layout_of(together.game().board()), "XO.......");
    }

    #[test]
    fn nobody_can_ask_for_the_computers_seat() {
        let mut game = ada_against_hal(Mark::X, &[]);

        assert_eq!(
            game.undo(Mark::O).unwrap_err(),
            Refusal::ComputerSeat(Mark::O)
        );
        assert_eq!(
            game.leave(Mark::O).unwrap_err(),
            Refusal::ComputerSeat(Mark::O)
        );
    }

    #[test]
    fn advancing_on_the_computers_turn_makes_it_move_once() {
        // Arrange: the computer (O) moves first, and is asked about O's turn only.
        let mut computer = MockComputer::new();
        computer.expect_name().return_const(name("Hal"));
        computer
            .expect_choose_move()
            .withf(|game| game.to_move() == Mark::O && game.board().empty_cells().len() == 9)
            .times(1)
            .return_const(Some(cell(5)));
        let seats = [person("Ada"), Seat::Computer(Box::new(computer))];
        let mut game = Match::new(Geometry::classic(), Mark::O, seats, Unrecorded);

        // Act
        let events = game.advance().unwrap();

        // Assert
        assert!(matches!(
            events[..],
            [Event::Moved {
                mark: Mark::O,
                by_computer: true,
                ..
            }]
        ));
        assert_eq!(layout_of(game.game().board()), "....O....");
    }

    #[test]
    fn a_side_whose_time_runs_out_while_the_other_could_win_loses_on_time() {
        let mut game = ada_and_bob(ending_once(Ending::TimedOut {
            side: Mark::X,
            drawn: false,
        }));
        play_all(&mut game, &[1, 5]);

        let events = game.overdue(Overdue::Flag(Mark::X)).unwrap();

        assert!(matches!(
            events[..],
            [Event::TimedOut {
                side: Mark::X,
                drawn: false,
                ..
            }]
        ));
        assert_eq!(
            game.end(),
            Some(&End::TimedOut {
                side: Mark::X,
                drawn: false
            })
        );
    }

    #[test]
    fn a_side_whose_time_runs_out_draws_when_the_other_could_no_longer_win() {
        // X to move on "o../xxo/xo.": each line open to O lacks two cells, and only
        // three are empty.
        let mut game = ada_and_bob(ending_once(Ending::TimedOut {
            side: Mark::X,
            drawn: true,
        }));
        play_all(&mut game, &[4, 1, 5, 6, 7, 8]);

        game.overdue(Overdue::Flag(Mark::X)).unwrap();

        assert_eq!(
            game.end(),
            Some(&End::TimedOut {
                side: Mark::X,
                drawn: true
            })
        );
    }

    #[test]
    fn a_side_that_owes_its_first_move_too_long_aborts_the_game() {
        let mut game = ada_and_bob(ending_once(Ending::Aborted(Mark::O)));
        play_all(&mut game, &[1]);

        let events = game.overdue(Overdue::Abort(Mark::O)).unwrap();

        assert!(matches!(events[..], [Event::Aborted { by: Mark::O }]));
        assert_eq!(game.end(), Some(&End::Aborted { by: Mark::O }));
    }

    #[rstest]
    #[case::not_its_turn(&[1], Overdue::Flag(Mark::X), Refusal::NotYourTurn(Mark::X))]
    #[case::over(&[1, 4, 2, 5, 3], Overdue::Flag(Mark::O), Refusal::GameOver)]
    fn a_clock_ends_only_a_game_played_on_the_turn_of_the_side_it_names(
        #[case] played: &[usize],
        #[case] overdue: Overdue,
        #[case] refusal: Refusal,
    ) {
        let mut recorder = keeping_steps();
        recorder
            .expect_end()
            .returning(|_, _| Recording::Saved(Scoreboard::new(), Vec::new()));
        let mut game = ada_and_bob(recorder);
        play_all(&mut game, played);

        assert_eq!(game.overdue(overdue).err(), Some(refusal));
    }

    #[test]
    fn advancing_on_a_persons_turn_asks_no_computer_and_changes_nothing() {
        let mut game = ada_against_hal(Mark::X, &[]);

        let events = game.advance().unwrap();

        assert!(events.is_empty());
        assert_eq!(game.game().moves(), []);
    }

    #[test]
    fn a_finished_game_is_ended_with_the_recorder_exactly_once() {
        // Arrange: ONE expectation, with `times(1)`. A second call would match nothing
        // and fail the test; a catch-all after it would have let it through.
        let mut recorder = keeping_steps();
        recorder
            .expect_end()
            .with(
                eq(Ending::Finished(Outcome::Won(Mark::X))),
                eq([name("Ada"), name("Bob")]),
            )
            .times(1)
            .returning(|_, _| Recording::Saved(Scoreboard::new(), Vec::new()));
        let mut game = ada_and_bob(recorder);
        play_all(&mut game, &[1, 4, 2, 5]);

        // Act: the winning move, then every request that could record it again.
        let events = game.play(Mark::X, cell(3)).unwrap();
        let late = [
            game.play(Mark::O, cell(9)).err(),
            game.undo(Mark::O).err(),
            game.leave(Mark::O).err(),
        ];
        let advanced = game.advance().unwrap();

        // Assert
        assert!(matches!(
            &events[..],
            [Event::Moved { .. }, Event::Finished { recording: Recording::Saved(..), line: Some(line), .. }]
                if line.cells() == [cell(1), cell(2), cell(3)]
        ));
        assert_eq!(late, [Some(Refusal::GameOver); 3]);
        assert!(advanced.is_empty());
        assert!(matches!(game.end(), Some(End::Finished(_))));
    }

    #[test]
    fn a_game_someone_leaves_is_kept_as_abandoned_by_them() {
        let mut game = ada_and_bob(ending_once(Ending::Abandoned(Mark::X)));
        play_all(&mut game, &[1, 4]);

        let events = game.leave(Mark::X).unwrap();

        assert!(matches!(events[..], [Event::Abandoned { by: Mark::X }]));
        assert_eq!(game.end(), Some(&End::Abandoned { by: Mark::X }));
        assert_eq!(game.play(Mark::X, cell(2)).unwrap_err(), Refusal::GameOver);
    }

    #[test]
    fn a_player_who_resigns_ends_the_game_and_it_is_offered_to_the_scoreboard_as_their_loss() {
        // Arrange
        let mut game = ada_and_bob(ending_once(Ending::Resigned(Mark::O)));
        play_all(&mut game, &[1, 4, 2]);

        // Act
        let events = game.resign(Mark::O).unwrap();

        // Assert
        assert!(matches!(
            events[..],
            [Event::Resigned {
                by: Mark::O,
                recording: Recording::Saved(..)
            }]
        ));
        assert_eq!(game.end(), Some(&End::Resigned { by: Mark::O }));
        assert_eq!(game.resign(Mark::X).unwrap_err(), Refusal::GameOver);
    }

    #[test]
    fn a_result_that_cannot_be_kept_is_in_the_answer_and_the_game_still_ends() {
        let mut recorder = keeping_steps();
        recorder
            .expect_end()
            .times(1)
            .returning(|_, _| Recording::Failed(StoreError::NoLocation));
        let mut game = ada_and_bob(recorder);
        play_all(&mut game, &[1, 4, 2, 5]);

        let events = game.play(Mark::X, cell(3)).unwrap();

        assert!(matches!(
            events.last(),
            Some(Event::Finished {
                recording: Recording::Failed(StoreError::NoLocation),
                ..
            })
        ));
        assert!(game.end().is_some());
    }

    #[test]
    fn each_step_is_kept_numbered_from_one_undos_included() {
        // Arrange: a mock that must see exactly these steps, in this order.
        let mut recorder = MockRecorder::new();
        let mut order = Sequence::new();
        let expected = [
            Change::Move(cell(1)),
            Change::Move(cell(5)),
            Change::Undo { moves: 1 },
            Change::Move(cell(9)),
        ];
        for (index, change) in expected.into_iter().enumerate() {
            let step = Step {
                number: index as u32 + 1,
                change,
            };
            recorder
                .expect_keep()
                .with(eq(step))
                .times(1)
                .in_sequence(&mut order)
                .returning(|_| Ok(()));
        }
        let mut game = ada_and_bob(recorder);

        // Act
        game.play(Mark::X, cell(1)).unwrap();
        game.play(Mark::O, cell(5)).unwrap();
        game.undo(Mark::X).unwrap();
        game.play(Mark::O, cell(9)).unwrap();

        // Assert: the mock checks the steps when the match drops it.
        assert_eq!(game.game().moves(), [cell(1), cell(9)]);
    }

    #[test]
    fn a_step_that_cannot_be_kept_is_reported_and_play_goes_on() {
        let mut game = ada_and_bob(failing_steps());

        let events = game.play(Mark::X, cell(1)).unwrap();

        assert!(matches!(
            events[..],
            [Event::Moved { .. }, Event::NotKept(StoreError::NoLocation)]
        ));
        assert_eq!(game.game().to_move(), Mark::O);
    }

    fn moves(numbers: &[usize]) -> Vec<Step> {
        numbers
            .iter()
            .enumerate()
            .map(|(index, &number)| Step {
                number: index as u32 + 1,
                change: Change::Move(cell(number)),
            })
            .collect()
    }

    #[test]
    fn a_kept_game_resumes_where_it_stood_and_numbers_the_next_step_after_the_last() {
        // Arrange: the next step kept must be number 4.
        let mut steps = moves(&[1, 5]);
        steps.push(Step {
            number: 3,
            change: Change::Move(cell(9)),
        });
        let mut recorder = MockRecorder::new();
        recorder
            .expect_keep()
            .with(eq(Step {
                number: 4,
                change: Change::Move(cell(3)),
            }))
            .times(1)
            .returning(|_| Ok(()));

        // Act
        let (mut game, events) = ada_and_bob(recorder).replayed(&steps, None).unwrap();
        game.play(Mark::O, cell(3)).unwrap();

        // Assert
        assert!(events.is_empty());
        assert_eq!(layout_of(game.game().board()), "X.O.O...X");
    }

    #[test]
    fn a_kept_game_whose_ending_was_not_kept_is_ended_on_resuming() {
        let mut recorder = MockRecorder::new();
        recorder
            .expect_end()
            .with(eq(Ending::Finished(Outcome::Won(Mark::X))), always())
            .times(1)
            .returning(|_, _| Recording::Saved(Scoreboard::new(), Vec::new()));

        let (game, events) = ada_and_bob(recorder)
            .replayed(&moves(&[1, 4, 2, 5, 3]), None)
            .unwrap();

        assert!(matches!(events[..], [Event::Finished { .. }]));
        assert!(matches!(game.end(), Some(End::Finished(_))));
    }

    #[test]
    fn a_kept_ending_the_board_agrees_with_is_not_kept_again() {
        let (game, events) = ada_and_bob(MockRecorder::new())
            .replayed(&moves(&[1, 4]), Some(Ending::Abandoned(Mark::O)))
            .unwrap();

        assert!(events.is_empty());
        assert_eq!(game.end(), Some(&End::Abandoned { by: Mark::O }));
    }

    #[rstest]
    #[case::a_taken_cell(moves(&[1, 1]), None, ResumeError::Illegal { number: 2 })]
    #[case::a_gap(vec![Step { number: 2, change: Change::Move(cell(1)) }], None, ResumeError::OutOfOrder { number: 2 })]
    #[case::undo_of_nothing(vec![Step { number: 1, change: Change::Undo { moves: 1 } }], None, ResumeError::NothingToUndo { number: 1 })]
    #[case::a_move_after_the_end(moves(&[1, 4, 2, 5, 3, 6]), None, ResumeError::AfterTheEnd { number: 6 })]
    #[case::a_win_the_board_does_not_show(moves(&[1, 4]), Some(Ending::Finished(Outcome::Draw)), ResumeError::Ending)]
    fn kept_steps_that_are_not_a_game_are_an_error_not_a_panic(
        #[case] steps: Vec<Step>,
        #[case] ending: Option<Ending>,
        #[case] expected: ResumeError,
    ) {
        let resumed = ada_and_bob(Unrecorded).replayed(&steps, ending);

        assert_eq!(resumed.err(), Some(expected));
    }

    // Changes another server kept (`take_kept`, `end_kept`): taken as they were
    // kept, never recorded again, and refused (leaving the match as it was) when they
    // do not follow on from what the match holds.

    #[test]
    fn a_step_kept_elsewhere_is_taken_as_the_next_and_not_recorded() {
        // Arrange: a recorder that must never be asked to keep anything.
        let mut game = ada_and_bob(MockRecorder::new());

        // Act
        let taken = game.take_kept(moves(&[5])[0]);

        // Assert
        assert_eq!(taken, Ok(()));
        assert_eq!(game.steps_taken(), 1);
        assert_eq!(game.game().to_move(), Mark::O);
    }

    #[rstest]
    #[case::not_the_next(Step { number: 3, change: Change::Move(cell(1)) }, ResumeError::OutOfOrder { number: 3 })]
    #[case::a_taken_cell(Step { number: 2, change: Change::Move(cell(5)) }, ResumeError::Illegal { number: 2 })]
    #[case::more_undone_than_played(Step { number: 2, change: Change::Undo { moves: 2 } }, ResumeError::NothingToUndo { number: 2 })]
    fn a_step_kept_elsewhere_that_does_not_follow_is_refused_and_changes_nothing(
        #[case] step: Step,
        #[case] expected: ResumeError,
    ) {
        // Arrange: X in the centre.
        let mut game = ada_and_bob(Unrecorded);
        game.take_kept(moves(&[5])[0]).unwrap();

        // Act
        let taken = game.take_kept(step);

        // Assert
        assert_eq!(taken, Err(expected));
        assert_eq!(game.steps_taken(), 1);
        assert_eq!(layout_of(game.game().board()), "....X....");
    }

    #[test]
    fn a_step_kept_elsewhere_withdraws_an_undo_asked_here() {
        let mut game = ada_and_bob(Unrecorded).seated(Seating::Apart);
        play_all(&mut game, &[5]);
        game.undo(Mark::X).unwrap();

        game.take_kept(Step {
            number: 2,
            change: Change::Move(cell(1)),
        })
        .unwrap();

        assert_eq!(game.undo_asked_by(), None);
    }

    #[rstest]
    #[case::a_win_the_board_shows(&[1, 4, 2, 5, 3], Ending::Finished(Outcome::Won(Mark::X)), End::Finished(FinishedGame { x: name("Ada"), o: name("Bob"), outcome: Outcome::Won(Mark::X) }))]
    #[case::a_resignation(&[1], Ending::Resigned(Mark::O), End::Resigned { by: Mark::O })]
    #[case::a_departure(&[], Ending::Abandoned(Mark::X), End::Abandoned { by: Mark::X })]
    fn an_ending_kept_elsewhere_ends_the_match_without_recording_it(
        #[case] played: &[usize],
        #[case] ending: Ending,
        #[case] expected: End,
    ) {
        let mut game = ada_and_bob(MockRecorder::new());
        for step in moves(played) {
            game.take_kept(step).unwrap();
        }

        let ended = game.end_kept(ending);

        assert_eq!(ended, Ok(()));
        assert_eq!(game.end(), Some(&expected));
    }

    #[rstest]
    #[case::a_win_the_board_does_not_show(&[1, 4], Ending::Finished(Outcome::Won(Mark::X)))]
    #[case::a_resignation_after_the_last_move(&[1, 4, 2, 5, 3], Ending::Resigned(Mark::O))]
    fn an_ending_kept_elsewhere_that_the_board_contradicts_is_refused(
        #[case] played: &[usize],
        #[case] ending: Ending,
    ) {
        let mut game = ada_and_bob(Unrecorded);
        for step in moves(played) {
            game.take_kept(step).unwrap();
        }

        let ended = game.end_kept(ending);

        assert_eq!(ended, Err(ResumeError::Ending));
        assert_eq!(game.end(), None);
    }

    #[test]
    fn an_ending_kept_elsewhere_for_a_match_already_over_is_refused() {
        let mut game = ada_and_bob(Unrecorded);
        game.end_kept(Ending::Resigned(Mark::X)).unwrap();

        let again = game.end_kept(Ending::Resigned(Mark::O));

        assert_eq!(again, Err(ResumeError::Ending));
        assert_eq!(game.end(), Some(&End::Resigned { by: Mark::X }));
    }

    #[test]
    fn a_journal_keeps_the_beginning_each_step_and_the_ending_in_its_store() {
        // Arrange: a real store (the in-memory one), since what it holds is the subject.
        let store = MemoryStore::new();
        let new = fixtures::new_game(
            7,
            fixtures::settings(fixtures::person("Ada"), fixtures::person("Bob")),
        );
        let journal = Journal::begin(&store, &new).unwrap();
        let mut game = ada_and_bob(journal);

        // Act
        play_all(&mut game, &[1, 4, 2, 5]);
        let events = game.play(Mark::X, cell(3)).unwrap();

        // Assert
        let kept = store.game(&new.id).unwrap().unwrap();
        assert_eq!(kept.steps, moves(&[1, 4, 2, 5, 3]));
        assert_eq!(kept.ending, Some(Ending::Finished(Outcome::Won(Mark::X))));
        let Some(Event::Finished {
            recording: Recording::Saved(rows, _),
            ..
        }) = events.last()
        else {
            panic!("expected a saved result, got {events:?}");
        };
        assert_eq!(rows.record_of(&name("Ada")).map(|r| r.wins), Some(1));
    }

    // Names: a person may choose their name until their first move.

    #[test]
    fn a_person_who_has_not_moved_is_renamed_and_the_recorder_keeps_the_name() {
        // Arrange: Ada (X) has moved; Bob (O) has not. The recorder must be told once.
        let mut recorder = keeping_steps();
        recorder
            .expect_rename()
            .with(eq(Mark::O), eq(name("Cy")))
            .times(1)
            .returning(|_, _| Ok(()));
        let mut game = ada_and_bob(recorder);
        play_all(&mut game, &[5]);

        // Act
        let events = game.rename(Mark::O, name("Cy"));

        // Assert
        assert!(events.is_ok_and(|events| events.is_empty()));
        assert_eq!(game.seat(Mark::O).name(), name("Cy"));
    }

    #[test]
    fn the_same_name_again_changes_nothing_and_keeps_nothing() {
        let mut recorder = keeping_steps();
        recorder.expect_rename().never();
        let mut game = ada_and_bob(recorder);
        play_all(&mut game, &[5, 1]);

        let events = game.rename(Mark::O, name("Bob"));

        assert!(events.is_ok_and(|events| events.is_empty()));
    }

    #[rstest]
    #[case::after_its_first_move(&[5, 1], Mark::O)]
    #[case::after_a_move_taken_back(&[5, 1, 0], Mark::O)]
    #[case::after_the_first_movers_move(&[5], Mark::X)]
    fn a_seat_that_has_moved_keeps_its_name(#[case] played: &[usize], #[case] seat: Mark) {
        // Arrange: 0 stands for an undo.
        let mut game = ada_and_bob(Unrecorded);
        for &number in played {
            let mover = game.game().to_move();
            if number == 0 {
                game.undo(mover).unwrap();
            } else {
                game.play(mover, cell(number)).unwrap();
            }
        }

        // Act
        let refused = game.rename(seat, name("Cy"));

        // Assert
        assert_eq!(refused.err(), Some(NameRefusal::Moved(seat)));
        assert_eq!(
            game.seat(seat).name(),
            ada_and_bob(Unrecorded).seat(seat).name()
        );
    }

    #[rstest]
    #[case::the_others_name_in_another_case("ADA", NameRefusal::Taken { other: name("Ada") })]
    #[case::one_that_looks_like_it(
        "\u{410}da",
        NameRefusal::LooksLike { name: name("\u{410}da"), other: name("Ada") }
    )]
    fn the_other_persons_name_or_one_like_it_is_refused(
        mut together: Match<Unrecorded>,
        #[case] text: &str,
        #[case] refusal: NameRefusal,
    ) {
        let refused = together.rename(Mark::O, name(text));

        assert_eq!(refused.err(), Some(refusal));
        assert_eq!(together.seat(Mark::O).name(), name("Bob"));
    }

    #[test]
    fn a_computers_seat_has_no_name_to_choose_and_a_game_over_keeps_its_names() {
        let mut game = Match::new(
            Geometry::classic(),
            Mark::X,
            [person("Ada"), computer_playing(&[])],
            Unrecorded,
        );
        let computers = game.rename(Mark::O, name("Cy"));
        game.resign(Mark::X).unwrap();

        let after_the_end = game.rename(Mark::X, name("Cy"));

        assert_eq!(
            computers.err(),
            Some(NameRefusal::Refused(Refusal::ComputerSeat(Mark::O)))
        );
        assert_eq!(
            after_the_end.err(),
            Some(NameRefusal::Refused(Refusal::GameOver))
        );
    }

    #[test]
    fn a_name_that_cannot_be_kept_is_reported_and_the_seat_is_renamed() {
        let mut recorder = MockRecorder::new();
        recorder
            .expect_rename()
            .returning(|_, _| Err(StoreError::NoLocation));
        let mut game = ada_and_bob(recorder);

        let events = game.rename(Mark::X, name("Cy")).unwrap();

        assert!(matches!(
            events[..],
            [Event::NotKept(StoreError::NoLocation)]
        ));
        assert_eq!(game.seat(Mark::X).name(), name("Cy"));
    }

    #[test]
    fn a_kept_game_resumed_remembers_who_has_moved() {
        let (mut game, _) = ada_and_bob(Unrecorded)
            .replayed(&moves(&[5]), None)
            .unwrap();

        let refused = game.rename(Mark::X, name("Cy"));

        assert_eq!(refused.err(), Some(NameRefusal::Moved(Mark::X)));
    }

    #[test]
    fn a_name_kept_elsewhere_is_taken_without_recording_it() {
        // Arrange: a recorder that must never be asked to keep anything.
        let mut game = ada_and_bob(MockRecorder::new());

        // Act
        let taken = game.rename_kept(Mark::O, name("Cy"));

        // Assert
        assert_eq!(taken, Ok(()));
        assert_eq!(game.seat(Mark::O).name(), name("Cy"));
    }

    #[rstest]
    #[case::for_a_seat_that_has_moved(Mark::X, "Cy")]
    #[case::the_other_persons(Mark::O, "Ada")]
    fn a_name_kept_elsewhere_that_the_match_cannot_take_is_refused_and_changes_nothing(
        #[case] mark: Mark,
        #[case] text: &str,
    ) {
        let mut game = ada_and_bob(Unrecorded);
        game.take_kept(moves(&[5])[0]).unwrap();

        let taken = game.rename_kept(mark, name(text));

        assert_eq!(taken, Err(ResumeError::Name { mark }));
        assert_eq!(
            [Mark::X, Mark::O].map(|mark| game.seat(mark).name()),
            [name("Ada"), name("Bob")]
        );
    }

    #[test]
    fn undo_against_a_computer_takes_back_its_reply_too() {
        let mut game = ada_against_hal(Mark::X, &[5]).casual(true);
        game.play(Mark::X, cell(1)).unwrap();
        game.advance().unwrap();

        let events = game.undo(Mark::X).unwrap();

        assert!(
            matches!(&events[..], [Event::Undone { positions }] if *positions == [cell(5), cell(1)])
        );
        assert_eq!(layout_of(game.game().board()), ".........");
        assert_eq!(game.game().to_move(), Mark::X);
    }

    #[test]
    fn undo_before_you_have_moved_is_refused_even_after_the_computer_has() {
        let mut game = ada_against_hal(Mark::O, &[5]);
        game.advance().unwrap();

        let answer = game.undo(Mark::X);

        assert_eq!(answer.unwrap_err(), Refusal::NothingToUndo);
        assert_eq!(layout_of(game.game().board()), "....O....");
    }

    #[rstest]
    fn two_people_together_take_back_the_last_move_whoever_made_it(
        mut together: Match<Unrecorded>,
    ) {
        play_all(&mut together, &[1, 5]);

        together.undo(Mark::X).unwrap();

        assert_eq!(layout_of(together.game().board()), "X........");
        assert_eq!(together.game().to_move(), Mark::O, "Bob moves again");
    }

    #[rstest]
    fn two_people_apart_take_back_a_move_only_when_the_other_agrees(together: Match<Unrecorded>) {
        // Arrange: Ada (X) played 1 and regrets it while Bob is to move.
        let mut apart = together.seated(Seating::Apart);
        play_all(&mut apart, &[1]);

        // Act: Ada asks, then Bob agrees.
        let asked = apart.undo(Mark::X).unwrap();
        let board_while_asking = layout_of(apart.game().board());
        let agreed = apart.undo(Mark::O).unwrap();

        // Assert
        assert!(matches!(asked[..], [Event::UndoAsked { by: Mark::X }]));
        assert_eq!(board_while_asking, "X........");
        assert!(matches!(agreed[..], [Event::Undone { .. }]));
        assert_eq!(layout_of(apart.game().board()), ".........");
        assert_eq!(apart.undo_asked_by(), None);
    }

    #[rstest]
    fn apart_asking_again_keeps_waiting_for_the_other_to_agree(
        #[from(ada_asked_to_undo)] mut apart: Match<Unrecorded>,
    ) {
        let asked_again = apart.undo(Mark::X).unwrap();

        assert!(matches!(
            asked_again[..],
            [Event::UndoAsked { by: Mark::X }]
        ));
        assert_eq!(layout_of(apart.game().board()), "X........");
    }

    #[rstest]
    #[case::the_first_mover_before_any_move(&[], Mark::X)]
    #[case::the_second_mover_before_any_move(&[], Mark::O)]
    #[case::the_second_mover_after_the_first_move(&[1], Mark::O)]
    fn apart_asking_to_take_back_a_move_before_you_have_moved_is_refused(
        together: Match<Unrecorded>,
        #[case] played: &[usize],
        #[case] seat: Mark,
    ) {
        let mut apart = together.seated(Seating::Apart);
        play_all(&mut apart, played);

        let answer = apart.undo(seat);

        assert_eq!(answer.unwrap_err(), Refusal::NothingToUndo);
        assert_eq!(apart.undo_asked_by(), None);
    }

    #[rstest]
    fn a_move_instead_of_agreeing_withdraws_the_request(
        #[from(ada_asked_to_undo)] mut apart: Match<Unrecorded>,
    ) {
        apart.play(Mark::O, cell(5)).unwrap();

        assert_eq!(apart.undo_asked_by(), None);
        assert_eq!(layout_of(apart.game().board()), "X...O....");
    }

    #[test]
    fn a_hint_is_the_advisors_analysis_of_the_position_for_the_seat_to_move() {
        // Arrange: an advisor that, asked about X's turn with 1 and 4 played, says 5 draws.
        let analysis = Analysis {
            verdict: Verdict::Draw,
            plies: 7,
            best_moves: vec![cell(5)],
            exact: true,
            moves_proven: true,
        };
        let mut advisor = MockAdvisor::new();
        advisor
            .expect_advise()
            .withf(|board, to_move| *to_move == Mark::X && layout_of(board) == "X..O.....")
            .times(1)
            .return_const(Some(analysis.clone()));
        let mut game = together().advised_by(Box::new(advisor));
        play_all(&mut game, &[1, 4]);

        // Act
        let hint = game.hint(Mark::X);

        // Assert: the answer, and a hint plays nothing.
        assert_eq!(hint.map(|hinted| hinted.analysis), Ok(analysis));
        assert_eq!(game.game().moves().len(), 2);
    }

    #[test]
    fn a_hint_where_every_free_cell_is_best_carries_the_move_the_advisors_player_prefers() {
        // Arrange: an advisor for which every one of the empty board's cells draws,
        // and whose own player would open in the centre.
        let every: Vec<Position> = (1..=9).map(cell).collect();
        let analysis = Analysis {
            verdict: Verdict::Draw,
            plies: 9,
            best_moves: every.clone(),
            exact: true,
            moves_proven: true,
        };
        let mut advisor = MockAdvisor::new();
        advisor.expect_advise().return_const(Some(analysis));
        advisor
            .expect_preferred()
            .withf(move |_, to_move, best| *to_move == Mark::X && best == every.as_slice())
            .times(1)
            .return_const(vec![cell(5)]);
        let mut game = together().advised_by(Box::new(advisor));

        // Act
        let hint = game.hint(Mark::X).unwrap();

        // Assert
        assert_eq!(hint.preferred, [cell(5)]);
    }

    #[test]
    fn a_hint_out_of_turn_is_refused_without_troubling_the_advisor() {
        let mut advisor = MockAdvisor::new();
        advisor.expect_advise().never();
        let mut game = together().advised_by(Box::new(advisor));

        assert_eq!(
            game.hint(Mark::O).map(|hinted| hinted.analysis),
            Err(Refusal::NotYourTurn(Mark::O))
        );
    }

    #[rstest]
    fn without_an_advisor_a_hint_is_refused(mut together: Match<Unrecorded>) {
        assert_eq!(
            together.hint(Mark::X).map(|hinted| hinted.analysis),
            Err(Refusal::NoHints)
        );
    }

    /// An advisor stub: whatever it is asked, 5 draws.
    fn advising() -> Box<dyn Advisor> {
        let mut advisor = MockAdvisor::new();
        advisor.expect_advise().return_const(Some(Analysis {
            verdict: Verdict::Draw,
            plies: 7,
            best_moves: vec![cell(5)],
            exact: true,
            moves_proven: true,
        }));
        Box::new(advisor)
    }

    #[test]
    fn a_hint_in_a_rated_game_makes_it_casual_and_the_recorder_keeps_that_once() {
        // Arrange
        let mut recorder = MockRecorder::new();
        recorder.expect_casual().times(1).returning(|| Ok(()));
        let mut game = fixtures::ada_and_bob(recorder).advised_by(advising());

        // Act
        let hinted = game.hint(Mark::X).unwrap();

        // Assert: the mock checked the one write.
        assert!(matches!(hinted.events[..], [Event::MadeCasual]));
        assert!(game.is_casual());
    }

    #[test]
    fn a_second_hint_keeps_nothing_more() {
        let mut recorder = MockRecorder::new();
        recorder.expect_casual().times(1).returning(|| Ok(()));
        let mut game = fixtures::ada_and_bob(recorder).advised_by(advising());
        game.hint(Mark::X).unwrap();

        let again = game.hint(Mark::X).unwrap();

        assert!(again.events.is_empty());
    }

    #[test]
    fn a_hint_in_a_casual_game_keeps_nothing() {
        let mut recorder = MockRecorder::new();
        recorder.expect_casual().never();
        let mut game = fixtures::ada_and_bob(recorder)
            .advised_by(advising())
            .casual(true);

        let hinted = game.hint(Mark::X).unwrap();

        assert!(hinted.events.is_empty());
    }

    #[test]
    fn a_casual_game_that_could_not_be_kept_so_says_it_and_plays_on() {
        let mut recorder = MockRecorder::new();
        recorder
            .expect_casual()
            .returning(|| Err(StoreError::NoLocation));
        let mut game = fixtures::ada_and_bob(recorder).advised_by(advising());

        let hinted = game.hint(Mark::X).unwrap();

        assert!(matches!(
            hinted.events[..],
            [Event::MadeCasual, Event::NotKept(StoreError::NoLocation)]
        ));
    }

    #[test]
    fn taking_back_a_move_against_the_computer_makes_a_rated_game_casual() {
        // Arrange: Ada 1, Hal 5.
        let mut game = ada_against_hal(Mark::X, &[5]);
        game.play(Mark::X, cell(1)).unwrap();
        game.advance().unwrap();

        // Act
        let events = game.undo(Mark::X).unwrap();

        // Assert
        assert!(matches!(events.last(), Some(Event::MadeCasual)));
        assert!(game.is_casual());
    }

    #[rstest]
    fn taking_back_a_move_between_two_people_keeps_the_game_as_rated_as_it_was(
        mut together: Match<Unrecorded>,
    ) {
        together.play(Mark::X, cell(1)).unwrap();

        let events = together.undo(Mark::X).unwrap();

        assert!(
            !events
                .iter()
                .any(|event| matches!(event, Event::MadeCasual))
        );
        assert!(!together.is_casual());
    }

    #[rstest]
    #[case::a_hint_against_a_person(Help::Hint, false, true)]
    #[case::an_undo_against_a_person(Help::Undo, false, false)]
    #[case::a_hint_against_the_computer(Help::Hint, true, true)]
    #[case::an_undo_against_the_computer(Help::Undo, true, true)]
    fn what_makes_a_rated_game_casual_is_said_before_it_is_done(
        #[case] help: Help,
        #[case] against_the_computer: bool,
        #[case] makes_casual: bool,
    ) {
        let game = if against_the_computer {
            ada_against_hal(Mark::X, &[])
        } else {
            fixtures::ada_and_bob(Unrecorded)
        };

        assert_eq!(game.makes_casual(Mark::X, help), makes_casual);
    }

    #[rstest]
    #[case::a_hint(Help::Hint)]
    #[case::an_undo(Help::Undo)]
    fn no_help_makes_a_casual_game_more_casual(#[case] help: Help) {
        let game = ada_against_hal(Mark::X, &[]).casual(true);

        assert!(!game.makes_casual(Mark::X, help));
    }

    #[test]
    fn a_computer_that_offers_a_taken_cell_is_an_error_not_a_loop() {
        let mut game = ada_against_hal(Mark::X, &[1]);
        game.play(Mark::X, cell(1)).unwrap();

        let answer = game.advance();

        assert_eq!(
            answer.unwrap_err(),
            ComputerError::IllegalMove {
                player: name("Hal"),
                error: MoveError::Illegal(IllegalMove::Occupied(cell(1)))
            }
        );
    }

    #[test]
    fn the_seats_are_handed_back_for_the_next_game() {
        let mut game = ada_against_hal(Mark::X, &[]);
        game.leave(Mark::X).unwrap();

        let [x, o] = game.into_seats();

        assert_eq!((x.name(), o.name()), (name("Ada"), name("Hal")));
    }

    #[rstest]
    fn a_match_can_be_handed_to_another_thread_between_requests(mut together: Match<Unrecorded>) {
        together.play(Mark::X, cell(5)).unwrap();

        let together = thread::spawn(move || {
            together.play(Mark::O, cell(1)).unwrap();
            together
        })
        .join()
        .unwrap();

        assert_eq!(layout_of(together.game().board()), "O...X....");
    }
}
