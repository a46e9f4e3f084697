"""Open seats: `/hanamikoji open` posts a seat anyone in the server may take (in the
server's lobby channel when it named one), with Join and Cancel; `/hanamikoji seats` lists
the server's open seats, each with its Join.

A discord.py extension: :func:`setup` adds the commands to `/hanamikoji` and registers
one `DynamicItem` per verb. Who may join or cancel is the service's word
(:mod:`engine.service.challenges.seats`); here it is only shown.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.features import AnyBot, Feature, command_group, shared_parts
from bot.seats.buttons import CancelButton, JoinButton
from bot.seats.commands import seats_commands
from bot.seats.deps import SeatsDeps
from bot.seats.seat_list import SeatsPageButton
from bot.seats.seat_message import SeatMessages

ITEMS = (JoinButton, CancelButton, SeatsPageButton)


class Seats(Feature):
    """Holds the seats feature's parts; closes seats nobody took."""

    def __init__(self, deps: SeatsDeps, unsubscribe: Callable[[], None]) -> None:
        super().__init__(deps, unsubscribe=unsubscribe)
        self.seat_messages = deps.seat_messages

    async def wait_idle(self) -> None:
        await self.seat_messages.wait_idle()


async def setup(bot: AnyBot) -> None:
    parts = shared_parts(bot)
    service = parts.service
    seat_messages = SeatMessages(
        service.queries,
        parts.names,
        parts.languages,
        parts.places,
        confirm=service.announced,
        ready=bot.wait_until_ready,
    )
    deps = SeatsDeps(
        queries=service.queries,
        names=parts.names,
        seats=service.seats,
        placements=service.placements,
        languages=parts.languages,
        places=parts.places,
        seat_messages=seat_messages,
    )
    await bot.add_cog(Seats(deps, service.subscribe(seat_messages.on_event)))
    group = command_group(bot)
    for command in seats_commands(deps):
        group.add_command(command)
    bot.add_dynamic_items(*ITEMS)
