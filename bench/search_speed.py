"""Play-outs per second of the hard search, on GameStates and on compact positions.

The searches run the hard level's settings (match-chance play-outs, reading the
opponent, its root candidates) over the same positions of seeded random games, each
position searched from the same seed, with no time guard; the figure is play-outs per CPU
second of this process (one core). The first two rows make the same search (a tree over
every legal decision, one random offer per Gift or Competition in a play-out): the compact
search draws the same random numbers as the GameState one, so both do exactly the same
work. The third is hard as shipped: the compact search with its kind tree (its offers the
least helpful of all) and weighed offers in the play-outs, which costs more per play-out.
Quote the load (``uptime``) beside the figures.

    python bench/search_speed.py [--positions N] [--iterations N] [--seed S]
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Sequence

from engine.ai.levels import hard_agent
from engine.command_line import CommandLineParser, count, description, fail, seed
from engine.rules import GameState, view
from engine.rules.views import PlayerView

PROG = "bench/search_speed.py"
MOST_POSITIONS = 10_000
MOST_ITERATIONS = 100_000


def sample_views(how_many: int, seed: int) -> list[PlayerView]:
    """Views with a choice to make, from random games, every other decision point."""
    rng = random.Random(seed)
    found: list[PlayerView] = []
    game = 0
    while len(found) < how_many:
        state = GameState(seed=seed * 1000 + game, first_player=game % 2)
        game += 1
        while not state.is_over and len(found) < how_many:
            player = state.current_player
            assert player is not None
            if len(state.legal_decisions()) > 1 and rng.random() < 0.5:
                found.append(view(state, player))
            state.apply(rng.choice(state.legal_decisions()))
    return found


def play_outs_per_second(
    views: list[PlayerView], iterations: int, *, compact: bool, shipped: bool = False
) -> tuple[int, float]:
    """Play-outs searched over ``views`` and the CPU seconds they took: hard's search as
    shipped, or (``shipped`` False) the one search both paths can make."""
    agent = hard_agent()  # its settings, on the path asked for, with no clock
    agent.iterations, agent.time_limit, agent.compact = iterations, None, compact
    if not shipped:
        agent.kind_tree, agent.offer_tries, agent.least_helpful_offers = False, 1, False
    done = 0
    cpu = 0.0
    for index, seen in enumerate(views):
        candidates = agent.root_decisions(seen)
        start = time.process_time()
        root = agent.search(seen, candidates, random.Random(index))
        cpu += time.process_time() - start
        done += sum(node.visits for node in root.children.values())
    return done, cpu


def main(argv: Sequence[str] | None = None) -> int:
    parser = CommandLineParser(prog=PROG, description=description(__doc__))
    parser.add_argument(
        "--positions",
        type=count(1, MOST_POSITIONS),
        default=40,
        help=f"positions searched, 1 to {MOST_POSITIONS:,} (40)",
    )
    parser.add_argument(
        "--iterations",
        type=count(1, MOST_ITERATIONS),
        default=3000,
        help=f"play-outs per position, 1 to {MOST_ITERATIONS:,} (3000)",
    )
    parser.add_argument("--seed", type=seed, default=1, help="seed of the games and searches")
    args = parser.parse_args(argv)
    views = sample_views(args.positions, args.seed)
    rows = (("gamestate", False, False), ("compact", True, False), ("hard", True, True))
    for _, compact, shipped in rows:  # warm the legal-decision caches
        play_outs_per_second(views[:3], 50, compact=compact, shipped=shipped)
    rates = []
    for label, compact, shipped in rows:
        done, cpu = play_outs_per_second(views, args.iterations, compact=compact, shipped=shipped)
        if done == 0 or cpu <= 0:
            return fail(PROG, f"the {label} search measured nothing")
        rates.append(done / cpu)
        print(f"{label:<9} play-outs {done:>8}  cpu {cpu:7.2f} s  {done / cpu:8.0f} per second")
    print(f"speed-up of the same search {rates[1] / rates[0]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
