"""Determinization: a full game state consistent with what one player has seen.

A player's view leaves hidden the opponent's hand, the opponent's Secret and Trade-off
(when used), the pile's order and the removed card. All of them come from the *unseen*
cards: the 21-card deck minus the player's own hand, Secret and Trade-off, every item face
up on the table and the cards of an open offer. Earlier rounds do not matter because every
round is a fresh deal. A determinization fills those hidden places with a random
arrangement of the unseen cards, so a search can play the round on as if it knew them.

Drawn uniformly, every arrangement is as likely as any other. Reading the opponent
(``read_opponent=True``, :mod:`engine.ai.reading`) draws their Secret and Trade-off cards
in proportion to how well each fits what they did in public; the rest stays uniform.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.ai.reading import HiddenCardWeights, hidden_card_weights
from engine.rules import hand as packed_hand
from engine.rules.cards import FULL_DECK
from engine.rules.deal import Deal
from engine.rules.decisions import Action, Decision, Secret, TradeOff
from engine.rules.notation import HiddenAction
from engine.rules.state import GameState
from engine.rules.views import PlayerView

_PLACEHOLDER_DEAL = Deal.shuffled(random.Random("hanamikoji/determinization"))
"""Stands in for the deals of a determinized state: the real ones are partly unknown, and
the engine only reads ``deals`` to find the next round's cards (past the ones listed)."""


def unseen_cards(view: PlayerView) -> tuple[int, ...]:
    """The cards this player cannot see, sorted: the pool every hidden place is drawn from."""
    seen = Counter(view.hand)
    if view.secret is not None:
        seen[view.secret] += 1
    if view.trade_off is not None:
        seen.update(view.trade_off)
    for side in view.table.items:
        for card, count in enumerate(side):
            seen[card] += count
    if view.table.pending is not None:
        seen.update(view.table.pending.cards)
    unseen = Counter(FULL_DECK) - seen
    return tuple(sorted(unseen.elements()))


def _mask(actions: frozenset[Action]) -> int:
    mask = 0
    for action in actions:
        mask |= action
    return mask


