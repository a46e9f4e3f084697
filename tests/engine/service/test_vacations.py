"""Vacations through the service: a member's turn-based turns pause for the days taken,
a turn that reaches them while away starts when they are back, an early end gives back
the days not taken, and the allowance holds. Other paces never pause."""

from __future__ import annotations

import pytest

from engine.clocks import DAY_SECONDS, BadVacation, TimeControl
from engine.service import MatchInfo, MatchService
from engine.service.events import TurnClockChanged, TurnOverdue

from .conftest import Recorder
from .test_clock_matches import decide, play_until_turn_of

GUILD = 1
DAYS = TimeControl.days(1)
ALLOWANCE = 14  # the configured default


async def match_of(service: MatchService, control: TimeControl | None = DAYS) -> MatchInfo:
    challenge = await service.challenges.challenge(
        101, 202, guild_id=GUILD, channel_id=2, time_control=control
    )
    return await service.challenges.accept(challenge.match_id, 202)


async def test_a_vacation_moves_the_running_turn_by_its_days(make_service, clock):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    match = await match_of(service)
    away = match.players[match.first_player]
    await clock.advance(3600, settle=service.wait_idle)
    deadline = match.turn_deadline
    assert deadline is not None

    status = await service.vacations.take(GUILD, away, 3)
    await service.wait_idle()

    assert status.paused == 1 and status.days_left == ALLOWANCE - 3
    assert status.current is not None and status.current.ends_at == clock.now() + 3 * DAY_SECONDS
    info = await service.queries.match_info(match.match_id)
    assert info.turn_deadline == deadline + 3 * DAY_SECONDS
    assert info.paused_until == status.current.ends_at
    [changed] = recorder.of(TurnClockChanged)
    assert (changed.user_id, changed.deadline) == (away, info.turn_deadline)

    # Nothing is overdue while they are away, nor when the day they had is over.
    await clock.advance(info.turn_deadline - clock.now() - 1, settle=service.wait_idle)
    assert recorder.of(TurnOverdue) == []
    await clock.advance(1, settle=service.wait_idle)
    assert len(recorder.of(TurnOverdue)) == 1


async def test_a_turn_that_reaches_them_while_away_starts_when_they_are_back(service, clock):
    match = await match_of(service)
    away_seat = 1 - match.first_player
    away = match.players[away_seat]
    status = await service.vacations.take(GUILD, away, 2)
    assert status.paused == 0 and status.current is not None
    await clock.advance(3600, settle=service.wait_idle)

    await play_until_turn_of(service, match.match_id, away_seat)

    info = await service.queries.match_info(match.match_id)
    assert info.paused_until == status.current.ends_at
    assert info.turn_deadline == status.current.ends_at + DAY_SECONDS
    [*_, row] = await service.store.decisions(match.match_id)
    assert row.paused_until == status.current.ends_at


async def test_ending_early_moves_the_turn_back_and_counts_only_the_days_taken(service, clock):
    match = await match_of(service)
    away = match.players[match.first_player]
    deadline = match.turn_deadline
    assert deadline is not None
    await service.vacations.take(GUILD, away, 3)
    await clock.advance(DAY_SECONDS, settle=service.wait_idle)

    status = await service.vacations.end(GUILD, away)

    assert status.current is None and status.paused == 1
    assert status.days_left == ALLOWANCE - 1
    info = await service.queries.match_info(match.match_id)
    assert info.paused_until is None
    assert info.turn_deadline == deadline + DAY_SECONDS  # the one day taken, not three
    again = await service.vacations.status(GUILD, away)
    assert again.current is None and again.days_left == ALLOWANCE - 1
    with pytest.raises(BadVacation):
        await service.vacations.take(GUILD, away, ALLOWANCE)  # 13 are left
    await decide(service, match.match_id)  # they are back and play


async def test_more_days_than_the_allowance_are_refused(service, clock):
    match = await match_of(service)
    away = match.players[match.first_player]

    with pytest.raises(BadVacation):
        await service.vacations.take(GUILD, away, ALLOWANCE + 1)
    await service.vacations.take(GUILD, away, 2)
    with pytest.raises(BadVacation):
        await service.vacations.take(GUILD, away, 1)  # one is under way

    info = await service.queries.match_info(match.match_id)
    assert info.turn_deadline == match.turn_deadline + 2 * DAY_SECONDS


@pytest.mark.parametrize("control", [TimeControl.clock(5, 5), None], ids=["clock", "per-turn"])
async def test_a_clock_or_a_timer_per_turn_is_not_paused(make_service, clock, control):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    match = await match_of(service, control)
    away = match.players[match.first_player]

    status = await service.vacations.take(GUILD, away, 3)
    await service.wait_idle()

    assert status.paused == 0
    info = await service.queries.match_info(match.match_id)
    assert (info.turn_deadline, info.paused_until) == (match.turn_deadline, None)
    assert recorder.of(TurnClockChanged) == []
    await decide(service, match.match_id)
    info = await service.queries.match_info(match.match_id)
    assert info.paused_until is None


async def test_a_match_that_starts_while_its_first_player_is_away_waits_for_them(service, clock):
    """A tournament may pair a member on vacation: their first turn starts when they are
    back, as any turn that reaches them while away, and the store says so after a reload."""
    both_away = [101, 202]
    for member in both_away:
        await service.vacations.take(GUILD, member, 2)
    back = clock.now() + 2 * DAY_SECONDS
    match = await match_of(service)
    assert match.paused_until == back
    assert match.turn_deadline == back + DAY_SECONDS
    stored = await service.store.get_match(match.match_id)
    assert stored is not None
    assert (stored.paused_until, stored.turn_deadline) == (back, back + DAY_SECONDS)
