"""Chess-style clock matches through the service, on a manual clock: each decision charged
to its mover's bank with the increment added, the deadline where the mover's bank runs
out, the expiry policy when it does, and banks that a restart neither loses nor gains."""

from __future__ import annotations

from engine.clocks import TimeControl
from engine.ratings import Reliability
from engine.rules.outcome import Termination
from engine.service import (
    DecisionApplied,
    ExpiryPolicy,
    GuildSettings,
    MatchEnded,
    MatchInfo,
    MatchService,
    SubmitResult,
)

from .conftest import Recorder

BANK = 60.0
INCREMENT = 2.0
CLOCK = TimeControl.clock(1, INCREMENT)


async def clock_match(
    service: MatchService, control: TimeControl = CLOCK, challenger: int = 101, opponent: int = 202
) -> MatchInfo:
    challenge = await service.challenges.challenge(
        challenger, opponent, guild_id=1, channel_id=2, time_control=control
    )
    return await service.challenges.accept(challenge.match_id, opponent)


async def seat_to_move(service: MatchService, match_id: int) -> int:
    seat = (await service.queries.public_view(match_id)).current_player
    assert seat is not None
    return seat


async def decide(service: MatchService, match_id: int) -> SubmitResult:
    """The player to move makes the first legal decision they see."""
    info = await service.queries.match_info(match_id)
    user = info.players[await seat_to_move(service, match_id)]
    seen = await service.queries.view_for(match_id, user)
    return await service.commands.submit(match_id, user, seen.legal[0], seen.table.version)


async def play_until_turn_of(service: MatchService, match_id: int, seat: int) -> None:
    """The other player decides at once until ``seat`` is to move."""
    while await seat_to_move(service, match_id) != seat:
        await decide(service, match_id)


async def test_a_clock_match_starts_with_full_banks_and_the_first_movers_deadline(service, clock):
    match = await clock_match(service)

    info = (await service.queries.match_now(match.match_id)).info
    assert info.time_control == CLOCK
    assert info.banks == (BANK, BANK)
    assert info.turn_deadline == clock.now() + BANK
    assert info.to_move == match.players[match.first_player]


async def test_each_decision_is_charged_to_its_mover_and_earns_the_increment(service, clock):
    match = await clock_match(service)
    banks = [BANK, BANK]

    for wait in (10.0, 3.0, 25.0, 0.0, 7.0, 12.5, 1.0, 4.0):
        seat = await seat_to_move(service, match.match_id)
        await clock.advance(wait, settle=service.wait_idle)
        result = await decide(service, match.match_id)
        banks[seat] = banks[seat] - wait + INCREMENT

        info = (await service.queries.match_now(match.match_id)).info
        assert info.banks == tuple(banks)
        assert result.next_player is not None
        # The next mover's clock runs from now: their whole bank, no more.
        assert info.turn_deadline == clock.now() + banks[result.next_player]
        assert info.to_move == info.players[result.next_player]


async def test_a_player_whose_bank_runs_out_is_played_for_then_forfeits_the_second_time(
    make_service, clock
):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    match = await clock_match(service)
    absent = match.first_player
    absent_id, present_id = match.players[absent], match.players[1 - absent]

    await clock.advance(BANK - 1, settle=service.wait_idle)
    assert recorder.of(DecisionApplied) == []
    await clock.advance(1, settle=service.wait_idle)

    [auto] = recorder.of(DecisionApplied)
    assert (auto.player, auto.automatic) == (absent, True)
    info = (await service.queries.match_now(match.match_id)).info
    # Emptied, never below zero, then the increment.
    assert info.banks is not None and info.banks[absent] == INCREMENT

    await play_until_turn_of(service, match.match_id, absent)
    deadline = (await service.queries.match_info(match.match_id)).turn_deadline
    assert deadline == clock.now() + INCREMENT
    await clock.advance(INCREMENT, settle=service.wait_idle)

    [ended] = recorder.of(MatchEnded)
    assert ended.outcome.termination is Termination.TIMEOUT
    assert ended.winner_id == present_id
    assert await service.store.reliability(1, absent_id) == Reliability(0, 1)
    assert await service.store.reliability(1, present_id) == Reliability(1, 0)


