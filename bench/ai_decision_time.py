"""AI decision time: p50/p95/max seconds per decision for each level, on one core.

Plays games between the level measured and a ``normal`` opponent from seeded deals, and
times every decision of the measured side that has a real choice (a lone legal decision
is answered at once and not counted). For a search level it also counts the decisions its
time guard ended before the play-out budget ("guard hits"): on a busy machine they grow,
and the search is then weaker than its budget says. Wall-clock times are what a player
waits; the CPU times (the process's own, one core) are close to what an idle core would
take, so they still mean something when the machine is shared; with ``--budget-only`` (no
guard) they are what the whole budget costs. Quote the load (``uptime``) beside the figures.

    python bench/ai_decision_time.py [--games N] [--seed S] [--levels easy normal hard hard-v1]
        [--budget-only]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Sequence

from engine.ai import IsmctsAgent, agent_for_level
from engine.ai.levels import ARENA_LEVELS
from engine.command_line import CommandLineParser, count, description, fail, seed
from engine.rules import GameState, view

PROG = "bench/ai_decision_time.py"
MOST_GAMES = 10_000
"""About an hour of the hard level's decisions."""


def decision_times(
    level: str, games: int, seed: int, *, budget_only: bool = False
) -> tuple[list[float], list[float], int]:
    """Wall-clock and CPU seconds of each of ``level``'s decisions over ``games`` games,
    and how many of them the time guard ended (none with ``budget_only``)."""
    agent, opponent = agent_for_level(level), agent_for_level("normal")
    if budget_only and isinstance(agent, IsmctsAgent):
        agent.time_limit = None
    times: list[float] = []
    cpu_times: list[float] = []
    for game in range(games):
        state = GameState(seed=seed + game, first_player=game % 2)
        rng = random.Random(seed + game)
        seat = game % 2
        while not state.is_over:
            player = state.current_player
            assert player is not None
            seen = view(state, player)
            if player == seat:
                start, cpu_start = time.perf_counter(), time.process_time()
                decision = agent.decide(seen, rng)
                if len(seen.legal) > 1:
                    times.append(time.perf_counter() - start)
                    cpu_times.append(time.process_time() - cpu_start)
            else:
                decision = opponent.decide(seen, rng)
            state.apply(decision, player)
    return times, cpu_times, agent.guard_hits if isinstance(agent, IsmctsAgent) else 0


def percentile(sorted_times: list[float], q: float) -> float:
    """The nearest-rank percentile of an already sorted list."""
    rank = max(1, round(q * len(sorted_times)))
    return sorted_times[rank - 1]


def main(argv: Sequence[str] | None = None) -> int:
    parser = CommandLineParser(prog=PROG, description=description(__doc__))
    parser.add_argument(
        "--games",
        type=count(1, MOST_GAMES),
        default=20,
        help=f"games per level, 1 to {MOST_GAMES:,} (20)",
    )
    parser.add_argument("--seed", type=seed, default=1, help="seed of the deals and the agents")
    parser.add_argument(
        "--levels",
        nargs="+",
        choices=ARENA_LEVELS,
        default=["easy", "normal", "hard"],
        help="the levels to time (easy normal hard)",
    )
    parser.add_argument(
        "--budget-only",
        action="store_true",
        help="no time guard: every search spends its whole play-out budget (CPU time then "
        "measures the budget's cost on a busy machine)",
    )
    args = parser.parse_args(argv)
    decision_times("normal", 3, args.seed + 10**6)  # warm the legal-decision caches
    for level in args.levels:
        timed, cpu_timed, guard_hits = decision_times(
            level, args.games, args.seed, budget_only=args.budget_only
        )
        times, cpu_times = sorted(timed), sorted(cpu_timed)
        if not times:  # every decision of these games was forced: nothing to time
            return fail(PROG, f"{level} had no decision with a choice in {args.games} games")
        print(
            f"{level:<7} decisions {len(times):>5}  "
            f"p50 {1000 * statistics.median(times):7.1f} ms  "
            f"p95 {1000 * percentile(times, 0.95):7.1f} ms  "
            f"max {1000 * times[-1]:7.1f} ms  "
            f"guard hits {guard_hits} ({100 * guard_hits / len(times):.1f}%)  "
            f"cpu p50 {1000 * statistics.median(cpu_times):.1f} ms  "
            f"p95 {1000 * percentile(cpu_times, 0.95):.1f} ms  max {1000 * cpu_times[-1]:.1f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
