//! Reading a selected row into the row types. The order in which each row type's
//! columns are selected is written once, here, beside the list of those columns
//! ([`GAME_COLUMNS`](crate::GAME_COLUMNS) and the like); a store says only how its
//! driver reads one column as a value of a given type ([`Column`]), once for every type.

use crate::GameRow;
use crate::accounts::{AccountRow, SummaryRow, TokenRow};
use crate::assemble::ReviewRow;
use crate::ratings::{ChangeRow, RatingColumns};
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
    Ok([
        row.column(first)?,
        row.column(first + 1)?,
        row.column(first + 2)?,
    ])
}

/// One side's kind, name and level: three columns from `first`.
fn side<E>(row: &impl Columns<E>, first: usize) -> Result<crate::SideColumns, E> {
    Ok((
        row.column(first)?,
        row.column(first + 1)?,
        row.column(first + 2)?,
    ))
}

impl FromColumns for GameRow {
    fn read<E>(row: &impl Columns<E>, first: usize) -> Result<GameRow, E> {
        let at = |column: usize| first + column;
        Ok(GameRow {
            id: row.column(at(0))?,
            sides: [side(row, at(1))?, side(row, at(4))?],
            size: row.column(at(7))?,
            win: row.column(at(8))?,
            first: row.column(at(9))?,
            seating: row.column(at(10))?,
            locks: [row.column(at(11))?, row.column(at(12))?],
            follows: row.column(at(13))?,
            started_at: row.column(at(14))?,
            ended_at: row.column(at(15))?,
            ending: row.column(at(16))?,
            casual: row.column(at(17))?,
            holders: [row.column(at(18))?, row.column(at(19))?],
        })
    }
}

impl FromColumns for ReviewRow {
    fn read<E>(row: &impl Columns<E>, first: usize) -> Result<ReviewRow, E> {
        Ok(ReviewRow {
            ply: row.column(first)?,
            mark: row.column(first + 1)?,
            cell: row.column(first + 2)?,
            before: row.column(first + 3)?,
            after: row.column(first + 4)?,
            best_moves: row.column(first + 5)?,
        })
    }
}

impl FromColumns for ChangeRow {
    fn read<E>(row: &impl Columns<E>, first: usize) -> Result<ChangeRow, E> {
        Ok(ChangeRow {
            game: row.column(first)?,
            mark: row.column(first + 1)?,
            name: row.column(first + 2)?,
            size: row.column(first + 3)?,
            win: row.column(first + 4)?,
            before: glicko(row, first + 5)?,
            after: glicko(row, first + 8)?,
        })
    }
}

impl FromColumns for RatingColumns {
    fn read<E>(row: &impl Columns<E>, first: usize) -> Result<RatingColumns, E> {
        Ok(RatingColumns {
            name: row.column(first)?,
            size: row.column(first + 1)?,
            win: row.column(first + 2)?,
            rating: glicko(row, first + 3)?,
            games: row.column(first + 6)?,
        })
    }
}

impl FromColumns for AttemptRow {
    fn read<E>(row: &impl Columns<E>, first: usize) -> Result<AttemptRow, E> {
        Ok(AttemptRow {
            name: row.column(first)?,
            game: row.column(first + 1)?,
            ply: row.column(first + 2)?,
            at: row.column(first + 3)?,
            right: row.column(first + 4)?,
        })
    }
}

impl FromColumns for AccountRow {
    fn read<E>(row: &impl Columns<E>, first: usize) -> Result<AccountRow, E> {
        Ok(AccountRow {
            name: row.column(first)?,
            password: row.column(first + 1)?,
            created: row.column(first + 2)?,
        })
    }
}

impl FromColumns for SummaryRow {
    fn read<E>(row: &impl Columns<E>, first: usize) -> Result<SummaryRow, E> {
        Ok(SummaryRow {
            name: row.column(first)?,
            created: row.column(first + 1)?,
            sessions: row.column(first + 2)?,
            tokens: row.column(first + 3)?,
        })
    }
}

impl FromColumns for TokenRow {
    fn read<E>(row: &impl Columns<E>, first: usize) -> Result<TokenRow, E> {
        Ok(TokenRow {
            id: row.column(first)?,
            label: row.column(first + 1)?,
            created: row.column(first + 2)?,
        })
    }
}
