"""Reviews through the service: analysed once, one step per job in the AI's worker, kept,
shared by everyone asking at once, and refused for a match that has not ended."""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import pytest

from engine.review.judgement import REVIEW_FORMAT, MatchReview
from engine.review.steps import match_steps, step_count
from engine.rules.record import MatchRecord
from engine.service import MatchService, ReviewFailed, ReviewUnavailable, ServiceClosed
from engine.store.errors import StorageFull
from engine.store.sqlite import SqliteMatchStore
from tests.builders import match_info, match_result
from tests.engine.review.matches import normal_match, redealt_for

from .conftest import START, InlineExecutor, ServiceFactory, new_match, play_one, play_to_end

PLAYER = 101
"""A player of every match here (the challenger of :func:`new_match`, the AI's opponent)."""
ITERATIONS = 8
"""Play-outs per judged step: enough for a judgement, few enough for a quick test."""


@pytest.fixture
async def service(make_service: ServiceFactory, worker: InlineExecutor) -> MatchService:
    return await make_service(agent_executor=worker, review_iterations=ITERATIONS)


async def finished_match(service: MatchService, seed: int = 3) -> int:
    """A match between two members played to its end at random."""
    match = await new_match(service)
    await play_to_end(service, match.match_id, random.Random(seed))
    return match.match_id


class Progress:
    """A progress callback that keeps every share it is told."""

    def __init__(self, log: list[tuple[str, float]] | None = None, name: str = "") -> None:
        self.shares: list[float] = []
        self.log = log
        self.name = name

    async def __call__(self, done: float) -> None:
        self.shares.append(done)
        if self.log is not None:
            self.log.append((self.name, done))


async def test_a_finished_match_is_judged_step_by_step_and_kept(service, worker):
    match_id = await finished_match(service)
    record = await service.reviews.record(match_id, PLAYER)
    steps = step_count(record)
    progress = Progress()

    review = await service.reviews.review(match_id, PLAYER, progress)

    assert [s.step for s in review.steps] == list(range(1, steps + 1))
    assert review.iterations == ITERATIONS
    assert worker.jobs["judge_step"] == steps  # one job per step
    # Told 0 first and 100% last, rising; a share it was too slow for may be skipped.
    assert progress.shares == sorted(progress.shares)
    assert (progress.shares[0], progress.shares[-1]) == (0.0, 1.0)
    assert set(progress.shares) <= {step / steps for step in range(steps + 1)}
    assert await service.reviews.stored(match_id, PLAYER) == review


async def test_a_second_look_is_instant_even_after_a_restart(make_service, worker):
    first = await make_service(agent_executor=worker, review_iterations=ITERATIONS)
    match_id = await finished_match(first)
    review = await first.reviews.review(match_id, PLAYER)
    judged = worker.jobs["judge_step"]

    assert await first.reviews.review(match_id, PLAYER) == review
    await first.close()
    second = await make_service(agent_executor=worker, review_iterations=ITERATIONS)
    assert await second.reviews.review(match_id, PLAYER, Progress()) == review

    assert worker.jobs["judge_step"] == judged  # nothing judged again


async def test_callers_asking_at_once_share_one_analysis(service, worker):
    match_id = await finished_match(service)
    steps = step_count(await service.reviews.record(match_id, PLAYER))
    first, second = Progress(), Progress()

    reviews = await asyncio.gather(
        service.reviews.review(match_id, PLAYER, first),
        service.reviews.review(match_id, PLAYER, second),
    )

    assert reviews[0] == reviews[1]
    assert worker.jobs["judge_step"] == steps
    assert first.shares[-1] == second.shares[-1] == 1.0


async def test_one_review_is_analysed_at_a_time_the_next_waits_at_zero(service, worker):
    first, second = await finished_match(service, 3), await finished_match(service, 4)
    heard: list[tuple[str, float]] = []

    await asyncio.gather(
        service.reviews.review(first, PLAYER, Progress(heard, "first")),
        service.reviews.review(second, PLAYER, Progress(heard, "second")),
    )

    leader = next(name for name, share in heard if share > 0)
    other = "second" if leader == "first" else "first"
    leader_done = heard.index((leader, 1.0))
    assert [share for name, share in heard[:leader_done] if name == other] == [0.0]
    assert all(name == other for name, _ in heard[leader_done + 1 :])


