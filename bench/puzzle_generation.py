"""Puzzle generation's figures: its time per match beside the review's, and how often a
search ten times deeper picks the same answer among the choices a puzzle offers.

    python bench/puzzle_generation.py [--matches 10] [--depth 10] [--seed 1]
        [--iterations 4000]

Prints, never asserts (run it on a quiet machine; progress goes to stderr):

1. Time: ``--matches`` matches of hard-v1 against normal, made as
   ``bench/review_figures.py`` makes them (the same seeds give the same matches), each
   reviewed by :func:`review_match` at :data:`REVIEW_ITERATIONS`, then given to
   :func:`find_puzzles` at ``--iterations`` play-outs; seconds per match of each (mean,
   max), puzzles per match (mean, total), and whether finding the puzzles takes less time
   than the review it follows.
2. Depth: each puzzle's position (:func:`puzzle_view`) searched again with ``--depth``
   times the play-outs; how often the deeper search's best among the puzzle's offered
   choices is the puzzle's solution (target: 90%), and the puzzles where it is not.
3. The load average before and after, and the wall time.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# bench/ is not an installed package: make `python bench/puzzle_generation.py` import the
# review figures' matches from the repository root.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.review_figures import hard_against_normal  # noqa: E402
from engine.command_line import CommandLineParser, count, description, seed  # noqa: E402
from engine.puzzles import MAX_CHOICES, PUZZLE_ITERATIONS, Puzzle, find_puzzles, puzzle_view  # noqa: E402
from engine.review.judge import REVIEW_ITERATIONS, review_match  # noqa: E402
from engine.review.search import MOST_ITERATIONS, Estimate, evaluate  # noqa: E402
from engine.rules.decisions import parse_decision  # noqa: E402
from engine.rules.record import MatchRecord  # noqa: E402

PROG = "bench/puzzle_generation.py"
MOST_MATCHES = 1_000
MOST_DEPTH = 100
AGREEMENT_TARGET = 0.9


@dataclass(frozen=True, slots=True)
class Found:
    """A puzzle and the match it was found in."""

    match: int
    record: MatchRecord
    puzzle: Puzzle


def verdict(met: bool) -> str:
    return "OK" if met else "MISSED"


def generation_time(records: list[MatchRecord], iterations: int) -> list[Found]:
    """Review each match, then find its puzzles, both timed; print the figures."""
    review_seconds: list[float] = []
    puzzle_seconds: list[float] = []
    found: list[Found] = []
    for index, record in enumerate(records):
        started = time.perf_counter()
        review = review_match(record, iterations=REVIEW_ITERATIONS)
        review_seconds.append(time.perf_counter() - started)
        started = time.perf_counter()
        puzzles = find_puzzles(record, review, iterations=iterations)
        puzzle_seconds.append(time.perf_counter() - started)
        found.extend(Found(index, record, puzzle) for puzzle in puzzles)
        print(
            f"match {index + 1}/{len(records)}: review {review_seconds[-1]:.1f} s, "
            f"{len(review.flagged())} flagged, {len(puzzles)} puzzles in "
            f"{puzzle_seconds[-1]:.1f} s",
            file=sys.stderr,
        )
    review_mean = statistics.fmean(review_seconds)
    puzzle_mean = statistics.fmean(puzzle_seconds)
    matches = len(records)
    print(
        f"review time ({matches} matches hard-v1 vs normal, {REVIEW_ITERATIONS} play-outs per "
        f"decision): {review_mean:.1f} s per match mean, {max(review_seconds):.1f} s max"
    )
    print(
        f"puzzle time ({iterations} play-outs per flagged decision): {puzzle_mean:.1f} s per "
        f"match mean, {max(puzzle_seconds):.1f} s max; {len(found) / matches:.1f} puzzles per "
        f"match mean, {len(found)} in all"
    )
    print(
        f"puzzle time per match < review time per match: {verdict(puzzle_mean < review_mean)} "
        f"({puzzle_mean:.1f} s vs {review_mean:.1f} s)"
    )
    return found


def _chances(puzzle: Puzzle, deeper: dict[str, Estimate]) -> str:
    """Each offered choice's chance by the puzzle's search and by the deeper one."""
    shown = []
    for choice in puzzle.choices:
        estimate = deeper.get(choice.decision)
        again = "not searched" if estimate is None else f"{estimate.chance:.3f}"
        shown.append(f"{choice.decision} {choice.chance:.3f} -> {again}")
    return ", ".join(shown)


def depth_agreement(found: list[Found], iterations: int, depth: int) -> None:
    """Search each puzzle's position ``depth`` times deeper; print how often it agrees."""
    deeper_iterations = iterations * depth
    agree = outside = 0
    disagreements: list[str] = []
    started = time.perf_counter()
    for number, item in enumerate(found, 1):
        puzzle = item.puzzle
        deeper = evaluate(
            puzzle_view(item.record, puzzle.step),
            iterations=deeper_iterations,
            seed=f"deeper/{puzzle.step}",
            include=parse_decision(puzzle.played),
            runners_up=MAX_CHOICES - 2,
        )
        offered = {choice.decision for choice in puzzle.choices}
        # Ranked best first, a choice short of the minimum visits below every one with them.
        among = [e for e in deeper.estimates if str(e.decision) in offered]
        best = str(among[0].decision)
        outside += str(deeper.best.decision) not in offered
        agree += best == puzzle.solution
        if best != puzzle.solution:
            estimates = {str(e.decision): e for e in deeper.estimates}
            disagreements.append(
                f"  match {item.match + 1} step {puzzle.step}: solution {puzzle.solution}, "
                f"deeper best {best}; chances (puzzle -> deeper) {_chances(puzzle, estimates)}"
            )
        print(
            f"puzzle {number}/{len(found)} (match {item.match + 1} step {puzzle.step}): "
            f"{'agrees' if best == puzzle.solution else 'differs'}",
            file=sys.stderr,
        )
    total = len(found)
    if total == 0:
        print(f"depth ({iterations} vs {deeper_iterations} play-outs): no puzzles to search")
        print(f"target >= {AGREEMENT_TARGET:.0%}: not measured (no puzzles)")
        return
    share = agree / total
    print(
        f"depth ({total} puzzles, {iterations} vs {deeper_iterations} play-outs): the deeper "
        f"search's best among the offered choices is the solution {agree}/{total} "
        f"({share:.0%}); its best overall is not offered in {outside}/{total} "
        f"({time.perf_counter() - started:.0f} s)"
    )
    print(f"target >= {AGREEMENT_TARGET:.0%}: {verdict(share >= AGREEMENT_TARGET)}")
    if disagreements:
        print(f"disagreements ({len(disagreements)}):")
        print("\n".join(disagreements))


