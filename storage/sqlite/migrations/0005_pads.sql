-- 0005: pads, the buttons of rolls one tap away. A pad belongs to a chat
-- and an owner: a user id (a player's personal pad) or '' (the chat's pad,
-- made by its GMs). pos orders a pad's buttons (0, 1, 2… renumbered by
-- every change, in its transaction).

-- AUTOINCREMENT: a deleted button's id is never given to a new one, so a
-- press of an old pad message cannot run another button.
CREATE TABLE pad_buttons (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    chat    INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    owner   TEXT NOT NULL,
    pos     INTEGER NOT NULL,
    label   TEXT NOT NULL,
    command TEXT NOT NULL
) STRICT;

CREATE INDEX pad_buttons_pad ON pad_buttons (chat, owner, pos);
