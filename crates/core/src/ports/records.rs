//! What a store keeps of a game, as typed values: who played, on what board, each step
//! as it was taken, and how it ended. Every write names its game by [`GameId`] and each
//! step by its number, so a write retried after a lost answer is recognised and kept
//! once.

use std::fmt;
use std::time::SystemTime;

use thiserror::Error;

use crate::domain::{GameClock, Mark, Outcome, PlayerName, Position, Record};
use crate::play::{Seating, Settings};

/// A game's name in a store and in URLs: 32 lowercase hex digits (128 bits).
///
/// Whoever starts a game chooses its id (from a random source of their own), so a
/// retried [`Write::Begin`] names the same game and is kept once.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(String);

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("a game id is 32 hex digits")]
pub struct GameIdError;

impl GameId {
    /// The id written from 128 bits.
    pub fn from_bits(bits: u128) -> Self {
        GameId(format!("{bits:032x}"))
    }

    /// A new game's id: the time it began (milliseconds since 1970, 48 bits) followed by
    /// 80 of `random`'s bits. 2^80 is still far too many to guess, and ids made later
    /// sort later, so a database files a new game's rows (and its steps) beside the
    /// last game's instead of anywhere in its index: a batch of moves then touches a
    /// few pages of the file instead of one per game.
    pub fn new(started_ms: u64, random: u128) -> Self {
        let time = u128::from(started_ms & ((1 << 48) - 1));
        GameId::from_bits(time << 80 | (random & ((1 << 80) - 1)))
    }

    /// Reads an id as [`GameId::as_str`] writes it (upper-case hex is read as lower).
    pub fn parse(text: &str) -> Result<Self, GameIdError> {
        hex_digits(text, 32).map(GameId).ok_or(GameIdError)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// `text` in lower case if it is exactly `digits` hex digits (of either case).
pub(super) fn hex_digits(text: &str, digits: usize) -> Option<String> {
    (text.len() == digits && text.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| text.to_ascii_lowercase())
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The lock of a secret handed to a client: the SHA-256 digest of the secret, written
/// as 64 hex digits. Every secret the server hands out is kept only as its lock: a
/// seat's token (a game's [`NewGame::seats`]), a signed-in session, a personal token
/// for scripts. A lock is enough for a store to find what a secret opens, and useless
/// to whoever reads the store. The front end that hands out secrets makes the digest;
/// the core only carries it.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SecretLock(String);

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("a secret's lock is 64 hex digits (a SHA-256 digest)")]
pub struct SecretLockError;

impl SecretLock {
    /// A digest written as 64 hex digits.
    pub fn parse(text: &str) -> Result<Self, SecretLockError> {
        hex_digits(text, 64).map(SecretLock).ok_or(SecretLockError)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Not printed in logs: a digest is not a secret, but it has no business in one either.
impl fmt::Debug for SecretLock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecretLock(..)")
    }
}

/// Who may play a seat: what a request for the seat must show. The seat's player (who
/// plays, under what name) is the game's [`Settings`]; this says whose it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatHolder {
    /// Nobody is asked to show anything: a computer's seat, or a person at the machine
    /// that keeps the games (the console, whose database is the person's own, or the
    /// operator's on a shared one).
    Local,
    /// A guest: whoever holds the secret of this lock (a seat's cookie or token).
    Guest(SecretLock),
    /// Open to the first who brings the secret of this lock (an invite's code; for a
    /// rematch, their own seat's secret of the game before), who then takes the seat as
    /// their own ([`Write::Seat`]). Nobody plays it before.
    Invited(SecretLock),
    /// The account whose name the seat's player has: whoever is signed in as it.
    Account,
}

impl SeatHolder {
    /// Whether games of this seat may rate its person: a person at the machine, or an
    /// account's. A guest is nobody in particular.
    pub fn is_somebody(&self) -> bool {
        matches!(self, SeatHolder::Local | SeatHolder::Account)
    }
}

/// A game as it begins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewGame {
    pub id: GameId,
    /// Who plays each side, the board and the first mover.
    pub settings: Settings,
    /// Where two people sit (it decides what undo means between them).
    pub seating: Seating,
    /// Whose each seat is, X's then O's ([`SeatHolder`]).
    pub seats: [SeatHolder; 2],
    /// The game this one is the rematch of: a game has at most one rematch.
    pub follows: Option<GameId>,
    /// A casual game rates nobody: one whose computers' choices were fixed before it
    /// began (`--seed`), which a person could learn and play again to farm a rating; or,
    /// kept so by [`Write::Casual`], one where a person took help a rated game does not
    /// allow (a hint, a move taken back against the computer).
    pub casual: bool,
    /// The game's clock as it begins, for a game played on time; later readings are
    /// [`Write::Clock`]s.
    pub clock: Option<GameClock>,
}

