//! The rows of `seeks`, written once for both SQL stores: each seek of a person looking
//! for an opponent ([`Seek`]), what each column holds and its checks when read back;
//! the SQL is each store's.
//!
//! A seek is filed under its id, and under its owner's name key (`owner_key`, the name
//! as the scoreboard compares names: opening a seek closes its owner's others). Times
//! are milliseconds since 1970 ([`rows::time_column`]), as the caller gave them, cut
//! to the millisecond. A seek is open while it is neither taken (`taken_game`,
//! `taken_mark` and `taken_at`, all three or none) nor `closed`.

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tictactoe_core::domain::{Mark, PlayerName};
use tictactoe_core::ports::{GameId, NewSeek, SeatHolder, Seek, SeekId, Taken};

use crate::{rows, words};

/// The columns of `seeks` a [`SeekRow`] holds, in its order.
pub const SEEK_COLUMNS: &str = "id, kind, owner, holder, lock, size, win, control, initial_ms, \
     increment_ms, rated, rating, at, seen, taken_game, taken_mark, taken_at, closed";

/// The condition on a row of `seeks` that it is open: neither taken nor closed.
pub const OPEN: &str = "taken_game IS NULL AND NOT closed";

/// A row of `seeks` ([`SEEK_COLUMNS`]), before it is checked. Its `owner_key` column is
/// the owner's name key, and its `number` the order seeks were opened in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeekRow {
    pub id: String,
    pub kind: String,
    pub owner: String,
    /// `account`, or `guest` with the lock of the guest's secret in `lock`.
    pub holder: String,
    pub lock: Option<String>,
    pub size: i64,
    pub win: i64,
    /// The time control ([`words::control_columns`]).
    pub control: String,
    pub initial_ms: i64,
    pub increment_ms: Option<i64>,
    pub rated: bool,
    pub rating: i64,
    /// Milliseconds since 1970: when it was opened, and when its owner was last seen.
    pub at: i64,
    pub seen: i64,
    pub taken_game: Option<String>,
    pub taken_mark: Option<String>,
    pub taken_at: Option<i64>,
    pub closed: bool,
}

impl SeekRow {
    /// The row `seek` is kept as when it is opened: open, its owner seen as it opened
    /// it. Only an account's seek or a guest's has a row: a seek held otherwise is an
    /// error that says so.
    pub fn opened(seek: &NewSeek) -> Result<SeekRow, String> {
        let (holder, lock) = holder_columns(&seek.holder)?;
        let (control, initial_ms, increment_ms) = words::control_columns(seek.control);
        let at = rows::time_column(seek.at);
        Ok(SeekRow {
            id: seek.id.to_string(),
            kind: words::seek_kind_word(seek.kind).to_owned(),
            owner: seek.owner.as_str().to_owned(),
            holder: holder.to_owned(),
            lock: lock.map(str::to_owned),
            size: seek.board.size() as i64,
            win: seek.board.win_length() as i64,
            control: control.to_owned(),
            initial_ms,
            increment_ms,
            rated: seek.rated,
            rating: seek.rating,
            at,
            seen: at,
            taken_game: None,
            taken_mark: None,
            taken_at: None,
            closed: false,
        })
    }

    /// The seek, checked: a row whose columns contradict each other is an error that
    /// names the seek and says what.
    pub fn seek(&self) -> Result<Seek, String> {
        self.checked()
            .map_err(|detail| format!("seek {:?}: {detail}", self.id))
    }

    fn checked(&self) -> Result<Seek, String> {
        let new = NewSeek {
            id: SeekId::parse(&self.id).map_err(|e| format!("its id: {e}"))?,
            kind: words::seek_kind(&self.kind)?,
            // `stored`: a name kept under older rules is read back all the same.
            owner: PlayerName::stored(&self.owner)
                .map_err(|e| format!("its owner {:?}: {e}", self.owner))?,
            holder: holder(&self.holder, self.lock.as_deref())?,
            board: rows::geometry(self.size, self.win)?,
            control: words::control(&self.control, self.initial_ms, self.increment_ms)?,
            rated: self.rated,
            rating: self.rating,
            at: rows::time(self.at).map_err(|e| format!("its opening time: {e}"))?,
        };
        let taken = match (&self.taken_game, &self.taken_mark, self.taken_at) {
            (None, None, None) => None,
            (Some(game), Some(mark), Some(at)) => Some(Taken {
                game: GameId::parse(game)
                    .map_err(|e| format!("the game it was taken into: {e}"))?,
                mark: words::mark(mark)?,
                at: rows::time(at).map_err(|e| format!("the time it was taken: {e}"))?,
            }),
            (game, mark, at) => {
                return Err(format!(
                    "taken into game {game:?} at mark {mark:?} at {at:?}: a taken seek has \
                     all three, an open one none"
                ));
            }
        };
        if taken.is_some() && self.closed {
            return Err("it is both taken and closed".to_owned());
        }
        Ok(Seek {
            seek: new,
            seen: rows::time(self.seen).map_err(|e| format!("the time its owner was seen: {e}"))?,
            taken,
            closed: self.closed,
        })
    }
}

