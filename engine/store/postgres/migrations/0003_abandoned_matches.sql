-- A match whose channel was deleted, or whose server removed the bot, ends as abandoned
-- (issue 23): unrated, no result, its decisions kept.
ALTER TABLE matches DROP CONSTRAINT matches_status_check;
ALTER TABLE matches ADD CONSTRAINT matches_status_check CHECK (status IN
    ('pending', 'active', 'finished', 'declined', 'cancelled', 'expired', 'broken', 'abandoned'));

-- A server's open matches, found when the bot leaves it (few: open matches only).
CREATE INDEX matches_open_guild ON matches (guild_id) WHERE status IN ('pending', 'active');
