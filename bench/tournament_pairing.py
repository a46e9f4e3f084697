"""Swiss pairing time: milliseconds to pair each round of a simulated Swiss event.

Players get random ratings and every game a random result (draws included, fixed
seed); each round is paired from the whole history, as the service does. The last line
is ``pairing ms: median N  max N``; the line before it gives the same in CPU time, which a
busy shared machine inflates far less than the wall clock.

    python bench/tournament_pairing.py [--players 500] [--rounds 9] [--seed 1]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Sequence

from engine.command_line import CommandLineParser, count, description, seed
from engine.tournaments import Entrant, Game, Result, default_rounds, seeded, swiss_round

MOST_PLAYERS = 5_000
"""Minutes a round at this size: networkx's matching grows about as the cube."""
MOST_ROUNDS = 30


def main(argv: Sequence[str] | None = None) -> int:
    parser = CommandLineParser(prog="bench/tournament_pairing.py", description=description(__doc__))
    parser.add_argument(
        "--players",
        type=count(2, MOST_PLAYERS),
        default=500,
        help=f"players in the event, 2 to {MOST_PLAYERS:,} (500)",
    )
    parser.add_argument(
        "--rounds",
        type=count(1, MOST_ROUNDS),
        default=None,
        help=f"rounds to pair, 1 to {MOST_ROUNDS} (the Swiss default: ceil(log2(players)) + 1)",
    )
    parser.add_argument("--seed", type=seed, default=1, help="seed of ratings and results (1)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    players = seeded([Entrant(p, rng.uniform(1000, 2000)) for p in range(1, args.players + 1)])
    rounds = args.rounds or default_rounds(args.players)
    games: list[Game] = []
    timings: list[float] = []
    cpu: list[float] = []
    for number in range(1, rounds + 1):
        start, start_cpu = time.perf_counter(), time.process_time()
        round_ = swiss_round(players, games, number)
        timings.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        print(
            f"round {number}: {timings[-1]:.0f} ms ({cpu[-1]:.0f} ms CPU),"
            f" {len(round_.pairings)} tables"
        )
        games += [
            Game(number, pairing, None if pairing.is_bye else rng.choice(tuple(Result)))
            for pairing in round_.pairings
        ]
    print(f"players: {args.players}  rounds: {rounds}")
    print(f"pairing CPU ms: median {statistics.median(cpu):.0f}  max {max(cpu):.0f}")
    print(f"pairing ms: median {statistics.median(timings):.0f}  max {max(timings):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
