"""Puzzles through the service: the built-in set on day one, the puzzle nearest a member's
rating they never tried, an answer judged once and rated (streak included), a reviewed
match's mistakes harvested as the server's own puzzles, anonymous unless both share."""

from __future__ import annotations

import functools

import pytest

import engine.service.puzzles.service
from engine.model import UserSettings
from engine.puzzles import find_puzzles
from engine.puzzles.builtin import builtin_puzzles
from engine.review.judge import review_match
from engine.service import MatchService
from engine.service.puzzles.errors import (
    AlreadyAttempted,
    NoPuzzleLeft,
    NotAChoice,
    PuzzleNotFound,
)
from engine.service.puzzles.service import match_key
from tests.builders import played_match

from .conftest import InlineExecutor, ServiceFactory
from .test_reviews import stored_finished

GUILD = 1
MEMBER = 101


SEARCH = 300
"""Play-outs of a test's puzzle search: the thresholds are the real ones, the search short."""


@pytest.fixture
async def service(
    make_service: ServiceFactory, worker: InlineExecutor, monkeypatch: pytest.MonkeyPatch
) -> MatchService:
    short = functools.partial(engine.service.puzzles.service.puzzle_at, iterations=SEARCH)
    monkeypatch.setattr(engine.service.puzzles.service, "puzzle_at", short)
    return await make_service(agent_executor=worker, review_iterations=100)


def wrong_choice(posed) -> str:  # type: ignore[no-untyped-def]
    return next(c.decision for c in posed.puzzle.choices if c.decision != posed.puzzle.solution)


async def test_a_new_server_has_the_built_in_puzzles_and_a_new_member_gets_one(service):
    posed = await service.puzzles.next_for(GUILD, MEMBER)
    assert posed.key.startswith("builtin/") and posed.match_id is None
    assert posed.players is None
    assert posed.view.player == posed.puzzle.seat and posed.view.legal


async def test_a_solve_raises_the_rating_and_the_streak_a_miss_ends_it(service):
    first = await service.puzzles.next_for(GUILD, MEMBER)
    solved = await service.puzzles.answer(GUILD, MEMBER, first.key, first.puzzle.solution)
    assert solved.solved and solved.after.streak == 1 and solved.after.solved == 1
    assert solved.after.rating.rating > solved.before.rating.rating
    second = await service.puzzles.next_for(GUILD, MEMBER)
    assert second.key != first.key, "an attempted puzzle is not handed out again"
    missed = await service.puzzles.answer(GUILD, MEMBER, second.key, wrong_choice(second))
    assert not missed.solved and missed.after.streak == 0 and missed.after.best_streak == 1
    assert missed.after.rating.rating < solved.after.rating.rating
    assert missed.after.attempts == 2
    stored = await service.store.puzzle(second.key)
    assert stored is not None and stored.attempts == 1 and stored.solves == 0
    assert stored.rating.rating > 1500, "the puzzle won: its rating rose"


async def test_a_second_answer_and_a_forged_choice_are_refused_and_change_nothing(service):
    posed = await service.puzzles.next_for(GUILD, MEMBER)
    with pytest.raises(NotAChoice):
        await service.puzzles.answer(GUILD, MEMBER, posed.key, "1Z")
    await service.puzzles.answer(GUILD, MEMBER, posed.key, posed.puzzle.solution)
    with pytest.raises(AlreadyAttempted):
        await service.puzzles.answer(GUILD, MEMBER, posed.key, wrong_choice(posed))
    standing = await service.puzzles.standing(GUILD, MEMBER)
    assert (standing.attempts, standing.solved, standing.streak) == (1, 1, 1)
    with pytest.raises(PuzzleNotFound):
        await service.puzzles.answer(GUILD, MEMBER, "builtin/999/1", "1A")


async def test_a_member_who_tried_every_puzzle_is_told(service):
    for _ in builtin_puzzles():
        posed = await service.puzzles.next_for(GUILD, MEMBER)
        await service.puzzles.answer(GUILD, MEMBER, posed.key, posed.puzzle.solution)
    with pytest.raises(NoPuzzleLeft):
        await service.puzzles.next_for(GUILD, MEMBER)
    # Another server's member starts afresh.
    assert (await service.puzzles.next_for(GUILD + 1, MEMBER)).key.startswith("builtin/")


async def test_a_reviewed_matchs_mistakes_become_the_servers_puzzles(service):
    record, _ = played_match(1)
    match_id = await stored_finished(service, record)
    review = review_match(record, iterations=100)
    found = await service.puzzles.harvest(match_id, GUILD, record, review)
    expected = find_puzzles(record, review, iterations=SEARCH)
    assert [p.key for p in found] == [match_key(match_id, p.step) for p in expected]
    assert found, "a random match has mistakes worth a puzzle"
    again = await service.puzzles.harvest(match_id, GUILD, record, review)
    assert again == found  # saved twice is one
    posed = await service.puzzles.posed(GUILD, found[0].key)
    assert posed.match_id == match_id
    assert posed.players is None, "anonymous: its players did not both share"
    for user_id in (101, 202):
        await service.settings.set_user_settings(UserSettings(user_id, share_reviews=True))
    assert (await service.puzzles.posed(GUILD, found[0].key)).players == (101, 202)
    with pytest.raises(PuzzleNotFound):  # another server's own puzzle is not theirs
        await service.puzzles.posed(GUILD + 1, found[0].key)
    with pytest.raises(PuzzleNotFound):
        await service.puzzles.answer(GUILD + 1, MEMBER, found[0].key, found[0].key)


async def test_a_stored_review_is_searched_for_puzzles_in_the_background(service, worker):
    record, _ = played_match(1)
    match_id = await stored_finished(service, record)
    review = await service.reviews.review(match_id, 101)
    await service.wait_idle()
    expected = [
        match_key(match_id, p.step) for p in find_puzzles(record, review, iterations=SEARCH)
    ]
    assert expected, "the match has puzzles"
    for key in expected:
        stored = await service.store.puzzle(key)
        assert stored is not None and stored.guild_id == GUILD and stored.match_id == match_id
    assert sum(worker.jobs.values()) > len(review.steps), "judged, then searched, in the worker"
