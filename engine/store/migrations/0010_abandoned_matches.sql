-- A match whose channel was deleted, or whose server removed the bot, ends as abandoned
-- (issue 23): unrated, no result, its decisions kept. SQLite cannot change a CHECK in
-- place, so the matches table is rebuilt with 'abandoned' among its statuses.
-- The new table replaces the old as SQLite's "Making Other Kinds Of Table Schema Changes"
-- says, with foreign keys off meanwhile (the migration runner turns them off and checks
-- them before committing). The triggers that read matches are dropped first and made again
-- after: renaming a table re-checks every trigger, and these would name a missing table.

DROP TRIGGER decisions_in_order;
DROP TRIGGER decisions_advance_match;
DROP TRIGGER match_expectations_check;

CREATE TABLE matches_new (
    id                   INTEGER PRIMARY KEY,
    status               TEXT    NOT NULL CHECK (status IN
                           ('pending', 'active', 'finished', 'declined', 'cancelled', 'expired',
                            'broken', 'abandoned')),
    variant              TEXT    NOT NULL,
    player0_id           INTEGER NOT NULL,
    player1_id           INTEGER NOT NULL,
    ai_level             TEXT,
    guild_id             INTEGER,
    channel_id           INTEGER,
    thread_id            INTEGER,
    board_message_id     INTEGER,
    turn_seconds         REAL    NOT NULL,
    expiry_policy        TEXT    NOT NULL CHECK (expiry_policy IN ('ai', 'forfeit')),
    created_at           REAL    NOT NULL,
    challenge_expires_at REAL,
    seed                 INTEGER,
    first_player         INTEGER CHECK (first_player IN (0, 1)),
    started_at           REAL,
    turn_deadline        REAL,
    version              INTEGER NOT NULL DEFAULT 0,
    reminded_version     INTEGER,
    ended_at             REAL,
    broken_reason        TEXT,
    rematch_of           INTEGER REFERENCES matches (id),
    claimed_until        REAL,
    hints                INTEGER NOT NULL DEFAULT 0
);
INSERT INTO matches_new (
    id, status, variant, player0_id, player1_id, ai_level, guild_id, channel_id, thread_id,
    board_message_id, turn_seconds, expiry_policy, created_at, challenge_expires_at, seed,
    first_player, started_at, turn_deadline, version, reminded_version, ended_at,
    broken_reason, rematch_of, claimed_until, hints
)
SELECT id, status, variant, player0_id, player1_id, ai_level, guild_id, channel_id, thread_id,
       board_message_id, turn_seconds, expiry_policy, created_at, challenge_expires_at, seed,
       first_player, started_at, turn_deadline, version, reminded_version, ended_at,
       broken_reason, rematch_of, claimed_until, hints
  FROM matches;
DROP TABLE matches;
ALTER TABLE matches_new RENAME TO matches;

CREATE INDEX matches_open ON matches (status) WHERE status IN ('pending', 'active');
CREATE INDEX matches_rematch_of ON matches (rematch_of) WHERE rematch_of IS NOT NULL;
CREATE INDEX matches_by_challenger ON matches (player0_id, created_at);
CREATE INDEX matches_open_by_player0 ON matches (player0_id) WHERE status IN ('pending', 'active');
CREATE INDEX matches_open_by_player1 ON matches (player1_id) WHERE status IN ('pending', 'active');
CREATE INDEX matches_by_thread ON matches (thread_id) WHERE thread_id IS NOT NULL;
-- A server's open matches, found when the bot leaves it (few: open matches only).
CREATE INDEX matches_open_by_guild ON matches (guild_id) WHERE status IN ('pending', 'active');

-- As in 0008.
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

CREATE TRIGGER decisions_in_order BEFORE INSERT ON decisions
WHEN NEW.seq IS NOT (SELECT version + 1 FROM matches WHERE id = NEW.match_id AND status = 'active')
BEGIN
    SELECT RAISE(ABORT, 'conflict: decision out of order or match not active');
END;

CREATE TRIGGER decisions_advance_match AFTER INSERT ON decisions
BEGIN
    UPDATE matches
       SET version = NEW.seq, turn_deadline = NEW.next_deadline, claimed_until = NULL
     WHERE id = NEW.match_id;
END;
