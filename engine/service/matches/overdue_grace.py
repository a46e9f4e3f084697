"""An overdue turn-based turn, as its deadline passes: the grace begins, then the choice
is offered to the waiting player (:mod:`.overdue` answers it)."""

from __future__ import annotations

from dataclasses import replace

from engine.clocks import OVERDUE_GRACE_SECONDS, Pace
from engine.service.context import ServiceContext
from engine.service.events import ClaimOffered, Event, TurnOverdue
from engine.service.matches.live_match import LiveMatch


async def days_ran_out(ctx: ServiceContext, live: LiveMatch, seat: int) -> None:
    """The turn's deadline passed (its lock held): the grace begins, or, when the grace
    is what ran out, the opponent is offered the choice."""
    info = live.info
    state = live.state
    assert state is not None and info.pace is Pace.DAYS
    now = ctx.clock.now()
    event: Event | None
    if info.overdue_since is None:
        overdue_since = live.deadline if live.deadline is not None else now
        deadline: float | None = now + OVERDUE_GRACE_SECONDS
        assert deadline is not None
        event = TurnOverdue(live.match_id, seat, info.players[seat], deadline, state.version)
    else:
        overdue_since, deadline = info.overdue_since, None
        waiting = 1 - seat
        # The AI never claims, lets itself play or waits on: its human opponent is only
        # told they are late, and the match waits for them.
        event = None
        if not info.is_ai_seat(waiting):
            event = ClaimOffered(
                live.match_id, waiting, info.players[waiting], info.players[seat], state.version
            )
    events = [] if event is None else [event]
    announcements = ctx.outbox.announcements(events, now)
    with ctx.unsure_unless_answered(live, announcements):
        await ctx.store.set_turn_clock(
            live.match_id,
            state.version,
            turn_deadline=deadline,
            overdue_since=overdue_since,
            # Their days ran out after any vacation of theirs: it is over.
            paused_until=None,
            # The grace is told by the event itself, not by a reminder.
            reminded_version=state.version,
            announcements=announcements,
        )
    live.deadline = deadline
    live.reminded_version = state.version
    live.info = replace(info, overdue_since=overdue_since, paused_until=None)
    for each in events:
        ctx.bus.publish(each)
