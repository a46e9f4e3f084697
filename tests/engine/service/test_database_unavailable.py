"""A database that does not answer: a decision refused with nothing written is simply not
made; one whose answer was lost after its commit (made or not, nobody knows) is neither
assumed made nor assumed lost: the match is read again before its next use (and shortly
anyway), so it is never applied twice, and if it was made it is announced once; and an AI
move waits and comes round again instead of failing."""

from __future__ import annotations

import random

import pytest

from engine.model import MatchInfo
from engine.rules import PublicView
from engine.service import MatchService
from engine.service.events import DecisionApplied, MatchEnded
from engine.service.matches.errors import StaleVersion
from engine.service.matches.turns import DATABASE_RETRY_SECONDS, SETTLE_SECONDS
from engine.store.errors import DatabaseUnavailable

from .conftest import Recorder, new_match


def lose_the_answer(
    service: MatchService, *, after_writing: bool, seat: int | None = None
) -> list[int]:
    """The next append_decision (of ``seat``, if given) gets no answer: written first (a
    lost answer to its COMMIT) or not at all (a stall before it). Returns a list that counts
    the calls it refused."""
    store = service.store
    real = store.append_decision
    calls: list[int] = []

    async def append_decision(match_id, decision, announcements=()):  # type: ignore[no-untyped-def]
        if not calls and seat in (None, decision.seat):
            calls.append(match_id)
            if after_writing:
                await real(match_id, decision, announcements)
            unknown = after_writing
            raise DatabaseUnavailable("test.sqlite3", "no answer", outcome_unknown=unknown)
        await real(match_id, decision, announcements)

    store.append_decision = append_decision  # type: ignore[method-assign]
    return calls


@pytest.mark.parametrize("after_writing", [False, True])
async def test_a_decision_without_an_answer_is_never_made_twice(make_service, after_writing):
    service = await make_service()
    match = await new_match(service)
    table = await service.queries.public_view(match.match_id)
    user = match.players[table.current_player]
    seen = await service.queries.view_for(match.match_id, user)
    decision = random.Random(1).choice(seen.legal)
    lose_the_answer(service, after_writing=after_writing)

    with pytest.raises(DatabaseUnavailable) as raised:
        await service.commands.submit(match.match_id, user, decision, table.version)
    assert raised.value.outcome_unknown is after_writing

    # What the players see next is what the database holds: the decision if it was made.
    now = await service.queries.public_view(match.match_id)
    stored = await service.store.decisions(match.match_id)
    assert now.version == len(stored) == table.version + (1 if after_writing else 0)
    # Trying the same click again either plays it (it was not made) or is refused as stale
    # (it was): never twice.
    if after_writing:
        with pytest.raises(StaleVersion):
            await service.commands.submit(match.match_id, user, decision, table.version)
    else:
        await service.commands.submit(match.match_id, user, decision, table.version)
    assert len(await service.store.decisions(match.match_id)) == table.version + 1


async def test_an_ai_move_the_database_refused_comes_round_again(make_service, clock):
    service = await make_service()
    calls = lose_the_answer(service, after_writing=False, seat=1)  # the AI's seat
    match = await service.commands.start_ai_match(101, "easy", guild_id=1, channel_id=2)
    await service.wait_idle()
    table = await service.queries.public_view(match.match_id)
    if table.current_player == 0:  # the human first: play so the AI is to move
        seen = await service.queries.view_for(match.match_id, 101)
        await service.commands.submit(match.match_id, 101, seen.legal[0], table.version)
        await service.wait_idle()
    before = await service.queries.public_view(match.match_id)
    # The AI's move was refused: nothing moved, and the AI still has its turn.
    assert calls == [match.match_id] and before.current_player == 1
    # It is tried again after a pause, not dropped.
    await clock.advance(DATABASE_RETRY_SECONDS, settle=service.wait_idle)
    after = await service.queries.public_view(match.match_id)
    assert after.version > before.version
    assert len(await service.store.decisions(match.match_id)) == after.version


def moves_heard(heard: Recorder, match_id: int, version: int) -> list[DecisionApplied]:
    return [e for e in heard.of(DecisionApplied) if (e.match_id, e.version) == (match_id, version)]


