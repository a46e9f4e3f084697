"""A match whose thread is gone — deleted by a moderator, or no longer usable by the bot —
goes on elsewhere: in a new thread in its channel, else in the channel itself, with a line
saying so to its players and its board posted there again. Nothing of the match is lost:
the service holds it, and the board shows it as it is."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

import discord

from bot.play.match_place import MatchPlace
from bot.play.thread import add_players, open_thread
from bot.words.i18n import text
from bot.words.player_names import mention
from engine.model import AI_USER_ID, MatchInfo, Placement
from engine.service import MatchPlacements

log = logging.getLogger(__name__)

PostBoard = Callable[[MatchInfo], Awaitable[discord.Message | None]]


async def move_match(
    place: MatchPlace,
    placements: MatchPlacements,
    post_board: PostBoard,
    info: MatchInfo,
    *,
    unusable: str | None = None,
) -> MatchInfo:
    """Show the match in a new thread (its old one was deleted) or, when the old thread is
    ``unusable`` (why, in words) or a new one is refused, in its channel; returns the match
    as it is now placed."""
    lang = await place.public_language(info)
    in_channel = replace(info, placement=Placement())
    thread: discord.Thread | None = None
    if unusable is None:

        async def say(line: str) -> None:
            await place.post(in_channel, line)

        names = await place.raw_names(info)
        thread = await open_thread(place.places, lang, in_channel, names, say)
    moved = await placements.relocate(
        info.match_id, Placement(None if thread is None else thread.id, None)
    )
    log.info(
        "match %s: its thread %s is gone; it goes on in %s",
        info.match_id,
        info.placement.thread_id,
        "a new thread" if thread is not None else "its channel",
    )
    if thread is not None:
        await add_players(thread, moved)
    humans = [user_id for user_id in info.players if user_id != AI_USER_ID]
    if thread is not None:
        line = text(lang, "server_changes.thread_replaced", players=_mentions(humans))
    else:
        why = unusable or text(lang, "server_changes.thread_deleted")
        line = text(lang, "server_changes.moved_to_channel", players=_mentions(humans), reason=why)
    mentioned = discord.AllowedMentions(users=[discord.Object(user_id) for user_id in humans])
    await place.post(moved, line, allowed_mentions=mentioned)
    await post_board(moved)
    return moved


def _mentions(user_ids: list[int]) -> str:
    return " ".join(mention(user_id) for user_id in user_ids)
