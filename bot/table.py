"""The public side of a match in Discord: its thread, the board, and a line per event.

Subscribes to the match service's events. Each match has its own ordered queue, so one
slow Discord request never delays another match, and a match's messages keep their order.
Everything shown here comes from public events and :class:`~engine.views.PublicView`, in
the server's language.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot import challenge_message
from bot.board_text import board_text, offer_text, outcome_line, round_summary
from bot.choice_buttons import choice_buttons
from bot.custom_ids import Verb, game_id
from bot.discord_ui import message_kwargs
from bot.i18n import text
from bot.names import action_name, letters
from bot.pictures import render_board_async
from bot.ui_spec import ButtonSpec, PageSpec, Style
from engine import Competition, CompetitionChoice, Gift, GiftChoice, PublicView
from engine.cards import cards_text
from engine.notation import HiddenAction
from engine.service.events import (
    ChallengeExpired,
    ChoiceNeeded,
    DecisionApplied,
    Event,
    MatchEnded,
    MatchStarted,
    Reminder,
    RoundScored,
)
from engine.store.rows import AI_USER_ID, MatchInfo

if TYPE_CHECKING:
    from bot.client import HanamikojiBot

log = logging.getLogger(__name__)

BOARD_FILE = "board.png"


async def board_page(
    lang: str, match_id: int, table: PublicView, names: tuple[str, str]
) -> PageSpec:
    """The board message: the picture, the text board (the accessible fallback), and a Hand
    button while the match runs."""
    rows: tuple[tuple[ButtonSpec, ...], ...] = ()
    if table.outcome is None:
        hand = ButtonSpec(
            f"{text(lang, 'board.hand_button')} 🂠", game_id(match_id, 0, Verb.HAND), Style.PRIMARY
        )
        rows = ((hand,),)
    return PageSpec(
        title=text(lang, "board.title", first=names[0], second=names[1]),
        text=board_text(lang, table, names),
        rows=rows,
        image=(BOARD_FILE, await render_board_async(lang, table, names)),
    )


def _mention(user_id: int) -> str:
    return f"<@{user_id}>"


class MatchChannels:
    """What the bot tracks of one match while it shows its events."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[Event] = asyncio.Queue()
        self.worker: asyncio.Task[None] | None = None
        self.offer_message: discord.Message | None = None
        self.board_dirty = False
        self.board_task: asyncio.Task[None] | None = None


