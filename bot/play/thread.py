"""The match's thread: opened in the challenge's channel when the server wants one, with
both players added; where Discord refuses, the match is played in the channel and a line
says why."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Literal

import discord

from bot.discord_plumbing.channel_permissions import FOR_A_THREAD, missing, permission_list
from bot.discord_plumbing.places import Places
from bot.words.i18n import text
from engine.store.rows import AI_USER_ID, MatchInfo

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
"""A week, Discord's longest and as long as the longest turn timer, so a thread archives
only when a match has been quiet for days; the bot unarchives it when the match goes on."""


async def open_thread(
    places: Places,
    lang: str,
    info: MatchInfo,
    names: tuple[str, str],
    say: Callable[[str], Awaitable[None]],
) -> discord.Thread | None:
    """A public thread for the match, or None (having said why in the channel)."""
    channel = await places.channel(info.channel_id)
    if not isinstance(channel, discord.TextChannel):
        return None
    lacking = missing(channel.permissions_for(channel.guild.me), FOR_A_THREAD)
    if lacking:
        reason = text(
            lang, "table.no_thread_permission", permissions=permission_list(lang, lacking)
        )
        await say(text(lang, "table.no_thread", reason=reason))
        return None
    name = text(lang, "table.thread_name", first=names[0], second=names[1])[:100]
    try:
        thread = await places.retrier.until_accepted(
            f"match {info.match_id}: the thread",
            lambda: channel.create_thread(
                name=name,
                type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            ),
            creates=True,
        )
    except discord.HTTPException as error:
        # Any refusal (403, the server's active-thread limit 160006, …): the match is
        # played in the channel rather than not shown at all.
        log.warning("match %s: no thread (%s); playing in the channel", info.match_id, error)
        reason = text(lang, "table.no_thread_refused", error=error.text or error.status)
        await say(text(lang, "table.no_thread", reason=reason))
        return None
    for user_id in info.players:
        if user_id != AI_USER_ID:
            with contextlib.suppress(discord.HTTPException):
                # They can still open the thread from the channel if this fails.
                await thread.add_user(discord.Object(user_id))
    return thread


async def locks_when_over(places: Places, info: MatchInfo) -> bool:
    """Whether :func:`close_thread` will lock the match's thread: a locked thread's buttons
    cannot be pressed, so its result must not offer any."""
    if not info.is_ai_match or info.placement.thread_id is None:
        return False
    thread = await places.channel(info.placement.thread_id)
    return isinstance(thread, discord.Thread) and _moderates(thread)


def _moderates(thread: discord.Thread) -> bool:
    try:
        return thread.permissions_for(thread.guild.me).manage_threads
    except discord.ClientException:  # the parent channel is not in the cache
        return False


async def close_thread(places: Places, info: MatchInfo) -> None:
    """Archive the thread of a match that is over, so finished matches do not fill the
    server's active threads (Discord caps them, and refuses new threads at the cap).

    A match against the AI is also locked: nobody reopens it by chatting, which needs
    Manage Threads (topics/threads, "Locked Threads"); without it the thread is only
    archived. A match between people is only archived: a message or a Rematch press
    reopens it (Discord's client unarchives a thread before a button press from it).
    Archiving needs nothing more, the bot having created the thread ("Editing & Deleting
    Threads").
    """
    if info.placement.thread_id is None:
        return
    thread = await places.channel(info.placement.thread_id)
    if not isinstance(thread, discord.Thread) or thread.archived:
        return
    me = thread.guild.me
    moderator = _moderates(thread)
    if not moderator and thread.owner_id != me.id:
        log.info("match %s: thread %s left open (not ours to archive)", info.match_id, thread.id)
        return
    lock = info.is_ai_match and moderator
    if info.is_ai_match and not lock:
        log.info(
            "match %s: thread %s archived but not locked: locking needs Manage Threads",
            info.match_id,
            thread.id,
        )

    async def close() -> discord.Thread:
        # One request: an archived thread refuses every edit but unarchiving.
        if lock:
            return await thread.edit(archived=True, locked=True)
        return await thread.edit(archived=True)

    try:
        await places.retrier.until_accepted(f"match {info.match_id}: closing the thread", close)
    except discord.HTTPException as error:
        # Left open, it archives itself after a week without messages.
        log.warning("match %s: thread %s left open (%s)", info.match_id, thread.id, error)
