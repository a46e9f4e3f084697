"""A match the service holds in memory: its stored info, its game state, its AI.

Only committed state is ever visible here: a decision is tried on a clone of the state,
written, and the clone becomes current after the commit.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import replace

from engine.ai.agent import Agent
from engine.clocks import ChessClock
from engine.model import DecisionRow, MatchInfo
from engine.rules.decisions import parse_decision
from engine.rules.errors import HanamikojiError
from engine.rules.state import GameState
from engine.service.matches.version_views import VersionViews


class ReplayError(Exception):
    """Stored decisions that the engine no longer accepts."""


class LiveMatch:
    __slots__ = (
        "agent",
        "ai_rng",
        "ai_task",
        "clock",
        "deadline",
        "info",
        "last_automatic",
        "lock",
        "reminded_version",
        "state",
        "unanswered",
        "unsure",
        "used_at",
        "views",
    )

    def __init__(self, info: MatchInfo, state: GameState | None = None) -> None:
        self.info = info
        """As of the last status change; version and deadline are kept below."""
        self.state = state
        """None while the match is a pending challenge."""
        self.lock = asyncio.Lock()
        self.deadline = info.turn_deadline
        self.reminded_version = info.reminded_version
        self.last_automatic = [False, False]
        """Whether each seat's latest decision was played for them by the timer."""
        self.ai_task: asyncio.Task[None] | None = None
        self.agent: Agent | None = None
        self.ai_rng = random.Random(f"hanamikoji/{info.match_id}/{info.seed}/ai")
        self.unsure = False
        """A write of this match got no answer (it may or may not have been made): the
        match is read again from the database before its next use."""
        self.unanswered: frozenset[str] = frozenset()
        """The announcement keys that write carried: if the database shows it made, they
        are published then (nothing else would, short of a restart)."""
        self.used_at = time.monotonic()
        """When this process last looked the match up (a cache over a shared database
        lets go of matches nobody here used for a while)."""
        self.views = VersionViews()
        """The current state's views, each worked out once per version."""
        self.clock: ChessClock | None = _started_clock(info)
        """A clock match's banks as of its last decision (None for the other paces)."""

    @property
    def match_id(self) -> int:
        return self.info.match_id

    @property
    def version(self) -> int:
        return 0 if self.state is None else self.state.version

    def snapshot(self) -> MatchInfo:
        """The match info as of now."""
        return replace(
            self.info,
            version=self.version,
            turn_deadline=self.deadline,
            reminded_version=self.reminded_version,
            banks=None if self.clock is None else self.clock.banks,
        )


def _started_clock(info: MatchInfo) -> ChessClock | None:
    return info.chess_clock([])


def catch_up(live: LiveMatch, info: MatchInfo, rows: list[DecisionRow]) -> None:
    """Bring ``live`` to the stored ``info``, applying the decisions ``rows`` made since its
    version (by another process); raises :class:`ReplayError` for one the engine refuses."""
    if live.state is None and info.seed is not None and info.first_player is not None:
        live.state = GameState(seed=info.seed, first_player=info.first_player, variant=info.variant)
        live.ai_rng = random.Random(f"hanamikoji/{info.match_id}/{info.seed}/ai")
        live.clock = _started_clock(info)
    state = live.state
    for row in rows:
        if state is None or row.seq != state.version + 1:
            have = "no deal" if state is None else f"version {state.version}"
            raise ReplayError(f"match {info.match_id}: decision {row.seq} does not follow {have}")
        try:
            state.apply(parse_decision(row.decision), row.seat)
        except HanamikojiError as error:
            raise ReplayError(f"decision {row.seq} ({row.decision!r}): {error}") from None
        live.last_automatic[row.seat] = row.automatic
        if live.clock is not None:
            live.clock = live.clock.charge(row.seat, row.decided_at, info.increment_seconds)
    live.info = info
    live.deadline = info.turn_deadline
    live.reminded_version = info.reminded_version


def replay_decisions(info: MatchInfo, rows: list[DecisionRow]) -> LiveMatch:
    """Rebuild an active match from all its stored decisions, checking each one again."""
    if info.seed is None or info.first_player is None:
        raise ReplayError(f"match {info.match_id} is active but has no seed or first player")
    live = LiveMatch(info)
    catch_up(live, info, rows)
    if live.version != info.version:
        raise ReplayError(f"the match row says version {info.version} but {len(rows)} are stored")
    return live
