"""`/hanamikoji stats`, `leaderboard` and `history`, their buttons, and the match-end rating line.

Every reply here is ephemeral: looking up numbers is a personal errand that should not
fill the channel, each viewer pages the leaderboard on their own, and the record export
buttons are only useful to whoever asked. The result everyone sees is the public match-end
message, which carries both rating changes (:func:`rating_change_line`).

The buttons are :class:`discord.ui.DynamicItem` s with their own custom_ids, so they keep
working after a restart: ``lb:<guild>:<page>`` turns the leaderboard to a page and
``rec:<match>`` sends a finished match's record as a file.
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_ui import EMBED_COLOUR
from bot.i18n import language_of, text
from bot.stats_text import (
    history_text,
    leaderboard_text,
    mention,
    page_count,
    rating_changes_text,
    stats_text,
)
from engine.service.errors import MatchNotFinished, MatchNotFound
from engine.service.match_service import MatchService
from engine.store.rows import AI_USER_ID, MatchStatus

if TYPE_CHECKING:
    from bot.client import HanamikojiBot

LEADERBOARD_PAGE_SIZE = 10
LEADERBOARD_MIN_GAMES = 3
"""Rated matches a player needs to appear: one lucky first win is not a ranking."""
HISTORY_LENGTH = 10
"""Recent matches shown by `/hanamikoji history` (two rows of five export buttons)."""
_BUTTONS_PER_ROW = 5


def record_filename(match_id: int) -> str:
    return f"hanamikoji-match-{match_id}.json"


async def rating_change_line(
    service: MatchService, match_id: int, names: tuple[str, str], lang: str
) -> str | None:
    """``Ratings: ana 1662 (+162) · ben 1338 (−162)`` for a rated match, else None."""
    changes = await service.queries.rating_changes(match_id)
    return None if changes is None else rating_changes_text(lang, changes, names)


# -- the three commands -----------------------------------------------------------------


async def show_stats(
    interaction: discord.Interaction[Any], member: discord.abc.User | None
) -> None:
    """Reply with the member's (or the caller's) stats in this server."""
    lang = language_of(interaction.locale)
    if interaction.guild_id is None:
        await interaction.response.send_message(text(lang, "stats.not_in_server"), ephemeral=True)
        return
    who = member or interaction.user
    bot: HanamikojiBot = interaction.client
    stats = await bot.service.queries.player_stats(interaction.guild_id, who.id)
    embed = discord.Embed(
        title=text(lang, "stats.title", name=who.display_name),
        description=stats_text(lang, stats, who.display_name),
        colour=EMBED_COLOUR,
    )
    await interaction.response.send_message(embed=embed, ephemeral=True)


async def show_leaderboard(interaction: discord.Interaction[Any], page: int = 0) -> None:
    """Reply with a page of this server's leaderboard, or turn the page in place."""
    lang = language_of(interaction.locale)
    guild_id = interaction.guild_id
    if guild_id is None:
        await interaction.response.send_message(text(lang, "stats.not_in_server"), ephemeral=True)
        return
    bot: HanamikojiBot = interaction.client
    board = await bot.service.queries.leaderboard(
        guild_id,
        min_games=LEADERBOARD_MIN_GAMES,
        offset=page * LEADERBOARD_PAGE_SIZE,
        limit=LEADERBOARD_PAGE_SIZE,
    )
    last = page_count(board.total, LEADERBOARD_PAGE_SIZE) - 1
    if page > last:  # an old button after the ranking shrank: show the last page instead
        page = last
        board = await bot.service.queries.leaderboard(
            guild_id,
            min_games=LEADERBOARD_MIN_GAMES,
            offset=page * LEADERBOARD_PAGE_SIZE,
            limit=LEADERBOARD_PAGE_SIZE,
        )
    embed = discord.Embed(
        title=text(lang, "stats.leaderboard_title"),
        description=leaderboard_text(lang, board, LEADERBOARD_MIN_GAMES, LEADERBOARD_PAGE_SIZE),
        colour=EMBED_COLOUR,
    )
    view = _paging_view(lang, guild_id, page, last)
    if interaction.type is discord.InteractionType.component:
        await interaction.response.edit_message(embed=embed, view=view)
    elif view is None:
        await interaction.response.send_message(embed=embed, ephemeral=True)
    else:
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def show_history(
    interaction: discord.Interaction[Any], member: discord.abc.User | None
) -> None:
    """Reply with the member's (or the caller's) recent matches here, each exportable."""
    lang = language_of(interaction.locale)
    guild_id = interaction.guild_id
    if guild_id is None:
        await interaction.response.send_message(text(lang, "stats.not_in_server"), ephemeral=True)
        return
    who = member or interaction.user
    bot: HanamikojiBot = interaction.client
    results = await bot.service.queries.finished_matches(
        user_id=who.id, guild_id=guild_id, limit=HISTORY_LENGTH
    )
    opponents = {
        r.match_id: await _opponent(bot, r.players, who.id, r.ai_level, lang) for r in results
    }
    playing = [
        (m.match_id, await _opponent(bot, m.players, who.id, m.ai_level, lang))
        for m in await bot.service.queries.open_matches_for(who.id)
        if m.guild_id == guild_id and m.status is MatchStatus.ACTIVE
    ]
    if not results and not playing:
        body = text(lang, "stats.history_empty", name=who.display_name)
    else:
        body = history_text(lang, who.id, results, opponents, playing)
    embed = discord.Embed(
        title=text(lang, "stats.history_title", name=who.display_name),
        description=body,
        colour=EMBED_COLOUR,
    )
    view = _export_view(lang, [r.match_id for r in results])
    if view is None:
        await interaction.response.send_message(embed=embed, ephemeral=True)
    else:
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def send_record(interaction: discord.Interaction[Any], match_id: int) -> None:
    """Send the finished match's record as a one-line JSON file, or say why not."""
    lang = language_of(interaction.locale)
    bot: HanamikojiBot = interaction.client
    try:
        record = await bot.service.queries.match_record(match_id, interaction.guild_id)
    except MatchNotFinished:
        notice = text(lang, "stats.export_not_finished", match=match_id)
        await interaction.response.send_message(notice, ephemeral=True)
        return
    except MatchNotFound:
        notice = text(lang, "stats.export_not_found", match=match_id)
        await interaction.response.send_message(notice, ephemeral=True)
        return
    # One line ending in a newline: `python -m engine replay FILE` reads JSON Lines.
    data = (record + "\n").encode("utf-8")
    await interaction.response.send_message(
        text(lang, "stats.export_ready", match=match_id),
        file=discord.File(io.BytesIO(data), filename=record_filename(match_id)),
        ephemeral=True,
    )


