-- The daily puzzle: the channel a server posts it in (NULL: none, the default), the puzzle
-- of each of its days, and the solvers of a puzzle in a server read in one go.

ALTER TABLE guild_settings ADD COLUMN puzzle_channel_id INTEGER;

-- One row per server and day: its key makes a second post of the same day fail.
CREATE TABLE daily_puzzles (
    guild_id   INTEGER NOT NULL,
    day        INTEGER NOT NULL,
    key        TEXT    NOT NULL,
    channel_id INTEGER NOT NULL,
    posted_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, day)
) WITHOUT ROWID;

-- Who solved a puzzle in a server, in the order they did.
CREATE INDEX puzzle_attempts_by_puzzle ON puzzle_attempts (guild_id, key, at);
