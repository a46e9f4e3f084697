"""The PostgreSQL store, by job: :mod:`.connection` reaches the server and migrates,
:mod:`.sql` binds named parameters, :mod:`.matches`, :mod:`.claims`, :mod:`.results`,
:mod:`.settings`, :mod:`.rematches` and :mod:`.announcements` hold the SQL only PostgreSQL
speaks (the rest is in :mod:`engine.store.shared_sql`), and :mod:`.reads` and :mod:`.store` put
them behind the ``MatchStore`` protocol."""

from engine.store.postgres.store import PostgresMatchStore

__all__ = ["PostgresMatchStore"]
