"""The public side of a match in Discord: its thread, the board, and the few messages
someone must see (the start, round summaries, the result, mentions of an away player).

Subscribes to the match service's events. Each match has its own ordered queue, so one
slow Discord request never delays another match, and a match's messages keep their order.
Everything shown here comes from public events and :class:`~engine.rules.views.PublicView`, in
the server's language.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord

from bot.challenge.rematch_button import RematchButton
from bot.discord_plumbing.channel_permissions import bot_permissions_in, can_send, fit_message
from bot.discord_plumbing.pages import message_kwargs
from bot.discord_plumbing.places import Places
from bot.play.board import board_page
from bot.play.board_text import outcome_line, round_summary
from bot.play.move_lines import move_line
from bot.play.move_log import MoveLog
from bot.play.presence import Presence
from bot.play.thread import open_thread
from bot.stats.rating_line import rating_change_line
from bot.words.i18n import text
from bot.words.names import offer_text
from bot.words.player_names import PlayerNames
from bot.words.server_language import ServerLanguages
from engine.rules import Gift
from engine.service import MatchPlacements, MatchQueries, MatchSettings
from engine.service.events import (
    ChoiceNeeded,
    DecisionApplied,
    Event,
    MatchEnded,
    MatchStarted,
    Reminder,
    RoundScored,
)
from engine.store.rows import AI_USER_ID, MatchInfo

log = logging.getLogger(__name__)


def _mention(user_id: int) -> str:
    return f"<@{user_id}>"


def _ai_seat(info: MatchInfo) -> int | None:
    return info.players.index(AI_USER_ID) if AI_USER_ID in info.players else None


class MatchChannels:
    """What the bot tracks of one match while it shows its events."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[Event] = asyncio.Queue()
        self.worker: asyncio.Task[None] | None = None
        self.board_dirty = False
        self.board_task: asyncio.Task[None] | None = None


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
        move_log: MoveLog,
    ) -> None:
        self._queries = queries
        self._placements = placements
        self._settings = settings
        self._names = names
        self._languages = languages
        self.places = places
        self.retrier = places.retrier
        self.presence = presence
        self._notify_by_dm = notify
        self._retire_dm = retire_dm
        self.move_log = move_log
        self._open_offers: dict[int, discord.Message] = {}
        """The message asking an away chooser to take from an offer, by match: edited to
        the answer once answered."""
        self._matches: dict[int, MatchChannels] = {}
        self._side_tasks: set[asyncio.Task[None]] = set()
        self._handlers: dict[type[Any], Callable[[Any], Awaitable[None]]] = {
            MatchStarted: self._on_started,
            DecisionApplied: self._on_decision,
            ChoiceNeeded: self._on_choice_needed,
            RoundScored: self._on_round_scored,
            Reminder: self._on_reminder,
            MatchEnded: self._on_ended,
        }

    # -- event intake ----------------------------------------------------------------------

    async def on_event(self, event: Event) -> None:
        """The service's subscriber: queue the event on its match and return at once."""
        if type(event) not in self._handlers:
            return
        self._log_move(event)
        match = self._matches.setdefault(event.match_id, MatchChannels())
        match.queue.put_nowait(event)
        if match.worker is None or match.worker.done():
            match.worker = asyncio.create_task(self._work(event.match_id, match))
        if isinstance(event, DecisionApplied | ChoiceNeeded | RoundScored):
            self._mark_board(event.match_id, match)

    def _log_move(self, event: Event) -> None:
        """Public moves go to the match log as they come, in the service's order."""
        if isinstance(event, MatchStarted):
            self.move_log.started(event.match_id)
        elif isinstance(event, DecisionApplied):
            self.move_log.moved(event.match_id, event.move)
        elif isinstance(event, RoundScored):
            self.move_log.scored(event.match_id, event.result.round_number)
        elif isinstance(event, MatchEnded):
            self.move_log.ended(event.match_id)

    def _mark_board(self, match_id: int, match: MatchChannels) -> None:
        """The board is edited beside the thread messages, not after them, and several moves in
        quick succession cost one edit: the edit shows the match as it is when it runs."""
        match.board_dirty = True
        if match.board_task is None or match.board_task.done():
            match.board_task = asyncio.create_task(self._board_loop(match_id, match))

    async def _board_loop(self, match_id: int, match: MatchChannels) -> None:
        while match.board_dirty:
            match.board_dirty = False
            try:
                await self.refresh_board(match_id)
            except discord.HTTPException as error:
                log.warning("match %s: Discord refused the board edit: %s", match_id, error)
            except Exception:
                log.exception("match %s: could not update the board", match_id)
        self._forget_if_idle(match_id, match)

    async def wait_idle(self) -> None:
        """Until every queued event has been shown (tests and shutdown)."""
        while True:
            busy = [m.worker for m in self._matches.values() if m.worker and not m.worker.done()]
            busy += [
                m.board_task
                for m in self._matches.values()
                if m.board_task and not m.board_task.done()
            ]
            busy += [t for t in self._side_tasks if not t.done()]
            if not busy:
                return
            await asyncio.gather(*busy, return_exceptions=True)

    async def _work(self, match_id: int, match: MatchChannels) -> None:
        while not match.queue.empty():
            event = match.queue.get_nowait()
            try:
                await self._handlers[type(event)](event)
            except discord.HTTPException as error:
                log.warning(
                    "match %s: Discord refused an update for %s: %s", match_id, event, error
                )
            except Exception:
                log.exception("match %s: could not show %r", match_id, event)
        self._forget_if_idle(match_id, match)

    def _forget_if_idle(self, match_id: int, match: MatchChannels) -> None:
        """Drop a match's bookkeeping once nothing of it is queued, running or on screen,
        but never while its board is being edited (a second editor could race it)."""
        working = [t for t in (match.worker, match.board_task) if t is not None and not t.done()]
        idle = (not working or working == [asyncio.current_task()]) and match.queue.empty()
        shown = not match.board_dirty
        if idle and shown and self._matches.get(match_id) is match:
            del self._matches[match_id]

    def _notify(self, info: MatchInfo, user_id: int) -> None:
        """Send the player's panel by DM in the background: a DM never delays the board."""
        self._aside(self._notify_by_dm(info, user_id))

    def _retire(self, info: MatchInfo, user_id: int) -> None:
        """Close the player's DM panel of the match in the background (the turn moved on)."""
        if user_id != AI_USER_ID:
            self._aside(self._retire_dm(info, user_id))

    def _aside(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._side_tasks.add(task)
        task.add_done_callback(self._side_tasks.discard)

    # -- places ------------------------------------------------------------------------------

    async def place(self, info: MatchInfo) -> discord.abc.Messageable | None:
        """The thread of the match, or its channel when it has no thread."""
        return await self.places.of_match(info)

    async def public_language(self, info: MatchInfo) -> str:
        """The language of the match's public messages (its server's)."""
        return await self._languages.public(info.guild_id)

    async def names(self, info: MatchInfo) -> tuple[str, str]:
        lang = await self._languages.public(info.guild_id)
        return await self._names.pair(info.players, info.ai_level, lang)

    async def post(
        self, info: MatchInfo, content: str, mention: int | None = None, **kwargs: Any
    ) -> discord.Message | None:
        """Send a message to the match's place, retried while Discord says later, reduced to
        what the bot's permissions there allow; None where the bot may not post."""
        place = await self.place(info)
        if place is None:
            return None
        if not can_send(place):
            log.warning("match %s: no permission to post in %s", info.match_id, place)
            return None
        allowed = discord.AllowedMentions(users=[discord.Object(mention)] if mention else False)
        message: discord.Message = await self.retrier.until_accepted(
            f"match {info.match_id}: a message",
            lambda: place.send(
                allowed_mentions=allowed, **fit_message(place, {"content": content, **kwargs})
            ),
            creates=True,
        )
        return message

    # -- the board -----------------------------------------------------------------------------

    async def refresh_board(self, match_id: int) -> None:
        """Edit the board message in place to show the match as it is now."""
        info = await self._queries.match_info(match_id)
        if info.placement.board_message_id is None:
            return
        place = await self.place(info)
        if place is None:
            return
        table = await self._queries.public_view(match_id)
        lang = await self._languages.public(info.guild_id)
        page = await board_page(
            lang,
            match_id,
            table,
            await self.names(info),
            ai_seat=_ai_seat(info),
            deadline=info.turn_deadline,
        )
        await self.places.edit_message(
            place,
            info.placement.board_message_id,
            lambda: fit_message(place, message_kwargs(page, editing=True)),
        )

    async def post_board(self, info: MatchInfo) -> discord.Message | None:
        """Post a fresh board at the bottom of the match's place and remember it."""
        place = await self.place(info)
        if place is None:
            return None
        if not can_send(place):
            log.warning("match %s: no permission to post the board in %s", info.match_id, place)
            return None
        table = await self._queries.public_view(info.match_id)
        lang = await self._languages.public(info.guild_id)
        page = await board_page(
            lang,
            info.match_id,
            table,
            await self.names(info),
            ai_seat=_ai_seat(info),
            deadline=info.turn_deadline,
        )
        message: discord.Message = await self.retrier.until_accepted(
            f"match {info.match_id}: the board",
            lambda: place.send(**fit_message(place, message_kwargs(page))),
            creates=True,
        )
        await self._placements.set_location(info.match_id, board_message_id=message.id)
        if (await self._queries.public_view(info.match_id)).version != table.version:
            # A move (the AI's first, say) came while the board was on its way, and its
            # edit found no board to edit: show it now.
            self._mark_board(
                info.match_id, self._matches.setdefault(info.match_id, MatchChannels())
            )
        permissions = bot_permissions_in(place)
        if permissions is not None and not permissions.attach_files:
            await self.post(info, text(lang, "table.text_only_board"))
        return message

    # -- handlers ---------------------------------------------------------------------------------

    async def _on_started(self, event: MatchStarted) -> None:
        for user_id in event.players:  # who challenged and who accepted are at the table
            self.presence.seen(event.match_id, user_id)
        info = await self._queries.match_info(event.match_id)
        lang = await self._languages.public(info.guild_id)
        names = await self.names(info)
        thread = await self._open_thread(lang, info, names)
        if thread is not None:
            info = await self._placements.set_location(info.match_id, thread_id=thread.id)
        await self.post_board(info)
        first = info.players[event.first_player]
        if first != AI_USER_ID:
            await self.post(
                info, text(lang, "table.you_start", mention=_mention(first)), mention=first
            )
            self._notify(info, first)

    async def _open_thread(
        self, lang: str, info: MatchInfo, names: tuple[str, str]
    ) -> discord.Thread | None:
        if info.channel_id is None or info.guild_id is None:
            return None
        settings = await self._settings.guild_settings(info.guild_id)
        if not self._settings.thread_per_match(settings):
            return None

        async def say(line: str) -> None:
            await self.post(info, line)

        return await open_thread(self.places, lang, info, names, say)

    async def _on_decision(self, event: DecisionApplied) -> None:
        """The board (edited beside this) shows the move; a new message only where someone
        must be told: the timer played for an absent player, or the next player is away."""
        info = await self._queries.match_info(event.match_id)
        lang = await self._languages.public(info.guild_id)
        names = await self.names(info)
        if event.move.choice is not None:
            await self._offer_answered(event, lang, names)
        lines = [text(lang, "table.timed_out", name=names[event.player])] if event.automatic else []
        table = await self._queries.public_view(event.match_id)
        nxt = table.current_player
        # After a round ends its summary names who starts the next one; an open offer is
        # announced by ChoiceNeeded.
        round_ended = not table.moves and bool(table.rounds)
        next_user = info.players[nxt] if nxt is not None else AI_USER_ID
        if event.user_id != next_user or round_ended or table.pending is not None:
            self._retire(info, event.user_id)  # else the new DM panel retires the old one
        mention = None
        if not round_ended and next_user != AI_USER_ID and table.pending is None:
            self._notify(info, next_user)
            if self.presence.is_away(event.match_id, next_user):
                mention = next_user
                lines.append(text(lang, "table.your_turn", mention=_mention(next_user)))
        if lines:
            await self.post(info, "\n".join(lines), mention=mention)

    async def _on_choice_needed(self, event: ChoiceNeeded) -> None:
        """The offer and its Take buttons are on the board; the chooser is mentioned only
        when away."""
        if event.user_id == AI_USER_ID:
            return
        info = await self._queries.match_info(event.match_id)
        self._notify(info, event.user_id)
        if not self.presence.is_away(event.match_id, event.user_id):
            return
        lang = await self._languages.public(info.guild_id)
        names = await self.names(info)
        is_gift = isinstance(event.offer, Gift)
        offered = text(
            lang,
            "table.offers_gift" if is_gift else "table.offers_competition",
            name=names[1 - event.player],
            offer=offer_text(event.offer),
        )
        ask = text(
            lang,
            "table.take_card" if is_gift else "table.take_pair",
            mention=_mention(event.user_id),
        )
        message = await self.post(info, f"{offered}\n{ask}", mention=event.user_id)
        if message is not None:
            self._open_offers[event.match_id] = message

    async def _offer_answered(
        self, event: DecisionApplied, lang: str, names: tuple[str, str]
    ) -> None:
        """The message that asked for the choice now says what was taken, so it never still
        reads "take one card" after the choice (its mention is not repeated)."""
        message = self._open_offers.pop(event.match_id, None)
        if message is None:
            return
        line = move_line(lang, event.move, 1 - event.player, names)
        try:
            await message.edit(
                content=text(lang, "moves.offer_answered", line=line),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as error:
            log.warning("match %s: could not mark the offer answered: %s", event.match_id, error)

    async def _on_round_scored(self, event: RoundScored) -> None:
        info = await self._queries.match_info(event.match_id)
        lang = await self._languages.public(info.guild_id)
        names = await self.names(info)
        summary = round_summary(lang, event.result, names)
        embed = discord.Embed(description=summary, colour=discord.Colour.gold())
        table = await self._queries.public_view(event.match_id)
        if table.outcome is not None or table.round_number == event.result.round_number:
            await self.post(info, "", embed=embed)
            return
        starter = info.players[table.starting_player]
        nxt = text(
            lang, "summary.next_round", round=table.round_number, name=names[table.starting_player]
        )
        embed.description = f"{summary}\n\n{nxt}"
        if starter != AI_USER_ID and table.current_player == table.starting_player:
            self._notify(info, starter)
            if self.presence.is_away(event.match_id, starter):
                mention = text(lang, "table.your_turn", mention=_mention(starter))
                await self.post(info, mention, mention=starter, embed=embed)
                return
        await self.post(info, "", embed=embed)

    async def _on_reminder(self, event: Reminder) -> None:
        info = await self._queries.match_info(event.match_id)
        lang = await self._languages.public(info.guild_id)
        line = text(
            lang,
            "table.reminder",
            mention=_mention(event.user_id),
            when=f"<t:{int(event.deadline)}:R>",
        )
        await self.post(info, line, mention=event.user_id)

    async def _on_ended(self, event: MatchEnded) -> None:
        info = await self._queries.match_info(event.match_id)
        lang = await self._languages.public(info.guild_id)
        names = await self.names(info)
        # The final board goes through the one board editor, after any edit still under way,
        # so an older page can never land last.
        for user_id in info.players:
            self._retire(info, user_id)
        self._open_offers.pop(event.match_id, None)
        match = self._matches.setdefault(event.match_id, MatchChannels())
        self._mark_board(event.match_id, match)
        if match.board_task is not None:
            await match.board_task
        rematch = RematchButton(
            event.match_id, event.version, label=text(lang, "outcome.rematch_button")
        )
        view = discord.ui.View(timeout=None)
        view.add_item(rematch)
        lines = [outcome_line(lang, event.outcome, names)]
        ratings = await rating_change_line(self._queries, event.match_id, names, lang)
        if ratings:
            lines.append(ratings)
        if not info.is_ai_match:
            lines.append(text(lang, "outcome.rematch_hint"))
        await self.post(info, "\n".join(lines), view=view)
