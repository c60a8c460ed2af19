-- 0007: each chat's turn order (/init), one document per chat: the
-- combatants in order, whose turn it is, the round. It is small (at most
-- initiative.MaxCombatants entries) and always read and written whole,
-- in one transaction. An ended order stays until a new one starts, so
-- /init deshacer can reopen it.
CREATE TABLE initiative (
    chat    INTEGER PRIMARY KEY REFERENCES chats (id) ON DELETE CASCADE,
    doc     TEXT NOT NULL,
    updated INTEGER NOT NULL
) STRICT;

-- What one typo can lose, kept for a while so it can be undone: the last
-- character a user deleted, the last pad they cleared (kind), as the
-- JSON the core wrote. One per chat, user and kind; the core refuses an
-- undo older than its limit and the row is taken when used.
CREATE TABLE undo (
    chat    INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL,
    kind    TEXT NOT NULL,
    doc     TEXT NOT NULL,
    at      INTEGER NOT NULL,
    PRIMARY KEY (chat, user_id, kind)
) STRICT;
