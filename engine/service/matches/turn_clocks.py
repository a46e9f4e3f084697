"""When each turn's time runs out, by the match's time control: a timer from now, the
mover's bank (a chess-style clock, charged here decision by decision), or days from now
(from the end of the player's vacation, turn-based)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.clocks import ChessClock, Pace
from engine.model import AI_USER_ID
from engine.rules.state import GameState
from engine.service.context import ServiceContext
from engine.service.matches.live_match import LiveMatch


@dataclass(frozen=True, slots=True)
class NextTurn:
    """The clock of the turn a decision (or the start) opens."""

    deadline: float | None
    """None once the match is over."""
    to_move: int | None
    """The user id who decides next (None once over)."""
    clock: ChessClock | None
    """A clock match's banks after the decision."""
    paused_until: float | None = None


class TurnClocks:
    def __init__(self, context: ServiceContext) -> None:
        self._ctx = context

    async def after(
        self, live: LiveMatch, after: GameState, mover: int | None, now: float
    ) -> NextTurn:
        """The turn that follows a decision of seat ``mover`` at ``now`` (None: the start)."""
        info = live.info
        control = info.time_control
        clock = live.clock
        if clock is not None and mover is not None:
            clock = clock.charge(mover, now, control.increment)
        seat = after.current_player
        if after.is_over or seat is None:
            return NextTurn(None, None, clock)
        user = info.players[seat]
        paused_until = await self.vacation_until(info.guild_id, user, now, control.pace)
        bank = clock.banks[seat] if clock is not None else control.seconds
        deadline = control.next_deadline(now, bank, paused_until)
        return NextTurn(deadline, user, clock, paused_until)

    async def vacation_until(
        self, guild_id: int | None, user_id: int, now: float, pace: Pace
    ) -> float | None:
        """Turn-based: when ``user_id``'s vacation under way ends (None if none is)."""
        if pace is not Pace.DAYS or guild_id is None or user_id == AI_USER_ID:
            return None
        for vacation in await self._ctx.store.vacations(guild_id, user_id):
            if vacation.is_on(now):
                return vacation.ends_at
        return None
