"""Moves: the board's button that shows every public move of the match so far, in words
and notation, only to whoever pressed it (anyone who can see the board may)."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.custom_ids import Verb, template
from bot.discord_plumbing.first_response import FirstResponse, send_private
from bot.discord_plumbing.pages import Page, message_kwargs
from bot.play.deps import PlayButton, PlayDeps, button
from bot.words.i18n import text
from bot.words.move_lines import match_log
from engine.model import MatchInfo

LOG_LIMIT = 4000
"""Under Discord's 4096 characters of an embed description."""


async def moves_page(deps: PlayDeps, lang: str, info: MatchInfo) -> Page:
    """The match log, in the reader's language; the oldest lines give way if it is long."""
    public = await deps.queries.public_view(info.match_id)
    names = await deps.names.pair(info.players, info.ai_level, lang, guild_id=info.guild_id)
    lines = match_log(lang, public, names)
    while len("\n".join(lines)) > LOG_LIMIT and len(lines) > 1:
        lines = ["…", *lines[2:]]
    title = text(lang, "moves.title", first=names[0], second=names[1])
    return Page(text="\n".join(lines), title=title)


class MovesButton(PlayButton, template=template(Verb.MOVES)):
    """``hk:<match>:0:moves``: version 0, it works whatever the match's version."""

    players_only = False

    def __init__(self, match_id: int, *, label: str = "") -> None:
        super().__init__(button(match_id, 0, Verb.MOVES, label=label), match_id, 0)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["match"]))

    def first_response(self, interaction: discord.Interaction[Any]) -> FirstResponse:
        """The moves are always a new private message, wherever the button is."""
        return FirstResponse.THINK

    async def pressed(
        self, interaction: discord.Interaction[Any], lang: str, info: MatchInfo
    ) -> None:
        page = await moves_page(self.deps, lang, info)
        await send_private(interaction, **message_kwargs(page))


def moves_button(lang: str, match_id: int) -> MovesButton:
    return MovesButton(match_id, label=f"{text(lang, 'moves.button')} 📜")
