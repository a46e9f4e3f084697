"""The data behind the review's verdict thresholds (engine/review/verdicts.py).

    python -m bench.review_losses [--matches 12] [--positions 120] [--iterations N] [--seed 1]

Prints, never asserts:

1. The search's noise: positions from normal-vs-normal matches are searched twice with
   different seeds; the "loss" the second search gives the first one's best decision is
   pure noise (the same decision, judged again). Its percentiles bound what a GOOD
   decision may appear to lose.
2. The loss distributions of the decisions of each AI level (hard, normal, easy, random)
   playing ``--matches`` matches against normal, every non-forced decision of the
   measured side judged as the review judges it: percentiles and the share of each
   verdict with the thresholds in force.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence

from engine.ai import LEVELS, agent_for_level
from engine.command_line import CommandLineParser, count, description, fail, seed
from engine.review.judge import REVIEW_ITERATIONS, review_match
from engine.review.judgement import Verdict
from engine.review.search import MOST_ITERATIONS, evaluate
from engine.review.verdicts import BLUNDER_LOSS, INACCURACY_LOSS, MISTAKE_LOSS
from engine.rules import GameState, view
from engine.rules.record import MatchRecord
from engine.rules.views import PlayerView

LEVELS_MEASURED = ("hard", "normal", "easy", "random")
PERCENTILES = (50, 75, 90, 95, 99)
PROG = "python -m bench.review_losses"
MOST_MATCHES = 1_000
MOST_POSITIONS = 10_000


def play_match(level: str, seat: int, seed: int) -> MatchRecord:
    """A match of ``level`` in ``seat`` against normal, from seeded deals and agents."""
    agents = {seat: agent_for_level(level), 1 - seat: agent_for_level("normal")}
    rng = random.Random(f"review-losses/{seed}")
    state = GameState(seed=seed, first_player=seed % 2)
    while not state.is_over:
        player = state.current_player
        assert player is not None
        state.apply(agents[player].decide(view(state, player), rng), player)
    return MatchRecord.of(state)


def percentiles(values: list[float]) -> str:
    if len(values) < 2:
        return "n/a"
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return ", ".join(f"p{p} {cuts[p - 1]:.3f}" for p in PERCENTILES)


def noise_positions(count: int, seed: int) -> list[PlayerView]:
    """Views of players with a real choice, from normal-vs-normal matches."""
    views: list[PlayerView] = []
    match = 0
    while len(views) < count:
        state = GameState(seed=seed * 1000 + match, first_player=match % 2)
        agent = agent_for_level("normal")
        rng = random.Random(match)
        while not state.is_over and len(views) < count:
            player = state.current_player
            assert player is not None
            seen = view(state, player)
            if len(seen.legal) > 1:
                views.append(seen)
            state.apply(agent.decide(seen, rng), player)
        match += 1
    return views


def measure_noise(count: int, iterations: int, seed: int) -> list[float]:
    """Per position, the loss a second search gives the first search's best decision."""
    losses = []
    for index, seen in enumerate(noise_positions(count, seed)):
        first = evaluate(seen, iterations=iterations, seed=f"noise/a/{index}").best
        second = evaluate(
            seen, iterations=iterations, seed=f"noise/b/{index}", include=first.decision
        )
        losses.append(max(0.0, second.best.chance - second.of(first.decision).chance))
    return losses


def level_losses(
    level: str, matches: int, iterations: int, seed: int
) -> tuple[list[float], Counter[Verdict]]:
    losses: list[float] = []
    verdicts: Counter[Verdict] = Counter()
    for match in range(matches):
        seat = match % 2
        record = play_match(level, seat, seed * 1000 + match)
        for judged in review_match(record, iterations=iterations).steps:
            if judged.player != seat or judged.verdict is Verdict.FORCED:
                continue
            losses.append(judged.loss)
            verdicts[judged.verdict] += 1
    return losses, verdicts


def main(argv: Sequence[str] | None = None) -> int:
    parser = CommandLineParser(prog=PROG, description=description(__doc__))
    parser.add_argument(
        "--matches",
        type=count(1, MOST_MATCHES),
        default=12,
        help=f"matches per level, 1 to {MOST_MATCHES:,} (12)",
    )
    parser.add_argument(
        "--positions",
        type=count(0, MOST_POSITIONS),
        default=120,
        help=f"positions for the noise, 0 (none) to {MOST_POSITIONS:,} (120)",
    )
    parser.add_argument(
        "--iterations",
        type=count(1, MOST_ITERATIONS),
        default=REVIEW_ITERATIONS,
        help=f"play-outs per decision, 1 to {MOST_ITERATIONS:,} ({REVIEW_ITERATIONS})",
    )
    parser.add_argument("--seed", type=seed, default=1, help="seed of the matches and positions")
    parser.add_argument(
        "--levels",
        nargs="*",
        choices=LEVELS,
        default=list(LEVELS_MEASURED),
        help=f"levels whose losses are measured ({' '.join(LEVELS_MEASURED)}); none: noise only",
    )
    args = parser.parse_args(argv)
    if args.positions == 0 and not args.levels:
        parser.error("--positions 0 and no --levels: nothing to measure")
    print(
        f"python -m bench.review_losses --matches {args.matches} --positions {args.positions} "
        f"--iterations {args.iterations} --seed {args.seed} --levels {' '.join(args.levels)}"
    )
    print(
        f"thresholds in force: inaccuracy {INACCURACY_LOSS}, mistake {MISTAKE_LOSS}, "
        f"blunder {BLUNDER_LOSS}"
    )
    if args.positions > 0:
        started = time.perf_counter()
        noise = measure_noise(args.positions, args.iterations, args.seed)
        print(
            f"noise ({len(noise)} positions searched twice): {percentiles(noise)}; "
            f"mean {statistics.fmean(noise):.3f} ({time.perf_counter() - started:.0f} s)"
        )
    for level in args.levels:
        started = time.perf_counter()
        losses, verdicts = level_losses(level, args.matches, args.iterations, args.seed)
        total = sum(verdicts.values())
        if total == 0:  # every decision forced: no share to print
            return fail(PROG, f"{level} made no decision with a choice in {args.matches} matches")
        shares = ", ".join(
            f"{v} {100 * verdicts[v] / total:.0f}%"
            for v in (
                Verdict.BEST,
                Verdict.GOOD,
                Verdict.INACCURACY,
                Verdict.MISTAKE,
                Verdict.BLUNDER,
            )
        )
        print(
            f"{level:>6}: {total} decisions, losses {percentiles(losses)}; {shares} "
            f"({time.perf_counter() - started:.0f} s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
