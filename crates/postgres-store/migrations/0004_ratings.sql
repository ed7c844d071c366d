-- Schema version 4: ratings per board (Glicko-2), kept with the games.
--
-- Each game a person played to a counted end (finished or resigned) changes their
-- rating on its board in the transaction that keeps the end; `rating_changes` keeps
-- each person's rating before and after (three doubles each, read back to the last
-- bit). `games.rated_number` is the order the games were rated in, taken from
-- `rated_numbers` (a sequence of one value at a time, so its numbers grow in the order
-- they are taken) once a rating end holds the transaction-wide advisory locks of the
-- people it rates, held until it commits: each person's games are numbered in the
-- order they were rated, so ratings are a function of the games in that order, and
-- `tictactoe ratings --rebuild` gives the same figures. The games kept before this
-- version are rated by `tictactoe ratings --rebuild`.
ALTER TABLE games ADD COLUMN rated_number BIGINT UNIQUE;

CREATE SEQUENCE rated_numbers;

-- A person's rating on a board as it stands (`key`: the name as the scoreboard
-- compares names; `name`: as first rated there).
CREATE TABLE ratings (
    size BIGINT NOT NULL,
    win BIGINT NOT NULL,
    key TEXT COLLATE "C" NOT NULL,
    name TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL CHECK (games >= 0),
    PRIMARY KEY (size, win, key)
);

CREATE INDEX ratings_best_first ON ratings (size, win, rating DESC, key);

CREATE TABLE rating_changes (
    game TEXT COLLATE "C" NOT NULL REFERENCES games (id),
    mark TEXT NOT NULL CHECK (mark IN ('X', 'O')),
    key TEXT COLLATE "C" NOT NULL,
    name TEXT NOT NULL,
    size BIGINT NOT NULL,
    win BIGINT NOT NULL,
    before_rating DOUBLE PRECISION NOT NULL,
    before_deviation DOUBLE PRECISION NOT NULL,
    before_volatility DOUBLE PRECISION NOT NULL,
    after_rating DOUBLE PRECISION NOT NULL,
    after_deviation DOUBLE PRECISION NOT NULL,
    after_volatility DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game, mark)
);

CREATE INDEX rating_changes_by_player ON rating_changes (key, size, win);
