"""SQL of claims: a process taking a match's pending work (an AI move, a due alarm) until a
lease runs out, so that of several processes exactly one does it.

A claim is ``matches.claimed_until``; every write that moves the match on clears it (see
:mod:`.matches`), and an expired one may be taken over (its process died or gave up).
"""

from __future__ import annotations

from typing import Any

from engine.store.postgres.sql import fetch

_FREE = "(claimed_until IS NULL OR claimed_until <= :now)"

CLAIM = (
    "UPDATE matches SET claimed_until = :until"
    f" WHERE id = :match_id AND status = 'active' AND version = :version AND {_FREE}"
    " RETURNING id"
)

# When a match's alarm goes off (NULL: it has none): a challenge's expiry; a turn's
# deadline, or its reminder earlier while the turn is not yet reminded; an expired claim.
# LEAST ignores NULLs.
_DUE_AT = (
    "LEAST("
    "CASE WHEN status = 'pending' THEN challenge_expires_at ELSE turn_deadline END,"
    " CASE WHEN status = 'active' AND reminded_version IS DISTINCT FROM version"
    " THEN turn_deadline - LEAST(:reminder_lead, turn_seconds / 2) END,"
    " claimed_until)"
)
# Rows another process is claiming right now are locked: SKIP LOCKED passes them by
# instead of waiting for a claim that will hold them anyway. Only open matches are read
# (by their partial index).
CLAIM_DUE = (
    "WITH due AS ("
    f" SELECT id, {_DUE_AT} AS due_at FROM matches"
    f" WHERE status IN ('pending', 'active') AND {_FREE} AND {_DUE_AT} <= :now"
    " ORDER BY due_at, id LIMIT :limit FOR UPDATE SKIP LOCKED)"
    " UPDATE matches m SET claimed_until = :until FROM due WHERE m.id = due.id"
    " RETURNING m.id AS id, due.due_at AS due_at"
)


async def claim(conn: Any, match_id: int, version: int, until: float, now: float) -> bool:
    params = {"match_id": match_id, "version": version, "until": until, "now": now}
    return bool(await fetch(conn, CLAIM, params))


async def claim_due(
    conn: Any, now: float, reminder_lead: float, until: float, limit: int
) -> list[int]:
    params = {"now": now, "reminder_lead": reminder_lead, "until": until, "limit": limit}
    rows = await fetch(conn, CLAIM_DUE, params)
    # RETURNING keeps no order: oldest due first again.
    return [row["id"] for row in sorted(rows, key=lambda r: (r["due_at"], r["id"]))]