class Table:
    """Turns service events into thread messages and board edits."""

    def __init__(self, bot: HanamikojiBot) -> None:
        self.bot = bot
        self._matches: dict[int, MatchChannels] = {}
        self._side_tasks: set[asyncio.Task[None]] = set()
        self._handlers: dict[type[Any], Callable[[Any], Awaitable[None]]] = {
            MatchStarted: self._on_started,
            DecisionApplied: self._on_decision,
            ChoiceNeeded: self._on_choice_needed,
            RoundScored: self._on_round_scored,
            Reminder: self._on_reminder,
            MatchEnded: self._on_ended,
            ChallengeExpired: self._on_challenge_expired,
        }

    # -- event intake ----------------------------------------------------------------------

    async def on_event(self, event: Event) -> None:
        """The service's subscriber: queue the event on its match and return at once."""
        if type(event) not in self._handlers:
            return
        match = self._matches.setdefault(event.match_id, MatchChannels())
        match.queue.put_nowait(event)
        if match.worker is None or match.worker.done():
            match.worker = asyncio.create_task(self._work(event.match_id, match))
        if isinstance(event, DecisionApplied | ChoiceNeeded | RoundScored):
            self._mark_board(event.match_id, match)

    def _mark_board(self, match_id: int, match: MatchChannels) -> None:
        """The board is edited beside the thread lines, not after them, and several moves in
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
        shown = match.offer_message is None and not match.board_dirty
        if idle and shown and self._matches.get(match_id) is match:
            del self._matches[match_id]

    def _notify(self, info: MatchInfo, user_id: int) -> None:
        """Send the player's panel by DM in the background: a DM never delays the board."""
        task = asyncio.create_task(self.bot.notifier.your_turn(info, user_id))
        self._side_tasks.add(task)
        task.add_done_callback(self._side_tasks.discard)

    # -- places ------------------------------------------------------------------------------

    async def _channel(self, channel_id: int | None) -> discord.abc.Messageable | None:
        if channel_id is None:
            return None
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s is gone", channel_id)
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def place(self, info: MatchInfo) -> discord.abc.Messageable | None:
        """The thread of the match, or its channel when it has no thread."""
        return await self._channel(info.thread_id or info.channel_id)

    async def names(self, info: MatchInfo) -> tuple[str, str]:
        lang = await self.bot.public_language(info.guild_id)
        return await self.bot.player_names.pair(info.players, info.ai_level, lang)

    async def post(
        self, info: MatchInfo, content: str, mention: int | None = None, **kwargs: Any
    ) -> discord.Message | None:
        place = await self.place(info)
        if place is None:
            return None
        allowed = discord.AllowedMentions(users=[discord.Object(mention)] if mention else False)
        return await place.send(content, allowed_mentions=allowed, **kwargs)

    # -- the board -----------------------------------------------------------------------------

    async def refresh_board(self, match_id: int) -> None:
        """Edit the board message in place to show the match as it is now."""
        info = await self.bot.service.match_info(match_id)
        if info.board_message_id is None:
            return
        place = await self.place(info)
        if place is None:
            return
        table = await self.bot.service.public_view(match_id)
        lang = await self.bot.public_language(info.guild_id)
        page = await board_page(lang, match_id, table, await self.names(info))
        message = place.get_partial_message(info.board_message_id)  # type: ignore[attr-defined]
        await message.edit(**message_kwargs(page, editing=True))

    async def post_board(self, info: MatchInfo) -> discord.Message | None:
        """Post a fresh board at the bottom of the match's place and remember it."""
        place = await self.place(info)
        if place is None:
            return None
        table = await self.bot.service.public_view(info.match_id)
        lang = await self.bot.public_language(info.guild_id)
        page = await board_page(lang, info.match_id, table, await self.names(info))
        message = await place.send(**message_kwargs(page))
        await self.bot.service.set_location(info.match_id, board_message_id=message.id)
        return message

    # -- handlers ---------------------------------------------------------------------------------

    async def _on_started(self, event: MatchStarted) -> None:
        info = await self.bot.service.match_info(event.match_id)
        lang = await self.bot.public_language(info.guild_id)
        names = await self.names(info)
        thread = await self._open_thread(lang, info, names)
        if thread is not None:
            info = await self.bot.service.set_location(info.match_id, thread_id=thread.id)
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
        settings = await self.bot.service.guild_settings(info.guild_id)
        if not settings.thread_per_match:
            return None
        channel = await self._channel(info.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None
        try:
            thread = await channel.create_thread(
                name=text(lang, "table.thread_name", first=names[0], second=names[1])[:100],
                type=discord.ChannelType.public_thread,
                auto_archive_duration=1440,
            )
        except discord.Forbidden:
            await channel.send(text(lang, "table.no_thread"))
            return None
        for user_id in info.players:
            if user_id != AI_USER_ID:
                with contextlib.suppress(discord.HTTPException):
                    # They can still open the thread from the channel if this fails.
                    await thread.add_user(discord.Object(user_id))
        return thread

    async def _on_decision(self, event: DecisionApplied) -> None:
        info = await self.bot.service.match_info(event.match_id)
        lang = await self.bot.public_language(info.guild_id)
        names = await self.names(info)
        match = self._matches.setdefault(event.match_id, MatchChannels())
        move = event.move
        timed_out = text(lang, "table.timed_out", name=names[event.player])
        if isinstance(move.action, HiddenAction):
            line = text(
                lang,
                "table.used",
                name=names[event.player],
                action=action_name(lang, move.action.action),
            )
        elif move.choice is None:
            # An offer: ChoiceNeeded shows it with its buttons; say first if the timer made it.
            if event.automatic:
                await self.post(info, timed_out)
            return
        else:
            line = await self._choice_line(lang, match, names, event)
        if event.automatic:
            line = f"{line}\n{timed_out}"
        table = await self.bot.service.public_view(event.match_id)
        nxt = table.current_player
        mention = None
        round_ended = not table.moves and bool(table.rounds)
        # After a round ends the summary names who starts the next one, so no mention here.
        waiting_for_human = nxt is not None and info.players[nxt] != AI_USER_ID
        if not round_ended and waiting_for_human and table.pending is None:
            assert nxt is not None
            mention = info.players[nxt]
            line += "\n" + text(lang, "table.your_turn", mention=_mention(mention))
        await self.post(info, line, mention=mention)
        if mention is not None:
            self._notify(info, mention)

    async def _choice_line(
        self, lang: str, match: MatchChannels, names: tuple[str, str], event: DecisionApplied
    ) -> str:
        move = event.move
        chooser, offerer = names[event.player], names[1 - event.player]
        if match.offer_message is not None:
            with contextlib.suppress(discord.HTTPException):
                await match.offer_message.edit(view=None)  # stale buttons are refused anyway
            match.offer_message = None
        choice = move.choice
        if isinstance(move.action, Gift) and isinstance(choice, GiftChoice):
            kept = list(move.action.cards)
            kept.remove(choice.card)
            took = cards_text((choice.card,))
            return text(
                lang,
                "table.took_gift",
                chooser=chooser,
                card=took,
                offerer=offerer,
                rest=letters(kept),
            )
        assert isinstance(move.action, Competition) and isinstance(choice, CompetitionChoice)
        first, second = move.action.pairs
        kept_pair = second if choice.pair == first else first
        return text(
            lang,
            "table.took_competition",
            chooser=chooser,
            pair=cards_text(choice.pair),
            offerer=offerer,
            rest=cards_text(kept_pair),
        )

    async def _on_choice_needed(self, event: ChoiceNeeded) -> None:
        info = await self.bot.service.match_info(event.match_id)
        lang = await self.bot.public_language(info.guild_id)
        names = await self.names(info)
        match = self._matches.setdefault(event.match_id, MatchChannels())
        offerer, chooser = names[1 - event.player], names[event.player]
        is_gift = isinstance(event.offer, Gift)
        offered = text(
            lang,
            "table.offers_gift" if is_gift else "table.offers_competition",
            name=offerer,
            offer=offer_text(event.offer),
        )
        if event.user_id == AI_USER_ID:
            await self.post(info, f"{offered}\n{text(lang, 'table.choosing', name=chooser)}")
            return
        buttons = choice_buttons(lang, event.match_id, event.version, event.offer)
        ask = text(
            lang,
            "table.take_card" if is_gift else "table.take_pair",
            mention=_mention(event.user_id),
        )
        view = message_kwargs(PageSpec(text="", rows=(buttons,))).get("view")
        match.offer_message = await self.post(
            info, f"{offered}\n{ask}", mention=event.user_id, view=view
        )
        self._notify(info, event.user_id)

    async def _on_round_scored(self, event: RoundScored) -> None:
        info = await self.bot.service.match_info(event.match_id)
        lang = await self.bot.public_language(info.guild_id)
        names = await self.names(info)
        summary = round_summary(lang, event.result, names)
        embed = discord.Embed(description=summary, colour=discord.Colour.gold())
        table = await self.bot.service.public_view(event.match_id)
        if table.outcome is not None or table.round_number == event.result.round_number:
            await self.post(info, "", embed=embed)
            return
        starter = info.players[table.starting_player]
        nxt = text(
            lang, "summary.next_round", round=table.round_number, name=names[table.starting_player]
        )
        embed.description = f"{summary}\n\n{nxt}"
        if starter != AI_USER_ID and table.current_player == table.starting_player:
            mention = text(lang, "table.your_turn", mention=_mention(starter))
            await self.post(info, mention, mention=starter, embed=embed)
            self._notify(info, starter)
        else:
            await self.post(info, "", embed=embed)

    async def _on_reminder(self, event: Reminder) -> None:
        info = await self.bot.service.match_info(event.match_id)
        lang = await self.bot.public_language(info.guild_id)
        line = text(
            lang,
            "table.reminder",
            mention=_mention(event.user_id),
            when=f"<t:{int(event.deadline)}:R>",
        )
        await self.post(info, line, mention=event.user_id)

    async def _on_ended(self, event: MatchEnded) -> None:
        info = await self.bot.service.match_info(event.match_id)
        lang = await self.bot.public_language(info.guild_id)
        names = await self.names(info)
        match = self._matches.get(event.match_id)
        if match is not None:
            match.board_dirty = False
            if match.offer_message is not None:
                with contextlib.suppress(discord.HTTPException):
                    await match.offer_message.edit(view=None)
                match.offer_message = None
        await self.refresh_board(event.match_id)
        rematch = ButtonSpec(
            text(lang, "outcome.rematch_button"),
            game_id(event.match_id, event.version, Verb.REMATCH),
            Style.SUCCESS,
        )
        page = PageSpec(text="", rows=((rematch,),))
        lines = [outcome_line(lang, event.outcome, names)]
        ratings = await self.bot.rating_line(event.match_id, names, lang)
        if ratings:
            lines.append(ratings)
        if not info.is_ai_match:
            lines.append(text(lang, "outcome.rematch_hint"))
        await self.post(info, "\n".join(lines), view=message_kwargs(page).get("view"))

    async def _on_challenge_expired(self, event: ChallengeExpired) -> None:
        """Nobody clicked, so the bot edits the challenge itself (answers edit it on click)."""
        info = await self.bot.service.match_info(event.match_id)
        channel = await self._channel(info.channel_id)
        if info.board_message_id is None or channel is None:
            return
        lang = await self.bot.public_language(info.guild_id)
        names = await self.names(info)
        what = text(lang, "challenge.expired", name=names[1])
        message = channel.get_partial_message(info.board_message_id)  # type: ignore[attr-defined]
        await message.edit(
            content=None, embed=challenge_message.closed(lang, names, what), view=None
        )
