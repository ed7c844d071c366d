-- Schema version 3: names compared as people read them.
--
-- The scoreboard's `key` (in `tallies` and `imported_rows`) was a name in lowercase;
-- it is now the name case-folded in its compatibility form (the program's
-- `PlayerName::key`: "Straße" and "STRASSE", or a fullwidth "Ａda" and "Ada", are one
-- player). No table changes: the program computes each row's new key in the same
-- transaction, and adds together the rows that now name one player, keeping the
-- spelling of the first.
SELECT 1;
