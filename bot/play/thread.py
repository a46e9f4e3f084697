"""The match's thread: opened in the challenge's channel when the server wants one, then
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
from engine.model import AI_USER_ID, MatchInfo

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
"""A week, Discord's longest and as long as the longest turn timer, so a thread archives
only when a match has been quiet for days; the bot unarchives it when the match goes on."""

FINISHED_THREAD_ARCHIVE_MINUTES: Literal[60] = 60
"""Discord's shortest: a finished match between people leaves the server's active threads
an hour after its last message, its Rematch button pressable until then."""


async def open_thread(
    places: Places,
    lang: str,
    info: MatchInfo,
    names: tuple[str, str],
    say: Callable[[str], Awaitable[None]],
) -> discord.Thread | None:
    """A public thread for the match, or None (having said why in the channel).

    Its players are not in it yet: the caller remembers the thread first, then calls
    :func:`add_players`, so a restart in between finds the thread rather than opening a
    second one."""
    channel = await places.channel(info.channel_id)
    if not isinstance(channel, discord.TextChannel):
        return None
    # A server on another process's shard (a tournament round paired here) has no member
    # cached for the bot: Discord's answer to the creation says what is missing then.
    me = channel.guild.me
    lacking = [] if me is None else missing(channel.permissions_for(me), FOR_A_THREAD)
    if lacking:
        reason = text(
            lang, "match.no_thread_permission", permissions=permission_list(lang, lacking)
        )
        await say(text(lang, "match.no_thread", reason=reason))
        return None
    name = text(lang, "match.thread_name", first=names[0], second=names[1])[:100]
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
        reason = text(lang, "match.no_thread_refused", error=error.text or error.status)
        await say(text(lang, "match.no_thread", reason=reason))
        return None
    return thread


async def add_players(thread: discord.Thread, info: MatchInfo) -> None:
    """Add the match's people to its thread, so it shows in their thread list; adding someone
    already in changes nothing, so a restart may do it again."""
    for user_id in info.players:
        if user_id != AI_USER_ID:
            with contextlib.suppress(discord.HTTPException):
                # They can still open the thread from the channel if this fails.
                await thread.add_user(discord.Object(user_id))


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
    """Once a match's result is posted, see that its thread leaves the server's active
    threads (Discord caps them, and refuses new threads at the cap).

    A match against the AI is archived at once, and locked given Manage Threads so nobody
    reopens it by chatting (topics/threads, "Locked Threads"); its result then offers no
    button. A match between people is not archived: Discord's clients may grey out the
    buttons of an archived thread (web and mobile unarchive it before sending a press, and
    a press whose unarchiving fails never reaches the bot), and its Rematch button must
    work. Its auto-archive duration is cut to an hour instead, so it archives itself an
    hour after its last message. Archiving and the duration need nothing more, the bot
    having created the thread ("Editing & Deleting Threads"); locking needs Manage Threads.
    """
    if info.placement.thread_id is None:
        return
    thread = await places.channel(info.placement.thread_id)
    if not isinstance(thread, discord.Thread) or thread.archived:
        return
    moderator = _moderates(thread)
    # The bot's own user, not its member: a server on a shard another process holds has
    # no members cached here (``guild.me`` is None), and the thread is still the bot's.
    if not moderator and thread.owner_id != places.bot_user_id:
        log.info("match %s: thread %s left open (not ours to close)", info.match_id, thread.id)
        return
    if not info.is_ai_match and thread.auto_archive_duration == FINISHED_THREAD_ARCHIVE_MINUTES:
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
        if not info.is_ai_match:
            return await thread.edit(auto_archive_duration=FINISHED_THREAD_ARCHIVE_MINUTES)
        if lock:
            return await thread.edit(archived=True, locked=True)
        return await thread.edit(archived=True)

    try:
        await places.retrier.until_accepted(f"match {info.match_id}: closing the thread", close)
    except discord.HTTPException as error:
        # Left open, it archives itself after a week without messages.
        log.warning("match %s: thread %s left open (%s)", info.match_id, thread.id, error)
