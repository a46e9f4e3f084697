"""Confirm a chosen decision — a Secret, Trade-off or Gift, or one split of a Competition
(one button per split) — and submit it to the service."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.custom_ids import Verb, decision_arg, template
from bot.discord_plumbing.app_emojis import button_emoji
from bot.discord_plumbing.first_response import on_private_message
from bot.play.deps import PlayButton, button
from bot.words.card_faces import LETTERS, CardFaces, action_key
from bot.words.decision_words import taken_words
from bot.words.i18n import text
from bot.words.names import action_name, decision_label, offer_text
from engine.model import MatchInfo
from engine.rules import Competition, Decision
from engine.rules.decisions import ActionDecision, CompetitionChoice, GiftChoice
from engine.service.matches.errors import StaleVersion


class ConfirmButton(PlayButton, template=template(Verb.DO)):
    """``hk:<match>:<version>:do:<decision>``, the decision in docs/rules.md notation (``3EEG``)."""

    def __init__(
        self,
        match_id: int,
        version: int,
        decision: Decision | None,
        *,
        label: str = "",
        unread: str = "",
    ) -> None:
        super().__init__(
            button(
                match_id,
                version,
                Verb.DO,
                unread if decision is None else str(decision),
                label=label,
                style=discord.ButtonStyle.success,
            ),
            match_id,
            version,
        )
        self.decision = decision
        """None for notation the rules do not read (a button from an older bot)."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        decision = decision_arg(match["arg"])
        return cls(int(match["match"]), int(match["version"]), decision, unread=match["arg"])

    async def pressed(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo
    ) -> None:
        edit = on_private_message(interaction)
        stale = text(lang, "refusal.stale")
        if self.decision is None:
            await self.deps.panel.home(interaction, lang, info, edit=edit, notice=stale)
            return
        # No read before the submission: the service refuses a press made for an older
        # version (StaleVersion) and answers with what the presser sees after their move.
        # No acknowledgement either: the answer is the first response (held back).
        try:
            result = await self.deps.commands.submit(
                info.match_id, interaction.user.id, self.decision, self.version
            )
        except StaleVersion:
            await self.deps.panel.home(interaction, lang, info, edit=edit, notice=stale)
            return
        done = done_text(lang, self.decision)
        await self.deps.panel.played(interaction, lang, info, result, edit=edit, notice=done)


def done_text(lang: str, decision: Decision) -> str:
    """The panel's notice once a decision is in: ``✅ Gift: C D E (3CDE)`` — in words, with
    the notation beside it for players who know it."""
    if isinstance(decision, GiftChoice | CompetitionChoice):  # the Take buttons' verb
        return text(lang, "panel.took", cards=taken_words(lang, decision))
    action: ActionDecision = decision
    return text(
        lang,
        "panel.done",
        action=action_name(lang, action.action),
        cards=offer_text(action),
        notation=str(action),
    )


def confirm_buttons(
    lang: str,
    match_id: int,
    version: int,
    decisions: tuple[Decision, ...],
    faces: CardFaces = LETTERS,
) -> tuple[ConfirmButton, ...]:
    """One button for a Secret, Trade-off or Gift, one per split of a Competition; each
    with its action's marker when there are emojis."""
    buttons = []
    for d in decisions:
        confirm = ConfirmButton(
            match_id,
            version,
            d,
            label=text(
                lang,
                "panel.split_button" if isinstance(d, Competition) else "panel.confirm_button",
                decision=decision_label(lang, d),
            ),
        )
        if isinstance(d, ActionDecision):
            confirm.item.emoji = button_emoji(faces, action_key(d.action))
        buttons.append(confirm)
    return tuple(buttons)
