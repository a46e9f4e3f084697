"""What a store tells an operator about the database behind it: whether it answers, whether
its disk is full, how many connections are busy. Both stores implement it; the match
service and its callers never need it."""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class StoreHealth(Protocol):
    @property
    def kind(self) -> str:
        """``"sqlite"`` or ``"postgres"``: a metric's label, never the database's name."""
        ...

    @property
    def database_down(self) -> bool:
        """Calls fail for want of an answer, and none has succeeded since (:mod:`.outage`)."""
        ...

    @property
    def disk_full(self) -> bool:
        """Writes are refused for a full disk (SQLite; a PostgreSQL server's disk is its own
        to watch)."""
        ...

    @property
    def connections_in_use(self) -> int:
        """Connections running a call now (PostgreSQL: of the pool; SQLite: 0 or 1)."""
        ...

    async def ping(self) -> None:
        """Return once the database answers a write-path round trip; raise
        :class:`~engine.store.errors.DatabaseUnavailable` (or another ``StoreError``) if not,
        within the store's own timeouts."""
        ...
