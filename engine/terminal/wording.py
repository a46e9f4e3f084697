"""The table's words: the human is "you", the other seat "the AI"; plurals; decisions and
the rules' refusals said as a player would say them."""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.rules import hand as packed_hand
from engine.rules.cards import GEISHAS, cards_text
from engine.rules.decisions import (
    Competition,
    CompetitionChoice,
    Decision,
    Gift,
    GiftChoice,
    Secret,
    TradeOff,
)
from engine.rules.gift_and_competition import competition_split, gift_split

HUMAN = 0
AI = 1


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards``; ``many`` for irregular plurals."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def spaced(cards: Iterable[int]) -> str:
    """Cards as spaced letters (``C D E``)."""
    return " ".join(cards_text(cards))


def pairs_text(offer: Competition) -> str:
    """The two pairs of a Competition: ``AB | EG``."""
    first, second = offer.pairs
    return f"{cards_text(first)} | {cards_text(second)}"


def words(decision: Decision) -> str:
    """A decision in words: ``Gift C D E``, ``Competition AB | EG``, ``take E``."""
    if isinstance(decision, Secret):
        return f"Secret {GEISHAS[decision.card]}"
    if isinstance(decision, TradeOff):
        return f"Trade-off {spaced(decision.cards)}"
    if isinstance(decision, Gift):
        return f"Gift {spaced(decision.cards)}"
    if isinstance(decision, Competition):
        return f"Competition {pairs_text(decision)}"
    if isinstance(decision, GiftChoice):
        return f"take {GEISHAS[decision.card]}"
    return f"take {spaced(decision.pair)}"


_SEAT_WORDS = (
    (re.compile(r"\bplayer 0 holds\b"), "you hold"),
    (re.compile(r"\bplayer 0's\b"), "your"),
    (re.compile(r"\bplayer 0\b"), "you"),
    (re.compile(r"\bplayer 1's\b"), "the AI's"),
    (re.compile(r"\bplayer 1\b"), "the AI"),
)


def in_your_words(reason: str) -> str:
    """The rules' reason with seats named as this table does ("you hold only one E")."""
    for pattern, replacement in _SEAT_WORDS:
        reason = pattern.sub(replacement, reason)
    return reason


def offer_parts(offer: Gift | Competition, choice: Decision) -> tuple[str, str]:
    """(what the chooser gets, what the offerer keeps) as spaced letters."""
    if isinstance(offer, Gift) and isinstance(choice, GiftChoice):
        taken, kept = gift_split(offer, choice)
    elif isinstance(offer, Competition) and isinstance(choice, CompetitionChoice):
        taken, kept = competition_split(offer, choice)
    else:  # pragma: no cover - the legal list only pairs matching choices
        raise AssertionError(f"{choice} does not answer {offer}")
    return spaced(packed_hand.unpack(taken)), spaced(packed_hand.unpack(kept))


def ai_words(decision: Decision, answered: Gift | Competition | None) -> str:
    """What the AI just did, as the human may know it."""
    if isinstance(decision, Secret):
        return "The AI plays its Secret (1X): one card face down."
    if isinstance(decision, TradeOff):
        return "The AI plays its Trade-off (2XX): two cards face down, out of this round."
    if isinstance(decision, Gift):
        return f"The AI offers a Gift: {spaced(decision.cards)} ({decision})."
    if isinstance(decision, Competition):
        return f"The AI offers a Competition: {pairs_text(decision)} ({decision})."
    assert answered is not None
    taken, kept = offer_parts(answered, decision)
    return f"The AI takes {taken} ({decision}); {kept} go to your side."


def your_words(decision: Decision, answered: Gift | Competition | None) -> str:
    """What the human just did."""
    if isinstance(decision, GiftChoice | CompetitionChoice):
        assert answered is not None
        taken, kept = offer_parts(answered, decision)
        return f"You take {taken} ({decision}); the AI keeps {kept}."
    return f"You play your {words(decision)} ({decision})."
