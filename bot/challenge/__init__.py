"""Challenge: `/hanamikoji challenge` (a member) and `open` (anyone: an open seat, posted in
the server's lobby channel when it named one), `seats` (the server's open seats, each with
its Join), `ai`; the public challenge message with its answers (Accept / Decline, or Join /
Cancel), and the Rematch button under a finished match.

An open seat is a challenge whose opponent is anyone: one message, one set of answer
buttons and one path in the service (:mod:`engine.service.challenges`), which says who may
answer; here it is only shown.

A discord.py extension: :func:`setup` adds the commands to `/hanamikoji` and registers
one `DynamicItem` per verb.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.challenge.accept_button import AcceptButton
from bot.challenge.cancel_button import CancelButton
from bot.challenge.commands import challenge_commands
from bot.challenge.decline_button import DeclineButton
from bot.challenge.deps import ChallengeDeps
from bot.challenge.join_button import JoinButton
from bot.challenge.open_challenges import OpenChallenges
from bot.challenge.rematch_button import RematchButton
from bot.challenge.seat_list import SeatsPageButton
from bot.features import AnyBot, Feature, command_group, shared_parts

ITEMS = (AcceptButton, DeclineButton, JoinButton, CancelButton, SeatsPageButton, RematchButton)


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
        challenges=service.challenges,
        seats=service.seats,
        commands=service.commands,
        placements=service.placements,
        languages=parts.languages,
        places=parts.places,
        open_challenges=open_challenges,
        interaction_boards=parts.interaction_boards,
    )
    await bot.add_cog(Challenge(deps, service.subscribe(open_challenges.on_event)))
    group = command_group(bot)
    for command in challenge_commands(deps, service.config.ai_levels):
        group.add_command(command)
    bot.add_dynamic_items(*ITEMS)
