"""Open seats: a match offered to anyone in a server, taken by the first member to join.

An open seat is a pending match whose seat 1 is :data:`~engine.model.OPEN_SEAT`. It
expires, counts against its host's limits and is swept like a challenge
(:mod:`.turns`); joining starts it, with the joiner in seat 1. Of everyone joining at
once, in any process, exactly one gets it: the database decides
(:meth:`MatchStore.start_match` checks the seat is still pending in its transaction).

    seat = await service.seats.open(host, guild_id, channel_id, rated=False)
    match = await service.seats.join(seat.match_id, member)   # SeatTaken for the next one
"""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass

from engine.model import AI_USER_ID, OPEN_SEAT, MatchInfo, MatchStatus
from engine.rules.state import Variant
from engine.service.challenges.creation_limits import CreationLimits
from engine.service.context import ServiceContext
from engine.service.errors import (
    CannotJoinOwnSeat,
    InvalidRequest,
    MatchNotActive,
    NotYourMatch,
    SeatAlreadyOpen,
    SeatClosed,
    SeatTaken,
)
from engine.service.matches.live_match import LiveMatch
from engine.service.matches.progress import MatchProgress
from engine.service.matches.turns import MatchTurns
from engine.service.settings import MatchSettings
from engine.store.errors import MatchConflict


@dataclass(frozen=True, slots=True)
class SeatPage:
    """A page of a server's waiting seats (:meth:`SeatCommands.listed`)."""

    seats: tuple[MatchInfo, ...]
    page: int
    """From 0."""
    pages: int
    """At least 1, even with no seat."""


