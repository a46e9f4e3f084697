-- Tournaments (issue 28): an event, its players, its rounds and its games.
-- A round's row is the claim that it was paired: inserted once, with all its games, in one
-- transaction; a second process or a restart that tries again finds the key taken.
-- A game's (tournament, round, table) key and its unique match id make sure no table
-- gets two matches and no match counts for two tables.

CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    organiser_id    INTEGER NOT NULL,
    name            TEXT    NOT NULL,
    format          TEXT    NOT NULL CHECK (format IN ('swiss', 'round-robin', 'knockout')),
    status          TEXT    NOT NULL
                      CHECK (status IN ('registering', 'running', 'finished', 'cancelled')),
    created_at      REAL    NOT NULL,
    rounds          INTEGER,
    variant         TEXT,
    turn_seconds    REAL,
    max_players     INTEGER,
    starts_at       REAL,
    rated           INTEGER NOT NULL DEFAULT 1,
    thread_id       INTEGER,
    message_id      INTEGER,
    started_at      REAL,
    ended_at        REAL,
    -- When the Discord layer confirmed showing the end (the podium, or the cancellation).
    end_shown_at    REAL
);
CREATE INDEX tournaments_open ON tournaments (status) WHERE status IN ('registering', 'running');
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, created_at);

CREATE TABLE tournament_entries (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    user_id         INTEGER NOT NULL,
    joined_at       REAL    NOT NULL,
    seed            INTEGER,
    rating          REAL,
    withdrawn_at    REAL,
    PRIMARY KEY (tournament_id, user_id)
);

CREATE TABLE tournament_rounds (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    round           INTEGER NOT NULL,
    paired_at       REAL    NOT NULL,
    -- When the Discord layer confirmed posting the pairings: a round paired by a process
    -- that stopped before posting them is posted at the next start.
    shown_at        REAL,
    PRIMARY KEY (tournament_id, round)
);

CREATE TABLE tournament_games (
    tournament_id   INTEGER NOT NULL,
    round           INTEGER NOT NULL,
    table_number    INTEGER NOT NULL,
    first_id        INTEGER NOT NULL,
    second_id       INTEGER,
    match_id        INTEGER UNIQUE REFERENCES matches (id),
    result          TEXT CHECK (result IN ('first', 'second', 'draw')),
    PRIMARY KEY (tournament_id, round, table_number),
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, round)
);
