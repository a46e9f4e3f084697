"""What a match's thread must show after an event, planned without Discord.

:func:`plan` reads the event (which carries what the engine knows: who decides next,
whether the round ended, an offer open) and the match as it is now, and returns the steps
the match's presenter (:mod:`bot.play.match_presenter`) carries out, in order. It decides
nothing of the game: the thread shows, the board follows, and someone is told only when
they must be (the next player is away, the timer played for someone).

An event shown late (after a restart, the match already further on) still gets its line,
but nobody is told it is their turn: the board shows the match as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeGuard

from engine.model import AI_USER_ID, MatchInfo
from engine.rules import PublicView
from engine.rules.outcome import MatchOutcome, RoundResult
from engine.service.events import (
    ChoiceNeeded,
    ClaimOffered,
    DecisionApplied,
    Event,
    MatchEnded,
    MatchEvent,
    MatchResumed,
    MatchStarted,
    Reminder,
    RoundScored,
    TurnClockChanged,
    TurnOverdue,
)


@dataclass(frozen=True, slots=True)
class Scene:
    """The match as the presenter read it once for what is queued (its info and public
    view, :class:`engine.service.MatchNow`), and who is away now."""

    info: MatchInfo
    public: PublicView
    away: frozenset[int] = frozenset()
    """The players who have not acted in the match for a while (they get a mention)."""


# -- the lines a post is made of -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TimedOut:
    """The turn timer played for this seat."""

    seat: int


@dataclass(frozen=True, slots=True)
class YourTurn:
    user_id: int


@dataclass(frozen=True, slots=True)
class RemindTurn:
    user_id: int
    deadline: float


@dataclass(frozen=True, slots=True)
class Overdue:
    """Turn-based: this player's (``user_id``, ``seat``) days ran out; their opponent may
    choose what happens from ``claim_at``."""

    user_id: int
    seat: int
    claim_at: float


@dataclass(frozen=True, slots=True)
class ClaimOffer:
    """Turn-based: this waiting player (``user_id``, ``seat``) may now claim the win, let
    the AI play the late turn, or keep waiting (the buttons are on the board)."""

    user_id: int
    seat: int


Line = TimedOut | YourTurn | RemindTurn | Overdue | ClaimOffer


# -- the steps -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SetUp:
    """Open the match's thread and post its board, where not done yet; the board's first
    post greets ``greet`` (a user id), who starts, with a mention: one message, not two."""

    greet: int | None = None


@dataclass(frozen=True, slots=True)
class EditBoard:
    """Edit the board to show the match as it is now (one edit for several events)."""


@dataclass(frozen=True, slots=True)
class Post:
    """A message in the thread, mentioning ``mention`` (a user id) if set."""

    lines: tuple[Line, ...]
    mention: int | None = None


@dataclass(frozen=True, slots=True)
class PostSummary:
    """A round's summary; ``next_starter`` (a seat) named when another round follows."""

    result: RoundResult
    next_starter: int | None = None
    mention: int | None = None


@dataclass(frozen=True, slots=True)
class PostResult:
    """The match's result, its rematch and review buttons; then the thread is closed."""

    outcome: MatchOutcome
    version: int


@dataclass(frozen=True, slots=True)
class AskOffer:
    """Mention an away chooser with the offer and its Take buttons."""

    offer: ChoiceNeeded


@dataclass(frozen=True, slots=True)
class OfferAnswered:
    """The chooser took from the offer: its question, if one was asked, is answered."""

    decision: DecisionApplied


@dataclass(frozen=True, slots=True)
class Notify:
    """Send the player their private panel by DM (in the background)."""

    user_id: int


@dataclass(frozen=True, slots=True)
class NotifyClaim:
    """Tell the waiting player by DM (if they want DMs) that they may choose what happens
    to the late turn (in the background)."""

    user_id: int


@dataclass(frozen=True, slots=True)
class RetirePanel:
    """Close the player's DM panel of the match (the turn moved on)."""

    user_id: int


Step = (
    SetUp
    | EditBoard
    | Post
    | PostSummary
    | PostResult
    | AskOffer
    | OfferAnswered
    | Notify
    | NotifyClaim
    | RetirePanel
)

SHOWN_KINDS = (
    MatchStarted,
    MatchResumed,
    DecisionApplied,
    ChoiceNeeded,
    RoundScored,
    Reminder,
    TurnOverdue,
    ClaimOffered,
    TurnClockChanged,
    MatchEnded,
)
"""The events a thread shows; the others (challenges, abandonments) belong to other
features."""


def shows(event: Event) -> TypeGuard[MatchEvent]:
    """Whether the thread shows this kind of event at all (only a match's)."""
    return isinstance(event, SHOWN_KINDS)


