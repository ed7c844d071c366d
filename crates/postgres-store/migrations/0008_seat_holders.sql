-- Schema version 8: whose each seat is.
--
-- `x_holder` and `o_holder` say who may play the seat: `local` (a computer, or a person
-- at the machine that keeps the games), `guest` (whoever holds the secret whose lock is
-- in `x_lock`), `invited` (held open for whoever brings the invite whose lock is in
-- `x_lock`), `account` (the account whose name the seat's player has). Games kept before
-- say nothing (NULL): a seat with a lock was a guest's, one without the machine's.
ALTER TABLE games ADD COLUMN x_holder TEXT
    CHECK (x_holder IN ('local', 'guest', 'invited', 'account'));
ALTER TABLE games ADD COLUMN o_holder TEXT
    CHECK (o_holder IN ('local', 'guest', 'invited', 'account'));
