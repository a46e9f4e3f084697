"""Engine speed: complete games with every decision drawn uniformly from the legal list.

Uses only the public API (``new_game``, ``legal_decisions``, ``apply``), on one core.
The last line is ``games/s: N``.

    python bench/engine_speed.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time

from engine.rules import new_game


def play(games: int, seed: int) -> tuple[int, int]:
    """Play ``games`` random games; returns (decisions, rounds) played."""
    rng = random.Random(seed)
    decisions = rounds = 0
    for game in range(games):
        state = new_game(seed + game)
        while not state.is_over:
            state.apply(rng.choice(state.legal_decisions()))
            decisions += 1
        rounds += len(state.results)
    return decisions, rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    play(500, args.seed + 10**9)  # warm the legal-decision caches, as a long-running bot would
    start = time.perf_counter()
    decisions, rounds = play(args.games, args.seed)
    elapsed = time.perf_counter() - start
    print(f"games: {args.games}  rounds/game: {rounds / args.games:.2f}  decisions: {decisions}")
    print(f"decisions/s: {decisions / elapsed:,.0f}")
    print(f"games/s: {args.games / elapsed:.0f}")


if __name__ == "__main__":
    main()
