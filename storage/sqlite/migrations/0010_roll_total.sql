-- 0010: a logged roll's total (reply.Check.Total; NULL when it has none,
-- or was logged before this version): what the phone page's history marks
-- on the roll's distribution picture, as the chat's 📊 button does.
ALTER TABLE rolls ADD COLUMN total INTEGER;
