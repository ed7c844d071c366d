//! Accounts, their sessions and personal tokens (`migrations/0007_accounts.sql`): the
//! [`AccountStore`] port on `accounts`, `sessions` and `tokens`. The rows are
//! `tictactoe_store_rows::accounts`'s.
//!
//! Servers sharing the database add accounts at once: an account is one `INSERT ... ON
//! CONFLICT DO NOTHING` against the unique key and likeness, so of two look-alike names
//! the database adds one, and the other's statement waits for it and then finds it. A
//! new password ends the account's sessions and revokes its tokens in its own
//! transaction; removing an account removes its sessions and tokens by the tables'
//! `ON DELETE CASCADE`.

use std::time::SystemTime;

use tictactoe_core::domain::PlayerName;
use tictactoe_core::ports::{
    Account, AccountStore, AccountSummary, Added, NewAccount, NewSession, NewToken, PasswordHash,
    SecretLock, StoreError, TokenId, TokenInfo,
};
use tictactoe_store_rows::accounts::{
    self, ACCOUNT_COLUMNS, AccountRow, SummaryRow, TOKEN_COLUMNS, TokenRow,
};
use tictactoe_store_rows::rows::time_column;

use crate::PostgresStore;
use crate::codec::{self, NOW_MS};
use crate::errors::{Database, Failure, PostgresErrors};
use crate::pool::{Params, Tx};

/// How many times [`AccountStore::add_account`] tries again when the account that took
/// the name is removed between its two statements.
const ADD_TRIES: u32 = 3;

impl AccountStore for PostgresStore {
    fn add_account(&self, account: &NewAccount) -> Result<Added, StoreError> {
        let database = &self.database;
        let name = &account.name;
        let (key, likeness) = (name.key(), name.likeness());
        self.transact(false, None, |tx| {
            for _ in 0..ADD_TRIES {
                let added = tx.execute(
                    &format!(
                        "INSERT INTO accounts (key, likeness, {ACCOUNT_COLUMNS}) \
                         VALUES ($1, $2, $3, $4, {NOW_MS}) ON CONFLICT DO NOTHING"
                    ),
                    &[&key, &likeness, &name.as_str(), &account.password.as_str()],
                )?;
                if added > 0 {
                    return Ok(Added::Added);
                }
                // Each statement sees what was committed before it began: the account
                // that took the name, unless it was removed since.
                if let Some(by) = like(tx, name, database)? {
                    return Ok(Added::Taken { by });
                }
            }
            Err(Failure::Store(StoreError::Unavailable {
                database: database.0.clone(),
                detail: format!(
                    "the name {name} was taken and let go {ADD_TRIES} times while it was \
                     being added; try again"
                ),
            }))
        })
    }

    fn account(&self, name: &PlayerName) -> Result<Option<Account>, StoreError> {
        let database = &self.database;
        self.read(|tx| {
            let row = tx.query_opt(
                &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE key = $1"),
                &[&name.key()],
            )?;
            let Some(row) = row else {
                return Ok(None);
            };
            let row: AccountRow = codec::read(&row, 0, database)?;
            let account = row
                .account()
                .map_err(|detail| database.unreadable(detail))?;
            Ok(Some(account))
        })
    }

    fn account_like(&self, name: &PlayerName) -> Result<Option<PlayerName>, StoreError> {
        let database = &self.database;
        self.read(|tx| like(tx, name, database))
    }

    fn accounts(&self, now: SystemTime) -> Result<Vec<AccountSummary>, StoreError> {
        self.read_values(
            "SELECT a.name, a.created, \
             (SELECT count(*) FROM sessions s WHERE s.account = a.key AND s.expires > $1), \
             (SELECT count(*) FROM tokens t WHERE t.account = a.key) \
             FROM accounts a ORDER BY a.key",
            &[&time_column(now)],
            SummaryRow::summary,
        )
    }

    fn set_password(&self, name: &PlayerName, password: &PasswordHash) -> Result<bool, StoreError> {
        let key = name.key();
        self.transact(false, None, |tx| {
            let changed = tx.execute(
                "UPDATE accounts SET password = $2 WHERE key = $1",
                &[&key, &password.as_str()],
            )?;
            if changed == 0 {
                return Ok(false);
            }
            tx.execute("DELETE FROM sessions WHERE account = $1", &[&key])?;
            tx.execute("DELETE FROM tokens WHERE account = $1", &[&key])?;
            Ok(true)
        })
    }

    fn remove_account(&self, name: &PlayerName) -> Result<bool, StoreError> {
        let removed = self.execute_one("DELETE FROM accounts WHERE key = $1", &[&name.key()])?;
        Ok(removed > 0)
    }

