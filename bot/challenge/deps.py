"""What the challenge feature's commands and buttons need, and their button base."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.challenge.challenge_message import OpenChallenges
from bot.custom_ids import Verb, game_id
from bot.discord_plumbing.match_item import ANY_MATCH_ITEM, MatchItem, MatchItemDeps
from bot.words.server_language import ServerLanguages
from engine.service import MatchCommands, MatchPlacements


@dataclass(frozen=True, slots=True, kw_only=True)
class ChallengeDeps(MatchItemDeps):
    commands: MatchCommands
    placements: MatchPlacements
    languages: ServerLanguages
    """The challenge message and the rematch notice are public: in the server's language."""
    open_challenges: OpenChallenges


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
