"""Open seats: a challenge to anyone in a server (:data:`~engine.model.OPEN_SEAT` in seat
1), taken by the first member to join. Opening, joining and cancelling are the challenge's
own issue, accept and cancel (:mod:`.service`), told in a seat's words; what is only a
seat's is the list of a server's waiting ones.

    seat = await service.seats.open(host, guild_id, channel_id, rated=False)
    match = await service.seats.join(seat.match_id, member)   # SeatTaken for the next one
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from engine.clocks import TimeControl
from engine.model import OPEN_SEAT, MatchInfo
from engine.rules.state import Variant
from engine.service.challenges.errors import (
    ChallengeExpired,
    ChallengeNotPending,
    seat_no_longer_open,
)
from engine.service.challenges.service import MatchChallenges
from engine.service.context import ServiceContext
from engine.service.errors import InvalidRequest


@dataclass(frozen=True, slots=True)
class SeatPage:
    """A page of a server's waiting seats (:meth:`SeatCommands.listed`)."""

    seats: tuple[MatchInfo, ...]
    page: int
    """From 0."""
    pages: int
    """At least 1, even with no seat."""


@contextmanager
def _in_a_seats_words() -> Iterator[None]:
    """A challenge no longer open, told as a seat: taken, or closed."""
    try:
        yield
    except (ChallengeExpired, ChallengeNotPending) as error:
        raise seat_no_longer_open(error) from None


class SeatCommands:
    """Open, join, cancel and list open seats."""

    def __init__(self, context: ServiceContext, challenges: MatchChallenges) -> None:
        self._ctx = context
        self._challenges = challenges

    async def place_for(self, guild_id: int, channel_id: int) -> int:
        """The channel a seat opened in ``channel_id`` goes to: the server's lobby channel
        if it named one, else that channel."""
        return await self._challenges.place_for(guild_id, channel_id)

    async def open(
        self,
        host_id: int,
        guild_id: int,
        channel_id: int,
        variant: Variant | None = None,
        turn_seconds: float | None = None,
        *,
        rated: bool = True,
        time_control: TimeControl | None = None,
        min_reliability: int | None = None,
    ) -> MatchInfo:
        """Open a seat in ``channel_id``, or in the server's lobby channel when it named one
        (the returned match's ``channel_id`` says where: its message goes there, and so
        does the match once someone joins).

        Raises :class:`TooManyActiveMatches`, :class:`TooManyNewMatches` (the same limits
        as a challenge), or :class:`SeatAlreadyOpen` (one waiting seat per member and
        channel).
        """
        return await self._challenges.challenge(
            host_id,
            OPEN_SEAT,
            guild_id,
            channel_id,
            variant,
            turn_seconds,
            rated=rated,
            time_control=time_control,
            min_reliability=min_reliability,
        )

    async def join(self, match_id: int, user_id: int) -> MatchInfo:
        """``user_id`` takes the seat; the match starts at once (seeded deal, random first).

        Raises :class:`CannotJoinOwnSeat`, :class:`SeatTaken` (someone was first),
        :class:`SeatClosed` (expired, cancelled, or its channel gone), or
        :class:`TooManyActiveMatches` (the joiner's open matches, as for an Accept).
        """
        with _in_a_seats_words():
            return await self._challenges.accept(match_id, user_id)

    async def cancel(self, match_id: int, user_id: int) -> MatchInfo:
        """The host withdraws a seat nobody took yet. Raises :class:`NotYourMatch` for
        anyone else, :class:`SeatTaken` or :class:`SeatClosed` if it is no longer open."""
        with _in_a_seats_words():
            return await self._challenges.cancel(match_id, user_id)

    async def listed(self, guild_id: int, page: int = 0, per_page: int = 5) -> SeatPage:
        """Page ``page`` (from 0) of the server's seats still waiting for someone, oldest
        first; a page past the end gives the last one (an old Next after seats were taken).
        Only seats whose message is posted (its id stored) are listed: one joined before
        its lobby post could fail to post and be cancelled under its joiner."""
        if page < 0 or per_page < 1:
            raise InvalidRequest(f"no seat page {page!r} of {per_page!r} seats")
        now = self._ctx.clock.now()
        store = self._ctx.store
        seats, total = await store.waiting_seats_in(
            guild_id, now, offset=page * per_page, limit=per_page
        )
        pages = max(1, -(-total // per_page))
        if page >= pages:
            page = pages - 1
            seats, total = await store.waiting_seats_in(
                guild_id, now, offset=page * per_page, limit=per_page
            )
            pages = max(1, -(-total // per_page))
        return SeatPage(tuple(seats), min(page, pages - 1), pages)
