-- 0007: the GM's tools. A random table of a chat (/tabla): its name as
-- typed, the key it is found by (fold.Key), its dice ("1d6", "d66") and
-- its rows as JSON [{"lo":1,"hi":2,"text":"Lobos"}, …], ordered by lo.
CREATE TABLE random_tables (
    chat    INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    key     TEXT NOT NULL,
    name    TEXT NOT NULL,
    dice    TEXT NOT NULL,
    rows    TEXT NOT NULL,
    updated INTEGER NOT NULL,
    PRIMARY KEY (chat, key)
) STRICT;

-- A deck of cards of a chat (/mazo): a GM's own (kind '', cards as a JSON
-- array of strings) or the state of a built-in one (kind 'standard',
-- 'jokers', 'tarot'; no cards). drawn: the indexes of the cards drawn
-- since the last shuffle, as a JSON array, in the order drawn.
CREATE TABLE decks (
    chat    INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    key     TEXT NOT NULL,
    name    TEXT NOT NULL,
    kind    TEXT NOT NULL,
    cards   TEXT NOT NULL,
    drawn   TEXT NOT NULL,
    updated INTEGER NOT NULL,
    PRIMARY KEY (chat, key)
) STRICT;

-- A game session of a chat (/sesion): open while ended is 0 (at most one
-- a chat). dropped counts the oldest entries let go to bound its log.
CREATE TABLE sessions (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    chat    INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    title   TEXT NOT NULL,
    started INTEGER NOT NULL,
    ended   INTEGER NOT NULL DEFAULT 0,
    dropped INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE UNIQUE INDEX sessions_open ON sessions (chat) WHERE ended = 0;
CREATE INDEX sessions_chat ON sessions (chat, started);

-- The log of a session: each roll as the chat saw it (text) and, for a
-- secret or blind one, what only the roller and the GMs saw (secret).
CREATE TABLE session_events (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    session   INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    time      INTEGER NOT NULL,
    user_name TEXT NOT NULL,
    command   TEXT NOT NULL,
    text      TEXT NOT NULL,
    secret    TEXT NOT NULL,
    blind     INTEGER NOT NULL
) STRICT;

CREATE INDEX session_events_session ON session_events (session, id);
