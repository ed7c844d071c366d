-- Schema version 3: the scoreboard's and the rivalries' additions, kept as rows of
-- their own.
--
-- Until version 2, each game's end added its result to the players' rows of
-- `tallies` and `rivalries` in the ending's own transaction. The computer levels' rows
-- are touched by nearly every ending, from every server: a server stopped in the middle
-- of such a transaction (a paused machine, a frozen process) held them, and every other
-- server's endings waited. Now an ending only inserts its additions here, touching no
-- row any other writer touches; one server at a time folds them into `tallies` and
-- `rivalries` (and a server that stops while folding holds up only the next fold, never
-- a write). What is read is always the rows plus the additions not yet folded.
CREATE TABLE tally_additions (
    id BIGSERIAL PRIMARY KEY,
    epoch BIGINT NOT NULL CHECK (epoch >= 0),
    key TEXT COLLATE "C" NOT NULL,
    -- The name as this game wrote it (the scoreboard keeps the first).
    name TEXT NOT NULL,
    wins BIGINT NOT NULL CHECK (wins >= 0),
    losses BIGINT NOT NULL CHECK (losses >= 0),
    ties BIGINT NOT NULL CHECK (ties >= 0)
);

CREATE INDEX tally_additions_by_key ON tally_additions (epoch, key);

CREATE TABLE rivalry_additions (
    id BIGSERIAL PRIMARY KEY,
    key TEXT COLLATE "C" NOT NULL,
    rival_key TEXT COLLATE "C" NOT NULL,
    -- The opponent's name as this game wrote it (the rivalry keeps the latest).
    rival TEXT NOT NULL,
    wins BIGINT NOT NULL CHECK (wins >= 0),
    losses BIGINT NOT NULL CHECK (losses >= 0),
    ties BIGINT NOT NULL CHECK (ties >= 0)
);

CREATE INDEX rivalry_additions_by_key ON rivalry_additions (key, rival_key);
