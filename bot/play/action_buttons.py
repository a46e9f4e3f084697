"""The private panel's four action buttons — Secret, Trade-off, Gift, Competition — and
what they share: pressing one opens the card select for that action. Only actions with a
legal decision now are offered (the engine decides).

- Secret: one card face down, scored at the round's end.
- Trade-off: two cards face down, out of this round.
- Gift: offer three cards; the opponent takes one (``take_button.py``) and the offerer
  keeps two.
- Competition: offer two pairs; the opponent takes one (``take_button.py``) and the
  offerer keeps the other.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

import discord

from bot.custom_ids import ANY_MATCH_ITEM, Verb, template
from bot.discord_plumbing.app_emojis import button_emoji
from bot.discord_plumbing.first_response import on_private_message
from bot.play.deps import VerbButton, fresh_view
from bot.words.card_faces import LETTERS, CardFaces, action_key
from bot.words.i18n import text
from bot.words.names import action_name
from engine.model import MatchInfo
from engine.rules import Action, PlayerView
from engine.rules.decisions import ActionDecision


class ActionButton(VerbButton, template=ANY_MATCH_ITEM):
    """``hk:<match>:<version>:act:<size>``; each subclass is one action (its size)."""

    action: ClassVar[Action]
    verb = Verb.ACTION
    style = discord.ButtonStyle.primary

    @classmethod
    def arg(cls) -> str:
        return str(cls.action.size)

    @classmethod
    def labelled(cls, lang: str, match_id: int, version: int, faces: CardFaces = LETTERS) -> Self:
        label = text(
            lang, "panel.action_button", action=action_name(lang, cls.action), count=cls.action.size
        )
        button = cls(match_id, version, label=label)
        button.item.emoji = button_emoji(faces, action_key(cls.action))
        return button

    async def pressed(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo
    ) -> None:
        view = await fresh_view(self, interaction, lang, info)
        if view is None:
            return
        edit = on_private_message(interaction)
        await self.deps.panel.pick(interaction, lang, info.match_id, view, self.action, edit=edit)


def actions_open(view: PlayerView) -> tuple[Action, ...]:
    """Unused actions with at least one legal decision now (the engine decides)."""
    legal_actions = {d.action for d in view.legal if isinstance(d, ActionDecision)}
    return tuple(a for a in Action if a in legal_actions)


def _action_template(action: Action) -> str:
    return template(Verb.ACTION, str(action.size))


class SecretButton(ActionButton, template=_action_template(Action.SECRET)):
    action = Action.SECRET


class TradeOffButton(ActionButton, template=_action_template(Action.TRADE_OFF)):
    action = Action.TRADE_OFF


class GiftButton(ActionButton, template=_action_template(Action.GIFT)):
    action = Action.GIFT


class CompetitionButton(ActionButton, template=_action_template(Action.COMPETITION)):
    action = Action.COMPETITION
