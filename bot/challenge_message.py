"""The public challenge message: the invitation with Accept / Decline, and what it turns
into once answered, withdrawn or expired."""

from __future__ import annotations

import discord

from bot.custom_ids import Verb, game_id
from bot.discord_ui import EMBED_COLOUR
from bot.ui_spec import ButtonSpec, PageSpec, Style
from engine import Variant
from engine.store.rows import MatchInfo


def duration_text(seconds: float) -> str:
    """``"1 day"``, ``"12 hours"``, ``"15 minutes"``."""
    if seconds >= 86400 and seconds % 86400 == 0:
        days = int(seconds // 86400)
        return f"{days} day{'s' if days > 1 else ''}"
    if seconds >= 3600 and seconds % 3600 == 0:
        hours = int(seconds // 3600)
        return f"{hours} hour{'s' if hours > 1 else ''}"
    minutes = max(1, int(seconds // 60))
    return f"{minutes} minute{'s' if minutes > 1 else ''}"


def invitation(info: MatchInfo, names: tuple[str, str], opponent_mention: str) -> discord.Embed:
    variant = "three rounds" if info.variant is Variant.THREE_ROUNDS else "standard"
    expires = int(info.challenge_expires_at or 0)
    return discord.Embed(
        title=f"⚔️ {names[0]} challenges {names[1]} to Hanamikoji",
        description=(
            f"Variant: **{variant}** · turn timer: **{duration_text(info.turn_seconds)}**\n"
            f"{opponent_mention}, do you accept? The challenge expires <t:{expires}:R>."
        ),
        colour=EMBED_COLOUR,
    )


def answer_buttons(match_id: int) -> PageSpec:
    return PageSpec(
        text="",
        rows=(
            (
                ButtonSpec("Accept", game_id(match_id, 0, Verb.ACCEPT), Style.SUCCESS),
                ButtonSpec("Decline", game_id(match_id, 0, Verb.DECLINE), Style.DANGER),
            ),
        ),
    )


def closed(names: tuple[str, str], what: str, *, started: bool = False) -> discord.Embed:
    """The challenge after its answer: ``what`` says what happened."""
    colour = discord.Colour.green() if started else discord.Colour.dark_grey()
    return discord.Embed(
        title=f"Hanamikoji · {names[0]} vs {names[1]}", description=what, colour=colour
    )
