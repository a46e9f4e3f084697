-- The open seats of a server, oldest first (`/hanamikoji seats`): without it the list read
-- every open match of the server.
CREATE INDEX matches_open_seats ON matches (guild_id, created_at, id)
    WHERE status = 'pending' AND player1_id = -1;
