-- Schema version 6: casual games.
--
-- A casual game rates nobody: one whose computers' choices were fixed before it began
-- (`--seed`), which a person could learn and play again to farm a rating. Every game
-- kept before was rated, and stays so.
ALTER TABLE games ADD COLUMN casual INTEGER NOT NULL DEFAULT 0 CHECK (casual IN (0, 1));
