"""The public challenge message: the invitation with Accept / Decline, and what it turns
into once answered, withdrawn or expired."""

from __future__ import annotations

import discord

from bot.custom_ids import Verb, game_id
from bot.discord_ui import EMBED_COLOUR
from bot.i18n import text
from bot.ui_spec import ButtonSpec, PageSpec, Style
from engine.rules import Variant
from engine.store.rows import MatchInfo


def duration_text(lang: str, seconds: float) -> str:
    """``"1 day"``, ``"12 hours"``, ``"15 minutes"``."""
    for unit, size in (("day", 86400), ("hour", 3600)):
        if seconds >= size and seconds % size == 0:
            count = int(seconds // size)
            return (
                text(lang, f"duration.{unit}")
                if count == 1
                else text(lang, f"duration.{unit}s", count=count)
            )
    minutes = max(1, int(seconds // 60))
    return (
        text(lang, "duration.minute")
        if minutes == 1
        else text(lang, "duration.minutes", count=minutes)
    )


def invitation(
    lang: str, info: MatchInfo, names: tuple[str, str], opponent_mention: str
) -> discord.Embed:
    variant = text(
        lang,
        "challenge.three_rounds" if info.variant is Variant.THREE_ROUNDS else "challenge.standard",
    )
    expires = int(info.challenge_expires_at or 0)
    return discord.Embed(
        title=text(lang, "challenge.title", first=names[0], second=names[1]),
        description=text(
            lang,
            "challenge.body",
            variant=variant,
            timer=duration_text(lang, info.turn_seconds),
            mention=opponent_mention,
            when=f"<t:{expires}:R>",
        ),
        colour=EMBED_COLOUR,
    )


def answer_buttons(lang: str, match_id: int) -> PageSpec:
    return PageSpec(
        text="",
        rows=(
            (
                ButtonSpec(
                    text(lang, "challenge.accept"), game_id(match_id, 0, Verb.ACCEPT), Style.SUCCESS
                ),
                ButtonSpec(
                    text(lang, "challenge.decline"),
                    game_id(match_id, 0, Verb.DECLINE),
                    Style.DANGER,
                ),
            ),
        ),
    )


def closed(lang: str, names: tuple[str, str], what: str, *, started: bool = False) -> discord.Embed:
    """The challenge after its answer: ``what`` says what happened."""
    colour = discord.Colour.green() if started else discord.Colour.dark_grey()
    title = text(lang, "board.title", first=names[0], second=names[1])
    return discord.Embed(title=title, description=what, colour=colour)
