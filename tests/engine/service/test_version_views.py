"""The per-version cache of a match's views: each seat gets its own view of the state as it
is, never the other seat's and never an older version's, and it holds no more than one
version's views."""

from __future__ import annotations

import random

import pytest

from engine.rules.state import GameState
from engine.rules.views import public_view, view
from engine.service.matches.version_views import VersionViews


def a_played_state(decisions: int, seed: int = 5) -> GameState:
    state = GameState(seed=seed, first_player=0)
    rng = random.Random(seed)
    for _ in range(decisions):
        state.apply(rng.choice(state.legal_decisions()))
    return state


def test_each_seat_gets_its_own_view_equal_to_one_worked_out_afresh():
    state = a_played_state(3)
    views = VersionViews()
    for seat in (0, 1, 0, 1):
        assert views.player(state, seat) == view(state, seat)
    assert views.player(state, 0).hand == state.hand_cards(0)
    assert views.player(state, 1).hand == state.hand_cards(1)
    assert views.player(state, 0).hand != views.player(state, 1).hand
    assert views.public(state) == public_view(state)


def test_a_view_is_worked_out_once_per_version():
    state = a_played_state(2)
    views = VersionViews()
    assert views.player(state, 1) is views.player(state, 1)
    assert views.player(state, 0).table is views.public(state)


def test_a_state_moved_on_in_place_is_never_answered_with_its_older_view():
    state = a_played_state(2)
    views = VersionViews()
    before = views.player(state, 0)
    state.apply(random.Random(1).choice(state.legal_decisions()))  # as a replay does
    after = views.player(state, 0)
    assert after.table.version == before.table.version + 1
    assert after == view(state, 0)


def test_another_state_of_the_same_version_is_not_answered_from_the_cache():
    first, other = a_played_state(4, seed=5), a_played_state(4, seed=6)
    assert first.version == other.version
    views = VersionViews()
    views.player(first, 0)
    assert views.player(other, 0).hand == other.hand_cards(0)


def test_the_cache_holds_one_version_at_most():
    state = a_played_state(0)
    views = VersionViews()
    rng = random.Random(3)
    for _ in range(20):
        views.player(state, 0)
        views.player(state, 1)
        state.apply(rng.choice(state.legal_decisions()))
    views.public(state)
    assert len(views._players) == 0  # only the newest version's public view is held


def test_a_table_of_another_version_is_refused():
    state = a_played_state(2)
    older = public_view(state)
    state.apply(random.Random(2).choice(state.legal_decisions()))
    with pytest.raises(ValueError, match="version 2 given for version 3"):
        view(state, 0, table=older)