    fn open_session(&self, session: &NewSession) -> Result<bool, StoreError> {
        let database = &self.database;
        let (lock, key) = (session.lock.as_str(), session.account.key());
        let expires = time_column(session.expires);
        self.transact(false, None, |tx| {
            tx.execute(
                "INSERT INTO sessions (lock, account, expires) \
                 SELECT $1, key, $3 FROM accounts WHERE key = $2 ON CONFLICT DO NOTHING",
                &[&lock, &key, &expires],
            )?;
            let row = tx.query_one(
                "SELECT EXISTS (SELECT 1 FROM sessions WHERE lock = $1 AND account = $2)",
                &[&lock, &key],
            )?;
            database.get(&row, 0)
        })
    }

    fn session(
        &self,
        lock: &SecretLock,
        now: SystemTime,
    ) -> Result<Option<PlayerName>, StoreError> {
        let database = &self.database;
        let now = time_column(now);
        self.read(|tx| {
            name_of(
                tx,
                "SELECT a.name FROM sessions s JOIN accounts a ON a.key = s.account \
                 WHERE s.lock = $1 AND s.expires > $2",
                &[&lock.as_str(), &now],
                database,
            )
        })
    }

    fn close_session(&self, lock: &SecretLock) -> Result<(), StoreError> {
        self.execute_one("DELETE FROM sessions WHERE lock = $1", &[&lock.as_str()])?;
        Ok(())
    }

    fn forget_expired_sessions(&self, now: SystemTime) -> Result<u64, StoreError> {
        self.execute_one(
            "DELETE FROM sessions WHERE expires <= $1",
            &[&time_column(now)],
        )
    }

    fn add_token(&self, token: &NewToken) -> Result<bool, StoreError> {
        let database = &self.database;
        let (id, lock, key) = (token.id.as_str(), token.lock.as_str(), token.account.key());
        let created = time_column(token.created);
        self.transact(false, None, |tx| {
            tx.execute(
                &format!(
                    "INSERT INTO tokens (lock, account, {TOKEN_COLUMNS}) \
                     SELECT $2, key, $1, $4, $5 FROM accounts WHERE key = $3 \
                     ON CONFLICT DO NOTHING"
                ),
                &[&id, &lock, &key, &token.label, &created],
            )?;
            let row = tx.query_one(
                "SELECT EXISTS (SELECT 1 FROM tokens \
                 WHERE id = $1 AND lock = $2 AND account = $3)",
                &[&id, &lock, &key],
            )?;
            database.get(&row, 0)
        })
    }

    fn token(&self, lock: &SecretLock) -> Result<Option<PlayerName>, StoreError> {
        let database = &self.database;
        self.read(|tx| {
            name_of(
                tx,
                "SELECT a.name FROM tokens t JOIN accounts a ON a.key = t.account \
                 WHERE t.lock = $1",
                &[&lock.as_str()],
                database,
            )
        })
    }

    fn tokens(&self, account: &PlayerName) -> Result<Vec<TokenInfo>, StoreError> {
        self.read_values(
            &format!("SELECT {TOKEN_COLUMNS} FROM tokens WHERE account = $1 ORDER BY created, id"),
            &[&account.key()],
            TokenRow::info,
        )
    }

    fn revoke_token(&self, account: &PlayerName, id: &TokenId) -> Result<bool, StoreError> {
        let revoked = self.execute_one(
            "DELETE FROM tokens WHERE id = $2 AND account = $1",
            &[&account.key(), &id.as_str()],
        )?;
        Ok(revoked > 0)
    }

    /// Four reads of one index entry at most: each side's key among the ended games
    /// (the history's indexes) and among the games going on (version 7's).
    fn has_games(&self, name: &PlayerName) -> Result<bool, StoreError> {
        let database = &self.database;
        let key = name.key();
        self.read(|tx| {
            let row = tx.query_one(
                "SELECT \
                 EXISTS (SELECT 1 FROM games WHERE x_key = $1 AND ending IS NOT NULL) \
                 OR EXISTS (SELECT 1 FROM games WHERE o_key = $1 AND ending IS NOT NULL) \
                 OR EXISTS (SELECT 1 FROM games WHERE x_key = $1 AND ending IS NULL) \
                 OR EXISTS (SELECT 1 FROM games WHERE o_key = $1 AND ending IS NULL)",
                &[&key],
            )?;
            database.get(&row, 0)
        })
    }
}

/// The name of the account whose name has `name`'s key or likeness, if there is one.
fn like(
    tx: &mut Tx<'_>,
    name: &PlayerName,
    database: &Database,
) -> Result<Option<PlayerName>, Failure> {
    name_of(
        tx,
        "SELECT name FROM accounts WHERE key = $1 OR likeness = $2 LIMIT 1",
        &[&name.key(), &name.likeness()],
        database,
    )
}

/// The account's name `sql` selects with `params`, checked, if it selects one.
fn name_of(
    tx: &mut Tx<'_>,
    sql: &str,
    params: Params<'_>,
    database: &Database,
) -> Result<Option<PlayerName>, Failure> {
    let Some(row) = tx.query_opt(sql, params)? else {
        return Ok(None);
    };
    let name: String = database.get(&row, 0)?;
    let name = accounts::name(&name).map_err(|detail| database.unreadable(detail))?;
    Ok(Some(name))
}