/// A seek's holder as kept: `account`, or `guest` and the lock of the guest's secret
/// (the words of a seat's holder, [`words::HOLDERS`]). A seek is an account's or a
/// guest's: any other holder is an error.
pub fn holder_columns(holder: &SeatHolder) -> Result<(&'static str, Option<&str>), String> {
    match holder {
        SeatHolder::Account | SeatHolder::Guest(_) => Ok(words::holder_columns(holder)),
        SeatHolder::Local | SeatHolder::Invited(_) => Err(format!(
            "a seek is an account's or a guest's, not one held as {:?}",
            words::holder_columns(holder).0
        )),
    }
}

/// A seek's holder from its columns (see [`holder_columns`]).
pub fn holder(word: &str, lock: Option<&str>) -> Result<SeatHolder, String> {
    let read = words::holder(Mark::X, Some(word), lock).ok();
    match read {
        Some(holder @ (SeatHolder::Account | SeatHolder::Guest(_))) => Ok(holder),
        _ => Err(format!(
            "its owner is held as {word:?} with {} lock: a seek is an account's (no lock) \
             or a guest's (a lock)",
            if lock.is_some() { "a" } else { "no" }
        )),
    }
}

/// The seeks [`SeekStore::take_seeks`] takes, as kept: each seek once, in id order (the
/// order a store locks them in), at the mark it was last named with, as
/// (id, mark word).
///
/// [`SeekStore::take_seeks`]: tictactoe_core::ports::SeekStore::take_seeks
pub fn taking_columns(taking: &[(SeekId, Mark)]) -> Vec<(String, &'static str)> {
    let by_id: BTreeMap<&str, Mark> = taking
        .iter()
        .map(|(id, mark)| (id.as_str(), *mark))
        .collect();
    by_id
        .into_iter()
        .map(|(id, mark)| (id.to_owned(), words::mark_word(mark)))
        .collect()
}

