-- The puzzle streak (issue 41): an unrated run of ever harder puzzles that ends at the
-- first miss. Each puzzle's ease (how far its best move stands out) orders puzzles of one
-- rating on the ladder; a member's run under way, and their best, sit in their standing;
-- an attempt says whether it was rated. Puzzles stored before know their ease when saved
-- again (the built-in set at each start); until then 0, the last of their rating.

ALTER TABLE puzzles ADD COLUMN ease REAL NOT NULL DEFAULT 0;

-- The ladder: the server's own and the built-in ones, by rating, the easier first.
CREATE INDEX puzzles_by_ladder ON puzzles (guild_id, rating, ease DESC, key);

ALTER TABLE puzzle_standings ADD COLUMN run_key TEXT;
ALTER TABLE puzzle_standings ADD COLUMN run_rating REAL;
ALTER TABLE puzzle_standings ADD COLUMN run_ease REAL;
ALTER TABLE puzzle_standings ADD COLUMN run_solved INTEGER NOT NULL DEFAULT 0;
ALTER TABLE puzzle_standings ADD COLUMN run_answered INTEGER NOT NULL DEFAULT 0
    CHECK (run_answered IN (0, 1));
ALTER TABLE puzzle_standings ADD COLUMN run_best INTEGER NOT NULL DEFAULT 0
    CHECK (run_best >= run_solved);

ALTER TABLE puzzle_attempts ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));
