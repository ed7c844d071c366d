-- Schema version 11: seeks, people looking for an opponent (the lobby's and the quick
-- pairing pool's), kept in the store so that every server sharing it sees the same
-- lobby and pool. (Version 10 is the games' clocks.)
--
-- One row per seek, never removed: `number` keeps the order they were opened in (the
-- order they are listed in), `id` is the seek's name (32 hex digits). `kind` says where
-- it waits: 'lobby' or 'pool'. Its owner plays under `owner` (`owner_key`: the name as
-- the scoreboard compares names), as an 'account' or as a 'guest' whose secret's lock
-- (a SHA-256 digest, 64 hex digits) is `lock`. The game it asks for: the board (`size`,
-- `win`), the time control (`control`: 'increment', with each side's time for the game
-- in `initial_ms` and the increment in `increment_ms`; or 'per move', with the time for
-- a move in `initial_ms`), `rated`, and the owner's `rating` on the board when they
-- opened it (whole points).
--
-- `at` is when it was opened and `seen` when its owner last showed a sign of life
-- (milliseconds since 1970, by the clock of the server that said so). It is open until
-- it is taken into a game (`taken_game`, the owner's mark in it `taken_mark` and when
-- `taken_at`, all three at once) or `closed` by its owner.
CREATE TABLE seeks (
    number INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('lobby', 'pool')),
    owner TEXT NOT NULL,
    owner_key TEXT NOT NULL,
    holder TEXT NOT NULL CHECK (holder IN ('account', 'guest')),
    lock TEXT,
    size INTEGER NOT NULL,
    win INTEGER NOT NULL,
    control TEXT NOT NULL CHECK (control IN ('increment', 'per move')),
    initial_ms INTEGER NOT NULL,
    increment_ms INTEGER,
    rated INTEGER NOT NULL CHECK (rated IN (0, 1)),
    rating INTEGER NOT NULL,
    at INTEGER NOT NULL,
    seen INTEGER NOT NULL,
    taken_game TEXT,
    taken_mark TEXT CHECK (taken_mark IN ('X', 'O')),
    taken_at INTEGER,
    closed INTEGER NOT NULL CHECK (closed IN (0, 1)),
    CHECK ((holder = 'guest') = (lock IS NOT NULL)),
    CHECK ((control = 'increment') = (increment_ms IS NOT NULL)),
    CHECK ((taken_game IS NULL) = (taken_mark IS NULL)
           AND (taken_game IS NULL) = (taken_at IS NULL)),
    CHECK (NOT (closed AND taken_game IS NOT NULL))
) STRICT;

-- The open seeks of a kind, seen since a moment: only open seeks are in it.
CREATE INDEX seeks_open ON seeks (kind, seen) WHERE taken_game IS NULL AND NOT closed;

-- A person waits for one game at a time: opening a seek closes its owner's other open
-- seek, found here, and two are never open at once.
CREATE UNIQUE INDEX seeks_open_by_owner ON seeks (owner_key)
    WHERE taken_game IS NULL AND NOT closed;

-- The seeks taken lately, newest first: who met whom, at what ratings (what TV chooses
-- from).
CREATE INDEX seeks_taken ON seeks (taken_at) WHERE taken_at IS NOT NULL;
