"""Durable storage for the match service behind a small interface (:class:`MatchStore`).

Nothing outside this package writes SQL. ``engine.store.sqlite.SqliteMatchStore`` is the
embedded default, imported from there so the service never loads a database driver (a host
builds the configured store with :func:`engine.hosting.open_store`); the SQL both stores
share is :mod:`engine.store.shared_sql`; the schema is in ``migrations/NNNN_*.sql``, its
version in ``PRAGMA user_version``. The values it keeps are the service's model
(:mod:`engine.model`).
"""

from engine.store.errors import CorruptDatabase, SchemaTooNew, StoreError
from engine.store.match_store import MatchStore

__all__ = [
    "CorruptDatabase",
    "MatchStore",
    "SchemaTooNew",
    "StoreError",
]
