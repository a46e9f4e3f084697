"""What the open seats feature's commands and buttons need, and their button base."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import discord

from bot.custom_ids import Verb, game_id
from bot.discord_plumbing.match_item import ANY_MATCH_ITEM, MatchItem, MatchItemDeps
from bot.discord_plumbing.places import Places
from bot.seats.seat_message import SeatMessages
from bot.words.server_language import ServerLanguages
from engine.service import MatchPlacements, SeatCommands


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatsDeps(MatchItemDeps):
    seats: SeatCommands
    placements: MatchPlacements
    """Where the seat message is (closed from `/hanamikoji seats` or after a restart)."""
    languages: ServerLanguages
    """The seat message is public: in the server's language."""
    places: Places
    seat_messages: SeatMessages


class SeatButton(
    MatchItem[discord.ui.Button[Any], SeatsDeps],
    template=ANY_MATCH_ITEM,
):
    """Join or Cancel (``hk:<match>:0:join`` / ``…:cancel``): anyone may press; the service
    says who may do what, and each presser is answered."""

    deps_kind = SeatsDeps
    players_only: ClassVar[bool] = False

    def __init__(self, match_id: int, verb: Verb, label: str, style: discord.ButtonStyle) -> None:
        item: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=style, custom_id=game_id(match_id, 0, verb)
        )
        super().__init__(item, match_id, 0)
