-- Schema version 1: the games, and each step of each game.
--
-- Every game is one row of `games`: who played each side, the board, who moved first,
-- where the people sat, the locks of the seats' secrets, the game it is a rematch of,
-- and how and when it ended. Each move or undo is one row of `steps`, numbered from 1
-- without gaps: the number is what makes a retried write recognisable.
--
-- The tables are STRICT: SQLite then refuses a value of the wrong type instead of
-- storing it anyway. Everything read back is still checked by the program (a file can
-- be edited by hand), but a wrong type never gets in through this program.

-- Marks the file as this program's: a database of another program is never migrated.
PRAGMA application_id = 1414812721; -- 0x54545431: "TTT1" in ASCII

CREATE TABLE games (
    -- 32 lowercase hex digits, chosen by whoever starts the game.
    id TEXT PRIMARY KEY NOT NULL,
    -- Each side: 'human' (with the person's name, or NULL for the default name such
    -- as "Player X") or 'computer' (with its level's id, such as 'impossible').
    -- The default name is kept as NULL, not spelled out, so that a game reads back
    -- exactly as it was begun.
    x_kind TEXT NOT NULL CHECK (x_kind IN ('human', 'computer')),
    x_name TEXT,
    x_level TEXT,
    o_kind TEXT NOT NULL CHECK (o_kind IN ('human', 'computer')),
    o_name TEXT,
    o_level TEXT,
    -- The board: size x size cells, win in a row to win.
    size INTEGER NOT NULL,
    win INTEGER NOT NULL,
    first TEXT NOT NULL CHECK (first IN ('X', 'O')),
    seating TEXT NOT NULL CHECK (seating IN ('together', 'apart')),
    -- The SHA-256 digests (64 hex digits) of the seats' secrets, where seats have them.
    x_lock TEXT,
    o_lock TEXT,
    -- The game this one is a rematch of. UNIQUE: a game has at most one rematch.
    follows TEXT UNIQUE REFERENCES games (id),
    -- When the store received the game's beginning and its end: milliseconds since
    -- 1970-01-01 UTC by the store's clock.
    started_at INTEGER NOT NULL,
    ended_at INTEGER,
    -- How it ended: NULL while it goes on.
    ending TEXT CHECK (ending IN ('draw', 'X won', 'O won', 'X resigned', 'O resigned',
                                  'X abandoned', 'O abandoned')),
    CHECK ((ending IS NULL) = (ended_at IS NULL))
) STRICT;

CREATE TABLE steps (
    game TEXT NOT NULL REFERENCES games (id),
    number INTEGER NOT NULL CHECK (number >= 1),
    -- A move fills `cell` (the cell's 0-based index, row by row); an undo fills `undo`
    -- (how many moves it took back). Exactly one of the two.
    cell INTEGER CHECK (cell >= 0),
    undo INTEGER CHECK (undo >= 0),
    CHECK ((cell IS NULL) <> (undo IS NULL)),
    PRIMARY KEY (game, number)
) STRICT, WITHOUT ROWID; -- the rows live in the primary key's tree: a game's steps side by side
