-- 0001: chats and their settings, named GMs, character sheets, each user's
-- active character, the roll log, saved rolls (aliases) and the adapters'
-- platform state.
--
-- Every chat-owned row references chats(id), so the chat is part of every
-- key. Times are INTEGER Unix nanoseconds (UTC); 0 means "unknown".

CREATE TABLE chats (
    id       INTEGER PRIMARY KEY,
    platform TEXT NOT NULL,
    chat_id  TEXT NOT NULL,
    lang     TEXT NOT NULL DEFAULT '',
    UNIQUE (platform, chat_id)
) STRICT;

CREATE TABLE chat_options (
    chat  INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    key   TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (chat, key)
) WITHOUT ROWID, STRICT;

CREATE TABLE gms (
    chat    INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL,
    name    TEXT NOT NULL,
    added   INTEGER NOT NULL,
    PRIMARY KEY (chat, user_id)
) WITHOUT ROWID, STRICT;

-- AUTOINCREMENT: a deleted character's id is never given to a new one, so a
-- stale id (an old button, an old message) cannot reach another character.
CREATE TABLE characters (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    chat       INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    key        TEXT NOT NULL,
    name       TEXT NOT NULL,
    owner      TEXT NOT NULL,
    owner_name TEXT NOT NULL,
    system     TEXT NOT NULL,
    created    INTEGER NOT NULL,
    updated    INTEGER NOT NULL,
    UNIQUE (chat, key),
    UNIQUE (chat, id) -- target of active's foreign key: a selection never crosses chats
) STRICT;

CREATE INDEX characters_owner ON characters (chat, owner);

CREATE TABLE character_values (
    character INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    pos       INTEGER NOT NULL,
    key       TEXT NOT NULL,
    name      TEXT NOT NULL,
    text      TEXT NOT NULL,
    PRIMARY KEY (character, pos),
    UNIQUE (character, key)
) WITHOUT ROWID, STRICT;

-- A user's active character in a chat.
CREATE TABLE active (
    chat      INTEGER NOT NULL,
    user_id   TEXT NOT NULL,
    character INTEGER NOT NULL,
    PRIMARY KEY (chat, user_id),
    FOREIGN KEY (chat, character) REFERENCES characters (chat, id) ON DELETE CASCADE
) WITHOUT ROWID, STRICT;

CREATE INDEX active_character ON active (chat, character);

-- AUTOINCREMENT: roll ids keep increasing even when pruning empties a chat.
CREATE TABLE rolls (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    chat      INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    user_id   TEXT NOT NULL,
    user_name TEXT NOT NULL,
    command   TEXT NOT NULL,
    dice      TEXT NOT NULL, -- JSON array of die results, in order
    sides     TEXT NOT NULL, -- JSON array of die sizes (0 = unknown)
    result    TEXT NOT NULL,
    time      INTEGER NOT NULL
) STRICT;

CREATE INDEX rolls_chat ON rolls (chat, id);

CREATE TABLE aliases (
    chat    INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL, -- '' for an alias of the whole chat
    key     TEXT NOT NULL,
    name    TEXT NOT NULL,
    text    TEXT NOT NULL,
    created INTEGER NOT NULL,
    PRIMARY KEY (chat, user_id, key)
) WITHOUT ROWID, STRICT;

-- Adapter state that must survive restarts: Telegram's update offset,
-- Matrix's sync token and device id.
CREATE TABLE platform_state (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID, STRICT;
