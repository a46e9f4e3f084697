"""The puzzle streak through the service: a run climbs the ladder of puzzles the member
never tried (by rating, the easier first), unrated; a miss ends it; the run and the best
survive a restart; an old button counts for nothing; two presses at once pose one puzzle;
a climbed ladder ends the run unbroken; streak and rated puzzles never pose one twice."""

from __future__ import annotations

import asyncio

import pytest

from engine.model.puzzles import PuzzleAttempt
from engine.puzzles.builtin import builtin_puzzles
from engine.ratings import Glicko2Rating
from engine.service import MatchService
from engine.service.puzzles.errors import (
    AlreadyAttempted,
    LadderClimbed,
    NotAChoice,
    NotInStreak,
)
from engine.service.puzzles.streaks import StreakStep

from .conftest import ServiceFactory

GUILD = 1
MEMBER = 101
OTHER = 202
BUILTIN = {p.key: p.puzzle for p in builtin_puzzles()}


def ladder_place(key: str, rating: float = 1500.0) -> tuple[float, float, str]:
    """Where a puzzle stands on the ladder (rating, the easier first, key)."""
    return (rating, -BUILTIN[key].ease, key)


def wrong(step: StreakStep) -> str:
    puzzle = step.posed.puzzle
    return next(c.decision for c in puzzle.choices if not puzzle.solved_by(c.decision))


async def solve(service: MatchService, step: StreakStep):  # type: ignore[no-untyped-def]
    return await service.puzzle_streaks.answer(
        GUILD, MEMBER, step.posed.key, step.posed.puzzle.solution
    )


async def test_a_streak_starts_with_the_easiest_and_climbs_unrated(service):
    first = await service.puzzle_streaks.go_on(GUILD, MEMBER)
    assert first.solved == 0 and first.best == 0
    assert first.posed.key == min(BUILTIN, key=ladder_place), "the bottom rung"
    places = [ladder_place(first.posed.key)]
    step = first
    for count in range(1, 6):
        answer = await solve(service, step)
        assert answer.solved and answer.after.run is not None
        assert answer.after.run.solved == count and answer.after.run_best == count
        assert answer.after.rating == Glicko2Rating() and answer.after.attempts == 0, "unrated"
        stored = await service.store.puzzle(step.posed.key)
        assert stored is not None and stored.rating == Glicko2Rating() and stored.attempts == 1
        step = await service.puzzle_streaks.go_on(GUILD, MEMBER)
        assert step.solved == count
        places.append(ladder_place(step.posed.key))
    assert places == sorted(places) and len(set(places)) == 6, "each rung above the last"


async def test_a_miss_ends_the_run_and_the_next_starts_from_the_bottom_of_what_is_left(service):
    tried = []
    for _ in range(2):
        step = await service.puzzle_streaks.go_on(GUILD, MEMBER)
        await solve(service, step)
        tried.append(step.posed.key)
    step = await service.puzzle_streaks.go_on(GUILD, MEMBER)
    tried.append(step.posed.key)
    missed = await service.puzzle_streaks.answer(GUILD, MEMBER, step.posed.key, wrong(step))
    assert not missed.solved
    assert missed.before.run is not None and missed.before.run.solved == 2
    assert missed.after.run is None and missed.after.run_best == 2
    standing = await service.store.puzzle_standing(GUILD, MEMBER)
    assert standing is not None and standing.attempts == 0
    assert standing.rating == Glicko2Rating(), "unrated"

    again = await service.puzzle_streaks.go_on(GUILD, MEMBER)
    assert again.solved == 0 and again.best == 2
    assert again.posed.key == min(set(BUILTIN) - set(tried), key=ladder_place)


async def test_the_run_survives_a_restart(make_service: ServiceFactory):
    service = await make_service()
    step = await service.puzzle_streaks.go_on(GUILD, MEMBER)
    await solve(service, step)
    posed = await service.puzzle_streaks.go_on(GUILD, MEMBER)
    await service.close()

    again = await make_service()
    resumed = await again.puzzle_streaks.go_on(GUILD, MEMBER)
    assert resumed.posed.key == posed.posed.key and resumed.solved == 1, "the same puzzle"
    answer = await again.puzzle_streaks.answer(
        GUILD, MEMBER, resumed.posed.key, resumed.posed.puzzle.solution
    )
    assert answer.after.run is not None and answer.after.run.solved == 2


