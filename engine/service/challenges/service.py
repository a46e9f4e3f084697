"""Challenges: a match proposed to one member, or to anyone (an open seat), until it is
accepted, declined, withdrawn or expires; and rematches, which are challenges both players
asked for. Every call is refused once the service closes.

An open seat is a challenge whose opponent is :data:`~engine.model.OPEN_SEAT`: the same
path issues, accepts, withdraws and expires both. What only a seat has is a parameter of
it: it goes to the server's lobby channel when one is named, a member holds one waiting
seat per channel, and whoever accepts it first takes seat 1. Of everyone accepting at once,
in any process, exactly one gets it: the database decides (:meth:`MatchStore.start_match`
checks the challenge is still pending in its transaction).

    challenge = await service.challenges.challenge(alice, bob, guild_id, channel_id)
    match = await service.challenges.accept(challenge.match_id, bob)
    seat = await service.challenges.challenge(alice, OPEN_SEAT, guild_id, channel_id)
    match = await service.challenges.accept(seat.match_id, carol)  # anyone but alice
"""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass, replace

from engine.clocks import TimeControl
from engine.model import AI_USER_ID, OPEN_SEAT, MatchInfo, MatchStatus
from engine.rules.state import Variant
from engine.service.challenges.creation_limits import CreationLimits
from engine.service.challenges.errors import (
    CannotChallengeSelf,
    CannotJoinOwnSeat,
    ChallengeExpired,
    NotReliableEnough,
    RematchAlreadyStarted,
    SeatAlreadyOpen,
    no_longer_open,
)
from engine.service.challenges.events import ChallengeIssued
from engine.service.context import ServiceContext
from engine.service.errors import InvalidRequest
from engine.service.matches.commands import MatchCommands
from engine.service.matches.errors import (
    MatchNotActive,
    MatchNotFinished,
    MatchNotFound,
    NotYourMatch,
)
from engine.service.matches.live_match import LiveMatch
from engine.service.matches.progress import MatchProgress
from engine.service.matches.turns import MatchTurns
from engine.service.settings import MatchSettings
from engine.store.errors import MatchConflict

Challenge = MatchInfo
"""A pending match, as :meth:`MatchChallenges.challenge` returns it."""


@dataclass(frozen=True, slots=True)
class Rematch:
    """Where a rematch stands after a press."""

    started: MatchInfo | None
    """The new match, once everyone needed has pressed."""
    waiting_for: int | None
    """The user who has not pressed yet (None once the rematch started)."""


