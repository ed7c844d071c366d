-- Schema version 4: the history of the games, and their reviews.
--
-- A history lists the ended games newest first, everybody's or one player's, a page at
-- a time. Each side's name is kept as the scoreboard compares it (`x_key`, `o_key`:
-- the program's `PlayerName::key`, the name case-folded in its compatibility form), so
-- that one player's games are found through an index, not by reading every game. The
-- program fills the keys of the games already kept, in the same transaction.
ALTER TABLE games ADD COLUMN x_key TEXT;
ALTER TABLE games ADD COLUMN o_key TEXT;

-- Newest first: by when the game began, then by id. Only ended games are listed, so
-- only they are in these indexes. "The 20 newest of Ada's games" reads the first 20
-- entries of each side's index.
CREATE INDEX games_ended ON games (started_at DESC, id DESC) WHERE ending IS NOT NULL;
CREATE INDEX games_ended_by_x ON games (x_key, started_at DESC, id DESC)
    WHERE ending IS NOT NULL;
CREATE INDEX games_ended_by_o ON games (o_key, started_at DESC, id DESC)
    WHERE ending IS NOT NULL;

-- What perfect play says of each move of an ended game, computed once and kept: one
-- row per move that stands at the end (moves taken back are not part of a review).
-- `before` and `after` are the value for the side that moved, before the move and
-- after it, in the words of `analyze --json`; `best_moves` are the cells (0-based,
-- row by row, comma-separated) the analysis of the position before found best.
CREATE TABLE reviews (
    game TEXT NOT NULL REFERENCES games (id),
    ply INTEGER NOT NULL CHECK (ply >= 1),
    mark TEXT NOT NULL CHECK (mark IN ('X', 'O')),
    cell INTEGER NOT NULL CHECK (cell >= 0),
    before TEXT NOT NULL,
    after TEXT NOT NULL,
    best_moves TEXT NOT NULL,
    PRIMARY KEY (game, ply)
) STRICT, WITHOUT ROWID;

-- Each player's results against each opponent, kept as each game ends, in the same
-- transaction (as the tallies are): a player's page reads a few rows of this table,
-- not every game they played. Every game counts, whatever resets the scoreboard had.
-- The program fills it from the games already ended, in the same transaction.
CREATE TABLE rivalries (
    -- The player and the opponent, as the scoreboard compares names (`PlayerName::key`).
    key TEXT NOT NULL,
    rival_key TEXT NOT NULL,
    -- The opponent's name as written in the last game that counted between them.
    rival TEXT NOT NULL,
    -- The player's results against them.
    wins INTEGER NOT NULL CHECK (wins >= 0),
    losses INTEGER NOT NULL CHECK (losses >= 0),
    ties INTEGER NOT NULL CHECK (ties >= 0),
    PRIMARY KEY (key, rival_key)
) STRICT, WITHOUT ROWID;

-- The most played opponents first: a player's page reads the first entries of their
-- range of this index.
CREATE INDEX rivalries_by_games ON rivalries (key, wins + losses + ties DESC, rival_key);