/// One change to a game's board, in the order they were made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The side to move played this cell.
    Move(Position),
    /// The last `moves` moves were taken back.
    Undo { moves: u8 },
}

/// A numbered change: a game's steps are numbered 1, 2, 3, ... in the order they were
/// taken, undos included. The number makes a retried write recognisable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub number: u32,
    pub change: Change,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Played to the end: counted on the scoreboard.
    Finished(Outcome),
    /// This side gave up: counted as their loss and the other side's win.
    Resigned(Mark),
    /// This side left before the end: kept, but not counted.
    Abandoned(Mark),
    /// This side's time ran out: counted as their loss, or as a draw when the other
    /// side could no longer complete any line (`drawn`, see
    /// [`could_still_win`](crate::domain::could_still_win)).
    TimedOut { side: Mark, drawn: bool },
    /// This side did not make its first move in time: kept, but not counted.
    Aborted(Mark),
}

impl Ending {
    /// Every ending, each once: a finished game's three outcomes, then a resignation
    /// and an abandoned game by each side, a time-out lost and drawn by each, an aborted
    /// game by each.
    pub const ALL: [Ending; 13] = [
        Ending::Finished(Outcome::Draw),
        Ending::Finished(Outcome::Won(Mark::X)),
        Ending::Finished(Outcome::Won(Mark::O)),
        Ending::Resigned(Mark::X),
        Ending::Resigned(Mark::O),
        Ending::Abandoned(Mark::X),
        Ending::Abandoned(Mark::O),
        Ending::TimedOut {
            side: Mark::X,
            drawn: false,
        },
        Ending::TimedOut {
            side: Mark::O,
            drawn: false,
        },
        Ending::TimedOut {
            side: Mark::X,
            drawn: true,
        },
        Ending::TimedOut {
            side: Mark::O,
            drawn: true,
        },
        Ending::Aborted(Mark::X),
        Ending::Aborted(Mark::O),
    ];

    /// What this ending adds to the record of the player of `mark`: a tie each for a
    /// draw (a time-out against a side that could no longer win too), a win and a loss
    /// for a win, a resignation or a time-out, nothing for an abandoned or aborted game.
    /// Every store counts with this one rule.
    pub fn counted(self, mark: Mark) -> Option<Record> {
        let win = Record {
            wins: 1,
            ..Record::default()
        };
        let loss = Record {
            losses: 1,
            ..Record::default()
        };
        let tie = Record {
            ties: 1,
            ..Record::default()
        };
        match self {
            Ending::Finished(Outcome::Draw) | Ending::TimedOut { drawn: true, .. } => Some(tie),
            Ending::Finished(Outcome::Won(winner)) => Some(if winner == mark { win } else { loss }),
            Ending::Resigned(loser)
            | Ending::TimedOut {
                side: loser,
                drawn: false,
            } => Some(if loser == mark { loss } else { win }),
            Ending::Abandoned(_) | Ending::Aborted(_) => None,
        }
    }
}