async def test_a_failing_progress_callback_does_not_stop_the_analysis(service):
    match_id = await finished_match(service)
    told: list[float] = []

    async def broken(done: float) -> None:
        told.append(done)
        if done > 0:
            raise RuntimeError("the message was deleted")

    review = await service.reviews.review(match_id, PLAYER, broken)

    assert len(review.steps) == step_count(await service.reviews.record(match_id, PLAYER))
    assert len(told) == 2  # told 0, then failed once and was told no more
    assert await service.reviews.stored(match_id, PLAYER) == review


async def test_a_progress_callback_that_never_returns_delays_no_one_else(service):
    # A Discord edit held back by a rate limit: the analysis, the others asking for the
    # same match and the reviews queued behind it go on; only its own caller waits.
    first, queued = await finished_match(service, 3), await finished_match(service, 4)
    edits_resume, stuck_on_its_first_edit = asyncio.Event(), asyncio.Event()
    stuck_shares: list[float] = []

    async def stuck(done: float) -> None:
        stuck_shares.append(done)
        stuck_on_its_first_edit.set()
        await edits_resume.wait()

    slow = asyncio.create_task(service.reviews.review(first, PLAYER, stuck))
    await stuck_on_its_first_edit.wait()

    # A guard, not a measurement: if the stuck edit held the analysis up again, this would
    # hang for ever instead of failing.
    async with asyncio.timeout(120):
        shared = await service.reviews.review(first, PLAYER, Progress())
        later = await service.reviews.review(queued, PLAYER, Progress())

    assert await service.reviews.stored(first, PLAYER) == shared
    assert await service.reviews.stored(queued, PLAYER) == later
    assert not slow.done()  # its caller still waits to be told 100%
    edits_resume.set()
    assert await slow == shared
    assert stuck_shares == [0.0, 1.0]  # then told only the newest share


async def test_a_stored_review_of_an_older_format_is_redone(service, worker):
    match_id = await finished_match(service)
    old = f'{{"format":{REVIEW_FORMAT - 1},"iterations":1,"steps":[]}}'
    await service.store.save_review(match_id, old, 0.0)
    assert await service.reviews.stored(match_id, PLAYER) is None

    review = await service.reviews.review(match_id, PLAYER)

    assert worker.jobs["judge_step"] == len(review.steps) > 0
    assert MatchReview.from_json(await service.store.review_of(match_id)) == review


async def test_a_corrupt_stored_review_is_redone(service, worker):
    match_id = await finished_match(service)
    await service.store.save_review(match_id, "{not json", 0.0)

    review = await service.reviews.review(match_id, PLAYER)

    assert worker.jobs["judge_step"] == len(review.steps) > 0
    assert await service.reviews.stored(match_id, PLAYER) == review


async def test_a_match_not_finished_or_unknown_has_no_review(service, worker):
    playing = await new_match(service)
    await play_one(service, playing.match_id, random.Random(1))
    challenge = await service.challenges.challenge(303, 404, guild_id=1, channel_id=2)

    for match_id, why in [
        (playing.match_id, "it is active, not finished"),
        (challenge.match_id, "it is pending, not finished"),
        (9999, "there is no such match"),
    ]:
        with pytest.raises(ReviewUnavailable) as raised:
            await service.reviews.review(match_id, PLAYER)
        assert (raised.value.match_id, raised.value.reason) == (match_id, why)
        with pytest.raises(ReviewUnavailable):
            await service.reviews.record(match_id, PLAYER)
    assert worker.jobs["judge_step"] == 0


async def test_a_resigned_match_is_reviewed_up_to_its_last_decision(service):
    match = await new_match(service)
    for _ in range(3):
        await play_one(service, match.match_id, random.Random(2))
    await service.commands.resign(match.match_id, 101)
    progress = Progress()

    review = await service.reviews.review(match.match_id, PLAYER, progress)

    assert [s.step for s in review.steps] == [1, 2, 3]
    assert progress.shares[-1] == 1.0


