"""The card select of the private panel: choose the cards for an action.

Options are the cards of the hand in sorted order; their values are positions in that
order, so two cards of the same geisha are told apart ("E Shamisen", "E Shamisen · 2nd").
"""

from __future__ import annotations

from bot.custom_ids import Verb, game_id
from bot.i18n import text
from bot.names import action_name, card_name
from bot.ui_spec import OptionSpec, SelectSpec
from engine.rules import Action, PlayerView

_ORDINAL_KEYS = ("", "panel.second", "panel.third", "panel.fourth", "panel.fifth")


def card_select(lang: str, view: PlayerView, match_id: int, action: Action) -> SelectSpec:
    options = []
    seen: dict[int, int] = {}
    drawn_marked = False
    for position, card in enumerate(view.hand):
        copy = seen.get(card, 0)
        seen[card] = copy + 1
        description = ""
        # Mark one copy of the drawn card: the last of its kind, as in the hand picture.
        if card == view.drawn and not drawn_marked and copy == view.hand.count(card) - 1:
            description = text(lang, "panel.just_drawn")
            drawn_marked = True
        ordinal = text(lang, _ORDINAL_KEYS[copy]) if copy else ""
        options.append(OptionSpec(card_name(lang, card) + ordinal, str(position), description))
    count = action.size
    key = "panel.select_one" if count == 1 else "panel.select_many"
    return SelectSpec(
        custom_id=game_id(match_id, view.table.version, Verb.PICK, str(count)),
        placeholder=text(lang, key, action=action_name(lang, action), count=count),
        options=tuple(options),
        min_values=count,
        max_values=count,
    )


def picked_cards(view: PlayerView, values: list[str]) -> tuple[int, ...] | None:
    """The cards behind selected option values, or None if they don't fit this hand."""
    try:
        positions = sorted({int(v) for v in values})
    except ValueError:
        return None
    if len(positions) != len(values) or any(not 0 <= p < len(view.hand) for p in positions):
        return None
    return tuple(view.hand[p] for p in positions)
