"""The outbox's row: an announcement stored in the same commit as its cause."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Announcement:
    """Something the public must be told, stored in the same commit as its cause and kept
    until the Discord layer confirms it was shown (the outbox)."""

    match_id: int | None
    """The match it tells of; None for a server-level feature's (a season's podium, a
    tournament's pairings). Ignored when written with :meth:`MatchStore.create_match` (the
    new match's id)."""
    key: str
    """Unique within the match: what was announced and at which version (``decision@7``);
    without a match, unique among those without one and naming their subject
    (``season@123:4``, ``tournament@9:round@2``)."""
    body: str
    """The event as JSON, without its match id (:mod:`engine.service.announcing.event_codec`)."""
    created_at: float
