//! The scoreboard and the rivalries, as their rows plus the additions not yet folded
//! into them (schema version 3).
//!
//! A game's end adds its result for each player (`tallies`, by epoch) and for each pair
//! of players (`rivalries`). Those rows are hot: the computer levels' are touched by
//! nearly every ending, from every server. So an ending does not update them: it
//! inserts its additions as rows of their own ([`add`]), which no other writer touches,
//! and a server stopped in the middle of its transaction (a paused machine) holds
//! nobody's ending up. Every read adds the additions not yet folded to the rows
//! ([`RANKED`], [`OF_KEYS`], [`RIVALS`], [`RIVALS_TOTAL`]), so what is read is exact at
//! every moment. One server at a time ([`fold`], under an advisory lock it only tries)
//! moves the additions into the rows, a few thousand at a time, so that there are never
//! many to add up: a server that stops while folding holds up only the next fold.
//!
//! The scoreboard's top rows stay a read of the rank index: a row with no addition
//! keeps its place, so the first `n` rows are among the first `n + a` rows of the index
//! and the `a` rows with additions (see [`RANKED`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use crate::pool::{Manager, Tx};
use crate::writes::saturating_counts;

/// The advisory lock a fold takes (tried, never waited for by a fold; waited for by a
/// reset, a restore or an import, which fold everything first).
const FOLD_LOCK: i64 = 0x5454_5400_0000_0003;

/// The most additions one fold moves.
const FOLD_AT_ONCE: i64 = 5_000;

/// A sum of BIGINTs (NUMERIC in SQL, so it cannot overflow) capped at BIGINT's largest:
/// counts saturate, as everywhere.
macro_rules! capped {
    ($sum:expr) => {
        concat!("least(", $sum, ", 9223372036854775807)::bigint")
    };
}

/// Each count of the kept row `$row` (`t` or `r`) plus the additions' (`a`), either
/// missing counting 0, saturating: `... AS wins, ... AS losses, ... AS ties`.
macro_rules! merged_counts {
    ($row:literal) => {
        concat!(
            capped!(concat!(
                "coalesce(",
                $row,
                ".wins, 0) + coalesce(a.wins, 0)"
            )),
            " AS wins, ",
            capped!(concat!(
                "coalesce(",
                $row,
                ".losses, 0) + coalesce(a.losses, 0)"
            )),
            " AS losses, ",
            capped!(concat!(
                "coalesce(",
                $row,
                ".ties, 0) + coalesce(a.ties, 0)"
            )),
            " AS ties"
        )
    };
}

/// Each count of the rows summed, saturating: `... AS wins, ... AS losses, ... AS ties`.
macro_rules! capped_sums {
    () => {
        concat!(
            capped!("sum(wins)"),
            " AS wins, ",
            capped!("sum(losses)"),
            " AS losses, ",
            capped!("sum(ties)"),
            " AS ties"
        )
    };
}

/// The current scoreboard's rows in rank order, rows and additions together, the first
/// `$1` (all for NULL): `name, wins, losses, ties`.
pub(crate) const RANKED: &str = concat!(
    "WITH e AS (SELECT coalesce(max(epoch), 0)::bigint AS epoch FROM resets), \
     added AS (SELECT a.key, (array_agg(a.name ORDER BY a.id))[1] AS name, \
       sum(a.wins) AS wins, sum(a.losses) AS losses, sum(a.ties) AS ties \
       FROM tally_additions a, e WHERE a.epoch = e.epoch GROUP BY a.key), \
     first AS (SELECT t.key FROM tallies t, e WHERE t.epoch = e.epoch \
       ORDER BY t.wins DESC, t.losses, t.key \
       LIMIT least(($1::bigint)::numeric + (SELECT count(*) FROM added), 9223372036854775807)::bigint), \
     keys AS (SELECT key FROM first UNION SELECT key FROM added), \
     merged AS (SELECT k.key, coalesce(t.name, a.name) AS name, ",
    merged_counts!("t"),
    " \
       FROM keys k CROSS JOIN e \
       LEFT JOIN tallies t ON t.epoch = e.epoch AND t.key = k.key \
       LEFT JOIN added a ON a.key = k.key) \
     SELECT name, wins, losses, ties FROM merged ORDER BY wins DESC, losses, key LIMIT $1"
);

/// The current scoreboard's rows of the keys in array `$1`, rows and additions together:
/// `name, wins, losses, ties`.
pub(crate) const OF_KEYS: &str = concat!(
    "WITH e AS (SELECT coalesce(max(epoch), 0)::bigint AS epoch FROM resets), \
     added AS (SELECT a.key, (array_agg(a.name ORDER BY a.id))[1] AS name, \
       sum(a.wins) AS wins, sum(a.losses) AS losses, sum(a.ties) AS ties \
       FROM tally_additions a, e WHERE a.epoch = e.epoch AND a.key = ANY($1) GROUP BY a.key), \
     rows AS (SELECT t.key, t.name, t.wins, t.losses, t.ties FROM tallies t, e \
       WHERE t.epoch = e.epoch AND t.key = ANY($1)) \
     SELECT coalesce(r.name, a.name), ",
    merged_counts!("r"),
    " FROM rows r FULL JOIN added a ON a.key = r.key"
);

