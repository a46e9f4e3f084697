-- Puzzles (issue 41), as SQLite's 0018_puzzles.sql says.
CREATE TABLE puzzles (
    key        TEXT    PRIMARY KEY,
    guild_id   BIGINT,
    match_id   BIGINT,
    body       TEXT    NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL CHECK (deviation > 0),
    volatility DOUBLE PRECISION NOT NULL CHECK (volatility > 0),
    attempts   INTEGER NOT NULL DEFAULT 0,
    solves     INTEGER NOT NULL DEFAULT 0 CHECK (solves <= attempts)
);

CREATE INDEX puzzles_by_rating ON puzzles (guild_id, rating);

CREATE TABLE puzzle_standings (
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL CHECK (deviation > 0),
    volatility  DOUBLE PRECISION NOT NULL CHECK (volatility > 0),
    attempts    INTEGER NOT NULL,
    solved      INTEGER NOT NULL CHECK (solved <= attempts),
    streak      INTEGER NOT NULL,
    best_streak INTEGER NOT NULL CHECK (best_streak >= streak),
    PRIMARY KEY (guild_id, user_id)
);

CREATE INDEX puzzle_leaderboard ON puzzle_standings (guild_id, rating DESC, solved DESC, user_id);

CREATE TABLE puzzle_attempts (
    guild_id BIGINT  NOT NULL,
    user_id  BIGINT  NOT NULL,
    key      TEXT    NOT NULL,
    choice   TEXT    NOT NULL,
    solved   BOOLEAN NOT NULL,
    at       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id, key)
);
