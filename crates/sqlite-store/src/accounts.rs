//! Accounts, their sessions and personal tokens (schema version 8): the
//! [`AccountStore`] port on `accounts`, `sessions` and `tokens`. The rows are
//! `tictactoe_store_rows::accounts`'s.
//!
//! Every write is one `BEGIN IMMEDIATE` transaction, so an account is added whole or
//! not at all, and two processes adding look-alike names take turns: the second finds
//! the first's account. A new password ends the account's sessions and revokes its
//! tokens in its own transaction; removing an account removes its sessions and tokens
//! by the tables' `ON DELETE CASCADE` (the store's connections enforce foreign keys).

use std::time::SystemTime;

use rusqlite::{OptionalExtension, Transaction, params};
use tictactoe_core::domain::PlayerName;
use tictactoe_core::ports::{
    Account, AccountStore, AccountSummary, Added, NewAccount, NewSession, NewToken, PasswordHash,
    SecretLock, StoreError, TokenId, TokenInfo,
};
use tictactoe_store_rows::accounts::{
    self, ACCOUNT_COLUMNS, AccountRow, SummaryRow, TOKEN_COLUMNS, TokenRow,
};
use tictactoe_store_rows::rows::time_column;

use crate::codec::{self, Select};
use crate::errors::Database;
use crate::{Sql, SqliteStore};

impl AccountStore for SqliteStore {
    fn add_account(&self, account: &NewAccount) -> Result<Added, StoreError> {
        let database = &self.database;
        let name = &account.name;
        self.in_write(|transaction| {
            if let Some(by) = like(transaction, name, database)? {
                return Ok(Added::Taken { by });
            }
            transaction
                .prepare_cached(&format!(
                    "INSERT INTO accounts (key, likeness, {ACCOUNT_COLUMNS}) \
                     VALUES (?1, ?2, ?3, ?4, ?5)"
                ))
                .db(database)?
                .execute(params![
                    name.key(),
                    name.likeness(),
                    name.as_str(),
                    account.password.as_str(),
                    codec::now_ms()
                ])
                .db(database)?;
            Ok(Added::Added)
        })
    }

    fn account(&self, name: &PlayerName) -> Result<Option<Account>, StoreError> {
        let database = &self.database;
        self.in_read(|transaction| {
            let rows: Vec<AccountRow> = transaction.select(
                database,
                &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE key = ?1"),
                [name.key()],
            )?;
            rows.first()
                .map(|row| row.account().map_err(|detail| database.unreadable(detail)))
                .transpose()
        })
    }

    fn account_like(&self, name: &PlayerName) -> Result<Option<PlayerName>, StoreError> {
        let database = &self.database;
        self.in_read(|transaction| like(transaction, name, database))
    }

    fn accounts(&self, now: SystemTime) -> Result<Vec<AccountSummary>, StoreError> {
        self.read_values(
            "SELECT a.name, a.created, \
             (SELECT count(*) FROM sessions s WHERE s.account = a.key AND s.expires > ?1), \
             (SELECT count(*) FROM tokens t WHERE t.account = a.key) \
             FROM accounts a ORDER BY a.key",
            [time_column(now)],
            SummaryRow::summary,
        )
    }

    fn set_password(&self, name: &PlayerName, password: &PasswordHash) -> Result<bool, StoreError> {
        let database = &self.database;
        let key = name.key();
        self.in_write(|transaction| {
            let changed = transaction
                .prepare_cached("UPDATE accounts SET password = ?2 WHERE key = ?1")
                .db(database)?
                .execute(params![key, password.as_str()])
                .db(database)?;
            if changed == 0 {
                return Ok(false);
            }
            for forget in [
                "DELETE FROM sessions WHERE account = ?1",
                "DELETE FROM tokens WHERE account = ?1",
            ] {
                transaction
                    .prepare_cached(forget)
                    .db(database)?
                    .execute([&key])
                    .db(database)?;
            }
            Ok(true)
        })
    }

    fn remove_account(&self, name: &PlayerName) -> Result<bool, StoreError> {
        let database = &self.database;
        self.in_write(|transaction| {
            let removed = transaction
                .prepare_cached("DELETE FROM accounts WHERE key = ?1")
                .db(database)?
                .execute([name.key()])
                .db(database)?;
            Ok(removed > 0)
        })
    }

    fn open_session(&self, session: &NewSession) -> Result<bool, StoreError> {
        let database = &self.database;
        let key = session.account.key();
        self.in_write(|transaction| {
            transaction
                .prepare_cached(
                    "INSERT INTO sessions (lock, account, expires) \
                     SELECT ?1, key, ?3 FROM accounts WHERE key = ?2 ON CONFLICT DO NOTHING",
                )
                .db(database)?
                .execute(params![
                    session.lock.as_str(),
                    key,
                    time_column(session.expires)
                ])
                .db(database)?;
            transaction
                .prepare_cached(
                    "SELECT EXISTS (SELECT 1 FROM sessions WHERE lock = ?1 AND account = ?2)",
                )
                .db(database)?
                .query_row(params![session.lock.as_str(), key], |row| row.get(0))
                .db(database)
        })
    }

