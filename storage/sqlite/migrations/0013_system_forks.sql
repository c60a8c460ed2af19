-- 0013: a chat's own rules (/sistema, core/systems/fork). key is the
-- chat's name for the system: a shipped system's key for a fork of it
-- (base = key, changes its edits as JSON), or an imported file's key
-- (base '', source the file as sent).
CREATE TABLE system_forks (
    chat    INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    key     TEXT NOT NULL,
    base    TEXT NOT NULL,
    changes TEXT NOT NULL,
    source  BLOB NOT NULL,
    updated INTEGER NOT NULL,
    PRIMARY KEY (chat, key)
) STRICT;
