"""What a Gift or a Competition leaves each side: the opponent takes the card or pair they
chose, the offerer keeps the rest. (Secret and Trade-off cards simply go face down.)"""

from __future__ import annotations

from engine.rules.decisions import Competition, CompetitionChoice, Gift, GiftChoice
from engine.rules.hand import ONE
from engine.rules.notation import Move


def gift_split(offer: Gift, choice: GiftChoice) -> tuple[int, int]:
    """Packed items (to the opponent, to the giver): the opponent takes the chosen card,
    the giver keeps the other two."""
    a, b, c = offer.cards
    taken = ONE[choice.card]
    return taken, ONE[a] + ONE[b] + ONE[c] - taken


def competition_split(offer: Competition, choice: CompetitionChoice) -> tuple[int, int]:
    """Packed items (to the opponent, to the offerer): the opponent takes the chosen pair,
    the offerer keeps the other."""
    first, second = offer.pairs
    kept = second if choice.pair == first else first
    return ONE[choice.pair[0]] + ONE[choice.pair[1]], ONE[kept[0]] + ONE[kept[1]]


def move_split(move: Move) -> tuple[int, int] | None:
    """Packed items (to the opponent, to the offerer) a completed Gift or Competition
    placed; None for any other move, or an offer still waiting for its choice."""
    if isinstance(move.action, Gift) and isinstance(move.choice, GiftChoice):
        return gift_split(move.action, move.choice)
    if isinstance(move.action, Competition) and isinstance(move.choice, CompetitionChoice):
        return competition_split(move.action, move.choice)
    return None
