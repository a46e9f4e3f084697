-- Ratings per player per server (Glicko-2) and how each rated match moved them.
-- Written only together with the match's row in results, in the same transaction.

CREATE TABLE ratings (
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    rating        REAL    NOT NULL,
    deviation     REAL    NOT NULL CHECK (deviation > 0),
    volatility    REAL    NOT NULL CHECK (volatility > 0),
    games         INTEGER NOT NULL CHECK (games = wins + losses + draws),
    wins          INTEGER NOT NULL,
    losses        INTEGER NOT NULL,
    draws         INTEGER NOT NULL,
    streak        INTEGER NOT NULL,
    last_change   REAL    NOT NULL,
    last_match_id INTEGER REFERENCES results (match_id),
    updated_at    REAL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

CREATE INDEX ratings_leaderboard ON ratings (guild_id, rating DESC, games DESC, user_id);

-- One row per player per rated match; its key makes rating a match twice fail.
CREATE TABLE rating_changes (
    match_id INTEGER NOT NULL REFERENCES results (match_id),
    seat     INTEGER NOT NULL CHECK (seat IN (0, 1)),
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    score    REAL    NOT NULL CHECK (score IN (0, 0.5, 1)),
    before   REAL    NOT NULL,
    after    REAL    NOT NULL,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;

CREATE INDEX rating_changes_player ON rating_changes (guild_id, user_id, match_id);
-- Stats count matches against the AI by player and server (results has no such index).
CREATE INDEX results_ai ON results (guild_id, player0_id) WHERE ai_level IS NOT NULL;
