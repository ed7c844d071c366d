//! The pool of connections a store's threads share, each connection with the
//! statements it has prepared.
//!
//! r2d2 hands each call a connection of its own for its transaction; PostgreSQL runs
//! the transactions of several connections at once, so a server's requests do not
//! queue behind one connection. Each statement is prepared once per connection and kept
//! ([`Conn::prepared`]): a prepared statement is sent as one round trip (bind and
//! execute), where a statement given as text takes two (prepare, then execute).

use std::collections::HashMap;

use postgres::{Client, Error, NoTls, Row, Statement, Transaction};
use r2d2_postgres::PostgresConnectionManager;

/// A connection and the statements prepared on it, by their SQL.
pub(crate) struct Conn {
    pub(crate) client: Client,
    statements: HashMap<String, Statement>,
}

impl Conn {
    /// One statement on its own, outside any transaction (a single statement sees the
    /// database at one moment by itself): one round trip, where a transaction around
    /// it would take three.
    pub(crate) fn query_opt_alone(
        &mut self,
        sql: &str,
        params: Params<'_>,
    ) -> Result<Option<Row>, Error> {
        let statement = match self.statements.get(sql) {
            Some(statement) => statement.clone(),
            None => {
                let statement = self.client.prepare(sql)?;
                self.statements.insert(sql.to_owned(), statement.clone());
                statement
            }
        };
        self.client.query_opt(&statement, params)
    }
}

/// r2d2_postgres's manager, making [`Conn`]s instead of bare clients.
pub(crate) struct Manager(pub(crate) PostgresConnectionManager<NoTls>);

/// A failure to make or check a pooled connection, in words that say why (the
/// server's message, or the cause under "error connecting to server"): the pool keeps
/// the last one, and a call that waited in vain fails with it.
#[derive(Debug)]
pub(crate) struct PoolError(String);

impl std::fmt::Display for PoolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PoolError {}

impl From<Error> for PoolError {
    fn from(error: Error) -> Self {
        PoolError(crate::connection_error(&error))
    }
}

impl r2d2::ManageConnection for Manager {
    type Connection = Conn;
    type Error = PoolError;

    fn connect(&self) -> Result<Conn, PoolError> {
        Ok(Conn {
            client: self.0.connect()?,
            statements: HashMap::new(),
        })
    }

    fn is_valid(&self, conn: &mut Conn) -> Result<(), PoolError> {
        Ok(self.0.is_valid(&mut conn.client)?)
    }

    fn has_broken(&self, conn: &mut Conn) -> bool {
        self.0.has_broken(&mut conn.client)
    }
}

/// A statement's parameters, in the order of its `$1`, `$2`, …
pub(crate) type Params<'a> = &'a [&'a (dyn postgres::types::ToSql + Sync)];

/// A transaction on a pooled connection, preparing its statements through the
/// connection's cache.
pub(crate) struct Tx<'a> {
    pub(crate) sql: Transaction<'a>,
    statements: &'a mut HashMap<String, Statement>,
}

impl Conn {
    /// Starts a transaction: `read_only` ones see the database as of one moment
    /// (REPEATABLE READ), writes are READ COMMITTED, each statement seeing what was
    /// committed before it began (the row locks they take do the rest; see `writes`).
    pub(crate) fn begin(&mut self, read_only: bool) -> Result<Tx<'_>, Error> {
        let mut builder = self.client.build_transaction();
        if read_only {
            builder = builder
                .isolation_level(postgres::IsolationLevel::RepeatableRead)
                .read_only(true);
        }
        Ok(Tx {
            sql: builder.start()?,
            statements: &mut self.statements,
        })
    }
}

impl Tx<'_> {
    /// `sql` prepared on this connection, once.
    pub(crate) fn prepared(&mut self, sql: &str) -> Result<Statement, Error> {
        if let Some(statement) = self.statements.get(sql) {
            return Ok(statement.clone());
        }
        let statement = self.sql.prepare(sql)?;
        self.statements.insert(sql.to_owned(), statement.clone());
        Ok(statement)
    }

    pub(crate) fn query(&mut self, sql: &str, params: Params<'_>) -> Result<Vec<Row>, Error> {
        let statement = self.prepared(sql)?;
        self.sql.query(&statement, params)
    }

    pub(crate) fn query_opt(
        &mut self,
        sql: &str,
        params: Params<'_>,
    ) -> Result<Option<Row>, Error> {
        let statement = self.prepared(sql)?;
        self.sql.query_opt(&statement, params)
    }

    pub(crate) fn query_one(&mut self, sql: &str, params: Params<'_>) -> Result<Row, Error> {
        let statement = self.prepared(sql)?;
        self.sql.query_one(&statement, params)
    }

    pub(crate) fn execute(&mut self, sql: &str, params: Params<'_>) -> Result<u64, Error> {
        let statement = self.prepared(sql)?;
        self.sql.execute(&statement, params)
    }

    pub(crate) fn commit(self) -> Result<(), Error> {
        self.sql.commit()
    }
}
