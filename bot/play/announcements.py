"""The messages someone must see in a match's thread: the start, a move that needs telling
(the timer played, or the next player is away), an offer to an away chooser, round
summaries, reminders and the result. Each also sends or retires the players' DM panels."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord

from bot.challenge.rematch_button import RematchButton
from bot.discord_plumbing.review_link import open_review_button
from bot.play.board_editor import BoardEditor
from bot.play.board_text import outcome_line, round_summary
from bot.play.match_place import MatchPlace, mention_of
from bot.play.offer_ask import OfferAsks
from bot.play.presence import Presence
from bot.play.thread import add_players, close_thread, locks_when_over, open_thread
from bot.stats.rating_line import rating_change_line
from bot.words.i18n import text
from engine.model import AI_USER_ID, MatchInfo
from engine.service import MatchPlacements, MatchQueries, MatchSettings
from engine.service.events import (
    ChoiceNeeded,
    DecisionApplied,
    Event,
    MatchEnded,
    MatchResumed,
    MatchStarted,
    Reminder,
    RoundScored,
)

DmHook = Callable[[MatchInfo, int], Coroutine[Any, Any, None]]


class Announcements:
    """Shows each public event of a match, in the server's language."""

    def __init__(
        self,
        queries: MatchQueries,
        placements: MatchPlacements,
        settings: MatchSettings,
        place: MatchPlace,
        board: BoardEditor,
        presence: Presence,
        *,
        notify: DmHook,
        retire_dm: DmHook,
        aside: Callable[[Coroutine[Any, Any, None]], None],
        board_settled: Callable[[int], Awaitable[None]],
    ) -> None:
        self._queries = queries
        self._placements = placements
        self._settings = settings
        self._place = place
        self._board = board
        self._presence = presence
        self._notify_by_dm = notify
        self._retire_dm = retire_dm
        self._aside = aside
        self._board_settled = board_settled
        self._offers = OfferAsks(place)
        self._handlers: dict[type[Any], Callable[[Any], Awaitable[None]]] = {
            MatchStarted: self._on_started,
            DecisionApplied: self._on_decision,
            ChoiceNeeded: self._on_choice_needed,
            RoundScored: self._on_round_scored,
            Reminder: self._on_reminder,
            MatchEnded: self._on_ended,
            MatchResumed: self._on_resumed,
        }

    def shows(self, event: Event) -> bool:
        """Whether this kind of event is shown at all."""
        return type(event) in self._handlers

    async def show(self, event: Event) -> None:
        """Post what the event needs said (the board is edited apart from this)."""
        await self._handlers[type(event)](event)

    def _notify(self, info: MatchInfo, user_id: int) -> None:
        """Send the player's panel by DM in the background: a DM never delays the board."""
        self._aside(self._notify_by_dm(info, user_id))

    def _retire(self, info: MatchInfo, user_id: int) -> None:
        """Close the player's DM panel of the match in the background (the turn moved on)."""
        if user_id != AI_USER_ID:
            self._aside(self._retire_dm(info, user_id))

    async def _on_started(self, event: MatchStarted) -> None:
        for user_id in event.players:  # who challenged and who accepted are at the table
            self._presence.seen(event.match_id, user_id)
        info = await self._set_table(await self._queries.match_info(event.match_id))
        first = info.players[event.first_player]
        # Shown late (after a restart) once the match went on, "you start" would mislead.
        if first != AI_USER_ID and info.version == 0:
            lang = await self._place.public_language(info)
            await self._place.post(
                info, text(lang, "table.you_start", mention=mention_of(first)), mention=first
            )
            self._notify(info, first)

    async def _on_resumed(self, event: MatchResumed) -> None:
        """The bot (re)started with this match under way: it has its place and its board,
        and the board shows the match as it is, whatever the bot missed while down."""
        info = await self._set_table(await self._queries.match_info(event.match_id))
        if info.placement.board_message_id is not None:
            await self._board_settled(event.match_id)

    async def _set_table(self, info: MatchInfo) -> MatchInfo:
        """The match's thread (where the server wants one) and board, each made once: shown
        again after a restart, the start finds them. The thread is remembered as soon as it
        exists, before its players are added, so a restart never opens a second one. A
        board already there is left to the board editor, which brings it up to date."""
        placement = info.placement
        thread: discord.abc.Messageable | None = None
        if placement.thread_id is None and placement.board_message_id is None:
            lang = await self._place.public_language(info)
            thread = await self._open_thread(lang, info, await self._place.raw_names(info))
            if thread is not None:
                info = await self._placements.set_location(info.match_id, thread_id=thread.id)
        if info.placement.board_message_id is None:
            # The players before the board: a restart that finds no board adds them again,
            # which changes nothing for one already in.
            if thread is None:
                thread = await self._place.places.channel(info.placement.thread_id)
            if isinstance(thread, discord.Thread):
                await add_players(thread, info)
            await self._board.post_board(info)
            info = await self._queries.match_info(info.match_id)
        return info

    async def _open_thread(
        self, lang: str, info: MatchInfo, names: tuple[str, str]
    ) -> discord.Thread | None:
        if info.channel_id is None or info.guild_id is None:
            return None
        settings = await self._settings.guild_settings(info.guild_id)
        if not self._settings.thread_per_match(settings):
            return None

        async def say(line: str) -> None:
            await self._place.post(info, line)

        return await open_thread(self._place.places, lang, info, names, say)

    async def _on_decision(self, event: DecisionApplied) -> None:
        """The board (edited beside this) shows the move; a new message only where someone
        must be told: the timer played for an absent player, or the next player is away."""
        info = await self._queries.match_info(event.match_id)
        lang = await self._place.public_language(info)
        names = await self._place.names(info)
        if event.move.choice is not None:
            await self._offers.answered(event, lang, names)
        lines = [text(lang, "table.timed_out", name=names[event.player])] if event.automatic else []
        table = await self._queries.public_view(event.match_id)
        if table.version != event.version:
            # Shown late (after a restart): the match went on, so nobody is told it is their
            # turn now; what happened still gets its line.
            if lines:
                await self._place.post(info, "\n".join(lines))
            return
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
            if self._presence.is_away(event.match_id, next_user):
                mention = next_user
                lines.append(text(lang, "table.your_turn", mention=mention_of(next_user)))
        if lines:
            await self._place.post(info, "\n".join(lines), mention=mention)

    async def _on_choice_needed(self, event: ChoiceNeeded) -> None:
        """The offer and its Take buttons are on the board; the chooser is mentioned only
        when away."""
        if event.user_id == AI_USER_ID:
            return
        if (await self._queries.public_view(event.match_id)).version != event.version:
            return  # answered while the bot was down: the board shows what came of it
        info = await self._queries.match_info(event.match_id)
        self._notify(info, event.user_id)
        if not self._presence.is_away(event.match_id, event.user_id):
            return
        lang = await self._place.public_language(info)
        names = await self._place.names(info)
        await self._offers.ask(event, info, lang, names)

    async def _on_round_scored(self, event: RoundScored) -> None:
        info = await self._queries.match_info(event.match_id)
        lang = await self._place.public_language(info)
        names = await self._place.names(info)
        summary = round_summary(lang, event.result, names)
        embed = discord.Embed(description=summary, colour=discord.Colour.gold())
        table = await self._queries.public_view(event.match_id)
        if table.outcome is not None or table.round_number == event.result.round_number:
            await self._place.post(info, "", embed=embed)
            return
        starter = info.players[table.starting_player]
        nxt = text(
            lang, "summary.next_round", round=table.round_number, name=names[table.starting_player]
        )
        embed.description = f"{summary}\n\n{nxt}"
        if (
            starter != AI_USER_ID
            and table.current_player == table.starting_player
            and table.version == event.version
        ):
            self._notify(info, starter)
            if self._presence.is_away(event.match_id, starter):
                mention = text(lang, "table.your_turn", mention=mention_of(starter))
                await self._place.post(info, mention, mention=starter, embed=embed)
                return
        await self._place.post(info, "", embed=embed)

    async def _on_reminder(self, event: Reminder) -> None:
        if (await self._queries.public_view(event.match_id)).version != event.version:
            return  # the turn it was about is over
        info = await self._queries.match_info(event.match_id)
        lang = await self._place.public_language(info)
        line = text(
            lang,
            "table.reminder",
            mention=mention_of(event.user_id),
            when=f"<t:{int(event.deadline)}:R>",
        )
        await self._place.post(info, line, mention=event.user_id)

    async def _on_ended(self, event: MatchEnded) -> None:
        info = await self._queries.match_info(event.match_id)
        lang = await self._place.public_language(info)
        names = await self._place.names(info)
        for user_id in info.players:
            self._retire(info, user_id)
        self._offers.forget(event.match_id)
        # The final board goes through the one board editor, after any edit still under way,
        # so an older page can never land last.
        await self._board_settled(event.match_id)
        view = discord.ui.View(timeout=None)
        lines = [outcome_line(lang, event.outcome, names)]
        ratings = await rating_change_line(self._queries, event.match_id, names, lang)
        if ratings:
            lines.append(ratings)
        if await locks_when_over(self._place.places, info):
            lines.append(text(lang, "outcome.ai_again"))  # a locked thread's button is dead
            lines.append(text(lang, "review.use_command", match=event.match_id))
        else:
            label = text(lang, "outcome.rematch_button")
            view.add_item(RematchButton(event.match_id, event.version, label=label))
            view.add_item(open_review_button(text(lang, "review.button"), event.match_id))
            if not info.is_ai_match:
                lines.append(text(lang, "outcome.rematch_hint"))
        await self._place.post(info, "\n".join(lines), view=view)
        # After the result: an archived thread still shows it, and no longer counts as active.
        await close_thread(self._place.places, info)
        self._board.forget(event.match_id)
