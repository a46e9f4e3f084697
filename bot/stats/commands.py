"""`/hanamikoji stats`, `leaderboard` and `history`.

Every reply here is ephemeral: looking up numbers is a personal errand that should not
fill the channel, each viewer pages the leaderboard on their own, and the record export
buttons are only useful to whoever asked. The result everyone sees is the public match-end
message, which carries both rating changes (:mod:`bot.play.rating_line`).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.custom_ids import MAX_SEASON
from bot.discord_plumbing.first_response import send_private, think_privately
from bot.discord_plumbing.install_context import outside_bot_servers, standings_scope
from bot.discord_plumbing.pages import EMBED_COLOUR
from bot.discord_plumbing.result_buttons import open_review_button
from bot.discord_plumbing.translator import localised
from bot.stats.deps import StatsDeps
from bot.stats.leaderboard_button import show_leaderboard
from bot.stats.puzzle_leaderboard import puzzle_standing_lines, show_puzzle_leaderboard
from bot.stats.record_button import RecordExportButton
from bot.stats.season_leaderboard import season_choices, show_season_leaderboard
from bot.stats.words import history_text, member_seasons_text, stats_text
from bot.words.i18n import language_of, text
from bot.words.player_names import markdown_safe, mention
from engine.model import AI_USER_ID, MatchStatus

Command = app_commands.Command[Any, ..., None]

HISTORY_LENGTH = 10
"""Recent matches shown by `/hanamikoji history` (two rows of five export buttons, two of
five Review buttons)."""
_BUTTONS_PER_ROW = 5


def stats_commands(deps: StatsDeps) -> list[Command]:
    """The commands, bound to the stats feature's parts."""

    @app_commands.command(name=localised("names.stats"), description=localised("slash.stats"))
    @app_commands.rename(member=localised("names.member"))
    @app_commands.describe(member=localised("slash.stats_member"))
    async def stats(
        interaction: discord.Interaction[Any],
        member: discord.Member | discord.User | None = None,
    ) -> None:
        """Reply with the member's (or the caller's) stats in this server; outside the
        bot's servers, on the global ratings (matches played there)."""
        lang = language_of(interaction.locale)
        await think_privately(interaction)
        who = member or interaction.user
        name = markdown_safe(who.display_name)
        scope = standings_scope(interaction)
        numbers = await deps.queries.player_stats(scope, who.id)
        seasons = None
        if not outside_bot_servers(interaction):
            seasons = await deps.seasons.member(scope, who.id)
        puzzles = None if deps.puzzles is None else await deps.puzzles.standing(scope, who.id)
        lines = [stats_text(lang, numbers, name)]
        if seasons is None:
            lines.append(text(lang, "anywhere.global_stats"))
        else:
            lines.extend(member_seasons_text(lang, seasons))
        if puzzles is not None:
            lines.extend(puzzle_standing_lines(lang, puzzles))
        embed = discord.Embed(
            title=text(lang, "stats.title", name=name),
            description="\n".join(lines),
            colour=EMBED_COLOUR,
        )
        await send_private(interaction, embed=embed)

    @app_commands.command(
        name=localised("names.leaderboard"), description=localised("slash.leaderboard")
    )
    @app_commands.rename(season=localised("names.season"), puzzles=localised("stats.names_puzzles"))
    @app_commands.describe(
        season=localised("slash.leaderboard_season"),
        puzzles=localised("stats.slash_puzzles"),
    )
    async def leaderboard(
        interaction: discord.Interaction[Any],
        season: app_commands.Range[int, 1, MAX_SEASON] | None = None,
        puzzles: bool = False,
    ) -> None:
        if puzzles and deps.puzzles is not None:
            await show_puzzle_leaderboard(deps.puzzles, deps.names, interaction)
        elif season is None:
            await show_leaderboard(deps, interaction)
        else:
            await show_season_leaderboard(deps, interaction, season)

    @leaderboard.autocomplete("season")
    async def season_autocomplete(
        interaction: discord.Interaction[Any], typed: str
    ) -> list[app_commands.Choice[int]]:
        return await season_choices(deps, interaction, typed)

    @app_commands.command(name=localised("names.history"), description=localised("slash.history"))
    @app_commands.rename(member=localised("names.member"))
    @app_commands.describe(member=localised("slash.history_member"))
    async def history(
        interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        """Reply with the member's (or the caller's) recent matches here, each exportable."""
        lang = language_of(interaction.locale)
        guild_id = interaction.guild_id
        if guild_id is None:
            await interaction.response.send_message(
                text(lang, "stats.not_in_server"), ephemeral=True
            )
            return
        await think_privately(interaction)
        who = member or interaction.user
        results = await deps.queries.finished_matches(
            user_id=who.id, guild_id=guild_id, limit=HISTORY_LENGTH
        )
        opponents = {
            r.match_id: await _opponent(deps, r.players, who.id, r.ai_level, lang) for r in results
        }
        playing = [
            (m.match_id, await _opponent(deps, m.players, who.id, m.ai_level, lang))
            for m in await deps.queries.open_matches_for(who.id)
            if m.guild_id == guild_id and m.status is MatchStatus.ACTIVE
        ]
        name = markdown_safe(who.display_name)
        if not results and not playing:
            body = text(lang, "stats.history_empty", name=name)
        else:
            body = history_text(lang, who.id, results, opponents, playing)
        embed = discord.Embed(
            title=text(lang, "stats.history_title", name=name),
            description=body,
            colour=EMBED_COLOUR,
        )
        view = _export_view(lang, [r.match_id for r in results])
        if view is None:
            await send_private(interaction, embed=embed)
        else:
            await send_private(interaction, embed=embed, view=view)

    return [stats, leaderboard, history]


async def _opponent(
    deps: StatsDeps, players: tuple[int, int], user_id: int, ai_level: str | None, lang: str
) -> str:
    other = players[1] if players[0] == user_id else players[0]
    if other == AI_USER_ID:
        return await deps.names.name(AI_USER_ID, ai_level, lang)
    return mention(other)


def _export_view(lang: str, match_ids: list[int]) -> discord.ui.View | None:
    """A Record button per match, then a Review button per match on rows of their own:
    ten matches fill four of Discord's five rows of five buttons."""
    if not match_ids:
        return None
    view = discord.ui.View(timeout=None)
    for index, match_id in enumerate(match_ids):
        button = RecordExportButton(
            match_id, label=text(lang, "stats.export_button", match=match_id)
        )
        button.row = index // _BUTTONS_PER_ROW
        view.add_item(button)
    review_rows_start = -(-len(match_ids) // _BUTTONS_PER_ROW)
    for index, match_id in enumerate(match_ids):
        review = open_review_button(text(lang, "review.history_button", match=match_id), match_id)
        review.row = review_rows_start + index // _BUTTONS_PER_ROW
        view.add_item(review)
    return view
