"""The private panel's pages, built from a :class:`~engine.views.PlayerView` only.

First page: your hand sorted by geisha with the new card marked, your face-down Secret
and Trade-off, the actions you have left, and on your turn one button per action. Then a
card select for the chosen action, then Confirm (or one button per Competition split),
with Back at every step. Only decisions in ``view.legal`` are ever offered.
"""

from __future__ import annotations

from itertools import groupby

from bot.action_buttons import action_buttons, back_button, confirm_buttons, decision_label
from bot.card_select import card_select
from bot.choice_buttons import choice_buttons, offer_text
from bot.custom_ids import Verb, game_id
from bot.names import ACTION_HINTS, ACTION_NAMES, ITEM_NAMES
from bot.ui_spec import ButtonSpec, PageSpec, Row, Style
from engine import Action, Competition, Decision, Gift, Phase, PlayerView
from engine.cards import cards_text
from engine.decisions import ActionDecision

NEW_MARK = "🆕"


def hand_text(view: PlayerView) -> str:
    """``A Fan · B Flute ×2 · G Kimono ×3 🆕`` — grouped by geisha, the drawn card marked."""
    if not view.hand:
        return "*(empty)*"
    parts = []
    for card, group in groupby(view.hand):
        count = len(list(group))
        text = f"**{cards_text((card,))}** {ITEM_NAMES[card]}" + (f" ×{count}" if count > 1 else "")
        if card == view.drawn:
            text += f" {NEW_MARK}"
        parts.append(text)
    return " · ".join(parts)


def face_down_text(view: PlayerView) -> str:
    secret = cards_text((view.secret,)) if view.secret is not None else "—"
    trade_off = " ".join(cards_text((c,)) for c in view.trade_off) if view.trade_off else "—"
    return f"Secret: **{secret}** · Trade-off: **{trade_off}** *(only you can see these)*"


def waiting_text(view: PlayerView, names: tuple[str, str]) -> str:
    table = view.table
    if table.outcome is not None:
        return "The match is over."
    other = names[view.opponent]
    if not view.to_decide:
        if table.phase is Phase.ACTION:
            return f"⏳ Waiting for {other} to take their turn."
        return f"⏳ Waiting for {other} to choose from your offer."
    if table.phase is Phase.GIFT_CHOICE and table.pending is not None:
        return f"👉 **Your choice:** take one card of {other}'s Gift: {offer_text(table.pending)}"
    if table.phase is Phase.COMPETITION_CHOICE and table.pending is not None:
        offer = offer_text(table.pending)
        return f"👉 **Your choice:** take one pair of {other}'s Competition: {offer}"
    drawn = (
        f" You drew **{cards_text((view.drawn,))}** {NEW_MARK}." if view.drawn is not None else ""
    )
    return f"👉 **Your turn.**{drawn} Choose an action."


def _refresh(match_id: int, version: int) -> ButtonSpec:
    return ButtonSpec("Refresh", game_id(match_id, version, Verb.HAND), Style.SECONDARY)


def home_page(
    view: PlayerView, match_id: int, names: tuple[str, str], notice: str = ""
) -> PageSpec:
    """The panel's first page."""
    table = view.table
    left = " · ".join(ACTION_NAMES[a] for a in table.unused(view.player)) or "none"
    text = "\n".join(
        [
            f"**Your hand** ({len(view.hand)}): {hand_text(view)}",
            f"**Face down:** {face_down_text(view)}",
            f"**Actions left:** {left}",
            "",
            waiting_text(view, names),
        ]
    )
    rows: list[Row] = []
    if view.to_decide and table.phase is Phase.ACTION:
        rows.append(action_buttons(view, match_id))
    elif view.to_decide and table.pending is not None:
        rows.append(choice_buttons(match_id, table.version, table.pending))
    if table.outcome is None:
        rows.append((_refresh(match_id, table.version),))
    title = f"Your hand · Round {table.round_number} · {names[0]} vs {names[1]}"
    return PageSpec(text=text, title=title, rows=tuple(rows), notice=notice)


def pick_page(view: PlayerView, match_id: int, action: Action) -> PageSpec:
    """Choose the cards for an action."""
    version = view.table.version
    text = "\n".join(
        [
            f"**{ACTION_NAMES[action]}** — {ACTION_HINTS[action]}.",
            f"Choose {action.size} card{'s' if action.size > 1 else ''} from your hand:",
            hand_text(view),
        ]
    )
    return PageSpec(
        text=text,
        title=f"{ACTION_NAMES[action]} · Round {view.table.round_number}",
        rows=(card_select(view, match_id, action), (back_button(match_id, version),)),
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
    view: PlayerView, match_id: int, action: Action, decisions: tuple[Decision, ...]
) -> PageSpec:
    """Confirm the decision, or pick one of a Competition's splits."""
    version = view.table.version
    first = decisions[0]
    if isinstance(first, Competition):
        text = (
            f"**Competition** with {' '.join(cards_text((c,)) for c in sorted(first.cards))}: "
            "how do you split them into two pairs? Your opponent takes one pair, you keep one."
        )
    elif isinstance(first, Gift):
        text = (
            f"**{decision_label(first)}** — your opponent takes one card, you keep the other two."
        )
    else:
        text = f"**{decision_label(first)}** — {ACTION_HINTS[action]}."
    return PageSpec(
        text=text,
        title=f"{ACTION_NAMES[action]} · Round {view.table.round_number}",
        rows=(confirm_buttons(match_id, version, decisions), (back_button(match_id, version),)),
    )
