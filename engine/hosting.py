"""What a host of the match service (the bot, a benchmark) needs from the storage layer,
without reaching into it: :func:`open_store` builds the configured store, and the bounds,
errors and IDENTIFY turns it shares are named here.

The database drivers are imported inside :func:`open_store`, for the one store asked for:
a bot on SQLite never loads asyncpg, and importing this module loads neither.
"""

from __future__ import annotations

from pathlib import Path

from engine.store.errors import DatabaseUnavailable, StorageFull, StoreError
from engine.store.health import StoreHealth
from engine.store.identify_gate import IdentifyGate, IdentifyTurnUnknown, LocalIdentifyGate
from engine.store.match_store import MatchStore
from engine.store.timeouts import DEFAULT_SECONDS, DatabaseTimeouts

__all__ = [
    "DEFAULT_SECONDS",
    "DatabaseTimeouts",
    "DatabaseUnavailable",
    "IdentifyGate",
    "IdentifyTurnUnknown",
    "LocalIdentifyGate",
    "MatchStore",
    "StorageFull",
    "StoreError",
    "StoreHealth",
    "open_store",
]


def open_store(
    *,
    path: str | Path,
    url: str | None,
    origin: str,
    timeouts: DatabaseTimeouts,
) -> MatchStore:
    """PostgreSQL at ``url`` when one is given (``origin`` names this process in the shared
    outbox), else the SQLite file at ``path``; not opened yet (the service opens it)."""
    if url is None:
        from engine.store.sqlite import SqliteMatchStore

        return SqliteMatchStore(path, timeouts=timeouts)
    from engine.store.postgres import PostgresMatchStore

    return PostgresMatchStore(url, origin=origin, timeouts=timeouts)
