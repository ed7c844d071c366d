-- Schema version 2: the scoreboard, its resets and its imports.
--
-- The scoreboard is a view of the finished games, kept as tallies so that reading it
-- never means counting every game again: each game's end adds to its players' rows in
-- the same transaction that records the end. (The program fills the tallies from the
-- games already finished, in the same transaction as this migration.)
--
-- Resets delete nothing. The tallies are kept by epoch: epoch 0 is the first
-- scoreboard, and each reset starts the next epoch. The scoreboard shown is the latest
-- epoch's; restoring adds the latest epoch's rows into the one before and ends it.

CREATE TABLE tallies (
    epoch INTEGER NOT NULL,
    -- The name as the scoreboard compares it (lowercase), and as first shown.
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    wins INTEGER NOT NULL CHECK (wins >= 0),
    losses INTEGER NOT NULL CHECK (losses >= 0),
    ties INTEGER NOT NULL CHECK (ties >= 0),
    PRIMARY KEY (epoch, key)
) STRICT, WITHOUT ROWID;

-- The rank order (most wins, then fewest losses, then by name): "the top 20" reads the
-- first 20 entries of this index, and the whole table streams in order without a sort.
CREATE INDEX tallies_by_rank ON tallies (epoch, wins DESC, losses, key);

-- One row per reset: the epoch it started, when, and how many rows it cleared.
CREATE TABLE resets (
    epoch INTEGER PRIMARY KEY NOT NULL CHECK (epoch >= 1),
    at INTEGER NOT NULL,
    players INTEGER NOT NULL
) STRICT;

-- One row per scoreboard imported (from an older version's file), by source: a
-- source is imported once.
CREATE TABLE imports (
    source TEXT PRIMARY KEY NOT NULL,
    at INTEGER NOT NULL,
    players INTEGER NOT NULL
) STRICT;

-- The imported rows themselves, as they were imported: the tallies hold their sums
-- with the games', and these say which part came from where.
CREATE TABLE imported_rows (
    source TEXT NOT NULL REFERENCES imports (source),
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    wins INTEGER NOT NULL CHECK (wins >= 0),
    losses INTEGER NOT NULL CHECK (losses >= 0),
    ties INTEGER NOT NULL CHECK (ties >= 0),
    PRIMARY KEY (source, key)
) STRICT, WITHOUT ROWID;
