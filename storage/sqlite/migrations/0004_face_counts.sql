-- 0004: face counts of the kept roll history, kept up to date by
-- AppendRoll (each die adds one, each pruned roll's dice subtract), so that
-- /stats reads what it shows (the die sizes, and the faces of the sizes it
-- tests) instead of decoding every die of every kept roll. Filled from the
-- existing history in Go (facecounts.go) in this migration's transaction.
CREATE TABLE face_counts (
    chat  INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    sides INTEGER NOT NULL,
    face  INTEGER NOT NULL,
    n     INTEGER NOT NULL, -- > 0: rows that reach 0 are deleted
    PRIMARY KEY (chat, sides, face)
) WITHOUT ROWID, STRICT;

CREATE TABLE size_counts (
    chat  INTEGER NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    sides INTEGER NOT NULL,
    n     INTEGER NOT NULL, -- dice of this size, > 0
    PRIMARY KEY (chat, sides)
) WITHOUT ROWID, STRICT;
