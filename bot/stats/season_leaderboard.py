"""A season's leaderboard, a page at a time, and its Previous / Next buttons
(``lbs:<guild>:<season>:<page>``, a `DynamicItem`, so they keep working after a restart),
and the choices offered for the leaderboard's ``season`` option. Who is ranked, and at
which rank, is the engine's answer (:meth:`engine.service.MatchSeasons.leaderboard`)."""

from __future__ import annotations

import re
from typing import Any, Self

import discord
from discord import app_commands

from bot.custom_ids import (
    SEASON_LEADERBOARD_TEMPLATE,
    is_id,
    is_page,
    is_season,
    season_leaderboard_id,
)
from bot.discord_plumbing.first_response import FirstResponse, acknowledge, send_private
from bot.discord_plumbing.link_button import LinkButton, in_its_server
from bot.discord_plumbing.match_item import refusals_answered
from bot.discord_plumbing.pages import EMBED_COLOUR
from bot.features import feature_deps
from bot.stats.deps import StatsDeps
from bot.stats.words import page_count, season_leaderboard_text
from bot.words.i18n import language_of, text
from engine.service import SeasonNotFound

PAGE_SIZE = 10


class SeasonPageButton(LinkButton, template=SEASON_LEADERBOARD_TEMPLATE):
    """Previous or Next on a season's leaderboard: page ``page`` of season ``season``."""

    def __init__(
        self, guild_id: int, season: int, page: int, *, label: str = "", disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                custom_id=season_leaderboard_id(guild_id, season, page),
                disabled=disabled,
            )
        )
        self.guild_id = guild_id
        self.season = season
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["guild"]), int(match["season"]), int(match["page"]))

    def readable(self) -> bool:
        return is_id(self.guild_id) and is_page(self.page) and is_season(self.season)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """A leaderboard pages only in its own server, and only to a page that could exist."""
        return await super().interaction_check(interaction) and await in_its_server(
            interaction, self.guild_id
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with refusals_answered(interaction, f"season {self.season} page {self.page}"):
            deps = feature_deps(interaction.client, StatsDeps)
            await show_season_leaderboard(deps, interaction, self.season, self.page)


async def show_season_leaderboard(
    deps: StatsDeps, interaction: discord.Interaction[Any], season: int, page: int = 0
) -> None:
    """Reply with a page of season ``season``'s leaderboard, or turn the page in place."""
    lang = language_of(interaction.locale)
    guild_id = interaction.guild_id
    if guild_id is None:
        await interaction.response.send_message(text(lang, "stats.not_in_server"), ephemeral=True)
        return
    if not is_season(season):
        await interaction.response.send_message(
            text(lang, "seasons.not_found", number=season), ephemeral=True
        )
        return
    turning = interaction.type is discord.InteractionType.component
    await acknowledge(interaction, FirstResponse.UPDATE if turning else FirstResponse.THINK)
    try:
        board = await deps.seasons.leaderboard(
            guild_id, season, offset=page * PAGE_SIZE, limit=PAGE_SIZE
        )
    except SeasonNotFound:
        await send_private(interaction, content=text(lang, "seasons.not_found", number=season))
        return
    last = page_count(board.total, PAGE_SIZE) - 1
    if page > last:  # an old button after the ranking shrank: show the last page instead
        page = last
        board = await deps.seasons.leaderboard(
            guild_id, season, offset=page * PAGE_SIZE, limit=PAGE_SIZE
        )
    embed = discord.Embed(
        title=text(lang, "seasons.leaderboard_title", number=season),
        description=season_leaderboard_text(lang, board, PAGE_SIZE),
        colour=EMBED_COLOUR,
    )
    view = _paging_view(lang, guild_id, season, page, last)
    if turning:
        await interaction.edit_original_response(embed=embed, view=view)
    elif view is None:
        await send_private(interaction, embed=embed)
    else:
        await send_private(interaction, embed=embed, view=view)


def _paging_view(
    lang: str, guild_id: int, season: int, page: int, last: int
) -> discord.ui.View | None:
    if last == 0:
        return None  # one page: no buttons (and no two buttons with one custom_id)
    view = discord.ui.View(timeout=None)
    previous, following = max(page - 1, 0), min(page + 1, last)
    view.add_item(
        SeasonPageButton(
            guild_id, season, previous, label=text(lang, "stats.previous"), disabled=page == 0
        )
    )
    view.add_item(
        SeasonPageButton(
            guild_id, season, following, label=text(lang, "stats.next"), disabled=page == last
        )
    )
    return view


async def season_choices(
    deps: StatsDeps, interaction: discord.Interaction[Any], typed: str
) -> list[app_commands.Choice[int]]:
    """The server's seasons, newest first (the running one marked), for autocomplete."""
    lang = language_of(interaction.locale)
    if interaction.guild_id is None:
        return []
    found = []
    current = await deps.seasons.current(interaction.guild_id)
    if current is not None:
        found.append((current.number, "seasons.choice_running"))
    found += [
        (s.number, "seasons.choice_ended") for s in await deps.seasons.past(interaction.guild_id)
    ]
    return [
        app_commands.Choice(name=text(lang, key, number=number), value=number)
        for number, key in found
        if typed.strip() in str(number)
    ][:25]
