"""Durable storage for the match service behind a small interface (:class:`MatchStore`).

Nothing outside this package writes SQL. ``engine.store.sqlite.SqliteMatchStore`` is the
embedded default, imported from there so the service never loads a database driver; the
schema is in ``migrations/NNNN_*.sql``, its version in ``PRAGMA user_version``.
"""

from engine.store.errors import CorruptDatabase, SchemaTooNew, StoreError
from engine.store.match_store import MatchStore
from engine.store.rows import (
    AI_USER_ID,
    DecisionRow,
    ExpiryPolicy,
    FinishedMatch,
    GuildSettings,
    MatchInfo,
    MatchStatus,
    UserSettings,
)

__all__ = [
    "AI_USER_ID",
    "CorruptDatabase",
    "DecisionRow",
    "ExpiryPolicy",
    "FinishedMatch",
    "GuildSettings",
    "MatchInfo",
    "MatchStatus",
    "MatchStore",
    "SchemaTooNew",
    "StoreError",
    "UserSettings",
]
