"""Turn timers, reminders and the expiry policy, on a manual clock (and once on the real one)."""

from __future__ import annotations

import asyncio
import random

from engine.rules.outcome import Termination
from engine.service import (
    DecisionApplied,
    Event,
    ExpiryPolicy,
    GuildSettings,
    MatchEnded,
    MatchService,
    Reminder,
    ServiceConfig,
    SystemClock,
)
from engine.service.matches.turns import RESTART_GRACE_SECONDS
from engine.store.sqlite import SqliteMatchStore

from .conftest import Recorder, new_match, play_one

TURN = 600.0


async def _play_until_turn_of(service: MatchService, match_id: int, seat: int) -> None:
    rng = random.Random(11)
    while (await service.queries.public_view(match_id)).current_player != seat:
        await play_one(service, match_id, rng)


async def test_a_reminder_goes_out_once_before_the_deadline(make_service, clock):
    recorder = Recorder()
    service = await make_service(recorder=recorder, reminder_before_seconds=60.0)
    match = await new_match(service)
    mover = match.players[match.first_player]

    await clock.advance(TURN - 61, settle=service.wait_idle)
    assert recorder.of(Reminder) == []
    await clock.advance(1, settle=service.wait_idle)
    await clock.advance(59, settle=service.wait_idle)

    [reminder] = recorder.of(Reminder)
    assert (reminder.user_id, reminder.version) == (mover, 0)
    assert reminder.deadline == match.started_at + TURN
    assert recorder.of(DecisionApplied) == []


async def test_an_expired_turn_is_played_by_the_ai_and_marked_automatic(make_service, clock):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    match = await new_match(service)
    absent = match.first_player

    await clock.advance(TURN, settle=service.wait_idle)

    [auto] = recorder.of(DecisionApplied)
    assert (auto.player, auto.version, auto.automatic) == (absent, 1, True)
    assert auto.turn_deadline == match.started_at + 2 * TURN
    [row] = await service.store.decisions(match.match_id)
    assert row.automatic and row.seat == absent


async def test_a_second_expiry_in_a_row_by_the_same_player_forfeits(make_service, clock):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    match = await new_match(service)
    absent = match.first_player

    await clock.advance(TURN, settle=service.wait_idle)  # the AI plays for them once
    await _play_until_turn_of(service, match.match_id, absent)
    await clock.advance(TURN, settle=service.wait_idle)  # and then they forfeit

    [ended] = recorder.of(MatchEnded)
    assert ended.outcome.termination is Termination.TIMEOUT
    assert ended.outcome.winner == 1 - absent


async def test_an_expiry_after_playing_in_between_is_not_a_second_in_a_row(make_service, clock):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    match = await new_match(service)
    absent = match.first_player

    await clock.advance(TURN, settle=service.wait_idle)
    await _play_until_turn_of(service, match.match_id, absent)
    await play_one(service, match.match_id, random.Random(1))  # they are back for a turn
    await _play_until_turn_of(service, match.match_id, absent)
    await clock.advance(TURN, settle=service.wait_idle)

    assert recorder.of(MatchEnded) == []
    assert sum(e.automatic for e in recorder.of(DecisionApplied)) == 2


async def test_under_the_forfeit_policy_an_expired_turn_loses_the_match(make_service, clock):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    await service.settings.set_guild_settings(GuildSettings(1, expiry_policy=ExpiryPolicy.FORFEIT))
    match = await new_match(service)

    await clock.advance(TURN, settle=service.wait_idle)

    [ended] = recorder.of(MatchEnded)
    assert ended.outcome.termination is Termination.TIMEOUT
    assert ended.winner_id == match.players[1 - match.first_player]
    [result] = await service.queries.finished_matches()
    assert result.reason is Termination.TIMEOUT


async def test_a_restart_keeps_the_remaining_time_and_does_not_repeat_the_reminder(
    make_service, clock
):
    first = await make_service(reminder_before_seconds=300.0)
    match = await new_match(first)
    await clock.advance(400, settle=first.wait_idle)  # reminder at 300 went out
    await first.close()

    recorder = Recorder()
    second = await make_service(recorder=recorder, reminder_before_seconds=300.0)
    await clock.advance(199, settle=second.wait_idle)
    assert recorder.events == []
    await clock.advance(1, settle=second.wait_idle)

    [auto] = recorder.of(DecisionApplied)
    assert auto.automatic and auto.player == match.first_player
    assert recorder.of(Reminder) == []


async def test_a_reminder_due_while_the_bot_was_down_goes_out_once_on_restart(make_service, clock):
    first = await make_service(reminder_before_seconds=300.0)
    match = await new_match(first)
    await clock.advance(250, settle=first.wait_idle)
    await first.close()
    await clock.advance(100)  # the bot is down when the reminder falls due

    recorder = Recorder()
    second = await make_service(recorder=recorder, reminder_before_seconds=300.0)
    await second.wait_idle()
    await clock.advance(100, settle=second.wait_idle)
    await second.close()
    third = await make_service(recorder=recorder, reminder_before_seconds=300.0)
    await third.wait_idle()

    [reminder] = recorder.of(Reminder)
    assert reminder.match_id == match.match_id and reminder.version == 0


async def test_timers_run_on_the_real_clock(db_path):
    config = ServiceConfig(
        turn_timer_seconds=0.3,
        min_turn_seconds=0.1,
        reminder_before_seconds=0.1,
        ai_move_delay_seconds=0,
    )
    service = MatchService(
        SqliteMatchStore(str(db_path)), config, clock=SystemClock(), rng=random.Random(1)
    )
    seen: list[Event] = []
    automatic = asyncio.Event()

    async def on_event(event: Event) -> None:
        seen.append(event)
        if isinstance(event, DecisionApplied) and event.automatic:
            automatic.set()

    service.subscribe(on_event)
    await service.start()
    try:
        await new_match(service)
        await asyncio.wait_for(automatic.wait(), timeout=5)
        kinds = [type(e) for e in seen]
        assert kinds.index(Reminder) < kinds.index(DecisionApplied)
        assert kinds.count(Reminder) == 1
    finally:
        await service.close()


async def test_a_turn_that_ran_out_while_the_bot_was_down_gets_a_minute_after_the_restart(
    make_service, clock
):
    """Nobody could play while the bot was down: the timer does not play for the player the
    moment it is back, but gives them a minute (or a whole turn, if shorter)."""
    first = await make_service()
    match = await new_match(first)
    await first.close()
    await clock.advance(TURN + 3600)  # down for longer than the whole turn

    recorder = Recorder()
    second = await make_service(recorder=recorder)
    await second.wait_idle()
    info = await second.queries.match_info(match.match_id)
    assert info.turn_deadline == clock.now() + RESTART_GRACE_SECONDS
    await clock.advance(RESTART_GRACE_SECONDS - 1, settle=second.wait_idle)
    assert recorder.of(DecisionApplied) == []
    await clock.advance(1, settle=second.wait_idle)
    [automatic] = recorder.of(DecisionApplied)
    assert automatic.automatic and automatic.match_id == match.match_id