class MatchChallenges:
    """Issue, accept, decline and withdraw challenges, to a member or to anyone; rematches."""

    def __init__(
        self,
        context: ServiceContext,
        settings: MatchSettings,
        progress: MatchProgress,
        turns: MatchTurns,
        matches: MatchCommands,
    ) -> None:
        self._ctx = context
        self._settings = settings
        self._progress = progress
        self._turns = turns
        self._matches = matches
        """Starts a rematch against the AI, which asks nobody."""
        self._limits = CreationLimits(context)

    async def place_for(self, guild_id: int, channel_id: int) -> int:
        """The channel a challenge to anyone made in ``channel_id`` goes to: the server's
        lobby channel if it named one, else that channel."""
        guild = await self._settings.guild_settings(guild_id)
        return guild.lobby_channel_id or channel_id

    # -- issuing -------------------------------------------------------------------------

    async def challenge(
        self,
        challenger_id: int,
        opponent_id: int,
        guild_id: int | None,
        channel_id: int | None,
        variant: Variant | None = None,
        turn_seconds: float | None = None,
        *,
        rated: bool = True,
        time_control: TimeControl | None = None,
        min_reliability: int | None = None,
    ) -> Challenge:
        """Challenge ``opponent_id``, or anyone in the server with
        :data:`~engine.model.OPEN_SEAT` (an open seat, posted in the server's lobby channel
        when it named one: the returned match's ``channel_id`` says where). The challenge
        waits for an answer until it expires. ``rated=False``: a friendly match.

        Raises :class:`TooManyActiveMatches` (the challenger's open matches),
        :class:`TooManyNewMatches` (their matches of the last hour),
        :class:`ChallengeCooldown` (they already challenged that member and wait for an
        answer, or were turned down, withdrew or went unanswered moments ago), or
        :class:`SeatAlreadyOpen` (one waiting challenge to anyone per member and channel).
        """
        async with self._ctx.operation():
            return await self._challenge(
                challenger_id,
                opponent_id,
                guild_id,
                channel_id,
                variant,
                turn_seconds,
                rated=rated,
                time_control=time_control,
                min_reliability=min_reliability,
            )

    async def _challenge(
        self,
        challenger_id: int,
        opponent_id: int,
        guild_id: int | None,
        channel_id: int | None,
        variant: Variant | None,
        turn_seconds: float | None,
        *,
        rated: bool = True,
        rematch_of: int | None = None,
        time_control: TimeControl | None = None,
        min_reliability: int | None = None,
    ) -> Challenge:
        anyone = opponent_id == OPEN_SEAT
        if challenger_id == opponent_id:
            raise CannotChallengeSelf(challenger_id)
        if AI_USER_ID in (challenger_id, opponent_id):
            raise InvalidRequest(f"user {AI_USER_ID} is the AI; use start_ai_match to play it")
        if challenger_id == OPEN_SEAT:
            raise InvalidRequest(f"user {OPEN_SEAT} stands for anyone: it cannot challenge")
        if anyone:
            if guild_id is None or channel_id is None:
                raise InvalidRequest("a challenge to anyone needs a server and a channel")
            channel_id = await self.place_for(guild_id, channel_id)
        now = self._ctx.clock.now()
        if min_reliability is not None and not (anyone and 0 <= min_reliability <= 100):
            raise InvalidRequest(
                f"a minimum reliability of {min_reliability!r}: only an open seat, 0 to 100"
            )
        info = await self._settings.new_match(
            (challenger_id, opponent_id),
            guild_id,
            channel_id,
            variant,
            turn_seconds,
            now,
            time_control,
        )
        expires_at = now + self._ctx.config.challenge_expiry_seconds
        info = replace(
            info,
            challenge_expires_at=expires_at,
            rematch_of=rematch_of,
            rated=rated,
            min_reliability=min_reliability,
        )
        rematch = rematch_of is not None
        # Only the challenger's limits: challenges nobody asked for must not fill a
        # member's matches (accepting checks theirs).
        async with self._limits.starting(challenger_id, held=rematch):
            await self._limits.check(
                challenger_id, None if anyone else opponent_id, rematch=rematch
            )
            if anyone:
                await self._check_one_seat_per_channel(challenger_id, channel_id)
            info = await self._ctx.store.create_match(info)
        live = LiveMatch(info)
        self._ctx.matches.add(live)
        self._turns.arm(live)
        self._ctx.bus.publish(
            ChallengeIssued(
                info.match_id,
                challenger_id,
                opponent_id,
                guild_id,
                info.channel_id,
                info.variant,
                expires_at,
            )
        )
        return info

    # -- answering -----------------------------------------------------------------------

    async def accept(self, match_id: int, user_id: int) -> MatchInfo:
        """The challenged member accepts, or anyone but its challenger takes a challenge to
        anyone (in seat 1); the match starts at once (seeded deal, random first).

        Raises :class:`NotYourMatch` (a challenge to someone else), :class:`CannotJoinOwnSeat`,
        :class:`ChallengeNotPending` (answered: someone was first), :class:`ChallengeExpired`,
        or :class:`TooManyActiveMatches` if the accepting member already holds the most open
        matches: a challenge counts against the member it names only once accepted.
        """
        if user_id in (AI_USER_ID, OPEN_SEAT):
            raise InvalidRequest(f"user {user_id} cannot accept a challenge")
        async with self._ctx.operation(), self._limits.starting(user_id):
            return await self._accept(match_id, user_id)

    async def _accept(self, match_id: int, user_id: int) -> MatchInfo:
        live = await self._pending(match_id)
        async with live.lock:
            await self._ctx.refresh(live)
            info = self._check_pending(live)
            self._check_may_accept(info, user_id)
            assert info.challenge_expires_at is not None
            if self._ctx.clock.now() >= info.challenge_expires_at:
                expire = self._progress.close_challenge(live, MatchStatus.EXPIRED)
                await self._changed_unless(expire, live)
                self._turns.arm(live)
                raise ChallengeExpired(match_id)
            # A challenge counts against its challenger's limit from the start, but
            # against the one who accepts it only from here.
            await self._limits.check_open(user_id)
            if info.min_reliability is not None and info.guild_id is not None:
                found = await self._ctx.store.reliability(info.guild_id, user_id)
                if not found.meets(info.min_reliability):
                    raise NotReliableEnough(user_id, found.percent, info.min_reliability)
            await self._changed_unless(self._progress.start_challenged(live, user_id), live)
            self._turns.arm(live)
            return live.snapshot()

    async def decline(self, match_id: int, user_id: int) -> MatchInfo:
        """The challenged member says no."""
        return await self._close(match_id, user_id, 1, MatchStatus.DECLINED)

    async def cancel(self, match_id: int, user_id: int) -> MatchInfo:
        """The challenger (an open seat's host) withdraws a challenge nobody answered yet."""
        return await self._close(match_id, user_id, 0, MatchStatus.CANCELLED)

    async def _close(
        self, match_id: int, user_id: int, seat: int, status: MatchStatus
    ) -> MatchInfo:
        """Decline (seat 1) or withdraw (seat 0) a challenge nobody answered yet."""
        async with self._ctx.operation():
            live = await self._pending(match_id)
            async with live.lock:
                await self._ctx.refresh(live)
                info = self._check_pending(live)
                if user_id != info.players[seat]:
                    if seat:
                        who = "challenged user can decline"
                    else:
                        who = (
                            "host can cancel a seat"
                            if info.is_open_seat
                            else "challenger can cancel"
                        )
                    raise NotYourMatch(match_id, user_id, f"only the {who}")
                await self._changed_unless(self._progress.close_challenge(live, status), live)
                self._turns.arm(live)
                return live.snapshot()

    # -- rematch -------------------------------------------------------------------------

    async def rematch(self, match_id: int, user_id: int) -> Rematch:
        """``user_id`` presses Rematch under a finished match.

        Once both players pressed (against the AI, its player alone), a new match starts in
        the same channel with the same variant and turn timer; between humans the seats
        swap (the old seat 1 challenges, and the challenge is accepted at once), against
        the AI the level stays. Presses are stored: a restart between them loses nothing.
        Raises :class:`MatchNotFinished`, :class:`NotYourMatch`, or
        :class:`RematchAlreadyStarted` once the new match exists.
        """
        # Presses are stored; the key orders the presses under way, in every process.
        async with self._ctx.operation(), self._ctx.store.exclusive(f"rematch:{match_id}"):
            return await self._press_rematch(match_id, user_id)

    async def _press_rematch(self, match_id: int, user_id: int) -> Rematch:
        store = self._ctx.store
        info = await store.get_match(match_id)
        if info is None:
            raise MatchNotFound(match_id)
        if info.seat_of(user_id) is None or user_id == AI_USER_ID:
            raise NotYourMatch(match_id, user_id, "only its players can ask for a rematch")
        if info.status is not MatchStatus.FINISHED:
            raise MatchNotFinished(match_id, info.status, "a rematch can be asked for")
        unanswered: MatchInfo | None = None
        for earlier in await store.rematches_of(match_id):
            if earlier.status is MatchStatus.PENDING:
                unanswered = earlier  # created, but starting it failed: finish the job
            elif earlier.started_at is not None:
                raise RematchAlreadyStarted(match_id, earlier.match_id)
        await store.press_rematch(match_id, user_id, self._ctx.clock.now())
        pressed = await store.rematch_presses(match_id)
        missing = [u for u in info.players if u != AI_USER_ID and u not in pressed]
        if missing:
            return Rematch(started=None, waiting_for=missing[0])
        started = await self._start_rematch(info, unanswered)
        return Rematch(started=started, waiting_for=None)

    async def _start_rematch(self, info: MatchInfo, unanswered: MatchInfo | None) -> MatchInfo:
        # The rematch's key is held: the members' keys are not taken too (keys never nest),
        # and both players asked for this match.
        if info.ai_level is not None:
            return await self._matches.start_ai_match(
                info.players[0],
                info.ai_level,
                info.guild_id,
                info.channel_id,
                info.variant,
                info.turn_seconds,
                hints=info.hints,
                rematch_of=info.match_id,
                time_control=info.time_control,
            )
        # The seats swap, so who sits first alternates between rematches.
        challenge = unanswered or await self._challenge(
            info.players[1],
            info.players[0],
            info.guild_id,
            info.channel_id,
            info.variant,
            info.turn_seconds,
            rated=info.rated,  # a friendly match's rematch is friendly too
            rematch_of=info.match_id,
            time_control=info.time_control,
        )
        return await self._accept(challenge.match_id, info.players[0])

    # -- checks --------------------------------------------------------------------------

    async def _check_one_seat_per_channel(self, host_id: int, channel_id: int | None) -> None:
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

    @staticmethod
    def _check_may_accept(info: MatchInfo, user_id: int) -> None:
        if info.is_open_seat:
            if user_id == info.players[0]:
                raise CannotJoinOwnSeat(info.match_id, user_id)
        elif user_id != info.players[1]:
            why = (
                "you cannot accept your own challenge"
                if user_id == info.players[0]
                else "the challenge is for someone else"
            )
            raise NotYourMatch(info.match_id, user_id, why)

    async def _pending(self, match_id: int) -> LiveMatch:
        try:
            return await self._ctx.open_match(match_id)
        except MatchNotActive as error:
            raise no_longer_open(match_id, error.status) from None

    @staticmethod
    def _check_pending(live: LiveMatch) -> MatchInfo:
        info = live.info
        if info.status is not MatchStatus.PENDING:
            raise no_longer_open(live.match_id, info.status)
        return info

    async def _changed_unless(self, change: Awaitable[None], live: LiveMatch) -> None:
        """Make ``change`` to a pending challenge; if another process answered it first,
        refuse the way a member would have been refused had they been a moment later."""
        try:
            await change
        except MatchConflict:
            await self._ctx.refresh(live)
            raise no_longer_open(live.match_id, live.info.status) from None
