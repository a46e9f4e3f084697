-- Puzzles (issue 41): the puzzles found in a server's finished matches and the built-in
-- set (guild_id NULL, every server's), each rated by the attempts at it; each member's
-- puzzle standing in a server; and each attempt, once per member, server and puzzle.

CREATE TABLE puzzles (
    key        TEXT    PRIMARY KEY,
    guild_id   INTEGER,
    match_id   INTEGER,
    body       TEXT    NOT NULL,
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL CHECK (deviation > 0),
    volatility REAL    NOT NULL CHECK (volatility > 0),
    attempts   INTEGER NOT NULL DEFAULT 0,
    solves     INTEGER NOT NULL DEFAULT 0 CHECK (solves <= attempts)
);

-- A member's next puzzles: the server's own and the built-in ones, by rating.
CREATE INDEX puzzles_by_rating ON puzzles (guild_id, rating);

CREATE TABLE puzzle_standings (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    rating      REAL    NOT NULL,
    deviation   REAL    NOT NULL CHECK (deviation > 0),
    volatility  REAL    NOT NULL CHECK (volatility > 0),
    attempts    INTEGER NOT NULL,
    solved      INTEGER NOT NULL CHECK (solved <= attempts),
    streak      INTEGER NOT NULL,
    best_streak INTEGER NOT NULL CHECK (best_streak >= streak),
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

CREATE INDEX puzzle_leaderboard ON puzzle_standings (guild_id, rating DESC, solved DESC, user_id);

-- Its key makes a second attempt at the same puzzle fail (the candidates skip those tried).
CREATE TABLE puzzle_attempts (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    key      TEXT    NOT NULL,
    choice   TEXT    NOT NULL,
    solved   INTEGER NOT NULL CHECK (solved IN (0, 1)),
    at       REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id, key)
) WITHOUT ROWID;
