"""What the SQLite and PostgreSQL stores share: each table's columns, the SQL both
databases read alike, and the conversions between rows and values (:mod:`.matches`,
:mod:`.results`, :mod:`.settings`, :mod:`.rematches`, :mod:`.reviews`, :mod:`.alarms`), the
reads that are one query each (:mod:`.reads`), and the writes alike in both over a few
store hooks (:mod:`.alarm_records`, :mod:`.season_records`, :mod:`.tournament_records`).
No database driver is imported here: both stores write ``:name`` parameters and both
drivers' rows are read as ``row["column"]`` (:mod:`.sql`)."""

from engine.store.shared_sql import matches, rematches, results, reviews, seasons, settings

__all__ = ["matches", "rematches", "results", "reviews", "seasons", "settings"]
