"""The ``rematch_presses`` table's read (each store says how a press is recorded once)."""

from __future__ import annotations

SELECT_PRESSES = "SELECT user_id FROM rematch_presses WHERE match_id = :match_id ORDER BY user_id"
