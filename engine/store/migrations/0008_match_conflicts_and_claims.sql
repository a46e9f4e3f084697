-- Writes that move a match on check, in their transaction, that the match is as the caller
-- saw it, and fail with an error starting 'conflict:' otherwise (the store raises
-- MatchConflict). A process claims a match's pending work until claimed_until; every
-- write that moves the match on releases the claim.

ALTER TABLE matches ADD COLUMN claimed_until REAL;

-- A write first inserts what it expects of its match here: the match must have this
-- status, this version when given, no reminder yet for its version when unreminded, and
-- no claim unexpired at free_at when given. Nothing is stored.
CREATE VIEW match_expectations (match_id, status, version, unreminded, free_at) AS
SELECT NULL, NULL, NULL, NULL, NULL WHERE 0;

CREATE TRIGGER match_expectations_check INSTEAD OF INSERT ON match_expectations
WHEN NOT EXISTS (
    SELECT 1 FROM matches
     WHERE id = NEW.match_id
       AND status = NEW.status
       AND (NEW.version IS NULL OR version = NEW.version)
       AND (NOT NEW.unreminded OR reminded_version IS NOT version)
       AND (NEW.free_at IS NULL OR claimed_until IS NULL OR claimed_until <= NEW.free_at)
)
BEGIN
    SELECT RAISE(ABORT, 'conflict: the match is not as the write expected');
END;

-- As in 0001, now marked as a conflict, and an append releases the match's claim.
DROP TRIGGER decisions_in_order;
CREATE TRIGGER decisions_in_order BEFORE INSERT ON decisions
WHEN NEW.seq IS NOT (SELECT version + 1 FROM matches WHERE id = NEW.match_id AND status = 'active')
BEGIN
    SELECT RAISE(ABORT, 'conflict: decision out of order or match not active');
END;

DROP TRIGGER decisions_advance_match;
CREATE TRIGGER decisions_advance_match AFTER INSERT ON decisions
BEGIN
    UPDATE matches
       SET version = NEW.seq, turn_deadline = NEW.next_deadline, claimed_until = NULL
     WHERE id = NEW.match_id;
END;

-- A member's open matches, from either seat: small indexes of open matches only.
CREATE INDEX matches_open_by_player0 ON matches (player0_id) WHERE status IN ('pending', 'active');
CREATE INDEX matches_open_by_player1 ON matches (player1_id) WHERE status IN ('pending', 'active');

CREATE INDEX matches_by_thread ON matches (thread_id) WHERE thread_id IS NOT NULL;
