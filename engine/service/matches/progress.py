"""Moving a match on, with its lock held: a decision applied, a challenge started or
closed, a match finished (and rated) — each committed first, then published.

Nothing here arms timers; the caller re-arms the match (:meth:`MatchTurns.arm`) after.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

from engine.model import DecisionRow, FinishedMatch, MatchInfo, MatchStatus, Placement
from engine.ratings import is_rated, rate_finished_match
from engine.rules.decisions import Competition, Decision, Gift
from engine.rules.notation import Move
from engine.rules.outcome import MatchOutcome
from engine.rules.record import MatchRecord
from engine.rules.state import GameState, Phase
from engine.rules.views import PlayerView, public_move
from engine.service.context import ServiceContext
from engine.service.events import (
    ChallengeAccepted,
    ChallengeCancelled,
    ChallengeDeclined,
    ChoiceNeeded,
    DecisionApplied,
    Event,
    MatchBroken,
    MatchEnded,
    MatchStarted,
    NextTurn,
    RoundScored,
)
from engine.service.events import ChallengeExpired as ChallengeExpiredEvent
from engine.service.matches.live_match import LiveMatch
from engine.service.matches.turn_clocks import TurnClocks

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SubmitResult:
    """What an accepted, committed decision did."""

    match_id: int
    version: int
    """The match version after the decision; the next submission must name it."""
    move: Move
    """The decision as spectators see it (``1X`` for a Secret)."""
    automatic: bool
    outcome: MatchOutcome | None
    """Set when this decision ended the match."""
    next_player: int | None = None
    """The seat that decides next (None once the match is over)."""
    view: PlayerView | None = None
    """What the submitter sees after the decision, so their panel is redrawn without
    reading the match again."""


class MatchProgress:
    """The steps that change a match, shared by the commands and the turns."""

    def __init__(self, context: ServiceContext) -> None:
        self._ctx = context
        self._clocks = TurnClocks(context)

    async def apply(
        self, live: LiveMatch, seat: int, decision: Decision, *, automatic: bool
    ) -> SubmitResult:
        """Apply a decision (IllegalDecision passes through, nothing changed), commit it."""
        before = live.state
        assert before is not None
        after = before.clone()
        after.apply(decision, seat)
        move = public_move(before, decision)
        now = self._ctx.clock.now()
        turn = await self._clocks.after(live, after, seat, now)
        deadline = turn.deadline
        row = DecisionRow(
            after.version,
            seat,
            str(decision),
            now,
            automatic,
            deadline,
            next_to_move=turn.to_move,
            paused_until=turn.paused_until,
        )
        round_ended = len(after.results) > len(before.results)
        applied = DecisionApplied(
            live.match_id,
            seat,
            live.info.players[seat],
            move,
            after.version,
            automatic,
            deadline,
            next_turn(live.info, after, round_ended=round_ended),
        )
        events: list[Event] = [applied]
        if round_ended:
            starter = None if after.is_over else after.current_player
            events.append(
                RoundScored(live.match_id, after.results[-1], after.version, next_starter=starter)
            )
        if after.is_over:
            live.clock = turn.clock
            await self.finish(live, after, row, events)
        else:
            events += self._choice_needed(live, after)
            announcements = self._ctx.outbox.announcements(events, now)
            with self._ctx.unsure_unless_answered(live, announcements):
                await self._ctx.store.append_decision(live.match_id, row, announcements)
            live.state = after
            live.deadline = deadline
            live.clock = turn.clock
            live.info = replace(
                live.info,
                to_move=turn.to_move,
                overdue_since=None,
                paused_until=turn.paused_until,
            )
            live.last_automatic[seat] = automatic
            for event in events:
                self._ctx.bus.publish(event)
        return SubmitResult(
            live.match_id,
            after.version,
            move,
            automatic,
            after.outcome,
            after.current_player,
            live.views.player(after, seat),  # the presser's next press reads it again
        )

    async def finish(
        self,
        live: LiveMatch,
        state: GameState,
        row: DecisionRow | None = None,
        events: list[Event] | None = None,
    ) -> None:
        """Commit the result of a match that is over (with its ratings) and let it go."""
        outcome = state.outcome
        info = live.info
        assert outcome is not None and info.started_at is not None
        now = self._ctx.clock.now()
        winner_id = None if outcome.winner is None else info.players[outcome.winner]
        result = FinishedMatch(
            match_id=info.match_id,
            guild_id=info.guild_id,
            variant=info.variant,
            players=info.players,
            ai_level=info.ai_level,
            winner_seat=outcome.winner,
            winner_id=winner_id,
            reason=outcome.termination,
            rounds=outcome.rounds_played,
            started_at=info.started_at,
            finished_at=now,
            record=MatchRecord.of(state).to_json(),
        )
        events = [
            *(events or ()),
            MatchEnded(info.match_id, info.players, outcome, winner_id, state.version),
        ]
        announcements = self._ctx.outbox.announcements(events, now)
        # Rated in the store, under the guild's ratings key (see MatchStore.finish_match).
        rated = (
            info.rated and is_rated(result) and await self._rated_in_its_tournament(info.match_id)
        )
        rate = (lambda before: rate_finished_match(result, before)) if rated else None
        with self._ctx.unsure_unless_answered(live, announcements):
            await self._ctx.store.finish_match(
                result, row, rate, announcements, version=live.version
            )
        live.state = state
        live.deadline = None
        live.info = replace(info, status=MatchStatus.FINISHED, ended_at=now)
        for event in events:
            self._ctx.bus.publish(event)
        self._ctx.matches.remove(live)

    async def _rated_in_its_tournament(self, match_id: int) -> bool:
        """A tournament's match is rated unless its organiser said not; any other is."""
        found = await self._ctx.store.tournament_game_of_match(match_id)
        if found is None:
            return True
        event = await self._ctx.store.get_tournament(found[0])
        return event is None or event.rated

    async def start_challenged(
        self, live: LiveMatch, joiner_id: int | None = None, first_player: int | None = None
    ) -> None:
        """The accepted challenge becomes a match, ``joiner_id`` (who accepted: anyone, for
        an open seat) in seat 1: a seeded deal, a random first player (or ``first_player``:
        a tournament's pairing says who starts)."""
        ctx = self._ctx
        now = ctx.clock.now()
        seed = ctx.rng.getrandbits(63)
        if first_player is None:
            first_player = ctx.rng.randrange(2)
        players = live.info.players if joiner_id is None else (live.info.players[0], joiner_id)
        # Every pace starts with its full time (a bank is the clock's first turn), after the
        # first player's vacation (turn-based: a tournament may pair a member away).
        control = live.info.time_control
        paused_until = await self._clocks.vacation_until(
            live.info.guild_id, players[first_player], now, control.pace
        )
        deadline = control.next_deadline(now, control.seconds, paused_until)
        info = replace(
            live.info,
            players=players,
            status=MatchStatus.ACTIVE,
            seed=seed,
            first_player=first_player,
            started_at=now,
            turn_deadline=deadline,
            to_move=players[first_player],
            paused_until=paused_until,
            # The challenge's message was its board; the match gets its own (see start_match).
            placement=Placement(live.info.placement.thread_id, None),
        )
        started = started_event(info)
        announcements = ctx.outbox.announcements([started], now)
        with ctx.unsure_unless_answered(live, announcements):
            await ctx.store.start_match(
                live.match_id,
                seed=seed,
                first_player=first_player,
                started_at=now,
                turn_deadline=deadline,
                announcements=announcements,
                opponent_id=joiner_id,
                paused_until=paused_until,
            )
        live.info = info
        live.deadline = deadline
        live.clock = info.chess_clock([])
        live.state = GameState(seed=seed, first_player=first_player, variant=live.info.variant)
        challenger, opponent = live.info.players
        ctx.bus.publish(ChallengeAccepted(live.match_id, challenger, opponent))
        ctx.bus.publish(started)

    async def close_challenge(self, live: LiveMatch, status: MatchStatus) -> None:
        """End a pending challenge as declined, cancelled or expired."""
        now = self._ctx.clock.now()
        challenger, opponent = live.info.players
        event: Event
        if status is MatchStatus.DECLINED:
            event = ChallengeDeclined(live.match_id, challenger, opponent)
        elif status is MatchStatus.CANCELLED:
            event = ChallengeCancelled(live.match_id, challenger, opponent)
        else:
            event = ChallengeExpiredEvent(live.match_id, challenger, opponent)
        announcements = self._ctx.outbox.announcements([event], now)
        with self._ctx.unsure_unless_answered(live, announcements):
            await self._ctx.store.close_challenge(live.match_id, status, now, announcements)
        live.info = replace(live.info, status=status, ended_at=now)
        self._ctx.matches.remove(live)
        self._ctx.bus.publish(event)

    async def set_aside(self, info: MatchInfo, reason: str) -> None:
        """A stored match that no longer replays: marked broken and kept for inspection."""
        log.error("match %d no longer replays and was set aside: %s", info.match_id, reason)
        await self._ctx.store.mark_broken(info.match_id, reason, self._ctx.clock.now())
        self._ctx.bus.publish(MatchBroken(info.match_id, reason))

    async def create_started(self, info: MatchInfo) -> MatchInfo:
        """Store a match created already active (against the AI), with its announcement."""
        announcements = self._ctx.outbox.announcements([started_event(info)], info.created_at)
        return await self._ctx.store.create_match(info, announcements)

    def publish_started(self, live: LiveMatch) -> None:
        self._ctx.bus.publish(started_event(live.info))

    @staticmethod
    def _choice_needed(live: LiveMatch, state: GameState) -> list[Event]:
        """A Gift or Competition that now waits for the other player's choice."""
        if state.phase not in (Phase.GIFT_CHOICE, Phase.COMPETITION_CHOICE):
            return []
        seat = state.to_move
        offer = state.pending
        assert isinstance(offer, Gift | Competition)
        return [ChoiceNeeded(live.match_id, seat, live.info.players[seat], offer, state.version)]


def next_turn(info: MatchInfo, state: GameState, *, round_ended: bool) -> NextTurn:
    """Who decides in ``state``, just after a decision (``round_ended`` if it scored a round)."""
    seat = state.current_player
    return NextTurn(
        seat,
        None if seat is None else info.players[seat],
        round_ended,
        state.phase in (Phase.GIFT_CHOICE, Phase.COMPETITION_CHOICE),
    )


def started_event(info: MatchInfo) -> MatchStarted:
    """The announcement of a match that has just started (``info`` as stored)."""
    assert info.first_player is not None
    return MatchStarted(
        info.match_id,
        info.players,
        info.first_player,
        info.variant,
        info.ai_level,
        info.guild_id,
        info.channel_id,
        info.turn_deadline,
        info.hints,
    )