/// The rivals of key `$1`, the most played first, the first `$2`, rows and additions
/// together: `rival, wins, losses, ties`.
pub(crate) const RIVALS: &str = concat!(
    "WITH added AS (SELECT a.rival_key, (array_agg(a.rival ORDER BY a.id DESC))[1] AS rival, \
       sum(a.wins) AS wins, sum(a.losses) AS losses, sum(a.ties) AS ties \
       FROM rivalry_additions a WHERE a.key = $1 GROUP BY a.rival_key), \
     first AS (SELECT r.rival_key FROM rivalries r WHERE r.key = $1 \
       ORDER BY r.wins + r.losses + r.ties DESC, r.rival_key \
       LIMIT $2 + (SELECT count(*) FROM added)), \
     keys AS (SELECT rival_key FROM first UNION SELECT rival_key FROM added), \
     merged AS (SELECT k.rival_key, coalesce(a.rival, r.rival) AS rival, ",
    merged_counts!("r"),
    " FROM keys k \
       LEFT JOIN rivalries r ON r.key = $1 AND r.rival_key = k.rival_key \
       LEFT JOIN added a ON a.rival_key = k.rival_key) \
     SELECT rival, wins, losses, ties FROM merged \
     ORDER BY wins::numeric + losses + ties DESC, rival_key LIMIT $2"
);

/// Key `$1`'s opponents counted and its whole record, rows and additions together:
/// `count, wins, losses, ties`.
pub(crate) const RIVALS_TOTAL: &str = concat!(
    "WITH all_rows AS (SELECT rival_key, wins, losses, ties FROM rivalries WHERE key = $1 \
       UNION ALL SELECT rival_key, wins, losses, ties FROM rivalry_additions WHERE key = $1) \
     SELECT count(DISTINCT rival_key), ",
    capped!("coalesce(sum(wins), 0)"),
    ", ",
    capped!("coalesce(sum(losses), 0)"),
    ", ",
    capped!("coalesce(sum(ties), 0)"),
    " FROM all_rows"
);

