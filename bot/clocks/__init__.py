"""Clocks: `/hanamikoji games` (a member's matches under way here: theirs to play first,
each with its thread, its pace and the time left) and `vacation` (pause one's turn-based
matches for some days, end it early, see the days left this year).

The deadlines, the overdue turns and the vacations are the engine's
(:mod:`engine.clocks`, ``service.queries.games_of``, ``service.vacations``); here they are
only shown.

A discord.py extension: :func:`setup` adds the commands to `/hanamikoji`.
"""

from __future__ import annotations

from bot.clocks.commands import clock_commands
from bot.clocks.deps import ClocksDeps
from bot.features import AnyBot, Feature, command_group, shared_parts


class Clocks(Feature):
    """Holds the clocks feature's parts."""


async def setup(bot: AnyBot) -> None:
    parts = shared_parts(bot)
    service = parts.service
    deps = ClocksDeps(service.queries, service.vacations, parts.names)
    await bot.add_cog(Clocks(deps))
    group = command_group(bot)
    for command in clock_commands(deps):
        group.add_command(command)
