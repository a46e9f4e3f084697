"""Two match services on one PostgreSQL database, as two bot processes would run: the
database is the authority, so each decision, deadline and limit holds across both."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from engine.ai import RandomAgent
from engine.rules.decisions import Decision
from engine.rules.state import Phase
from engine.rules.views import PlayerView
from engine.service import (
    AI_USER_ID,
    ChallengeNotPending,
    DecisionApplied,
    ManualClock,
    MatchEnded,
    MatchService,
    MatchStarted,
    MatchStatus,
    Reminder,
    SeatTaken,
    ServiceConfig,
    StaleVersion,
    TooManyActiveMatches,
)
from engine.service.matches.turns import SETTLE_SECONDS
from engine.service.scheduling.alarm_clock import CLAIM_SECONDS
from engine.store.errors import DatabaseUnavailable
from engine.store.postgres import PostgresMatchStore

from .conftest import START, InlineExecutor, Recorder, new_match, play_one, play_to_end

Cluster = Callable[..., Awaitable[tuple[MatchService, Recorder]]]


@pytest.fixture
async def process(postgres_url: str) -> AsyncIterator[Cluster]:
    """Start "processes": services on the test's database, each its own store and origin,
    all on one manual clock; each is closed at the end if still open."""
    clock = ManualClock(START)
    started: list[MatchService] = []

    async def start(name: str, **overrides: object) -> tuple[MatchService, Recorder]:
        agent_factory = overrides.pop("agent_factory", None)
        agent_executor = overrides.pop("agent_executor", None)
        config = ServiceConfig(
            **{"ai_move_delay_seconds": 0.0, "turn_timer_seconds": 600.0, **overrides},  # type: ignore[arg-type]
        )
        kwargs = {} if agent_factory is None else {"agent_factory": agent_factory}
        service = MatchService(
            PostgresMatchStore(postgres_url, origin=name),
            config,
            clock=clock,
            rng=random.Random(name),
            agent_executor=agent_executor,  # type: ignore[arg-type]
            **kwargs,  # type: ignore[arg-type]
        )
        recorder = Recorder()
        recorder.service = service
        service.subscribe(recorder)
        await service.start()
        started.append(service)
        return service, recorder

    start.clock = clock  # type: ignore[attr-defined]
    yield start
    for service in started:
        await service.close()


async def settle(*services: MatchService) -> None:
    """Let both processes finish what they started, twice over (one's work may wake the
    other's: a claim, a refresh)."""
    for _ in range(2):
        for service in services:
            await service.wait_idle()


async def test_a_match_is_played_through_either_process(process):
    one, heard_by_one = await process("one")
    two, heard_by_two = await process("two")
    challenge = await one.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    match = await two.challenges.accept(challenge.match_id, 202)
    rng = random.Random(5)

    decisions = 0
    while (await one.queries.public_view(match.match_id)).outcome is None:
        # Alternate processes: each must see what the other applied.
        await play_one(one if decisions % 2 else two, match.match_id, rng)
        decisions += 1
    await settle(one, two)

    shown = heard_by_one.of(DecisionApplied) + heard_by_two.of(DecisionApplied)
    assert sorted(e.version for e in shown) == list(range(1, decisions + 1))
    assert len(heard_by_one.of(MatchEnded) + heard_by_two.of(MatchEnded)) == 1
    assert (await two.queries.public_view(match.match_id)).outcome is not None
    assert len(await one.store.decisions(match.match_id)) == decisions


async def test_of_100_identical_submissions_split_across_processes_one_is_applied(process):
    one, heard_by_one = await process("one")
    two, heard_by_two = await process("two")
    match = await new_match(one)
    table = await two.queries.public_view(match.match_id)
    mover = match.players[table.current_player]
    decision = (await two.queries.view_for(match.match_id, mover)).legal[0]

    results = await asyncio.gather(
        *(
            (one if i % 2 else two).commands.submit(match.match_id, mover, decision, 0)
            for i in range(100)
        ),
        return_exceptions=True,
    )

    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(applied) == 1 and applied[0].version == 1
    assert len(refused) == 99 and all(isinstance(r, StaleVersion) for r in refused)
    assert len(await one.store.decisions(match.match_id)) == 1
    await settle(one, two)
    assert len(heard_by_one.of(DecisionApplied) + heard_by_two.of(DecisionApplied)) == 1
    # Both processes now show the same table, whichever applied the decision.
    assert (await one.queries.public_view(match.match_id)).version == 1
    assert (await two.queries.public_view(match.match_id)).version == 1


async def test_a_deadline_fires_once_across_processes_and_a_reminder_goes_out_once(process):
    one, heard_by_one = await process("one", turn_timer_seconds=60.0)
    two, heard_by_two = await process("two", turn_timer_seconds=60.0)
    match = await new_match(one)

    await process.clock.advance(31, settle=lambda: settle(one, two))
    reminders = heard_by_one.of(Reminder) + heard_by_two.of(Reminder)
    assert [r.version for r in reminders] == [0]

    await process.clock.advance(30, settle=lambda: settle(one, two))
    played = heard_by_one.of(DecisionApplied) + heard_by_two.of(DecisionApplied)
    assert [(e.version, e.automatic) for e in played] == [(1, True)]
    assert len(await two.store.decisions(match.match_id)) == 1


async def test_a_challenge_answered_in_one_process_cannot_be_answered_in_the_other(process):
    one, _ = await process("one")
    two, _ = await process("two")
    challenge = await one.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    await one.queries.match_info(challenge.match_id)  # cached in "one" while pending

    await two.challenges.decline(challenge.match_id, 202)

    with pytest.raises(ChallengeNotPending, match="declined"):
        await one.challenges.accept(challenge.match_id, 202)


async def test_the_open_match_limit_holds_across_processes(process):
    one, _ = await process("one", max_active_matches=1)
    two, _ = await process("two", max_active_matches=1)

    results = await asyncio.gather(
        *(
            (one if i % 2 else two).challenges.challenge(101, 300 + i, guild_id=1, channel_id=2)
            for i in range(6)
        ),
        return_exceptions=True,
    )

    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert all(isinstance(r, TooManyActiveMatches) for r in results if isinstance(r, BaseException))


HANG_GUARD_SECONDS = 120.0
"""Only to fail rather than hang: nothing here measures how fast anything is."""


class _StuckAgent:
    """Never decides until released: the process playing it "dies" while it thinks."""

    name = "stuck"

    def __init__(self) -> None:
        self.thinking = threading.Event()
        self.release = threading.Event()

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        self.thinking.set()
        self.release.wait()  # the test releases it in a `finally`
        return RandomAgent().decide(view, rng)


async def test_the_ai_move_of_a_process_that_stops_is_taken_over(process):
    stuck = _StuckAgent()
    one, _ = await process("one", agent_factory=lambda level: stuck)
    two, heard_by_two = await process("two")
    try:
        match = await one.commands.start_ai_match(101, "easy", guild_id=1, channel_id=2)
        rng = random.Random(9)
        if (await one.queries.public_view(match.match_id)).current_player == 0:
            await play_one(one, match.match_id, rng)
        # "one" claims the AI's move and starts thinking, however long that takes.
        assert await asyncio.to_thread(stuck.thinking.wait, HANG_GUARD_SECONDS)
        await process.clock.advance(CLAIM_SECONDS / 2, settle=two.wait_idle)
        assert heard_by_two.of(DecisionApplied) == []  # "one" still holds its claim
        # "one" is gone; "two" takes the move over once the claim runs out.
        one_closing = asyncio.create_task(one.close())
        await process.clock.advance(CLAIM_SECONDS, settle=two.wait_idle)
    finally:
        stuck.release.set()
    await one_closing
    ai_moves = [e for e in heard_by_two.of(DecisionApplied) if e.user_id == AI_USER_ID]
    assert ai_moves and not ai_moves[0].automatic


async def test_a_decline_that_loses_the_race_to_an_accept_is_refused_politely(process):
    one, _ = await process("one")
    two, _ = await process("two")
    challenge = await one.challenges.challenge(101, 202, guild_id=1, channel_id=2)
    close_challenge = one.store.close_challenge

    async def accepted_meanwhile(*args, **kwargs):
        # Between "one" reading the challenge and writing the decline, "two" accepts it.
        await two.challenges.accept(challenge.match_id, 202)
        return await close_challenge(*args, **kwargs)

    one.store.close_challenge = accepted_meanwhile  # type: ignore[method-assign]
    with pytest.raises(ChallengeNotPending, match="active"):
        await one.challenges.decline(challenge.match_id, 202)
    assert (await two.queries.match_info(challenge.match_id)).status.value == "active"


async def test_a_resignation_that_loses_the_race_to_a_move_still_resigns(process):
    one, _ = await process("one")
    two, _ = await process("two")
    match = await new_match(one)
    table = await one.queries.public_view(match.match_id)
    mover = match.players[table.current_player]
    quitter = match.players[1 - table.current_player]
    finish_match = one.store.finish_match
    raced = []

    async def moved_meanwhile(*args, **kwargs):
        if not raced:  # the first try only: "two" applies the mover's decision first
            raced.append(await play_one(two, match.match_id, random.Random(1)))
        return await finish_match(*args, **kwargs)

    one.store.finish_match = moved_meanwhile  # type: ignore[method-assign]
    outcome = await one.commands.resign(match.match_id, quitter)

    assert match.players[outcome.winner] == mover and raced
    info = await two.queries.match_info(match.match_id)
    assert info.status.value == "finished" and info.version == 1


async def test_a_deadline_missed_while_every_process_was_down_gets_a_grace(process):
    one, _ = await process("one", turn_timer_seconds=60.0)
    match = await new_match(one)
    await one.close()  # every process is down ...
    await process.clock.advance(600)  # ... long past the deadline
    two, heard = await process("two", turn_timer_seconds=60.0)

    await process.clock.advance(30, settle=two.wait_idle)
    assert heard.of(DecisionApplied) == []  # nobody could play: not at once

    await process.clock.advance(CLAIM_SECONDS, settle=two.wait_idle)
    played = heard.of(DecisionApplied)
    assert [(e.version, e.automatic) for e in played] == [(1, True)]
    assert len(await two.store.decisions(match.match_id)) == 1


async def test_a_hint_match_and_a_review_are_shared_by_both_processes(process):
    # (the puzzles' search after the review is short: conftest's short_puzzle_search)
    worker = InlineExecutor()
    small = {"agent_executor": worker, "hint_iterations": 8, "review_iterations": 8}
    one, _ = await process("one", **small)
    two, _ = await process("two", **small)
    match = await one.commands.start_ai_match(101, "easy", guild_id=1, channel_id=2, hints=True)
    await settle(one, two)

    seen = await two.queries.view_for(match.match_id, 101)
    hint = await two.hints.hint(match.match_id, 101)
    assert hint is not None and hint.decision in seen.legal

    await play_to_end(one, match.match_id, random.Random(3))
    review = await one.reviews.review(match.match_id, 101)
    judged = worker.jobs["judge_step"]
    assert judged == len(review.steps) > 0
    assert await two.reviews.review(match.match_id, 101) == review
    assert worker.jobs["judge_step"] == judged


async def test_a_match_abandoned_in_one_process_is_never_played_by_the_other(process):
    one, heard_by_one = await process("one", turn_timer_seconds=60.0)
    two, heard_by_two = await process("two", turn_timer_seconds=60.0)
    match = await new_match(two)
    await settle(one, two)  # the other process holds the match and its deadline

    ended = await one.abandonment.abandon_guild(1)
    await process.clock.advance(600, settle=lambda: settle(one, two))

    assert [m.match_id for m in ended] == [match.match_id]
    played = heard_by_one.of(DecisionApplied) + heard_by_two.of(DecisionApplied)
    reminded = heard_by_one.of(Reminder) + heard_by_two.of(Reminder)
    assert played == [] and reminded == []
    assert (await two.queries.match_info(match.match_id)).status is MatchStatus.ABANDONED
    assert await two.abandonment.abandon_guild(1) == []


async def test_a_decision_whose_commit_answer_was_lost_is_announced_once_by_its_process(
    process,
):
    # PostgreSQL took the COMMIT but its answer never came: the process that wrote the
    # decision announces it (once) when it reads the match again shortly after, and the
    # other process does not (the outbox row is the writer's).
    one, heard_by_one = await process("one")
    two, heard_by_two = await process("two")
    match = await new_match(one)
    table = await one.queries.public_view(match.match_id)
    user = match.players[table.current_player]
    seen = await one.queries.view_for(match.match_id, user)
    real = one.store.append_decision
    lost: list[int] = []

    async def append_decision(match_id, decision, announcements=()):  # type: ignore[no-untyped-def]
        await real(match_id, decision, announcements)
        if not lost:
            lost.append(match_id)
            raise DatabaseUnavailable("postgres", "connection lost", outcome_unknown=True)

    one.store.append_decision = append_decision  # type: ignore[method-assign]
    with pytest.raises(DatabaseUnavailable):
        await one.commands.submit(match.match_id, user, seen.legal[0], table.version)
    await process.clock.advance(SETTLE_SECONDS, settle=lambda: settle(one, two))
    await process.clock.advance(60, settle=lambda: settle(one, two))

    def moves(heard: Recorder) -> list[DecisionApplied]:
        return [e for e in heard.of(DecisionApplied) if e.version == table.version + 1]

    assert len(moves(heard_by_one)) == 1 and moves(heard_by_two) == []
    assert await one.store.undelivered(match.match_id) == []  # shown and confirmed


async def test_the_ai_answers_a_move_whose_commit_answer_was_lost_without_waiting_for_the_timer(
    process,
):
    one, heard = await process("one")
    match = await one.commands.start_ai_match(101, "easy", guild_id=1, channel_id=2)
    await settle(one)
    while (table := await one.queries.public_view(match.match_id)).phase is not Phase.ACTION:
        await play_one(one, match.match_id, random.Random(3))  # the AI's offer: taken
        await settle(one)
    assert table.current_player == 0  # an action of the human's: the AI's to answer
    seen = await one.queries.view_for(match.match_id, 101)
    real = one.store.append_decision
    lost: list[int] = []

    async def append_decision(match_id, decision, announcements=()):  # type: ignore[no-untyped-def]
        await real(match_id, decision, announcements)
        if not lost:
            lost.append(match_id)
            raise DatabaseUnavailable("postgres", "connection lost", outcome_unknown=True)

    one.store.append_decision = append_decision  # type: ignore[method-assign]
    with pytest.raises(DatabaseUnavailable):
        await one.commands.submit(match.match_id, 101, seen.legal[0], table.version)
    # Read again shortly after, the match is the AI's to play: it plays at once, not when
    # the human's ten-minute turn timer would have run out.
    await process.clock.advance(SETTLE_SECONDS, settle=lambda: settle(one))
    ai_moves = [e for e in heard.of(DecisionApplied) if e.version == table.version + 2]
    assert [e.user_id for e in ai_moves] == [AI_USER_ID]


async def test_fifty_joins_of_one_seat_split_across_processes_start_one_match(process):
    one, one_heard = await process("one")
    two, two_heard = await process("two")
    seat = await one.seats.open(101, guild_id=1, channel_id=2)
    await two.queries.match_info(seat.match_id)  # seen by both while it waits

    joins = [
        (one if joiner % 2 else two).seats.join(seat.match_id, joiner) for joiner in range(500, 550)
    ]
    results = await asyncio.gather(*joins, return_exceptions=True)

    started = [r for r in results if not isinstance(r, BaseException)]
    assert len(started) == 1, results
    assert all(isinstance(r, SeatTaken) for r in results if isinstance(r, BaseException))
    await settle(one, two)
    info = await two.queries.match_info(seat.match_id)
    assert info.status is MatchStatus.ACTIVE and info.players == (101, started[0].players[1])
    # One start, announced by the one process that made it.
    starts = [e for e in one_heard.events + two_heard.events if isinstance(e, MatchStarted)]
    assert [e.players for e in starts] == [info.players]
