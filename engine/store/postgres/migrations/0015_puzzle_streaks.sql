-- The puzzle streak (issue 41), as SQLite's 0020_puzzle_streaks.sql says.
ALTER TABLE puzzles ADD COLUMN ease DOUBLE PRECISION NOT NULL DEFAULT 0;

CREATE INDEX puzzles_by_ladder ON puzzles (guild_id, rating, ease DESC, key);

ALTER TABLE puzzle_standings
    ADD COLUMN run_key TEXT,
    ADD COLUMN run_rating DOUBLE PRECISION,
    ADD COLUMN run_ease DOUBLE PRECISION,
    ADD COLUMN run_solved INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN run_answered BOOLEAN NOT NULL DEFAULT FALSE,
    ADD COLUMN run_best INTEGER NOT NULL DEFAULT 0 CHECK (run_best >= run_solved);

ALTER TABLE puzzle_attempts ADD COLUMN rated BOOLEAN NOT NULL DEFAULT TRUE;
