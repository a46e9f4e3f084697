-- Open seats (issue 27): a match may be opened unrated, and a server may name a lobby
-- channel where its open seats are announced. An open seat itself needs no column: it is
-- a pending match whose player1_id is -1 (engine.model.OPEN_SEAT) until someone joins.
ALTER TABLE matches ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
ALTER TABLE guild_settings ADD COLUMN lobby_channel_id INTEGER;
