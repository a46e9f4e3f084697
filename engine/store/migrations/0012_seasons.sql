-- Seasons (issue 27): a server's standings that start over each month or quarter, or by
-- hand. A server's season length and the channel its podium goes to are settings; the
-- lobby channel (open seats, 0011) is where the podium goes when no season channel is named.
ALTER TABLE guild_settings ADD COLUMN season_length TEXT
    CHECK (season_length IN ('off', 'monthly', 'quarterly'));
ALTER TABLE guild_settings ADD COLUMN season_channel_id INTEGER;

-- One row per season; at most one running (ended_at NULL) per server. A process claims a
-- due season (its end passed, or its podium not yet shown) until claimed_until, so of
-- several processes one ends it and one shows its podium.
CREATE TABLE seasons (
    guild_id      INTEGER NOT NULL,
    number        INTEGER NOT NULL CHECK (number >= 1),
    length        TEXT    NOT NULL CHECK (length IN ('off', 'monthly', 'quarterly')),
    started_at    REAL    NOT NULL,
    ends_at       REAL,
    ended_at      REAL,
    podium_shown  INTEGER NOT NULL DEFAULT 0,
    claimed_until REAL,
    PRIMARY KEY (guild_id, number)
) WITHOUT ROWID;

CREATE UNIQUE INDEX seasons_running ON seasons (guild_id) WHERE ended_at IS NULL;
-- What the alarm reads: running seasons with an end, and ended ones not yet announced.
CREATE INDEX seasons_ending ON seasons (ends_at) WHERE ended_at IS NULL;
CREATE INDEX seasons_unshown ON seasons (ended_at) WHERE NOT podium_shown;

-- The final ranking of a season that ended, every ranked member, written with its end.
CREATE TABLE season_standings (
    guild_id   INTEGER NOT NULL,
    number     INTEGER NOT NULL,
    rank       INTEGER NOT NULL CHECK (rank >= 1),
    user_id    INTEGER NOT NULL,
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL CHECK (deviation > 0),
    volatility REAL    NOT NULL CHECK (volatility > 0),
    games      INTEGER NOT NULL CHECK (games = wins + losses + draws),
    wins       INTEGER NOT NULL,
    losses     INTEGER NOT NULL,
    draws      INTEGER NOT NULL,
    PRIMARY KEY (guild_id, number, rank),
    FOREIGN KEY (guild_id, number) REFERENCES seasons (guild_id, number)
) WITHOUT ROWID;

CREATE INDEX season_standings_member ON season_standings (guild_id, user_id, rank);
