"""Turn-based matches (days per move) through the service, over virtual days: the reminder,
an overdue turn and its grace, the waiting player's choice (claim the win, let the AI
play, keep waiting), and nothing ever decided for a player automatically."""

from __future__ import annotations

import pytest

from engine.clocks import DAY_SECONDS, OVERDUE_GRACE_SECONDS, TimeControl
from engine.ratings import Reliability
from engine.rules.outcome import Termination
from engine.service import (
    AI_USER_ID,
    DecisionApplied,
    MatchEnded,
    MatchInfo,
    MatchService,
    NotYourMatch,
    Reminder,
    StaleVersion,
)
from engine.service.events import ClaimOffered, TurnClockChanged, TurnOverdue
from engine.service.matches.errors import ClaimNotOffered

from .conftest import Recorder
from .test_clock_matches import decide, play_until_turn_of, seat_to_move

DAYS = TimeControl.days(1)
LEAD = 3600.0
STRANGER = 999


async def days_match(service: MatchService) -> MatchInfo:
    challenge = await service.challenges.challenge(
        101, 202, guild_id=1, channel_id=2, time_control=DAYS
    )
    return await service.challenges.accept(challenge.match_id, 202)


async def overdue_match(make_service, clock, *, offered: bool):
    """A turn-based match whose first mover let their day run out (and the grace, if
    ``offered``): (service, recorder, match, late seat)."""
    recorder = Recorder()
    service = await make_service(recorder=recorder, reminder_before_seconds=LEAD)
    match = await days_match(service)
    await clock.advance(DAY_SECONDS, settle=service.wait_idle)
    if offered:
        await clock.advance(OVERDUE_GRACE_SECONDS, settle=service.wait_idle)
    return service, recorder, match, match.first_player


async def test_a_reminder_then_an_overdue_turn_then_the_claim_and_nothing_automatic(
    make_service, clock
):
    recorder = Recorder()
    service = await make_service(recorder=recorder, reminder_before_seconds=LEAD)
    match = await days_match(service)
    late = match.first_player
    deadline = clock.now() + DAY_SECONDS
    assert match.turn_deadline == deadline

    await clock.advance(DAY_SECONDS - LEAD - 1, settle=service.wait_idle)
    assert recorder.of(Reminder) == []
    await clock.advance(1, settle=service.wait_idle)
    [reminder] = recorder.of(Reminder)
    assert (reminder.user_id, reminder.deadline) == (match.players[late], deadline)

    await clock.advance(LEAD, settle=service.wait_idle)
    [overdue] = recorder.of(TurnOverdue)
    claim_at = deadline + OVERDUE_GRACE_SECONDS
    assert (overdue.player, overdue.user_id, overdue.claim_at) == (
        late,
        match.players[late],
        claim_at,
    )
    info = await service.queries.match_info(match.match_id)
    assert (info.overdue_since, info.turn_deadline) == (deadline, claim_at)

    await clock.advance(OVERDUE_GRACE_SECONDS - 1, settle=service.wait_idle)
    assert recorder.of(ClaimOffered) == []
    await clock.advance(1, settle=service.wait_idle)
    [offered] = recorder.of(ClaimOffered)
    assert (offered.player, offered.user_id, offered.late_user_id) == (
        1 - late,
        match.players[1 - late],
        match.players[late],
    )
    info = await service.queries.match_info(match.match_id)
    assert (info.overdue_since, info.turn_deadline) == (deadline, None)

    await clock.advance(5 * DAY_SECONDS, settle=service.wait_idle)  # days pass: still nothing
    assert recorder.of(DecisionApplied) == []
    assert recorder.of(MatchEnded) == []
    assert len(recorder.of(TurnOverdue)) == len(recorder.of(ClaimOffered)) == 1
    assert len(recorder.of(Reminder)) == 1


@pytest.mark.parametrize("offered", [False, True])
async def test_the_late_player_may_still_move_and_that_clears_the_overdue_turn(
    make_service, clock, offered
):
    service, recorder, match, late = await overdue_match(make_service, clock, offered=offered)

    await decide(service, match.match_id)
    await service.wait_idle()

    info = await service.queries.match_info(match.match_id)
    assert info.overdue_since is None
    assert info.turn_deadline == clock.now() + DAY_SECONDS
    [applied] = recorder.of(DecisionApplied)
    assert applied.player == late and not applied.automatic


async def test_the_waiting_player_claims_the_win_and_the_late_one_abandoned(make_service, clock):
    service, recorder, match, late = await overdue_match(make_service, clock, offered=True)
    waiting_id, late_id = match.players[1 - late], match.players[late]

    outcome = await service.overdue.claim_win(match.match_id, waiting_id, 0)
    await service.wait_idle()

    assert outcome.termination is Termination.TIMEOUT and outcome.winner == 1 - late
    [ended] = recorder.of(MatchEnded)
    assert ended.winner_id == waiting_id
    assert await service.store.reliability(1, late_id) == Reliability(0, 1)
    assert await service.store.reliability(1, waiting_id) == Reliability(1, 0)


