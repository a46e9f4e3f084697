"""`/hanamikoji seats`: the server's open seats, a page at a time, each with its Join, and
the Previous / Next buttons (``st:<guild>:<page>``, a `DynamicItem`, so they keep working
after a restart). Each member pages on their own; the list is ephemeral."""

from __future__ import annotations

from typing import Any

import discord

from bot.challenge.deps import ChallengeDeps
from bot.challenge.join_button import JoinButton
from bot.challenge.words import terms
from bot.custom_ids import SEATS_PAGE_TEMPLATE, Prefix
from bot.discord_plumbing.first_response import FirstResponse, acknowledge, send_private
from bot.discord_plumbing.match_item import refusals_answered
from bot.discord_plumbing.pages import EMBED_COLOUR
from bot.discord_plumbing.server_pages import ServerPageButton
from bot.features import feature_deps
from bot.words.i18n import language_of, text
from engine.model import MatchInfo

SEATS_PAGE_SIZE = 5
"""One row of Join buttons (Discord allows five buttons a row)."""


class SeatsPageButton(ServerPageButton, template=SEATS_PAGE_TEMPLATE):
    """Previous or Next under the list of open seats."""

    PREFIX = Prefix.SEATS_PAGE

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with refusals_answered(interaction, f"seats page {self.page}"):
            deps = feature_deps(interaction.client, ChallengeDeps)
            await show_seats(deps, interaction, self.page)


async def show_seats(
    deps: ChallengeDeps, interaction: discord.Interaction[Any], page: int = 0
) -> None:
    """Reply with a page of this server's open seats, or turn the page in place."""
    lang = language_of(interaction.locale)
    guild_id = interaction.guild_id
    assert guild_id is not None, "/hanamikoji is guild-only"
    turning = interaction.type is discord.InteractionType.component
    await acknowledge(interaction, FirstResponse.UPDATE if turning else FirstResponse.THINK)
    # An old button after seats were taken: the engine gives the last page instead.
    found = await deps.seats.listed(guild_id, page, SEATS_PAGE_SIZE)
    page, last, shown = found.page, found.pages - 1, list(found.seats)
    first_number = page * SEATS_PAGE_SIZE + 1
    lines = [await _line(deps, lang, first_number + i, seat) for i, seat in enumerate(shown)]
    if not lines:
        lines = [text(lang, "seats.list_empty")]
    elif last > 0:
        lines += ["", text(lang, "seats.list_page", page=page + 1, pages=last + 1)]
    embed = discord.Embed(
        title=text(lang, "seats.list_title"), description="\n".join(lines), colour=EMBED_COLOUR
    )
    view = _view(lang, guild_id, page, last, shown, first_number=first_number)
    if turning:
        await interaction.edit_original_response(content=None, embed=embed, view=view)
    elif view is None:
        await send_private(interaction, embed=embed)
    else:
        await send_private(interaction, embed=embed, view=view)


async def _line(deps: ChallengeDeps, lang: str, number: int, seat: MatchInfo) -> str:
    host = await deps.names.name(seat.players[0], lang=lang, guild_id=seat.guild_id)
    variant, timer, rated = terms(lang, seat)
    return text(
        lang,
        "seats.list_line",
        number=number,
        channel=f"<#{seat.channel_id}>",
        host=host,
        variant=variant,
        timer=timer,
        rated=rated,
        ago=f"<t:{int(seat.created_at)}:R>",
    )


def _view(
    lang: str,
    guild_id: int,
    page: int,
    last: int,
    shown: list[MatchInfo],
    *,
    first_number: int,
) -> discord.ui.View | None:
    if not shown:
        return None
    view = discord.ui.View(timeout=None)
    for i, seat in enumerate(shown):
        join = JoinButton(
            seat.match_id, label=text(lang, "seats.list_join", number=first_number + i)
        )
        join.item.row = 0
        view.add_item(join)
    if last > 0:  # one page: no paging (and no two buttons with one custom_id)
        previous, following = max(page - 1, 0), min(page + 1, last)
        for target, key, disabled in (
            (previous, "seats.previous", page == 0),
            (following, "seats.next", page == last),
        ):
            button = SeatsPageButton(guild_id, target, label=text(lang, key), disabled=disabled)
            button.item.row = 1
            view.add_item(button)
    return view
