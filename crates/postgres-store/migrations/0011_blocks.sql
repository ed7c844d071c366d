-- Schema version 11: blocks, people blocking each other: two people one of whom blocks
-- the other are never paired, and neither accepts the other's seek. (Version 10 is the
-- seeks.) The same table as the SQLite store's version 12.
--
-- One row per block: `by_key` blocks `whom_key` (each the name as the scoreboard
-- compares names), `whom_name` is the blocked person's name as it was given when they
-- were blocked, and `number` keeps the order the blocks were made in (the order a
-- person's blocks are listed in). A person blocks another once (of two servers blocking
-- at once, the second finds the row there): unblocking removes the row.
CREATE TABLE blocks (
    number BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    by_key TEXT COLLATE "C" NOT NULL,
    whom_key TEXT COLLATE "C" NOT NULL,
    whom_name TEXT NOT NULL,
    UNIQUE (by_key, whom_key)
);
