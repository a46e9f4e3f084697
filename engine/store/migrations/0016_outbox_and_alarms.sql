-- One way to announce, one way to schedule: every feature's announcements go through the
-- outbox, and every due thing is a row of one alarm table.

-- An announcement of no match (a season's podium, a tournament's pairings) has a NULL
-- match id. SQLite cannot drop a NOT NULL, so the table is rebuilt; ids are kept, being
-- the order announcements are shown in.
CREATE TABLE announcements_new (
    id         INTEGER PRIMARY KEY,
    match_id   INTEGER REFERENCES matches (id),
    key        TEXT NOT NULL,
    body       TEXT NOT NULL,
    created_at REAL NOT NULL,
    UNIQUE (match_id, key)
);
INSERT INTO announcements_new (id, match_id, key, body, created_at)
    SELECT id, match_id, key, body, created_at FROM announcements;
DROP TABLE announcements;
ALTER TABLE announcements_new RENAME TO announcements;
-- UNIQUE (match_id, key) holds NULL match ids apart: without a match, a key is unique here.
CREATE UNIQUE INDEX announcements_of_no_match ON announcements (key) WHERE match_id IS NULL;

-- At most one alarm per kind and subject ('season-end' of a server, 'tournament-start' of
-- an event). A process claims a due one until claimed_until, so of several processes one
-- does its work; the work deletes it, or moves it later and counts the attempt.
CREATE TABLE alarms (
    kind          TEXT    NOT NULL,
    subject       INTEGER NOT NULL,
    due_at        REAL    NOT NULL,
    claimed_until REAL,
    attempt       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (kind, subject)
) WITHOUT ROWID;
CREATE INDEX alarms_due ON alarms (due_at);

-- What was pending when the server upgraded becomes an alarm, so nothing is lost: a
-- season's podium never shown, an event's pairings or end never shown (due at once), a
-- running season's end, and an event's start at its time.
INSERT OR IGNORE INTO alarms (kind, subject, due_at)
    SELECT 'season-podium', guild_id, 0 FROM seasons
    WHERE ended_at IS NOT NULL AND NOT podium_shown;
INSERT OR IGNORE INTO alarms (kind, subject, due_at)
    SELECT 'season-end', guild_id, ends_at FROM seasons
    WHERE ended_at IS NULL AND ends_at IS NOT NULL;
INSERT OR IGNORE INTO alarms (kind, subject, due_at)
    SELECT 'tournament-unshown', t.id, 0 FROM tournaments t
    WHERE (t.status IN ('finished', 'cancelled') AND t.end_shown_at IS NULL)
       OR EXISTS (SELECT 1 FROM tournament_rounds r
                  WHERE r.tournament_id = t.id AND r.shown_at IS NULL);
INSERT OR IGNORE INTO alarms (kind, subject, due_at)
    SELECT 'tournament-start', id, starts_at FROM tournaments
    WHERE status = 'registering' AND starts_at IS NOT NULL;
