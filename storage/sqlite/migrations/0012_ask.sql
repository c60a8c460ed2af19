-- 0012: a chat's requests for a roll (/pedir, core/ask). body is the
-- request as JSON: the check, whether it is blind, the GM who asked, the
-- characters asked and each one's result once rolled. A chat keeps its
-- newest ones (ask.Keep); an older request's buttons answer that it is
-- closed.
CREATE TABLE ask_requests (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    chat    INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    body    TEXT NOT NULL,
    closed  INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
) STRICT;

CREATE INDEX ask_requests_chat ON ask_requests (chat, id);
