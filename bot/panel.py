"""The private panel's pages, built from a :class:`~engine.rules.views.PlayerView` only.

First page: your hand sorted by geisha with the new card marked, your face-down Secret
and Trade-off, the actions you have left, and on your turn one button per action. Then a
card select for the chosen action, then Confirm (or one button per Competition split),
with Back at every step. Only decisions in ``view.legal`` are ever offered.
"""

from __future__ import annotations

from itertools import groupby

from bot.action_buttons import action_buttons, back_button, confirm_buttons, decision_label
from bot.card_select import card_select
from bot.choice_buttons import choice_buttons
from bot.custom_ids import Verb, game_id
from bot.i18n import text
from bot.names import action_hint, action_name, item_name, letters, offer_text
from bot.ui_spec import ButtonSpec, PageSpec, Row
from engine.rules import Action, Competition, Decision, Gift, Phase, PlayerView
from engine.rules.cards import cards_text
from engine.rules.decisions import ActionDecision

NEW_MARK = "🆕"


def hand_text(lang: str, view: PlayerView) -> str:
    """``A Fan · B Flute ×2 · G Kimono ×3 🆕`` — grouped by geisha, the drawn card marked."""
    if not view.hand:
        return text(lang, "panel.empty")
    parts = []
    for card, group in groupby(view.hand):
        count = len(list(group))
        shown = f"**{cards_text((card,))}** {item_name(lang, card)}"
        shown += f" ×{count}" if count > 1 else ""
        if card == view.drawn:
            shown += f" {NEW_MARK}"
        parts.append(shown)
    return " · ".join(parts)


def face_down_text(lang: str, view: PlayerView) -> str:
    secret = cards_text((view.secret,)) if view.secret is not None else "—"
    trade_off = letters(view.trade_off) if view.trade_off else "—"
    return text(lang, "panel.face_down", secret=secret, trade_off=trade_off)


def waiting_text(lang: str, view: PlayerView, names: tuple[str, str]) -> str:
    table = view.table
    if table.outcome is not None:
        return text(lang, "panel.over")
    other = names[view.opponent]
    if not view.to_decide:
        key = "panel.waiting_turn" if table.phase is Phase.ACTION else "panel.waiting_choice"
        return text(lang, key, name=other)
    if table.pending is not None:
        key = (
            "panel.your_gift_choice"
            if table.phase is Phase.GIFT_CHOICE
            else "panel.your_competition_choice"
        )
        return text(lang, key, name=other, offer=offer_text(table.pending))
    drew = (
        text(lang, "panel.you_drew", card=cards_text((view.drawn,)))
        if view.drawn is not None
        else ""
    )
    return text(lang, "panel.your_turn", drew=drew)


def _refresh(lang: str, match_id: int, version: int) -> ButtonSpec:
    return ButtonSpec(text(lang, "panel.refresh"), game_id(match_id, version, Verb.HAND))


def home_page(
    lang: str, view: PlayerView, match_id: int, names: tuple[str, str], notice: str = ""
) -> PageSpec:
    """The panel's first page."""
    table = view.table
    left = " · ".join(action_name(lang, a) for a in table.unused(view.player))
    body = "\n".join(
        [
            text(lang, "panel.hand_line", count=len(view.hand), cards=hand_text(lang, view)),
            text(lang, "panel.face_down_line", cards=face_down_text(lang, view)),
            text(lang, "panel.actions_left", actions=left or text(lang, "panel.none")),
            "",
            waiting_text(lang, view, names),
        ]
    )
    rows: list[Row] = []
    if view.to_decide and table.phase is Phase.ACTION:
        rows.append(action_buttons(lang, view, match_id))
    elif view.to_decide and table.pending is not None:
        rows.append(choice_buttons(lang, match_id, table.version, table.pending))
    if table.outcome is None:
        rows.append((_refresh(lang, match_id, table.version),))
    title = text(lang, "panel.title", round=table.round_number, first=names[0], second=names[1])
    return PageSpec(text=body, title=title, rows=tuple(rows), notice=notice)


def _action_title(lang: str, view: PlayerView, action: Action) -> str:
    return text(
        lang, "panel.action_title", action=action_name(lang, action), round=view.table.round_number
    )


def pick_page(lang: str, view: PlayerView, match_id: int, action: Action) -> PageSpec:
    """Choose the cards for an action."""
    version = view.table.version
    count = action.size
    body = "\n".join(
        [
            text(
                lang,
                "panel.pick_intro",
                action=action_name(lang, action),
                hint=action_hint(lang, action),
            ),
            text(lang, "panel.pick_one" if count == 1 else "panel.pick_many", count=count),
            hand_text(lang, view),
        ]
    )
    return PageSpec(
        text=body,
        title=_action_title(lang, view, action),
        rows=(card_select(lang, view, match_id, action), (back_button(lang, match_id, version),)),
    )


def decisions_for(view: PlayerView, action: Action, cards: tuple[int, ...]) -> tuple[Decision, ...]:
    """The legal decisions of ``action`` that use exactly these cards (splits for Competition)."""
    wanted = sorted(cards)
    return tuple(
        d
        for d in view.legal
        if isinstance(d, ActionDecision) and d.action is action and sorted(d.cards) == wanted
    )


def confirm_page(
    lang: str, view: PlayerView, match_id: int, action: Action, decisions: tuple[Decision, ...]
) -> PageSpec:
    """Confirm the decision, or pick one of a Competition's splits."""
    version = view.table.version
    first = decisions[0]
    if isinstance(first, Competition):
        body = text(lang, "panel.split", cards=letters(sorted(first.cards)))
    elif isinstance(first, Gift):
        body = text(lang, "panel.gift_confirm", decision=decision_label(lang, first))
    else:
        body = text(
            lang,
            "panel.confirm",
            decision=decision_label(lang, first),
            hint=action_hint(lang, action),
        )
    return PageSpec(
        text=body,
        title=_action_title(lang, view, action),
        rows=(
            confirm_buttons(lang, match_id, version, decisions),
            (back_button(lang, match_id, version),),
        ),
    )