/// Rows as `unnest` takes them: keys, names, and wins, losses and ties.
pub(crate) type Columns<'a> = (&'a [&'a str], &'a [&'a str], &'a [Vec<i64>; 3]);

/// Runs `insert_into` (`INSERT INTO table (first, key, name, wins, losses, ties)`) on
/// the rows of `first` beside each of `counted`'s columns.
pub(crate) fn insert_counted(
    tx: &mut Tx<'_>,
    insert_into: &str,
    first: &(dyn postgres::types::ToSql + Sync),
    (keys, names, counts): Columns<'_>,
) -> Result<u64, postgres::Error> {
    tx.execute(
        &format!(
            "{insert_into} SELECT $1, * FROM unnest($2::text[], $3::text[], $4::bigint[], \
             $5::bigint[], $6::bigint[])"
        ),
        &[first, &keys, &names, &counts[0], &counts[1], &counts[2]],
    )
}

/// Adds, in epoch `epoch`, each player's result (`tallies`) and each pair's (`players`'
/// keys beside their `rivalries`: the rival's key and name, and the counts): rows of
/// their own, which no other writer touches.
pub(crate) fn add(
    tx: &mut Tx<'_>,
    epoch: i64,
    tallies: Columns<'_>,
    (players, rivalries): (&[&str], Columns<'_>),
) -> Result<(), postgres::Error> {
    insert_counted(
        tx,
        "INSERT INTO tally_additions (epoch, key, name, wins, losses, ties)",
        &epoch,
        tallies,
    )?;
    let (rival_keys, rival_names, counts) = rivalries;
    tx.execute(
        "INSERT INTO rivalry_additions (key, rival_key, rival, wins, losses, ties) \
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], \
         $5::bigint[], $6::bigint[])",
        &[
            &players,
            &rival_keys,
            &rival_names,
            &counts[0],
            &counts[1],
            &counts[2],
        ],
    )?;
    Ok(())
}

/// How often a store's folder looks for additions to fold.
const FOLD_EVERY: Duration = Duration::from_secs(1);

/// How long a fold waits for a row another transaction holds before it gives up (and
/// the next fold tries again).
const FOLD_PATIENCE: &str = "200ms";

/// A store's folder: a thread that, once a second, folds the additions made since
/// (this server's, and any other's it finds), until the store is dropped.
pub(crate) struct Folder {
    added: Arc<AtomicBool>,
    /// Dropped with the store: the thread sees the channel close and ends.
    _stop: mpsc::Sender<()>,
}

impl Folder {
    pub(crate) fn start(pool: r2d2::Pool<Manager>) -> Folder {
        let added = Arc::new(AtomicBool::new(true));
        let (stop, stopped) = mpsc::channel::<()>();
        let wanted = Arc::clone(&added);
        let started = std::thread::Builder::new()
            .name("tictactoe-fold".into())
            .spawn(move || {
                while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(FOLD_EVERY) {
                    if wanted.swap(false, Ordering::AcqRel) && fold_all_there_is(&pool).is_err() {
                        // Reads add what is not folded: a fold that failed (the database
                        // away, a row held) is only tried again.
                        wanted.store(true, Ordering::Release);
                    }
                }
            });
        // Without the thread nothing is folded, and reads add more and more: still right.
        drop(started);
        Folder { added, _stop: stop }
    }

    /// Additions were made: the next look folds them.
    pub(crate) fn added(&self) {
        self.added.store(true, Ordering::Release);
    }
}

/// Folds until nothing is left (or another server is folding), a transaction for each
/// [`FOLD_AT_ONCE`] additions.
fn fold_all_there_is(pool: &r2d2::Pool<Manager>) -> Result<(), postgres::Error> {
    let Ok(mut conn) = pool.get() else {
        return Ok(());
    };
    loop {
        let mut tx = conn.begin(false)?;
        tx.execute(&format!("SET LOCAL lock_timeout = '{FOLD_PATIENCE}'"), &[])?;
        let moved = fold(&mut tx)?;
        tx.commit()?;
        if moved < FOLD_AT_ONCE as u64 {
            return Ok(());
        }
    }
}

/// Moves up to [`FOLD_AT_ONCE`] of the oldest additions of each kind into their rows,
/// unless another server is folding: how many additions it moved (0 then).
pub(crate) fn fold(tx: &mut Tx<'_>) -> Result<u64, postgres::Error> {
    let mine: bool = tx
        .query_one("SELECT pg_try_advisory_xact_lock($1)", &[&FOLD_LOCK])?
        .try_get(0)?;
    if !mine {
        return Ok(0);
    }
    move_additions(tx, FOLD_AT_ONCE)
}

/// Moves every addition into its row, waiting for a fold under way to end: what a
/// reset, a restore or an import does first (each holding the scoreboard's lock
/// exclusively, so no ending adds meanwhile).
pub(crate) fn fold_all(tx: &mut Tx<'_>) -> Result<(), postgres::Error> {
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&FOLD_LOCK])?;
    move_additions(tx, i64::MAX).map(drop)
}

/// Moves the `most` oldest additions of each kind into their rows: the scoreboard keeps
/// the first spelling of a name, a rivalry the latest of its rival's. Returns the most
/// moved of either kind.
fn move_additions(tx: &mut Tx<'_>, most: i64) -> Result<u64, postgres::Error> {
    let tallies = tx.execute(
        concat!(
            "WITH moved AS (DELETE FROM tally_additions WHERE id IN \
               (SELECT id FROM tally_additions ORDER BY id LIMIT $1) \
               RETURNING id, epoch, key, name, wins, losses, ties), \
             summed AS (SELECT epoch, key, (array_agg(name ORDER BY id))[1] AS name, ",
            capped_sums!(),
            " FROM moved GROUP BY epoch, key) \
             INSERT INTO tallies (epoch, key, name, wins, losses, ties) \
             SELECT epoch, key, name, wins, losses, ties FROM summed \
             ORDER BY epoch, key COLLATE \"C\" \
             ON CONFLICT (epoch, key) DO UPDATE SET ",
            saturating_counts!("tallies")
        ),
        &[&most],
    )?;
    let rivalries = tx.execute(
        concat!(
            "WITH moved AS (DELETE FROM rivalry_additions WHERE id IN \
               (SELECT id FROM rivalry_additions ORDER BY id LIMIT $1) \
               RETURNING id, key, rival_key, rival, wins, losses, ties), \
             summed AS (SELECT key, rival_key, (array_agg(rival ORDER BY id DESC))[1] AS rival, ",
            capped_sums!(),
            " FROM moved GROUP BY key, rival_key) \
             INSERT INTO rivalries (key, rival_key, rival, wins, losses, ties) \
             SELECT key, rival_key, rival, wins, losses, ties FROM summed \
             ORDER BY key COLLATE \"C\", rival_key COLLATE \"C\" \
             ON CONFLICT (key, rival_key) DO UPDATE SET rival = excluded.rival, ",
            saturating_counts!("rivalries")
        ),
        &[&most],
    )?;
    Ok(tallies.max(rivalries))
}