def plan(event: Event, before: Scene | None, after: Scene) -> list[Step]:
    """The steps that show ``event``, given the match as its board last showed it
    (``before``, None if this process has not shown it yet) and as it is now (``after``).
    """
    if isinstance(event, MatchStarted):
        return _started(event, after)
    if isinstance(event, MatchResumed):
        resumed: list[Step] = [SetUp()]
        if after.info.placement.board_message_id is not None:
            resumed.append(EditBoard())
        return resumed
    board = _board(before, after)
    if isinstance(event, DecisionApplied):
        return board + _decision(event, after)
    if isinstance(event, ChoiceNeeded):
        return board + _choice_needed(event, after)
    if isinstance(event, RoundScored):
        return board + _round_scored(event, after)
    if isinstance(event, Reminder):
        if after.public.version != event.version:
            return []  # the turn it was about is over
        return [Post((RemindTurn(event.user_id, event.deadline),), mention=event.user_id)]
    if isinstance(event, TurnOverdue | ClaimOffered):
        if after.public.version != event.version:
            return board  # the late player moved meanwhile: the board shows it
        return board + _overdue(event)
    if isinstance(event, TurnClockChanged):
        return board
    if isinstance(event, MatchEnded):
        retire: list[Step] = [RetirePanel(u) for u in event.players if u != AI_USER_ID]
        return [*retire, *board, PostResult(event.outcome, event.version)]
    return []


def _board(before: Scene | None, after: Scene) -> list[Step]:
    """An edit of the board, unless it already shows the match as it is now (a ChoiceNeeded
    or a RoundScored comes with the decision that caused it: one edit shows all)."""
    shown = (
        before is not None
        and before.public.version == after.public.version
        and before.info.placement == after.info.placement
        and before.info.turn_deadline == after.info.turn_deadline
        and before.info.overdue_since == after.info.overdue_since
        and before.info.paused_until == after.info.paused_until
    )
    return [] if shown else [EditBoard()]


def _overdue(event: TurnOverdue | ClaimOffered) -> list[Step]:
    """The late player is told their days ran out (the claim comes after a grace); once it
    is offered, the waiting player is told the choice is theirs. The AI is never told."""
    if isinstance(event, TurnOverdue):
        if event.user_id == AI_USER_ID:
            return []
        late = Overdue(event.user_id, event.player, event.claim_at)
        return [Post((late,), mention=event.user_id)]
    if event.user_id == AI_USER_ID:
        return []
    offer = ClaimOffer(event.user_id, event.player)
    return [NotifyClaim(event.user_id), Post((offer,), mention=event.user_id)]


def _started(event: MatchStarted, after: Scene) -> list[Step]:
    first = event.players[event.first_player]
    # Shown late (after a restart) once the match went on, "you start" would mislead.
    if first != AI_USER_ID and after.public.version == 0:
        return [SetUp(greet=first), Notify(first)]
    return [SetUp()]


def _decision(event: DecisionApplied, after: Scene) -> list[Step]:
    steps: list[Step] = []
    if event.move.choice is not None:
        steps.append(OfferAnswered(event))
    lines: list[Line] = [TimedOut(event.player)] if event.automatic else []
    facts = event.next
    if facts is None or after.public.version != event.version:
        # Shown late (after a restart), or stored before events said who plays next:
        # nobody is told it is their turn now; what happened still gets its line.
        return steps + ([Post(tuple(lines))] if lines else [])
    next_user = AI_USER_ID if facts.user_id is None else facts.user_id
    # After a round ends its summary names who starts the next one; an open offer is
    # announced by ChoiceNeeded.
    turn_passes = not facts.round_ended and not facts.offer_open
    if event.user_id != AI_USER_ID and (event.user_id != next_user or not turn_passes):
        steps.append(RetirePanel(event.user_id))  # else the new DM panel retires the old one
    mention = None
    if turn_passes and next_user != AI_USER_ID:
        steps.append(Notify(next_user))
        if next_user in after.away:
            mention = next_user
            lines.append(YourTurn(next_user))
    if lines:
        steps.append(Post(tuple(lines), mention=mention))
    return steps


def _choice_needed(event: ChoiceNeeded, after: Scene) -> list[Step]:
    """The offer and its Take buttons are on the board; the chooser is mentioned only when
    away."""
    steps: list[Step] = []
    if event.user_id == AI_USER_ID or after.public.version != event.version:
        return steps  # the AI answers by itself; or answered while the bot was down
    steps.append(Notify(event.user_id))
    if event.user_id in after.away:
        steps.append(AskOffer(event))
    return steps


def _round_scored(event: RoundScored, after: Scene) -> list[Step]:
    steps: list[Step] = []
    starter = event.next_starter
    if starter is None:
        return [*steps, PostSummary(event.result)]  # the match ended with it
    starter_id = after.info.players[starter]
    mention = None
    if starter_id != AI_USER_ID and after.public.version == event.version:
        steps.append(Notify(starter_id))
        if starter_id in after.away:
            mention = starter_id
    return [*steps, PostSummary(event.result, starter, mention)]
