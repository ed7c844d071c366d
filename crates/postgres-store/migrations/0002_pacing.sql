-- Schema version 2: which server plays each computer-against-computer game.
--
-- A server holds a game until `until_ms` (the database server's clock, milliseconds
-- since 1970) and holds it again before each move; a game whose hold ran out and that
-- has not ended belongs to a server that stopped, and another takes it over.
CREATE TABLE pacing (
    game TEXT COLLATE "C" PRIMARY KEY REFERENCES games (id),
    -- The store instance (one per server process) that holds it.
    holder TEXT NOT NULL,
    until_ms BIGINT NOT NULL
);

-- "The holds that ran out": the oldest first, read from the front of this index.
CREATE INDEX pacing_by_until ON pacing (until_ms);
