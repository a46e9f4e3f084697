"""The judgement of a decision: blunders named, hidden cards irrelevant, same every time."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine.review.judge import judge_step, review_match
from engine.review.judgement import Verdict
from engine.review.steps import Step, match_steps, state_at
from engine.rules import view
from engine.rules.deal import Deal
from engine.rules.decisions import ChoiceDecision
from engine.rules.record import MatchRecord
from tests.engine.review.matches import (
    BLUNDER_MOVE,
    BLUNDER_RECORD,
    BLUNDER_STEP,
    SAFE_MOVE,
    SCRIPTED_STEP,
    normal_match,
    redealt,
    redealt_for,
    scripted_round,
)

FEW = 150
"""Play-outs per decision where the point is not precision."""


def test_pairing_the_winning_cards_is_a_blunder_and_the_split_is_named() -> None:
    judged = judge_step(MatchRecord.from_json(BLUNDER_RECORD), BLUNDER_STEP, iterations=FEW)
    assert judged.move == BLUNDER_MOVE
    assert judged.verdict in (Verdict.MISTAKE, Verdict.BLUNDER)
    assert judged.verdict.flagged
    assert judged.best == SAFE_MOVE != judged.move
    assert judged.chance_after < 0.1  # the opponent takes G G and wins the match
    assert judged.chance_before == judged.best_chance > 0.3
    assert judged.loss == judged.chance_before - judged.chance_after


@pytest.mark.parametrize("shuffle_seed", [1, 2, 3])
def test_re_dealing_the_cards_the_mover_could_not_see_changes_nothing(shuffle_seed: int) -> None:
    deal = Deal.shuffled(random.Random(40))
    other = redealt(deal, random.Random(shuffle_seed))
    record, twin = scripted_round(deal), scripted_round(other)
    assert twin.rounds[0].deal != record.rounds[0].deal
    before = SCRIPTED_STEP - 1
    assert view(state_at(twin, before), 0) == view(state_at(record, before), 0)
    assert judge_step(twin, SCRIPTED_STEP, iterations=FEW) == judge_step(
        record, SCRIPTED_STEP, iterations=FEW
    )


def _a_choice(record: MatchRecord) -> Step:
    """A decision taking from a Gift or Competition, after the first turns."""
    return next(
        step
        for step, _ in match_steps(record)
        if step.index > 4 and isinstance(step.decision, ChoiceDecision)
    )


def _seat_1_in_round_2(record: MatchRecord) -> Step:
    """Seat 1's third decision of round 2."""
    return [step for step, _ in match_steps(record) if step.round_number == 2 and step.player == 1][
        2
    ]


@pytest.mark.parametrize("which", [_a_choice, _seat_1_in_round_2])
@pytest.mark.parametrize("shuffle_seed", [1, 2])
def test_re_dealing_hidden_cards_changes_nothing_for_a_choice_and_in_round_2(
    which: Callable[[MatchRecord], Step], shuffle_seed: int
) -> None:
    played = normal_match(5)
    step = which(played)
    record, twin = redealt_for(played, step.index, step.player, random.Random(shuffle_seed))
    assert twin.rounds[-1].deal != record.rounds[-1].deal
    assert twin.rounds[-1].deal.hands[step.player] == record.rounds[-1].deal.hands[step.player]
    before = step.index - 1
    assert view(state_at(twin, before), step.player) == view(state_at(record, before), step.player)
    assert judge_step(twin, step.index, iterations=FEW) == judge_step(
        record, step.index, iterations=FEW
    )


def test_the_same_step_is_judged_the_same_every_time_and_by_the_whole_review() -> None:
    record = normal_match(5)
    review = review_match(record, iterations=60)
    assert review.iterations == 60
    assert [s.step for s in review.steps] == list(range(1, len(review.steps) + 1))
    for index in (1, 2, len(review.steps)):
        assert judge_step(record, index, iterations=60) == review.steps[index - 1]


def test_each_step_is_judged_for_its_mover_with_chances_between_0_and_1() -> None:
    record = normal_match(8)
    review = review_match(record, iterations=60)
    for (step, state), judged in zip(match_steps(record), review.steps, strict=True):
        assert judged.player == step.player
        assert judged.round_number == step.round_number
        assert judged.move == str(step.decision)
        assert 0.0 <= judged.chance_after <= judged.chance_before <= 1.0
        assert judged.best in {str(d) for d in state.legal_decisions()}
        if len(state.legal_decisions()) == 1:
            assert judged.verdict is Verdict.FORCED
            assert judged.chance_before == judged.chance_after
        if judged.verdict is Verdict.BEST:
            assert judged.best == judged.move and judged.loss == 0.0


def test_progress_counts_every_step() -> None:
    record = normal_match(5)
    seen: list[tuple[int, int]] = []
    review = review_match(
        record, iterations=10, progress=lambda done, total: seen.append((done, total))
    )
    total = len(review.steps)
    assert seen == [(done, total) for done in range(1, total + 1)]


def test_a_step_outside_the_match_is_refused() -> None:
    record = normal_match(5)
    with pytest.raises(ValueError, match="no decision 0"):
        judge_step(record, 0, iterations=10)
