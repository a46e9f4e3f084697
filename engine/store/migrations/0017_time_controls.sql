-- Time controls (a clock per player, days per move), turn-based overdue turns, vacations,
-- and an open seat's or tournament's minimum reliability.

-- The pace and its increment (turn_seconds is the timer, the bank, or the days).
ALTER TABLE matches ADD COLUMN pace TEXT NOT NULL DEFAULT 'turn';
ALTER TABLE matches ADD COLUMN increment_seconds REAL NOT NULL DEFAULT 0;
-- Whose turn it is, so a member's matches say so in one read; kept by each decision.
ALTER TABLE matches ADD COLUMN to_move_id INTEGER;
ALTER TABLE matches ADD COLUMN overdue_since REAL;
ALTER TABLE matches ADD COLUMN paused_until REAL;
ALTER TABLE matches ADD COLUMN min_reliability INTEGER;
ALTER TABLE decisions ADD COLUMN next_to_move_id INTEGER;
ALTER TABLE decisions ADD COLUMN paused_until REAL;

-- As in 0010, and a decision also says whose turn comes next, and ends any overdue turn.
DROP TRIGGER decisions_advance_match;
CREATE TRIGGER decisions_advance_match AFTER INSERT ON decisions
BEGIN
    UPDATE matches
       SET version = NEW.seq, turn_deadline = NEW.next_deadline,
           to_move_id = NEW.next_to_move_id, paused_until = NEW.paused_until,
           overdue_since = NULL, claimed_until = NULL
     WHERE id = NEW.match_id;
END;

ALTER TABLE guild_settings ADD COLUMN time_control TEXT;
ALTER TABLE guild_settings ADD COLUMN vacation_days INTEGER;
ALTER TABLE tournaments ADD COLUMN time_control TEXT;
ALTER TABLE tournaments ADD COLUMN min_reliability INTEGER;

-- A member's vacations in a server (one at a time; an early end moves ends_at back).
CREATE TABLE vacations (
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    starts_at REAL    NOT NULL,
    ends_at   REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id, starts_at)
) WITHOUT ROWID;
