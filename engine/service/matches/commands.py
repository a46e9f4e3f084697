"""What players do: challenge and answer, start a match against the AI, decide, resign,
and ask for a rematch. Every call is refused once the service closes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from engine.model import AI_USER_ID, MatchInfo, MatchStatus
from engine.rules.decisions import Decision
from engine.rules.outcome import MatchOutcome
from engine.rules.state import GameState, Variant
from engine.service.challenges.creation_limits import CreationLimits
from engine.service.context import ServiceContext
from engine.service.errors import (
    CannotChallengeSelf,
    ChallengeExpired,
    ChallengeNotPending,
    InvalidRequest,
    MatchNotActive,
    MatchNotFinished,
    MatchNotFound,
    NotYourMatch,
    NotYourTurn,
    RematchAlreadyStarted,
    StaleVersion,
)
from engine.service.events import ChallengeIssued
from engine.service.matches.live_match import LiveMatch
from engine.service.matches.progress import MatchProgress, SubmitResult
from engine.service.matches.turns import MatchTurns
from engine.service.settings import MatchSettings
from engine.store.errors import MatchConflict

Challenge = MatchInfo
"""A pending match, as :meth:`MatchCommands.challenge` returns it."""


@dataclass(frozen=True, slots=True)
class Rematch:
    """Where a rematch stands after a press."""

    started: MatchInfo | None
    """The new match, once everyone needed has pressed."""
    waiting_for: int | None
    """The user who has not pressed yet (None once the rematch started)."""


class MatchCommands:
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

    # -- challenges ----------------------------------------------------------------------

    async def challenge(
        self,
        challenger_id: int,
        opponent_id: int,
        guild_id: int | None,
        channel_id: int | None,
        variant: Variant | None = None,
        turn_seconds: float | None = None,
    ) -> Challenge:
        """Challenge another user; the challenge waits for an answer until it expires.

        Raises :class:`TooManyActiveMatches` (the challenger's open matches),
        :class:`TooManyNewMatches` (their matches of the last hour), or
        :class:`ChallengeCooldown` (they already challenged that user and wait for an answer,
        or were turned down, withdrew or went unanswered moments ago).
        """
        async with self._ctx.operation():
            return await self._challenge(
                challenger_id, opponent_id, guild_id, channel_id, variant, turn_seconds
            )

    async def accept(self, match_id: int, user_id: int) -> MatchInfo:
        """The challenged user accepts; the match starts at once (seeded deal, random first).

        Raises :class:`TooManyActiveMatches` if the accepting user already holds the most
        open matches: a challenge counts against its challenged user only once accepted.
        """
        async with self._ctx.operation(), self._limits.starting(user_id):
            return await self._accept(match_id, user_id)

    async def _accept(self, match_id: int, user_id: int) -> MatchInfo:
        live = await self._pending(match_id)
        async with live.lock:
            await self._ctx.refresh(live)
            info = self._check_pending(live)
            if user_id != info.players[1]:
                why = (
                    "you cannot accept your own challenge"
                    if user_id == info.players[0]
                    else "the challenge is for someone else"
                )
                raise NotYourMatch(match_id, user_id, why)
            assert info.challenge_expires_at is not None
            if self._ctx.clock.now() >= info.challenge_expires_at:
                expire = self._progress.close_challenge(live, MatchStatus.EXPIRED)
                await self._challenge_changed_unless(expire, live)
                self._turns.arm(live)
                raise ChallengeExpired(match_id)
            # A challenge counts against its challenger's limit from the start, but
            # against the challenged player's only from here.
            await self._limits.check_open(user_id)
            await self._challenge_changed_unless(self._progress.start_challenged(live), live)
            self._turns.arm(live)
            return live.snapshot()

    async def decline(self, match_id: int, user_id: int) -> MatchInfo:
        """The challenged user says no."""
        return await self._close(match_id, user_id, 1, MatchStatus.DECLINED)

    async def cancel(self, match_id: int, user_id: int) -> MatchInfo:
        """The challenger withdraws a challenge nobody answered yet."""
        return await self._close(match_id, user_id, 0, MatchStatus.CANCELLED)

    async def start_ai_match(
        self,
        user_id: int,
        level: str,
        guild_id: int | None,
        channel_id: int | None,
        variant: Variant | None = None,
        turn_seconds: float | None = None,
        hints: bool = False,
    ) -> MatchInfo:
        """Start a match against the AI at ``level``; the user has seat 0, the AI seat 1.
        With ``hints`` the user may ask, on each of their decisions, what the AI would play
        in their seat (``service.hints``).

        Raises :class:`TooManyActiveMatches` or :class:`TooManyNewMatches`.
        """
        async with self._ctx.operation():
            return await self._start_ai_match(
                user_id, level, guild_id, channel_id, variant, turn_seconds, hints=hints
            )

    # -- playing -------------------------------------------------------------------------

    async def submit(
        self, match_id: int, user_id: int, decision: Decision, expected_version: int
    ) -> SubmitResult:
        """Apply ``decision`` for ``user_id`` if they saw version ``expected_version``.

        Raises :class:`StaleVersion` (also for a repeated submission), :class:`NotYourTurn`,
        :class:`NotYourMatch`, :class:`MatchNotActive`, or
        :class:`engine.rules.errors.IllegalDecision`; nothing is applied then.
        """
        async with self._ctx.operation():
            live = await self._ctx.open_match(match_id)
            seat = self._seat(live, user_id)
            async with live.lock:
                await self._ctx.refresh(live)
                state = self._check_active(live)
                if expected_version != state.version:
                    raise StaleVersion(match_id, expected_version, state.version)
                if state.current_player != seat:
                    waiting = state.current_player
                    raise NotYourTurn(
                        match_id, user_id, None if waiting is None else live.info.players[waiting]
                    )
                try:
                    result = await self._progress.apply(live, seat, decision, automatic=False)
                except MatchConflict:
                    # Another process applied a decision first: this one came too late.
                    await self._ctx.refresh(live)
                    self._check_active(live)
                    raise StaleVersion(match_id, expected_version, live.version) from None
                self._turns.arm(live)
                return result

    async def resign(self, match_id: int, user_id: int) -> MatchOutcome:
        """``user_id`` gives up; the opponent wins."""
        async with self._ctx.operation():
            live = await self._ctx.open_match(match_id)
            seat = self._seat(live, user_id)
            async with live.lock:
                for last_try in (False, True):
                    await self._ctx.refresh(live)
                    state = self._check_active(live).clone()
                    state.resign(seat)
                    try:
                        await self._progress.finish(live, state)
                        break
                    except MatchConflict:
                        # Another process applied a move first; resigning is still allowed
                        # (a second conflict in a row is a fault, not a race: let it out).
                        if last_try:
                            raise
                self._turns.arm(live)
                assert state.outcome is not None
                return state.outcome

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
            return await self._start_ai_match(
                info.players[0],
                info.ai_level,
                info.guild_id,
                info.channel_id,
                info.variant,
                info.turn_seconds,
                rematch_of=info.match_id,
                hints=info.hints,
            )
        # The seats swap, so who sits first alternates between rematches.
        challenge = unanswered or await self._challenge(
            info.players[1],
            info.players[0],
            info.guild_id,
            info.channel_id,
            info.variant,
            info.turn_seconds,
            rematch_of=info.match_id,
        )
        return await self._accept(challenge.match_id, info.players[0])

    # -- tournament matches --------------------------------------------------------------

    async def start_paired_match(
        self,
        first: int,
        second: int,
        guild_id: int,
        channel_id: int,
        variant: Variant | None,
        turn_seconds: float | None,
        attach: Callable[[int], Awaitable[None]],
    ) -> MatchInfo:
        """A tournament pairing's match, started at once: ``first`` in seat 0 starts.

        ``attach`` links the new match to its table before it starts, so only a match
        made for the table is ever its match (and it is rated as the event says).
        No creation limits: the event asked for this match, not its players, and a
        player must be able to play every round they entered."""
        if first == second or AI_USER_ID in (first, second):
            raise InvalidRequest(f"a tournament match needs two members, not {first} and {second}")
        async with self._ctx.operation():
            settings = self._settings
            guild = await settings.guild_settings(guild_id)
            now = self._ctx.clock.now()
            info = MatchInfo(
                match_id=0,
                status=MatchStatus.PENDING,
                variant=settings.variant(variant, guild),
                players=(first, second),
                guild_id=guild_id,
                channel_id=channel_id,
                turn_seconds=settings.turn_seconds(turn_seconds, guild),
                expiry_policy=settings.expiry_policy(guild),
                created_at=now,
                challenge_expires_at=now,
            )
            info = await self._ctx.store.create_match(info)
            # A stop here leaves a pending match nobody adopts: it expires.
            await attach(info.match_id)
            live = LiveMatch(info)
            self._ctx.matches.add(live)
            async with live.lock:
                await self._progress.start_challenged(live, first_player=0)
                self._turns.arm(live)
                return live.snapshot()

    # -- creating matches ----------------------------------------------------------------

    async def _challenge(
        self,
        challenger_id: int,
        opponent_id: int,
        guild_id: int | None,
        channel_id: int | None,
        variant: Variant | None,
        turn_seconds: float | None,
        rematch_of: int | None = None,
    ) -> Challenge:
        if challenger_id == opponent_id:
            raise CannotChallengeSelf(challenger_id)
        if AI_USER_ID in (challenger_id, opponent_id):
            raise InvalidRequest(f"user {AI_USER_ID} is the AI; use start_ai_match to play it")
        settings = self._settings
        guild = await settings.guild_settings(guild_id) if guild_id is not None else None
        now = self._ctx.clock.now()
        expires_at = now + self._ctx.config.challenge_expiry_seconds
        info = MatchInfo(
            match_id=0,
            status=MatchStatus.PENDING,
            variant=settings.variant(variant, guild),
            players=(challenger_id, opponent_id),
            guild_id=guild_id,
            channel_id=channel_id,
            turn_seconds=settings.turn_seconds(turn_seconds, guild),
            expiry_policy=settings.expiry_policy(guild),
            created_at=now,
            challenge_expires_at=expires_at,
            rematch_of=rematch_of,
        )
        # Only the challenger's limits: challenges nobody asked for must not fill a
        # member's matches (accepting checks theirs).
        async with self._limits.starting(challenger_id, held=rematch_of is not None):
            await self._limits.check(challenger_id, opponent_id, rematch=rematch_of is not None)
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
                channel_id,
                info.variant,
                expires_at,
            )
        )
        return info

    async def _start_ai_match(
        self,
        user_id: int,
        level: str,
        guild_id: int | None,
        channel_id: int | None,
        variant: Variant | None,
        turn_seconds: float | None,
        rematch_of: int | None = None,
        *,
        hints: bool = False,
    ) -> MatchInfo:
        ctx, settings = self._ctx, self._settings
        if user_id == AI_USER_ID:
            raise InvalidRequest(f"user {AI_USER_ID} is the AI itself")
        if level not in ctx.config.ai_levels:
            levels = ", ".join(ctx.config.ai_levels)
            raise InvalidRequest(f"unknown AI level {level!r} (choose {levels})")
        guild = await settings.guild_settings(guild_id) if guild_id is not None else None
        now = ctx.clock.now()
        turn = settings.turn_seconds(turn_seconds, guild)
        info = MatchInfo(
            match_id=0,
            status=MatchStatus.ACTIVE,
            variant=settings.variant(variant, guild),
            players=(user_id, AI_USER_ID),
            guild_id=guild_id,
            channel_id=channel_id,
            turn_seconds=turn,
            expiry_policy=settings.expiry_policy(guild),
            created_at=now,
            ai_level=level,
            seed=ctx.rng.getrandbits(63),
            first_player=ctx.rng.randrange(2),
            started_at=now,
            turn_deadline=now + turn,
            rematch_of=rematch_of,
            hints=hints,
        )
        async with self._limits.starting(user_id, held=rematch_of is not None):
            await self._limits.check(user_id, None, rematch=rematch_of is not None)
            info = await self._progress.create_started(info)
        assert info.seed is not None and info.first_player is not None
        state = GameState(seed=info.seed, first_player=info.first_player, variant=info.variant)
        live = LiveMatch(info, state)
        ctx.matches.add(live)
        self._progress.publish_started(live)
        self._turns.arm(live)
        return live.snapshot()

    # -- checks --------------------------------------------------------------------------

    async def _close(
        self, match_id: int, user_id: int, seat: int, status: MatchStatus
    ) -> MatchInfo:
        """Decline (seat 1) or cancel (seat 0) a challenge nobody answered yet."""
        async with self._ctx.operation():
            live = await self._pending(match_id)
            async with live.lock:
                await self._ctx.refresh(live)
                info = self._check_pending(live)
                if user_id != info.players[seat]:
                    who = "challenged user can decline" if seat else "challenger can cancel"
                    raise NotYourMatch(match_id, user_id, f"only the {who}")
                await self._challenge_changed_unless(
                    self._progress.close_challenge(live, status), live
                )
                self._turns.arm(live)
                return live.snapshot()

    async def _pending(self, match_id: int) -> LiveMatch:
        try:
            return await self._ctx.open_match(match_id)
        except MatchNotActive as error:
            if error.status == MatchStatus.EXPIRED:
                raise ChallengeExpired(match_id) from None
            raise ChallengeNotPending(match_id, error.status) from None

    async def _challenge_changed_unless(self, change: Awaitable[None], live: LiveMatch) -> None:
        """Make ``change`` to a pending challenge; if another process answered it first,
        refuse the way a player would have been refused had they been a moment later."""
        try:
            await change
        except MatchConflict:
            await self._ctx.refresh(live)
            info = live.info
            if info.status is MatchStatus.EXPIRED:
                raise ChallengeExpired(live.match_id) from None
            raise ChallengeNotPending(live.match_id, info.status) from None

    @staticmethod
    def _check_pending(live: LiveMatch) -> MatchInfo:
        info = live.info
        if info.status is not MatchStatus.PENDING:
            if info.status is MatchStatus.EXPIRED:
                raise ChallengeExpired(live.match_id)
            raise ChallengeNotPending(live.match_id, info.status)
        return info

    @staticmethod
    def _check_active(live: LiveMatch) -> GameState:
        state = live.state
        if state is None or live.info.status is not MatchStatus.ACTIVE:
            raise MatchNotActive(live.match_id, live.info.status)
        return state

    @staticmethod
    def _seat(live: LiveMatch, user_id: int) -> int:
        seat = live.info.seat_of(user_id)
        if seat is None or user_id == AI_USER_ID:
            raise NotYourMatch(live.match_id, user_id)
        return seat
