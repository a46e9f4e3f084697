-- One way to announce, one way to schedule, as SQLite's 0016_outbox_and_alarms.sql says:
-- announcements of no match (match_id NULL, the key unique among them) and one alarm table.
ALTER TABLE announcements ALTER COLUMN match_id DROP NOT NULL;
CREATE UNIQUE INDEX announcements_of_no_match ON announcements (key) WHERE match_id IS NULL;

CREATE TABLE alarms (
    kind          TEXT    NOT NULL,
    subject       BIGINT  NOT NULL,
    due_at        DOUBLE PRECISION NOT NULL,
    claimed_until DOUBLE PRECISION,
    attempt       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (kind, subject)
);
CREATE INDEX alarms_due ON alarms (due_at);

-- What was pending when the server upgraded becomes an alarm, so nothing is lost.
INSERT INTO alarms (kind, subject, due_at)
    SELECT 'season-podium', guild_id, 0 FROM seasons
    WHERE ended_at IS NOT NULL AND NOT podium_shown
    ON CONFLICT DO NOTHING;
INSERT INTO alarms (kind, subject, due_at)
    SELECT 'season-end', guild_id, ends_at FROM seasons
    WHERE ended_at IS NULL AND ends_at IS NOT NULL
    ON CONFLICT DO NOTHING;
INSERT INTO alarms (kind, subject, due_at)
    SELECT 'tournament-unshown', t.id, 0 FROM tournaments t
    WHERE (t.status IN ('finished', 'cancelled') AND t.end_shown_at IS NULL)
       OR EXISTS (SELECT 1 FROM tournament_rounds r
                  WHERE r.tournament_id = t.id AND r.shown_at IS NULL)
    ON CONFLICT DO NOTHING;
INSERT INTO alarms (kind, subject, due_at)
    SELECT 'tournament-start', id, starts_at FROM tournaments
    WHERE status = 'registering' AND starts_at IS NOT NULL
    ON CONFLICT DO NOTHING;