async def test_under_the_forfeit_policy_an_empty_bank_loses_at_once(make_service, clock):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    await service.settings.set_guild_settings(GuildSettings(1, expiry_policy=ExpiryPolicy.FORFEIT))
    match = await clock_match(service)
    late = match.first_player
    await clock.advance(5, settle=service.wait_idle)
    await decide(service, match.match_id)  # the first mover decides in time
    await play_until_turn_of(service, match.match_id, 1 - late)
    mover = await seat_to_move(service, match.match_id)
    left = (await service.queries.match_now(match.match_id)).info.banks
    assert left is not None

    await clock.advance(left[mover] - 0.5, settle=service.wait_idle)
    assert recorder.of(MatchEnded) == []
    await clock.advance(0.5, settle=service.wait_idle)

    [ended] = recorder.of(MatchEnded)
    assert ended.outcome.termination is Termination.TIMEOUT
    assert ended.outcome.winner == 1 - mover
    assert not any(e.automatic for e in recorder.of(DecisionApplied))
    assert await service.store.reliability(1, match.players[mover]) == Reliability(0, 1)
    assert await service.store.reliability(1, match.players[1 - mover]) == Reliability(1, 0)


async def test_a_restart_keeps_both_banks_and_the_deadline_to_the_second(make_service, clock):
    control = TimeControl.clock(3, 5)
    first = await make_service()
    match = await clock_match(first, control)
    for wait in (12.0, 40.0, 3.0, 21.0):
        await clock.advance(wait, settle=first.wait_idle)
        await decide(first, match.match_id)
    before = (await first.queries.match_now(match.match_id)).info
    await first.close()
    await clock.advance(20)  # down a while: the mover's clock runs on meanwhile

    recorder = Recorder()
    second = await make_service(recorder=recorder)
    await second.wait_idle()
    after = (await second.queries.match_now(match.match_id)).info

    assert after.banks == before.banks
    assert after.turn_deadline == before.turn_deadline
    mover = await seat_to_move(second, match.match_id)
    assert before.banks is not None and before.turn_deadline is not None
    # The timer plays exactly at the deadline the first process set, not a second later.
    await clock.advance(before.turn_deadline - clock.now() - 1, settle=second.wait_idle)
    assert recorder.of(DecisionApplied) == []
    await clock.advance(1, settle=second.wait_idle)
    [auto] = recorder.of(DecisionApplied)
    assert auto.automatic and auto.player == mover
    banks = (await second.queries.match_now(match.match_id)).info.banks
    assert banks is not None and banks[mover] == control.increment
    assert banks[1 - mover] == before.banks[1 - mover]


async def test_against_the_ai_only_the_humans_bank_runs(service, clock):
    match = await service.commands.start_ai_match(101, "easy", 1, 2, time_control=CLOCK)
    assert match.started_at is not None
    waits = iter((1.0, 4.0, 2.5, 7.0, 3.0))
    checked = 0
    while (wait := next(waits, None)) is not None:
        await service.wait_idle()
        now = await service.queries.match_now(match.match_id)
        if now.public.outcome is not None:
            break
        rows = await service.store.decisions(match.match_id)
        turn_starts = [match.started_at, *(row.decided_at for row in rows)]
        spent = sum(row.decided_at - at for row, at in zip(rows, turn_starts, strict=False))
        made = [sum(row.seat == seat for row in rows) for seat in (0, 1)]
        # The AI decides the moment its turn comes: its bank only gains the increments.
        assert now.info.banks == (BANK - spent + INCREMENT * made[0], BANK + INCREMENT * made[1])
        assert now.info.to_move == 101
        assert now.info.turn_deadline == clock.now() + now.info.banks[0]
        checked += 1
        await clock.advance(wait, settle=service.wait_idle)
        await decide(service, match.match_id)
    assert checked >= 2
