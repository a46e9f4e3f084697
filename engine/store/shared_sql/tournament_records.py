"""The tournament half of both stores, alike in each, on the hooks of
:class:`AlarmRecords` and one more: how a new event gets its id (``_insert_tournament``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from engine.model import Tournament, TournamentEntry, TournamentGame, TournamentStatus
from engine.store.alarm import Alarm
from engine.store.announcement import Announcement
from engine.store.errors import DuplicateKey
from engine.store.shared_sql import tournaments as sql
from engine.store.shared_sql.alarm_records import AlarmRecords
from engine.store.shared_sql.sql import Statement
from engine.tournaments import Result


class TournamentRecords(AlarmRecords):
    """:class:`~engine.store.tournament_store.TournamentStore` over the store hooks."""

    async def _insert_tournament(
        self, params: dict[str, Any], then: Callable[[int], list[Statement]]
    ) -> int:
        """Insert the tournament's row (``params`` without an id) and the statements ``then``
        makes of its new id, in one commit; return the id."""
        raise NotImplementedError

    # -- writes --------------------------------------------------------------------------

    async def create_tournament(
        self,
        tournament: Tournament,
        *,
        announcements: Sequence[Announcement] = (),
        alarms: Sequence[Alarm] = (),
        cleared_alarms: Sequence[tuple[str, int]] = (),
    ) -> Tournament:
        params = sql.tournament_params(tournament)
        del params["id"]

        def then(tournament_id: int) -> list[Statement]:
            # Its start alarm could not know the id: subject 0 stands for it.
            own = [replace(a, subject=tournament_id) if a.subject == 0 else a for a in alarms]
            return self._outbox_and_alarms(announcements, own, cleared_alarms)

        return replace(tournament, tournament_id=await self._insert_tournament(params, then))

    async def set_tournament_location(
        self, tournament_id: int, thread_id: int | None, message_id: int | None
    ) -> None:
        params = {"tournament_id": tournament_id, "thread_id": thread_id, "message_id": message_id}
        await self._write_all([(sql.SET_LOCATION, params)], "location")

    async def add_entry(self, tournament_id: int, user_id: int, at: float) -> None:
        params = {
            "tournament_id": tournament_id,
            "user_id": user_id,
            "joined_at": at,
            "seed": None,
            "rating": None,
            "withdrawn_at": None,
        }
        what = f"player {user_id} in tournament {tournament_id}"
        await self._write_all([(sql.INSERT_ENTRY, params)], what)

    async def remove_entry(self, tournament_id: int, user_id: int) -> None:
        params = {"tournament_id": tournament_id, "user_id": user_id}
        await self._write_all([(sql.DELETE_ENTRY, params)], "entry")

    async def start_tournament(
        self,
        tournament_id: int,
        entries: Sequence[TournamentEntry],
        at: float,
        *,
        announcements: Sequence[Announcement] = (),
        alarms: Sequence[Alarm] = (),
        cleared_alarms: Sequence[tuple[str, int]] = (),
    ) -> None:
        kept = {entry.user_id for entry in entries}
        statements: list[Statement] = [
            (sql.START, {"tournament_id": tournament_id, "started_at": at})
        ]
        for row in await self._fetch(sql.SELECT_ENTRIES, {"tournament_id": tournament_id}):
            if row["user_id"] not in kept:
                params = {"tournament_id": tournament_id, "user_id": row["user_id"]}
                statements.append((sql.DELETE_ENTRY, params))
        for entry in entries:
            params = {
                "tournament_id": tournament_id,
                "user_id": entry.user_id,
                "seed": entry.seed,
                "rating": entry.rating,
            }
            statements.append((sql.SEED_ENTRY, params))
        statements += self._outbox_and_alarms(announcements, alarms, cleared_alarms)
        # Checked in the write's own transaction: of two processes starting it, one does
        # (and only its announcements and alarms are written).
        check = (sql.SELECT_REGISTERING, {"tournament_id": tournament_id})
        if not await self._write_if(check, statements):
            raise DuplicateKey(f"the start of tournament {tournament_id}")

    async def pair_round(
        self,
        tournament_id: int,
        round_number: int,
        games: Sequence[TournamentGame],
        at: float,
        *,
        announcements: Sequence[Announcement] = (),
        alarms: Sequence[Alarm] = (),
        cleared_alarms: Sequence[tuple[str, int]] = (),
    ) -> None:
        round_params = {"tournament_id": tournament_id, "round": round_number, "paired_at": at}
        statements: list[Statement] = [(sql.INSERT_ROUND, round_params)]
        statements += [(sql.INSERT_GAME, sql.game_params(tournament_id, g)) for g in games]
        statements += self._outbox_and_alarms(announcements, alarms, cleared_alarms)
        await self._write_all(statements, f"round {round_number} of tournament {tournament_id}")

    async def attach_match(
        self, tournament_id: int, round_number: int, table: int, match_id: int
    ) -> None:
        params = {
            "tournament_id": tournament_id,
            "round": round_number,
            "table_number": table,
            "match_id": match_id,
        }
        await self._write_all([(sql.ATTACH_MATCH, params)], f"match {match_id} at a table")

    async def detach_match(
        self, tournament_id: int, round_number: int, table: int, match_id: int
    ) -> None:
        params = {
            "tournament_id": tournament_id,
            "round": round_number,
            "table_number": table,
            "match_id": match_id,
        }
        await self._write_all([(sql.DETACH_MATCH, params)], f"match {match_id} off its table")

    async def record_game_result(
        self, tournament_id: int, round_number: int, table: int, result: Result
    ) -> None:
        params = {
            "tournament_id": tournament_id,
            "round": round_number,
            "table_number": table,
            "result": str(result),
        }
        await self._write_all([(sql.RECORD_RESULT, params)], "result")

    async def withdraw_entry(
        self,
        tournament_id: int,
        user_id: int,
        at: float,
        *,
        announcements: Sequence[Announcement] = (),
        alarms: Sequence[Alarm] = (),
        cleared_alarms: Sequence[tuple[str, int]] = (),
    ) -> None:
        params = {"tournament_id": tournament_id, "user_id": user_id, "withdrawn_at": at}
        statements: list[Statement] = [(sql.WITHDRAW_ENTRY, params)]
        statements += self._outbox_and_alarms(announcements, alarms, cleared_alarms)
        await self._write_if((sql.SELECT_UNWITHDRAWN, params), statements)

    async def end_tournament(
        self,
        tournament_id: int,
        status: TournamentStatus,
        at: float,
        *,
        announcements: Sequence[Announcement] = (),
        alarms: Sequence[Alarm] = (),
        cleared_alarms: Sequence[tuple[str, int]] = (),
    ) -> bool:
        params = {"tournament_id": tournament_id, "status": str(status), "ended_at": at}
        statements: list[Statement] = [(sql.END, params)]
        statements += self._outbox_and_alarms(announcements, alarms, cleared_alarms)
        return await self._write_if((sql.SELECT_OPEN_ONE, params), statements)

    async def round_shown(self, tournament_id: int, round_number: int, at: float) -> None:
        params = {"tournament_id": tournament_id, "round": round_number, "shown_at": at}
        await self._write_all([(sql.ROUND_SHOWN, params)], "round shown")

    async def end_shown(self, tournament_id: int, at: float) -> None:
        params = {"tournament_id": tournament_id, "shown_at": at}
        await self._write_all([(sql.END_SHOWN, params)], "end shown")

    # -- reads ---------------------------------------------------------------------------

    async def unshown_rounds(self, tournament_id: int) -> list[int]:
        rows = await self._fetch(sql.SELECT_UNSHOWN_ROUNDS, {"tournament_id": tournament_id})
        return [row["round"] for row in rows]

    async def ended_unshown(self) -> list[Tournament]:
        return [sql.tournament_from_row(row) for row in await self._fetch(sql.SELECT_ENDED_UNSHOWN)]

    async def get_tournament(self, tournament_id: int) -> Tournament | None:
        rows = await self._fetch(sql.SELECT_TOURNAMENT, {"tournament_id": tournament_id})
        return sql.tournament_from_row(rows[0]) if rows else None

    async def tournament_entries(self, tournament_id: int) -> list[TournamentEntry]:
        rows = await self._fetch(sql.SELECT_ENTRIES, {"tournament_id": tournament_id})
        return [sql.entry_from_row(row) for row in rows]

    async def tournament_games(self, tournament_id: int) -> list[TournamentGame]:
        rows = await self._fetch(sql.SELECT_GAMES, {"tournament_id": tournament_id})
        return [sql.game_from_row(row) for row in rows]

    async def tournament_game_of_match(self, match_id: int) -> tuple[int, TournamentGame] | None:
        rows = await self._fetch(sql.SELECT_GAME_OF_MATCH, {"match_id": match_id})
        if not rows:
            return None
        return rows[0]["tournament_id"], sql.game_from_row(rows[0])

    async def open_tournaments(self) -> list[Tournament]:
        return [sql.tournament_from_row(row) for row in await self._fetch(sql.SELECT_OPEN)]

    async def latest_tournament_in(self, guild_id: int) -> Tournament | None:
        rows = await self._fetch(sql.SELECT_LATEST_IN_GUILD, {"guild_id": guild_id})
        return sql.tournament_from_row(rows[0]) if rows else None
