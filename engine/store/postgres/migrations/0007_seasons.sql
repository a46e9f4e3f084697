-- Seasons (issue 27), as SQLite's 0011_seasons.sql says.
ALTER TABLE guild_settings ADD COLUMN season_length TEXT
    CHECK (season_length IN ('off', 'monthly', 'quarterly'));
ALTER TABLE guild_settings ADD COLUMN season_channel_id BIGINT;

CREATE TABLE seasons (
    guild_id      BIGINT  NOT NULL,
    number        INTEGER NOT NULL CHECK (number >= 1),
    length        TEXT    NOT NULL CHECK (length IN ('off', 'monthly', 'quarterly')),
    started_at    DOUBLE PRECISION NOT NULL,
    ends_at       DOUBLE PRECISION,
    ended_at      DOUBLE PRECISION,
    podium_shown  BOOLEAN NOT NULL DEFAULT FALSE,
    claimed_until DOUBLE PRECISION,
    PRIMARY KEY (guild_id, number)
);

CREATE UNIQUE INDEX seasons_running ON seasons (guild_id) WHERE ended_at IS NULL;
CREATE INDEX seasons_ending ON seasons (ends_at) WHERE ended_at IS NULL;
CREATE INDEX seasons_unshown ON seasons (ended_at) WHERE NOT podium_shown;

CREATE TABLE season_standings (
    guild_id   BIGINT  NOT NULL,
    number     INTEGER NOT NULL,
    rank       INTEGER NOT NULL CHECK (rank >= 1),
    user_id    BIGINT  NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL CHECK (deviation > 0),
    volatility DOUBLE PRECISION NOT NULL CHECK (volatility > 0),
    games      INTEGER NOT NULL CHECK (games = wins + losses + draws),
    wins       INTEGER NOT NULL,
    losses     INTEGER NOT NULL,
    draws      INTEGER NOT NULL,
    PRIMARY KEY (guild_id, number, rank),
    FOREIGN KEY (guild_id, number) REFERENCES seasons (guild_id, number)
);

CREATE INDEX season_standings_member ON season_standings (guild_id, user_id, rank);
