"""SQLite's own SQL of the ``rematch_presses`` table (its read is in
:mod:`engine.store.shared_sql.rematches`; the match a rematch started is ``matches.rematch_of``)."""

from __future__ import annotations

# Pressing twice is one press.
PRESS = (
    "INSERT OR IGNORE INTO rematch_presses (match_id, user_id, pressed_at)"
    " VALUES (:match_id, :user_id, :pressed_at)"
)
