"""A finished match as one viewer may see it, step by step: what a review shows.

Step 0 is the first deal; step ``k`` is the table right after the match's ``k``-th decision
(:mod:`engine.review.steps`). Every step has its public table; the hidden cards (both hands,
both Secrets and Trade-offs, the round's removed card), a Secret's or a Trade-off's own
cards and the AI's judgement are there only when the viewer may see them
(``hidden_shown``): otherwise they are not in the object at all, so nothing downstream can
show them by mistake. Who may see them is :mod:`engine.service.reviews.sight`; this module only
leaves out what it is told to.

    >>> from engine.rules import new_game
    >>> from engine.rules.record import MatchRecord
    >>> import random
    >>> game = new_game(random.Random(1))
    >>> seen = seen_match(MatchRecord.of(game), hidden_shown=False)
    >>> seen.decisions, seen.steps[0].hidden is None
    (0, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.review.judgement import MatchReview
from engine.review.steps import match_steps
from engine.rules.decisions import Secret, TradeOff
from engine.rules.notation import Move
from engine.rules.record import MatchRecord, replay
from engine.rules.state import GameState
from engine.rules.views import PublicView, public_move, public_view, view


@dataclass(frozen=True, slots=True)
class HiddenCards:
    """Every card a spectator does not see, at one step."""

    hands: tuple[tuple[int, ...], tuple[int, ...]]
    secrets: tuple[int | None, int | None]
    """Each seat's face-down Secret this round (None: not played yet)."""
    trade_offs: tuple[tuple[int, int] | None, tuple[int, int] | None]
    """Each seat's two discarded cards this round (None: not played yet)."""
    removed: int
    """The card set aside at the round's deal."""


@dataclass(frozen=True, slots=True)
class SeenMove:
    """The decision that led to a step, as the viewer may see it."""

    round_number: int
    player: int
    """The seat that decided (for a take: the chooser)."""
    move_number: int
    """The move's number within its round as the Moves log numbers it (1 to 8); a take
    has the number of the offer it answers."""
    public: Move
    """The move as the thread told it (a Secret's or a Trade-off's cards left out)."""
    hidden: Secret | TradeOff | None
    """A Secret or a Trade-off with its cards, when the viewer may see them; else None."""

    @property
    def answers_offer(self) -> bool:
        """Whether this decision takes from an opponent's Gift or Competition."""
        return self.public.choice is not None


@dataclass(frozen=True, slots=True)
class SeenStep:
    """The table right after step ``index``, and the decision that led there."""

    index: int
    table: PublicView
    hidden: HiddenCards | None
    """None unless the viewer may see the hidden cards."""
    move: SeenMove | None
    """None at step 0 (the first deal)."""
    deadline: float | None = None
    """The turn deadline the thread's board showed at this step (None: none drawn)."""


@dataclass(frozen=True, slots=True)
class SeenMatch:
    """A finished match's steps as one viewer may see them."""

    hidden_shown: bool
    """Whether the viewer sees the hidden cards and the judgement (a player of the match,
    or a spectator both players share it with)."""
    steps: tuple[SeenStep, ...]
    """Steps 0 to :attr:`decisions`."""
    viewer_seat: int | None = None
    """The viewer's seat when they played the match, else None."""
    review: MatchReview | None = None
    """The AI's judgement when the viewer may see it and it has been analysed."""

    def __post_init__(self) -> None:
        if not self.hidden_shown and (
            self.review is not None or any(s.hidden is not None for s in self.steps)
        ):
            raise ValueError("a match seen without its hidden cards carries some")

    @property
    def decisions(self) -> int:
        """How many decisions the match had (its last step's index)."""
        return len(self.steps) - 1


def seen_match(
    record: MatchRecord,
    *,
    hidden_shown: bool,
    deadlines: Sequence[float | None] = (),
    viewer_seat: int | None = None,
    review: MatchReview | None = None,
) -> SeenMatch:
    """The finished match of ``record``, with its hidden cards and ``review`` only when
    ``hidden_shown``; ``deadlines[k]`` is the deadline the board showed at step k."""
    if review is not None and not hidden_shown:
        raise ValueError("a review is only given with the hidden cards")
    applied: list[tuple[GameState, SeenMove]] = []
    for at, before in match_steps(record):
        shown = at.decision if hidden_shown and isinstance(at.decision, Secret | TradeOff) else None
        move = SeenMove(
            at.round_number, at.player, at.move_number, public_move(before, at.decision), shown
        )
        applied.append((before, move))
    # The table after step k is the one decision k+1 was applied to; the last is the
    # replayed match itself, which alone knows how the match ended (a resignation too).
    after = [before for before, _ in applied[1:]] + [replay(record)]
    moves = [move for _, move in applied]
    first = applied[0][0] if applied else after[-1]
    states = [first, *after] if applied else [first]
    steps = tuple(
        SeenStep(
            index=k,
            table=public_view(state),
            hidden=_hidden(state) if hidden_shown else None,
            move=moves[k - 1] if k else None,
            deadline=deadlines[k] if k < len(deadlines) else None,
        )
        for k, state in enumerate(states)
    )
    return SeenMatch(hidden_shown, steps, viewer_seat, review)


def _hidden(state: GameState) -> HiddenCards:
    seats = (view(state, 0), view(state, 1))
    return HiddenCards(
        hands=(seats[0].hand, seats[1].hand),
        secrets=(seats[0].secret, seats[1].secret),
        trade_offs=(seats[0].trade_off, seats[1].trade_off),
        removed=state.removed,
    )
