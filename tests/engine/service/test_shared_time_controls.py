"""Time controls with two match services on one PostgreSQL database, as two bot
processes: a clock that runs out is played for (then forfeited) once, not once per
process, and a turn-based claim is offered once."""

from __future__ import annotations

from engine.clocks import OVERDUE_GRACE_SECONDS, TimeControl
from engine.ratings import Reliability
from engine.rules.outcome import Termination
from engine.service import DecisionApplied, MatchEnded, MatchService
from engine.service.events import ClaimOffered, TurnOverdue

from .test_clock_matches import play_until_turn_of
from .test_shared_database import process, settle  # noqa: F401  (the fixture)

RESTARTED_WITHIN = 70.0
"""Long enough for a process just started to act on a deadline (its restart grace)."""


async def started(service: MatchService, control: TimeControl):
    challenge = await service.challenges.challenge(
        101, 202, guild_id=1, channel_id=2, time_control=control
    )
    return await service.challenges.accept(challenge.match_id, 202)


async def test_a_clock_that_runs_out_is_played_for_once_then_forfeited_once(process):  # noqa: F811
    one, heard_by_one = await process("one")
    two, heard_by_two = await process("two")
    match = await started(one, TimeControl.clock(1, 2))
    absent = match.first_player

    await process.clock.advance(60, settle=lambda: settle(one, two))

    applied = heard_by_one.of(DecisionApplied) + heard_by_two.of(DecisionApplied)
    assert [(e.player, e.automatic) for e in applied] == [(absent, True)]
    assert len(await one.store.decisions(match.match_id)) == 1

    await play_until_turn_of(two, match.match_id, absent)
    made = len(await one.store.decisions(match.match_id))
    await process.clock.advance(2, settle=lambda: settle(one, two))
    await settle(one, two)

    [ended] = heard_by_one.of(MatchEnded) + heard_by_two.of(MatchEnded)
    assert ended.outcome.termination is Termination.TIMEOUT
    assert ended.outcome.winner == 1 - absent
    assert len(await one.store.decisions(match.match_id)) == made
    assert await one.store.reliability(1, match.players[absent]) == Reliability(0, 1)


async def test_a_turn_based_claim_is_offered_once(process):  # noqa: F811
    one, heard_by_one = await process("one")
    two, heard_by_two = await process("two")
    match = await started(one, TimeControl.days(1))
    assert match.turn_deadline is not None
    # Polling each second for a day and a half would be slow: both processes are down
    # until just before each deadline.
    for service in (one, two):
        await service.close()
    await process.clock.advance(match.turn_deadline - process.clock.now() - 5)
    one, heard_by_one = await process("one")
    two, heard_by_two = await process("two")
    await process.clock.advance(RESTARTED_WITHIN, settle=lambda: settle(one, two))

    [overdue] = heard_by_one.of(TurnOverdue) + heard_by_two.of(TurnOverdue)
    for service in (one, two):
        await service.close()
    await process.clock.advance(overdue.claim_at - process.clock.now() - 5)
    one, heard_by_one = await process("one")
    two, heard_by_two = await process("two")
    await process.clock.advance(RESTARTED_WITHIN, settle=lambda: settle(one, two))
    await settle(one, two)

    offers = heard_by_one.of(ClaimOffered) + heard_by_two.of(ClaimOffered)
    assert [(e.user_id, e.late_user_id) for e in offers] == [
        (match.players[1 - match.first_player], match.players[match.first_player])
    ]
    assert heard_by_one.of(TurnOverdue) + heard_by_two.of(TurnOverdue) == []
    info = await one.queries.match_info(match.match_id)
    assert info.overdue_since == match.turn_deadline and info.turn_deadline is None
    assert overdue.claim_at == match.turn_deadline + OVERDUE_GRACE_SECONDS