/// `seen_since` as a bound on the `seen` column: a seek is listed when `seen >=` it.
/// `seen` holds whole milliseconds, so a bound within a millisecond is rounded up: a
/// seek seen at 5 ms was not seen at or after 5.5 ms. (Before 1970: 0, every time.)
pub fn seen_since_column(seen_since: SystemTime) -> i64 {
    let since = seen_since
        .duration_since(UNIX_EPOCH)
        .unwrap_or(Duration::ZERO);
    let ms = since.as_millis() + u128::from(!since.subsec_nanos().is_multiple_of(1_000_000));
    i64::try_from(ms).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use tictactoe_core::domain::{Geometry, TimeControl};
    use tictactoe_core::ports::{SecretLock, SeekKind};

    use super::*;

    const LOCK: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    fn moment(ms: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_millis(1_700_000_000_000 + ms)
    }

    fn new_seek(holder: SeatHolder) -> NewSeek {
        NewSeek {
            id: SeekId::from_bits(7),
            kind: SeekKind::Pool,
            owner: PlayerName::new("Ada").unwrap(),
            holder,
            board: Geometry::new(4, 3).unwrap(),
            control: TimeControl::increment(Duration::from_secs(180), Duration::from_secs(2))
                .unwrap(),
            rated: true,
            rating: 1512,
            at: moment(3),
        }
    }

    fn row() -> SeekRow {
        SeekRow::opened(&new_seek(SeatHolder::Account)).unwrap()
    }

    fn taken_row() -> SeekRow {
        SeekRow {
            taken_game: Some(GameId::from_bits(9).to_string()),
            taken_mark: Some("O".into()),
            taken_at: Some(1_700_000_000_010),
            ..row()
        }
    }

    #[rstest::rstest]
    #[case::an_accounts(SeatHolder::Account)]
    #[case::a_guests(SeatHolder::Guest(SecretLock::parse(LOCK).unwrap()))]
    fn a_seek_opened_reads_back_open_its_owner_seen_as_they_opened_it(#[case] holder: SeatHolder) {
        let new = new_seek(holder);

        let read = SeekRow::opened(&new).unwrap().seek();

        assert_eq!(
            read,
            Ok(Seek {
                seen: moment(3),
                seek: new,
                taken: None,
                closed: false,
            })
        );
    }

    #[test]
    fn a_taken_seek_reads_back_with_its_game_mark_and_time() {
        let read = taken_row().seek().unwrap();

        assert_eq!(
            read.taken,
            Some(Taken {
                game: GameId::from_bits(9),
                mark: Mark::O,
                at: moment(10),
            })
        );
    }

    #[rstest::rstest]
    #[case::the_machines(SeatHolder::Local)]
    #[case::an_invites(SeatHolder::Invited(SecretLock::parse(LOCK).unwrap()))]
    fn a_seek_held_by_neither_an_account_nor_a_guest_has_no_row(#[case] holder: SeatHolder) {
        let row = SeekRow::opened(&new_seek(holder));

        assert!(matches!(row, Err(why) if why.contains("an account's or a guest's")));
    }

    #[rstest::rstest]
    #[case::of_no_id(SeekRow { id: "seven".into(), ..row() }, "id")]
    #[case::of_no_kind(SeekRow { kind: "queue".into(), ..row() }, "kind")]
    #[case::of_no_owner(SeekRow { owner: "  ".into(), ..row() }, "owner")]
    #[case::an_account_with_a_lock(SeekRow { lock: Some(LOCK.into()), ..row() }, "held as")]
    #[case::a_guest_without_a_lock(SeekRow { holder: "guest".into(), ..row() }, "held as")]
    #[case::an_invites(SeekRow { holder: "invited".into(), lock: Some(LOCK.into()), ..row() }, "held as")]
    #[case::a_guest_whose_lock_is_no_lock(SeekRow { holder: "guest".into(), lock: Some("abc".into()), ..row() }, "held as")]
    #[case::on_no_board(SeekRow { size: 2, ..row() }, "board")]
    #[case::on_no_time_control(SeekRow { initial_ms: 4_999, ..row() }, "time control")]
    #[case::per_move_with_an_increment(SeekRow { control: "per move".into(), ..row() }, "time control")]
    #[case::opened_after_the_year_9999(SeekRow { at: i64::MAX, ..row() }, "opening time")]
    #[case::seen_before_1970(SeekRow { seen: -1, ..row() }, "seen")]
    #[case::taken_into_no_game(SeekRow { taken_game: Some("seven".into()), ..taken_row() }, "taken into")]
    #[case::taken_at_no_mark(SeekRow { taken_mark: Some("x".into()), ..taken_row() }, "mark")]
    #[case::taken_at_no_time(SeekRow { taken_at: Some(-1), ..taken_row() }, "taken")]
    #[case::taken_without_a_mark(SeekRow { taken_mark: None, ..taken_row() }, "all three")]
    #[case::taken_and_closed(SeekRow { closed: true, ..taken_row() }, "both taken and closed")]
    fn a_row_that_is_no_seek_is_unreadable_and_says_why(#[case] row: SeekRow, #[case] what: &str) {
        let read = row.seek();

        crate::assert_unreadable_naming(&read, what);
        crate::assert_unreadable_naming(&read, &row.id);
    }

    #[test]
    fn each_seek_is_taken_once_in_id_order_at_the_mark_it_was_last_named_with() {
        let (a, b) = (SeekId::from_bits(1), SeekId::from_bits(2));

        let columns = taking_columns(&[(b.clone(), Mark::X), (a.clone(), Mark::O), (b, Mark::O)]);

        assert_eq!(
            columns,
            [
                (SeekId::from_bits(1).to_string(), "O"),
                (SeekId::from_bits(2).to_string(), "O")
            ]
        );
    }

    #[rstest::rstest]
    #[case::a_whole_millisecond(Duration::from_millis(5), 5)]
    #[case::within_a_millisecond(Duration::from_micros(5_500), 6)]
    #[case::a_nanosecond_past_one(Duration::from_nanos(5_000_001), 6)]
    fn a_bound_on_the_time_seen_is_rounded_up_to_the_millisecond(
        #[case] since: Duration,
        #[case] ms: i64,
    ) {
        assert_eq!(seen_since_column(UNIX_EPOCH + since), ms);
    }

    #[test]
    fn a_bound_before_1970_is_every_time() {
        assert_eq!(seen_since_column(UNIX_EPOCH - Duration::from_secs(1)), 0);
    }
}
