"""What a review of issue 40 found, each kept here: a vacation over before the days ran out
is not shown as under way; a vacation paused no turn twice; Keep waiting gives a late
player on vacation their days after it; a wall clock stepped back does not refuse a move;
the waiting player's choice coming after the late player moved (in another process) is a
stale press, not an error."""

from __future__ import annotations

from engine.clocks import DAY_SECONDS, OVERDUE_GRACE_SECONDS, TimeControl
from engine.service.events import ClaimOffered
from engine.service.matches.errors import StaleVersion
from engine.store.errors import MatchConflict

from .conftest import Recorder
from .test_clock_matches import clock_match, decide, play_until_turn_of
from .test_vacations import GUILD, match_of


async def test_a_vacation_over_before_the_days_ran_out_is_not_under_way(make_service, clock):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    match = await match_of(service)
    away_seat = 1 - (match.first_player or 0)
    away = match.players[away_seat]
    await service.vacations.take(GUILD, away, 1)
    await play_until_turn_of(service, match.match_id, away_seat)
    await clock.advance(2 * DAY_SECONDS + OVERDUE_GRACE_SECONDS + 10, settle=service.wait_idle)
    assert recorder.of(ClaimOffered)
    info = await service.queries.match_info(match.match_id)
    assert info.overdue_since is not None and info.paused_until is None


async def test_a_turn_begun_after_the_vacation_was_saved_is_not_paused_twice(make_service, clock):
    service = await make_service()
    match = await match_of(service)
    away_seat = 1 - (match.first_player or 0)
    away = match.players[away_seat]
    saved = service.store.save_vacation

    async def saved_then_the_opponent_moves(guild_id, user_id, vacation):  # type: ignore[no-untyped-def]
        await saved(guild_id, user_id, vacation)
        await decide(service, match.match_id)  # the turn reaches them, after the vacation

    service.store.save_vacation = saved_then_the_opponent_moves
    status = await service.vacations.take(GUILD, away, 3)
    assert status.current is not None
    info = await service.queries.match_info(match.match_id)
    assert info.turn_deadline == status.current.ends_at + DAY_SECONDS


async def test_keep_waiting_for_a_player_on_vacation_starts_their_days_after_it(
    make_service, clock
):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    match = await match_of(service)
    late = match.players[match.first_player or 0]
    await clock.advance(DAY_SECONDS + OVERDUE_GRACE_SECONDS + 10, settle=service.wait_idle)
    [offer] = recorder.of(ClaimOffered)
    status = await service.vacations.take(GUILD, late, 7)
    assert status.current is not None
    deadline = await service.overdue.keep_waiting(match.match_id, offer.user_id, offer.version)
    assert deadline == status.current.ends_at + DAY_SECONDS
    await clock.advance(7 * DAY_SECONDS, settle=service.wait_idle)
    assert len(recorder.of(ClaimOffered)) == 1, "no claim while they are away"


async def test_a_wall_clock_stepped_back_charges_nothing_and_refuses_no_move(make_service, clock):
    service = await make_service()
    match = await clock_match(service)
    await clock.advance(5, settle=service.wait_idle)
    await decide(service, match.match_id)
    now = (await service.queries.match_now(match.match_id)).info
    before, mover = now.banks, now.seat_to_move
    clock._now -= 0.5  # an NTP step back, or another host's clock a little behind
    await decide(service, match.match_id)
    after = (await service.queries.match_now(match.match_id)).info.banks
    assert before is not None and after is not None and mover is not None
    assert after[mover] == before[mover] + TimeControl.clock(1, 2).increment


async def test_a_choice_overtaken_by_the_late_player_in_another_process_is_stale(
    make_service, clock
):
    recorder = Recorder()
    service = await make_service(recorder=recorder)
    match = await match_of(service)
    await clock.advance(DAY_SECONDS + OVERDUE_GRACE_SECONDS + 10, settle=service.wait_idle)
    [offer] = recorder.of(ClaimOffered)
    finish = service.store.finish_match

    async def overtaken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise MatchConflict(match.match_id, f"version {offer.version} (active)", "moved on")

    service.store.finish_match = overtaken
    try:
        await service.overdue.claim_win(match.match_id, offer.user_id, offer.version)
    except StaleVersion as stale:
        assert stale.expected == offer.version
    else:
        raise AssertionError("the claim was not refused as stale")
    finally:
        service.store.finish_match = finish
