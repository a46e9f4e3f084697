"""AI decision time: p50/p95/max seconds per decision for each level, on one core.

Plays games between the level measured and a ``normal`` opponent from seeded deals, and
times every decision of the measured side that has a real choice (a lone legal decision
is answered at once and not counted).

    python bench/ai_decision_time.py [--games N] [--seed S] [--levels easy normal hard]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.ai import LEVELS, agent_for_level
from engine.rules import GameState, view


def decision_times(level: str, games: int, seed: int) -> list[float]:
    """Seconds taken by each of ``level``'s decisions over ``games`` games."""
    agent, opponent = agent_for_level(level), agent_for_level("normal")
    times: list[float] = []
    for game in range(games):
        state = GameState(seed=seed + game, first_player=game % 2)
        rng = random.Random(seed + game)
        seat = game % 2
        while not state.is_over:
            player = state.current_player
            assert player is not None
            seen = view(state, player)
            if player == seat:
                start = time.perf_counter()
                decision = agent.decide(seen, rng)
                if len(seen.legal) > 1:
                    times.append(time.perf_counter() - start)
            else:
                decision = opponent.decide(seen, rng)
            state.apply(decision, player)
    return times


def percentile(sorted_times: list[float], q: float) -> float:
    """The nearest-rank percentile of an already sorted list."""
    rank = max(1, round(q * len(sorted_times)))
    return sorted_times[rank - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", nargs="+", choices=LEVELS, default=["easy", "normal", "hard"])
    args = parser.parse_args()
    decision_times("normal", 3, args.seed + 10**6)  # warm the legal-decision caches
    for level in args.levels:
        times = sorted(decision_times(level, args.games, args.seed))
        print(
            f"{level:<7} decisions {len(times):>5}  "
            f"p50 {1000 * statistics.median(times):7.1f} ms  "
            f"p95 {1000 * percentile(times, 0.95):7.1f} ms  "
            f"max {1000 * times[-1]:7.1f} ms"
        )


if __name__ == "__main__":
    main()
