"""The opponent's choice after a Gift or a Competition: one button per card or pair.

Shown under the public offer message; only the chooser may press them.
"""

from __future__ import annotations

from bot.custom_ids import Verb, game_id
from bot.names import card_name
from bot.ui_spec import ButtonSpec, Style
from engine import Competition, CompetitionChoice, Gift, GiftChoice
from engine.cards import cards_text
from engine.legal import legal_choices


def choice_buttons(
    match_id: int, version: int, offer: Gift | Competition
) -> tuple[ButtonSpec, ...]:
    """One button per distinct choice the engine allows (E, E, G gives two buttons)."""
    buttons = []
    for choice in legal_choices(offer).decisions:
        if isinstance(choice, GiftChoice):
            label = f"Take {card_name(choice.card)}"
        else:
            assert isinstance(choice, CompetitionChoice)
            label = f"Take {cards_text(choice.pair)}"
        buttons.append(
            ButtonSpec(
                label=label,
                custom_id=game_id(match_id, version, Verb.TAKE, str(choice)),
                style=Style.PRIMARY,
            )
        )
    return tuple(buttons)


def offer_text(offer: Gift | Competition) -> str:
    """``E E G`` for a Gift, ``AB | EG`` for a Competition."""
    if isinstance(offer, Competition):
        return " | ".join(cards_text(pair) for pair in offer.pairs)
    return " ".join(cards_text((c,)) for c in offer.cards)