    fn session(
        &self,
        lock: &SecretLock,
        now: SystemTime,
    ) -> Result<Option<PlayerName>, StoreError> {
        let database = &self.database;
        self.in_read(|transaction| {
            name_of(
                transaction,
                "SELECT a.name FROM sessions s JOIN accounts a ON a.key = s.account \
                 WHERE s.lock = ?1 AND s.expires > ?2",
                params![lock.as_str(), time_column(now)],
                database,
            )
        })
    }

    fn close_session(&self, lock: &SecretLock) -> Result<(), StoreError> {
        let database = &self.database;
        self.in_write(|transaction| {
            transaction
                .prepare_cached("DELETE FROM sessions WHERE lock = ?1")
                .db(database)?
                .execute([lock.as_str()])
                .db(database)?;
            Ok(())
        })
    }

    fn forget_expired_sessions(&self, now: SystemTime) -> Result<u64, StoreError> {
        let database = &self.database;
        self.in_write(|transaction| {
            let forgotten = transaction
                .prepare_cached("DELETE FROM sessions WHERE expires <= ?1")
                .db(database)?
                .execute([time_column(now)])
                .db(database)?;
            Ok(forgotten as u64)
        })
    }

    fn add_token(&self, token: &NewToken) -> Result<bool, StoreError> {
        let database = &self.database;
        let key = token.account.key();
        self.in_write(|transaction| {
            transaction
                .prepare_cached(&format!(
                    "INSERT INTO tokens (lock, account, {TOKEN_COLUMNS}) \
                     SELECT ?2, key, ?1, ?4, ?5 FROM accounts WHERE key = ?3 \
                     ON CONFLICT DO NOTHING"
                ))
                .db(database)?
                .execute(params![
                    token.id.as_str(),
                    token.lock.as_str(),
                    key,
                    token.label,
                    time_column(token.created)
                ])
                .db(database)?;
            transaction
                .prepare_cached(
                    "SELECT EXISTS (SELECT 1 FROM tokens \
                     WHERE id = ?1 AND lock = ?2 AND account = ?3)",
                )
                .db(database)?
                .query_row(
                    params![token.id.as_str(), token.lock.as_str(), key],
                    |row| row.get(0),
                )
                .db(database)
        })
    }

    fn token(&self, lock: &SecretLock) -> Result<Option<PlayerName>, StoreError> {
        let database = &self.database;
        self.in_read(|transaction| {
            name_of(
                transaction,
                "SELECT a.name FROM tokens t JOIN accounts a ON a.key = t.account \
                 WHERE t.lock = ?1",
                [lock.as_str()],
                database,
            )
        })
    }

    fn tokens(&self, account: &PlayerName) -> Result<Vec<TokenInfo>, StoreError> {
        self.read_values(
            &format!("SELECT {TOKEN_COLUMNS} FROM tokens WHERE account = ?1 ORDER BY created, id"),
            [account.key()],
            TokenRow::info,
        )
    }

    fn revoke_token(&self, account: &PlayerName, id: &TokenId) -> Result<bool, StoreError> {
        let database = &self.database;
        self.in_write(|transaction| {
            let revoked = transaction
                .prepare_cached("DELETE FROM tokens WHERE id = ?2 AND account = ?1")
                .db(database)?
                .execute([account.key(), id.to_string()])
                .db(database)?;
            Ok(revoked > 0)
        })
    }

    /// Four reads of one index entry at most: each side's key among the ended games
    /// (the history's indexes) and among the games going on (version 8's).
    fn has_games(&self, name: &PlayerName) -> Result<bool, StoreError> {
        let database = &self.database;
        self.in_read(|transaction| {
            transaction
                .prepare_cached(
                    "SELECT \
                     EXISTS (SELECT 1 FROM games INDEXED BY games_ended_by_x \
                             WHERE x_key = ?1 AND ending IS NOT NULL) \
                     OR EXISTS (SELECT 1 FROM games INDEXED BY games_ended_by_o \
                                WHERE o_key = ?1 AND ending IS NOT NULL) \
                     OR EXISTS (SELECT 1 FROM games INDEXED BY games_going_on_by_x \
                                WHERE x_key = ?1 AND ending IS NULL) \
                     OR EXISTS (SELECT 1 FROM games INDEXED BY games_going_on_by_o \
                                WHERE o_key = ?1 AND ending IS NULL)",
                )
                .db(database)?
                .query_row([name.key()], |row| row.get(0))
                .db(database)
        })
    }
}

/// The name of the account whose name has `name`'s key or likeness, if there is one.
fn like(
    transaction: &Transaction<'_>,
    name: &PlayerName,
    database: &Database,
) -> Result<Option<PlayerName>, StoreError> {
    name_of(
        transaction,
        "SELECT name FROM accounts WHERE key = ?1 OR likeness = ?2 LIMIT 1",
        [name.key(), name.likeness()],
        database,
    )
}

/// The account's name `sql` selects with `params`, checked, if it selects one.
fn name_of(
    transaction: &Transaction<'_>,
    sql: &str,
    params: impl rusqlite::Params,
    database: &Database,
) -> Result<Option<PlayerName>, StoreError> {
    let name: Option<String> = transaction
        .prepare_cached(sql)
        .db(database)?
        .query_row(params, |row| row.get(0))
        .optional()
        .db(database)?;
    name.as_deref()
        .map(accounts::name)
        .transpose()
        .map_err(|detail| database.unreadable(detail))
}
