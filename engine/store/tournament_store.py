"""What the store keeps of tournaments (part of :class:`~engine.store.MatchStore`).

The pairing is decided by the pure rules of :mod:`engine.tournaments`; the store makes it
happen once: :meth:`TournamentStore.pair_round` writes a round's row and all its games in
one commit, and a second try (another process, or this one after a restart) finds the
round's key taken and writes nothing.

The writes that move a tournament on commit with them the ``announcements`` they cause (of no
match), the ``alarms`` they set and the ``cleared_alarms`` they delete (see
:meth:`~engine.store.match_store.MatchStore.set_alarms`); one that writes nothing (a
round already paired, a tournament already over) commits none of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.model import Tournament, TournamentEntry, TournamentGame, TournamentStatus
from engine.store.alarm import Alarm
from engine.store.announcement import Announcement
from engine.tournaments import Result


class TournamentStore(Protocol):
    # -- writes --------------------------------------------------------------------------

    async def create_tournament(
        self,
        tournament: Tournament,
        *,
        announcements: Sequence[Announcement] = (),
        alarms: Sequence[Alarm] = (),
        cleared_alarms: Sequence[tuple[str, int]] = (),
    ) -> Tournament:
        """Insert a new event (its ``tournament_id`` is ignored); return it with its id.

        An alarm of subject 0 is the new tournament's (its start alarm could not know the id)."""
        ...

    async def set_tournament_location(
        self, tournament_id: int, thread_id: int | None, message_id: int | None
    ) -> None:
        """Remember the tournament's thread and its registration message."""
        ...

    async def add_entry(self, tournament_id: int, user_id: int, at: float) -> None:
        """Register ``user_id``; :class:`~engine.store.errors.DuplicateKey` if already in."""
        ...

    async def remove_entry(self, tournament_id: int, user_id: int) -> None:
        """Unregister ``user_id`` before the start (nothing if they were not in)."""
        ...

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
        """Close registration: the tournament runs, each entry with its seed and rating.

        Entries not listed are removed. DuplicateKey if it was not registering (another
        process started it)."""
        ...

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
        """Write round ``round_number`` and all its games in one commit.

        DuplicateKey, writing nothing, if the round is already paired."""
        ...

    async def attach_match(
        self, tournament_id: int, round_number: int, table: int, match_id: int
    ) -> None:
        """Record the match started for a table; a table keeps its first match (a later
        attach changes nothing, and a match already attached elsewhere is DuplicateKey)."""
        ...

    async def detach_match(
        self, tournament_id: int, round_number: int, table: int, match_id: int
    ) -> None:
        """Free a table whose match ``match_id`` never started (declined, cancelled,
        expired), so the table gets a new one; nothing if the table holds another match."""
        ...

    async def record_game_result(
        self, tournament_id: int, round_number: int, table: int, result: Result
    ) -> None:
        """Record a table's result; a table keeps its first result."""
        ...

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
        """Mark ``user_id`` withdrawn (the first time counts: a later one writes nothing)."""
        ...

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
        """Finish or cancel an open event; False, changing nothing, if it was already over
        (so only the call that ended it announces the end)."""
        ...

    async def round_shown(self, tournament_id: int, round_number: int, at: float) -> None:
        """The Discord layer posted the round's pairings (see :meth:`unshown_rounds`)."""
        ...

    async def end_shown(self, tournament_id: int, at: float) -> None:
        """The Discord layer showed the tournament's end (see :meth:`ended_unshown`)."""
        ...

    # -- reads ---------------------------------------------------------------------------

    async def unshown_rounds(self, tournament_id: int) -> list[int]:
        """Rounds paired but not confirmed posted (a process stopped in between)."""
        ...

    async def ended_unshown(self) -> list[Tournament]:
        """Events finished or cancelled whose end was not confirmed shown."""
        ...

    async def get_tournament(self, tournament_id: int) -> Tournament | None: ...

    async def tournament_entries(self, tournament_id: int) -> list[TournamentEntry]:
        """The players of a tournament, in seed order once it started (else as they joined)."""
        ...

    async def tournament_games(self, tournament_id: int) -> list[TournamentGame]:
        """Every game of a tournament by round, then table."""
        ...

    async def tournament_game_of_match(self, match_id: int) -> tuple[int, TournamentGame] | None:
        """The tournament and table a match was played for, or None for an ordinary match."""
        ...

    async def open_tournaments(self) -> list[Tournament]:
        """Events registering or running, oldest first (for start-up)."""
        ...

    async def latest_tournament_in(self, guild_id: int) -> Tournament | None:
        """A server's newest tournament, open or over."""
        ...
