"""Every legal decision, listed once: the single source of truth for legality.

The actions open to a player depend only on their hand and their unused markers, so the
list is computed once per (hand, used markers) and cached; a random playout then costs a
dict lookup per decision instead of an enumeration.
"""

from __future__ import annotations

from engine.rules import hand as packed_hand
from engine.rules.decisions import (
    Action,
    ActionDecision,
    ChoiceDecision,
    Competition,
    CompetitionChoice,
    Decision,
    Gift,
    GiftChoice,
    Secret,
    TradeOff,
)


class LegalSet:
    """A tuple of decisions in a stable order plus a set for fast membership tests."""

    __slots__ = ("decisions", "members")

    def __init__(self, decisions: tuple[Decision, ...]) -> None:
        self.decisions = decisions
        self.members = frozenset(decisions)


def _sub_multisets(counts: tuple[int, ...], k: int) -> list[tuple[int, ...]]:
    """Distinct sorted k-card selections from a count vector, in lexicographic order."""
    found: list[tuple[int, ...]] = []

    def extend(start: int, chosen: list[int], remaining: int) -> None:
        if remaining == 0:
            found.append(tuple(chosen))
            return
        for g in range(start, 7):
            if counts[g] - chosen.count(g) > 0:
                chosen.append(g)
                extend(g, chosen, remaining - 1)
                chosen.pop()

    extend(0, [], k)
    return found


def _competitions(four: tuple[int, ...]) -> list[Competition]:
    a, b, c, d = four
    splits = (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c)))
    unique: dict[Competition, None] = {}
    for first, second in splits:
        unique[Competition((first, second))] = None
    return list(unique)


_ACTION_CACHE: dict[int, LegalSet] = {}
_CHOICE_CACHE: dict[ActionDecision, LegalSet] = {}


def legal_actions(hand: int, used: int) -> LegalSet:
    """Every action a player with this packed hand and used-markers mask may take."""
    key = (hand << 4) | used
    cached = _ACTION_CACHE.get(key)
    if cached is not None:
        return cached
    counts = packed_hand.counts(hand)
    decisions: list[ActionDecision] = []
    if not used & Action.SECRET:
        decisions.extend(Secret(c[0]) for c in _sub_multisets(counts, 1))
    if not used & Action.TRADE_OFF:
        decisions.extend(TradeOff((c[0], c[1])) for c in _sub_multisets(counts, 2))
    if not used & Action.GIFT:
        decisions.extend(Gift((c[0], c[1], c[2])) for c in _sub_multisets(counts, 3))
    if not used & Action.COMPETITION:
        for four in _sub_multisets(counts, 4):
            decisions.extend(_competitions(four))
    result = LegalSet(tuple(decisions))
    _ACTION_CACHE[key] = result
    return result


def legal_choices(offer: ActionDecision) -> LegalSet:
    """The opponent's possible picks from a Gift or a Competition."""
    cached = _CHOICE_CACHE.get(offer)
    if cached is not None:
        return cached
    choices: list[ChoiceDecision] = []
    if isinstance(offer, Gift):
        choices.extend(GiftChoice(card) for card in dict.fromkeys(offer.cards))
    elif isinstance(offer, Competition):
        choices.extend(CompetitionChoice(pair) for pair in dict.fromkeys(offer.pairs))
    result = LegalSet(tuple(choices))
    _CHOICE_CACHE[offer] = result
    return result
