"""The public side of a match in Discord: its thread, the board, and a line per event.

Subscribes to the match service's events. Each match has its own ordered queue, so one
slow Discord request never delays another match, and a match's messages keep their order.
Everything shown here comes from public events and :class:`~engine.views.PublicView`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot import challenge_message
from bot.board_text import board_text, outcome_line, round_summary
from bot.choice_buttons import choice_buttons, offer_text
from bot.custom_ids import Verb, game_id
from bot.discord_ui import message_kwargs
from bot.names import ACTION_NAMES
from bot.pictures import render_board_async
from bot.ui_spec import ButtonSpec, PageSpec, Style
from engine import Competition, Gift, PublicView
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

HAND_BUTTON_LABEL = "Hand"


BOARD_FILE = "board.png"


async def board_page(match_id: int, table: PublicView, names: tuple[str, str]) -> PageSpec:
    """The board message: the picture, the text board (the accessible fallback), and a Hand
    button while the match runs."""
    rows: tuple[tuple[ButtonSpec, ...], ...] = ()
    if table.outcome is None:
        rows = (
            (ButtonSpec(f"{HAND_BUTTON_LABEL} 🂠", game_id(match_id, 0, Verb.HAND), Style.PRIMARY),),
        )
    return PageSpec(
        title=f"Hanamikoji · {names[0]} vs {names[1]}",
        text=board_text(table, names),
        rows=rows,
        image=(BOARD_FILE, await render_board_async(table, names)),
    )


def _mention(user_id: int) -> str:
    return f"<@{user_id}>"


class MatchChannels:
    """Where one match is shown, as far as the bot knows."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[Event] = asyncio.Queue()
        self.worker: asyncio.Task[None] | None = None
        self.offer_message: discord.Message | None = None
        self.board_dirty = False


