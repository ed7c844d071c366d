-- Schema version 1: everything the SQLite store's schema version 4 holds, in one step
-- (PostgreSQL came after it): the games and their steps, the scoreboard as tallies by
-- epoch, its resets and imports, the reviews, and each player's rivalries.
--
-- Identifiers and name keys are `COLLATE "C"`: compared byte by byte, as the program
-- compares them (Rust's `String` order), whatever the database's locale. An index in
-- a language's collation would put "ada" and "Bob" in another order than the store's
-- other adapters, and every server must take row locks in one same order.
--
-- Integers are BIGINT throughout, read as `i64` by the program; times are milliseconds
-- since 1970-01-01 UTC by the database server's clock (one clock for every server).

CREATE TABLE games (
    -- 32 lowercase hex digits, chosen by whoever starts the game.
    id TEXT COLLATE "C" PRIMARY KEY CHECK (id ~ '^[0-9a-f]{32}$'),
    -- Each side: 'human' (with the person's name, or NULL for the default name such
    -- as "Player X") or 'computer' (with its level's id, such as 'impossible').
    x_kind TEXT NOT NULL CHECK (x_kind IN ('human', 'computer')),
    x_name TEXT,
    x_level TEXT,
    o_kind TEXT NOT NULL CHECK (o_kind IN ('human', 'computer')),
    o_name TEXT,
    o_level TEXT,
    -- Each side's name as the scoreboard compares it (the program's `PlayerName::key`).
    x_key TEXT COLLATE "C" NOT NULL,
    o_key TEXT COLLATE "C" NOT NULL,
    -- The board: size x size cells, win in a row to win.
    size BIGINT NOT NULL CHECK (size BETWEEN 3 AND 7),
    win BIGINT NOT NULL CHECK (win BETWEEN 3 AND size),
    first TEXT NOT NULL CHECK (first IN ('X', 'O')),
    seating TEXT NOT NULL CHECK (seating IN ('together', 'apart')),
    -- The SHA-256 digests (64 hex digits) of the seats' secrets, where seats have them.
    x_lock TEXT CHECK (x_lock ~ '^[0-9a-f]{64}$'),
    o_lock TEXT CHECK (o_lock ~ '^[0-9a-f]{64}$'),
    -- The game this one is a rematch of. UNIQUE: a game has at most one rematch.
    follows TEXT COLLATE "C" UNIQUE REFERENCES games (id),
    started_at BIGINT NOT NULL,
    ended_at BIGINT,
    -- How it ended: NULL while it goes on.
    ending TEXT CHECK (ending IN ('draw', 'X won', 'O won', 'X resigned', 'O resigned',
                                  'X abandoned', 'O abandoned')),
    CHECK ((ending IS NULL) = (ended_at IS NULL))
);

-- Newest first: by when the game began, then by id. Only ended games are listed, so
-- only they are in these indexes.
CREATE INDEX games_ended ON games (started_at DESC, id DESC) WHERE ending IS NOT NULL;
CREATE INDEX games_ended_by_x ON games (x_key, started_at DESC, id DESC)
    WHERE ending IS NOT NULL;
CREATE INDEX games_ended_by_o ON games (o_key, started_at DESC, id DESC)
    WHERE ending IS NOT NULL;

CREATE TABLE steps (
    game TEXT COLLATE "C" NOT NULL REFERENCES games (id),
    number BIGINT NOT NULL CHECK (number >= 1),
    -- A move fills `cell` (the cell's 0-based index, row by row); an undo fills `undo`
    -- (how many moves it took back). Exactly one of the two.
    cell BIGINT CHECK (cell >= 0),
    undo BIGINT CHECK (undo >= 0),
    CHECK ((cell IS NULL) <> (undo IS NULL)),
    PRIMARY KEY (game, number)
);

-- The scoreboard, kept by epoch: epoch 0 is the first, each reset starts the next.
-- The scoreboard shown is the latest epoch's; restoring adds the latest epoch's rows
-- into the one before and ends it.
CREATE TABLE tallies (
    epoch BIGINT NOT NULL CHECK (epoch >= 0),
    key TEXT COLLATE "C" NOT NULL,
    -- The name as first shown.
    name TEXT NOT NULL,
    wins BIGINT NOT NULL CHECK (wins >= 0),
    losses BIGINT NOT NULL CHECK (losses >= 0),
    ties BIGINT NOT NULL CHECK (ties >= 0),
    PRIMARY KEY (epoch, key)
);

-- The rank order (most wins, then fewest losses, then by name).
CREATE INDEX tallies_by_rank ON tallies (epoch, wins DESC, losses, key);

CREATE TABLE resets (
    epoch BIGINT PRIMARY KEY CHECK (epoch >= 1),
    at BIGINT NOT NULL,
    players BIGINT NOT NULL CHECK (players >= 0)
);

CREATE TABLE imports (
    source TEXT PRIMARY KEY,
    at BIGINT NOT NULL,
    players BIGINT NOT NULL CHECK (players >= 0)
);

CREATE TABLE imported_rows (
    source TEXT NOT NULL REFERENCES imports (source),
    key TEXT COLLATE "C" NOT NULL,
    name TEXT NOT NULL,
    wins BIGINT NOT NULL CHECK (wins >= 0),
    losses BIGINT NOT NULL CHECK (losses >= 0),
    ties BIGINT NOT NULL CHECK (ties >= 0),
    PRIMARY KEY (source, key)
);

-- What perfect play says of each move of an ended game, computed once and kept (in
-- the words of `analyze --json`; `best_moves` comma-separated 0-based cells).
CREATE TABLE reviews (
    game TEXT COLLATE "C" NOT NULL REFERENCES games (id),
    ply BIGINT NOT NULL CHECK (ply >= 1),
    mark TEXT NOT NULL CHECK (mark IN ('X', 'O')),
    cell BIGINT NOT NULL CHECK (cell >= 0),
    before TEXT NOT NULL,
    after TEXT NOT NULL,
    best_moves TEXT NOT NULL,
    PRIMARY KEY (game, ply)
);

-- Each player's results against each opponent, kept as each game ends, in the same
-- transaction (as the tallies are). Every game counts, whatever resets there were.
CREATE TABLE rivalries (
    key TEXT COLLATE "C" NOT NULL,
    rival_key TEXT COLLATE "C" NOT NULL,
    -- The opponent's name as written in the last game that counted between them.
    rival TEXT NOT NULL,
    wins BIGINT NOT NULL CHECK (wins >= 0),
    losses BIGINT NOT NULL CHECK (losses >= 0),
    ties BIGINT NOT NULL CHECK (ties >= 0),
    PRIMARY KEY (key, rival_key)
);

CREATE INDEX rivalries_by_games ON rivalries (key, (wins + losses + ties) DESC, rival_key);
