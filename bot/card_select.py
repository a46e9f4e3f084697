"""The card select of the private panel: choose the cards for an action.

Options are the cards of the hand in sorted order; their values are positions in that
order, so two cards of the same geisha are told apart ("E Shamisen", "E Shamisen · 2nd").
"""

from __future__ import annotations

from bot.custom_ids import Verb, game_id
from bot.names import ACTION_NAMES, card_name
from bot.ui_spec import OptionSpec, SelectSpec
from engine import Action, PlayerView

_ORDINALS = ("", " · 2nd", " · 3rd", " · 4th", " · 5th")


def card_select(view: PlayerView, match_id: int, action: Action) -> SelectSpec:
    options = []
    seen: dict[int, int] = {}
    drawn_marked = False
    for position, card in enumerate(view.hand):
        copy = seen.get(card, 0)
        seen[card] = copy + 1
        description = ""
        if card == view.drawn and not drawn_marked and copy == view.hand.count(card) - 1:
            description = "just drawn"
            drawn_marked = True
        options.append(OptionSpec(card_name(card) + _ORDINALS[copy], str(position), description))
    count = action.size
    return SelectSpec(
        custom_id=game_id(match_id, view.table.version, Verb.PICK, str(count)),
        placeholder=f"{ACTION_NAMES[action]}: choose {count} card{'s' if count > 1 else ''}",
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
