"""What the challenge feature's commands and buttons need, and their button base."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from bot.challenge.open_challenges import OpenChallenges
from bot.custom_ids import ANY_MATCH_ITEM, Verb, game_id
from bot.discord_plumbing.interaction_boards import InteractionBoards
from bot.discord_plumbing.match_item import MatchItem, MatchItemDeps
from bot.discord_plumbing.places import Places
from bot.words.server_language import ServerLanguages
from engine.service import MatchChallenges, MatchCommands, MatchPlacements, SeatCommands


@dataclass(frozen=True, slots=True, kw_only=True)
class ChallengeDeps(MatchItemDeps):
    challenges: MatchChallenges
    seats: SeatCommands
    """Open seats: challenges to anyone, refused in a seat's words, and their list."""
    commands: MatchCommands
    """Starts a match against the AI (`/hanamikoji ai`)."""
    placements: MatchPlacements
    """Where the challenge's message is (closed after a restart, or from `/hanamikoji seats`)."""
    languages: ServerLanguages
    """The challenge message and the rematch notice are public: in the server's language."""
    places: Places
    open_challenges: OpenChallenges
    interaction_boards: InteractionBoards = field(default_factory=InteractionBoards)
    """Where a match started outside any server the bot is in leaves its board's
    interaction (the command's, or the Accept's) for the presenters."""


class ChallengeButton(
    MatchItem[discord.ui.Button[Any], ChallengeDeps],
    template=ANY_MATCH_ITEM,
):
    deps_kind = ChallengeDeps

    def __init__(
        self, match_id: int, version: int, verb: Verb, label: str, style: discord.ButtonStyle
    ) -> None:
        item: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=style, custom_id=game_id(match_id, version, verb)
        )
        super().__init__(item, match_id, version)
