"""Tournaments: `/hanamikoji tournament ...`, the registration message with Join / Leave /
Start, and the tournament's thread (pairings, withdrawals, podium and standings).

A discord.py extension: :func:`setup` adds the `tournament` group to `/hanamikoji`,
registers the buttons and subscribes the thread to the service's events. The
pairing, scoring and every rule are the engine's (:mod:`engine.service.tournaments.service`).
"""

from __future__ import annotations

from bot.features import AnyBot, Feature, command_group, shared_parts
from bot.tournaments.buttons import ITEMS
from bot.tournaments.commands import tournament_group
from bot.tournaments.deps import TournamentDeps
from bot.tournaments.thread import TournamentThread


class Tournaments(Feature):
    """Holds the tournament feature's parts."""


async def setup(bot: AnyBot) -> None:
    parts = shared_parts(bot)
    deps = TournamentDeps(
        tournaments=parts.service.tournaments,
        names=parts.names,
        languages=parts.languages,
        places=parts.places,
    )
    thread = TournamentThread(deps, parts.service.announced)
    await bot.add_cog(Tournaments(deps, unsubscribe=parts.service.subscribe(thread.on_event)))
    command_group(bot).add_command(tournament_group(deps))
    bot.add_dynamic_items(*ITEMS)
