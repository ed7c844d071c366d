-- Schema version 5: ratings per board (Glicko-2), kept with the games.
--
-- Each game a person played to a counted end (finished or resigned) changes their
-- rating on its board in the transaction that keeps the end; `rating_changes` keeps
-- each person's rating before and after (three IEEE doubles each, read back to the
-- last bit). `games.rated_number` is the order the games were rated in: ratings are a
-- function of the games in that order, so `tictactoe ratings --rebuild` gives the same
-- figures. The program rates the games already kept, in the same transaction, in the
-- order they ended.
ALTER TABLE games ADD COLUMN rated_number INTEGER;
CREATE UNIQUE INDEX games_by_rated_number ON games (rated_number)
    WHERE rated_number IS NOT NULL;

-- A person's rating on a board as it stands (`key`: the name as the scoreboard
-- compares names; `name`: as first rated there).
CREATE TABLE ratings (
    size INTEGER NOT NULL,
    win INTEGER NOT NULL,
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL CHECK (games >= 0),
    PRIMARY KEY (size, win, key)
) WITHOUT ROWID;

CREATE INDEX ratings_best_first ON ratings (size, win, rating DESC, key);

CREATE TABLE rating_changes (
    game TEXT NOT NULL REFERENCES games (id),
    mark TEXT NOT NULL CHECK (mark IN ('X', 'O')),
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    size INTEGER NOT NULL,
    win INTEGER NOT NULL,
    before_rating REAL NOT NULL,
    before_deviation REAL NOT NULL,
    before_volatility REAL NOT NULL,
    after_rating REAL NOT NULL,
    after_deviation REAL NOT NULL,
    after_volatility REAL NOT NULL,
    PRIMARY KEY (game, mark)
) WITHOUT ROWID;

CREATE INDEX rating_changes_by_player ON rating_changes (key, size, win);
