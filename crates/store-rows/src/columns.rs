//! Reading a selected row into the row types. The order in which each row type's
//! columns are selected is written once, here, beside the list of those columns
//! ([`GAME_COLUMNS`](crate::GAME_COLUMNS) and the like); a store says only how its
//! driver reads one column as a value of a given type ([`Column`]), once for every type.

use crate::GameRow;
use crate::accounts::{AccountRow, SummaryRow, TokenRow};
use crate::assemble::ReviewRow;
use crate::clocks::{BegunClock, ClockColumns};
use crate::ratings::{ChangeRow, RatingColumns};
use crate::seeks::SeekRow;
use crate::training::AttemptRow;

/// One column of a selected row, as a store's driver reads it: the value at position
/// `at` (from 0) as a `T`, or the driver's error (a column of another type, a NULL
/// where a value is needed). Never a panic.
pub trait Column<T> {
    type Error;

    fn column(&self, at: usize) -> Result<T, Self::Error>;
}

/// A row whose every column a store's driver reads as any type a row type holds, all
/// with one error type `E`.
pub trait Columns<E>:
    Column<i64, Error = E>
    + Column<Option<i64>, Error = E>
    + Column<String, Error = E>
    + Column<Option<String>, Error = E>
    + Column<f64, Error = E>
    + Column<bool, Error = E>
{
}

impl<E, R> Columns<E> for R where
    R: Column<i64, Error = E>
        + Column<Option<i64>, Error = E>
        + Column<String, Error = E>
        + Column<Option<String>, Error = E>
        + Column<f64, Error = E>
        + Column<bool, Error = E>
{
}

/// A row type read from the columns it is selected with, starting at column `first`
/// (where a query selects other columns before them).
pub trait FromColumns: Sized {
    fn read<E>(row: &impl Columns<E>, first: usize) -> Result<Self, E>;
}

/// A rating, its deviation and its volatility: three columns from `first`.
pub fn glicko<E>(row: &impl Columns<E>, first: usize) -> Result<[f64; 3], E> {
    InOrder { row, at: first }.glicko()
}

/// A row's columns read one after another, from column `at`: each read takes the
/// next, so a row type's columns are read in the order its fields are written.
struct InOrder<'r, R> {
    row: &'r R,
    at: usize,
}

impl<R> InOrder<'_, R> {
    /// The next column, as a `T`.
    fn column<T>(&mut self) -> Result<T, R::Error>
    where
        R: Column<T>,
    {
        let value = self.row.column(self.at);
        self.at += 1;
        value
    }

    /// A rating, its deviation and its volatility: the next three columns.
    fn glicko<E>(&mut self) -> Result<[f64; 3], E>
    where
        R: Columns<E>,
    {
        Ok([self.column()?, self.column()?, self.column()?])
    }

    /// X's and O's time left: the next two columns.
    fn left<E>(&mut self) -> Result<[i64; 2], E>
    where
        R: Columns<E>,
    {
        Ok([self.column()?, self.column()?])
    }

    /// One side's kind, name and level: the next three columns.
    fn side<E>(&mut self) -> Result<crate::SideColumns, E>
    where
        R: Columns<E>,
    {
        Ok((self.column()?, self.column()?, self.column()?))
    }
}

impl FromColumns for GameRow {
    fn read<E>(row: &impl Columns<E>, first: usize) -> Result<GameRow, E> {
        let mut columns = InOrder { row, at: first };
        Ok(GameRow {
            id: columns.column()?,
            sides: [columns.side()?, columns.side()?],
            size: columns.column()?,
            win: columns.column()?,
            first: columns.column()?,
            seating: columns.column()?,
            locks: [columns.column()?, columns.column()?],
            follows: columns.column()?,
            started_at: columns.column()?,
            ended_at: columns.column()?,
            ending: columns.column()?,
            casual: columns.column()?,
            holders: [columns.column()?, columns.column()?],
            clock_end: columns.column()?,
            clock: BegunClock {
                control: columns.column()?,
                initial_ns: columns.column()?,
                increment_ns: columns.column()?,
                first_move_ns: columns.column()?,
                left_ns: [columns.column()?, columns.column()?],
                turn: columns.column()?,
                since_ns: columns.column()?,
                moves: columns.column()?,
            },
        })
    }
}

/// [`FromColumns`] for a row type read field by field, in the order the fields are
/// listed: each one column, or as many as the [`InOrder`] reader named after its colon
/// takes (`before: glicko`: three).
macro_rules! from_columns {
    ($row:ident { $($field:ident $(: $reader:ident)?),+ $(,)? }) => {
        impl FromColumns for $row {
            fn read<E>(row: &impl Columns<E>, first: usize) -> Result<$row, E> {
                let mut columns = InOrder { row, at: first };
                Ok($row {
                    $($field: from_columns!(@read columns $($reader)?),)+
                })
            }
        }
    };
    (@read $columns:ident) => { $columns.column()? };
    (@read $columns:ident $reader:ident) => { $columns.$reader()? };
}

from_columns!(ReviewRow {
    ply,
    mark,
    cell,
    before,
    after,
    best_moves
});
from_columns!(ChangeRow {
    game,
    mark,
    name,
    size,
    win,
    before: glicko,
    after: glicko
});
from_columns!(RatingColumns {
    name,
    size,
    win,
    rating: glicko,
    games
});
from_columns!(AttemptRow {
    name,
    game,
    ply,
    at,
    right
});
from_columns!(AccountRow {
    name,
    password,
    created
});
from_columns!(SummaryRow {
    name,
    created,
    sessions,
    tokens
});
from_columns!(TokenRow { id, label, created });
from_columns!(ClockColumns {
    control,
    initial_ns,
    increment_ns,
    first_move_ns,
    left_ns: left,
    turn,
    since_ns,
    moves
});
from_columns!(SeekRow {
    id,
    kind,
    owner,
    holder,
    lock,
    size,
    win,
    control,
    initial_ms,
    increment_ms,
    rated,
    rating,
    at,
    seen,
    taken_game,
    taken_mark,
    taken_at,
    closed
});
