-- Schema version 6: the answers to training puzzles (`tictactoe train`).
--
-- One row per answer: the player (`key`: the name as the scoreboard compares names;
-- `name`: as they gave it), the puzzle (a game and the ply of the slip), when
-- (milliseconds since 1970) and whether it was right. The same answer kept again is a
-- no-op: the four that name it are unique. `number` keeps the order they were kept in,
-- for answers of the same millisecond.
CREATE TABLE puzzle_attempts (
    number BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key TEXT COLLATE "C" NOT NULL,
    name TEXT NOT NULL,
    game TEXT COLLATE "C" NOT NULL,
    ply BIGINT NOT NULL CHECK (ply >= 1),
    at BIGINT NOT NULL,
    right_answer BOOLEAN NOT NULL,
    UNIQUE (key, game, ply, at)
);

CREATE INDEX puzzle_attempts_by_player ON puzzle_attempts (key, at, number);
