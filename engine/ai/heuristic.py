"""A player's estimate of how the round will end, and the score of each legal decision.

The estimate works per geisha from what the player knows: the items certain to be on each
side at scoring (face-up items plus their own Secret), their hand, and the unseen cards.
Each hand or unseen card is expected to land on a side in proportion to the action markers
still unused (a Gift sends 2 cards to the giver and 1 to the other side, a Competition 2
and 2, a Secret 1 to its owner, a Trade-off none). A normal approximation of the final
difference gives the chance of winning, tying or losing each geisha; a tie leaves the
favor marker where it is. The position's value is how much closer the player ends to a
goal (11 charm or 4 geishas) than the opponent.

A decision is scored by the position it leads to; after an own Gift or Competition the
opponent is assumed to take what is worst for us (``pessimistic``), or a random part.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.rules.cards import CHARM
from engine.rules.decisions import (
    Action,
    CompetitionChoice,
    Decision,
    Gift,
    GiftChoice,
    Secret,
    TradeOff,
)
from engine.rules.scoring import CHARM_GOAL, GEISHA_GOAL
from engine.rules.views import PlayerView

_MAJORITY = tuple(n // 2 + 1 for n in CHARM)
"""Items of a geisha that win her whatever happens to the rest."""
_SQRT2 = math.sqrt(2.0)
_BASE_VARIANCE = 0.2
"""Keeps a tie from looking certain when no card of a geisha is left to play."""


def _to_self(unused: int) -> int:
    """Cards a player's unused markers will still put on their own side."""
    return (
        (1 if unused & Action.SECRET else 0)
        + (2 if unused & Action.GIFT else 0)
        + (2 if unused & Action.COMPETITION else 0)
    )


def _to_other(unused: int) -> int:
    """Cards a player's unused markers will still put on the opponent's side."""
    return (1 if unused & Action.GIFT else 0) + (2 if unused & Action.COMPETITION else 0)


def _cards_out(unused: int) -> int:
    return sum(action.size for action in Action if unused & action)


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / _SQRT2))


@dataclass(frozen=True, slots=True)
class Position:
    """One player's knowledge of the round as count vectors indexed by geisha."""

    mine: tuple[int, ...]
    """Items sure to be on my side at scoring: face-up ones plus my Secret."""
    theirs: tuple[int, ...]
    """Items face up on the opponent's side."""
    hand: tuple[int, ...]
    unknown: tuple[int, ...]
    """Cards I cannot see (opponent's hand, Secret, Trade-off, the pile, the removed card)."""
    my_unused: int
    their_unused: int
    """Unused action markers as masks (see :class:`engine.rules.decisions.Action`)."""
    favor: tuple[int, ...]
    """Per geisha: 1 if her marker is on my side, -1 on the opponent's, 0 neutral."""


def position_of(view: PlayerView) -> Position:
    """The deciding player's knowledge, before the decision."""
    me, them = view.player, view.opponent
    table = view.table
    mine = list(table.items[me])
    if view.secret is not None:
        mine[view.secret] += 1
    hand = [0] * 7
    for card in view.hand:
        hand[card] += 1
    unknown = list(CHARM)
    for g in range(7):
        unknown[g] -= mine[g] + table.items[them][g] + hand[g]
    if view.trade_off is not None:
        for card in view.trade_off:
            unknown[card] -= 1
    if table.pending is not None:
        for card in table.pending.cards:
            unknown[card] -= 1
    return Position(
        mine=tuple(mine),
        theirs=table.items[them],
        hand=tuple(hand),
        unknown=tuple(unknown),
        my_unused=_unused_mask(table.used[me]),
        their_unused=_unused_mask(table.used[them]),
        favor=tuple(0 if f is None else 1 if f == me else -1 for f in table.favor),
    )


def _unused_mask(used: frozenset[Action]) -> int:
    mask = 0
    for action in Action:
        if action not in used:
            mask |= action
    return mask


