"""The board message of a match: posted at the bottom of its place, then edited in place
to show the match as it is."""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord

from bot.discord_plumbing.channel_permissions import bot_permissions_in, can_send, fit_message
from bot.discord_plumbing.pages import Page, message_kwargs
from bot.play.board import board_page
from bot.play.match_place import MatchPlace
from bot.play.shown_boards import ShownBoards
from bot.words.i18n import text
from engine.rules import PublicView
from engine.service import MatchPlacements, MatchQueries
from engine.store.rows import AI_USER_ID, MatchInfo

log = logging.getLogger(__name__)


def _ai_seat(info: MatchInfo) -> int | None:
    return info.players.index(AI_USER_ID) if AI_USER_ID in info.players else None


def _fitted(place: object) -> tuple[bool, ...]:
    """What the bot may show in ``place`` (a picture, an embed): the same page fits
    differently once a permission changes."""
    permissions = bot_permissions_in(place)
    return () if permissions is None else (permissions.attach_files, permissions.embed_links)


class BoardEditor:
    """Posts and edits the board; ``mark_stale`` asks for one more edit of a match's board."""

    def __init__(
        self,
        queries: MatchQueries,
        placements: MatchPlacements,
        place: MatchPlace,
        mark_stale: Callable[[int], None],
    ) -> None:
        self._queries = queries
        self._placements = placements
        self._place = place
        self._mark_stale = mark_stale
        self._shown = ShownBoards()

    async def _page(self, info: MatchInfo, lang: str, table: PublicView) -> Page:
        return await board_page(
            lang,
            info.match_id,
            table,
            await self._place.names(info),
            ai_seat=_ai_seat(info),
            deadline=info.turn_deadline,
            picture_names=await self._place.raw_names(info),
            hints=info.hints,
        )

    async def refresh_board(self, match_id: int) -> None:
        """Edit the board message in place to show the match as it is now."""
        info = await self._queries.match_info(match_id)
        if info.placement.board_message_id is None:
            return
        place = await self._place.place(info)
        if place is None:
            return
        table = await self._queries.public_view(match_id)
        lang = await self._place.public_language(info)
        page = await self._page(info, lang, table)
        board_id, fitted = info.placement.board_message_id, _fitted(place)
        if not self._shown.would_change(board_id, page, fitted):
            return  # the board already shows this: an edit would spend a request for nothing
        await self._place.places.edit_message(
            place, board_id, lambda: fit_message(place, message_kwargs(page, editing=True))
        )
        self._shown.shown(board_id, page, fitted)
        if (await self._queries.public_view(match_id)).version != table.version:
            # Another bot process may have moved the match on and edited the board while
            # this edit was on its way, and landed first: edit once more, so the last
            # edit shows the match as it is.
            self._mark_stale(match_id)

    async def post_board(self, info: MatchInfo) -> discord.Message | None:
        """Post a fresh board at the bottom of the match's place and remember it."""
        place = await self._place.place(info)
        if place is None:
            return None
        if not can_send(place):
            log.warning("match %s: no permission to post the board in %s", info.match_id, place)
            return None
        table = await self._queries.public_view(info.match_id)
        lang = await self._place.public_language(info)
        page = await self._page(info, lang, table)
        # Sent at most once per start announcement, so it is told apart by its purpose.
        message = await self._place.send(
            place, f"match {info.match_id}: the board", message_kwargs(page), purpose="board"
        )
        self._shown.shown(message.id, page, _fitted(place))
        await self._placements.set_location(info.match_id, board_message_id=message.id)
        if (await self._queries.public_view(info.match_id)).version != table.version:
            # A move (the AI's first, say) came while the board was on its way, and its
            # edit found no board to edit: show it now.
            self._mark_stale(info.match_id)
        permissions = bot_permissions_in(place)
        if permissions is not None and not permissions.attach_files:
            await self._place.post(info, text(lang, "table.text_only_board"))
        return message
