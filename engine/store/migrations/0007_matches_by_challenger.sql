-- The limit on new matches per member per hour counts a member's matches created in the
-- last hour (seat 0 is whoever started the match): found by index, not by a table scan.
CREATE INDEX matches_by_challenger ON matches (player0_id, created_at);
