-- 0006: a sheet's values are keyed by (character, key) alone. The table
-- had two B-trees, the primary key (character, pos) and UNIQUE (character,
-- key); every value written (an import writes thousands) paid for both.
-- Readers order a sheet's values by pos (at most the values quota of one
-- sheet to sort), so pos needs no index of its own.
CREATE TABLE character_values_new (
    character INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    pos       INTEGER NOT NULL,
    key       TEXT NOT NULL,
    name      TEXT NOT NULL,
    text      TEXT NOT NULL,
    PRIMARY KEY (character, key)
) WITHOUT ROWID, STRICT;

INSERT INTO character_values_new (character, pos, key, name, text)
SELECT character, pos, key, name, text FROM character_values;

DROP TABLE character_values;
ALTER TABLE character_values_new RENAME TO character_values;