class Determinizer:
    """Samples full states consistent with one view; the fixed part is computed once."""

    def __init__(self, view: PlayerView, *, read_opponent: bool = False) -> None:
        table = view.table
        if table.current_player is None:
            raise ValueError("the match is over: there is nothing to determinize")
        me, them = view.player, view.opponent
        self.view = view
        self.unseen = list(unseen_cards(view))
        self.opponent_hand_size = table.hand_sizes[them]
        self.opponent_has_secret = Action.SECRET in table.used[them]
        self.opponent_has_trade_off = Action.TRADE_OFF in table.used[them]
        hidden = (
            self.opponent_hand_size
            + self.opponent_has_secret
            + 2 * self.opponent_has_trade_off
            + table.pile_size
            + 1  # the removed card
        )
        if hidden != len(self.unseen):
            raise ValueError(
                f"the view does not add up: {len(self.unseen)} unseen cards for "
                f"{hidden} hidden places"
            )

        template = GameState.__new__(GameState)
        template.variant = table.variant
        template.seed = 0  # replaced per sample so a later round's deal comes from the rng
        round_index = table.round_number - 1
        # The first round's starting player alternates with every round after it.
        template.first_player = (
            table.starting_player if round_index % 2 == 0 else 1 - table.starting_player
        )
        template.deals = [_PLACEHOLDER_DEAL] * (round_index + 1)
        template.round_index = round_index
        template.start_player = table.starting_player
        used = [_mask(table.used[0]), _mask(table.used[1])]
        # A Gift or Competition waiting for its choice is marked used but its turn is open.
        template.turn = sum(bin(mask).count("1") for mask in used) - (
            1 if table.pending is not None else 0
        )
        template.to_move = table.current_player
        template.phase = table.phase
        hands = [0, 0]
        hands[me] = packed_hand.pack(view.hand)
        template.hands = hands
        drawn: list[int | None] = [None, None]
        drawn[me] = view.drawn
        template.drawn = drawn
        template.pile = ()
        template.pile_pos = 0
        template.removed = 0
        template.placed = [packed_hand.pack(_elements(table.items[p])) for p in (0, 1)]
        secret: list[int | None] = [None, None]
        secret[me] = view.secret
        template.secret = secret
        trade_off: list[tuple[int, int] | None] = [None, None]
        trade_off[me] = view.trade_off
        template.tradeoff = trade_off
        template.used = used
        template.pending = table.pending
        template.favor = list(table.favor)
        template.results = list(table.rounds)
        template.outcome = None
        template.version = table.version
        template.log = [[] for _ in range(round_index + 1)]
        template.scored_moves = list(table.earlier_moves)
        self.template = template
        """The fixed part of every sample (its hidden places empty): clone it, never change it."""
        self.weights: HiddenCardWeights | None = None
        if read_opponent and (self.opponent_has_secret or self.opponent_has_trade_off):
            self.weights = hidden_card_weights(view)

    def arrange(self, rng: random.Random) -> list[int]:
        """The unseen cards in the order they fill the hidden places: the opponent's hand
        (``opponent_hand_size`` cards), their Secret and their two Trade-off cards (if
        used), the removed card, then the pile from its top."""
        cards = self.unseen.copy()
        weights = self.weights
        if weights is None:
            rng.shuffle(cards)
        else:
            # The hidden cards first, drawn by weight; the rest shuffled behind them.
            at = 0
            if self.opponent_has_secret:
                _draw_to(cards, at, weights.secret, rng)
                at += 1
            if self.opponent_has_trade_off:
                _draw_to(cards, at, weights.trade_off, rng)
                _draw_to(cards, at + 1, weights.trade_off, rng)
                at += 2
            rest = cards[at:]
            rng.shuffle(rest)
            hidden = cards[:at]
            cards = rest[: self.opponent_hand_size] + hidden + rest[self.opponent_hand_size :]
        return cards

    def sample(self, rng: random.Random) -> GameState:
        """A full state consistent with the view: drawn uniformly, or with the opponent's
        Secret and Trade-off cards weighted by how well they fit their play."""
        cards = self.arrange(rng)
        state = self.template.clone()
        state.seed = rng.getrandbits(63)
        them = self.view.opponent
        n = self.opponent_hand_size
        state.hands[them] = packed_hand.pack(cards[:n])
        at = n
        if self.opponent_has_secret:
            state.secret[them] = cards[at]
            at += 1
        if self.opponent_has_trade_off:
            a, b = cards[at], cards[at + 1]
            state.tradeoff[them] = (a, b) if a <= b else (b, a)
            at += 2
        state.removed = cards[at]
        state.pile = tuple(cards[at + 1 :])
        state.log[-1] = self._round_log(state.secret[them], state.tradeoff[them])
        return state

    def _round_log(self, secret: int | None, trade_off: tuple[int, int] | None) -> list[Decision]:
        """This round's decisions, the opponent's hidden ones filled in from the sample."""
        log: list[Decision] = []
        for move in self.view.own_moves:
            action = move.action
            if isinstance(action, HiddenAction):
                if action.action is Action.SECRET:
                    assert secret is not None
                    log.append(Secret(secret))
                else:
                    assert trade_off is not None
                    log.append(TradeOff(trade_off))
            else:
                log.append(action)
            if move.choice is not None:
                log.append(move.choice)
        return log


def _draw_to(cards: list[int], at: int, weights: tuple[float, ...], rng: random.Random) -> None:
    """Swap into ``cards[at]`` one of ``cards[at:]``, drawn in proportion to its weight."""
    total = 0.0
    for card in cards[at:]:
        total += weights[card]
    pick = rng.random() * total
    for index in range(at, len(cards)):
        pick -= weights[cards[index]]
        if pick < 0:
            break
    cards[at], cards[index] = cards[index], cards[at]


def _elements(counts: tuple[int, ...]) -> list[int]:
    return [card for card, count in enumerate(counts) for _ in range(count)]


def determinize(view: PlayerView, rng: random.Random, *, read_opponent: bool = False) -> GameState:
    """One full state consistent with ``view``, its hidden cards drawn with ``rng``."""
    return Determinizer(view, read_opponent=read_opponent).sample(rng)
