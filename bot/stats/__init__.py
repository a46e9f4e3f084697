"""Stats: `/hanamikoji stats`, `leaderboard` and `history`, the leaderboards' paging (all
time and per season) and the record export buttons. (The rating line under a finished
match is the match-end message's: :mod:`bot.play.rating_line`.)

A discord.py extension: :func:`setup` adds the commands to `/hanamikoji` and registers
its `DynamicItem`s.
"""

from __future__ import annotations

from bot.features import AnyBot, Feature, command_group, shared_parts
from bot.stats.commands import stats_commands
from bot.stats.deps import StatsDeps
from bot.stats.leaderboard_button import LeaderboardPageButton
from bot.stats.record_button import RecordExportButton
from bot.stats.season_leaderboard import SeasonPageButton

ITEMS = (LeaderboardPageButton, SeasonPageButton, RecordExportButton)


class Stats(Feature):
    """Holds the stats feature's parts."""


async def setup(bot: AnyBot) -> None:
    parts = shared_parts(bot)
    service = parts.service
    deps = StatsDeps(service.queries, parts.names, service.seasons, service.puzzles)
    await bot.add_cog(Stats(deps))
    group = command_group(bot)
    for command in stats_commands(deps):
        group.add_command(command)
    bot.add_dynamic_items(*ITEMS)
