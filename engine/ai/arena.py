"""Agent against agent over many games, with each side's win rate and a 95% interval.

Games come in pairs on the same deals with the seats swapped (game 2k: A in seat 0; game
2k+1: A in seat 1), so neither side profits from the cards or from moving first. A draw
(possible only in the three-round variant) counts as half a win for each side. The
interval is Wilson's score interval, which stays inside [0, 1] and behaves near 0% and
100%, where the normal approximation does not.

Each side's decisions with a real choice are timed (wall clock, in the process that plays
the game), and a search level's time-guard hits counted: the figures are printed, never
part of the result's identity (the same seed gives the same games on any machine).
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import IO

from engine.ai.agent import Agent
from engine.ai.ismcts import IsmctsAgent
from engine.ai.levels import agent_for_level
from engine.rules.decisions import Decision
from engine.rules.state import GameState, Variant
from engine.rules.views import PlayerView, view

Z_95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""


def wilson_interval(successes: float, trials: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for a proportion; ``successes`` may count draws as halves."""
    if trials <= 0:
        raise ValueError(f"trials must be positive, got {trials!r}")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be between 0 and {trials}, got {successes!r}")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class DecisionTimes:
    """One side's decision times in seconds (decisions with a choice only), and how many
    of its searches the time guard cut short."""

    seconds: tuple[float, ...] = ()
    guard_hits: int = 0

    def __add__(self, other: DecisionTimes) -> DecisionTimes:
        return DecisionTimes(self.seconds + other.seconds, self.guard_hits + other.guard_hits)

    def line(self) -> str:
        """p50, p95 and max (nearest rank), and the share of decisions the guard ended."""
        times = sorted(self.seconds)
        if not times:
            return "no timed decisions"

        def rank(q: float) -> float:
            return times[max(1, math.ceil(q * len(times))) - 1]

        return (
            f"decisions {len(times)}  p50 {1000 * rank(0.5):.1f} ms  "
            f"p95 {1000 * rank(0.95):.1f} ms  max {1000 * times[-1]:.1f} ms  "
            f"guard hits {self.guard_hits} ({100 * self.guard_hits / len(times):.1f}%)"
        )


class _Timed:
    """Times an agent's decisions that have a choice, and counts its guard hits."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.seconds: list[float] = []

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        started = time.perf_counter()
        decision = self.agent.decide(view, rng)
        if len(view.legal) > 1:
            self.seconds.append(time.perf_counter() - started)
        return decision

    def guard_hits(self) -> int:
        return self.agent.guard_hits if isinstance(self.agent, IsmctsAgent) else 0


@dataclass(frozen=True, slots=True)
class GameResult:
    """One arena game: which seat side A sat in and who won (None for a draw)."""

    index: int
    a_seat: int
    winner_seat: int | None
    rounds: int
    a_times: DecisionTimes = field(default=DecisionTimes(), compare=False)
    b_times: DecisionTimes = field(default=DecisionTimes(), compare=False)

    @property
    def a_won(self) -> bool:
        return self.winner_seat is not None and self.winner_seat == self.a_seat

    @property
    def b_won(self) -> bool:
        return self.winner_seat is not None and self.winner_seat != self.a_seat


def seat_of_a(index: int) -> int:
    """Side A's seat in game ``index``: 0 in even games, 1 in odd ones."""
    return index % 2


def game_seed(seed: int, index: int) -> int:
    """The deal seed of game ``index``; a pair of games (2k, 2k+1) shares its deals."""
    return random.Random(f"hanamikoji/arena/{seed}/{index // 2}").getrandbits(63)


def play_game(
    seat_agents: Sequence[Agent],
    deal_seed: int,
    rngs: Sequence[random.Random],
    *,
    variant: Variant = Variant.STANDARD,
    first_player: int = 0,
) -> GameState:
    """Play one game to the end, each seat's agent deciding from its own view."""
    state = GameState(seed=deal_seed, first_player=first_player, variant=variant)
    while not state.is_over:
        player = state.current_player
        assert player is not None
        decision = seat_agents[player].decide(view(state, player), rngs[player])
        state.apply(decision, player)
    return state


def play_arena_game(
    agent_a: Agent, agent_b: Agent, seed: int, index: int, variant: Variant = Variant.STANDARD
) -> GameResult:
    """Game ``index`` of an arena run: seats, deals and agents' randomness from the seed."""
    a_seat = seat_of_a(index)
    timed_a, timed_b = _Timed(agent_a), _Timed(agent_b)
    hits_a, hits_b = timed_a.guard_hits(), timed_b.guard_hits()
    seats = (timed_a, timed_b) if a_seat == 0 else (timed_b, timed_a)
    deal_seed = game_seed(seed, index)
    # The first player follows the deal pair, so the swapped game is the mirror image.
    first_player = random.Random(f"hanamikoji/arena/{seed}/{index // 2}/first").randrange(2)
    rngs = [random.Random(f"hanamikoji/arena/{seed}/{index}/seat{p}") for p in (0, 1)]
    state = play_game(seats, deal_seed, rngs, variant=variant, first_player=first_player)
    assert state.outcome is not None
    return GameResult(
        index,
        a_seat,
        state.outcome.winner,
        state.outcome.rounds_played,
        DecisionTimes(tuple(timed_a.seconds), timed_a.guard_hits() - hits_a),
        DecisionTimes(tuple(timed_b.seconds), timed_b.guard_hits() - hits_b),
    )


