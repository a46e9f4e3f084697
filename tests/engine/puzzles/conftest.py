"""Puzzles generated once per test process and shared: every decision of a few seeded
random matches flagged, so that every decision a puzzle can come from is searched again.

Random play leaves many decisions that a search finds clearly worse than another, so these
matches give puzzles of every kind (offers, takes, hidden actions) in every round.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine.puzzles import Puzzle, find_puzzles
from engine.review.judgement import Verdict
from engine.review.steps import match_steps
from engine.rules.record import MatchRecord
from tests.builders import judged, played_match

SEEDS = (2, 3, 4)
ITERATIONS = 400
"""Small, for speed: what these tests check holds at any budget."""


@dataclass(frozen=True, slots=True)
class Generated:
    record: MatchRecord
    puzzle: Puzzle


def every_step_flagged(record: MatchRecord) -> dict[int, Verdict]:
    return {step.index: Verdict.BLUNDER for step, _ in match_steps(record)}


@pytest.fixture(scope="session")
def generated() -> list[Generated]:
    found = []
    for seed in SEEDS:
        record, _ = played_match(seed)
        review = judged(record, every_step_flagged(record))
        found += [Generated(record, p) for p in find_puzzles(record, review, iterations=ITERATIONS)]
    assert len(found) >= 8, "the seeded matches should give puzzles to check"
    return found
