-- 0002: when each platform state key was last set, so that keys an adapter
-- writes per event (Matrix's re-roll records) can be pruned to the newest
-- ones. Rows from before this migration count as oldest (0).
ALTER TABLE platform_state ADD COLUMN updated INTEGER NOT NULL DEFAULT 0;
