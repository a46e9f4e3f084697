-- A server's thread-per-match and three-rounds choices may be unset (NULL): the
-- configured default then applies, and follows the config when it changes. Before, every
-- saved row (even one saved only to pick a language) froze both at the built-in defaults.
-- SQLite cannot drop NOT NULL in place, so the table is rebuilt; rows equal to the old
-- built-in defaults (threads on, standard variant) become unset.
CREATE TABLE guild_settings_new (
    guild_id             INTEGER PRIMARY KEY,
    turn_seconds         REAL,
    expiry_policy        TEXT CHECK (expiry_policy IN ('ai', 'forfeit')),
    thread_per_match     INTEGER,
    three_rounds_default INTEGER,
    language             TEXT
);
INSERT INTO guild_settings_new
    (guild_id, turn_seconds, expiry_policy, thread_per_match, three_rounds_default, language)
SELECT guild_id, turn_seconds, expiry_policy,
       CASE WHEN thread_per_match = 1 THEN NULL ELSE thread_per_match END,
       CASE WHEN three_rounds_default = 0 THEN NULL ELSE three_rounds_default END,
       language
FROM guild_settings;
DROP TABLE guild_settings;
ALTER TABLE guild_settings_new RENAME TO guild_settings;
