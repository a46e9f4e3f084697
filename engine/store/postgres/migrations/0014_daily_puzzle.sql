-- The daily puzzle, as SQLite's 0019_daily_puzzle.sql says.
ALTER TABLE guild_settings ADD COLUMN puzzle_channel_id BIGINT;

CREATE TABLE daily_puzzles (
    guild_id   BIGINT  NOT NULL,
    day        INTEGER NOT NULL,
    key        TEXT    NOT NULL,
    channel_id BIGINT  NOT NULL,
    posted_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, day)
);

CREATE INDEX puzzle_attempts_by_puzzle ON puzzle_attempts (guild_id, key, at);
