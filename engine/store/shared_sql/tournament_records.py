"""The tournament half of both stores, alike in each: a store supplies how a query runs
(``_fetch``, from :class:`OneQueryReads`), how several statements commit as one
(``_write_all``), how they commit only if a row is found (``_write_if``) and how a new
event gets its id (``_insert_tournament``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.model import Tournament, TournamentEntry, TournamentGame, TournamentStatus
from engine.store.errors import DuplicateKey
from engine.store.shared_sql import tournaments as sql
from engine.store.shared_sql.reads import OneQueryReads
from engine.tournaments import Result

Statement = tuple[str, Mapping[str, Any]]


class TournamentRecords(OneQueryReads):
    """:class:`~engine.store.tournament_store.TournamentStore` over three store hooks."""

    async def _write_all(self, statements: Sequence[Statement], what: str) -> None:
        """Commit ``statements`` as one transaction; :class:`DuplicateKey` (naming ``what``),
        writing nothing, if one of them breaks a unique key."""
        raise NotImplementedError

    async def _write_if(self, check: Statement, statements: Sequence[Statement]) -> bool:
        """Commit ``statements`` only if the query ``check`` finds a row, atomically;
        whether they were committed."""
        raise NotImplementedError

    async def _insert_tournament(self, params: dict[str, Any]) -> int:
        """Insert the event's row (``params`` without an id) and return its new id."""
        raise NotImplementedError

    # -- writes --------------------------------------------------------------------------

    async def create_tournament(self, tournament: Tournament) -> Tournament:
        params = sql.tournament_params(tournament)
        del params["id"]
        return replace(tournament, tournament_id=await self._insert_tournament(params))

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
        self, tournament_id: int, entries: Sequence[TournamentEntry], at: float
    ) -> None:
        found = await self._fetch(sql.SELECT_TOURNAMENT, {"tournament_id": tournament_id})
        if not found or found[0]["status"] != str(TournamentStatus.REGISTERING):
            raise DuplicateKey(f"the start of tournament {tournament_id}")
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
        await self._write_all(statements, f"the start of tournament {tournament_id}")

    async def pair_round(
        self, tournament_id: int, round_number: int, games: Sequence[TournamentGame], at: float
    ) -> None:
        round_params = {"tournament_id": tournament_id, "round": round_number, "paired_at": at}
        statements: list[Statement] = [(sql.INSERT_ROUND, round_params)]
        statements += [(sql.INSERT_GAME, sql.game_params(tournament_id, g)) for g in games]
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

    async def withdraw_entry(self, tournament_id: int, user_id: int, at: float) -> None:
        params = {"tournament_id": tournament_id, "user_id": user_id, "withdrawn_at": at}
        await self._write_all([(sql.WITHDRAW_ENTRY, params)], "withdrawal")

    async def end_tournament(self, tournament_id: int, status: TournamentStatus, at: float) -> bool:
        params = {"tournament_id": tournament_id, "status": str(status), "ended_at": at}
        return await self._write_if((sql.SELECT_OPEN_ONE, params), [(sql.END, params)])

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
