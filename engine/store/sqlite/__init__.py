"""The SQLite store, by job: :mod:`.connection` opens and migrates, :mod:`.writer`
group-commits, :mod:`.matches`, :mod:`.results`, :mod:`.settings` and :mod:`.rematches`
hold the SQL only SQLite speaks (the rest is in :mod:`engine.store.shared_sql`), and
:mod:`.store` puts them behind the ``MatchStore`` protocol."""

from engine.store.sqlite.store import SqliteMatchStore

__all__ = ["SqliteMatchStore"]
