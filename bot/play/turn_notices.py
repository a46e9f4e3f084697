"""What the DMs of a player who asked for them add to a match's news: the member's other
matches of the server that wait on them, and an overdue turn that is theirs to settle."""

from __future__ import annotations

from bot.words.i18n import text
from engine.model import MatchInfo

MAX_LINKS = 10
"""More links than this make a DM a list: the rest are counted, not linked."""


def match_link(info: MatchInfo) -> str | None:
    """The Discord link to the match's thread (or channel), if it has a place in a server."""
    where = info.placement.thread_id or info.channel_id
    if info.guild_id is None or where is None:
        return None
    return f"https://discord.com/channels/{info.guild_id}/{where}"


def also_your_turn(lang: str, info: MatchInfo, user_id: int, games: list[MatchInfo]) -> str:
    """ "Also your turn in: …", linking the member's other matches (``games``, as
    :meth:`engine.service.MatchQueries.games_of` lists them) that wait on them; empty when
    there are none."""
    links = [
        link
        for game in games
        if game.match_id != info.match_id
        and game.to_move == user_id
        and (link := match_link(game)) is not None
    ]
    if not links:
        return ""
    shown = " · ".join(links[:MAX_LINKS])
    if len(links) > MAX_LINKS:
        shown += " " + text(lang, "play_overdue.and_more", count=len(links) - MAX_LINKS)
    return text(lang, "play_overdue.also_your_turn", links=shown)


def claim_dm(lang: str, info: MatchInfo, late: str) -> str:
    """The DM to the waiting player once an overdue turn is theirs to settle."""
    where = match_link(info) or f"<#{info.placement.thread_id or info.channel_id}>"
    return text(lang, "play_overdue.claim_dm", match=info.match_id, late=late, where=where)
