"""Fit the match-chance table: ``python -m engine.review.fit_chances --seed 1``.

1. Sample rounds: deal a fresh round and play it out with the search's play-out policy
   (:func:`engine.ai.ismcts.finish_round`, the same policy whose rounds the review's search
   values), and keep which side won each geisha's majority (or a tie). The policy does not
   look at the favor markers, so one sample of rounds serves every favor position; the
   rounds are dealt with player 0 starting, and mirrored for player 1 starting, so the
   table is exactly symmetric.
2. Value iteration over the 3^7 favor positions and the next round's starter: a
   position's chance is the mean, over the sampled rounds, of the chance after scoring
   them on it (exact when a goal is reached). The three-round variant is solved backwards
   from round 3, where the better score wins.

The result is written to ``engine/ai/match_chances.json`` (committed, shipped as
package data) and is the same for the same ``--seed`` and ``--rounds``.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

from engine import command_line
from engine.ai.ismcts import finish_round
from engine.ai.match_chance import (
    FAVOR_POSITIONS,
    TABLE_FILE,
    TABLE_FORMAT,
    favor_of_index,
    finished_score,
)
from engine.rules.state import THREE_ROUND_LIMIT, GameState, Variant

DEFAULT_ROUNDS = 100_000
MOST_ROUNDS = 10_000_000
"""A hundred times the default: about an hour and a half, enough for any refit."""
TOLERANCE = 1e-10
"""Value iteration stops when no chance moves by more than this in a sweep."""

Outcome = tuple[int, ...]
"""Per geisha: 0 neutral (a tie), 1 won by player 0, 2 won by player 1 (favor digits)."""


def sample_outcomes(rounds: int, seed: int) -> Counter[Outcome]:
    """How often each majority outcome came up in ``rounds`` rounds started by player 0."""
    rng = random.Random(f"hanamikoji/fit-chances/{seed}")
    counts: Counter[Outcome] = Counter()
    for _ in range(rounds):
        state = GameState(seed=rng.getrandbits(63), first_player=0)
        finish_round(state, 0, rng)
        mine, theirs = state.results[0].items
        counts[
            tuple(1 if a > b else 2 if b > a else 0 for a, b in zip(mine, theirs, strict=True))
        ] += 1
    return counts


def _mirror(outcome: Outcome) -> Outcome:
    return tuple((3 - d) % 3 for d in outcome)


class Transitions:
    """The sampled rounds as (probability, decided part, tie mask) per starter, with the
    favor rows' digits kept on ties precomputed, so a sweep is additions and lookups."""

    def __init__(self, counts: Counter[Outcome]) -> None:
        total = sum(counts.values())
        by_starter: list[list[tuple[float, int, int]]] = [[], []]
        for outcome, count in sorted(counts.items()):
            for starter, seen in ((0, outcome), (1, _mirror(outcome))):
                decided = sum(d * 3**g for g, d in enumerate(seen))
                ties = sum(1 << g for g, d in enumerate(seen) if d == 0)
                by_starter[starter].append((count / total, decided, ties))
        self.by_starter = by_starter
        # kept[ties][row]: the part of favor row ``row`` that survives a round tying ``ties``.
        self.kept = [
            [
                sum((row // 3**g % 3) * 3**g for g in range(7) if ties >> g & 1)
                for row in range(FAVOR_POSITIONS)
            ]
            for ties in range(128)
        ]

    def after(self, row: int, starter: int, value: list[float]) -> float:
        """The mean of ``value`` over the favor rows after one sampled round from ``row``."""
        kept = self.kept
        total = 0.0
        for p, decided, ties in self.by_starter[starter]:
            total += p * value[decided + kept[ties][row]]
        return total


def _end_values(
    chances: tuple[list[float], list[float]], variant: Variant, rounds_played: int
) -> tuple[list[float], list[float]]:
    """Chance at a round's end per next starter: exact if over, else ``chances``."""
    ends: tuple[list[float], list[float]] = ([], [])
    for starter in (0, 1):
        for row in range(FAVOR_POSITIONS):
            done = finished_score(favor_of_index(row), rounds_played, variant)
            ends[starter].append(chances[starter][row] if done is None else done)
    return ends


def solve_standard(transitions: Transitions, log: list[str]) -> tuple[list[float], list[float]]:
    """Round-end chances of the standard game by value iteration (the match always ends)."""
    chances: tuple[list[float], list[float]] = ([0.5] * FAVOR_POSITIONS, [0.5] * FAVOR_POSITIONS)
    sweep = 0
    while True:
        sweep += 1
        ends = _end_values(chances, Variant.STANDARD, 0)
        change = 0.0
        fresh: tuple[list[float], list[float]] = ([], [])
        for starter in (0, 1):
            # A round started by ``starter`` leads to a round-end where the other starts.
            nxt = ends[1 - starter]
            for row in range(FAVOR_POSITIONS):
                value = transitions.after(row, starter, nxt)
                change = max(change, abs(value - chances[starter][row]))
                fresh[starter].append(value)
        chances = fresh
        if change < TOLERANCE:
            log.append(f"standard: {sweep} sweeps, last change {change:.1e}")
            return _end_values(chances, Variant.STANDARD, 0)


def solve_three_rounds(transitions: Transitions) -> list[tuple[list[float], list[float]]]:
    """Round-end chances of the three-round variant per rounds played (0 to 2), backwards."""
    by_rounds: list[tuple[list[float], list[float]]] = []
    ends = _end_values(([0.5] * FAVOR_POSITIONS, [0.5] * FAVOR_POSITIONS), Variant.THREE_ROUNDS, 3)
    for rounds_played in range(THREE_ROUND_LIMIT - 1, -1, -1):
        chances: tuple[list[float], list[float]] = ([], [])
        for starter in (0, 1):
            for row in range(FAVOR_POSITIONS):
                chances[starter].append(transitions.after(row, starter, ends[1 - starter]))
        ends = _end_values(chances, Variant.THREE_ROUNDS, rounds_played)
        by_rounds.append(ends)
    by_rounds.reverse()
    return by_rounds


def fit(rounds: int, seed: int, log: list[str]) -> dict[str, object]:
    started = time.perf_counter()
    counts = sample_outcomes(rounds, seed)
    log.append(f"{rounds} rounds sampled, {len(counts)} distinct outcomes")
    transitions = Transitions(counts)
    standard = solve_standard(transitions, log)
    three = solve_three_rounds(transitions)
    log.append(f"fitted in {time.perf_counter() - started:.0f} s")

    def rows(pair: tuple[list[float], list[float]]) -> list[list[float]]:
        return [[round(v, 5) for v in row] for row in pair]

    return {
        "format": TABLE_FORMAT,
        "method": "rounds played out by engine.ai.ismcts.finish_round, value iteration",
        "rounds": rounds,
        "seed": seed,
        "standard": rows(standard),
        "three-rounds": [rows(pair) for pair in three],
    }


def main(argv: list[str] | None = None) -> int:
    parser = command_line.CommandLineParser(
        prog="python -m engine.review.fit_chances", description=__doc__
    )
    parser.add_argument(
        "--seed", type=command_line.seed, default=1, help="seed of the sampled rounds"
    )
    parser.add_argument(
        "--rounds",
        type=command_line.count(1, MOST_ROUNDS),
        default=DEFAULT_ROUNDS,
        help=f"rounds to sample, 1 to {MOST_ROUNDS:,} (default {DEFAULT_ROUNDS:,})",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).parents[1] / "ai" / TABLE_FILE,
        help="where to write the table (default: the package's own file)",
    )
    args = parser.parse_args(argv)
    if not args.out.parent.is_dir() or args.out.is_dir():
        # Refused now, not after a minute of fitting.
        parser.error(f"--out {str(args.out)!r} must be a file in an existing folder")
    log: list[str] = []
    table = fit(args.rounds, args.seed, log)
    try:
        args.out.write_text(json.dumps(table, separators=(",", ":")) + "\n", encoding="utf-8")
    except OSError as error:
        return command_line.fail(
            parser.prog, f"cannot write {str(args.out)!r}: {error.strerror or error}"
        )
    for line in log:
        print(line, file=sys.stderr)
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
