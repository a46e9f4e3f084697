"""The daily puzzle in Discord: its public message, posted once in the server's puzzle
channel when the service announces the day's puzzle (:class:`DailyPuzzlePoster`), and a
member's press on it (:func:`answer_daily`): the answer privately — solved or missed, the
best move, why, the rating change — and the public message edited to list who solved it.

Which puzzle, when, and that it is posted once are the engine's
(:mod:`engine.service.puzzles.daily`); each answer is the member's one attempt at that
puzzle (``service.puzzles.answer``). A channel the bot cannot post in is logged once per
server and channel; the day is skipped and the next day tried again.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import discord

from bot.discord_plumbing.announcement_nonces import (
    NONCE_TRUSTED_SECONDS,
    announcing,
    next_nonce,
    with_nonce,
)
from bot.discord_plumbing.first_response import FirstResponse, acknowledge, send_private
from bot.discord_plumbing.match_item import refusals_answered
from bot.discord_plumbing.pages import Page, message_kwargs, reply_privately
from bot.puzzles.daily_deps import DailyPuzzleDeps
from bot.puzzles.daily_page import daily_page, day_text
from bot.puzzles.puzzle_message import PUZZLE_REFUSALS, puzzle_refusal
from bot.puzzles.puzzle_page import answered_page
from bot.words.i18n import language_of, text
from engine.model.daily_puzzle import DailyPuzzle
from engine.service import Event
from engine.service.announcing.addresses import announcement_key
from engine.service.puzzles.errors import PuzzleNotFound
from engine.service.puzzles.events import DailyPuzzlePosted
from engine.service.puzzles.service import PosedPuzzle

log = logging.getLogger(__name__)

_NOBODY = discord.AllowedMentions.none()
"""The solvers are named as mentions, which show their names without pinging."""


async def _public_page(
    deps: DailyPuzzleDeps,
    lang: str,
    guild_id: int,
    day: int,
    posed: PosedPuzzle,
    daily: DailyPuzzle | None,
) -> Page:
    """The public message as it stands: the position, the choices, the solvers so far."""
    solvers, total = ([], 0) if daily is None else await deps.daily.solvers(daily)
    names = None
    if posed.players is not None:
        names = await deps.names.pair(posed.players, None, lang, guild_id=guild_id)
    return await daily_page(lang, day, posed, names, deps.emojis.faces, solvers, total)


class DailyPuzzlePoster:
    """Posts each server's puzzle of the day (see the module docstring)."""

    def __init__(self, deps: DailyPuzzleDeps) -> None:
        self._deps = deps
        self._warned: set[tuple[int, int]] = set()
        """(server, channel) pairs already logged as refusing the daily puzzle."""

    async def on_event(self, event: Event) -> None:
        """The service's subscriber: post the day's puzzle of a server."""
        if isinstance(event, DailyPuzzlePosted):
            # A nonce per message: shown again after a restart, it is not posted twice.
            with announcing(None, announcement_key(event) or "daily-puzzle"):
                await self.post(event)
            self._deps.announced(event)

    async def post(self, news: DailyPuzzlePosted) -> None:
        deps = self._deps
        channel = await deps.places.channel(news.channel_id)
        if channel is None:
            self._cannot_post(news, "the channel is gone or out of reach")
            return
        try:
            posed = await deps.puzzles.posed(news.guild_id, news.key)
        except PuzzleNotFound:
            log.warning("server %d: daily puzzle %s is gone; not posted", news.guild_id, news.key)
            return
        lang = await deps.languages.public(news.guild_id)
        page = await _public_page(deps, lang, news.guild_id, news.day, posed, None)
        nonce = next_nonce()

        async def send() -> discord.Message:
            # Built afresh on each try: discord.py closes a file it sent.
            return await channel.send(
                **message_kwargs(page), allowed_mentions=_NOBODY, **with_nonce(nonce)
            )

        try:
            await deps.places.retrier.until_accepted(
                f"server {news.guild_id}: the daily puzzle of {day_text(news.day)}",
                send,
                creates=True,
                deduplicated_for=None if nonce is None else NONCE_TRUSTED_SECONDS,
            )
        except discord.HTTPException as error:
            self._cannot_post(news, f"Discord refused it: {error}")

    def _cannot_post(self, news: DailyPuzzlePosted, why: str) -> None:
        """Logged once per server and channel: the day is skipped, the next day tried."""
        if (news.guild_id, news.channel_id) in self._warned:
            return
        self._warned.add((news.guild_id, news.channel_id))
        log.warning(
            "server %d: the daily puzzle cannot be posted in channel %d (%s); skipped until it can",
            news.guild_id,
            news.channel_id,
            why,
        )


async def answer_daily(
    deps: DailyPuzzleDeps, interaction: discord.Interaction[Any], day: int, key: str, choice: str
) -> None:
    """A member's press on the public message: their answer privately, and a solve listed
    on the message."""
    lang = language_of(interaction.locale)
    guild_id = interaction.guild_id
    if guild_id is None:
        await reply_privately(interaction, text(lang, "puzzles.not_in_server"))
        return
    async with refusals_answered(interaction, f"daily puzzle {key}"):
        await acknowledge(interaction, FirstResponse.THINK)
        daily = await deps.daily.of_day(guild_id, day)
        if daily is None or daily.key != key:  # another server's, or forged
            await reply_privately(interaction, text(lang, "daily_puzzle.stale"))
            return
        try:
            answer = await deps.puzzles.answer(guild_id, interaction.user.id, key, choice)
        except PUZZLE_REFUSALS as refusal:
            await reply_privately(interaction, puzzle_refusal(lang, refusal))
            return
        verdict = await answered_page(lang, answer, None, None, deps.emojis.faces)
        notice = text(lang, "daily_puzzle.answered", date=day_text(day))
        await send_private(interaction, **message_kwargs(replace(verdict, notice=notice)))
        if answer.solved:
            await _list_solvers(deps, interaction, daily)


async def _list_solvers(
    deps: DailyPuzzleDeps, interaction: discord.Interaction[Any], daily: DailyPuzzle
) -> None:
    """The public message, edited to name who solved the puzzle so far."""
    message, channel = interaction.message, interaction.channel
    if message is None or not isinstance(channel, discord.abc.Messageable):
        return
    try:
        posed = await deps.puzzles.posed(daily.guild_id, daily.key)
    except PuzzleNotFound:
        return  # gone since: the message stays as it was
    lang = await deps.languages.public(daily.guild_id)
    page = await _public_page(deps, lang, daily.guild_id, daily.day, posed, daily)
    try:
        await deps.places.edit_message(
            channel,
            message.id,
            lambda: {**message_kwargs(page, editing=True), "allowed_mentions": _NOBODY},
        )
    except discord.HTTPException as error:
        log.warning("server %d: the daily puzzle's solvers not listed (%s)", daily.guild_id, error)
