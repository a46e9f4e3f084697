-- The role whose members may create tournaments (issue 28), beside Manage Server.
ALTER TABLE guild_settings ADD COLUMN tournament_role_id INTEGER;
