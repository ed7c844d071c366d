//! The rows of `accounts`, `sessions` and `tokens`, written once for both SQL stores:
//! what each column holds and its checks when read back; the SQL is each store's.
//!
//! An account is filed under its name's key and likeness (each unique), and keeps its
//! name as signed up, its password's hash (a PHC string) and when it was made. A
//! session and a token are filed under the lock of their secret (a token also under
//! its id) and name their account by its key; times are milliseconds since 1970
//! ([`rows::time_column`]).

use tictactoe_core::domain::PlayerName;
use tictactoe_core::ports::{Account, AccountSummary, PasswordHash, TokenId, TokenInfo};

use crate::rows;

/// The columns of `accounts` an [`AccountRow`] holds, in its order.
pub const ACCOUNT_COLUMNS: &str = "name, password, created";

/// The columns of `tokens` a [`TokenRow`] holds, in its order.
pub const TOKEN_COLUMNS: &str = "id, label, created";

/// A row of `accounts` ([`ACCOUNT_COLUMNS`]), before it is checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountRow {
    pub name: String,
    pub password: String,
    /// Milliseconds since 1970.
    pub created: i64,
}

impl AccountRow {
    /// The account, checked.
    pub fn account(&self) -> Result<Account, String> {
        let name = name(&self.name)?;
        Ok(Account {
            password: PasswordHash::parse(&self.password)
                .map_err(|e| format!("account {name}'s password: {e}"))?,
            created: rows::time(self.created)
                .map_err(|e| format!("account {name}'s creation: {e}"))?,
            name,
        })
    }
}

/// An account's line in the list of accounts, as selected: its name, when it was made,
/// its open sessions and its tokens (counts), before it is checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummaryRow {
    pub name: String,
    pub created: i64,
    pub sessions: i64,
    pub tokens: i64,
}

impl SummaryRow {
    /// The line, checked.
    pub fn summary(&self) -> Result<AccountSummary, String> {
        let name = name(&self.name)?;
        Ok(AccountSummary {
            created: rows::time(self.created)
                .map_err(|e| format!("account {name}'s creation: {e}"))?,
            sessions: rows::count(self.sessions)?,
            tokens: rows::count(self.tokens)?,
            name,
        })
    }
}

/// A row of `tokens` ([`TOKEN_COLUMNS`]), before it is checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRow {
    pub id: String,
    pub label: String,
    pub created: i64,
}

impl TokenRow {
    /// The token as its account lists it, checked.
    pub fn info(&self) -> Result<TokenInfo, String> {
        Ok(TokenInfo {
            id: TokenId::parse(&self.id).map_err(|e| format!("token {:?}: {e}", self.id))?,
            label: self.label.clone(),
            created: rows::time(self.created)
                .map_err(|e| format!("token {}'s creation: {e}", self.id))?,
        })
    }
}

/// An account's name as kept (the `name` column), checked.
pub fn name(text: &str) -> Result<PlayerName, String> {
    // `stored`: read back as it was kept, by the rules every kept name is read with.
    PlayerName::stored(text).map_err(|e| format!("an account's name {text:?}: {e}"))
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use super::*;

    const HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA";

    fn row() -> AccountRow {
        AccountRow {
            name: "Ada".into(),
            password: HASH.into(),
            created: 1_700_000_000_123,
        }
    }

    #[test]
    fn an_account_reads_back_from_its_row() {
        let account = row().account();

        assert_eq!(
            account,
            Ok(Account {
                name: PlayerName::new("Ada").unwrap(),
                password: PasswordHash::parse(HASH).unwrap(),
                created: UNIX_EPOCH + Duration::from_millis(1_700_000_000_123),
            })
        );
    }

    #[rstest::rstest]
    #[case::of_no_name(AccountRow { name: "  ".into(), ..row() }, "name")]
    #[case::whose_password_is_no_hash(AccountRow { password: "hunter2".into(), ..row() }, "password")]
    #[case::made_after_the_year_9999(AccountRow { created: i64::MAX, ..row() }, "creation")]
    fn a_row_that_is_no_account_is_unreadable_and_says_which_column(
        #[case] row: AccountRow,
        #[case] column: &str,
    ) {
        let read = row.account();

        crate::assert_unreadable_naming(&read, column);
    }

    #[test]
    fn a_summary_with_a_negative_count_is_unreadable() {
        let row = SummaryRow {
            name: "Ada".into(),
            created: 0,
            sessions: -1,
            tokens: 0,
        };

        assert!(row.summary().is_err());
    }

    #[test]
    fn a_token_whose_id_is_no_token_id_is_unreadable() {
        let row = TokenRow {
            id: "seven".into(),
            label: "laptop".into(),
            created: 0,
        };

        assert!(matches!(row.info(), Err(why) if why.contains("seven")));
    }
}