@dataclass(frozen=True, slots=True)
class ArenaSummary:
    """Totals of an arena run between side A and side B."""

    name_a: str
    name_b: str
    games: int
    wins_a: int
    wins_b: int
    draws: int
    rounds: int
    times_a: DecisionTimes = field(default=DecisionTimes(), compare=False)
    times_b: DecisionTimes = field(default=DecisionTimes(), compare=False)

    @classmethod
    def of(cls, name_a: str, name_b: str, results: Sequence[GameResult]) -> ArenaSummary:
        return cls(
            name_a,
            name_b,
            len(results),
            sum(r.a_won for r in results),
            sum(r.b_won for r in results),
            sum(r.winner_seat is None for r in results),
            sum(r.rounds for r in results),
            sum((r.a_times for r in results), DecisionTimes()),
            sum((r.b_times for r in results), DecisionTimes()),
        )

    def score(self, side: str) -> float:
        """Wins plus half the draws for side ``"a"`` or ``"b"``."""
        wins = self.wins_a if side == "a" else self.wins_b
        return wins + self.draws / 2

    def win_rate(self, side: str) -> float:
        return self.score(side) / self.games

    def interval(self, side: str) -> tuple[float, float]:
        return wilson_interval(self.score(side), self.games)

    def lines(self) -> list[str]:
        """The report: one line per side, then how the games went."""
        out = []
        width = max(len(self.name_a), len(self.name_b)) + 2
        for side, name, wins in (
            ("a", f"A {self.name_a}", self.wins_a),
            ("b", f"B {self.name_b}", self.wins_b),
        ):
            low, high = self.interval(side)
            out.append(
                f"{name:<{width}}  wins {wins:>5} of {self.games}  "
                f"win rate {100 * self.win_rate(side):5.1f}%  "
                f"95% CI [{100 * low:.1f}%, {100 * high:.1f}%]"
            )
        out.append(
            f"draws {self.draws} (each counted as half a win); "
            f"rounds/game {self.rounds / self.games:.2f}; seats swapped every other game"
        )
        for name, times in ((f"A {self.name_a}", self.times_a), (f"B {self.name_b}", self.times_b)):
            out.append(f"{name:<{width}}  time: {times.line()}")
        return out


def _play_chunk(args: tuple[str, str, int, list[int], Variant, bool]) -> list[GameResult]:
    """Worker: build the agents from their level names and play some game indices."""
    level_a, level_b, seed, indices, variant, budget_only = args
    agent_a, agent_b = agent_for_level(level_a), agent_for_level(level_b)
    if budget_only:
        for agent in (agent_a, agent_b):
            if isinstance(agent, IsmctsAgent):
                agent.time_limit = None
    return [play_arena_game(agent_a, agent_b, seed, i, variant) for i in indices]


def run_arena(
    level_a: str,
    level_b: str,
    games: int,
    seed: int = 0,
    *,
    jobs: int = 1,
    variant: Variant = Variant.STANDARD,
    budget_only: bool = False,
    progress: Callable[[Sequence[GameResult]], None] | None = None,
) -> ArenaSummary:
    """Play ``games`` games between two levels; ``jobs`` processes share them.

    Every game is seeded by its index, so the result does not depend on ``jobs``; with
    ``budget_only`` the searches end at their play-out budget, never at their time guard,
    so it does not depend on the machine's load either. ``progress`` is given the games
    played so far (the first ones, in order) after each batch.
    """
    if games <= 0:
        raise ValueError(f"games must be positive, got {games!r}")
    agent_for_level(level_a), agent_for_level(level_b)  # fail early on a bad name
    results: list[GameResult] = []
    chunk = 10
    tasks = [
        (
            level_a,
            level_b,
            seed,
            list(range(start, min(start + chunk, games))),
            variant,
            budget_only,
        )
        for start in range(0, games, chunk)
    ]
    if jobs <= 1:
        for task in tasks:
            results.extend(_play_chunk(task))
            if progress is not None:
                progress(results)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for done in pool.map(_play_chunk, tasks):
                results.extend(done)
                if progress is not None:
                    progress(results)
    return ArenaSummary.of(level_a, level_b, results)


PROGRESS_EVERY = 100
"""Games between the running tallies a long arena prints."""


def run_cli(
    level_a: str,
    level_b: str,
    games: int,
    seed: int,
    jobs: int,
    out: IO[str],
    *,
    budget_only: bool = False,
) -> int:
    """``python -m engine arena A B --games N``: play and print the summary.

    Every :data:`PROGRESS_EVERY` games a running tally of side A is printed, so a long run
    cut short still says something; at the end, the load average the games ran under.
    """
    if games <= 0 or jobs <= 0:
        print("--games and --jobs must be positive", file=out)
        return 2
    print(
        f"arena: {level_a} (A) against {level_b} (B), {games} games, seed {seed}, jobs {jobs}"
        + (", budget only (no time guard)" if budget_only else ""),
        file=out,
    )
    reported = 0

    def tally(done: Sequence[GameResult]) -> None:
        nonlocal reported
        if len(done) - reported >= PROGRESS_EVERY and len(done) < games:
            reported = len(done) - len(done) % PROGRESS_EVERY
            so_far = ArenaSummary.of(level_a, level_b, done[:reported])
            low, high = so_far.interval("a")
            print(
                f"after {reported} games: A {level_a} {100 * so_far.win_rate('a'):.1f}% "
                f"[{100 * low:.1f}%, {100 * high:.1f}%]",
                file=out,
                flush=True,
            )

    summary = run_arena(
        level_a, level_b, games, seed, jobs=jobs, budget_only=budget_only, progress=tally
    )
    for line in summary.lines():
        print(line, file=out)
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"load average (1, 5, 15 min) at the end: {load}", file=out)
    return 0
