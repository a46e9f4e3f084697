"""Boards of matches outside any server the bot is in: a DM, a group DM, or a server that
only a member's user install reaches (the user-installed app).

There the application has no bot member: it may post nothing and edit nothing through the
channel endpoints (403, 50001), only answer interactions. So such a match's board is an
interaction's message — the command's answer, or the challenge it turned — and it is edited
only through the webhook of an interaction whose message it is: the command that posted it,
or a press on it acknowledged with an update. Each token lasts 15 minutes, and every press
brings a new one: the latest that lives is kept here, per match, in this process (a restart
forgets them; the board's Show button brings it up to date from a fresh press). Its age is
counted on the service's clock from when it came, so the bot and its tests agree on it.

What happens while no token lives — the AI's moves after 15 quiet minutes, a timer running
out — is settled by the service as anywhere else and shown at the next press.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord_plumbing.install_context import outside_bot_servers
from engine.model import MatchInfo

log = logging.getLogger(__name__)

TOKEN_SECONDS = 15 * 60
"""How long an interaction's token lets its webhook be used (Discord's 15 minutes)."""
EXPIRY_MARGIN_SECONDS = 30.0
"""A token this close to its 15 minutes is not used: the edit could arrive after it."""


def shown_by_interactions(info: MatchInfo) -> bool:
    """Whether ``info``'s board lives outside any server the bot is in (stored with no
    server: the service plays it on the global ratings)."""
    return info.guild_id is None


def on_interaction_board(interaction: discord.Interaction[Any]) -> bool:
    """Whether a press came from a message everyone there sees that an interaction posted,
    outside the bot's servers: a board there (a panel is ephemeral; the bot's own DMs to
    a member were not posted by an interaction)."""
    message = interaction.message
    return (
        message is not None
        and not message.flags.ephemeral
        and message.interaction_metadata is not None
        and outside_bot_servers(interaction)
    )


@dataclass(frozen=True, slots=True)
class BoardHandle:
    """An interaction whose webhook may edit a board message."""

    interaction: discord.Interaction[Any]
    message_id: int
    usable_until: float
    """On the service's clock: when it came, plus its 15 minutes less the margin."""


class InteractionBoards:
    """The latest live interaction of each interaction-shown board."""

    def __init__(self, now: Callable[[], float] = time.time) -> None:
        self._now = now
        self._handles: dict[int, BoardHandle] = {}
        self.show: Callable[[int], None] = lambda match_id: None
        """Asks for one more edit of a match's board (the presenters set it)."""

    def remember(
        self,
        match_id: int,
        interaction: discord.Interaction[Any],
        message_id: int,
        *,
        show: bool = False,
    ) -> None:
        """``interaction``'s own message (its answer, or the message pressed and updated)
        is the board ``message_id`` of ``match_id``; with ``show``, the board is then edited
        to show the match as it is now, through it."""
        usable_until = self._now() + TOKEN_SECONDS - EXPIRY_MARGIN_SECONDS
        self._handles[match_id] = BoardHandle(interaction, message_id, usable_until)
        if show:
            self.show(match_id)

    def live(self, match_id: int) -> BoardHandle | None:
        handle = self._handles.get(match_id)
        if handle is None:
            return None
        if self._now() >= handle.usable_until:
            del self._handles[match_id]
            return None
        return handle

    async def edit(self, match_id: int, message: dict[str, Any]) -> bool:
        """Edit the board through its live handle; False when none lives or Discord
        refused (the board then shows the match at its next press)."""
        handle = self.live(match_id)
        if handle is None:
            return False
        try:
            await handle.interaction.edit_original_response(**message)
        except discord.HTTPException as error:
            log.info("match %s: the board's edit through a press failed: %s", match_id, error)
            self._handles.pop(match_id, None)
            return False
        return True

    def forget(self, match_id: int) -> None:
        self._handles.pop(match_id, None)
