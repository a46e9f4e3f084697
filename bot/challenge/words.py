"""What the challenge feature says: the public challenge message, to a member or to anyone
(an open seat) — the invitation, and what it turns into once answered, withdrawn or
expired — in a given language (the refusals are :mod:`bot.words.refusals`)."""

from __future__ import annotations

import discord

from bot.discord_plumbing.pages import EMBED_COLOUR
from bot.words.durations import duration_text
from bot.words.i18n import text
from bot.words.paces import pace_text
from engine.clocks import Pace
from engine.model import MatchInfo
from engine.rules import Variant


def terms(lang: str, info: MatchInfo) -> tuple[str, str, str]:
    """The challenge's variant, time (its turn timer, or its clock or days a move) and
    whether it is rated, in words."""
    variant = text(
        lang,
        "challenge.three_rounds" if info.variant is Variant.THREE_ROUNDS else "challenge.standard",
    )
    rated = text(lang, "seats.rated" if info.rated else "seats.unrated")
    if info.pace is Pace.PER_TURN:
        return variant, duration_text(lang, info.turn_seconds), rated
    return variant, pace_text(lang, info.time_control), rated


def _body_key(info: MatchInfo, key: str) -> str:
    """A per-turn match's body names its turn timer; a clock's or days' names the time."""
    if info.pace is Pace.PER_TURN:
        return key
    return "time.seat_body" if key == "seats.body" else "time.challenge_body"


def invitation(
    lang: str, info: MatchInfo, names: tuple[str, str], opponent_mention: str = ""
) -> discord.Embed:
    """The challenge while it waits: for the member ``opponent_mention`` names, or, an open
    seat, for anyone (its host is ``names[0]``)."""
    variant, timer, rated = terms(lang, info)
    when = f"<t:{int(info.challenge_expires_at or 0)}:R>"
    if info.is_open_seat:
        host = names[0]
        title = text(lang, "seats.title", host=host)
        body = text(
            lang,
            _body_key(info, "seats.body"),
            variant=variant,
            timer=timer,
            rated=rated,
            host=host,
            when=when,
        )
        if info.min_reliability:
            body += "\n" + text(lang, "time.min_reliability", minimum=info.min_reliability)
    else:
        title = text(lang, "challenge.title", first=names[0], second=names[1])
        body = text(
            lang,
            _body_key(info, "challenge.body"),
            variant=variant,
            timer=timer,
            mention=opponent_mention,
            when=when,
        )
    return discord.Embed(title=title, description=body, colour=EMBED_COLOUR)


def closed(lang: str, names: tuple[str, str], what: str, *, started: bool = False) -> discord.Embed:
    """The challenge after its answer, under the match's title: ``what`` says what happened."""
    colour = discord.Colour.green() if started else discord.Colour.dark_grey()
    title = text(lang, "board.title", first=names[0], second=names[1])
    return discord.Embed(title=title, description=what, colour=colour)


def taken(lang: str, names: tuple[str, str]) -> discord.Embed:
    """An open seat someone joined: their match has started."""
    return closed(
        lang, names, text(lang, "seats.taken", host=names[0], joiner=names[1]), started=True
    )


def seat_closed(lang: str, host: str, key: str) -> discord.Embed:
    """An open seat withdrawn or expired (``key``: ``seats.cancelled``, …): it keeps its
    title, as no match came of it."""
    title = text(lang, "seats.title", host=host)
    return discord.Embed(
        title=title, description=text(lang, key, host=host), colour=discord.Colour.dark_grey()
    )


def expired(lang: str, info: MatchInfo, names: tuple[str, str]) -> discord.Embed:
    """The challenge nobody answered in time."""
    if info.is_open_seat:
        return seat_closed(lang, names[0], "seats.expired")
    return closed(lang, names, text(lang, "challenge.expired", name=names[1]))
