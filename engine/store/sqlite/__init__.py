"""The SQLite store, by job: :mod:`.connection` opens and migrates, :mod:`.writer`
group-commits, :mod:`.matches`, :mod:`.results`, :mod:`.settings` and :mod:`.rematches`
hold each table's SQL, and :mod:`.store` puts them behind the ``MatchStore`` protocol."""

from engine.store.sqlite.store import SqliteMatchStore

__all__ = ["SqliteMatchStore"]
