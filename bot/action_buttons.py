"""The private panel's action buttons — Secret, Trade-off, Gift, Competition — and the
buttons that confirm a chosen decision (one per Competition split)."""

from __future__ import annotations

from bot.custom_ids import Verb, game_id
from bot.i18n import text
from bot.names import action_name, letters
from bot.ui_spec import ButtonSpec, Style
from engine.rules import Action, Competition, Decision, PlayerView
from engine.rules.cards import cards_text
from engine.rules.decisions import ActionDecision


def actions_open(view: PlayerView) -> tuple[Action, ...]:
    """Unused actions with at least one legal decision now (the engine decides)."""
    legal_actions = {d.action for d in view.legal if isinstance(d, ActionDecision)}
    return tuple(a for a in Action if a in legal_actions)


def action_buttons(lang: str, view: PlayerView, match_id: int) -> tuple[ButtonSpec, ...]:
    """One button per action the player may still take this turn."""
    version = view.table.version
    return tuple(
        ButtonSpec(
            label=text(lang, "panel.action_button", action=action_name(lang, a), count=a.size),
            custom_id=game_id(match_id, version, Verb.ACTION, str(a.size)),
            style=Style.PRIMARY,
        )
        for a in actions_open(view)
    )


def decision_label(lang: str, decision: Decision) -> str:
    """How a decision reads on its confirm button: ``Gift E E G``, ``AB | EG``."""
    if isinstance(decision, Competition):
        return " | ".join(cards_text(pair) for pair in decision.pairs)
    assert isinstance(decision, ActionDecision)
    return f"{action_name(lang, decision.action)} {letters(decision.cards)}"


def confirm_buttons(
    lang: str, match_id: int, version: int, decisions: tuple[Decision, ...]
) -> tuple[ButtonSpec, ...]:
    """Confirm buttons: one for a Secret, Trade-off or Gift, one per split of a Competition."""
    return tuple(
        ButtonSpec(
            label=text(
                lang,
                "panel.split_button" if isinstance(d, Competition) else "panel.confirm_button",
                decision=decision_label(lang, d),
            ),
            custom_id=game_id(match_id, version, Verb.DO, str(d)),
            style=Style.SUCCESS,
        )
        for d in decisions
    )


def back_button(lang: str, match_id: int, version: int) -> ButtonSpec:
    return ButtonSpec(text(lang, "panel.back"), game_id(match_id, version, Verb.BACK))