def main(argv: Sequence[str] | None = None) -> int:
    parser = CommandLineParser(prog=PROG, description=description(__doc__))
    parser.add_argument(
        "--matches",
        type=count(1, MOST_MATCHES),
        default=10,
        help=f"matches of hard-v1 against normal, 1 to {MOST_MATCHES:,} (10)",
    )
    parser.add_argument(
        "--depth",
        type=count(1, MOST_DEPTH),
        default=10,
        help=f"how many times deeper the second search goes, 1 to {MOST_DEPTH} (10)",
    )
    parser.add_argument("--seed", type=seed, default=1, help="seed of the matches (1)")
    parser.add_argument(
        "--iterations",
        type=count(1, MOST_ITERATIONS),
        default=PUZZLE_ITERATIONS,
        help=f"play-outs of a puzzle's search, 1 to {MOST_ITERATIONS:,} ({PUZZLE_ITERATIONS})",
    )
    args = parser.parse_args(argv)
    if args.iterations * args.depth > MOST_ITERATIONS:
        parser.error(
            f"--iterations {args.iterations} times --depth {args.depth} is above "
            f"{MOST_ITERATIONS:,} play-outs per decision"
        )
    print(
        f"{PROG} --matches {args.matches} --depth {args.depth} --seed {args.seed} "
        f"--iterations {args.iterations}"
    )
    load_before = os.getloadavg()
    started = time.perf_counter()
    records = []
    for index in range(args.matches):
        # The seeds bench/review_figures.py uses: the same matches.
        records.append(hard_against_normal(args.seed * 1000 + index))
        print(f"match {index + 1}/{args.matches} played", file=sys.stderr)
    found = generation_time(records, args.iterations)
    depth_agreement(found, args.iterations, args.depth)
    load_after = os.getloadavg()
    print(
        f"load average (1, 5, 15 min) on {os.cpu_count()} cores: before "
        f"{', '.join(f'{x:.2f}' for x in load_before)}; after "
        f"{', '.join(f'{x:.2f}' for x in load_after)}; wall time "
        f"{time.perf_counter() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
