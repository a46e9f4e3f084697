-- A thread's match, open or over (/hanamikoji moves, board and review asked in a finished
-- match's thread): the open-only index of 0001 does not serve it.
CREATE INDEX matches_by_thread ON matches (thread_id) WHERE thread_id IS NOT NULL;
