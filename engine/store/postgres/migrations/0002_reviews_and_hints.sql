-- Learning from matches (issue 17).
-- A match against the AI may show its player hints (the move the AI would make in their
-- seat); never set for a match between two members.
ALTER TABLE matches ADD COLUMN hints BOOLEAN NOT NULL DEFAULT FALSE;

-- A member may let spectators see the judgement and hidden cards of their finished matches.
ALTER TABLE user_settings ADD COLUMN share_reviews BOOLEAN NOT NULL DEFAULT FALSE;

-- The review of a finished match, analysed once and kept: a second look is instant. The
-- body is the review's JSON; its format is kept beside it so that reviews of an older
-- format can be found (and redone) without reading every body.
CREATE TABLE match_reviews (
    match_id   BIGINT  PRIMARY KEY REFERENCES matches (id),
    format     INTEGER NOT NULL,
    body       TEXT    NOT NULL,
    created_at DOUBLE PRECISION NOT NULL
);