async def test_a_claim_is_refused_to_anyone_but_the_waiting_player(make_service, clock):
    service, recorder, match, late = await overdue_match(make_service, clock, offered=True)

    with pytest.raises(NotYourMatch):
        await service.overdue.claim_win(match.match_id, match.players[late], 0)
    with pytest.raises(NotYourMatch):
        await service.overdue.claim_win(match.match_id, STRANGER, 0)
    with pytest.raises(NotYourMatch):
        await service.overdue.let_ai_play(match.match_id, match.players[late], 0)
    with pytest.raises(NotYourMatch):
        await service.overdue.keep_waiting(match.match_id, STRANGER, 0)
    assert recorder.of(MatchEnded) == []


async def test_a_claim_before_the_grace_is_over_is_refused(make_service, clock):
    service, recorder, match, late = await overdue_match(make_service, clock, offered=False)
    waiting_id = match.players[1 - late]

    for choose in (
        service.overdue.claim_win,
        service.overdue.let_ai_play,
        service.overdue.keep_waiting,
    ):
        with pytest.raises(ClaimNotOffered):
            await choose(match.match_id, waiting_id, 0)
    assert recorder.of(MatchEnded) == []


async def test_a_claim_in_time_is_refused_too(service, clock):
    match = await days_match(service)
    await clock.advance(DAY_SECONDS / 2, settle=service.wait_idle)
    with pytest.raises(ClaimNotOffered):
        await service.overdue.claim_win(match.match_id, match.players[1 - match.first_player], 0)


async def test_a_claim_on_a_stale_version_is_refused(make_service, clock):
    service, recorder, match, late = await overdue_match(make_service, clock, offered=True)
    waiting_id = match.players[1 - late]

    with pytest.raises(StaleVersion):
        await service.overdue.claim_win(match.match_id, waiting_id, 1)
    await decide(service, match.match_id)  # the late player moves after all
    with pytest.raises((StaleVersion, NotYourMatch, ClaimNotOffered)):
        await service.overdue.claim_win(match.match_id, waiting_id, 0)
    assert recorder.of(MatchEnded) == []


async def test_letting_the_ai_play_makes_one_automatic_decision_then_full_days(make_service, clock):
    service, recorder, match, late = await overdue_match(make_service, clock, offered=True)
    waiting_id = match.players[1 - late]

    result = await service.overdue.let_ai_play(match.match_id, waiting_id, 0)
    await service.wait_idle()

    assert result.automatic and result.version == 1
    [applied] = recorder.of(DecisionApplied)
    assert applied.player == late and applied.automatic
    [row] = await service.store.decisions(match.match_id)
    assert row.automatic and row.seat == late
    await clock.advance(3600, settle=service.wait_idle)
    await play_until_turn_of(service, match.match_id, late)
    info = await service.queries.match_info(match.match_id)
    assert info.overdue_since is None
    assert info.turn_deadline == clock.now() + DAY_SECONDS
    assert sum(e.automatic for e in recorder.of(DecisionApplied)) == 1


async def test_keeping_waiting_gives_a_fresh_day_and_the_reminder_again(make_service, clock):
    service, recorder, match, late = await overdue_match(make_service, clock, offered=True)
    waiting_id = match.players[1 - late]

    deadline = await service.overdue.keep_waiting(match.match_id, waiting_id, 0)
    await service.wait_idle()

    assert deadline == clock.now() + DAY_SECONDS
    [changed] = recorder.of(TurnClockChanged)
    assert (changed.user_id, changed.deadline) == (match.players[late], deadline)
    info = await service.queries.match_info(match.match_id)
    assert (info.overdue_since, info.turn_deadline) == (None, deadline)
    with pytest.raises(ClaimNotOffered):
        await service.overdue.claim_win(match.match_id, waiting_id, 0)

    await clock.advance(DAY_SECONDS - LEAD, settle=service.wait_idle)
    assert len(recorder.of(Reminder)) == 2
    assert recorder.of(Reminder)[-1].deadline == deadline
    await clock.advance(LEAD, settle=service.wait_idle)
    assert len(recorder.of(TurnOverdue)) == 2
    assert recorder.of(DecisionApplied) == [] and recorder.of(MatchEnded) == []


async def test_against_the_ai_nothing_is_ever_decided_for_the_human(make_service, clock):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    match = await service.commands.start_ai_match(101, "easy", 1, 2, time_control=DAYS)
    await service.wait_idle()
    assert match.players[await seat_to_move(service, match.match_id)] == 101
    before = len(recorder.of(DecisionApplied))

    await clock.advance(10 * DAY_SECONDS, settle=service.wait_idle)

    assert len(recorder.of(DecisionApplied)) == before
    assert recorder.of(MatchEnded) == []
    # Nobody is offered to claim a human's match for the AI.
    assert all(e.user_id != AI_USER_ID for e in recorder.of(ClaimOffered))
    await decide(service, match.match_id)  # and the human may still play
