-- Schema version 9: games played on a clock.
--
-- A game's clock as it began is kept in its row of `games` (each `clock_` column NULL
-- for a game played without one), and as it stands after the game's latest steps in
-- `clocks`: one row per game begun with a clock, written as it begins and kept again
-- after each move. Times and durations are nanoseconds (times since 1970-01-01 UTC, by
-- the clock of whoever plays the game, not the store's): a clock reads back exactly as
-- it was kept.
--
-- A clock's time control: 'increment' (`initial_ns` for the game, `increment_ns` more
-- after each of one's moves) or 'per move' (each move within `initial_ns`; no
-- increment). `first_move_ns`: how long each side may take over its first move.
-- `x_left_ns`, `o_left_ns`: each side's time left as of `since_ns`, when the turn of
-- `turn` began; `moves`: the moves made (the clocks run from the second).
ALTER TABLE games ADD COLUMN clock_control TEXT
    CHECK (clock_control IN ('increment', 'per move'));
ALTER TABLE games ADD COLUMN clock_initial_ns BIGINT CHECK (clock_initial_ns >= 0);
ALTER TABLE games ADD COLUMN clock_increment_ns BIGINT CHECK (clock_increment_ns >= 0);
ALTER TABLE games ADD COLUMN clock_first_move_ns BIGINT CHECK (clock_first_move_ns >= 0);
ALTER TABLE games ADD COLUMN clock_x_left_ns BIGINT CHECK (clock_x_left_ns >= 0);
ALTER TABLE games ADD COLUMN clock_o_left_ns BIGINT CHECK (clock_o_left_ns >= 0);
ALTER TABLE games ADD COLUMN clock_turn TEXT CHECK (clock_turn IN ('X', 'O'));
ALTER TABLE games ADD COLUMN clock_since_ns BIGINT CHECK (clock_since_ns >= 0);
ALTER TABLE games ADD COLUMN clock_moves BIGINT CHECK (clock_moves >= 0);

-- How the clock ended a game, beside the result it counts as in `ending` (whose words
-- a CHECK of version 1 fixes): 'X timeout' beside 'O won' (X lost on time) or 'draw'
-- (O could no longer complete any line), 'X aborted' beside 'X abandoned' (X did not
-- make a first move in time: not counted, as an abandoned game). NULL for every other
-- ending.
ALTER TABLE games ADD COLUMN clock_end TEXT
    CHECK (clock_end IN ('X timeout', 'O timeout', 'X aborted', 'O aborted'))
    CHECK (clock_end IS NULL OR ending IS NOT NULL);

-- The clock as last kept: after the game's first `after` steps. `deadline_ns`: when it
-- is over unless `turn` moves (their time, or their wait for a first move, runs out),
-- NULL once the game has ended, so that only the games still played are in the index
-- the servers find the games overdue by.
CREATE TABLE clocks (
    game TEXT COLLATE "C" PRIMARY KEY REFERENCES games (id),
    after BIGINT NOT NULL CHECK (after >= 0),
    control TEXT NOT NULL CHECK (control IN ('increment', 'per move')),
    initial_ns BIGINT NOT NULL CHECK (initial_ns >= 0),
    increment_ns BIGINT CHECK (increment_ns >= 0),
    first_move_ns BIGINT NOT NULL CHECK (first_move_ns >= 0),
    x_left_ns BIGINT NOT NULL CHECK (x_left_ns >= 0),
    o_left_ns BIGINT NOT NULL CHECK (o_left_ns >= 0),
    turn TEXT NOT NULL CHECK (turn IN ('X', 'O')),
    since_ns BIGINT NOT NULL CHECK (since_ns >= 0),
    moves BIGINT NOT NULL CHECK (moves >= 0),
    deadline_ns BIGINT,
    CHECK ((control = 'increment') = (increment_ns IS NOT NULL))
);

-- The games overdue first: only the games still played.
CREATE INDEX clocks_overdue ON clocks (deadline_ns, game) WHERE deadline_ns IS NOT NULL;
