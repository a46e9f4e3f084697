"""The review's figures: analysis time per match, agreement with a deeper search, hint time.

    python -m bench.review_figures [--matches 10] [--positions 30] [--depth 10] [--seed 1]

Prints, never asserts (single process; run it on a quiet machine):

1. Analysis time: ``--matches`` matches of hard against normal (seeded deals and agents)
   reviewed with :data:`REVIEW_ITERATIONS`; decisions per match, seconds per match
   (mean, max), seconds per decision.
2. Depth: ``--positions`` non-forced positions of those matches searched with the
   review's budget and with ``--depth`` times it; how often both name the same best
   decision, and how often the review's best is within the GOOD threshold of the deeper
   search's best by the deeper search's own estimates.
3. Hint time: :func:`suggest` on the same positions at :data:`HINT_ITERATIONS` (p50, max).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.ai import agent_for_level
from engine.review.hint import HINT_ITERATIONS, suggest
from engine.review.judge import REVIEW_ITERATIONS, review_match
from engine.review.search import evaluate
from engine.review.steps import match_steps
from engine.review.verdicts import INACCURACY_LOSS
from engine.rules import GameState, view
from engine.rules.record import MatchRecord
from engine.rules.views import PlayerView


def hard_against_normal(seed: int) -> MatchRecord:
    seat = seed % 2
    agents = {seat: agent_for_level("hard"), 1 - seat: agent_for_level("normal")}
    rng = random.Random(f"review-figures/{seed}")
    state = GameState(seed=seed, first_player=(seed // 2) % 2)
    while not state.is_over:
        player = state.current_player
        assert player is not None
        state.apply(agents[player].decide(view(state, player), rng), player)
    return MatchRecord.of(state)


def analysis_time(records: list[MatchRecord], iterations: int) -> None:
    seconds: list[float] = []
    decisions: list[int] = []
    for record in records:
        started = time.perf_counter()
        review = review_match(record, iterations=iterations)
        seconds.append(time.perf_counter() - started)
        decisions.append(len(review.steps))
    print(
        f"analysis time ({len(records)} matches hard vs normal, {iterations} play-outs per "
        f"decision): {statistics.fmean(decisions):.1f} decisions per match "
        f"(max {max(decisions)}), {statistics.fmean(seconds):.1f} s per match mean, "
        f"{max(seconds):.1f} s max, {sum(seconds) / sum(decisions):.3f} s per decision"
    )


def positions(records: list[MatchRecord], count: int, seed: int) -> list[tuple[str, PlayerView]]:
    """``count`` non-forced positions of the matches, drawn evenly with a seeded rng."""
    found = [
        (f"{index}/{step.index}", view(state, step.player))
        for index, record in enumerate(records)
        for step, state in match_steps(record)
        if len(state.legal_decisions()) > 1
    ]
    rng = random.Random(seed)
    return rng.sample(found, min(count, len(found)))


def depth_agreement(chosen: list[tuple[str, PlayerView]], iterations: int, depth: int) -> None:
    same = within = 0
    started = time.perf_counter()
    for name, seen in chosen:
        review_best = evaluate(seen, iterations=iterations, seed=name).best
        deep = evaluate(
            seen, iterations=iterations * depth, seed=f"deep/{name}", include=review_best.decision
        )
        same += deep.best.decision == review_best.decision
        within += deep.best.chance - deep.of(review_best.decision).chance < INACCURACY_LOSS
    total = len(chosen)
    print(
        f"depth ({total} positions, {iterations} vs {iterations * depth} play-outs): same best "
        f"{same}/{total} ({100 * same / total:.0f}%), review's best within the GOOD threshold "
        f"({INACCURACY_LOSS}) of the deeper best {within}/{total} ({100 * within / total:.0f}%) "
        f"({time.perf_counter() - started:.0f} s)"
    )


def hint_time(chosen: list[tuple[str, PlayerView]]) -> None:
    seconds = []
    for _, seen in chosen:
        started = time.perf_counter()
        suggest(seen)
        seconds.append(time.perf_counter() - started)
    print(
        f"hint time ({len(seconds)} positions, {HINT_ITERATIONS} play-outs): "
        f"p50 {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--iterations", type=int, default=REVIEW_ITERATIONS)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"python -m bench.review_figures --matches {args.matches} --positions {args.positions} "
        f"--depth {args.depth} --iterations {args.iterations} --seed {args.seed}"
    )
    records = [hard_against_normal(args.seed * 1000 + i) for i in range(args.matches)]
    analysis_time(records, args.iterations)
    chosen = positions(records, args.positions, args.seed)
    hint_time(chosen)
    depth_agreement(chosen, args.iterations, args.depth)


if __name__ == "__main__":
    main()
