-- A session log's entry is a roll (dice were rolled) or another entry of
-- the fight (a turn, hit points, a condition): the log's counts of rolls
-- leave the second kind out. Entries logged before this version count as
-- rolls, as they did.
ALTER TABLE session_events ADD COLUMN roll INTEGER NOT NULL DEFAULT 1;

-- How many of a session's dropped entries were rolls.
ALTER TABLE sessions ADD COLUMN dropped_rolls INTEGER NOT NULL DEFAULT 0;
UPDATE sessions SET dropped_rolls = dropped;
