-- The language a server chose for public match messages (NULL: its Discord locale).
ALTER TABLE guild_settings ADD COLUMN language TEXT;
