"""The all-time leaderboard, a page at a time, and its Previous / Next buttons
(``lb:<guild>:<page>``, a `DynamicItem`, so they keep working after a restart). Each viewer
pages on their own. Who is ranked, and at which rank, is the engine's answer
(:meth:`engine.service.MatchQueries.leaderboard`); this only shows it."""

from __future__ import annotations

from typing import Any

import discord

from bot.custom_ids import LEADERBOARD_TEMPLATE, Prefix
from bot.discord_plumbing.first_response import FirstResponse, acknowledge, send_private
from bot.discord_plumbing.match_item import refusals_answered
from bot.discord_plumbing.pages import EMBED_COLOUR
from bot.discord_plumbing.server_pages import ServerPageButton
from bot.features import feature_deps
from bot.stats.deps import StatsDeps
from bot.stats.words import leaderboard_text, page_count
from bot.words.i18n import language_of, text

LEADERBOARD_PAGE_SIZE = 10


class LeaderboardPageButton(ServerPageButton, template=LEADERBOARD_TEMPLATE):
    """Previous or Next under the leaderboard."""

    PREFIX = Prefix.LEADERBOARD

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with refusals_answered(interaction, f"leaderboard page {self.page}"):
            deps = feature_deps(interaction.client, StatsDeps)
            await show_leaderboard(deps, interaction, self.page)


async def show_leaderboard(
    deps: StatsDeps, interaction: discord.Interaction[Any], page: int = 0
) -> None:
    """Reply with a page of this server's leaderboard, or turn the page in place."""
    lang = language_of(interaction.locale)
    guild_id = interaction.guild_id
    if guild_id is None:
        await interaction.response.send_message(text(lang, "stats.not_in_server"), ephemeral=True)
        return
    turning = interaction.type is discord.InteractionType.component
    await acknowledge(interaction, FirstResponse.UPDATE if turning else FirstResponse.THINK)
    size = LEADERBOARD_PAGE_SIZE
    board = await deps.queries.leaderboard(guild_id, offset=page * size, limit=size)
    last = page_count(board.total, size) - 1
    if page > last:  # an old button after the ranking shrank: show the last page instead
        page = last
        board = await deps.queries.leaderboard(guild_id, offset=page * size, limit=size)
    description = leaderboard_text(lang, board, size)
    season = await deps.seasons.current(guild_id)
    if season is not None:  # the all-time board points to the season's own
        hint = text(lang, "seasons.leaderboard_hint", number=season.number)
        description = f"{description}\n\n{hint}"
    embed = discord.Embed(
        title=text(lang, "stats.leaderboard_title"), description=description, colour=EMBED_COLOUR
    )
    view = _paging_view(lang, guild_id, page, last)
    if turning:
        await interaction.edit_original_response(embed=embed, view=view)
    elif view is None:
        await send_private(interaction, embed=embed)
    else:
        await send_private(interaction, embed=embed, view=view)


def _paging_view(lang: str, guild_id: int, page: int, last: int) -> discord.ui.View | None:
    if last == 0:
        return None  # one page: no buttons (and no two buttons with one custom_id)
    view = discord.ui.View(timeout=None)
    previous, following = max(page - 1, 0), min(page + 1, last)
    view.add_item(
        LeaderboardPageButton(
            guild_id, previous, label=text(lang, "stats.previous"), disabled=page == 0
        )
    )
    view.add_item(
        LeaderboardPageButton(
            guild_id, following, label=text(lang, "stats.next"), disabled=page == last
        )
    )
    return view
