"""Settings: `/hanamikoji rules`, `notify` (the private panel by DM) and `settings` (a
server's defaults).

A discord.py extension: :func:`setup` adds the commands to `/hanamikoji`.
"""

from __future__ import annotations

from bot.features import AnyBot, Feature, command_group, shared_parts
from bot.settings.commands import settings_commands
from bot.settings.deps import SettingsDeps


class Settings(Feature):
    """Holds the settings feature's parts."""


async def setup(bot: AnyBot) -> None:
    parts = shared_parts(bot)
    service = parts.service
    deps = SettingsDeps(
        service.settings, parts.direct_messages, service.seasons, service.daily_puzzles
    )
    await bot.add_cog(Settings(deps))
    group = command_group(bot)
    for command in settings_commands(deps):
        group.add_command(command)