class Table:
    """Turns service events into thread messages and board edits."""

    def __init__(self, bot: HanamikojiBot) -> None:
        self.bot = bot
        self._matches: dict[int, MatchChannels] = {}
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

    async def wait_idle(self) -> None:
        """Until every queued event has been shown (tests and shutdown)."""
        while True:
            workers = [m.worker for m in self._matches.values() if m.worker and not m.worker.done()]
            if not workers:
                return
            await asyncio.gather(*workers, return_exceptions=True)

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
            if match.queue.empty() and match.board_dirty:
                match.board_dirty = False
                try:
                    await self.refresh_board(match_id)
                except Exception:
                    log.exception("match %s: could not update the board", match_id)
        if match.offer_message is None:
            self._matches.pop(match_id, None)

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
        return await self.bot.player_names.pair(info.players, info.ai_level)

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
        page = await board_page(match_id, table, await self.names(info))
        message = place.get_partial_message(info.board_message_id)  # type: ignore[attr-defined]
        await message.edit(**message_kwargs(page, editing=True))

    async def post_board(self, info: MatchInfo) -> discord.Message | None:
        """Post a fresh board at the bottom of the match's place and remember it."""
        place = await self.place(info)
        if place is None:
            return None
        table = await self.bot.service.public_view(info.match_id)
        page = await board_page(info.match_id, table, await self.names(info))
        message = await place.send(**message_kwargs(page))
        await self.bot.service.set_location(info.match_id, board_message_id=message.id)
        return message

    # -- handlers ---------------------------------------------------------------------------------

    async def _on_started(self, event: MatchStarted) -> None:
        info = await self.bot.service.match_info(event.match_id)
        names = await self.names(info)
        thread = await self._open_thread(info, names)
        if thread is not None:
            info = await self.bot.service.set_location(info.match_id, thread_id=thread.id)
        await self.post_board(info)
        first = info.players[event.first_player]
        if first != AI_USER_ID:
            await self.post(
                info,
                f"{_mention(first)}, you start. "
                f"Press **{HAND_BUTTON_LABEL}** on the board to see your cards.",
                mention=first,
            )
            await self.bot.notifier.your_turn(info, first)

    async def _open_thread(self, info: MatchInfo, names: tuple[str, str]) -> discord.Thread | None:
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
                name=f"Hanamikoji: {names[0]} vs {names[1]}"[:100],
                type=discord.ChannelType.public_thread,
                auto_archive_duration=1440,
            )
        except discord.Forbidden:
            await channel.send(
                "I could not open a thread for this match (missing permission: "
                "**Create Public Threads**), so it is played here in the channel."
            )
            return None
        for user_id in info.players:
            if user_id != AI_USER_ID:
                with contextlib.suppress(discord.HTTPException):
                    await thread.add_user(discord.Object(user_id))
        return thread

    async def _on_decision(self, event: DecisionApplied) -> None:
        info = await self.bot.service.match_info(event.match_id)
        names = await self.names(info)
        match = self._matches.setdefault(event.match_id, MatchChannels())
        match.board_dirty = True
        who = names[event.player]
        move = event.move
        timer = "⏰ " if event.automatic else ""
        auto = f" {who} ran out of time, so the AI played for them." if event.automatic else ""
        if isinstance(move.action, HiddenAction):
            line = f"{timer}**{who}** used {ACTION_NAMES[move.action.action]}.{auto}"
        elif move.choice is None:
            # An offer: ChoiceNeeded shows it with its buttons; say first if the timer made it.
            if event.automatic:
                await self.post(info, f"⏰{auto}")
            return
        else:
            line = await self._choice_line(match, info, names, event)
        table = await self.bot.service.public_view(event.match_id)
        nxt = table.current_player
        mention = None
        round_ended = not table.moves and bool(table.rounds)
        if round_ended:
            pass  # the round summary comes next and names who starts the new round
        elif nxt is not None and table.pending is None and info.players[nxt] != AI_USER_ID:
            mention = info.players[nxt]
            line += f"\n{_mention(mention)}, your turn."
        await self.post(info, line, mention=mention)
        if mention is not None:
            await self.bot.notifier.your_turn(info, mention)

    async def _choice_line(
        self, match: MatchChannels, info: MatchInfo, names: tuple[str, str], event: DecisionApplied
    ) -> str:
        move = event.move
        chooser, offerer = names[event.player], names[1 - event.player]
        if match.offer_message is not None:
            with contextlib.suppress(discord.HTTPException):
                await match.offer_message.edit(view=None)
            match.offer_message = None
        timer = "⏰ " if event.automatic else ""
        took = str(move.choice)[1:]
        if isinstance(move.action, Gift):
            kept = list(move.action.cards)
            kept.remove("ABCDEFG".index(took))
            rest = " ".join("ABCDEFG"[c] for c in kept)
            return f"{timer}**{chooser}** took **{took}** from the Gift; {offerer} keeps {rest}."
        assert isinstance(move.action, Competition)
        other = [p for p in move.action.pairs if "".join("ABCDEFG"[c] for c in p) != took]
        rest = "".join("ABCDEFG"[c] for c in other[0]) if other else took
        return f"{timer}**{chooser}** took **{took}** from the Competition; {offerer} keeps {rest}."

    async def _on_choice_needed(self, event: ChoiceNeeded) -> None:
        info = await self.bot.service.match_info(event.match_id)
        names = await self.names(info)
        match = self._matches.setdefault(event.match_id, MatchChannels())
        match.board_dirty = True
        offerer, chooser = names[1 - event.player], names[event.player]
        if isinstance(event.offer, Gift):
            text = f"**{offerer}** offers a **Gift**: {offer_text(event.offer)}"
            ask = "take one card"
        else:
            text = f"**{offerer}** offers a **Competition**: {offer_text(event.offer)}"
            ask = "take one pair"
        buttons = choice_buttons(event.match_id, event.version, event.offer)
        page = PageSpec(text="", rows=(buttons,))
        if event.user_id == AI_USER_ID:
            await self.post(info, f"{text}\n{chooser} is choosing…")
            return
        view = message_kwargs(page).get("view")
        match.offer_message = await self.post(
            info, f"{text}\n{_mention(event.user_id)}, {ask}:", mention=event.user_id, view=view
        )
        await self.bot.notifier.your_turn(info, event.user_id)

    async def _on_round_scored(self, event: RoundScored) -> None:
        info = await self.bot.service.match_info(event.match_id)
        names = await self.names(info)
        summary = round_summary(event.result, names)
        embed = discord.Embed(description=summary, colour=discord.Colour.gold())
        table = await self.bot.service.public_view(event.match_id)
        if table.outcome is not None or table.round_number == event.result.round_number:
            await self.post(info, "", embed=embed)
            return
        starter = info.players[table.starting_player]
        who = names[table.starting_player]
        embed.description = (
            f"{summary}\n\nRound {table.round_number} begins with a fresh deal: **{who}** starts."
        )
        if starter != AI_USER_ID and table.current_player == table.starting_player:
            await self.post(info, f"{_mention(starter)}, your turn.", mention=starter, embed=embed)
            await self.bot.notifier.your_turn(info, starter)
        else:
            await self.post(info, "", embed=embed)

    async def _on_reminder(self, event: Reminder) -> None:
        info = await self.bot.service.match_info(event.match_id)
        await self.post(
            info,
            f"⏳ {_mention(event.user_id)}, your time for this turn runs out "
            f"<t:{int(event.deadline)}:R>.",
            mention=event.user_id,
        )

    async def _on_ended(self, event: MatchEnded) -> None:
        info = await self.bot.service.match_info(event.match_id)
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
            "Rematch", game_id(event.match_id, event.version, Verb.REMATCH), Style.SUCCESS
        )
        page = PageSpec(text="", rows=((rematch,),))
        text = outcome_line(event.outcome, names)
        if not info.is_ai_match:
            text += "\nBoth players press **Rematch** to play again."
        await self.post(info, text, view=message_kwargs(page).get("view"))

    async def _on_challenge_expired(self, event: ChallengeExpired) -> None:
        """Nobody clicked, so the bot edits the challenge itself (answers edit it on click)."""
        info = await self.bot.service.match_info(event.match_id)
        channel = await self._channel(info.channel_id)
        if info.board_message_id is None or channel is None:
            return
        names = await self.names(info)
        what = f"The challenge expired: {names[1]} did not answer in time."
        message = channel.get_partial_message(info.board_message_id)  # type: ignore[attr-defined]
        await message.edit(content=None, embed=challenge_message.closed(names, what), view=None)