async def _opponent(
    bot: HanamikojiBot, players: tuple[int, int], user_id: int, ai_level: str | None, lang: str
) -> str:
    other = players[1] if players[0] == user_id else players[0]
    if other == AI_USER_ID:
        return await bot.player_names.name(AI_USER_ID, ai_level, lang)
    return mention(other)


# -- the buttons ------------------------------------------------------------------------


class LeaderboardPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"lb:(?P<guild>[0-9]+):(?P<page>[0-9]+)",
):
    """Previous or Next on a leaderboard: shows page ``page`` of guild ``guild``."""

    def __init__(self, item: discord.ui.Button[Any], guild_id: int, page: int) -> None:
        super().__init__(item)
        self.guild_id = guild_id
        self.page = page

    @classmethod
    def make(cls, label: str, guild_id: int, page: int, disabled: bool) -> LeaderboardPageButton:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, custom_id=f"lb:{guild_id}:{page}", disabled=disabled
        )
        return cls(button, guild_id, page)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> LeaderboardPageButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, int(match["guild"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.guild_id != self.guild_id:
            lang = language_of(interaction.locale)
            await interaction.response.send_message(
                text(lang, "stats.wrong_server"), ephemeral=True
            )
            return
        await show_leaderboard(interaction, self.page)


class RecordExportButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"rec:(?P<match>[0-9]+)"
):
    """Sends the record of match ``match`` once it has ended."""

    def __init__(self, item: discord.ui.Button[Any], match_id: int) -> None:
        super().__init__(item)
        self.match_id = match_id

    @classmethod
    def make(cls, label: str, match_id: int) -> RecordExportButton:
        button: discord.ui.Button[Any] = discord.ui.Button(label=label, custom_id=f"rec:{match_id}")
        return cls(button, match_id)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> RecordExportButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, int(match["match"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await send_record(interaction, self.match_id)


STATS_BUTTONS = (LeaderboardPageButton, RecordExportButton)
"""Register with ``client.add_dynamic_items(*STATS_BUTTONS)`` in ``setup_hook``."""


def _paging_view(lang: str, guild_id: int, page: int, last: int) -> discord.ui.View | None:
    if last == 0:
        return None  # one page: no buttons (and no two buttons with one custom_id)
    view = discord.ui.View(timeout=None)
    view.add_item(
        LeaderboardPageButton.make(
            text(lang, "stats.previous"), guild_id, max(page - 1, 0), disabled=page == 0
        )
    )
    view.add_item(
        LeaderboardPageButton.make(
            text(lang, "stats.next"), guild_id, min(page + 1, last), disabled=page == last
        )
    )
    return view


def _export_view(lang: str, match_ids: list[int]) -> discord.ui.View | None:
    if not match_ids:
        return None
    view = discord.ui.View(timeout=None)
    for index, match_id in enumerate(match_ids):
        button = RecordExportButton.make(
            text(lang, "stats.export_button", match=match_id), match_id
        )
        button.row = index // _BUTTONS_PER_ROW
        view.add_item(button)
    return view
