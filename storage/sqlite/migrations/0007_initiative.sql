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
