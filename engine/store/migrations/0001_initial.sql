-- Matches, their decision logs, finished results, and per-guild and per-user settings.
-- Times are clock seconds (Unix epoch in production); ids are Discord snowflakes or 0 for the AI.

CREATE TABLE matches (
    id                   INTEGER PRIMARY KEY,
    status               TEXT    NOT NULL CHECK (status IN
                           ('pending', 'active', 'finished', 'declined', 'cancelled', 'expired', 'broken')),
    variant              TEXT    NOT NULL,
    player0_id           INTEGER NOT NULL,
    player1_id           INTEGER NOT NULL,
    ai_level             TEXT,
    guild_id             INTEGER,
    channel_id           INTEGER,
    thread_id            INTEGER,
    board_message_id     INTEGER,
    turn_seconds         REAL    NOT NULL,
    expiry_policy        TEXT    NOT NULL CHECK (expiry_policy IN ('ai', 'forfeit')),
    created_at           REAL    NOT NULL,
    challenge_expires_at REAL,
    seed                 INTEGER,
    first_player         INTEGER CHECK (first_player IN (0, 1)),
    started_at           REAL,
    turn_deadline        REAL,
    version              INTEGER NOT NULL DEFAULT 0,
    reminded_version     INTEGER,
    ended_at             REAL,
    broken_reason        TEXT
);

CREATE INDEX matches_open ON matches (status) WHERE status IN ('pending', 'active');

-- The event log: one row per accepted decision, in order.
CREATE TABLE decisions (
    match_id      INTEGER NOT NULL REFERENCES matches (id),
    seq           INTEGER NOT NULL,
    seat          INTEGER NOT NULL CHECK (seat IN (0, 1)),
    decision      TEXT    NOT NULL,
    automatic     INTEGER NOT NULL DEFAULT 0,
    decided_at    REAL    NOT NULL,
    next_deadline REAL,
    PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;

-- A decision is only ever the next one of an active match: a repeated or out-of-order
-- append fails inside its transaction instead of being applied twice.
CREATE TRIGGER decisions_in_order BEFORE INSERT ON decisions
WHEN NEW.seq IS NOT (SELECT version + 1 FROM matches WHERE id = NEW.match_id AND status = 'active')
BEGIN
    SELECT RAISE(ABORT, 'decision out of order or match not active');
END;

-- Appending a decision makes it current in the same statement (one write per decision).
CREATE TRIGGER decisions_advance_match AFTER INSERT ON decisions
BEGIN
    UPDATE matches
       SET version = NEW.seq, turn_deadline = NEW.next_deadline
     WHERE id = NEW.match_id;
END;

CREATE TABLE results (
    match_id    INTEGER PRIMARY KEY REFERENCES matches (id),
    guild_id    INTEGER,
    variant     TEXT    NOT NULL,
    player0_id  INTEGER NOT NULL,
    player1_id  INTEGER NOT NULL,
    ai_level    TEXT,
    winner_seat INTEGER CHECK (winner_seat IN (0, 1)),
    winner_id   INTEGER,
    reason      TEXT    NOT NULL,
    rounds      INTEGER NOT NULL,
    started_at  REAL    NOT NULL,
    finished_at REAL    NOT NULL,
    duration    REAL    NOT NULL,
    record      TEXT    NOT NULL
);

CREATE INDEX results_player0 ON results (player0_id, finished_at);
CREATE INDEX results_player1 ON results (player1_id, finished_at);
CREATE INDEX results_guild ON results (guild_id, finished_at);

CREATE TABLE guild_settings (
    guild_id             INTEGER PRIMARY KEY,
    turn_seconds         REAL,
    expiry_policy        TEXT CHECK (expiry_policy IN ('ai', 'forfeit')),
    thread_per_match     INTEGER NOT NULL,
    three_rounds_default INTEGER NOT NULL
);

CREATE TABLE user_settings (
    user_id          INTEGER PRIMARY KEY,
    dm_notifications INTEGER NOT NULL
);
