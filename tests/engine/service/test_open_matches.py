"""The open matches held in memory: one object per match, so one lock per match."""

from __future__ import annotations

from engine.service import Placement
from engine.service.matches.live_match import LiveMatch
from engine.service.matches.open_matches import OpenMatches
from tests.builders import match_info


def _live(match_id: int, players: tuple[int, int] = (10, 20)) -> LiveMatch:
    return LiveMatch(match_info(match_id, players))


def test_a_match_loaded_twice_at_once_is_held_once():
    matches = OpenMatches()
    first, again = _live(1), _live(1)

    assert matches.add(first) is first
    assert matches.add(again) is first  # the later load gives way: one lock per match
    assert matches.get(1) is first and len(matches) == 1


def test_removing_a_stale_copy_keeps_the_match_held():
    matches = OpenMatches()
    held, stale = _live(1), _live(1)
    matches.add(held)

    matches.remove(stale)
    assert matches.get(1) is held

    matches.remove(held)
    assert 1 not in matches and list(matches) == []


def test_placing_a_match_changes_only_its_placement():
    live = _live(1)
    OpenMatches.place(live, Placement(thread_id=99, board_message_id=5))
    assert live.info.placement == Placement(99, 5)
    assert live.info.players == (10, 20)


async def test_a_cache_lets_go_only_of_matches_idle_and_untouched():
    matches = OpenMatches()
    idle, recent, busy = _live(1), _live(2), _live(3)
    for live in (idle, recent, busy):
        matches.add(live)
    idle.used_at = busy.used_at = 100.0
    recent.used_at = 900.0

    async with busy.lock:  # someone is deciding on it right now
        assert matches.let_go_of_idle(unused_since=500.0) == 1

    assert 1 not in matches and 2 in matches and 3 in matches