class SeatCommands:
    """Open, join, cancel and list open seats."""

    def __init__(
        self,
        context: ServiceContext,
        settings: MatchSettings,
        progress: MatchProgress,
        turns: MatchTurns,
    ) -> None:
        self._ctx = context
        self._settings = settings
        self._progress = progress
        self._turns = turns
        self._limits = CreationLimits(context)

    async def place_for(self, guild_id: int, channel_id: int) -> int:
        """The channel a seat opened in ``channel_id`` goes to: the server's lobby channel
        if it named one, else that channel."""
        guild = await self._settings.guild_settings(guild_id)
        return guild.lobby_channel_id or channel_id

    async def open(
        self,
        host_id: int,
        guild_id: int,
        channel_id: int,
        variant: Variant | None = None,
        turn_seconds: float | None = None,
        *,
        rated: bool = True,
    ) -> MatchInfo:
        """Open a seat in ``channel_id``, or in the server's lobby channel when it named one
        (the returned match's ``channel_id`` says where: its message goes there, and so
        does the match once someone joins).

        Raises :class:`TooManyActiveMatches`, :class:`TooManyNewMatches` (the same limits
        as a challenge), or :class:`SeatAlreadyOpen` (one waiting seat per member and
        channel).
        """
        async with self._ctx.operation():
            if host_id in (AI_USER_ID, OPEN_SEAT):
                raise InvalidRequest(f"user {host_id} cannot open a seat")
            settings = self._settings
            guild = await settings.guild_settings(guild_id)
            where = await self.place_for(guild_id, channel_id)
            now = self._ctx.clock.now()
            info = MatchInfo(
                match_id=0,
                status=MatchStatus.PENDING,
                variant=settings.variant(variant, guild),
                players=(host_id, OPEN_SEAT),
                guild_id=guild_id,
                channel_id=where,
                turn_seconds=settings.turn_seconds(turn_seconds, guild),
                expiry_policy=settings.expiry_policy(guild),
                created_at=now,
                challenge_expires_at=now + self._ctx.config.challenge_expiry_seconds,
                rated=rated,
            )
            async with self._limits.starting(host_id):
                await self._limits.check(host_id, None, rematch=False)
                await self._check_one_per_channel(host_id, where)
                info = await self._ctx.store.create_match(info)
            live = LiveMatch(info)
            self._ctx.matches.add(live)
            self._turns.arm(live)
            return info

    async def join(self, match_id: int, user_id: int) -> MatchInfo:
        """``user_id`` takes the seat; the match starts at once (seeded deal, random first).

        Raises :class:`CannotJoinOwnSeat`, :class:`SeatTaken` (someone was first),
        :class:`SeatClosed` (expired, cancelled, or its channel gone), or
        :class:`TooManyActiveMatches` (the joiner's open matches, as for an Accept).
        """
        if user_id in (AI_USER_ID, OPEN_SEAT):
            raise InvalidRequest(f"user {user_id} cannot join a seat")
        async with self._ctx.operation(), self._limits.starting(user_id):
            live = await self._seat(match_id)
            async with live.lock:
                await self._ctx.refresh(live)
                info = self._check_open(live)
                if user_id == info.players[0]:
                    raise CannotJoinOwnSeat(match_id, user_id)
                assert info.challenge_expires_at is not None
                if self._ctx.clock.now() >= info.challenge_expires_at:
                    await self._changed_unless(
                        self._progress.close_challenge(live, MatchStatus.EXPIRED), live
                    )
                    self._turns.arm(live)
                    raise SeatClosed(match_id, MatchStatus.EXPIRED)
                await self._limits.check_open(user_id)
                await self._changed_unless(self._progress.start_challenged(live, user_id), live)
                self._turns.arm(live)
                return live.snapshot()

    async def cancel(self, match_id: int, user_id: int) -> MatchInfo:
        """The host withdraws a seat nobody took yet. Raises :class:`NotYourMatch` for
        anyone else, :class:`SeatTaken` or :class:`SeatClosed` if it is no longer open."""
        async with self._ctx.operation():
            live = await self._seat(match_id)
            async with live.lock:
                await self._ctx.refresh(live)
                info = self._check_open(live)
                if user_id != info.players[0]:
                    raise NotYourMatch(match_id, user_id, "only the host can cancel a seat")
                await self._changed_unless(
                    self._progress.close_challenge(live, MatchStatus.CANCELLED), live
                )
                self._turns.arm(live)
                return live.snapshot()

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

    # -- checks --------------------------------------------------------------------------

    async def _check_one_per_channel(self, host_id: int, channel_id: int) -> None:
        now = self._ctx.clock.now()
        for m in await self._ctx.store.open_matches_of(host_id):
            waiting = m.challenge_expires_at is not None and now < m.challenge_expires_at
            if (
                m.is_open_seat
                and m.status is MatchStatus.PENDING
                and m.channel_id == channel_id
                and waiting
            ):
                raise SeatAlreadyOpen(host_id, channel_id, m.match_id)

    async def _seat(self, match_id: int) -> LiveMatch:
        try:
            return await self._ctx.open_match(match_id)
        except MatchNotActive as error:
            raise self._no_longer_open(match_id, MatchStatus(error.status)) from None

    @staticmethod
    def _no_longer_open(match_id: int, status: MatchStatus) -> SeatTaken | SeatClosed:
        if status in (MatchStatus.ACTIVE, MatchStatus.FINISHED, MatchStatus.BROKEN):
            return SeatTaken(match_id)
        return SeatClosed(match_id, status)

    def _check_open(self, live: LiveMatch) -> MatchInfo:
        info = live.info
        if info.status is not MatchStatus.PENDING:
            raise self._no_longer_open(live.match_id, info.status)
        if not info.is_open_seat:
            raise InvalidRequest(f"match {live.match_id} is a challenge, not an open seat")
        return info

    async def _changed_unless(self, change: Awaitable[None], live: LiveMatch) -> None:
        """Make ``change`` to a waiting seat; if another process changed it first, refuse
        the way a member a moment later would have been refused."""
        try:
            await change
        except MatchConflict:
            await self._ctx.refresh(live)
            raise self._no_longer_open(live.match_id, live.info.status) from None