class Evaluator:
    """Values positions that differ from one base position by a decision.

    A decision changes only a few counts, so per-geisha results are memoized for the
    lifetime of one decision: scoring every legal decision costs a few dict lookups each.
    """

    def __init__(self, base: Position) -> None:
        self.base = base
        self._geisha_memo: dict[tuple[float, ...], tuple[float, float]] = {}

    def value(
        self,
        mine: Sequence[int],
        theirs: Sequence[int],
        hand: Sequence[int],
        my_unused: int,
        their_unused: int,
    ) -> float:
        """How much closer to a goal than the opponent I am expected to end the round."""
        base = self.base
        unknown = base.unknown
        out = _cards_out(my_unused)
        my_keep = _to_self(my_unused) / out if out else 0.0
        my_give = _to_other(my_unused) / out if out else 0.0
        # Unseen cards feed the opponent's remaining actions, their hidden Secret, my
        # future draws, their Trade-off and the removed card.
        draws = bin(my_unused).count("1")
        pool = sum(unknown)
        if pool:
            # Their Secret ends on their side whether it is played yet or not.
            unknown_to_them = 1 + _to_self(their_unused & ~Action.SECRET) + draws * my_give
            unknown_to_me = _to_other(their_unused) + draws * my_keep
            to_them = unknown_to_them / pool
            to_me = unknown_to_me / pool
        else:
            to_them = to_me = 0.0
        key_rates = (round(my_keep, 4), round(my_give, 4), round(to_me, 4), round(to_them, 4))
        memo = self._geisha_memo
        charm_me = charm_them = geishas_me = geishas_them = 0.0
        for g in range(7):
            key = (g, mine[g], theirs[g], hand[g], *key_rates)
            owned = memo.get(key)
            if owned is None:
                owned = self._geisha(
                    g, mine[g], theirs[g], hand[g], my_keep, my_give, to_me, to_them
                )
                memo[key] = owned
            me_p, them_p = owned
            charm_me += me_p * CHARM[g]
            charm_them += them_p * CHARM[g]
            geishas_me += me_p
            geishas_them += them_p
        progress_me = max(charm_me / CHARM_GOAL, geishas_me / GEISHA_GOAL)
        progress_them = max(charm_them / CHARM_GOAL, geishas_them / GEISHA_GOAL)
        return progress_me - progress_them + 0.3 * (charm_me - charm_them) / 21

    def _geisha(
        self,
        g: int,
        mine: int,
        theirs: int,
        hand: int,
        my_keep: float,
        my_give: float,
        to_me: float,
        to_them: float,
    ) -> tuple[float, float]:
        """(chance geisha g ends on my side, chance on theirs) after this round's scoring."""
        if mine >= _MAJORITY[g]:
            return 1.0, 0.0
        if theirs >= _MAJORITY[g]:
            return 0.0, 1.0
        unknown = self.base.unknown[g]
        expected = (mine + hand * my_keep + unknown * to_me) - (
            theirs + hand * my_give + unknown * to_them
        )
        variance = (
            _BASE_VARIANCE
            + hand * (my_keep * (1 - my_keep) + my_give * (1 - my_give))
            + unknown * (to_me * (1 - to_me) + to_them * (1 - to_them))
        )
        sigma = math.sqrt(variance)
        win = _phi((expected - 0.5) / sigma)
        lose = _phi((-expected - 0.5) / sigma)
        tie = max(0.0, 1.0 - win - lose)
        favor = self.base.favor[g]
        return win + (tie if favor > 0 else 0.0), lose + (tie if favor < 0 else 0.0)


def score_decisions(view: PlayerView, *, pessimistic: bool = True) -> list[float]:
    """A score per decision of ``view.legal`` (higher is better for the deciding player)."""
    base = position_of(view)
    evaluator = Evaluator(base)
    offered = () if view.table.pending is None else view.table.pending.cards
    return [_score(evaluator, decision, offered, pessimistic) for decision in view.legal]


def _score(
    evaluator: Evaluator, decision: Decision, offered: tuple[int, ...], pessimistic: bool
) -> float:
    base = evaluator.base
    mine, theirs, hand = list(base.mine), list(base.theirs), list(base.hand)
    if isinstance(decision, GiftChoice | CompetitionChoice):
        taken = (decision.card,) if isinstance(decision, GiftChoice) else decision.pair
        for card in taken:
            mine[card] += 1
        for card in _without(offered, taken):
            theirs[card] += 1
        return evaluator.value(mine, theirs, hand, base.my_unused, base.their_unused)
    unused = base.my_unused & ~decision.action
    for card in decision.cards:
        hand[card] -= 1
    if isinstance(decision, Secret):
        mine[decision.card] += 1
        return evaluator.value(mine, theirs, hand, unused, base.their_unused)
    if isinstance(decision, TradeOff):
        return evaluator.value(mine, theirs, hand, unused, base.their_unused)
    parts: list[tuple[int, ...]] = (
        [(card,) for card in dict.fromkeys(decision.cards)]
        if isinstance(decision, Gift)
        else list(dict.fromkeys(decision.pairs))
    )
    outcomes = []
    for part in parts:
        after_mine, after_theirs = mine.copy(), theirs.copy()
        for card in part:
            after_theirs[card] += 1
        for card in _without(decision.cards, part):
            after_mine[card] += 1
        outcomes.append(evaluator.value(after_mine, after_theirs, hand, unused, base.their_unused))
    return min(outcomes) if pessimistic else sum(outcomes) / len(outcomes)


def _without(cards: Sequence[int], taken: Sequence[int]) -> list[int]:
    rest = list(cards)
    for card in taken:
        rest.remove(card)
    return rest
