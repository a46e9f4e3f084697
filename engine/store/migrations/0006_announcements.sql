-- The outbox: what the public must be told about a match (a move, an offer, a round's
-- summary, the result, a reminder) is written in the same transaction as the change that
-- causes it, and deleted once the Discord layer has shown it. Whatever is left here when
-- the bot starts is shown then, so a crash between a commit and Discord loses nothing.
CREATE TABLE announcements (
    id         INTEGER PRIMARY KEY,
    match_id   INTEGER NOT NULL REFERENCES matches (id),
    key        TEXT NOT NULL,
    body       TEXT NOT NULL,
    created_at REAL NOT NULL,
    UNIQUE (match_id, key)
);
