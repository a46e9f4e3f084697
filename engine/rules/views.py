"""What each seat may know. The bot, the renderer and the AIs only ever get these.

:func:`public_view` is the table as a spectator sees it: placed items, markers, sizes,
the public moves, an open offer, scored rounds. It never holds a hand, a Secret, a
Trade-off card, the pile's order or the removed card. :func:`view` adds one player's own
hidden cards and, when it is their decision, their legal decisions.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules import hand as packed_hand
from engine.rules.decisions import (
    Action,
    Competition,
    CompetitionChoice,
    Decision,
    Gift,
    GiftChoice,
    Secret,
    TradeOff,
)
from engine.rules.notation import Move, round_moves, seen_move
from engine.rules.outcome import MatchOutcome, RoundResult
from engine.rules.state import GameState, Phase, Variant

_ACTIONS = tuple(Action)


@dataclass(frozen=True, slots=True)
class PublicView:
    """The table as everyone sees it."""

    variant: Variant
    version: int
    round_number: int
    starting_player: int
    phase: Phase
    current_player: int | None
    """Who must decide now; None once the match is over."""
    items: tuple[tuple[int, ...], tuple[int, ...]]
    """``items[p][g]``: item cards face up on player p's side at geisha g."""
    favor: tuple[int | None, ...]
    """``favor[g]``: the side geisha g's marker is on, or None while neutral."""
    used: tuple[frozenset[Action], frozenset[Action]]
    hand_sizes: tuple[int, int]
    pile_size: int
    pending: Gift | Competition | None
    """An offer waiting for the opponent's choice (its cards are face up)."""
    moves: tuple[Move, ...]
    """This round's moves so far, Secrets and Trade-offs hidden (``1X``, ``2XX``)."""
    earlier_moves: tuple[tuple[Move, ...], ...]
    """The moves of each earlier round, as spectators saw them; ``earlier_moves[k]`` goes
    with ``rounds[k]``, whose scoring revealed the Secrets."""
    rounds: tuple[RoundResult, ...]
    """Every scored round, with both Secrets revealed."""
    geishas: tuple[int, int]
    charm: tuple[int, int]
    outcome: MatchOutcome | None

    def mover(self, index: int) -> int:
        """The seat that made ``moves[index]``: the round's starter, then turns alternate."""
        return (self.starting_player + index) % 2

    def unused(self, player: int) -> tuple[Action, ...]:
        """The action markers ``player`` has not used this round, in A-to-D order."""
        return tuple(a for a in _ACTIONS if a not in self.used[player])

    @property
    def scored_on_show(self) -> RoundResult | None:
        """The scored round still on the table, both Secrets revealed: from its scoring
        until the next round's first move, and for good when its scoring ended the match.

        Every rendering of the table (picture, alt text, text board) shows this round's
        cards in place of the placed items while it is on show, so they tell one truth.
        """
        if not self.rounds:
            return None
        last = self.rounds[-1]
        ended_at_scoring = self.outcome is not None and last.round_number == self.round_number
        before_first_move = not self.moves and last.round_number == self.round_number - 1
        return last if ended_at_scoring or before_first_move else None

    @property
    def shown_items(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """``shown_items[p][g]``: the items on show at geisha g on p's side (a scored
        round's Secrets included while it is on show)."""
        scored = self.scored_on_show
        return scored.items if scored is not None else self.items

    @property
    def shown_favor(self) -> tuple[int | None, ...]:
        """``shown_favor[g]``: where geisha g's marker stands beside the items on show."""
        scored = self.scored_on_show
        return scored.favor if scored is not None else self.favor

    def face_down(self, player: int) -> tuple[Action, ...]:
        """The used markers whose cards lie face down on ``player``'s side: a Trade-off's
        two cards always (they are never revealed), a Secret until its round is scored."""
        revealed = self.scored_on_show is not None
        return tuple(
            a
            for a in (Action.SECRET, Action.TRADE_OFF)
            if a in self.used[player] and not (a is Action.SECRET and revealed)
        )


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one player knows: the table plus their own hidden cards."""

    player: int
    table: PublicView
    hand: tuple[int, ...]
    """Sorted by geisha."""
    drawn: int | None
    """The card just drawn this turn, while it is still to be played."""
    secret: int | None
    trade_off: tuple[int, int] | None
    legal: tuple[Decision, ...]
    """The decisions open to this player now; empty when it is not their decision."""
    own_moves: tuple[Move, ...]
    """This round's moves with this player's own Secret and Trade-off shown."""

    @property
    def opponent(self) -> int:
        return 1 - self.player

    @property
    def to_decide(self) -> bool:
        return self.table.current_player == self.player


def public_move(before: GameState, decision: Decision) -> Move:
    """``decision`` as spectators see it, given the state it was applied to."""
    if isinstance(decision, GiftChoice | CompetitionChoice):
        offer = before.pending
        assert offer is not None, "a choice is only legal while an offer is pending"
        return seen_move(offer, decision, hidden=True)
    assert isinstance(decision, Secret | TradeOff | Gift | Competition)
    return seen_move(decision, hidden=True)


def _moves(state: GameState, reader: int | None) -> tuple[Move, ...]:
    """The round's moves as ``reader`` may see them (None: a spectator)."""
    return round_moves(state.log[-1], state.start_player, reader)


def _earlier_moves(state: GameState) -> tuple[tuple[Move, ...], ...]:
    """Each earlier round's moves as spectators saw them (kept by the state at scoring)."""
    return tuple(state.scored_moves[: len(state.log) - 1])


def public_view(state: GameState) -> PublicView:
    """The table as a spectator sees it: no hidden card at all."""
    geishas, charm = state.scores()
    return PublicView(
        variant=state.variant,
        version=state.version,
        round_number=state.round_number,
        starting_player=state.start_player,
        phase=state.phase,
        current_player=state.current_player,
        items=(state.placed_items(0), state.placed_items(1)),
        favor=tuple(state.favor),
        used=(
            frozenset(a for a in _ACTIONS if state.used[0] & a),
            frozenset(a for a in _ACTIONS if state.used[1] & a),
        ),
        hand_sizes=(packed_hand.size(state.hands[0]), packed_hand.size(state.hands[1])),
        pile_size=len(state.pile) - state.pile_pos,
        pending=state.pending,
        moves=_moves(state, None),
        earlier_moves=_earlier_moves(state),
        rounds=tuple(state.results),
        geishas=geishas,
        charm=charm,
        outcome=state.outcome,
    )


def view(state: GameState, player: int, *, table: PublicView | None = None) -> PlayerView:
    """What ``player`` (0 or 1) may know now; ``table`` is ``public_view(state)`` when the
    caller has it already (it is part of every player's view)."""
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player!r}")
    if table is None:
        table = public_view(state)
    elif table.version != state.version:
        raise ValueError(f"table of version {table.version} given for version {state.version}")
    mine = table.current_player == player
    return PlayerView(
        player=player,
        table=table,
        hand=state.hand_cards(player),
        drawn=state.drawn[player] if mine and table.phase is Phase.ACTION else None,
        secret=state.secret[player],
        trade_off=state.tradeoff[player],
        legal=state.legal_decisions() if mine else (),
        own_moves=_moves(state, player),
    )
