"""Challenge: `/hanamikoji challenge` and `ai`, the public challenge message with its
Accept / Decline buttons, and the Rematch button under a finished match.

A discord.py extension: :func:`setup` adds the commands to `/hanamikoji` and registers
one `DynamicItem` per verb.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.challenge.accept_button import AcceptButton
from bot.challenge.challenge_message import OpenChallenges
from bot.challenge.commands import challenge_commands
from bot.challenge.decline_button import DeclineButton
from bot.challenge.deps import ChallengeDeps
from bot.challenge.rematch_button import RematchButton
from bot.features import AnyBot, Feature, command_group, shared_parts

ITEMS = (AcceptButton, DeclineButton, RematchButton)


class Challenge(Feature):
    """Holds the challenge feature's parts; closes challenges nobody answered."""

    def __init__(self, deps: ChallengeDeps, unsubscribe: Callable[[], None]) -> None:
        super().__init__(deps, unsubscribe=unsubscribe)
        self.open_challenges = deps.open_challenges

    async def wait_idle(self) -> None:
        await self.open_challenges.wait_idle()


async def setup(bot: AnyBot) -> None:
    parts = shared_parts(bot)
    service = parts.service
    open_challenges = OpenChallenges(
        service.queries,
        parts.names,
        parts.languages,
        parts.places,
        confirm=service.announced,
        ready=bot.wait_until_ready,
    )
    deps = ChallengeDeps(
        queries=service.queries,
        names=parts.names,
        commands=service.commands,
        placements=service.placements,
        languages=parts.languages,
        open_challenges=open_challenges,
    )
    await bot.add_cog(Challenge(deps, service.subscribe(open_challenges.on_event)))
    group = command_group(bot)
    for command in challenge_commands(deps, service.config.ai_levels):
        group.add_command(command)
    bot.add_dynamic_items(*ITEMS)
