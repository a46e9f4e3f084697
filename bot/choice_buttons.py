"""The opponent's choice after a Gift or a Competition: one button per card or pair.

Shown on the board and in the chooser's panel; only the chooser may press them.
"""

from __future__ import annotations

from bot.custom_ids import Verb, game_id
from bot.i18n import text
from bot.names import card_name
from bot.ui_spec import ButtonSpec, Style
from engine.rules import Competition, CompetitionChoice, Gift, GiftChoice
from engine.rules.cards import cards_text
from engine.rules.legal import legal_choices


def choice_buttons(
    lang: str, match_id: int, version: int, offer: Gift | Competition
) -> tuple[ButtonSpec, ...]:
    """One button per distinct choice the engine allows (E, E, G gives two buttons)."""
    buttons = []
    for choice in legal_choices(offer).decisions:
        if isinstance(choice, GiftChoice):
            shown = card_name(lang, choice.card)
        else:
            assert isinstance(choice, CompetitionChoice)
            shown = cards_text(choice.pair)
        buttons.append(
            ButtonSpec(
                label=text(lang, "panel.take", cards=shown),
                custom_id=game_id(match_id, version, Verb.TAKE, str(choice)),
                style=Style.PRIMARY,
            )
        )
    return tuple(buttons)