async def test_an_old_button_a_second_press_and_a_forged_choice_count_for_nothing(service):
    first = await service.puzzle_streaks.go_on(GUILD, MEMBER)
    with pytest.raises(NotAChoice):
        await service.puzzle_streaks.answer(GUILD, MEMBER, first.posed.key, "1Z")
    await solve(service, first)
    with pytest.raises(AlreadyAttempted):  # the same button pressed again
        await service.puzzle_streaks.answer(GUILD, MEMBER, first.posed.key, wrong(first))
    second = await service.puzzle_streaks.go_on(GUILD, MEMBER)
    not_posed = next(k for k in BUILTIN if k not in (first.posed.key, second.posed.key))
    with pytest.raises(NotInStreak):  # a puzzle the run does not pose (a forged id)
        await service.puzzle_streaks.answer(GUILD, MEMBER, not_posed, BUILTIN[not_posed].solution)
    standing = await service.puzzle_streaks.go_on(GUILD, MEMBER)
    assert standing.posed.key == second.posed.key and standing.solved == 1, "nothing moved"
    assert await service.store.puzzle(not_posed) is not None
    assert (await service.store.puzzle(not_posed)).attempts == 0  # type: ignore[union-attr]


async def test_two_presses_of_next_at_once_pose_one_puzzle(service):
    await solve(service, await service.puzzle_streaks.go_on(GUILD, MEMBER))
    one, two = await asyncio.gather(
        service.puzzle_streaks.go_on(GUILD, MEMBER), service.puzzle_streaks.go_on(GUILD, MEMBER)
    )
    assert one.posed.key == two.posed.key
    standing = await service.puzzles.standing(GUILD, MEMBER)
    assert standing.run is not None and standing.run.key == one.posed.key


async def test_a_new_streak_ends_the_run_under_way(service):
    await solve(service, await service.puzzle_streaks.go_on(GUILD, MEMBER))
    posed = await service.puzzle_streaks.go_on(GUILD, MEMBER)
    fresh = await service.puzzle_streaks.start(GUILD, MEMBER)
    assert fresh.solved == 0 and fresh.best == 1
    # The unanswered puzzle was never attempted: it is the new run's bottom rung again.
    assert fresh.posed.key == posed.posed.key


async def test_streak_and_rated_puzzles_never_pose_one_twice(service):
    rated = await service.puzzles.next_for(GUILD, MEMBER)
    await service.puzzles.answer(GUILD, MEMBER, rated.key, rated.puzzle.solution)
    seen = {rated.key}
    for _ in range(4):
        step = await service.puzzle_streaks.go_on(GUILD, MEMBER)
        assert step.posed.key not in seen
        seen.add(step.posed.key)
        await solve(service, step)
    nxt = await service.puzzles.next_for(GUILD, MEMBER)
    assert nxt.key not in seen


async def test_ratings_order_the_ladder_once_puzzles_are_rated(service):
    # Another member solves the hardest-looking puzzle (it falls below 1500) and misses the
    # easiest (it rises): the ladder follows the ratings.
    hardest = max(BUILTIN, key=ladder_place)
    easiest = min(BUILTIN, key=ladder_place)
    await service.puzzles.answer(GUILD, OTHER, hardest, BUILTIN[hardest].solution)
    miss = next(
        c.decision for c in BUILTIN[easiest].choices if not BUILTIN[easiest].solved_by(c.decision)
    )
    await service.puzzles.answer(GUILD, OTHER, easiest, miss)
    first = await service.puzzle_streaks.go_on(GUILD, MEMBER)
    assert first.posed.key == hardest and first.posed.rating.rating < 1500


async def test_a_climbed_ladder_ends_the_run_unbroken(service):
    keys = sorted(BUILTIN, key=ladder_place)
    for key in keys[2:]:  # the member tried all but the two lowest rungs, unrated
        await service.store.record_attempt(_unrated(key), lambda before, rating: (before, rating))
    for _ in range(2):
        await solve(service, await service.puzzle_streaks.go_on(GUILD, MEMBER))
    with pytest.raises(LadderClimbed) as climbed:
        await service.puzzle_streaks.go_on(GUILD, MEMBER)
    assert (climbed.value.solved, climbed.value.best) == (2, 2)
    standing = await service.puzzles.standing(GUILD, MEMBER)
    assert standing.run is None and standing.run_best == 2
    with pytest.raises(LadderClimbed) as empty:
        await service.puzzle_streaks.go_on(GUILD, MEMBER)
    assert empty.value.solved == 0


def _unrated(key: str) -> PuzzleAttempt:
    return PuzzleAttempt(GUILD, MEMBER, key, "1A", False, 0.0, rated=False)
