"""The private panel's action buttons — Secret, Trade-off, Gift, Competition — and the
buttons that confirm a chosen decision (one per Competition split)."""

from __future__ import annotations

from bot.custom_ids import Verb, game_id
from bot.names import ACTION_NAMES
from bot.ui_spec import ButtonSpec, Style
from engine import Action, Competition, Decision, PlayerView
from engine.cards import cards_text
from engine.decisions import ActionDecision


def actions_open(view: PlayerView) -> tuple[Action, ...]:
    """Unused actions with at least one legal decision now (the engine decides)."""
    legal_actions = {d.action for d in view.legal if isinstance(d, ActionDecision)}
    return tuple(a for a in Action if a in legal_actions)


def action_buttons(view: PlayerView, match_id: int) -> tuple[ButtonSpec, ...]:
    """One button per action the player may still take this turn."""
    version = view.table.version
    return tuple(
        ButtonSpec(
            label=f"{ACTION_NAMES[action]} ({action.size})",
            custom_id=game_id(match_id, version, Verb.ACTION, str(action.size)),
            style=Style.PRIMARY,
        )
        for action in actions_open(view)
    )


def decision_label(decision: Decision) -> str:
    """How a decision reads on its confirm button: ``Gift E E G``, ``AB | EG``."""
    if isinstance(decision, Competition):
        return " | ".join(cards_text(pair) for pair in decision.pairs)
    assert isinstance(decision, ActionDecision)
    return f"{ACTION_NAMES[decision.action]} {' '.join(cards_text((c,)) for c in decision.cards)}"


def confirm_buttons(
    match_id: int, version: int, decisions: tuple[Decision, ...]
) -> tuple[ButtonSpec, ...]:
    """Confirm buttons: one for a Secret, Trade-off or Gift, one per split of a Competition."""
    return tuple(
        ButtonSpec(
            label=("Confirm: " if not isinstance(d, Competition) else "Split ") + decision_label(d),
            custom_id=game_id(match_id, version, Verb.DO, str(d)),
            style=Style.SUCCESS,
        )
        for d in decisions
    )


def back_button(match_id: int, version: int) -> ButtonSpec:
    return ButtonSpec("Back", game_id(match_id, version, Verb.BACK), Style.SECONDARY)
