"""The alarm table's row: something due at a time, claimed from the database by one process."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Alarm:
    """A feature's due thing (a season's end, a tournament's start), kept until its work is
    done: :meth:`~engine.store.match_store.MatchStore.claim_due_alarms` hands it to one
    process, which then releases it (done) or retries it (failed).

    >>> Alarm("season-end", 123, due_at=1_700_000_000.0).key
    ('season-end', 123)
    """

    kind: str
    """What is due (``"season-end"``, ``"tournament-start"``); names the feature's handler."""
    subject: int
    """What it is due for: a server's id for a season, a tournament's id for a tournament."""
    due_at: float
    attempt: int = 0
    """How many times its work failed (a retry comes later each time)."""

    @property
    def key(self) -> tuple[str, int]:
        """At most one alarm per kind and subject: setting it again moves it."""
        return self.kind, self.subject
