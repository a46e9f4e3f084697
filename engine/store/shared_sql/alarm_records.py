"""The outbox rows and alarms of both stores, alike in each, on the hooks every shared
write runs on: a store supplies how a query runs (``_fetch``, from :class:`OneQueryReads`),
how several statements commit as one (``_write_all``), how they commit only if a row is
found (``_write_if``) and how it records announcements (``_announcement_inserts``: each
store keeps its outbox its own way)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.store.alarm import Alarm
from engine.store.announcement import Announcement
from engine.store.shared_sql import alarms as sql
from engine.store.shared_sql.reads import OneQueryReads
from engine.store.shared_sql.sql import Statement


class AlarmRecords(OneQueryReads):
    """The outbox and alarm half of :class:`~engine.store.match_store.MatchStore` (all but
    :meth:`claim_due_alarms`, which each database does its own way), over the store hooks."""

    async def _write_all(self, statements: Sequence[Statement], what: str) -> None:
        """Commit ``statements`` as one transaction; :class:`DuplicateKey` (naming ``what``),
        writing nothing, if one of them breaks a unique key."""
        raise NotImplementedError

    async def _write_if(self, check: Statement, statements: Sequence[Statement]) -> bool:
        """Commit ``statements`` only if the query ``check`` finds a row, atomically;
        whether they were committed."""
        raise NotImplementedError

    def _announcement_inserts(self, announcements: Sequence[Announcement]) -> list[Statement]:
        """The statements recording ``announcements`` in the outbox (a key written again
        replaces its row, which takes a new place in the order)."""
        raise NotImplementedError

    def _outbox_and_alarms(
        self,
        announcements: Sequence[Announcement],
        alarms: Sequence[Alarm],
        cleared_alarms: Sequence[tuple[str, int]],
    ) -> list[Statement]:
        """What a feature's write commits with it: its announcements, the alarms it clears,
        then those it sets."""
        return self._announcement_inserts(announcements) + sql.sets_and_clears(
            alarms, cleared_alarms
        )

    # -- writes --------------------------------------------------------------------------

    async def add_announcements(self, rows: Sequence[Announcement]) -> None:
        if rows:
            await self._write_all(self._announcement_inserts(rows), "announcements")

    async def set_alarms(self, alarms: Sequence[Alarm]) -> None:
        if alarms:
            await self._write_all(sql.sets_and_clears(alarms, ()), "alarms")

    async def clear_alarms(self, keys: Sequence[tuple[str, int]]) -> None:
        if keys:
            await self._write_all(sql.sets_and_clears((), keys), "alarms")

    async def release_alarm(self, alarm: Alarm, until: float) -> None:
        await self._write_all([(sql.RELEASE, sql.release_params(alarm, until))], "alarm")

    async def retry_alarm(self, alarm: Alarm, until: float, due_at: float) -> None:
        await self._write_all([(sql.RETRY, sql.retry_params(alarm, until, due_at))], "alarm")

    # -- reads ---------------------------------------------------------------------------

    async def next_alarm_due(self) -> float | None:
        row = await self._fetch_one(sql.NEXT_DUE)
        return None if row is None or row["at"] is None else float(row["at"])
