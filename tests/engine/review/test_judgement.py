"""A review survives storage as JSON, and an old or broken one is refused, not misread."""

from __future__ import annotations

import pytest

from engine.review.judgement import MatchReview, StepJudgement, Verdict
from engine.rules.errors import RecordError


def _step(step: int, player: int, before: float, after: float, verdict: Verdict) -> StepJudgement:
    return StepJudgement(step, 1, player, "3ABC", before, after, "2DE", before, verdict)


REVIEW = MatchReview(
    (
        _step(1, 0, 0.5, 0.5, Verdict.BEST),
        _step(2, 1, 0.5, 0.3, Verdict.MISTAKE),
        _step(3, 1, 0.4, 0.05, Verdict.BLUNDER),
        _step(4, 0, 0.9, 0.85, Verdict.INACCURACY),
        _step(5, 1, 0.2, 0.2, Verdict.FORCED),
    ),
    iterations=800,
)


def test_json_round_trip_keeps_every_judgement() -> None:
    assert MatchReview.from_json(REVIEW.to_json()) == REVIEW


def test_the_worst_mistakes_come_first_and_forced_moves_are_never_flagged() -> None:
    assert [s.step for s in REVIEW.worst(1)] == [3, 2]
    assert [s.step for s in REVIEW.flagged()] == [2, 3, 4]
    assert REVIEW.steps[1].loss == pytest.approx(0.2)


@pytest.mark.parametrize(
    "text",
    ['{"format": 2, "iterations": 1, "steps": []}', "[]", '{"format": 1}', "not json"],
)
def test_a_stored_review_of_another_shape_is_refused(text: str) -> None:
    with pytest.raises(RecordError):
        MatchReview.from_json(text)