async def first_move_without_an_answer(
    make_service, *, after_writing: bool
) -> tuple[MatchService, Recorder, MatchInfo, PublicView, int]:
    """A new match whose first move got no answer from the database (written first, or
    not at all): the service, what it published, the match, its table before the move and
    the mover."""
    heard = Recorder()
    service = await make_service(recorder=heard)
    match = await new_match(service)
    table = await service.queries.public_view(match.match_id)
    user = match.players[table.current_player]
    seen = await service.queries.view_for(match.match_id, user)
    lose_the_answer(service, after_writing=after_writing)
    with pytest.raises(DatabaseUnavailable):
        await service.commands.submit(match.match_id, user, seen.legal[0], table.version)
    return service, heard, match, table, user


@pytest.mark.parametrize("looked_at_first", [False, True])
async def test_a_decision_made_without_an_answer_is_announced_once(
    make_service, clock, looked_at_first
):
    # The opponent is pinged and the thread and board show the move: nothing else would
    # publish it (the outbox is only read again at start-up), whether someone looks at the
    # match first or nobody touches it.
    service, heard, match, table, user = await first_move_without_an_answer(
        make_service, after_writing=True
    )
    await service.wait_idle()
    assert moves_heard(heard, match.match_id, table.version + 1) == []

    if looked_at_first:
        await service.queries.public_view(match.match_id)
        await service.wait_idle()
        assert len(moves_heard(heard, match.match_id, table.version + 1)) == 1
    await clock.advance(SETTLE_SECONDS, settle=service.wait_idle)
    await service.queries.view_for(match.match_id, user)
    await clock.advance(60, settle=service.wait_idle)
    [move] = moves_heard(heard, match.match_id, table.version + 1)
    assert move.user_id == user
    # Shown, it leaves the outbox like any other announcement.
    await clock.advance(60, settle=service.wait_idle)
    assert await service.store.undelivered(match.match_id) == []


async def test_a_decision_not_made_is_not_announced(make_service, clock):
    service, heard, match, table, _ = await first_move_without_an_answer(
        make_service, after_writing=False
    )
    await clock.advance(60, settle=service.wait_idle)
    assert moves_heard(heard, match.match_id, table.version + 1) == []
    assert (await service.queries.public_view(match.match_id)).version == table.version


async def test_reading_again_waits_quietly_while_the_database_is_down(make_service, clock, caplog):
    service, heard, match, table, _ = await first_move_without_an_answer(
        make_service, after_writing=True
    )
    # The database stays down for the first two readings.
    real = service.store.match_since
    refused: list[int] = []

    async def match_since(match_id, version):  # type: ignore[no-untyped-def]
        if len(refused) < 2:
            refused.append(match_id)
            raise DatabaseUnavailable("test.sqlite3", "no answer")
        return await real(match_id, version)

    service.store.match_since = match_since  # type: ignore[method-assign]
    caplog.set_level("INFO")
    await clock.advance(SETTLE_SECONDS + DATABASE_RETRY_SECONDS, settle=service.wait_idle)
    assert len(refused) == 2 and moves_heard(heard, match.match_id, table.version + 1) == []
    await clock.advance(DATABASE_RETRY_SECONDS, settle=service.wait_idle)
    assert len(moves_heard(heard, match.match_id, table.version + 1)) == 1
    assert [r for r in caplog.records if r.levelname != "DEBUG"] == []


async def test_a_result_made_without_an_answer_is_announced(make_service, clock):
    heard = Recorder()
    service = await make_service(recorder=heard)
    match = await new_match(service)
    store = service.store
    real = store.finish_match
    calls: list[int] = []

    async def finish_match(*args, **kwargs):  # type: ignore[no-untyped-def]
        await real(*args, **kwargs)
        if not calls:
            calls.append(1)
            raise DatabaseUnavailable("test.sqlite3", "no answer", outcome_unknown=True)

    store.finish_match = finish_match  # type: ignore[method-assign]
    with pytest.raises(DatabaseUnavailable):
        await service.commands.resign(match.match_id, match.players[0])
    await clock.advance(SETTLE_SECONDS, settle=service.wait_idle)
    [ended] = heard.of(MatchEnded)
    assert ended.winner_id == match.players[1]
