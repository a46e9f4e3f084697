-- Learning from matches (issue 17).
-- A match against the AI may show its player hints (the move the AI would make in their
-- seat); never set for a match between two members.
ALTER TABLE matches ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;

-- A member may let spectators see the judgement and hidden cards of their finished matches.
ALTER TABLE user_settings ADD COLUMN share_reviews INTEGER NOT NULL DEFAULT 0;

-- The review of a finished match, analysed once and kept: a second look is instant. The
-- body is the review's JSON; its format is kept beside it so that reviews of an older
-- format can be found (and redone) without reading every body.
CREATE TABLE match_reviews (
    match_id   INTEGER PRIMARY KEY REFERENCES matches (id),
    format     INTEGER NOT NULL,
    body       TEXT    NOT NULL,
    created_at REAL    NOT NULL
);
