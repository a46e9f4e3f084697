"""The board message of a match: posted at the bottom of its place, then edited in place
to show the match as it is.

What a server changes under a match is repaired here, where the board is edited (one
edit at a time per match): a board a moderator deleted is posted again, once; a deleted
thread is replaced (:mod:`bot.play.relocation`); permissions taken away mid-match are
checked before each edit as before each post, so the match falls back (to its channel,
to a board without picture or embed) and says why once, instead of a refusal per edit;
a refusal that still comes (the permissions changed under the edit) switches the
fallback once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import discord

from bot.discord_plumbing.app_emojis import AppEmojis
from bot.discord_plumbing.channel_permissions import (
    bot_permissions_in,
    can_send,
    may_attach,
    permission_list,
)
from bot.discord_plumbing.interaction_boards import InteractionBoards, shown_by_interactions
from bot.discord_plumbing.pages import Page, message_kwargs
from bot.discord_plumbing.places import UNKNOWN_CHANNEL, UNKNOWN_MESSAGE
from bot.play.board import board_page
from bot.play.board_interactions import BoardPress
from bot.play.match_place import MatchPlace
from bot.play.relocation import move_match
from bot.play.shown_boards import ShownBoards
from bot.play.time_words import TurnTime
from bot.request_pacing import withdrawable
from bot.words.i18n import text
from bot.words.player_names import mention
from engine.model import AI_USER_ID, MatchInfo, MatchStatus
from engine.rules import PublicView
from engine.service import MatchPlacements, MatchQueries

log = logging.getLogger(__name__)

TellPlayer = Callable[[int, int, str, dict[str, str | list[str]]], Awaitable[None]]
"""Tells a player (user id) about a match (id) by DM: a locale key and its values (a list
is of permission names, put in words in the player's language)."""

ChannelGone = Callable[[MatchInfo], Awaitable[None]]
"""Ends the open matches of the match's channel, found deleted (as a CHANNEL_DELETE does)."""


Press = BoardPress[discord.Interaction[Any]]


def _pressed_on(press: Press | None, board_id: int) -> bool:
    """Whether ``press`` was made on the board message ``board_id`` (not one since replaced)."""
    message = None if press is None else press.interaction.message
    return message is not None and message.id == board_id


async def _edited_through(press: Press | None, board_id: int, place: object, page: Page) -> bool:
    """Edit the board through the webhook of a press on it; False when there is none, or
    Discord refused it (the token expired, the interaction unknown): the board is then
    edited as usual, nothing lost."""
    if press is None or not _pressed_on(press, board_id):
        return False  # no press, or one on a board since posted again
    through = press.interaction
    if through.is_expired():
        return False
    if isinstance(place, discord.Thread) and place.archived:
        return False  # refused there (50083): the usual edit unarchives the thread first
    try:
        await through.edit_original_response(
            **message_kwargs(page, editing=True, picture=may_attach(place))
        )
    except discord.HTTPException as error:
        log.info("board %s: its edit through a press failed (%s); edited as usual", board_id, error)
        return False
    return True


def _ai_seat(info: MatchInfo) -> int | None:
    return info.players.index(AI_USER_ID) if AI_USER_ID in info.players else None


_BY_INTERACTION = (True,)
"""What an interaction's board may show: its picture, always (no channel permission)."""


def _fitted(place: object) -> tuple[bool, ...]:
    """What the bot may show in ``place`` (the picture): the same page fits differently
    once the permission changes."""
    return (may_attach(place),)


class BoardEditor:
    """Posts and edits the board; ``mark_stale`` asks the match's presenter for one more
    edit of its board."""

    def __init__(
        self,
        queries: MatchQueries,
        placements: MatchPlacements,
        place: MatchPlace,
        mark_stale: Callable[[int], None],
        tell: TellPlayer | None = None,
        channel_gone: ChannelGone | None = None,
        emojis: AppEmojis | None = None,
        interaction_boards: InteractionBoards | None = None,
    ) -> None:
        self._queries = queries
        self._interaction_boards = interaction_boards or InteractionBoards()
        self._channel_gone = channel_gone
        self._emojis = emojis or AppEmojis()
        self._placements = placements
        self._place = place
        self._mark_stale = mark_stale
        self._repairing: dict[int, asyncio.Lock] = {}
        self._told: set[tuple[int, str]] = set()
        """(match, notice) said once already: a fallback is explained once, not per edit."""
        self._boards: dict[int, int] = {}
        """The board messages this process posted or edited, by message id: their match."""
        self._deleted: set[int] = set()
        """Boards a moderator deleted (MESSAGE_DELETE): posted again, never edited."""
        self._could: dict[int, bool] = {}
        """Per match, whether its board could show its picture at the last edit: a loss is
        told when it happens."""
        self._tell = tell
        self._stopped: dict[int, int] = {}
        """Matches whose board Discord refused to edit although the permissions seemed
        enough, with the permissions the bot believed it had: not edited again until
        Discord tells of a change (its event was on its way), or the board is posted
        anew."""
        self._shown = ShownBoards()

    async def _page(self, info: MatchInfo, lang: str, public: PublicView) -> Page:
        return await board_page(
            lang,
            info.match_id,
            public,
            await self._place.names(info),
            ai_seat=_ai_seat(info),
            deadline=info.turn_deadline,
            picture_names=await self._place.raw_names(info),
            hints=info.hints,
            faces=self._emojis.faces,
            time=TurnTime.of(info),
            show_button=shown_by_interactions(info),
        )

    async def edit_board(
        self,
        info: MatchInfo,
        public: PublicView,
        through: Press | None = None,
    ) -> bool:
        """Edit the board message in place to show the match as read (``info`` and
        ``public``, read once by the presenter), repairing what the server changed under it
        first. True when the board shows it afterwards.

        ``through``: a press on this board acknowledged with a deferred update; the edit goes
        through its webhook, exempt from the global rate limit
        (:mod:`bot.play.board_interactions`), or as usual if that fails. It is marked
        answered when the board it was pressed on shows the match afterwards."""
        if shown_by_interactions(info):
            return await self._edit_by_interaction(info, public, through)
        match_id = info.match_id
        board_id = info.placement.board_message_id
        if board_id is None:
            return False
        if self._place.places.is_gone(info.placement.thread_id):
            await self.repair(info)
            return False
        if board_id in self._deleted:
            await self._repost(info)
            return False
        place = await self._place.place(info)
        if place is None:
            if info.placement.thread_id is None:
                await self._lost_channel(info)
            return False
        if self._still_refused(match_id, place):
            return False
        if not await self._usable(info, place):
            return False
        lang = await self._place.public_language(info)
        page = await self._page(info, lang, public)
        await self._tell_fallbacks(info, place, lang)
        fitted = _fitted(place)
        if not self._shown.would_change(board_id, page, fitted):
            if through is not None and _pressed_on(through, board_id):
                through.answered = True
            return True  # the board already shows this: an edit would spend a request for nothing
        try:
            if not await _edited_through(through, board_id, place, page):
                # Still waiting for Discord's pace when a newer state of the match comes,
                # the edit is withdrawn: the presenter's next edit shows both
                # (match_presenter.py).
                with withdrawable():
                    await self._place.places.edit_message(
                        place,
                        board_id,
                        lambda: message_kwargs(page, editing=True, picture=may_attach(place)),
                    )
        except discord.NotFound as error:
            await self._lost(info, place, error)
            return False
        except discord.Forbidden as error:
            await self._refused(info, place, error)
            return False
        self._shown.shown(board_id, page, fitted)
        if through is not None and _pressed_on(through, board_id):
            through.answered = True  # the board it was pressed on shows the move
        self._boards[board_id] = match_id
        self._place.places.tell("board_shown", match_id, public.version)  # for metrics
        if self._queries.shared and (await self._queries.public_view(match_id)).version != (
            public.version
        ):
            # Another bot process may have moved the match on and edited the board while
            # this edit was on its way, and landed first: edit once more, so the last
            # edit shows the match as it is.
            self._mark_stale(match_id)
        return True

    async def _edit_by_interaction(
        self, info: MatchInfo, public: PublicView, through: Press | None
    ) -> bool:
        """A board outside any server the bot is in: edited through the press on it, else
        the latest live one (:mod:`bot.discord_plumbing.interaction_boards`); with none,
        left as it is until the next press."""
        board_id = info.placement.board_message_id
        if board_id is None:
            return False
        pressed = through is not None and _pressed_on(through, board_id)
        if through is not None and pressed and not through.interaction.is_expired():
            self._interaction_boards.remember(info.match_id, through.interaction, board_id)
        page = await self._page(info, await self._place.public_language(info), public)
        if self._shown.would_change(board_id, page, _BY_INTERACTION):
            if not await self._interaction_boards.edit(
                info.match_id, message_kwargs(page, editing=True)
            ):
                return False
            self._shown.shown(board_id, page, _BY_INTERACTION)
        if through is not None and pressed:
            through.answered = True
        return True

    async def repair(self, info: MatchInfo) -> MatchInfo:
        """Give a match whose thread or board is gone a place and a board again (once, however
        many ask at the same time); the match as it is placed afterwards."""
        lock = self._repairing.setdefault(info.match_id, asyncio.Lock())
        async with lock:
            info = await self._queries.match_info(info.match_id)
            places = self._place.places
            if info.status is not MatchStatus.ACTIVE:
                pass  # over, or abandoned: it is not moved anywhere
            elif places.is_gone(info.placement.thread_id):
                if await places.channel(info.channel_id) is None:
                    await self._lost_channel(info)
                else:
                    info = await move_match(self._place, self._placements, self.post_board, info)
            elif info.placement.board_message_id is None:
                await self.post_board(info)
                info = await self._queries.match_info(info.match_id)
        if not lock.locked():
            self._repairing.pop(info.match_id, None)
        return info

    async def _lost_channel(self, info: MatchInfo) -> None:
        """The match's channel answered 10003 Unknown Channel: deleted while the bot was not
        looking (down, or the event lost). Its matches end as a CHANNEL_DELETE ends them."""
        if (
            info.status is MatchStatus.ACTIVE
            and self._place.places.is_gone(info.channel_id)
            and self._channel_gone is not None
        ):
            log.info("match %s: its channel %s was deleted", info.match_id, info.channel_id)
            await self._channel_gone(info)

    async def _lost(self, info: MatchInfo, place: object, error: discord.NotFound) -> None:
        """The edit found the board (10008) or its thread (10003) gone: a moderator deleted
        it. Posted again once: the new board is remembered, so later edits go to it."""
        if error.code == UNKNOWN_CHANNEL and info.placement.thread_id is not None:
            self._place.places.forget(info.placement.thread_id)
            await self.repair(info)
        elif error.code == UNKNOWN_MESSAGE:
            await self._repost(info)
        else:
            log.warning("match %s: the board is gone (%s)", info.match_id, error)

    def forget(self, match_id: int) -> None:
        """The match is over and its final board shown: nothing to keep about it."""
        for message_id in [m for m, match in self._boards.items() if match == match_id]:
            del self._boards[message_id]
        self._told = {(m, notice) for m, notice in self._told if m != match_id}
        self._could.pop(match_id, None)
        self._stopped.pop(match_id, None)
        self._interaction_boards.forget(match_id)

    def refused_boards(self) -> list[int]:
        """The matches whose last board edit Discord refused, waiting for a change."""
        return list(self._stopped)

    def board_deleted(self, message_id: int) -> int | None:
        """A message was deleted: the match whose board it was, if this process knows it
        (the next edit of that match posts its board again instead)."""
        match_id = self._boards.pop(message_id, None)
        if match_id is not None:
            self._deleted.add(message_id)
        return match_id

    async def _repost(self, info: MatchInfo) -> None:
        log.info("match %s: its board was deleted; posting it again", info.match_id)
        lang = await self._place.public_language(info)
        await self._place.post(info, text(lang, "server_changes.board_reposted"))
        await self.post_board(info)
        self._deleted.discard(info.placement.board_message_id or 0)

    async def _usable(self, info: MatchInfo, place: discord.abc.Messageable) -> bool:
        """Whether the board may be edited where it is. Checked as before a post: a thread
        the bot may no longer post in is left for the channel; a channel where it may not
        post any more is left alone (the players are told once), with no refused edit."""
        if can_send(place):
            return True
        await self._cannot_post(info, place)
        return False

    async def _cannot_post(self, info: MatchInfo, place: object) -> None:
        lang = await self._place.public_language(info)
        permissions = bot_permissions_in(place)
        needed = [
            "view_channel",
            "send_messages_in_threads" if info.placement.thread_id else "send_messages",
        ]
        lacking = [n for n in needed if permissions is None or not getattr(permissions, n)] or [
            needed[1]
        ]
        if isinstance(place, discord.Thread):
            channel = await self._place.places.channel(info.channel_id)
            if channel is not None and can_send(channel):
                words = permission_list(lang, lacking)
                reason = text(lang, "server_changes.thread_unusable", permissions=words)
                await move_match(
                    self._place, self._placements, self.post_board, info, unusable=reason
                )
                return
        if self._once(info.match_id, "cannot_post"):
            log.warning("match %s: the board cannot be shown in %s any more", info.match_id, place)
            # Each player's DM is in their own language: the permissions' names too.
            await self._tell_players(info, "server_changes.cannot_show_board", permissions=lacking)

    async def _refused(self, info: MatchInfo, place: object, error: discord.Forbidden) -> None:
        """Discord refused the edit although the permissions seemed enough: they changed
        under it, and the event saying so is on its way. No edit until it arrives (then
        the board falls back as the new permissions say), rather than a refusal per edit."""
        log.warning(
            "match %s: Discord refused the board edit (%s); waiting for the change of"
            " permissions to arrive",
            info.match_id,
            error,
        )
        permissions = bot_permissions_in(place)
        if permissions is not None:
            # Known here, so their change will be heard of; on a server whose roles this
            # process does not hold, no event would ever lift the stop.
            self._stopped[info.match_id] = permissions.value

    def _still_refused(self, match_id: int, place: object) -> bool:
        """Whether the board's last edit was refused and nothing has changed since."""
        if match_id not in self._stopped:
            return False
        permissions = bot_permissions_in(place)
        if permissions is not None and self._stopped[match_id] == permissions.value:
            return True
        del self._stopped[match_id]  # Discord told of a change: edit as it now allows
        return False

    async def _tell_fallbacks(self, info: MatchInfo, place: object, lang: str) -> None:
        """Say why the board loses its picture, when that happens mid-match (what the board
        could show is noted at each edit; a board that never had it was explained when it
        was posted). Embed Links does not matter: the board has no embed."""
        if bot_permissions_in(place) is None:
            return
        could = may_attach(place)
        before = self._could.get(info.match_id, could)
        self._could[info.match_id] = could
        if before and not could:
            await self._place.post(info, text(lang, "match.text_only_board"))

    def _once(self, match_id: int, notice: str) -> bool:
        if (match_id, notice) in self._told:
            return False
        self._told.add((match_id, notice))
        return True

    async def _tell_players(self, info: MatchInfo, key: str, **values: str | list[str]) -> None:
        if self._tell is None:
            return
        for user_id in info.players:
            if user_id != AI_USER_ID:
                await self._tell(user_id, info.match_id, key, values)

    async def post_board(
        self, info: MatchInfo, public: PublicView | None = None, greet: int | None = None
    ) -> discord.Message | None:
        """Post a fresh board at the bottom of the match's place and remember it; it shows
        ``public`` when given (the match as just read), else the match as it is now.
        ``greet``: the player who starts, told so above the board with a mention (only
        theirs), in the same message; the board's first edit clears the line, and an edit
        never mentions anyone again."""
        place = await self._place.place(info)
        if place is None:
            return None
        if not can_send(place):
            log.warning("match %s: no permission to post the board in %s", info.match_id, place)
            return None
        if public is None:
            public = await self._queries.public_view(info.match_id)
        lang = await self._place.public_language(info)
        page = await self._page(info, lang, public)
        # Sent at most once per start announcement, so it is told apart by its purpose.
        if greet is not None:
            greeting = text(lang, "match.you_start", mention=mention(greet))
            page = replace(page, notice="\n".join(filter(None, [greeting, page.notice])))
        kwargs = message_kwargs(page, picture=may_attach(place))
        if greet is not None:
            kwargs["allowed_mentions"] = discord.AllowedMentions(users=[discord.Object(greet)])
        message = await self._place.send(
            place, f"match {info.match_id}: the board", kwargs, purpose="board"
        )
        self._shown.shown(message.id, page, _fitted(place))
        await self._placements.set_location(info.match_id, board_message_id=message.id)
        self._boards[message.id] = info.match_id
        self._stopped.pop(info.match_id, None)
        if (await self._queries.public_view(info.match_id)).version != public.version:
            # A move (the AI's first, say) came while the board was on its way, and its
            # edit found no board to edit: show it now.
            self._mark_stale(info.match_id)
        permissions = bot_permissions_in(place)
        if permissions is not None:
            self._could[info.match_id] = permissions.attach_files
            if not permissions.attach_files:
                await self._place.post(info, text(lang, "match.text_only_board"))
        return message
