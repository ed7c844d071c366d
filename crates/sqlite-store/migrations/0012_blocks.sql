-- Schema version 12: blocks, people blocking each other: two people one of whom blocks
-- the other are never paired, and neither accepts the other's seek. (Version 11 is the
-- seeks.)
--
-- One row per block: `by_key` blocks `whom_key` (each the name as the scoreboard
-- compares names), `whom_name` is the blocked person's name as it was given when they
-- were blocked, and `number` keeps the order the blocks were made in (the order a
-- person's blocks are listed in). A person blocks another once: unblocking removes the
-- row.
CREATE TABLE blocks (
    number INTEGER PRIMARY KEY,
    by_key TEXT NOT NULL,
    whom_key TEXT NOT NULL,
    whom_name TEXT NOT NULL,
    UNIQUE (by_key, whom_key)
) STRICT;
