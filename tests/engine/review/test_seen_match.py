"""A finished match seen without its hidden cards holds none of them; seen with them, every
step has them; both see the same public tables, the ones the thread showed."""

from __future__ import annotations

import pytest

from engine.review.seen_match import seen_match
from engine.review.steps import match_steps, state_at
from engine.rules import Secret, TradeOff, public_view
from tests.builders import judged, played_match


@pytest.mark.parametrize("seed", [3, 8])
def test_both_sights_share_the_public_tables_and_moves(seed):
    record, tables = played_match(seed)
    public = seen_match(record, hidden_shown=False, deadlines=(1.0, 2.0))
    full = seen_match(record, hidden_shown=True)
    assert [s.table for s in public.steps] == [s.table for s in full.steps] == tables
    assert [s.move and s.move.public for s in public.steps] == [
        s.move and s.move.public for s in full.steps
    ]
    assert [s.deadline for s in public.steps[:3]] == [1.0, 2.0, None]


def test_only_a_full_sight_holds_the_hidden_cards():
    record, _ = played_match(5)
    public = seen_match(record, hidden_shown=False)
    full = seen_match(record, hidden_shown=True)
    assert all(s.hidden is None for s in public.steps)
    assert all(s.move.hidden is None for s in public.steps if s.move)
    assert all(s.hidden is not None for s in full.steps)
    hidden = [
        at.decision for at, _ in match_steps(record) if isinstance(at.decision, Secret | TradeOff)
    ]
    assert hidden and [s.move.hidden for s in full.steps if s.move and s.move.hidden] == hidden
    assert full.steps[3].hidden.removed == state_at(record, 3).removed
    assert public_view(state_at(record, 3)) == full.steps[3].table


def test_a_judgement_is_never_given_without_the_hidden_cards():
    record, _ = played_match(5)
    with pytest.raises(ValueError, match="only given with the hidden cards"):
        seen_match(record, hidden_shown=False, review=judged(record, {}))
    assert seen_match(record, hidden_shown=True, review=judged(record, {})).review is not None
