-- Time controls, overdue turns, vacations, minimum reliability: as SQLite's
-- 0017_time_controls.sql says.
ALTER TABLE matches ADD COLUMN pace TEXT NOT NULL DEFAULT 'turn';
ALTER TABLE matches ADD COLUMN increment_seconds DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN to_move_id BIGINT;
ALTER TABLE matches ADD COLUMN overdue_since DOUBLE PRECISION;
ALTER TABLE matches ADD COLUMN paused_until DOUBLE PRECISION;
ALTER TABLE matches ADD COLUMN min_reliability INTEGER;
ALTER TABLE decisions ADD COLUMN next_to_move_id BIGINT;
ALTER TABLE decisions ADD COLUMN paused_until DOUBLE PRECISION;

ALTER TABLE guild_settings ADD COLUMN time_control TEXT;
ALTER TABLE guild_settings ADD COLUMN vacation_days INTEGER;
ALTER TABLE tournaments ADD COLUMN time_control TEXT;
ALTER TABLE tournaments ADD COLUMN min_reliability INTEGER;

CREATE TABLE vacations (
    guild_id  BIGINT NOT NULL,
    user_id   BIGINT NOT NULL,
    starts_at DOUBLE PRECISION NOT NULL,
    ends_at   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id, starts_at)
);
