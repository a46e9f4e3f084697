"""The async match service: every match from challenge to end, durable and serialised.

It knows nothing of Discord; user, guild, channel, thread and message ids are opaque
integers. The Discord layer calls the coroutines below and subscribes to
:mod:`engine.service.events`.

Guarantees:

- Decisions of one match are applied one at a time (a lock per match); different matches
  never wait for each other.
- A submission names the version its player saw; a stale or repeated one raises
  :class:`StaleVersion` and is never applied twice.
- A decision is acknowledged (``submit`` returns) only after the store committed it; the
  state others see changes at the same moment.
- A rated match's new ratings are committed in the same transaction as its result
  (:mod:`engine.ratings.rated_match` says which matches are rated and how).
- On :meth:`MatchService.start`, every unfinished match is rebuilt by replaying its
  decisions, and its timers are re-armed from the stored absolute deadlines.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from collections import defaultdict
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from typing import Any, Concatenate, Literal, ParamSpec, TypeVar

from engine.ai.agent import Agent, RandomAgent
from engine.ratings import (
    LeaderboardPage,
    PlayerStats,
    RatingChange,
    Standing,
    is_rated,
    rate_finished_match,
)
from engine.rules.decisions import Competition, Decision, Gift
from engine.rules.notation import Move
from engine.rules.outcome import MatchOutcome
from engine.rules.record import MatchRecord, replay
from engine.rules.state import GameState, Phase, Variant
from engine.rules.views import PlayerView, PublicView, public_view, view
from engine.service.clock import Clock, SystemClock
from engine.service.config import ServiceConfig
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
    ServiceClosed,
    StaleVersion,
    TooManyActiveMatches,
)
from engine.service.event_bus import EventBus, Subscriber
from engine.service.events import (
    ChallengeAccepted,
    ChallengeCancelled,
    ChallengeDeclined,
    ChallengeIssued,
    ChoiceNeeded,
    DecisionApplied,
    Event,
    MatchBroken,
    MatchEnded,
    MatchStarted,
    Reminder,
    RoundScored,
)
from engine.service.events import ChallengeExpired as ChallengeExpiredEvent
from engine.service.live_match import LiveMatch, ReplayError, public_move, replay_decisions
from engine.service.timers import MatchTimers
from engine.store.match_store import MatchStore
from engine.store.rows import (
    AI_USER_ID,
    DecisionRow,
    ExpiryPolicy,
    FinishedMatch,
    GuildSettings,
    MatchInfo,
    MatchStatus,
    Placement,
    UserSettings,
)

log = logging.getLogger(__name__)

AgentFactory = Callable[[str], Agent]
"""Makes the AI agent for a level name (``"easy"``, ``"normal"``, ``"hard"``)."""

Challenge = MatchInfo
"""A pending match, as :meth:`MatchService.challenge` returns it."""

_CLOSE_TIMEOUT = 5.0
MAX_PAGE = 100
"""The most leaderboard entries one call returns."""


def random_agent_factory(level: str) -> Agent:
    """Until the AI levels exist, every level plays at random."""
    return RandomAgent()


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _operation(
    method: Callable[Concatenate[MatchService, _P], Awaitable[_R]],
) -> Callable[Concatenate[MatchService, _P], Coroutine[Any, Any, _R]]:
    """A public mutating call: refused once the service closes, waited for by close()."""

    @functools.wraps(method)
    async def tracked(service: MatchService, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        service._check_running()
        service._operations += 1
        try:
            return await method(service, *args, **kwargs)
        finally:
            service._operations -= 1
            if not service._operations:
                service._no_operations.set()

    return tracked


@dataclass(frozen=True, slots=True)
class _Alarm:
    kind: Literal["challenge", "remind", "expire"]
    version: int
    """The match version the alarm was set for; a later decision makes it moot."""


@dataclass(frozen=True, slots=True)
class SubmitResult:
    """What an accepted, committed decision did."""

    match_id: int
    version: int
    """The match version after the decision; the next submission must name it."""
    move: Move
    """The decision as spectators see it (``1X`` for a Secret)."""
    automatic: bool
    outcome: MatchOutcome | None
    """Set when this decision ended the match."""
    next_player: int | None = None
    """The seat that decides next (None once the match is over)."""


class MatchService:
    """Owns every match from challenge to end; see the module docstring for guarantees."""

    def __init__(
        self,
        store: MatchStore,
        config: ServiceConfig | None = None,
        *,
        clock: Clock | None = None,
        agent_factory: AgentFactory = random_agent_factory,
        rng: random.Random | None = None,
        agent_executor: Executor | None = None,
    ) -> None:
        self.store = store
        self.config = config or ServiceConfig()
        self.clock: Clock = clock or SystemClock()
        self.agent_factory = agent_factory
        self._agent_executor = agent_executor
        """Where agents think: None for a thread; a process pool keeps a searching agent from
        competing with the event loop for the interpreter lock."""
        self._rng = rng or random.Random()
        self._bus = EventBus(self.config.event_queue_warn)
        self._matches: dict[int, LiveMatch] = {}
        self._by_user: defaultdict[int, set[int]] = defaultdict(set)
        self._by_thread: dict[int, int] = {}
        self._reserving: defaultdict[int, int] = defaultdict(int)
        self._guilds: dict[int, GuildSettings] = {}
        self._rating_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        """Per guild: reading two standings and committing the new ones is one step, so two
        matches of the same player ending at once cannot both start from the old rating."""
        self._work: set[asyncio.Task[None]] = set()
        self._timers: MatchTimers[_Alarm] = MatchTimers(self.clock, self._ring)
        self._started = False
        self._closed = False
        self._operations = 0
        """Calls of the public mutating methods under way; close() waits for them."""
        self._no_operations = asyncio.Event()
        self.broken: dict[int, str] = {}
        """Matches set aside at start-up because they no longer replay: id -> reason."""

    # Transitional: the service is being split by job (issue 14); callers already address
    # the part that will hold each method.
    @property
    def commands(self) -> MatchService:
        return self

    @property
    def queries(self) -> MatchService:
        return self

    @property
    def settings(self) -> MatchService:
        return self

    @property
    def placements(self) -> MatchService:
        return self

    # -- life cycle ----------------------------------------------------------------------

    async def start(self) -> None:
        """Open (and migrate) the store, rebuild every unfinished match, re-arm its timers."""
        await self.store.open()
        for info, rows in await self.store.open_matches():
            if info.status is MatchStatus.PENDING:
                self._add(LiveMatch(info))
                continue
            try:
                state, last_automatic = replay_decisions(info, rows)
            except ReplayError as error:
                await self._set_aside(info, str(error))
                continue
            live = LiveMatch(info, state)
            live.last_automatic = last_automatic
            self._add(live)
        self._started = True
        for live in list(self._matches.values()):
            if live.state is not None and live.state.is_over:
                # Cannot happen with one store (the last decision and the result commit
                # together), but a hand-edited database should still end cleanly.
                self._spawn(self._finish_replayed(live))
            else:
                self._arm(live)
        log.info("match service started with %d open matches", len(self._matches))

    async def close(self) -> None:
        """Stop timers, let in-flight decisions finish, deliver queued events, close the store."""
        if self._closed:
            return
        self._closed = True
        self._timers.close()
        if self._work:
            _, late = await asyncio.wait(set(self._work), timeout=_CLOSE_TIMEOUT)
            for task in late:
                task.cancel()
        if self._operations:
            self._no_operations.clear()
            await self._no_operations.wait()  # e.g. a decision being committed
        await self._bus.close(_CLOSE_TIMEOUT)
        await self.store.close()

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Receive every event (async callback); returns a function that unsubscribes.

        Delivery is per subscriber and in order; a slow or failing subscriber is logged
        and never holds up the service.
        """
        return self._bus.subscribe(callback)

    async def wait_idle(self) -> None:
        """Wait until AI moves, timer actions and event deliveries under way are done."""
        while True:
            for _ in range(3):
                await asyncio.sleep(0)
            busy = [task for task in self._work if not task.done()]
            if busy:
                await asyncio.wait(busy)
                continue
            if self._bus.has_backlog():
                await self._bus.drain()
                continue
            return

    # -- challenges ----------------------------------------------------------------------

    @_operation
    async def challenge(
        self,
        challenger_id: int,
        opponent_id: int,
        guild_id: int | None,
        channel_id: int | None,
        variant: Variant | None = None,
        turn_seconds: float | None = None,
    ) -> Challenge:
        """Challenge another user; the challenge waits for an answer until it expires."""
        if challenger_id == opponent_id:
            raise CannotChallengeSelf(challenger_id)
        if AI_USER_ID in (challenger_id, opponent_id):
            raise InvalidRequest(f"user {AI_USER_ID} is the AI; use start_ai_match to play it")
        guild = await self.guild_settings(guild_id) if guild_id is not None else None
        now = self.clock.now()
        info = MatchInfo(
            match_id=0,
            status=MatchStatus.PENDING,
            variant=self._variant(variant, guild),
            players=(challenger_id, opponent_id),
            guild_id=guild_id,
            channel_id=channel_id,
            turn_seconds=self._turn_seconds(turn_seconds, guild),
            expiry_policy=self._expiry_policy(guild),
            created_at=now,
            challenge_expires_at=now + self.config.challenge_expiry_seconds,
        )
        async with self._reserve(challenger_id, opponent_id):
            info = await self.store.create_match(info)
        live = LiveMatch(info)
        self._add(live)
        self._arm(live)
        self._bus.publish(
            ChallengeIssued(
                info.match_id,
                challenger_id,
                opponent_id,
                guild_id,
                channel_id,
                info.variant,
                now + self.config.challenge_expiry_seconds,
            )
        )
        return info

    @_operation
    async def accept(self, match_id: int, user_id: int) -> MatchInfo:
        """The challenged user accepts; the match starts at once (seeded deal, random first)."""
        live = await self._pending(match_id)
        async with live.lock:
            info = self._check_pending(live)
            if user_id != info.players[1]:
                why = (
                    "you cannot accept your own challenge"
                    if user_id == info.players[0]
                    else "the challenge is for someone else"
                )
                raise NotYourMatch(match_id, user_id, why)
            assert info.challenge_expires_at is not None
            if self.clock.now() >= info.challenge_expires_at:
                await self._close_challenge(live, MatchStatus.EXPIRED)
                raise ChallengeExpired(match_id)
            await self._start_match(live)
            return live.snapshot()

    @_operation
    async def decline(self, match_id: int, user_id: int) -> MatchInfo:
        """The challenged user says no."""
        live = await self._pending(match_id)
        async with live.lock:
            info = self._check_pending(live)
            if user_id != info.players[1]:
                raise NotYourMatch(match_id, user_id, "only the challenged user can decline")
            await self._close_challenge(live, MatchStatus.DECLINED)
            return live.snapshot()

    @_operation
    async def cancel(self, match_id: int, user_id: int) -> MatchInfo:
        """The challenger withdraws a challenge nobody answered yet."""
        live = await self._pending(match_id)
        async with live.lock:
            info = self._check_pending(live)
            if user_id != info.players[0]:
                raise NotYourMatch(match_id, user_id, "only the challenger can cancel")
            await self._close_challenge(live, MatchStatus.CANCELLED)
            return live.snapshot()

    @_operation
    async def start_ai_match(
        self,
        user_id: int,
        level: str,
        guild_id: int | None,
        channel_id: int | None,
        variant: Variant | None = None,
        turn_seconds: float | None = None,
    ) -> MatchInfo:
        """Start a match against the AI at ``level``; the user has seat 0, the AI seat 1."""
        if user_id == AI_USER_ID:
            raise InvalidRequest(f"user {AI_USER_ID} is the AI itself")
        if level not in self.config.ai_levels:
            levels = ", ".join(self.config.ai_levels)
            raise InvalidRequest(f"unknown AI level {level!r} (choose {levels})")
        guild = await self.guild_settings(guild_id) if guild_id is not None else None
        now = self.clock.now()
        turn = self._turn_seconds(turn_seconds, guild)
        info = MatchInfo(
            match_id=0,
            status=MatchStatus.ACTIVE,
            variant=self._variant(variant, guild),
            players=(user_id, AI_USER_ID),
            guild_id=guild_id,
            channel_id=channel_id,
            turn_seconds=turn,
            expiry_policy=self._expiry_policy(guild),
            created_at=now,
            ai_level=level,
            seed=self._rng.getrandbits(63),
            first_player=self._rng.randrange(2),
            started_at=now,
            turn_deadline=now + turn,
        )
        async with self._reserve(user_id):
            info = await self.store.create_match(info)
        assert info.seed is not None and info.first_player is not None
        live = LiveMatch(
            info, GameState(seed=info.seed, first_player=info.first_player, variant=info.variant)
        )
        self._add(live)
        self._publish_started(live)
        self._arm(live)
        return live.snapshot()

    # -- playing -------------------------------------------------------------------------

    @_operation
    async def submit(
        self, match_id: int, user_id: int, decision: Decision, expected_version: int
    ) -> SubmitResult:
        """Apply ``decision`` for ``user_id`` if they saw version ``expected_version``.

        Raises :class:`StaleVersion` (also for a repeated submission), :class:`NotYourTurn`,
        :class:`NotYourMatch`, :class:`MatchNotActive`, or
        :class:`engine.rules.errors.IllegalDecision`; nothing is applied then.
        """
        live = await self._active(match_id)
        seat = self._seat(live, user_id)
        async with live.lock:
            state = self._check_active(live)
            if expected_version != state.version:
                raise StaleVersion(match_id, expected_version, state.version)
            if state.current_player != seat:
                waiting = state.current_player
                raise NotYourTurn(
                    match_id, user_id, None if waiting is None else live.info.players[waiting]
                )
            return await self._apply(live, seat, decision, automatic=False)

    @_operation
    async def resign(self, match_id: int, user_id: int) -> MatchOutcome:
        """``user_id`` gives up; the opponent wins."""
        live = await self._active(match_id)
        seat = self._seat(live, user_id)
        async with live.lock:
            state = self._check_active(live).clone()
            state.resign(seat)
            await self._finish(live, state, None, [])
            assert state.outcome is not None
            return state.outcome

    # -- reading -------------------------------------------------------------------------

    async def view_for(self, match_id: int, user_id: int) -> PlayerView:
        """What ``user_id`` may see of the match: the table plus their own hidden cards."""
        live = self._matches.get(match_id)
        if live is not None and live.state is not None:
            return view(live.state, self._seat(live, user_id))
        info, state = await self._stored_state(match_id)
        seat = info.seat_of(user_id)
        if seat is None:
            raise NotYourMatch(match_id, user_id)
        return view(state, seat)

    async def public_view(self, match_id: int) -> PublicView:
        """The table as a spectator sees it (also for a finished match)."""
        live = self._matches.get(match_id)
        if live is not None and live.state is not None:
            return public_view(live.state)
        _, state = await self._stored_state(match_id)
        return public_view(state)

    async def match_info(self, match_id: int) -> MatchInfo:
        """Who, where and how far, for any match ever created."""
        live = self._matches.get(match_id)
        if live is not None:
            return live.snapshot()
        info = await self.store.get_match(match_id)
        if info is None:
            raise MatchNotFound(match_id)
        return info

    async def active_match_for(self, user_id: int, channel_id: int) -> MatchInfo | None:
        """The user's open match shown in ``channel_id`` (its channel or its thread).

        An active match is preferred over a pending challenge; among equals, the newest.
        """
        best: LiveMatch | None = None
        for match_id in self._by_user.get(user_id, ()):
            live = self._matches[match_id]
            if channel_id not in (live.info.channel_id, live.info.placement.thread_id):
                continue
            rank = (live.state is not None, live.match_id)
            if best is None or rank > (best.state is not None, best.match_id):
                best = live
        return None if best is None else best.snapshot()

    async def match_in_thread(self, thread_id: int) -> MatchInfo | None:
        """The open match whose thread is ``thread_id``."""
        match_id = self._by_thread.get(thread_id)
        return None if match_id is None else self._matches[match_id].snapshot()

    async def open_matches_for(self, user_id: int) -> list[MatchInfo]:
        """The user's pending challenges and active matches, oldest first."""
        ids = sorted(self._by_user.get(user_id, ()))
        return [self._matches[i].snapshot() for i in ids]

    @_operation
    async def set_location(
        self,
        match_id: int,
        *,
        thread_id: int | None = None,
        board_message_id: int | None = None,
    ) -> MatchInfo:
        """Remember where the match is shown; arguments left None keep their value."""
        live = self._matches.get(match_id)
        if live is None:
            await self._stored_open_or_raise(match_id)
            raise AssertionError("unreachable")  # pragma: no cover
        async with live.lock:
            info = live.info
            new_thread = info.placement.thread_id if thread_id is None else thread_id
            new_board = (
                info.placement.board_message_id if board_message_id is None else board_message_id
            )
            await self.store.set_location(match_id, new_thread, new_board)
            if info.placement.thread_id is not None:
                self._by_thread.pop(info.placement.thread_id, None)
            if new_thread is not None:
                self._by_thread[new_thread] = match_id
            live.info = replace(info, placement=Placement(new_thread, new_board))
            return live.snapshot()

    async def finished_matches(
        self,
        *,
        user_id: int | None = None,
        guild_id: int | None = None,
        before: float | None = None,
        limit: int = 20,
    ) -> list[FinishedMatch]:
        """Finished matches newest first, for history, stats and ratings."""
        return await self.store.finished_matches(
            user_id=user_id, guild_id=guild_id, before=before, limit=limit
        )

    # -- ratings, stats and records -------------------------------------------------------

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """The player's rating and record in the guild (the starting rating before any game)."""
        return await self.store.player_stats(guild_id, user_id)

    async def leaderboard(
        self, guild_id: int, *, min_games: int, offset: int = 0, limit: int = 10
    ) -> LeaderboardPage:
        """The guild's players with at least ``min_games`` rated games, best rating first."""
        if min_games < 0 or offset < 0 or not 1 <= limit <= MAX_PAGE:
            raise InvalidRequest(
                f"leaderboard of min_games={min_games!r}, offset={offset!r}, limit={limit!r} "
                f"(none may be negative; limit is 1 to {MAX_PAGE})"
            )
        return await self.store.leaderboard(
            guild_id, min_games=min_games, offset=offset, limit=limit
        )

    async def rating_changes(self, match_id: int) -> tuple[RatingChange, RatingChange] | None:
        """How the match moved each seat's rating, or None if it is unrated or not over."""
        changes = await self.store.rating_changes(match_id)
        return (changes[0], changes[1]) if len(changes) == 2 else None

    async def match_record(self, match_id: int, guild_id: int | None) -> str:
        """The finished match's record (one line of JSON, rules.md format) for export.

        Raises :class:`MatchNotFinished` while the match is a challenge or still being
        played (the record shows every hidden card), and :class:`MatchNotFound` for a
        match of another server, so records never leak between servers.
        """
        result = await self.store.finished_match(match_id)
        if result is None:
            info = await self.store.get_match(match_id)
            if info is None or info.guild_id != guild_id:
                raise MatchNotFound(match_id)
            raise MatchNotFinished(match_id, info.status)
        if result.guild_id != guild_id:
            raise MatchNotFound(match_id)
        return result.record

    async def _standing(self, guild_id: int, user_id: int) -> Standing:
        return await self.store.standing(guild_id, user_id) or Standing(guild_id, user_id)

    # -- settings ------------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's overrides (defaults when it never set any)."""
        cached = self._guilds.get(guild_id)
        if cached is None:
            cached = await self.store.guild_settings(guild_id) or GuildSettings(
                guild_id,
                thread_per_match=self.config.thread_per_match,
                three_rounds_default=self.config.three_rounds,
            )
            self._guilds[guild_id] = cached
        return cached

    async def set_guild_settings(self, settings: GuildSettings) -> GuildSettings:
        if settings.turn_seconds is not None:
            self._turn_seconds(settings.turn_seconds, None)
        await self.store.save_guild_settings(settings)
        self._guilds[settings.guild_id] = settings
        return settings

    async def user_settings(self, user_id: int) -> UserSettings:
        return await self.store.user_settings(user_id) or UserSettings(user_id)

    async def set_user_settings(self, settings: UserSettings) -> UserSettings:
        await self.store.save_user_settings(settings)
        return settings

    # -- applying decisions (the match lock is held) -------------------------------------

    async def _apply(
        self, live: LiveMatch, seat: int, decision: Decision, *, automatic: bool
    ) -> SubmitResult:
        before = live.state
        assert before is not None
        after = before.clone()
        after.apply(decision, seat)  # IllegalDecision passes through, nothing changed
        move = public_move(before, decision)
        now = self.clock.now()
        deadline = None if after.is_over else now + live.info.turn_seconds
        row = DecisionRow(after.version, seat, str(decision), now, automatic, deadline)
        applied = DecisionApplied(
            live.match_id, seat, live.info.players[seat], move, after.version, automatic, deadline
        )
        events: list[Event] = [applied]
        if len(after.results) > len(before.results):
            events.append(RoundScored(live.match_id, after.results[-1], after.version))
        if after.is_over:
            await self._finish(live, after, row, events)
        else:
            await self.store.append_decision(live.match_id, row)
            live.state = after
            live.deadline = deadline
            live.last_automatic[seat] = automatic
            for event in events:
                self._bus.publish(event)
            self._publish_choice_needed(live)
            self._arm(live)
        return SubmitResult(
            live.match_id, after.version, move, automatic, after.outcome, after.current_player
        )

    async def _finish(
        self, live: LiveMatch, state: GameState, row: DecisionRow | None, events: list[Event]
    ) -> None:
        outcome = state.outcome
        info = live.info
        assert outcome is not None and info.started_at is not None
        now = self.clock.now()
        winner_id = None if outcome.winner is None else info.players[outcome.winner]
        result = FinishedMatch(
            match_id=info.match_id,
            guild_id=info.guild_id,
            variant=info.variant,
            players=info.players,
            ai_level=info.ai_level,
            winner_seat=outcome.winner,
            winner_id=winner_id,
            reason=outcome.termination,
            rounds=outcome.rounds_played,
            started_at=info.started_at,
            finished_at=now,
            record=MatchRecord.of(state).to_json(),
        )
        if is_rated(result):
            assert result.guild_id is not None
            async with self._rating_locks[result.guild_id]:
                before = (
                    await self._standing(result.guild_id, result.players[0]),
                    await self._standing(result.guild_id, result.players[1]),
                )
                rated = rate_finished_match(result, before)
                await self.store.finish_match(result, row, rated)
        else:
            await self.store.finish_match(result, row)
        live.state = state
        live.deadline = None
        live.info = replace(info, status=MatchStatus.FINISHED, ended_at=now)
        for event in events:
            self._bus.publish(event)
        self._bus.publish(
            MatchEnded(info.match_id, info.players, outcome, winner_id, state.version)
        )
        self._remove(live)

    # -- timers and the AI ---------------------------------------------------------------

    def _arm(self, live: LiveMatch) -> None:
        """Set the match's alarm for what it waits on now, or let the AI move."""
        if self._closed:
            return
        match_id = live.match_id
        state = live.state
        if state is None:
            assert live.info.challenge_expires_at is not None
            self._timers.set(match_id, live.info.challenge_expires_at, _Alarm("challenge", 0))
            return
        seat = state.current_player
        if seat is None:
            self._timers.clear(match_id)
        elif live.info.is_ai_seat(seat):
            self._timers.clear(match_id)  # the AI never runs out of time
            if live.ai_task is None:
                live.ai_task = self._spawn(self._play_ai(live, state.version))
        elif live.reminded_version != state.version:
            assert live.deadline is not None
            lead = min(self.config.reminder_before_seconds, live.info.turn_seconds / 2)
            self._timers.set(match_id, live.deadline - lead, _Alarm("remind", state.version))
        else:
            assert live.deadline is not None
            self._timers.set(match_id, live.deadline, _Alarm("expire", state.version))

    def _ring(self, match_id: int, alarm: _Alarm) -> None:
        """An alarm went off: hand the work to a task (the timers must not wait)."""
        live = self._matches.get(match_id)
        if live is None:
            return
        if alarm.kind == "challenge":
            self._spawn(self._expire_challenge(live))
        elif alarm.kind == "remind":
            assert live.deadline is not None
            self._timers.set(match_id, live.deadline, _Alarm("expire", alarm.version))
            self._spawn(self._remind(live, alarm.version))
        else:
            self._spawn(self._expire_turn(live, alarm.version))

    async def _remind(self, live: LiveMatch, version: int) -> None:
        async with live.lock:
            state = live.state
            if not self._is_current(live, version) or live.reminded_version == version:
                return
            assert state is not None and state.current_player is not None
            # Stored before it is published: after a crash a reminder is lost, not doubled.
            await self.store.set_reminded(live.match_id, version)
            live.reminded_version = version
            seat = state.current_player
            assert live.deadline is not None
            self._bus.publish(
                Reminder(live.match_id, seat, live.info.players[seat], live.deadline, version)
            )

    async def _expire_turn(self, live: LiveMatch, version: int) -> None:
        async with live.lock:
            state = live.state
            if not self._is_current(live, version):
                return
            assert state is not None and state.current_player is not None
            seat = state.current_player
            second_in_a_row = live.last_automatic[seat]
            if live.info.expiry_policy is ExpiryPolicy.FORFEIT or second_in_a_row:
                after = state.clone()
                after.forfeit(seat)
                await self._finish(live, after, None, [])
                return
            agent = self.agent_factory(self.config.expiry_ai_level)
            decision = await self._ai_decision(agent, view(state, seat), live.ai_rng)
            await self._apply(live, seat, decision, automatic=True)

    async def _play_ai(self, live: LiveMatch, version: int) -> None:
        try:
            if self.config.ai_move_delay_seconds > 0:
                # A pause for people watching, not a game timer: real time on purpose.
                await asyncio.sleep(self.config.ai_move_delay_seconds)
            state = live.state
            if not self._is_current(live, version) or self._closed:
                return
            assert state is not None and state.current_player is not None
            seat = state.current_player
            if live.agent is None:
                assert live.info.ai_level is not None
                live.agent = self.agent_factory(live.info.ai_level)
            decision = await self._ai_decision(live.agent, view(state, seat), live.ai_rng)
            async with live.lock:
                if self._is_current(live, version) and not self._closed:
                    live.ai_task = None
                    await self._apply(live, seat, decision, automatic=False)
        finally:
            if live.ai_task is asyncio.current_task():
                live.ai_task = None

    async def _ai_decision(
        self, agent: Agent, seat_view: PlayerView, rng: random.Random
    ) -> Decision:
        # Agents are synchronous and may search for a while: think off the event loop. Each
        # decision gets its own generator drawn from the match's, so a decision made in
        # another process still advances the match's randomness.
        own_rng = random.Random(rng.getrandbits(64))
        loop = asyncio.get_running_loop()
        try:
            decision = await loop.run_in_executor(
                self._agent_executor, agent.decide, seat_view, own_rng
            )
        except Exception:
            log.exception("agent %r failed; playing a random legal decision", agent)
            return rng.choice(seat_view.legal)
        if decision not in seat_view.legal:
            log.error("agent %r chose illegal %s; playing at random", agent, decision)
            return rng.choice(seat_view.legal)
        return decision

    def _is_current(self, live: LiveMatch, version: int) -> bool:
        state = live.state
        return (
            state is not None
            and live.match_id in self._matches
            and not state.is_over
            and state.version == version
        )

    # -- challenge and match life (the match lock is held) -------------------------------

    async def _expire_challenge(self, live: LiveMatch) -> None:
        async with live.lock:
            if live.info.status is MatchStatus.PENDING and live.match_id in self._matches:
                await self._close_challenge(live, MatchStatus.EXPIRED)

    async def _close_challenge(self, live: LiveMatch, status: MatchStatus) -> None:
        now = self.clock.now()
        await self.store.close_challenge(live.match_id, status, now)
        live.info = replace(live.info, status=status, ended_at=now)
        self._remove(live)
        challenger, opponent = live.info.players
        event: Event
        if status is MatchStatus.DECLINED:
            event = ChallengeDeclined(live.match_id, challenger, opponent)
        elif status is MatchStatus.CANCELLED:
            event = ChallengeCancelled(live.match_id, challenger, opponent)
        else:
            event = ChallengeExpiredEvent(live.match_id, challenger, opponent)
        self._bus.publish(event)

    async def _start_match(self, live: LiveMatch) -> None:
        now = self.clock.now()
        seed = self._rng.getrandbits(63)
        first_player = self._rng.randrange(2)
        deadline = now + live.info.turn_seconds
        await self.store.start_match(
            live.match_id,
            seed=seed,
            first_player=first_player,
            started_at=now,
            turn_deadline=deadline,
        )
        live.info = replace(
            live.info,
            status=MatchStatus.ACTIVE,
            seed=seed,
            first_player=first_player,
            started_at=now,
            turn_deadline=deadline,
        )
        live.deadline = deadline
        live.state = GameState(seed=seed, first_player=first_player, variant=live.info.variant)
        challenger, opponent = live.info.players
        self._bus.publish(ChallengeAccepted(live.match_id, challenger, opponent))
        self._publish_started(live)
        self._arm(live)

    async def _finish_replayed(self, live: LiveMatch) -> None:
        async with live.lock:
            assert live.state is not None
            await self._finish(live, live.state, None, [])

    async def _set_aside(self, info: MatchInfo, reason: str) -> None:
        log.error("match %d no longer replays and was set aside: %s", info.match_id, reason)
        await self.store.mark_broken(info.match_id, reason, self.clock.now())
        self.broken[info.match_id] = reason
        self._bus.publish(MatchBroken(info.match_id, reason))

    def _publish_started(self, live: LiveMatch) -> None:
        info = live.info
        assert info.first_player is not None
        self._bus.publish(
            MatchStarted(
                info.match_id,
                info.players,
                info.first_player,
                info.variant,
                info.ai_level,
                info.guild_id,
                info.channel_id,
                live.deadline,
            )
        )

    def _publish_choice_needed(self, live: LiveMatch) -> None:
        state = live.state
        assert state is not None
        if state.phase in (Phase.GIFT_CHOICE, Phase.COMPETITION_CHOICE):
            seat = state.to_move
            offer = state.pending
            assert isinstance(offer, Gift | Competition)
            self._bus.publish(
                ChoiceNeeded(live.match_id, seat, live.info.players[seat], offer, state.version)
            )

    # -- bookkeeping ---------------------------------------------------------------------

    def _add(self, live: LiveMatch) -> None:
        self._matches[live.match_id] = live
        for user_id in live.info.players:
            if user_id != AI_USER_ID:
                self._by_user[user_id].add(live.match_id)
        if live.info.placement.thread_id is not None:
            self._by_thread[live.info.placement.thread_id] = live.match_id

    def _remove(self, live: LiveMatch) -> None:
        self._timers.clear(live.match_id)
        self._matches.pop(live.match_id, None)
        for user_id in live.info.players:
            matches = self._by_user.get(user_id)
            if matches is not None:
                matches.discard(live.match_id)
                if not matches:
                    del self._by_user[user_id]
        if live.info.placement.thread_id is not None:
            self._by_thread.pop(live.info.placement.thread_id, None)

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.create_task(coroutine)
        self._work.add(task)
        task.add_done_callback(self._work_done)
        return task

    def _work_done(self, task: asyncio.Task[None]) -> None:
        self._work.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background match work failed", exc_info=task.exception())

    def _reserve(self, *user_ids: int) -> _Reservation:
        return _Reservation(self, user_ids)

    def _open_count(self, user_id: int) -> int:
        return len(self._by_user.get(user_id, ())) + self._reserving[user_id]

    def _check_running(self) -> None:
        if self._closed:
            raise ServiceClosed()
        if not self._started:
            raise InvalidRequest("the match service has not been started")

    def _seat(self, live: LiveMatch, user_id: int) -> int:
        seat = live.info.seat_of(user_id)
        if seat is None or user_id == AI_USER_ID:
            raise NotYourMatch(live.match_id, user_id)
        return seat

    async def _pending(self, match_id: int) -> LiveMatch:
        live = self._matches.get(match_id)
        if live is None:
            info = await self.store.get_match(match_id)
            if info is None:
                raise MatchNotFound(match_id)
            if info.status is MatchStatus.EXPIRED:
                raise ChallengeExpired(match_id)
            raise ChallengeNotPending(match_id, info.status)
        return live

    def _check_pending(self, live: LiveMatch) -> MatchInfo:
        info = live.info
        if info.status is not MatchStatus.PENDING:
            if info.status is MatchStatus.EXPIRED:
                raise ChallengeExpired(live.match_id)
            raise ChallengeNotPending(live.match_id, info.status)
        return info

    async def _active(self, match_id: int) -> LiveMatch:
        live = self._matches.get(match_id)
        if live is None:
            await self._stored_open_or_raise(match_id)
            raise AssertionError("unreachable")  # pragma: no cover
        return live

    def _check_active(self, live: LiveMatch) -> GameState:
        state = live.state
        if state is None or live.info.status is not MatchStatus.ACTIVE:
            raise MatchNotActive(live.match_id, live.info.status)
        return state

    async def _stored_open_or_raise(self, match_id: int) -> None:
        info = await self.store.get_match(match_id)
        if info is None:
            raise MatchNotFound(match_id)
        raise MatchNotActive(match_id, info.status)

    async def _stored_state(self, match_id: int) -> tuple[MatchInfo, GameState]:
        """A finished match rebuilt from its record; a pending or broken one is refused."""
        info = await self.store.get_match(match_id)
        if info is None:
            raise MatchNotFound(match_id)
        result = await self.store.finished_match(match_id)
        if result is None:
            raise MatchNotActive(match_id, info.status)
        return info, replay(MatchRecord.from_json(result.record))

    def _turn_seconds(self, requested: float | None, guild: GuildSettings | None) -> float:
        seconds = requested
        if seconds is None and guild is not None:
            seconds = guild.turn_seconds
        if seconds is None:
            seconds = self.config.turn_timer_seconds
        low, high = self.config.min_turn_seconds, self.config.max_turn_seconds
        if not low <= seconds <= high:
            raise InvalidRequest(
                f"a turn timer of {seconds!r} seconds is out of range ({low:g} to {high:g})"
            )
        return float(seconds)

    def _variant(self, requested: Variant | None, guild: GuildSettings | None) -> Variant:
        if requested is not None:
            return Variant(requested)
        if guild is not None and guild.three_rounds_default:
            return Variant.THREE_ROUNDS
        return Variant.STANDARD

    def _expiry_policy(self, guild: GuildSettings | None) -> ExpiryPolicy:
        if guild is not None and guild.expiry_policy is not None:
            return guild.expiry_policy
        return self.config.expiry_policy


class _Reservation:
    """Counts a match against its players' limit while it is being created.

    The limit check and the insert are separated by an await; without the reservation two
    simultaneous challenges could both slip under the limit.
    """

    def __init__(self, service: MatchService, user_ids: tuple[int, ...]) -> None:
        self._service = service
        self._user_ids = user_ids

    async def __aenter__(self) -> None:
        limit = self._service.config.max_active_matches
        for user_id in self._user_ids:
            if self._service._open_count(user_id) >= limit:
                raise TooManyActiveMatches(user_id, limit)
        for user_id in self._user_ids:
            self._service._reserving[user_id] += 1

    async def __aexit__(self, *exc_info: object) -> None:
        for user_id in self._user_ids:
            self._service._reserving[user_id] -= 1
            if not self._service._reserving[user_id]:
                del self._service._reserving[user_id]