@pytest.mark.parametrize("seat", [0, 1])
async def test_judgements_are_made_from_each_movers_own_view(service, seat):
    # Two finished matches whose records differ only in cards the mover of a step could
    # not see then: the service judges that step the same in both.
    played = normal_match(5)
    step = [s for s, _ in match_steps(played) if s.player == seat and s.round_number == 2][1]
    record, twin = redealt_for(played, step.index, seat, random.Random(seat))
    assert twin.rounds[-1].deal != record.rounds[-1].deal
    first, second = await stored_finished(service, record), await stored_finished(service, twin)

    judged = (await service.reviews.review(first, PLAYER)).steps[step.index - 1]
    judged_twin = (await service.reviews.review(second, PLAYER)).steps[step.index - 1]

    assert (judged.step, judged.player, judged.move) == (step.index, seat, str(step.decision))
    assert judged_twin == judged


async def stored_finished(service: MatchService, record: MatchRecord) -> int:
    """A finished match between two members with ``record``, put in the service's store."""
    match = await service.store.create_match(
        match_info(
            0,
            (101, 202),
            variant=record.variant,
            turn_seconds=600.0,
            created_at=START,
            challenge_expires_at=START + 600.0,
        )
    )
    await service.store.start_match(
        match.match_id,
        seed=1,
        first_player=record.first_player,
        started_at=START,
        turn_deadline=None,
    )
    result = match_result(
        match.match_id,
        (101, 202),
        variant=record.variant,
        rounds=len(record.rounds),
        started_at=START,
        finished_at=START + 60.0,
        record=record.to_json(),
    )
    await service.store.finish_match(result, None, version=0)
    return match.match_id


async def test_a_dead_worker_fails_the_review_and_stores_nothing(service, worker):
    match_id = await finished_match(service)
    worker.failing = BrokenProcessPool("the worker process died")

    with pytest.raises(ReviewFailed) as raised:
        await service.reviews.review(match_id, PLAYER)

    assert "BrokenProcessPool" in raised.value.reason
    assert await service.store.review_of(match_id) is None
    worker.failing = None
    review = await service.reviews.review(match_id, PLAYER)  # asking again starts afresh
    assert await service.reviews.stored(match_id, PLAYER) == review


async def test_a_database_that_refuses_the_review_fails_it(service, monkeypatch):
    match_id = await finished_match(service)

    async def full(match_id: int, body: str, at: float) -> None:
        raise StorageFull("matches.sqlite3")

    monkeypatch.setattr(service.store, "save_review", full)

    with pytest.raises(ReviewFailed):
        await service.reviews.review(match_id, PLAYER)
    assert await service.store.review_of(match_id) is None


async def test_closing_the_service_stops_an_analysis_and_stores_nothing(service, db_path):
    match_id = await finished_match(service)
    under_way = asyncio.Event()

    async def progress(done: float) -> None:
        if done > 0:
            under_way.set()

    review = asyncio.create_task(service.reviews.review(match_id, PLAYER, progress))
    await under_way.wait()
    await service.close()

    with pytest.raises(ServiceClosed):
        await review
    with pytest.raises(ServiceClosed):
        await service.reviews.review(match_id, PLAYER)
    store = SqliteMatchStore(db_path)
    await store.open()
    try:
        assert await store.review_of(match_id) is None
    finally:
        await store.close()


async def test_reviews_and_hints_run_in_a_real_worker_process(make_service):
    # What the bot runs: the AI's own worker, a separate (spawned) process, so everything
    # a job takes must cross to it.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as worker:
        service = await make_service(
            agent_executor=worker, review_iterations=ITERATIONS, hint_iterations=ITERATIONS
        )
        match = await service.commands.start_ai_match(101, "easy", 1, 2, hints=True)
        await service.wait_idle()
        seen = await service.queries.view_for(match.match_id, 101)
        hint = await service.hints.hint(match.match_id, 101)
        assert hint is not None and hint.decision in seen.legal
        await play_to_end(service, match.match_id, random.Random(6))

        review = await service.reviews.review(match.match_id, PLAYER)

        assert len(review.steps) == step_count(await service.reviews.record(match.match_id, PLAYER))
        await service.close()
