"""What players do in a match: start one against the AI, decide, resign; and the
tournament's paired matches, started at once. Every call is refused once the service closes.

A match between members starts from a challenge (:mod:`engine.service.challenges`); the
matches here ask nobody: the AI's seat and a tournament's pairing need no answer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace

from engine.clocks import TimeControl
from engine.model import AI_USER_ID, MatchInfo, MatchStatus
from engine.rules.decisions import Decision
from engine.rules.outcome import MatchOutcome
from engine.rules.state import GameState, Variant
from engine.service.challenges.creation_limits import CreationLimits
from engine.service.context import ServiceContext
from engine.service.errors import InvalidRequest
from engine.service.matches.errors import MatchNotActive, NotYourMatch, NotYourTurn, StaleVersion
from engine.service.matches.live_match import LiveMatch
from engine.service.matches.progress import MatchProgress, SubmitResult
from engine.service.matches.turns import MatchTurns
from engine.service.settings import MatchSettings
from engine.store.errors import MatchConflict

PAIRING_START_GRACE_SECONDS = 60.0
"""How long a tournament pairing's match may stay pending while it is being started: only
one whose start was stopped (the process gone) expires, after it."""


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

    # -- starting ------------------------------------------------------------------------

    async def start_ai_match(
        self,
        user_id: int,
        level: str,
        guild_id: int | None,
        channel_id: int | None,
        variant: Variant | None = None,
        turn_seconds: float | None = None,
        hints: bool = False,
        *,
        rematch_of: int | None = None,
        time_control: TimeControl | None = None,
    ) -> MatchInfo:
        """Start a match against the AI at ``level``; the user has seat 0, the AI seat 1.
        With ``hints`` the user may ask, on each of their decisions, what the AI would play
        in their seat (``service.hints``).

        ``rematch_of``: the finished match this one replays; its rematch's key is held
        (keys never nest), and it counts towards the hour but skips the pause.
        Raises :class:`TooManyActiveMatches` or :class:`TooManyNewMatches`.
        """
        ctx = self._ctx
        if user_id == AI_USER_ID:
            raise InvalidRequest(f"user {AI_USER_ID} is the AI itself")
        if level not in ctx.config.ai_levels:
            levels = ", ".join(ctx.config.ai_levels)
            raise InvalidRequest(f"unknown AI level {level!r} (choose {levels})")
        async with ctx.operation():
            now = ctx.clock.now()
            info = await self._settings.new_match(
                (user_id, AI_USER_ID),
                guild_id,
                channel_id,
                variant,
                turn_seconds,
                now,
                time_control,
            )
            seed = ctx.rng.getrandbits(63)
            first_player = ctx.rng.randrange(2)
            info = replace(
                info,
                status=MatchStatus.ACTIVE,
                ai_level=level,
                seed=seed,
                first_player=first_player,
                to_move=info.players[first_player],
                started_at=now,
                turn_deadline=now + info.turn_seconds,
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
        time_control: TimeControl | None = None,
    ) -> MatchInfo:
        """A tournament pairing's match, started at once: ``first`` in seat 0 starts.

        ``attach`` links the new match to its table before it starts, so only a match
        made for the table is ever its match (and it is rated as the event says).
        No creation limits: the event asked for this match, not its players, and a
        player must be able to play every round they entered."""
        if first == second or AI_USER_ID in (first, second):
            raise InvalidRequest(f"a tournament match needs two members, not {first} and {second}")
        async with self._ctx.operation():
            now = self._ctx.clock.now()
            info = await self._settings.new_match(
                (first, second), guild_id, channel_id, variant, turn_seconds, now, time_control
            )
            # Nobody is asked: it starts below, and expires if a stop comes first — not at
            # once, or another process's sweep could expire it while this one starts it.
            info = replace(info, challenge_expires_at=now + PAIRING_START_GRACE_SECONDS)
            info = await self._ctx.store.create_match(info)
            # A stop here leaves a pending match nobody adopts: it expires.
            await attach(info.match_id)
            live = LiveMatch(info)
            self._ctx.matches.add(live)
            async with live.lock:
                await self._progress.start_challenged(live, first_player=0)
                self._turns.arm(live)
                return live.snapshot()

    # -- checks --------------------------------------------------------------------------

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
