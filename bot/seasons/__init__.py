"""Seasons: `/hanamikoji season start` and `end` (Manage Server), and the podium posted in
the server's announcement channel when a season ends (the engine decides when, and where:
:func:`engine.seasons.announcement_channel`).

A discord.py extension: :func:`setup` adds the `season` commands to `/hanamikoji` and
subscribes to the service's events for the ends of seasons. The season leaderboard and
stats lines are the stats feature's (:mod:`bot.stats`); the season settings are the
settings feature's.
"""

from __future__ import annotations

from bot.features import AnyBot, Feature, command_group, shared_parts
from bot.seasons.commands import season_group
from bot.seasons.deps import SeasonDeps
from bot.seasons.podium import PodiumPoster


class Seasons(Feature):
    """Holds the seasons feature's parts."""


async def setup(bot: AnyBot) -> None:
    parts = shared_parts(bot)
    service = parts.service
    deps = SeasonDeps(
        seasons=service.seasons,
        places=parts.places,
        names=parts.names,
        languages=parts.languages,
        announced=service.announced,
    )
    poster = PodiumPoster(deps)
    await bot.add_cog(Seasons(deps, unsubscribe=service.subscribe(poster.on_event)))
    command_group(bot).add_command(season_group(deps))
