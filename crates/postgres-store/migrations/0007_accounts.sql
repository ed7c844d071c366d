-- Schema version 7: accounts, the sessions they are signed in with, and their personal
-- tokens (issue 41). The same tables as the SQLite store's version 8.
--
-- An account is filed under its name's key (`key`: the name as the scoreboard compares
-- names) and its likeness (`likeness`: the confusable skeleton of the key, UTS #39, so
-- that "Ada" and "Аda" with a Cyrillic А have one), each UNIQUE: of two look-alike names
-- signed up at once, on two servers, one is added. `name` is the name as signed up,
-- `password` its password's hash (a PHC string, "$argon2id$..."), `created` when it was
-- added (milliseconds since 1970 by the database server's clock).
CREATE TABLE accounts (
    key TEXT COLLATE "C" PRIMARY KEY,
    likeness TEXT COLLATE "C" NOT NULL UNIQUE,
    name TEXT NOT NULL,
    password TEXT NOT NULL,
    created BIGINT NOT NULL
);

-- A session an account is signed in with: the lock of its secret (the SHA-256 digest,
-- 64 hex digits, of the cookie the client holds), its account, and when it expires
-- (milliseconds since 1970). Removing the account removes its sessions.
CREATE TABLE sessions (
    lock TEXT COLLATE "C" PRIMARY KEY CHECK (lock ~ '^[0-9a-f]{64}$'),
    account TEXT COLLATE "C" NOT NULL REFERENCES accounts (key) ON DELETE CASCADE,
    expires BIGINT NOT NULL
);

CREATE INDEX sessions_by_account ON sessions (account);
CREATE INDEX sessions_by_expiry ON sessions (expires);

-- A personal token for scripts: its public id (16 hex digits), the lock of its secret,
-- its account, the account holder's label for it, and when it was made (milliseconds
-- since 1970). Removing the account removes its tokens.
CREATE TABLE tokens (
    id TEXT COLLATE "C" PRIMARY KEY CHECK (id ~ '^[0-9a-f]{16}$'),
    lock TEXT COLLATE "C" NOT NULL UNIQUE CHECK (lock ~ '^[0-9a-f]{64}$'),
    account TEXT COLLATE "C" NOT NULL REFERENCES accounts (key) ON DELETE CASCADE,
    label TEXT NOT NULL,
    created BIGINT NOT NULL
);

CREATE INDEX tokens_by_account ON tokens (account, created, id);

-- Whether a name has kept games (a new account cannot take one that has): the ended
-- games are found by each side's key through the history's indexes (version 1), the
-- games not ended through these.
CREATE INDEX games_going_on_by_x ON games (x_key) WHERE ending IS NULL;
CREATE INDEX games_going_on_by_o ON games (o_key) WHERE ending IS NULL;
