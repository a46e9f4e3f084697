"""The public side of a match in Discord: its thread, the board, and the few messages
someone must see (the start, round summaries, the result, mentions of an away player).

Subscribes to the match service's events and wires the parts that show them: each match's
ordered queue (:mod:`bot.play.match_queues`), the board editor
(:mod:`bot.play.board_editor`), the thread's messages (:mod:`bot.play.announcements`), all
posting through the match's place (:mod:`bot.play.match_place`). Everything shown comes
from public events and :class:`~engine.rules.views.PublicView`, in the server's language.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord

from bot.discord_plumbing.places import Places
from bot.play.announcements import Announcements
from bot.play.board_editor import BoardEditor, ChannelGone, TellPlayer
from bot.play.match_place import MatchPlace
from bot.play.match_queues import MatchQueues
from bot.play.presence import Presence
from bot.words.player_names import PlayerNames
from bot.words.server_language import ServerLanguages
from engine.model import MatchInfo
from engine.service import MatchPlacements, MatchQueries, MatchSettings
from engine.service.events import ChoiceNeeded, DecisionApplied, Event, RoundScored


class Table:
    """Turns service events into thread messages and board edits."""

    def __init__(
        self,
        queries: MatchQueries,
        placements: MatchPlacements,
        settings: MatchSettings,
        names: PlayerNames,
        languages: ServerLanguages,
        places: Places,
        presence: Presence,
        notify: Callable[[MatchInfo, int], Coroutine[Any, Any, None]],
        retire_dm: Callable[[MatchInfo, int], Coroutine[Any, Any, None]],
        confirm: Callable[[Event], None],
        ready: Callable[[], Awaitable[None]],
        tell: TellPlayer | None = None,
        channel_gone: ChannelGone | None = None,
    ) -> None:
        self.places = places
        self.presence = presence
        self._place = MatchPlace(places, names, languages, lost=self._mark_board)
        self._board = BoardEditor(
            queries, placements, self._place, self._mark_board, tell, channel_gone
        )
        self._announcements = Announcements(
            queries,
            placements,
            settings,
            self._place,
            self._board,
            presence,
            notify=notify,
            retire_dm=retire_dm,
            aside=self._aside,
            board_settled=self._board_settled,
        )
        self._queues = MatchQueues(
            self._announcements.show,
            self._board.refresh_board,
            confirm,
            ready,
            closing=lambda: places.retrier.closing,
        )

    # The queues are built last; these reach them once they exist.
    def _mark_board(self, match_id: int) -> None:
        self._queues.mark_board(match_id)

    def _aside(self, work: Coroutine[Any, Any, None]) -> None:
        self._queues.aside(work)

    async def _board_settled(self, match_id: int) -> None:
        await self._queues.board_settled(match_id)

    async def on_event(self, event: Event) -> None:
        """The service's subscriber: queue the event on its match and return at once."""
        if not self._announcements.shows(event):
            return
        self._queues.put(event)
        if isinstance(event, DecisionApplied | ChoiceNeeded | RoundScored):
            self._queues.mark_board(event.match_id)

    async def wait_idle(self) -> None:
        """Until every queued event has been shown (tests and shutdown)."""
        await self._queues.wait_idle()

    async def place(self, info: MatchInfo) -> discord.abc.Messageable | None:
        """The thread of the match, or its channel when it has no thread."""
        return await self._place.place(info)

    async def public_language(self, info: MatchInfo) -> str:
        """The language of the match's public messages (its server's)."""
        return await self._place.public_language(info)

    async def refresh_board(self, match_id: int) -> None:
        """Edit the board message in place to show the match as it is now."""
        await self._board.refresh_board(match_id)

    async def post_board(self, info: MatchInfo) -> discord.Message | None:
        """Post a fresh board at the bottom of the match's place and remember it."""
        return await self._board.post_board(info)

    def board_deleted(self, message_id: int) -> None:
        """A message was deleted; if it was a board this process shows, post it again."""
        match_id = self._board.board_deleted(message_id)
        if match_id is not None:
            self._queues.mark_board(match_id)

    def permissions_changed(self) -> None:
        """A server's roles or a channel's overwrites changed: a board whose edit Discord
        refused is edited again, as the new permissions allow."""
        for match_id in self._board.refused_boards():
            self._queues.mark_board(match_id)

    def check_board(self, match_id: int) -> None:
        """Edit the match's board soon, repairing its place first if it is gone."""
        self._queues.mark_board(match_id)

    async def repair(self, info: MatchInfo) -> MatchInfo:
        """A new thread (or the channel) and board for a match whose thread is gone; the
        match as placed afterwards (unchanged if nothing was gone)."""
        return await self._board.repair(info)

    def place_is_gone(self, info: MatchInfo) -> bool:
        """Whether the match's thread was deleted under it."""
        return self.places.is_gone(info.placement.thread_id)
