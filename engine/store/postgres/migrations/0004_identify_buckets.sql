-- The Gateway's session start limit (issue 23): when each bucket (shard_id % max_concurrency)
-- last IDENTIFYed, in seconds since the epoch by the database's clock, so that bot
-- processes starting at once take turns 5 s apart whatever their own clocks say.
CREATE TABLE identify_buckets (
    bucket        INTEGER PRIMARY KEY,
    identified_at DOUBLE PRECISION NOT NULL
);
