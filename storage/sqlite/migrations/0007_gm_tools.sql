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
