"""The open matches table: indexes by player and thread, and the per-player limit."""

from __future__ import annotations

import pytest

from engine.rules.state import Variant
from engine.service import (
    AI_USER_ID,
    ExpiryPolicy,
    MatchInfo,
    MatchStatus,
    Placement,
    TooManyActiveMatches,
)
from engine.service.live_match import LiveMatch
from engine.service.open_matches import OpenMatches


def _live(match_id: int, players: tuple[int, int]) -> LiveMatch:
    info = MatchInfo(
        match_id=match_id,
        status=MatchStatus.PENDING,
        variant=Variant.STANDARD,
        players=players,
        guild_id=1,
        channel_id=2,
        turn_seconds=60.0,
        expiry_policy=ExpiryPolicy.AI,
        created_at=0.0,
    )
    return LiveMatch(info)


def test_a_match_is_found_by_its_players_and_thread_until_removed():
    matches = OpenMatches(max_per_player=5)
    first, second = _live(1, (10, 20)), _live(2, (10, AI_USER_ID))
    matches.add(first)
    matches.add(second)
    matches.place(first, Placement(thread_id=99))

    assert [m.match_id for m in matches.of_player(10)] == [1, 2]
    assert matches.of_player(AI_USER_ID) == []
    assert matches.in_thread(99) is first

    matches.remove(first)

    assert 1 not in matches and matches.in_thread(99) is None
    assert [m.match_id for m in matches.of_player(10)] == [2]


def test_a_match_being_created_counts_against_the_limit():
    matches = OpenMatches(max_per_player=1)
    with matches.reserve(10, 20):
        assert matches.open_count(10) == 1
        refused = pytest.raises(TooManyActiveMatches, match="user 10 already has 1 open matches")
        with refused, matches.reserve(10, 30):
            pass
    assert matches.open_count(10) == 0
