-- Rematch presses under a finished match, and which match a rematch started.
-- The new match names the match it replays (matches.rematch_of), written in the same
-- INSERT that creates it: a rematch is started exactly when such a match exists.

CREATE TABLE rematch_presses (
    match_id   INTEGER NOT NULL REFERENCES matches (id),
    user_id    INTEGER NOT NULL,
    pressed_at REAL    NOT NULL,
    PRIMARY KEY (match_id, user_id)
) WITHOUT ROWID;

ALTER TABLE matches ADD COLUMN rematch_of INTEGER REFERENCES matches (id);

CREATE INDEX matches_rematch_of ON matches (rematch_of) WHERE rematch_of IS NOT NULL;
