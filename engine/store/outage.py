"""One log line when the database stops answering and one when it answers again.

Each call the store makes is reported here with when it started; the first failure of an
outage is logged, the failures after it are not, and the first success after it ends the
outage. A failure of a call that started before the outage ended says nothing new (it
was queued while the database was away and is only now given up): it does not start
another. A database can also answer in part (a lock on one table, a slow disk): a
success ends the outage only once no call has failed for :data:`QUIET_SECONDS`, so the log
does not flap between the two.
"""

from __future__ import annotations

import logging
import time

log = logging.getLogger(__name__)

QUIET_SECONDS = 2.0
"""How long after the last failure a success ends an outage."""


class OutageLog:
    """Tells the log, once each, that the database at ``where`` stopped and started
    answering (as a full disk is told by :mod:`engine.store.sqlite.writer`)."""

    def __init__(self, where: str) -> None:
        self.where = where
        self._down_since: float | None = None
        self._up_at = float("-inf")
        self._last_failure = float("-inf")

    @property
    def down(self) -> bool:
        return self._down_since is not None

    def failed(self, started: float, reason: str) -> None:
        """A call begun at ``started`` (``time.monotonic()``) got no answer: ``reason``."""
        if self._down_since is None and started < self._up_at:
            return
        self._last_failure = time.monotonic()
        if self._down_since is not None:
            return
        self._down_since = started
        log.error(
            "the database is not answering (%s): players are told to try again in a moment"
            " until it does (database %s)",
            reason,
            self.where,
        )

    def answered(self, started: float) -> None:
        """A call begun at ``started`` was answered."""
        quiet = time.monotonic() - self._last_failure >= QUIET_SECONDS
        if self._down_since is not None and quiet:
            lasted = time.monotonic() - self._down_since
            self._down_since = None
            self._up_at = time.monotonic()
            log.warning(
                "the database answers again after %.1f s: moves are accepted (database %s)",
                lasted,
                self.where,
            )
