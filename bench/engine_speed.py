"""Engine speed: complete games with every decision drawn uniformly from the legal list.

Uses only the public API (``new_game``, ``legal_decisions``, ``apply``), on one core.
The last line is ``games/s: N``.

    python bench/engine_speed.py [--games N] [--seed S]
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Sequence

from engine.command_line import CommandLineParser, count, description, seed
from engine.rules import new_game

MOST_GAMES = 10_000_000
"""About an hour at today's 2,000 games/s."""


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


def main(argv: Sequence[str] | None = None) -> int:
    parser = CommandLineParser(prog="bench/engine_speed.py", description=description(__doc__))
    parser.add_argument(
        "--games",
        type=count(1, MOST_GAMES),
        default=20_000,
        help=f"games to play, 1 to {MOST_GAMES:,} (20,000)",
    )
    parser.add_argument("--seed", type=seed, default=1, help="seed of the deals and the choices")
    args = parser.parse_args(argv)
    play(500, args.seed + 10**9)  # warm the legal-decision caches, as a long-running bot would
    start = time.perf_counter()
    decisions, rounds = play(args.games, args.seed)
    elapsed = time.perf_counter() - start
    print(f"games: {args.games}  rounds/game: {rounds / args.games:.2f}  decisions: {decisions}")
    print(f"decisions/s: {decisions / elapsed:,.0f}")
    print(f"games/s: {args.games / elapsed:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
