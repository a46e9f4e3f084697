"""The card select of the private panel: choose the cards for an action.

Options are the cards of the hand in sorted order; their values are positions in that
order, so two cards of the same geisha are told apart ("E Shamisen", "E Shamisen · 2nd").
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.custom_ids import Verb, game_id, template
from bot.discord_plumbing.app_emojis import button_emoji
from bot.discord_plumbing.first_response import on_private_message
from bot.discord_plumbing.match_item import MatchItem
from bot.play.deps import PlayDeps, fresh_view
from bot.words.card_faces import LETTERS, CardFaces, card_key
from bot.words.i18n import text
from bot.words.names import action_name, card_name, drawn_position
from engine.model import MatchInfo
from engine.rules import Action, Decision, PlayerView
from engine.rules.decisions import ActionDecision

_ORDINAL_KEYS = ("", "panel.second", "panel.third", "panel.fourth", "panel.fifth")
_ACTION_BY_SIZE = {a.size: a for a in Action}


class CardSelect(MatchItem[discord.ui.Select[Any], PlayDeps], template=template(Verb.PICK)):
    """``hk:<match>:<version>:pick:<size>``: the cards for the action of that size."""

    deps_kind = PlayDeps
    answers_itself = True

    def __init__(
        self,
        match_id: int,
        version: int,
        action: Action,
        *,
        placeholder: str = "",
        options: list[discord.SelectOption] | None = None,
    ) -> None:
        count = action.size
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=game_id(match_id, version, Verb.PICK, str(count)),
            placeholder=placeholder or None,
            min_values=count,
            max_values=count,
            options=options or [],
        )
        super().__init__(select, match_id, version)
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["match"]), int(match["version"]), _ACTION_BY_SIZE[int(match["arg"])])

    async def pressed(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo
    ) -> None:
        edit = on_private_message(interaction)
        view = await fresh_view(self, interaction, lang, info)
        if view is None:
            return
        cards = picked_cards(view, list(self.item.values))
        decisions = decisions_for(view, self.action, cards) if cards is not None else ()
        if not decisions:
            notice = text(lang, "panel.cards_not_usable")
            await self.deps.panel.home(interaction, lang, info, edit=edit, notice=notice, view=view)
            return
        await self.deps.panel.confirm(
            interaction, lang, info.match_id, view, self.action, decisions, edit=edit
        )


def card_select(
    lang: str, view: PlayerView, match_id: int, action: Action, faces: CardFaces = LETTERS
) -> CardSelect:
    """One option per card of the hand, each with the card's emoji when there is one."""
    options = []
    seen: dict[int, int] = {}
    drawn = drawn_position(view)
    for position, card in enumerate(view.hand):
        copy = seen.get(card, 0)
        seen[card] = copy + 1
        description = text(lang, "panel.just_drawn") if position == drawn else None
        ordinal = text(lang, _ORDINAL_KEYS[copy]) if copy else ""
        options.append(
            discord.SelectOption(
                label=card_name(lang, card) + ordinal,
                value=str(position),
                description=description,
                emoji=button_emoji(faces, card_key(card)),
            )
        )
    count = action.size
    key = "panel.select_one" if count == 1 else "panel.select_many"
    return CardSelect(
        match_id,
        view.table.version,
        action,
        placeholder=text(lang, key, action=action_name(lang, action), count=count),
        options=options,
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


def decisions_for(view: PlayerView, action: Action, cards: tuple[int, ...]) -> tuple[Decision, ...]:
    """The legal decisions of ``action`` that use exactly these cards (splits for Competition)."""
    wanted = sorted(cards)
    return tuple(
        d
        for d in view.legal
        if isinstance(d, ActionDecision) and d.action is action and sorted(d.cards) == wanted
    )
