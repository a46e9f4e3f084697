"""The PostgreSQL store, by job: :mod:`.connection` reaches the server and migrates,
:mod:`.sql` binds named parameters, :mod:`.matches`, :mod:`.claims`, :mod:`.results`,
:mod:`.settings`, :mod:`.rematches` and :mod:`.announcements` hold each table's SQL, and
:mod:`.reads` and :mod:`.store` put them behind the ``MatchStore`` protocol."""

from engine.store.postgres.store import PostgresMatchStore

__all__ = ["PostgresMatchStore"]