/// One thing to keep. A store keeps a write it already has as a no-op; a write that
/// contradicts what it has (another change under the same step number, another ending)
/// is refused with [`StoreError::Conflict`](super::StoreError::Conflict).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Write {
    Begin(NewGame),
    Step {
        game: GameId,
        step: Step,
    },
    End {
        game: GameId,
        ending: Ending,
    },
    /// The person at `mark` plays under `name` from now on: a seat's name may change
    /// until that seat's first move ([`exactly_once::name`](crate::rules::exactly_once::name)).
    /// The scoreboard counts a game's names only at its end, so nothing else changes.
    Name {
        game: GameId,
        mark: Mark,
        name: PlayerName,
    },
    /// The game rates nobody from now on ([`NewGame::casual`]): a person took help a
    /// rated game does not allow ([`Help`](crate::play::Help)). Only while it is played
    /// ([`exactly_once::casual`](crate::rules::exactly_once::casual)).
    Casual {
        game: GameId,
    },
    /// The seat at `mark`, held open for whoever brings its invite, is taken: from now
    /// on `holder` holds it (a guest's secret, or the account the seat's player is
    /// named for). Once, while the game is played
    /// ([`exactly_once::seat`](crate::rules::exactly_once::seat)).
    Seat {
        game: GameId,
        mark: Mark,
        holder: SeatHolder,
    },
    /// The game's clock as it stands once its first `after` steps were taken (a move
    /// charged, an increment added): what any server reads back to judge the time, and
    /// its deadline, by which a store finds games overdue. Only for a game begun with a
    /// clock, while it is played ([`exactly_once::clock`](crate::rules::exactly_once::clock)).
    Clock {
        game: GameId,
        after: u32,
        clock: GameClock,
    },
}

impl Write {
    /// The game this write is about.
    pub fn game(&self) -> &GameId {
        match self {
            Write::Begin(new) => &new.id,
            Write::Step { game, .. }
            | Write::End { game, .. }
            | Write::Name { game, .. }
            | Write::Casual { game }
            | Write::Seat { game, .. }
            | Write::Clock { game, .. } => game,
        }
    }
}

/// A game as a store gives it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredGame {
    pub game: NewGame,
    /// Every step, numbered from 1 without gaps.
    pub steps: Vec<Step>,
    pub ending: Option<Ending>,
    /// When the store received its `Begin`, and its `End`.
    pub started: SystemTime,
    pub ended: Option<SystemTime>,
    /// The id of its rematch, if one was started.
    pub rematch: Option<GameId>,
    /// Its clock as last kept ([`Write::Clock`]), or as it began: `None` for a game
    /// played without one.
    pub clock: Option<GameClock>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_id_starts_with_its_time_so_later_games_sort_later() {
        let earlier = GameId::new(1_700_000_000_000, u128::MAX);
        let later = GameId::new(1_700_000_000_001, 0);

        assert!(earlier < later);
        assert_eq!(
            &earlier.as_str()[..12],
            format!("{:012x}", 1_700_000_000_000u64)
        );
    }

    #[test]
    fn a_new_id_keeps_eighty_random_bits() {
        let id = GameId::new(0, u128::MAX);

        assert_eq!(id.as_str(), format!("000000000000{}", "f".repeat(20)));
    }

    #[rstest::rstest]
    #[case::too_short("abc")]
    #[case::not_hex("zz000000000000000000000000000000")]
    #[case::too_long("000000000000000000000000000000000")]
    fn text_that_is_not_32_hex_digits_is_no_game_id(#[case] text: &str) {
        assert_eq!(GameId::parse(text), Err(GameIdError));
    }

    #[test]
    fn an_id_is_read_back_as_written_whatever_the_case() {
        let id = GameId::from_bits(0xABC);

        assert_eq!(GameId::parse(&id.as_str().to_uppercase()), Ok(id));
    }
}
