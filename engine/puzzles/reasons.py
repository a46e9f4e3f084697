"""Why a puzzle's answer is better than the move played, in data the bot words: the
majorities it secures that the played move did not, or those the played move let the
opponent take; else only the chances.

A majority is *secured* when a player holds more than half of a geisha's cards (her
charm), counting the cards on their side and their own Secret: nothing can take it away.
After an offer the opponent answers, so what the mover secures is what they keep
whatever the answer (the worst case), and what the opponent may take is any answer's.
Only the mover's view is read: the opponent's hidden cards never enter.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from engine.rules.cards import CHARM
from engine.rules.decisions import (
    Competition,
    CompetitionChoice,
    Decision,
    Gift,
    GiftChoice,
    Secret,
)
from engine.rules.views import PlayerView


class ReasonKind(enum.StrEnum):
    MAJORITY = "majority"
    """The answer secures the mover's majority on ``geishas``; the move played did not."""
    DENIES = "denies"
    """The move played let the opponent secure ``geishas``; the answer does not."""
    CHANCE = "chance"
    """No majority tells them apart: only the chances do."""


@dataclass(frozen=True, slots=True)
class Reason:
    kind: ReasonKind
    geishas: tuple[int, ...] = ()
    """Card ids (0 for A) of the geishas the reason names, in order."""


Cards = tuple[int, ...]
Outcome = tuple[Cards, Cards]
"""(cards the mover gains, cards the opponent gains) for one answer to a decision."""


def _outcomes(view: PlayerView, decision: Decision) -> list[Outcome]:
    if isinstance(decision, Secret):
        return [((decision.card,), ())]
    if isinstance(decision, Gift):
        cards = decision.cards
        return [(cards[:i] + cards[i + 1 :], (cards[i],)) for i in range(3)]
    if isinstance(decision, Competition):
        first, second = decision.pairs
        return [(second, first), (first, second)]
    offer = view.table.pending
    if isinstance(decision, GiftChoice) and isinstance(offer, Gift):
        rest = list(offer.cards)
        rest.remove(decision.card)
        return [((decision.card,), tuple(rest))]
    if isinstance(decision, CompetitionChoice) and isinstance(offer, Competition):
        other = next(p for p in offer.pairs if p != decision.pair)
        return [(decision.pair, other)]
    return [((), ())]  # a Trade-off: its cards are out of the round


def _majorities(counts: list[int], gained: Iterable[int]) -> frozenset[int]:
    after = list(counts)
    for card in gained:
        after[card] += 1
    return frozenset(g for g, n in enumerate(after) if 2 * n > CHARM[g])


def secured(view: PlayerView, decision: Decision) -> tuple[frozenset[int], frozenset[int]]:
    """(the majorities the mover keeps whatever the answer, those the opponent may take)."""
    me, them = view.player, view.opponent
    mine = list(view.table.items[me])
    if view.secret is not None:
        mine[view.secret] += 1
    theirs = list(view.table.items[them])
    outcomes = _outcomes(view, decision)
    kept = frozenset.intersection(*(_majorities(mine, gain) for gain, _ in outcomes))
    taken = frozenset.union(*(_majorities(theirs, gain) for _, gain in outcomes))
    return kept, taken


def reason_for(view: PlayerView, best: Decision, played: Decision) -> Reason:
    """Why ``best`` beats ``played`` in ``view`` (the mover's own view)."""
    best_kept, best_taken = secured(view, best)
    played_kept, played_taken = secured(view, played)
    if gained := best_kept - played_kept:
        return Reason(ReasonKind.MAJORITY, tuple(sorted(gained)))
    if given := played_taken - best_taken:
        return Reason(ReasonKind.DENIES, tuple(sorted(given)))
    return Reason(ReasonKind.CHANCE)
